#!/usr/bin/env bash
# Make sure Debian's nginx is there for the reverse-proxy test (tests/server/
# test_server_proxy.py), which runs /usr/sbin/nginx as an ordinary child process with the
# example configuration deploy/nginx.conf on free loopback ports. Only the binary is
# needed: the package's own server is kept from starting on port 80.
set -euo pipefail

NGINX=${MACHIAVEL_NGINX:-/usr/sbin/nginx}
if [ ! -x "$NGINX" ]; then
    bash "$(dirname "$0")/install-debian-server.sh" nginx
fi
"$NGINX" -v
