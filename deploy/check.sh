#!/usr/bin/env bash
# The scale and fault check (docs/deploy.md): installs podman and friends (make container-deps),
# builds the images, brings the stack up under its own project name with fresh secrets and
# volumes, runs deploy/check.py against it, and tears it all down again, volumes included.
# Host ports: WEB_PORT, COMMERCE_PORT and STORE_PORT if set, else free ones (a developer's
# `make run` may hold 8000). The machine's own PostgreSQL and Redis are never touched: the
# stack's stay on its internal network.
set -euo pipefail
cd "$(dirname "$0")/.."
make --no-print-directory container-deps setup
PY=.venv/bin/python
# Three different ports free on every address, taken below the kernel's range for outgoing
# connections (core.processes.free_port says why).
free_ports() {
    "$PY" -c 'from core.processes import free_port
ports = set()
while len(ports) < 3:
    ports.add(free_port("0.0.0.0"))
print(*ports)'
}
secret() { "$PY" -c 'import secrets; print(secrets.token_urlsafe(32))'; }

export COMPOSE_PROJECT_NAME="${COMPOSE_PROJECT_NAME:-wordcloud-check}"
read -r web commerce store <<<"$(free_ports)"
export WEB_PORT="${WEB_PORT:-$web}" COMMERCE_PORT="${COMMERCE_PORT:-$commerce}"
export STORE_PORT="${STORE_PORT:-$store}" S3_SECRET_ACCESS_KEY="$(secret)"
export SECRET_KEY="$(secret)" ORDERS_ADMIN_PASSWORD="$(secret)" POSTGRES_PASSWORD="$(secret)"
# Clients (this check) reach the proxy on loopback: the share links point there.
export PUBLIC_BASE_URL="http://127.0.0.1:$WEB_PORT"
# The check's proxy listens on plain HTTP (no certificate here): the stack's HTTPS=1 would
# redirect every request it makes. tests/test_deploy_settings.py checks the HTTPS=1 settings.
export HTTPS=0
# Every request of the check comes from one address, which submits bursts of 20 jobs: rates
# and a queue cap it does not meet, but the failed-login rate it checks (10 a minute).
export THROTTLE_RATES="jobs=100000/hour,exports=100000/hour,login=10/minute,lookups=100000/minute"
export MAX_QUEUED_PER_CLIENT=100000

started=$SECONDS
deploy/stack.sh build
echo "images built in $((SECONDS - started)) s"
trap 'deploy/stack.sh down -v >/dev/null 2>&1 || true' EXIT
deploy/stack.sh down -v >/dev/null 2>&1 || true  # leftovers of an interrupted run
started=$SECONDS
deploy/stack.sh up
echo "stack up in $((SECONDS - started)) s"
# On a failure, what each container said last, so that a failure in CI can be explained.
"$PY" deploy/check.py || {
    status=$?
    for service in proxy web1 web2 worker1 worker2 postgres redis; do
        echo "--- the last lines of $service's log" >&2
        podman logs --tail 40 "${COMPOSE_PROJECT_NAME}_${service}_1" >&2 2>&1 || true
    done
    exit "$status"
}
echo "deploy/check.sh took $SECONDS s (images, stack, checks)"
