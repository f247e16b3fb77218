#!/usr/bin/env bash
# Make sure the services the tests use are running: PostgreSQL on 127.0.0.1:5432 and Redis
# on 127.0.0.1:6379.
# Where it is missing, install Debian's postgresql (as root) and start it with trust
# authentication on the loopback address, which is how the test machines are set up.
set -euo pipefail

PG_PORT=5432
REDIS_PORT=6379

listening() {  # host port
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

wait_for() {  # host port name
    for _ in $(seq 1 60); do
        if listening "$1" "$2"; then
            return 0
        fi
        sleep 0.5
    done
    echo "ensure-services: $3 did not start on $1:$2" >&2
    return 1
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

ensure_postgresql() {
    if listening 127.0.0.1 "$PG_PORT"; then
        return 0
    fi
    if ! command -v pg_ctlcluster >/dev/null 2>&1; then
        echo "ensure-services: installing PostgreSQL (Debian package postgresql)"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        local version
        version=$(ls /etc/postgresql | sort -V | tail -n 1)
        local hba="/etc/postgresql/$version/main/pg_hba.conf"
        # A fresh install asks for passwords on 127.0.0.1; the tests connect as postgres
        # without one, as on the test machines.
        as_root sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
    fi
    local version
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    echo "ensure-services: starting PostgreSQL $version"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    wait_for 127.0.0.1 "$PG_PORT" PostgreSQL
}

ensure_redis() {
    if listening 127.0.0.1 "$REDIS_PORT"; then
        return 0
    fi
    if ! command -v redis-server >/dev/null 2>&1; then
        echo "ensure-services: installing Redis (Debian package redis-server)"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    fi
    echo "ensure-services: starting Redis"
    # Loopback only, nothing saved to disk: the tests make and delete their own keys.
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no --daemonize yes \
        >/dev/null
    wait_for 127.0.0.1 "$REDIS_PORT" Redis
}

ensure_postgresql
ensure_redis
