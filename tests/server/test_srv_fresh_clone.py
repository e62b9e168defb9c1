"""Must show 6: from a fresh copy of the repository, the README's run command serves a room with the
embedded Redis. The copy is installed into its own virtualenv, so the developer's install is untouched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from srv_client import Client, free_port
from srv_procs import REPO, start_server_process, stop_process

pytestmark = pytest.mark.slow


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


async def test_readme_run_command_from_a_fresh_copy(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout to copy")
    readme = (REPO / "README.md").read_text()
    assert "bash scripts/run.sh" in readme
    clone = tmp_path / "clone"
    _copy_checkout(clone)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}:{env.get('PATH', '')}"
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
        res = await c.request({"type": "create", "nickname": "Ann", "bots": [1, 2, 3], "bot_delay": 0})
        await c.request({"type": "start"})
        await c.wait(lambda: c.view and c.view["phase"] == "play")
        assert len(res["code"]) == 6 and len(c.view["hand"]) == 27
        await c.close()
    finally:
        stop_process(proc.proc)
    assert not (data / "redis.pid").exists(), "the embedded redis was not stopped"
