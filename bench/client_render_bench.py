"""Benchmark of the browser client's rules page (issue 12): bundle size, and how long one render() takes
on the lobby and on the rules page in each language (the page renders again on every state message
while it is open, e.g. at a table where bots play on).

Run: python bench/client_render_bench.py [--renders N]

Starts the real server (its own embedded Redis) on a free loopback port with the built client
(client-js/dist: `npm run build` first), drives Debian's Chromium (/usr/bin/chromium) through
Playwright on a 390x844 page, stops the server by its pid.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from server.lifecycle import stop_process, wait_healthy

REPO = Path(__file__).resolve().parents[1]
DIST = REPO / "client-js" / "dist"
# median and p90 of `n` calls of the client's own render(), in ms, after one warm-up call
MEASURE = """(n) => { const render = globalThis.guandan.render; render(); const ms = [];
  for (let i = 0; i < n; i++) { const t0 = performance.now(); render(); ms.push(performance.now() - t0); }
  ms.sort((a, b) => a - b); return [ms[Math.floor(n / 2)], ms[Math.floor(n * 0.9)]]; }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--renders", type=int, default=200)
    args = ap.parse_args()
    app = (DIST / "app.js").read_bytes()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(f"app.js: {len(app) / 1024:.0f} KiB, {len(gzip.compress(app)) / 1024:.0f} KiB gzipped")
    with tempfile.TemporaryDirectory(prefix="guandan-bench-") as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
                 "--data-dir", tmp, "--client-dir", str(DIST)],
                stdout=out, stderr=subprocess.STDOUT, cwd=REPO, env=env)
        try:
            wait_healthy(port, proc, log, 30)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                print(f"{'page':<16} {'median ms':>10} {'p90 ms':>8}")
                for name, lang, url, ready in (("lobby", "zh", "/", "create"),
                                               ("rules (zh)", "zh", "/#rules-nanjing", "rules-doc"),
                                               ("rules (en)", "en", "/#rules-nanjing", "rules-doc")):
                    ctx = browser.new_context(viewport={"width": 390, "height": 844})
                    ctx.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
                    page = ctx.new_page()
                    page.goto(f"http://127.0.0.1:{port}{url}")
                    page.wait_for_selector(f"[data-testid={ready}]")
                    median, p90 = page.evaluate(MEASURE, args.renders)
                    print(f"{name:<16} {median:>10.2f} {p90:>8.2f}")
                    ctx.close()
                browser.close()
        finally:
            stop_process(proc, 15)


if __name__ == "__main__":
    main()
