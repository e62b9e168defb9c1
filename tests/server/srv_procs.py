"""Child-process helpers: run ``python -m server`` and stop it by its process id."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from server.lifecycle import stop_process

REPO = Path(__file__).resolve().parents[2]


@dataclass
class ServerProc:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


def start_server_process(args: list[str], log: Path, port: int, env: dict[str, str] | None = None,
                         cmd: list[str] | None = None, timeout: float = 60.0, cwd: Path = REPO) -> ServerProc:
    """``python -m server`` (or ``cmd``) as a child process; waits until /healthz answers."""
    full = (cmd or [sys.executable, "-m", "server"]) + ["--host", "127.0.0.1", "--port", str(port), *args]
    out = log.open("ab")
    proc = subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                            env={**os.environ, **(env or {})}, start_new_session=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited {proc.returncode}:\n{log.read_text()}")
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                if r.status == 200:
                    return ServerProc(proc, port, log)
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"server did not come up:\n{log.read_text()}")


__all__ = ["ServerProc", "start_server_process", "stop_process"]
