"""Child-process helpers: run ``python -m server`` or a redis-server, and stop it by its process id."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import redis
from srv_client import free_port

from server.embedded_redis import find_redis_server
from server.lifecycle import stop_process, wait_healthy

REPO = Path(__file__).resolve().parents[2]


@dataclass
class RedisProc:
    url: str
    port: int
    proc: subprocess.Popen[bytes]


def start_redis(tmp: Path) -> RedisProc:
    """A redis-server on a free loopback port, without persistence; returns once it answers."""
    port = free_port()
    proc = subprocess.Popen(
        [find_redis_server(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp), "--daemonize", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(host="127.0.0.1", port=port)
    for _ in range(200):
        with contextlib.suppress(redis.exceptions.ConnectionError):
            if client.ping():
                break
        time.sleep(0.02)
    else:
        proc.kill()
        raise RuntimeError("redis-server did not start")
    client.close()
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
