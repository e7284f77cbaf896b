#!/bin/sh
# PostgreSQL for compose.yaml: on an empty data volume, create the cluster (password login from
# the network, POSTGRES_PASSWORD) and the database POSTGRES_DB; then run the server.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    pwfile="$(mktemp)"
    printf '%s\n' "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}" >"$pwfile"
    initdb --username=postgres --pwfile="$pwfile" --auth-local=trust \
        --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    pg_ctl --wait --options="-c listen_addresses=''" start >/dev/null
    createdb --username=postgres "${POSTGRES_DB:-wordclouds}"
    pg_ctl --wait stop >/dev/null
fi
exec postgres -c listen_addresses='*'
