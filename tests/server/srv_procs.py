"""Child-process helpers: run ``python -m server`` or a redis-server, and stop it by its process id."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from server import lifecycle
from server.lifecycle import stop_process, wait_healthy

REPO = Path(__file__).resolve().parents[2]


@dataclass
class RedisProc:
    url: str
    port: int
    proc: subprocess.Popen[bytes]


def start_redis(folder: Path, port: int | None = None, aof: bool = False) -> RedisProc:
    """A redis-server on loopback (server.lifecycle.start_redis), with its URL."""
    proc, port = lifecycle.start_redis(folder, port, aof)
    return RedisProc(f"redis://127.0.0.1:{port}/0", port, proc)


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
    full = (cmd or [sys.executable, "-m", "server"]) + ["--host", "127.0.0.1", "--port", str(port),
                                                       "--allow-fixed-seeds", *args]
    out = log.open("ab")
    proc = subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                            env={**os.environ, **(env or {})}, start_new_session=True)
    try:
        wait_healthy(port, proc, log, timeout)
    except RuntimeError:
        stop_process(proc)
        raise
    return ServerProc(proc, port, log)


__all__ = ["RedisProc", "ServerProc", "start_redis", "start_server_process", "stop_process"]
