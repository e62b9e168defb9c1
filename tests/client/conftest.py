"""Browser tests: the real server (embedded Redis) as a child process, driven by Playwright in
Debian's Chromium (/usr/bin/chromium; browser downloads are not possible here)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_server import serve_client

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


def _chromium() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def _newest(*folders: Path) -> float:
    return max((p.stat().st_mtime for f in folders for p in f.rglob("*") if p.is_file()), default=0.0)


@pytest.fixture(scope="session")
def client_dist() -> Path:
    """The built client, (re)built when missing or older than its sources, the rules documents it bundles
    included; npm ci first when node_modules is missing (a fresh clone) or older than the lock file (a
    dependency was added since)."""
    client = REPO / "client-js"
    dist = client / "dist"
    app = dist / "app.js"
    installed, lock = client / "node_modules" / ".package-lock.json", client / "package-lock.json"
    if not app.exists() or app.stat().st_mtime < _newest(client / "src", client / "public", REPO / "docs"):
        if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
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
    with serve_client(live_data, client_dist) as base:
        yield base


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
