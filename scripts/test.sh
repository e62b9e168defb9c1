#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what the tests need, then runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[dev]'
python3 -m ruff check .
python3 -m pytest -q "$@"
