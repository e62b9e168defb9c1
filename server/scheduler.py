"""When to act for rooms by themselves, across every server process on one Redis.

The plan of what to do and when is pure (autopilot.py) and its time is stored with each commit in
Redis's ``due`` sorted set (store.py), so it survives any process. Every process:

- arms a local timer for the rooms it just changed (the fast path: a bot answers at once);
- polls the ``due`` set a few times a second, so rooms whose process died, or that nobody here has
  touched, are still served;
- takes a due room with ``Store.take_due`` before working on it (one process at a time; the lease runs
  out if that process dies), and the compare-and-set of every commit makes each move happen once;
- beats its heartbeat, and buries processes whose heartbeat ran out (their seats' players count as
  gone, so the dropout takeover starts for them);
- on start, before it drives anything (and before the server listens), waits until every process
  registered before it has either beaten again or run out, and buries the dead: a server restarted
  at once after a crash would otherwise find its players' seats still held by the crashed process
  (its heartbeat lives on for ``proc_ttl``), count them as connected and run out their turn timers
  before they could reconnect.

While Redis does not answer (redis_watch.py) the loops wait quietly, and for ``proc_ttl`` after it
answers again nobody is buried: every process's heartbeat may have run out during the outage, and the
live ones need a moment to beat again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError

from .lifecycle import stop_tasks
from .redis_watch import RedisWatch
from .store import Burial, Store

log = logging.getLogger("guandan.scheduler")


class Scheduler:
    """Runs ``drive(code)`` for due rooms; ``bury(proc_id, codes)`` for dead processes' rooms."""

    def __init__(
        self,
        store: Store,
        proc_id: str,
        drive: Callable[[str], Awaitable[None]],
        bury: Callable[[str, Burial], Awaitable[None]],
        *,
        heartbeat: float = 1.0,
        proc_ttl: float = 10.0,
        poll: float = 0.25,
        lease: float = 10.0,
        watch: RedisWatch,
    ) -> None:
        self.store = store
        self.proc_id = proc_id
        self._drive = drive
        self._bury = bury
        self.heartbeat = heartbeat
        self.proc_ttl = proc_ttl  # a beat this old means the process is gone (seconds of a busy loop are not)
        self.poll = poll
        self.lease = lease
        self.watch = watch
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._held = False

    async def start(self) -> None:
        await self.store.heartbeat(self.proc_id, self.proc_ttl)
        self._tasks = [asyncio.create_task(self._heartbeat_loop(), name="heartbeat")]  # others wait for it
        await self._settle()
        self._tasks.append(asyncio.create_task(self._poll_loop(), name="due-poll"))

    def hold(self) -> None:
        """Drive nothing more (the server is shutting down): a room's due step waits for a live process,
        instead of running out a timer on players whose connections are being closed."""
        self._held = True
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    async def close(self) -> None:
        self._closing = True  # no new drives; the loops end even if a cancellation gets swallowed
        self.hold()
        await stop_tasks([*self._tasks, *self._running.values()])

    # ---- local timers ---------------------------------------------------------------------------

    def arm(self, code: str, due: float | None) -> None:
        """Drive ``code`` here at ``due`` (unix time), unless an earlier local timer is set."""
        if due is None:
            return
        delay = due - time.time()
        if delay <= 0:
            self.kick(code)
            return
        armed = self._timers.get(code)
        if armed is not None and armed[0] <= due:
            return
        if armed is not None:
            armed[1].cancel()
        handle = asyncio.get_running_loop().call_later(delay, self._fire, code, due)
        self._timers[code] = (due, handle)

    def _fire(self, code: str, due: float) -> None:
        armed = self._timers.get(code)
        if armed is not None and armed[0] == due:
            del self._timers[code]
        self.kick(code)

    def kick(self, code: str) -> None:
        """Try to take and drive the room now (once at a time per room in this process)."""
        if self._held:
            return
        task = self._running.get(code)
        if task is not None and not task.done():
            self._again.add(code)
            return
        self._running[code] = asyncio.create_task(self._run(code), name=f"drive-{code}")

    async def _run(self, code: str) -> None:
        try:
            while True:
                self._again.discard(code)
                if await self.store.take_due(code, time.time(), self.lease):
                    await self._drive(code)
                if code not in self._again:
                    return
        except RedisError as exc:
            if self.watch.failed():
                log.warning("could not drive room code=%s: %s", code, exc)
        except Exception:
            log.exception("driving room code=%s failed", code)
        finally:
            if self._running.get(code) is asyncio.current_task():
                del self._running[code]

    async def _settle(self) -> None:
        """Wait until each process registered before us has beaten since we started (alive) or run out
        (dead, then buried here), at most ``proc_ttl`` and a beat."""
        started = time.time()
        waiting = await self.store.registered_procs() - {self.proc_id}
        give_up = time.monotonic() + self.proc_ttl + self.heartbeat
        while waiting and time.monotonic() < give_up:
            alive = await self.store.alive_procs(waiting)
            beats = await self.store.last_beats(alive)
            waiting = {p for p in alive if (beats[p] or 0) < started}
            if waiting:
                await asyncio.sleep(min(self.poll, self.heartbeat / 4))
        await self._bury_dead()

    async def _bury_dead(self) -> None:
        for dead in await self.store.dead_procs():
            burial = await self.store.bury(dead)
            if burial is None:
                continue  # another process took this one
            log.info("server process gone proc=%s rooms=%s", dead, ",".join(burial.codes) or "-")
            await self._bury(dead, burial)

    # ---- background loops -----------------------------------------------------------------------

    async def _poll_loop(self) -> None:
        while not self._closing:
            await self.watch.wait_up(self.poll)
            try:
                for code in await self.store.due_rooms(time.time()):
                    self.kick(code)
            except RedisError as exc:
                if self.watch.failed():
                    log.warning("due poll failed: %s", exc)

    async def _heartbeat_loop(self) -> None:
        while not self._closing:
            await self.watch.wait_up(self.heartbeat)
            try:
                await self.store.heartbeat(self.proc_id, self.proc_ttl)
                if self.watch.back_at and time.monotonic() - self.watch.back_at < self.proc_ttl:
                    continue  # just after an outage: the others have not beaten again yet
                await self._bury_dead()
            except RedisError as exc:
                if self.watch.failed():
                    log.warning("heartbeat failed: %s", exc)
            except Exception:
                log.exception("burying a dead process failed")
