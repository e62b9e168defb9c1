#!/usr/bin/env bash
# Run the server from a fresh clone: install the project, build the browser client if there is one,
# then start guandan-server (without REDIS_URL / --redis-url it starts a private Redis in .data/).
# Any arguments go to guandan-server, e.g.  bash scripts/run.sh --host 0.0.0.0 --port 8765
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
python -m pip install -q -e .
if [ -d client-js ] && [ -f client-js/package.json ]; then
    (cd client-js && npm ci && npm run build)
fi
exec guandan-server "$@"
