"""The real server for the browser tests: ``python -m server`` as a child process on loopback."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from server.lifecycle import stop_process, wait_healthy

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve_client(data: Path, client_dist: Path, *args: str) -> Iterator[str]:
    """The server with no Redis URL (it starts its own Redis, as the README promises) and any more
    ``args``; yields its loopback base URL, and stops it (by its process id) afterwards."""
    port = free_port()
    log = (data / "server.log").open("wb")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "GUANDAN_PUBLIC_URL")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
         # every browser is on 127.0.0.1: a whole session's rooms would pass one address's limits
         "--client-dir", str(client_dist), "--allow-fixed-seeds", "--no-address-limits", *args],
        stdout=log, stderr=subprocess.STDOUT, cwd=REPO, env=env,
    )
    try:
        wait_healthy(port, proc, data / "server.log", 30)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(proc, 15)
        log.close()
