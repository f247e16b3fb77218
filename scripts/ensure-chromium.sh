#!/usr/bin/env bash
# Make sure Debian's Chromium is there for the browser tests (tests/web/), which drive
# /usr/bin/chromium with Playwright. Playwright's own browser downloads are never used
# (`playwright install` cannot reach its servers here); the package comes from Debian.
set -euo pipefail

CHROMIUM=${MACHIAVEL_CHROMIUM:-/usr/bin/chromium}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -x "$CHROMIUM" ]; then
    exit 0
fi
echo "ensure-chromium: installing Chromium (Debian package chromium)"
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
"$CHROMIUM" --version
