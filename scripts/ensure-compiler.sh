#!/usr/bin/env bash
# Make sure a C compiler and the virtualenv's Python headers are there, for the engines
# compiled with mypyc (scripts/compile_engines.py, src/machiavel/speedups.py). Debian's
# gcc, and python3-dev when the interpreter is Debian's own (other builds of Python, such
# as pyenv's, ship their headers).
# Usage: ensure-compiler.sh PYTHON
set -euo pipefail

python=${1:-.venv/bin/python}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

headers=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
missing=()
command -v gcc >/dev/null || missing+=(gcc)
[ -e "$headers/Python.h" ] || missing+=(python3-dev)
if [ ${#missing[@]} -gt 0 ]; then
    echo "ensure-compiler: installing ${missing[*]} (Debian)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
gcc --version | sed -n 1p  # sed reads it all: head could end the pipe early (SIGPIPE under pipefail)
