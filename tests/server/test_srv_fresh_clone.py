"""From a fresh copy of the repository, the README's two commands work on a stock Debian python3, whose
pip refuses global installs (PEP 668): ``bash scripts/run.sh`` serves a room with the embedded Redis and
``bash scripts/test.sh`` passes (issue 12, Must show 4). Both make and use the copy's own ``.venv``, so
neither the developer's install nor the system's Python is touched."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from srv_client import Client, free_port
from srv_procs import REPO, start_server_process, stop_process

pytestmark = pytest.mark.slow

DEBIAN_PYTHON = Path("/usr/bin/python3")
# a small selection for test.sh: the room and seat rules of issue 12, through real sockets and Redis
TEST_SELECTION = ["tests/server/test_srv_takeover.py", "-p", "no:cacheprovider"]  # test.sh adds -q


def _copy_checkout(dest: Path) -> None:
    """Tracked and new (not ignored) files, as a clone of the working tree would have them."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                           check=True, capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def _externally_managed(python: Path) -> bool:
    marker = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
                            capture_output=True, text=True)
    return marker.returncode == 0 and (Path(marker.stdout.strip()) / "EXTERNALLY-MANAGED").exists()


def _base_prefix(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sys; print(sys.base_prefix)"],
                          capture_output=True, text=True, check=True).stdout.strip()


def _python3_first(tmp: Path) -> tuple[dict[str, str], Path]:
    """An environment whose ``python3`` is Debian's (else this interpreter's, on other hosts)."""
    python = DEBIAN_PYTHON if DEBIAN_PYTHON.exists() and _externally_managed(DEBIAN_PYTHON) else Path(
        sys.executable)
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(python)
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "GUANDAN_PUBLIC_URL")}
    env["PATH"] = f"{bin_dir}:{env.get('PATH', '')}"
    return env, python


async def test_readme_commands_from_a_fresh_copy_on_a_python_refusing_global_installs(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout to copy")
    readme = (REPO / "README.md").read_text()
    assert "bash scripts/run.sh" in readme and "bash scripts/test.sh" in readme
    clone = tmp_path / "clone"
    _copy_checkout(clone)
    assert not (clone / ".venv").exists()
    env, python = _python3_first(tmp_path)
    if python == DEBIAN_PYTHON:  # the very refusal issue 12 met: pip will not install into it
        refused = subprocess.run(["python3", "-m", "pip", "install", "--dry-run", "ifaddr"], env=env,
                                 capture_output=True, text=True)
        assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr
    port = free_port()
    data = tmp_path / "data"
    proc = start_server_process(["--data-dir", str(data)], tmp_path / "run.log", port, env=env,
                                cmd=["bash", "scripts/run.sh"], cwd=clone, timeout=540)
    try:
        log = (tmp_path / "run.log").read_text()
        assert f"code in {clone}" in log, log[-2000:]
        assert "embedded redis started" in log
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            page = r.read()
        if (clone / "client-js" / "package.json").exists():
            assert (clone / "client-js" / "dist" / "index.html").exists()
            assert b"not built" not in page
        c = await Client.open(f"ws://127.0.0.1:{port}/ws")
        res = await c.request({"type": "create", "nickname": "Ann", "fill_bots": True, "bot_delay": 0})
        await c.request({"type": "start"})
        await c.wait(lambda: c.view and c.view["phase"] == "play")
        assert len(res["code"]) == 6 and len(c.view["hand"]) == 27
        await c.close()
    finally:
        stop_process(proc.proc)
    assert not (data / "redis.pid").exists(), "the embedded redis was not stopped"
    # the copy's own virtual environment, made from that python3
    assert _base_prefix(clone / ".venv" / "bin" / "python") == _base_prefix(python)
    tested = subprocess.run(["bash", "scripts/test.sh", *TEST_SELECTION], cwd=clone, env=env,
                            capture_output=True, text=True, timeout=900)
    out = tested.stdout + tested.stderr
    assert tested.returncode == 0, out[-4000:]
    assert re.search(r"\b\d+ passed\b", out) and " failed" not in out, out[-2000:]
