#!/usr/bin/env bash
# Install a Debian package that ships a server (nginx, haproxy) for its binary only: the
# package's own service is kept from starting (policy-rc.d answers 101) so that nothing
# listens on port 80 or runs as a system service; the tests run the binary themselves.
# Usage: install-debian-server.sh PACKAGE
set -euo pipefail

package=$1

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

echo "install-debian-server: installing $package (Debian package $package)"
as_root apt-get update -qq
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod +x "$policy"
    created_policy=1
fi
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
if [ "$created_policy" -eq 1 ]; then
    as_root rm -f "$policy"
fi
