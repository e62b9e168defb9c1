"""After Redis came back: bring this process's rooms and seats in line with what Redis holds.

While the pub/sub connection was down, notices of other processes' commits (and of our own that
failed half-way, committed without an answer) never reached us, and seats whose connections closed
could not be released. redis-py resubscribes by itself when it reconnects; right after that (its
connect callback) every room with members here is brought up to date from Redis: each connection
gets the diff it missed, each external AI the records it missed, each seat held here is claimed
again (and given back if it was marked gone), and each seat Redis says we hold without a
connection here any more is released, so its dropout takeover starts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from . import changes as C
from .codec import decode
from .store import RoomNotFound

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("guandan.server")


class Recovery:
    """Runs ``resync`` after each reconnect of the pub/sub connection (one at a time, again if asked)."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.task: asyncio.Task[None] | None = None
        self.again = False

    def watch(self, pubsub: Any) -> None:
        """Be called back whenever ``pubsub`` (subscribed already) connects again."""
        pubsub.connection.register_connect_callback(self.reconnected)

    def reconnected(self, _connection: Any) -> None:
        if self.server._closing:
            return
        if self.task is not None and not self.task.done():
            self.again = True
            return
        self.task = asyncio.get_running_loop().create_task(self._run(), name="resync")

    def running(self) -> list[asyncio.Task[None]]:
        return [self.task] if self.task is not None else []

    async def _run(self) -> None:
        while True:
            self.again = False
            try:
                await resync(self.server)
            except (RedisError, OSError) as exc:  # down again: the next reconnect calls us again
                log.warning("could not resync after reconnecting to redis: %s", exc)
            except Exception:
                log.exception("resync after reconnecting to redis failed")
            if not self.again:
                return


async def resync(server: GameServer) -> None:
    """Every room with members here as Redis holds it now, to its connections and AI seats."""
    codes = sorted(set(server.rooms) | set(server.ai_seats))
    for code in codes:
        try:
            version, data = await server.store.load_raw(code)
        except RoomNotFound:
            continue
        room = decode(data)
        records = await server.store.records(code, version - 1, version)
        for ai in list(server.ai_seats.get(code, ())):
            ai.update(version, room, records[-1] if records else None)
        server._remember(code, version, data)
        await server.refresh(code, version, room)
        await _reclaim(server, code, room)
        await server.push_presence(code)
    await _release_stale(server)
    log.info("resynced %d rooms after reconnecting to redis", len(codes))


async def _reclaim(server: GameServer, code: str, room: dict[str, Any]) -> None:
    """The seats our connections hold: claimed in Redis again, and not counted as gone."""
    held = await server.store.seat_conns(code)
    for conn in list(server.rooms.get(code, ())):
        seat = conn.seat
        if seat is None or conn.code != code:
            continue
        owner = held.get(seat)
        if owner is not None and owner != conn.id:
            await server._kick(conn.id)  # resumed elsewhere meanwhile: the newer connection has it
            continue
        if owner is None:
            await server.store.claim_seat(code, seat, conn.id)
        if room["live"]["gone"][seat] is not None:
            await server.try_mutate(code, lambda room, seat=seat: C.seat_back(room, seat, time.time()))


async def _release_stale(server: GameServer) -> None:
    """Seats Redis says a connection of ours holds, where that connection closed meanwhile."""
    live = {c.id for c in server.conns.values()} | {a.conn_id for s in server.ai_seats.values() for a in s}
    prefix = server.proc_id + ":"
    for code in await server.store.proc_rooms(server.proc_id):
        for seat, conn_id in (await server.store.seat_conns(code)).items():
            if conn_id.startswith(prefix) and conn_id not in live \
                    and await server.store.release_seat(code, seat, conn_id):
                await server.store.publish(code, {"k": "presence"})
                await server.try_mutate(code, lambda room, seat=seat: C.seat_gone(room, seat, time.time()))
