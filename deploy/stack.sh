#!/usr/bin/env bash
# The compose stack with podman on machines like the build machines (docs/deploy.md):
#   deploy/stack.sh build        the base (deploy/base-image.sh) if missing, then the five images
#   deploy/stack.sh up           start in order, waiting for each part to be healthy
#   deploy/stack.sh down [-v]    stop and remove the containers (-v: and the volumes)
#   deploy/stack.sh ps|logs ...  passed to podman-compose
# Podman's settings come from deploy/containers.conf. podman-compose starts containers without
# waiting for health checks, and podman runs health checks only when asked (no systemd timer),
# so `up` does the waiting itself. Environment: compose.yaml's variables, BASE_IMAGE,
# COMPOSE_PROJECT_NAME (default wordcloud), CA_BUNDLE (the host's trust store, for builds
# behind a TLS-inspecting proxy).
set -euo pipefail
cd "$(dirname "$0")/.."
export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/deploy/containers.conf}"
export COMPOSE_PROJECT_NAME="${COMPOSE_PROJECT_NAME:-wordcloud}"
# Downloads redirect to the store on its published port unless a public host is given.
export S3_PUBLIC_ENDPOINT_URL="${S3_PUBLIC_ENDPOINT_URL:-http://127.0.0.1:${STORE_PORT:-8480}}"
LOCAL_BASE=localhost/wordcloud-base:bookworm
export BASE_IMAGE="${BASE_IMAGE:-$LOCAL_BASE}"
CA_BUNDLE="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"

# podman-compose echoes every podman command line, secrets included: into a log file instead.
LOG="${STACK_LOG:-${TMPDIR:-/tmp}/$COMPOSE_PROJECT_NAME-compose.log}"
compose() { podman-compose -p "$COMPOSE_PROJECT_NAME" -f compose.yaml "$@" >>"$LOG" 2>&1; }
container() { echo "${COMPOSE_PROJECT_NAME}_$1_1"; }

wait_healthy() {  # service... : run each one's health check until it passes (300 s at most)
    local service deadline=$((SECONDS + 300))
    for service in "$@"; do
        until podman healthcheck run "$(container "$service")" >/dev/null 2>&1; do
            if [ "$SECONDS" -ge "$deadline" ]; then
                echo "$service is not healthy after 300 s" >&2
                podman logs --tail 30 "$(container "$service")" >&2 || true
                return 1
            fi
            sleep 1
        done
        echo "$service healthy"
    done
}

build() {
    if [ "$BASE_IMAGE" = "$LOCAL_BASE" ]; then
        deploy/base-image.sh
    fi
    local secret=() target
    [ -s "$CA_BUNDLE" ] && secret=(--secret "id=cacert,src=$CA_BUNDLE")
    for target in app proxy postgres redis store; do
        echo "building localhost/wordcloud-$target:latest"
        podman build --quiet --file Containerfile --target "$target" "${secret[@]}" \
            --build-arg "BASE_IMAGE=$BASE_IMAGE" --tag "localhost/wordcloud-$target:latest" . >/dev/null
    done
}

up() {
    compose up -d --no-build postgres redis store
    wait_healthy postgres redis store
    compose up -d --no-build --no-deps migrate
    local status
    status="$(podman wait "$(container migrate)")"
    if [ "$status" != 0 ]; then
        podman logs --tail 30 "$(container migrate)" >&2
        echo "migrate exited with $status" >&2
        return 1
    fi
    compose up -d --no-build --no-deps web1 web2 worker1 worker2 converter
    wait_healthy web1 web2
    compose up -d --no-build --no-deps proxy
    local deadline=$((SECONDS + 60)) url="http://127.0.0.1:${WEB_PORT:-8000}/api/templates"
    until curl -sf -o /dev/null "$url"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "the proxy does not answer after 60 s; what it and podman say:" >&2
            curl -sS -o /dev/null -w '%{http_code} from %{url_effective}\n' "$url" >&2 || true
            podman ps -a --format '{{.Names}} {{.Status}} {{.Ports}}' >&2 || true
            podman logs --tail 30 "$(container proxy)" >&2 || true
            return 1
        fi
        sleep 1
    done
    echo "up: http://127.0.0.1:${WEB_PORT:-8000}/api/ (commerce: port ${COMMERCE_PORT:-3090})"
}

down() {
    if [ "${1:-}" = "-v" ]; then compose down --volumes; else compose down; fi
}

command="${1:?usage: deploy/stack.sh build|up|down [-v]|ps|logs}"
shift
case "$command" in
    build) build ;;
    up) up ;;
    down) down "$@" ;;
    *) podman-compose -p "$COMPOSE_PROJECT_NAME" -f compose.yaml "$command" "$@" ;;
esac
