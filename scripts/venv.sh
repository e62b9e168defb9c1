# Sourced by run.sh and test.sh: create (once) and activate the project's virtual environment in .venv,
# so a stock Debian python3, whose pip refuses global installs (PEP 668, "externally-managed-environment"),
# works as well as any other. PYTHON picks the interpreter (default python3).
venv_dir="${VENV:-.venv}"
if [ ! -x "$venv_dir/bin/python" ]; then
    if ! "${PYTHON:-python3}" -m venv "$venv_dir" 2>/dev/null; then
        # Debian splits venv's pip bootstrap into the python3-venv package.
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-venv
            rm -rf "$venv_dir"
            "${PYTHON:-python3}" -m venv "$venv_dir"
        else
            echo "python3 -m venv failed: install Debian's python3-venv package" >&2
            exit 1
        fi
    fi
fi
# shellcheck disable=SC1091
. "$venv_dir/bin/activate"
