"""Starting and stopping what we run, so that start-up is awaited and shutdown always ends: background
tasks, child processes (and, for tests and benchmarks, a redis-server on loopback).

A cancelled task is not always a stopped one: redis-py's read timeout can turn the cancellation of
a waiting ``get_message`` into an ordinary timeout, and a ``while True`` loop around it then runs
for ever (a server that never shuts down, a test suite that hangs in teardown). So loops also check
a flag that is set before they are cancelled, and the wait for them is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


async def stop_tasks(tasks: Iterable[asyncio.Task[None]], timeout: float = 5.0) -> None:
    """Cancel the tasks and wait for them, at most ``timeout`` seconds; name any that lingers."""
    pending = [t for t in tasks if not t.done()]
    for task in pending:
        task.cancel()
    if not pending:
        return
    _, lingering = await asyncio.wait(pending, timeout=timeout)
    for task in lingering:
        log.warning("task %s did not stop within %.1f s of being cancelled", task.get_name(), timeout)


def stop_process(proc: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    """SIGTERM by pid (Redis flushes its append-only file, a server closes its rooms), then SIGKILL
    if it lingers; never by name."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_healthy(port: int, proc: subprocess.Popen[Any], log_file: Path, timeout: float = 60.0) -> None:
    """Wait until the server child on ``port`` answers /healthz; raise with its log's tail if it exits
    or does not come up in time (the caller stops it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log_file.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server did not come up in {timeout:.0f} s:\n{log_file.read_text()[-3000:]}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(folder: Path, port: int | None = None,
                aof: bool = False) -> tuple[subprocess.Popen[bytes], int]:
    """A redis-server on 127.0.0.1 (a free port unless given) with its files in ``folder``, once it
    answers; ``aof``: with its append-only file (``everysec``, as deployed), so that one started again
    on the same folder has every key back. For tests and benchmarks (a deployment names its Redis)."""
    from .embedded_redis import find_redis_server  # it stops its redis-server with stop_process

    port = port or free_port()
    proc = subprocess.Popen(
        [find_redis_server(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "yes" if aof else "no", "--appendfsync", "everysec", "--dir", str(folder),
         "--daemonize", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as conn:
            conn.sendall(b"PING\r\n")
            if conn.recv(16).startswith(b"+PONG"):
                return proc, port
        time.sleep(0.02)
    stop_process(proc)
    raise RuntimeError(f"redis-server on port {port} did not start (exit code {proc.returncode})")
