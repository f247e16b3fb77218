#!/usr/bin/env bash
# Make sure Debian's nginx is there for the reverse-proxy test (tests/server/
# test_server_proxy.py), which runs /usr/sbin/nginx as an ordinary child process with the
# example configuration deploy/nginx.conf on free loopback ports. Only the binary is
# needed: the package's own server is kept from starting (policy-rc.d) on port 80.
set -euo pipefail

NGINX=${MACHIAVEL_NGINX:-/usr/sbin/nginx}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -x "$NGINX" ]; then
    exit 0
fi
echo "ensure-nginx: installing nginx (Debian package nginx)"
as_root apt-get update -qq
# policy-rc.d 101: the package must not start its own server on port 80.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod +x "$policy"
    created_policy=1
fi
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
if [ "$created_policy" -eq 1 ]; then
    as_root rm -f "$policy"
fi
"$NGINX" -v
