"""Browser tests: the real server (embedded Redis) as a child process, driven by Playwright in
Debian's Chromium (/usr/bin/chromium; browser downloads are not possible here)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.lifecycle import stop_process, wait_healthy

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


def _chromium() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _newest(*folders: Path) -> float:
    return max((p.stat().st_mtime for f in folders for p in f.rglob("*") if p.is_file()), default=0.0)


@pytest.fixture(scope="session")
def client_dist() -> Path:
    """The built client, (re)built when missing or older than its sources (a fresh clone has neither
    node_modules nor dist: npm ci first)."""
    client = REPO / "client-js"
    dist = client / "dist"
    app = dist / "app.js"
    if not app.exists() or app.stat().st_mtime < _newest(client / "src", client / "public"):
        if not (client / "node_modules").is_dir():
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=client, check=True)
        subprocess.run(["npm", "run", "build"], cwd=client, check=True)
    return dist


@pytest.fixture(scope="session")
def live_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The live server's data directory: its own Redis listens on ``redis.sock`` there (tests that
    fast-forward a stored game, as the server tests do, reach it there)."""
    return tmp_path_factory.mktemp("server-data")


@pytest.fixture(scope="session")
def live_server(live_data: Path, client_dist: Path) -> Iterator[str]:
    """``python -m server`` with no Redis URL: it starts its own Redis, as the README promises."""
    port = _free_port()
    data = live_data
    log = (data / "server.log").open("wb")
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
         "--client-dir", str(client_dist), "--allow-fixed-seeds"],
        stdout=log, stderr=subprocess.STDOUT, cwd=REPO, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(port, proc, data / "server.log", 30)
        yield base
    finally:
        stop_process(proc, 15)
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    exe = _chromium()
    if exe is None:
        pytest.fail("Chromium is not installed: apt-get install chromium (Debian's; no browser download)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()
