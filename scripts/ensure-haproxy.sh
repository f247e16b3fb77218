#!/usr/bin/env bash
# Make sure Debian's HAProxy is there for the cluster tests (tests/server/
# test_cluster_command.py), which run /usr/sbin/haproxy as an ordinary child process in
# front of the server processes of `machiavel cluster`, and check deploy/haproxy.cfg
# with `haproxy -c`. Only the binary is needed: the package's own service is kept from
# starting (policy-rc.d).
set -euo pipefail

HAPROXY=${MACHIAVEL_HAPROXY:-/usr/sbin/haproxy}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -x "$HAPROXY" ]; then
    exit 0
fi
echo "ensure-haproxy: installing HAProxy (Debian package haproxy)"
as_root apt-get update -qq
# policy-rc.d 101: the package must not start its own service.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod +x "$policy"
    created_policy=1
fi
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
if [ "$created_policy" -eq 1 ]; then
    as_root rm -f "$policy"
fi
"$HAPROXY" -v | head -n 1
