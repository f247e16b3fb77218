#!/usr/bin/env bash
# Make sure Debian's HAProxy is there for the cluster tests (tests/server/
# test_cluster_command.py), which run /usr/sbin/haproxy as an ordinary child process in
# front of the server processes of `machiavel cluster`, and check deploy/haproxy.cfg
# with `haproxy -c`. Only the binary is needed: the package's own service is kept from
# starting (policy-rc.d).
set -euo pipefail

HAPROXY=${MACHIAVEL_HAPROXY:-/usr/sbin/haproxy}

if [ ! -x "$HAPROXY" ]; then
    bash "$(dirname "$0")/install-debian-server.sh" haproxy
fi
"$HAPROXY" -v | sed -n 1p  # not head: an early end of the pipe fails under pipefail
