#!/usr/bin/env bash
# The browser client's tools (package.json: tsc, and the morphdom that web/vendor/ copies):
# Node.js and npm from Debian if missing, then exactly the locked packages (npm ci), again
# only when package-lock.json changed.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "ensure-node: installing Node.js and npm (Debian packages nodejs, npm)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

stamp=node_modules/.package-lock.installed
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json "$stamp"
fi
