#!/usr/bin/env bash
# A one-machine OpenStack Swift with its S3 API (the s3api middleware), from Debian's packages
# (swift-proxy, swift-object, swift-container, swift-account): one replica, one device under
# FOLDER, every server on loopback (or BIND), in the foreground until it is stopped.
#
#   deploy/swift/run.sh FOLDER PORT [BIND]
#
# S3 answers on BIND:PORT (default 127.0.0.1); the object, container and account servers take
# PORT+1, PORT+2, PORT+3. The S3 credentials are S3_ACCESS_KEY_ID (an `account:user` of
# tempauth, default `wordclouds:store`) and S3_SECRET_ACCESS_KEY (default `wordclouds-secret`).
# A FOLDER used before keeps its objects: stop and start again on the same folder and port and
# everything is still there. The tests start it (tests/storage/swift.py), so does the compose
# stack (Containerfile target `store`). SIGTERM stops every server.
set -euo pipefail
FOLDER="$(realpath -m "${1:?usage: run.sh FOLDER PORT [BIND]}")"
PORT="${2:?usage: run.sh FOLDER PORT [BIND]}"
BIND="${3:-127.0.0.1}"
ACCESS="${S3_ACCESS_KEY_ID:-wordclouds:store}"
SECRET="${S3_SECRET_ACCESS_KEY:-wordclouds-secret}"
ACCOUNT="${ACCESS%%:*}" USER_NAME="${ACCESS#*:}"
ETC="$FOLDER/etc" DEVICES="$FOLDER/devices"
mkdir -p "$ETC" "$DEVICES/d1" "$FOLDER/cache"
# Rings and servers address each other on loopback when every server binds everywhere.
RING_IP="$BIND"; [ "$BIND" = 0.0.0.0 ] && RING_IP=127.0.0.1

common() {  # the [DEFAULT] section every server shares
    cat <<CONF
[DEFAULT]
bind_ip = $BIND
swift_dir = $ETC
devices = $DEVICES
# One folder on a local file system, not a mounted drive.
mount_check = false
disable_fallocate = true
workers = 0
log_name = swift
log_level = WARNING
CONF
}

for kind in object container account; do
    offset=$(( $(printf 'object\ncontainer\naccount' | grep -n "^$kind$" | cut -d: -f1) ))
    { common; cat <<CONF
bind_port = $((PORT + offset))

[pipeline:main]
pipeline = $kind-server

[app:$kind-server]
use = egg:swift#$kind

[$kind-replicator]
[$kind-updater]
[$kind-auditor]
CONF
    } > "$ETC/$kind-server.conf"
    if [ ! -f "$ETC/$kind.ring.gz" ]; then
        swift-ring-builder "$ETC/$kind.builder" create 6 1 1 >/dev/null
        swift-ring-builder "$ETC/$kind.builder" add "r1z1-$RING_IP:$((PORT + offset))/d1" 1 >/dev/null
        swift-ring-builder "$ETC/$kind.builder" rebalance >/dev/null
    fi
done

{ common; cat <<CONF
bind_port = $PORT

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
# Pages of the service fetch downloads they were redirected to (the studio's SVG): any origin
# may read an object whose presigned URL it has.
cors_allow_origin = *
# A store on one machine answers within these (a hung server is the client's timeout to judge).
node_timeout = 10
conn_timeout = 1

[filter:s3api]
use = egg:swift#s3api
location = us-east-1
# Presigned URLs may live up to a week, as on AWS.
max_upload_part_num = 10000

[filter:tempauth]
use = egg:swift#tempauth
user_${ACCOUNT}_${USER_NAME} = $SECRET .admin

[filter:healthcheck]
use = egg:swift#healthcheck
[filter:cache]
use = egg:swift#memcache
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
CONF
} > "$ETC/proxy-server.conf"

pids=()
stop() { kill "${pids[@]}" 2>/dev/null || true; wait; }
trap stop TERM INT EXIT
for kind in object container account; do
    "swift-$kind-server" "$ETC/$kind-server.conf" &
    pids+=($!)
done
swift-proxy-server "$ETC/proxy-server.conf" &
pids+=($!)
wait -n "${pids[@]}"
