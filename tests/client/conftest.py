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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """A failed browser test reports what its pages showed and the server's last log lines: a failure
    that happens once in many CI runs can then be understood from its one report."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    browser = item.funcargs.get("browser")
    for ctx in getattr(browser, "contexts", []):
        for i, page in enumerate(ctx.pages):
            try:
                shown = page.evaluate(PAGE_STATE)
            except Exception as exc:  # noqa: BLE001 - a closed or crashed page: say so
                shown = f"(could not read the page: {exc!r})"
            report.sections.append((f"page {i} at {page.url}", str(shown)))
    data = item.funcargs.get("live_data")
    log = data / "server.log" if isinstance(data, Path) else None
    if log is not None and log.exists():
        tail = log.read_text(errors="replace").splitlines()[-60:]
        report.sections.append(("server log (last 60 lines)", "\n".join(tail)))


PAGE_STATE = """() => JSON.stringify({
  status: globalThis.guandan?.conn?.status, room: globalThis.guandan?.conn?.room?.code ?? null,
  message: globalThis.guandan?.ui?.message ?? null,
  text: document.querySelector('#app')?.innerText.slice(0, 600),
})"""
