"""Noticing Redis go away and come back, so the server outlives it instead of failing for ever.

A probe on a connection of its own pings Redis a few times a second. When it fails, the outage is
logged once (not once per failed command), the embedded redis-server is started again if it is the
one that died (``revive``), and the probe goes on with a backoff until Redis answers. Meanwhile the
server's background loops stay quiet (``up`` is clear) and players' requests get ``unavailable``.
redis-py reconnects its pooled connections by itself when it next hands them out; what the outage
cost (the pub/sub notices it swallowed, releases of seats that failed) is made good by recovery.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import OutOfMemoryError, RedisError

log = logging.getLogger("guandan.redis")

PROBE_TIMEOUT = 2.0  # seconds a probe waits for an answer before Redis counts as gone
KEPT_OUTAGES = 4  # outages remembered for making rooms' clocks good (a room is made good at its next drive)


def unavailable_message(exc: BaseException) -> str:
    """What a player is told when a command failed: a full Redis (maxmemory) is not a broken one."""
    if isinstance(exc, OutOfMemoryError) or "OOM command not allowed" in str(exc):
        return "the server's storage is full; try again later"
    return "storage is unavailable; try again"


def _probe_client(redis: Redis) -> Redis:
    """A one-connection client to the same Redis that fails at once: no retries, short timeouts."""
    pool = redis.connection_pool
    kwargs = {**pool.connection_kwargs, "retry": Retry(NoBackoff(), 0), "socket_timeout": PROBE_TIMEOUT,
              "socket_connect_timeout": PROBE_TIMEOUT}
    return Redis(connection_pool=ConnectionPool(connection_class=pool.connection_class, max_connections=1,
                                                **kwargs))


class RedisWatch:
    """Whether Redis answers now (``up``), and since when it does again (``back_at``)."""

    def __init__(self, redis: Redis, revive: Callable[[], bool] | None = None, *, interval: float = 0.25,
                 max_backoff: float = 1.0) -> None:
        self.redis = redis
        self.revive = revive  # blocking: start the embedded redis-server again if it died
        self.interval = interval
        self.max_backoff = max_backoff
        self.up = True
        self.back_at = 0.0  # time.monotonic() of the last recovery (0: never down)
        # the latest outages as (down, back) in unix seconds: rooms' clocks are made good by them
        self.outages: list[tuple[float, float]] = []
        self._probe = _probe_client(redis)
        self._since = 0.0
        self._down_at = 0.0
        self._suspect = False  # a command failed and the probe has not looked yet
        self._answers = asyncio.Event()
        self._answers.set()
        self._wake = asyncio.Event()

    async def run(self) -> None:
        """Probe for ever (the server cancels it at shutdown)."""
        delay = self.interval
        while True:
            error = await self._ping()
            self._suspect = False
            if error is None:
                if not self.up:
                    self._back()
                delay = self.interval
            else:
                if self.up:
                    self._down(error)
                if self.revive is not None and await self._revive():
                    continue  # a fresh redis-server: probe it at once
                delay = min(max(delay * 2, self.interval), self.max_backoff)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)

    def failed(self) -> bool:
        """A command failed: probe now. True for the first failure while Redis was thought to be up
        (worth a log line; the outage itself is logged once by the probe)."""
        first = self.up and not self._suspect
        if first:
            self._suspect = True
            self._wake.set()
        return first

    async def wait_up(self, at_least: float) -> None:
        """Sleep ``at_least`` seconds, and on until Redis answers again."""
        await asyncio.sleep(at_least)
        await self._answers.wait()

    async def close(self) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self._probe.aclose()
        with contextlib.suppress(RedisError, OSError):
            await self._probe.connection_pool.disconnect()

    async def _ping(self) -> BaseException | None:
        try:
            await self._probe.ping()
        except (RedisError, OSError) as exc:
            return exc
        return None

    async def _revive(self) -> bool:
        assert self.revive is not None
        try:
            return await asyncio.to_thread(self.revive)
        except Exception as exc:  # a redis-server that cannot start: say why, try again later
            log.error("could not start the embedded redis again: %s", exc)
            return False

    def _down(self, error: BaseException) -> None:
        self.up = False
        self._since = time.monotonic()
        self._down_at = time.time()
        self._answers.clear()
        log.warning("redis unavailable: %s; players get 'unavailable' until it answers again", error)

    def _back(self) -> None:
        self.up = True
        self.back_at = time.monotonic()
        self.outages = [*self.outages, (self._down_at, time.time())][-KEPT_OUTAGES:]
        # Idle pooled connections to the Redis that died are not closed here: the pool already checks
        # each one it hands out (a closed socket is reconnected first), and closing them here also
        # broke the commands that had just taken one, so they failed as Redis came back.
        self._answers.set()
        log.warning("redis answers again after %.1f s", self.back_at - self._since)
