"""The game server: one port for WebSocket (``/ws``) and plain HTTP (client files, ``/healthz``).

Data flows one way: a client's intent is checked (frame size, rate, msgpack, pydantic model, id),
then ``mutate`` reads the room and its version from Redis, applies the intent with the engine, and
commits with the store's compare-and-set (retrying from fresh state on a lost race). The new state
reaches clients through ``refresh``: each local connection gets a diff from the view it last had to
the view of the new version. Other processes get the same state through pub/sub and do the same
for their own connections, so nothing game-relevant lives only in one process's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import RedisError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from engine import Game, IllegalAction, Play
from engine.bots.words import play_name, play_name_zh
from engine.layout import lay_out

from . import autopilot as ap
from . import changes as C
from . import chat, links, rooms, web
from . import protocol as P
from .ai_seats import AiSeat
from .bots import suggestion
from .changes import Change, ChangeError, NothingToDo
from .codec import MAX_DEPTH, CodecError, decode, decode_frame, deeper_than, encode
from .diff import compact, diff
from .lifecycle import stop_tasks
from .limits import AddressLimits, FrameGate, Limits, address_key, client_address
from .recovery import Recovery
from .redis_watch import RedisWatch, unavailable_message
from .refusals import wire_fields
from .rooms import RoomError
from .safelog import LogBudget, clip
from .scheduler import Scheduler
from .store import Burial, RoomNotFound, Store, valid_code
from .views import view_for

log = logging.getLogger("guandan.server")
#: how a seat's player went when its last connection closed (changes.seat_gone, changes.seat_left)
SeatWent = Callable[[dict[str, Any], int, float], Change]
MAX_MESSAGE = 500  # characters of an error's message (some quote what the client sent)
SPECTATOR_NAMES = 20  # a presence names this many spectators at most (and counts them all)
SILENT_BEATS = 1.5  # heartbeats a process may miss before a turn timer of its players waits (alive: a beat)


@dataclass
class Config:
    """Everything tunable about one server process (the CLI fills it)."""

    host: str = "127.0.0.1"
    port: int = 8765
    client_dir: Path | None = None
    room_ttl: float = 24 * 3600
    max_frame: int = 16 * 1024  # larger frames get a frame_too_large error
    write_limit: int = 1024 * 1024  # bytes queued to a client before a send waits for it (websockets)
    slow_client: int = 256 * 1024  # bytes queued to a client that has stopped reading: close it
    hard_max_frame: int = 1024 * 1024  # larger frames close the connection (websockets max_size)
    rate: float = 30.0  # frames per second per connection, sustained (limits.FrameGate)
    burst: float = 60.0
    heartbeat: float = 1.0  # seconds between a process's heartbeats
    proc_ttl: float = 10.0  # a process whose last heartbeat is this old counts as dead
    poll: float = 0.25  # how often each process looks for due rooms (bots, timers, dropouts)
    redis_prefix: str = "gd:"
    fixed_seeds: bool = False  # let ``create`` choose the shuffle's seed (tests and replays only)
    public_url: str | None = None  # where friends reach the server (a reverse proxy, a domain): links.py
    limits: Limits = field(default_factory=Limits)  # per client address


ClientError = ChangeError  # an error for one client that changes nothing (not a room or game rule)


@dataclass(eq=False)
class Conn:
    """One WebSocket connection and what this process last told it."""

    ws: ServerConnection
    id: str
    peer: str
    address: str  # what the per-address limits count it as (limits.address_key)
    gate: FrameGate
    hello: bool = False
    code: str | None = None
    seat: int | None = None
    holder: str | None = None  # the seat's occupant this connection proved to be (rooms.holder)
    version: int | None = None
    view: dict[str, Any] = field(default_factory=dict)
    info: dict[str, Any] | None = None
    presence: tuple[list[bool], list[str]] | None = None  # the seats connected, the spectators, as sent
    seen: OrderedDict[Any, None] = field(default_factory=OrderedDict)
    logs: LogBudget = field(default_factory=LogBudget)  # lines its input may cause
    dropping: bool = False  # being closed (for not reading, or for flooding)
    said_at: float | None = None  # when its seat last said a quick phrase (chat.py)


def _frame(msg: P._Msg) -> bytes:
    return encode(msg.model_dump())


def _diff_frame(base: int, version: int, ops: list[dict[str, Any]]) -> bytes:
    """The bytes of ``_frame(P.Diff(...))``, without pydantic validating and copying every op of the
    hottest message (one per connection per change): the ops are our own, already plain data."""
    return encode({"type": "diff", "base": base, "version": version, "ops": compact(ops)})


def _ack_frame(msg_id: Any, result: dict[str, Any]) -> bytes:
    """The bytes of ``_frame(P.Ack(...))`` (one per request), without the model's copy."""
    return encode({"type": "ack", "id": msg_id, "result": result})


class GameServer:
    """Connections, rooms and bots of one process; Redis holds the rooms themselves."""

    def __init__(self, config: Config, redis: Redis, revive: Callable[[], bool] | None = None) -> None:
        """``revive``: start the embedded redis-server again if it died (blocking; see RedisWatch)."""
        self.config = config
        self.redis = redis
        self.watch = RedisWatch(redis, revive)
        self.recovery = Recovery(self)
        self.store = Store(redis, prefix=config.redis_prefix, room_ttl=config.room_ttl)
        self.proc_id = secrets.token_hex(6)
        self._ids = itertools.count(1)
        self.conns: dict[str, Conn] = {}
        self.rooms: dict[str, set[Conn]] = {}
        self.ai_seats: dict[str, set[AiSeat]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.known: dict[str, tuple[int, bytes]] = {}  # rooms with local members: last state seen
        self.limits = AddressLimits(config.limits)
        self.refusals = LogBudget()  # lines about connections refused by the per-address cap
        self.pubsub = redis.pubsub()
        self.scheduler = Scheduler(self.store, self.proc_id, self.drive, self.bury,
                                   heartbeat=config.heartbeat, proc_ttl=config.proc_ttl, poll=config.poll,
                                   watch=self.watch)
        self._tasks: list[asyncio.Task[None]] = []
        self._closers: set[asyncio.Task[None]] = set()  # connections being closed (_close_soon)
        self._closing = False
        self._stopped_at: float | None = None  # when shutting down began (stopping)
        self.invite = links.invite_bases(config.host, config.port, config.public_url)
        self.handlers: dict[str, Callable[[Conn, Any], Any]] = {
            "hello": self.on_hello,
            "create": self.on_create,
            "join": self.on_join,
            "resume": self.on_resume,
            "leave": self.on_leave,
            "add_bot": self.on_add_bot,
            "remove_bot": self.on_remove_bot,
            "remove_player": self.on_remove_player,
            "sit": self.on_sit,
            "swap": self.on_swap,
            "add_ai": self.on_add_ai,
            "lock": self.on_lock,
            "start": self.on_start,
            "new_match": self.on_ready,
            "play": self.on_game_action,
            "pass": self.on_game_action,
            "return": self.on_game_action,
            "next_deal": self.on_ready,
            "suggest": self.on_suggest,
            "readings": self.on_readings,
            "auto": self.on_auto,
            "resync": self.on_resync,
            "say": self.on_say,
        }

    # ---- lifecycle ------------------------------------------------------------------------------

    def listening(self, port: int) -> None:
        """The port the server was bound to (``--port 0`` picks one): the invite links name it."""
        self.invite = links.invite_bases(self.config.host, port, self.config.public_url)

    async def start(self) -> None:
        await self.pubsub.subscribe(self._proc_channel(self.proc_id))
        self.recovery.watch(self.pubsub)
        self._tasks.append(asyncio.create_task(self._listen(), name="pubsub"))
        self._tasks.append(asyncio.create_task(self.watch.run(), name="redis-watch"))
        await self.scheduler.start()
        log.info("server process started proc=%s", self.proc_id)

    def stopping(self) -> None:
        """Shutting down begins (call it before the connections are closed): the connections that close
        now go with the server, not with their players (changes.server_gone), and no bot, timer or grace
        period is run here any more (closing the connections may take seconds)."""
        self._stopped_at = time.time()
        self.scheduler.hold()

    def _dropped(self) -> SeatWent:
        """How a seat whose last connection closed now went: on its own, or with the server."""
        since = self._stopped_at
        if since is None:
            return C.seat_gone
        return lambda room, seat, now: C.server_gone(room, [seat], since, now)

    async def close(self) -> None:
        self._closing = True
        await self.scheduler.close()
        for seats in list(self.ai_seats.values()):
            for ai in list(seats):
                await ai.close()
        await stop_tasks([*self._tasks, *self.recovery.running()])
        await self.watch.close()
        with contextlib.suppress(RedisError, OSError):
            await self.store.forget_proc(self.proc_id)
        with contextlib.suppress(RedisError, OSError, RuntimeError):
            await self.pubsub.aclose()

    def _proc_channel(self, proc_id: str) -> str:
        return f"{self.config.redis_prefix}proc-ch:{proc_id}"

    async def _listen(self) -> None:
        """Notices from Redis pub/sub: new room versions, presence changes, seat replacements."""
        while not self._closing:  # not only cancellation: redis-py's read timeout can swallow it
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except RedisError as exc:
                if self.watch.failed():
                    log.warning("pubsub error: %s", exc)
                await self.watch.wait_up(0.5)  # redis-py resubscribes when it reconnects (recovery.py)
                continue
            if msg is None or msg.get("type") != "message":
                continue
            try:
                await self._on_notice(msg["channel"].decode(), decode(msg["data"]))
            except Exception:
                log.exception("failed to handle notice")

    async def _on_notice(self, channel: str, notice: dict[str, Any]) -> None:
        kind = notice.get("k")
        if kind == "kick":
            await self._kick(notice["conn"])
            return
        code = channel.rsplit(":", 1)[-1]
        if kind == "state":
            ais = list(self.ai_seats.get(code, ()))
            ours = notice.get("o") == self.proc_id  # our own commit: refreshed when it was made
            if ours and not ais:
                return  # nothing to do: skip decoding the room, on every action's echo
            room = decode(notice["d"])
            record = decode(notice["r"]) if "r" in notice else None
            for ai in ais:  # in commit order, whichever process committed
                ai.update(notice["v"], room, record)
            if not ours:
                self._remember(code, notice["v"], notice["d"])
                await self.refresh(code, notice["v"], room)
        elif kind == "presence":
            await self.push_presence(code)
        elif kind == "say":
            said = _frame(P.Said(seat=notice["s"], phrase=notice["p"]))
            for conn in list(self.rooms.get(code, ())):
                await self.send_frame(conn, said)

    # ---- HTTP -----------------------------------------------------------------------------------

    async def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP on the WebSocket port: /healthz, the built client, or a page saying to build it."""
        if request.method not in web.METHODS:
            return web.not_allowed()
        head = request.method == "HEAD"
        path = request.path.split("?", 1)[0]
        if path == "/ws" or path.startswith("/game/"):
            return None
        if path == "/healthz":
            try:
                ok = bool(await self.redis.ping())
            except (RedisError, OSError):
                ok = False
            body = json.dumps({"status": "ok" if ok else "redis unavailable", "protocol": P.PROTOCOL_VERSION})
            return web.response(200 if ok else 503, body.encode(), "application/json", head)
        return web.static_file(self.config.client_dir, path, head)

    # ---- connections ----------------------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        peer = ws.remote_address[0] if ws.remote_address else "?"
        forwarded = ws.request.headers.get("X-Forwarded-For") if ws.request is not None else None
        address = address_key(client_address(peer, forwarded, self.config.limits.trust_proxy))
        if not self.limits.connect(address):
            self.refusals.log(log, logging.WARNING, "connection refused: too many from address=%s", address)
            await ws.close(1008, "too many connections from your address")
            return
        try:
            if ws.request is not None and ws.request.path.startswith("/game/"):
                await self.ai_handler(ws, address)
            else:
                await self.client_handler(ws, address)
        finally:
            self.limits.disconnect(address)

    async def client_handler(self, ws: ServerConnection, address: str) -> None:
        peer = f"{ws.remote_address[0]}:{ws.remote_address[1]}" if ws.remote_address else "?"
        conn = Conn(ws=ws, id=f"{self.proc_id}:{next(self._ids)}", peer=peer, address=address,
                    gate=FrameGate(self.config.rate, self.config.burst))
        self.conns[conn.id] = conn
        log.info("connection opened conn=%s peer=%s", conn.id, peer)
        try:
            async for frame in ws:
                await self.on_frame(conn, frame)
        except ConnectionClosed:
            pass
        finally:
            self.conns.pop(conn.id, None)
            await self.detach(conn, self._dropped())
            log.info("connection closed conn=%s code=%s frames=%d dropped=%d log_lines_held=%d", conn.id,
                     ws.close_code, conn.gate.frames, conn.gate.dropped, conn.logs.held)

    async def send(self, conn: Conn, msg: P._Msg) -> None:
        await self.send_frame(conn, _frame(msg))

    async def send_frame(self, conn: Conn, frame: bytes) -> None:
        """Send one frame. A client that stopped reading (a phone asleep with its socket open) is
        closed instead of waited for, so it never holds up its room; it reconnects and resyncs."""
        transport = conn.ws.transport
        if transport is not None and transport.get_write_buffer_size() > self.config.slow_client:
            if not conn.dropping:
                log.info("closing a connection that stopped reading conn=%s", conn.id)
                self._close_soon(conn, 1013, "not reading: reconnect")
            return
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.send(frame)

    def _close_soon(self, conn: Conn, code: int, reason: str) -> None:
        """Close without waiting here: the frames still queued go on being read (and dropped), for
        websockets stops reading past its queue's limit and the closing handshake would wait behind them."""
        conn.dropping = True
        task = asyncio.get_running_loop().create_task(conn.ws.close(code, reason))
        self._closers.add(task)
        task.add_done_callback(self._closers.discard)

    def serve_options(self) -> dict[str, Any]:
        """Keyword arguments of ``websockets.serve`` for this server (the CLI and the tests use them)."""
        return {"process_request": self.process_request, "process_response": web.add_security_headers,
                "max_size": self.config.hard_max_frame, "write_limit": self.config.write_limit,
                "compression": None}

    async def error(self, conn: Conn, msg_id: Any, code: str, message: str,
                    fields: dict[str, Any] | None = None, retry_after: float | None = None) -> None:
        """One error to the client; its log line (client values clipped) counts against its budget."""
        conn.logs.log(log, logging.INFO, "error conn=%s id=%s code=%s: %s", conn.id, clip(msg_id), code,
                      clip(message, 200))
        await self.send(conn, P.Error(id=_echo_id(msg_id), code=code, message=message[:MAX_MESSAGE],
                                      fields=wire_fields(fields or {}), retry_after=retry_after))

    async def over_limit(self, conn: Conn, verdict: str) -> None:
        """A frame past the connection's rate limit: dropped; the first of a run is told, a flood closed."""
        gate = conn.gate
        if verdict == FrameGate.NOTICE:
            await self.error(conn, None, "rate_limited",
                             f"more than {self.config.rate:g} messages per second: this one and the next "
                             "are dropped unanswered until you slow down", {"rate": self.config.rate},
                             gate.retry_after())
        elif verdict == FrameGate.CLOSE:
            log.warning("closing a flooding connection conn=%s frames=%d dropped=%d", conn.id, gate.frames,
                        gate.dropped)
            self._close_soon(conn, 1008, "too many messages")

    async def on_frame(self, conn: Conn, frame: bytes | str) -> None:
        """Every check before a message reaches its handler; each failure is one error, no change."""
        if conn.dropping:  # being closed: nothing more is read
            return
        verdict = conn.gate.admit()  # every frame counts, whatever it holds
        if verdict != FrameGate.PASS:
            await self.over_limit(conn, verdict)
            return
        if isinstance(frame, str):
            await self.error(conn, None, "binary_required", "send msgpack in binary frames, not text")
            return
        if len(frame) > self.config.max_frame:
            await self.error(conn, None, "frame_too_large",
                             f"frame of {len(frame)} bytes exceeds {self.config.max_frame}",
                             {"size": len(frame), "limit": self.config.max_frame})
            return
        try:
            raw = decode_frame(frame, self.config.max_frame)
        except CodecError as exc:
            await self.error(conn, None, "bad_msgpack", str(exc))
            return
        msg_id = raw.get("id")
        if deeper_than(raw, MAX_DEPTH):
            await self.error(conn, msg_id, "invalid_message", f"a message nests at most {MAX_DEPTH} levels")
            return
        try:
            msg = P.CLIENT_ADAPTER.validate_python(raw)
        except ValidationError as exc:
            await self.error(conn, msg_id, *_validation_error(exc))
            return
        if msg.id in conn.seen:
            await self.error(conn, msg.id, "duplicate_id",
                             f"message id {clip(msg.id)} was already handled on this connection")
            return
        conn.seen[msg.id] = None
        if len(conn.seen) > 4096:
            conn.seen.popitem(last=False)
        if not conn.hello and msg.type != "hello":
            await self.error(conn, msg.id, "hello_required", "send hello with the protocol version first")
            return
        try:
            self.limits.check(conn.address, msg.type)
            result = await self.handlers[msg.type](conn, msg)
        except (RoomError, ClientError, IllegalAction) as exc:
            self.limits.refused(conn.address, msg.type, exc.code)
            await self.error(conn, msg.id, exc.code, exc.message, getattr(exc, "fields", None),
                             getattr(exc, "retry_after", None))
            return
        except RoomNotFound as exc:
            self.limits.refused(conn.address, msg.type, "room_not_found")
            await self.error(conn, msg.id, "room_not_found", f"no room with code {exc.args[0]}",
                             {"code": exc.args[0]})
            return
        except RedisError as exc:
            if self.watch.failed():
                log.warning("redis error conn=%s: %s", conn.id, exc)
            await self.error(conn, msg.id, "unavailable", unavailable_message(exc))
            return
        except Exception:
            log.exception("internal error conn=%s type=%s", conn.id, msg.type)
            await self.error(conn, msg.id, "internal", "internal server error")
            return
        if result is not False:
            await self.send_frame(conn, _ack_frame(msg.id, result if isinstance(result, dict) else {}))
        try:
            await self._after(conn, msg.type)
        except (RoomNotFound, RedisError) as exc:
            log.warning("could not send the snapshot conn=%s: %r", conn.id, exc)
            await self.error(conn, None, "unavailable", "could not load the room; send resync")

    async def _after(self, conn: Conn, kind: str) -> None:
        """Messages that attach a connection get their snapshot after the ack (which holds the token)."""
        if kind in ("create", "join", "resume", "resync") and conn.code is not None:
            await self.send_snapshot(conn)
            await self.push_presence(conn.code, only=conn)
            if kind != "resync":
                await self.store.publish(conn.code, {"k": "presence"})

    # ---- room membership ------------------------------------------------------------------------

    def lock(self, code: str) -> asyncio.Lock:
        lock = self.locks.get(code)
        if lock is None:
            lock = self.locks[code] = asyncio.Lock()
        return lock

    async def attach(self, conn: Conn, code: str, seat: int | None, holder: str | None = None) -> None:
        # the seat this connection holds already (a resume sent again before its ack came) is not left:
        # leaving it told the table "gone" and "back" and logged both, each time
        if conn.code is not None and (seat is None or (conn.code, conn.seat) != (code, seat)):
            await self.detach(conn)
        if not self.rooms.get(code):  # first: a failure must not leave it in a room it hears nothing of
            await self.pubsub.subscribe(self.store.channel(code))
        conn.code, conn.seat, conn.holder, conn.version = code, seat, holder, None
        conn.view, conn.info, conn.presence = {}, None, None
        members = self.rooms.setdefault(code, set())
        members.add(conn)
        if seat is not None:
            old = await self.store.claim_seat(code, seat, conn.id)
            if old and old != conn.id:
                if self._holder_here(old) not in (None, holder):  # moved in with a swap as we came: theirs
                    await self.store.claim_seat(code, seat, old)
                else:
                    await self._kick(old)

    async def detach(self, conn: Conn, went: SeatWent | None = C.seat_gone) -> None:
        """The connection leaves its room; ``went``: how its seat's player went, if it was the seat's last
        connection (dropped: the dropout grace starts; left on purpose: our bot plays at once)."""
        code, seat = conn.code, conn.seat
        if code is None:
            return
        conn.code = conn.seat = conn.holder = conn.version = None
        members = self.rooms.get(code)
        if members is not None:
            members.discard(conn)
            if not members:
                del self.rooms[code]
                self.locks.pop(code, None)
                self.known.pop(code, None)
                if code not in self.ai_seats:
                    with contextlib.suppress(RedisError, OSError, RuntimeError):
                        await self.pubsub.unsubscribe(self.store.channel(code))
        if seat is None:
            with contextlib.suppress(RedisError, OSError):
                await self.store.unwatch(code, conn.id)
                await self.store.publish(code, {"k": "presence"})
        else:
            with contextlib.suppress(RedisError, OSError):
                if await self.store.release_seat(code, seat, conn.id):
                    await self.store.publish(code, {"k": "presence"})
                    if went is not None:
                        await self.try_mutate(code, lambda room: went(room, seat, time.time()))

    async def _evict(self, conn: Conn, code: str, room: dict[str, Any]) -> None:
        """The seat this connection held was given to someone else, or emptied by the host: it sees and
        plays it no more."""
        log.info("seat lost conn=%s code=%s seat=%s", conn.id, code, conn.seat)
        if rooms.removed_by_host(room, conn.seat):
            lost = P.Error(code="seat_lost", message=f"the host of room {code} removed you from your seat",
                           fields={"by": "host"})
        else:
            lost = P.Error(code="seat_lost", message=f"your seat in room {code} was given to someone else")
        await self.send(conn, lost)
        await self.detach(conn, went=None)  # the seat's new occupant is not gone
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.close(4003, "seat given to someone else")

    def _holder_here(self, conn_id: str) -> str | None:
        """The token hash a connection of this process holds its seat with (None: not one of ours, or
        none; a connection of another process cannot be asked whose it is)."""
        other = self.conns.get(conn_id)
        return None if other is None else other.holder

    @staticmethod
    def _moved_to(conn: Conn, room: dict[str, Any]) -> int | None:
        """The seat a connection's person moved to with ``sit`` or ``swap`` (None: not moved). Looked up
        in any status: a start right after a move must not read as the seat lost."""
        if conn.seat is None:
            return None
        seat = rooms.holder_seat(room, conn.holder)
        return None if seat is None or seat == conn.seat else seat

    async def _follow(self, conn: Conn, code: str, seat: int) -> None:
        """The connection follows its person's token to the seat they moved to: the seat's claim
        (presence, one connection per seat) moves with it. A claim found there is replaced only if it is
        this person's older connection; else it is the seat's previous occupant's, who moved too (a swap)
        and claims their new seat."""
        old, conn.seat = conn.seat, seat
        with contextlib.suppress(RedisError, OSError):
            if old is not None:
                await self.store.release_seat(code, old, conn.id)  # unless the other mover claimed it
            taken = await self.store.claim_seat(code, seat, conn.id)
            if taken and taken != conn.id and self._holder_here(taken) == conn.holder:  # (a mover holds one)
                await self._kick(taken)  # this person's older connection (a resume as they moved)
            await self.store.publish(code, {"k": "presence"})

    @staticmethod
    def _holds(conn: Conn, room: dict[str, Any]) -> bool:
        """Whether the connection still holds its seat (a spectator holds none and always may watch)."""
        try:
            rooms.check_holder(room, conn.seat, conn.holder)
        except RoomError:
            return False
        return True

    def _as_holder(self, conn: Conn, change: Callable[[dict[str, Any]], Change]) -> Callable[..., Change]:
        """``change``, refused (``seat_lost``) if the connection's seat changed hands meanwhile: checked
        on the state the commit's compare-and-set is made against, so no stale holder slips through."""
        seat, holder = conn.seat, conn.holder

        def checked(room: dict[str, Any]) -> Change:
            try:
                rooms.check_holder(room, seat, holder)
            except RoomError:
                if rooms.holder_seat(room, holder) is not None:  # moved (sit, swap): not lost
                    raise ClientError("busy", "your seat has just moved; try again") from None
                raise
            return change(room)

        return checked

    async def try_mutate(self, code: str, change: Callable[[dict[str, Any]], Change]) -> int | None:
        """A change the server makes by itself: nothing to do, or a vanished room, is not an error."""
        try:
            version, _ = await self.mutate(code, change)
            return version
        except (NothingToDo, RoomNotFound):
            return None
        except (RedisError, OSError) as exc:
            log.warning("could not change room code=%s: %s", code, exc)
            return None

    async def _kick(self, conn_id: str) -> None:
        """Tell the connection that held a seat that a newer one took it over (whichever process)."""
        local = self.conns.get(conn_id)
        ai = next((a for seats in self.ai_seats.values() for a in seats if a.conn_id == conn_id), None)
        if local is not None:
            await self._replace(local)
        elif ai is not None:
            await ai.close()
        elif not conn_id.startswith(self.proc_id + ":"):
            await self.redis.publish(self._proc_channel(conn_id.split(":", 1)[0]),
                                     encode({"k": "kick", "conn": conn_id}))

    async def _replace(self, conn: Conn) -> None:
        log.info("connection replaced conn=%s code=%s seat=%s", conn.id, conn.code, conn.seat)
        await self.send(conn, P.Error(code="replaced",
                                      message="your seat was resumed from another connection"))
        conn.seat = None  # the newer connection owns the seat's slot now
        await self.detach(conn)
        with contextlib.suppress(ConnectionClosed):
            await conn.ws.close(4001, "seat resumed elsewhere")

    # ---- state fan-out --------------------------------------------------------------------------

    async def send_snapshot(self, conn: Conn) -> None:
        code = conn.code
        assert code is not None
        async with self.lock(code):
            version, room = await self.store.load(code)
            moved = self._moved_to(conn, room)
            if moved is not None:
                await self._follow(conn, code, moved)
            holds = self._holds(conn, room)
            if holds:
                view = view_for(room, rooms.load_game(room), conn.seat)
                info = rooms.room_info(room)
                conn.version, conn.view, conn.info = version, view, info
                await self.send(conn, P.RoomInfo(**info))
                await self.send(conn, P.Snapshot(version=version, seat=conn.seat, view=view))
        if not holds:
            await self._evict(conn, code, room)

    async def refresh(
        self, code: str, version: int, room: dict[str, Any], game: Game | None = None
    ) -> None:
        """Bring every local connection of the room to ``version``: room info if changed, one diff."""
        members = self.rooms.get(code)
        if not members:
            return
        async with self.lock(code):
            behind = [c for c in members if c.version is not None and c.version < version]
            if not behind:
                return
            lost = [c for c in behind if not self._holds(c, room)]
            moved = [c for c in lost if self._moved_to(c, room) is not None]  # sat elsewhere (sit, swap)
            lost = [c for c in lost if c not in moved]
            if lost or moved:  # never one more frame of a seat that changed hands
                behind = [c for c in behind if c not in lost and c not in moved]
                for c in lost + moved:
                    c.version = None
            if game is None:
                game = rooms.load_game(room)
            info = rooms.room_info(room)
            views: dict[int | None, dict[str, Any]] = {}
            for conn in behind:
                if conn.info != info:
                    conn.info = info
                    await self.send(conn, P.RoomInfo(**info))
                view = views.get(conn.seat)
                if view is None:
                    view = views[conn.seat] = view_for(room, game, conn.seat)
                ops = diff(conn.view, view)
                base, conn.version, conn.view = conn.version, version, view
                await self.send_frame(conn, _diff_frame(base, version, ops))
        for c in lost:
            await self._evict(c, code, room)
        for c in moved:  # a snapshot of the new seat (it carries the seat number)
            await self.send_snapshot(c)
            if c.seat is not None and room["status"] == "playing":  # a start read the seat's presence
                await self.try_mutate(code, lambda r, s=c.seat: C.seat_back(r, s, time.time()))  # too early

    async def push_presence(self, code: str, only: Conn | None = None) -> None:
        members = [only] if only is not None else list(self.rooms.get(code, ()))
        if not members:
            return
        connected = await self.store.presence(code)
        watching = await self.store.watchers(code)
        now = (connected, watching)
        for conn in members:
            if conn.code == code and (conn.presence != now or only is not None):
                conn.presence = now
                await self.send(conn, P.Presence(connected=connected, spectators=len(watching),
                                                 spectator_names=watching[:SPECTATOR_NAMES]))

    # ---- mutation -------------------------------------------------------------------------------

    async def mutate(self, code: str, change: Callable[[dict[str, Any]], Change]) -> tuple[int, Change]:
        """Read, change with the engine, compare-and-set; on a lost race start again from Redis.

        The commit also stores when the room is next due for the server to act by itself (bots,
        auto-play, timers, dropouts), and this process arms a timer for it.
        """
        fresh = False
        for _ in range(100):
            version, room, known = await self._room_to_change(code, fresh)
            try:
                done = change(room)
            except Exception:
                if not known:
                    raise
                fresh = True  # our copy may be stale and have misled the change: decide on Redis's state
                continue
            now = time.time()
            game = done.game if done.game is not None else rooms.load_game(room)
            step = ap.plan(room, game)
            due = None if step is None else step.due
            record = {**done.record, "ts": now, "proc": self.proc_id}
            committed = await self.store.commit(code, version, room, record, self.proc_id, due)
            if committed is not None:
                new_version, data = committed
                self._remember(code, new_version, data)
                await self.refresh(code, new_version, room, game)
                self.scheduler.arm(code, due)
                return new_version, done
            fresh = True
            await asyncio.sleep(0)
        raise ClientError("busy", "the room is too busy right now; try again")

    async def _room_to_change(self, code: str, fresh: bool) -> tuple[int, dict[str, Any], bool]:
        """The room and its version to apply a change to, and whether they came from our own copy.

        A room with players here keeps the state of its last commit (ours, or another process's from
        pub/sub), which saves a Redis round trip on every action. A stale copy is harmless: the
        commit's compare-and-set refuses it and the change is made again on the state from Redis.
        """
        known = None if fresh else self.known.get(code)
        if known is not None:
            return known[0], decode(known[1]), True
        version, data = await self.store.load_raw(code)
        return version, decode(data), False

    def _remember(self, code: str, version: int, data: bytes) -> None:
        """Keep a room's newest state seen (only for rooms with local members, so it stays small)."""
        if code in self.rooms and version > self.known.get(code, (0, b""))[0]:
            self.known[code] = (version, data)

    # ---- handlers -------------------------------------------------------------------------------

    async def on_hello(self, conn: Conn, msg: P.Hello) -> dict[str, Any] | bool:
        if msg.protocol != P.PROTOCOL_VERSION:
            await self.error(conn, msg.id, "protocol_mismatch",
                             f"server speaks protocol {P.PROTOCOL_VERSION}, client {msg.protocol}",
                             {"server": P.PROTOCOL_VERSION, "client": msg.protocol})
            self._close_soon(conn, 4000, "protocol mismatch")
            return False
        conn.hello = True
        await self.send(conn, P.Welcome(id=msg.id, server=f"guandan-online/{self.proc_id}", time=time.time(),
                                     fixed_seeds=self.config.fixed_seeds, invite=self.invite))
        return {"protocol": P.PROTOCOL_VERSION}

    async def on_create(self, conn: Conn, msg: P.Create) -> dict[str, Any]:
        self._not_seated(conn)
        if msg.seed is not None and not self.config.fixed_seeds:
            raise RoomError("seed_not_allowed", "this server shuffles with its own secret seeds; a fixed "
                            "seed is for tests and replays (a server started with --allow-fixed-seeds)")
        settings = rooms.make_settings(msg.preset, msg.options, msg.turn_timer, msg.bot_delay, msg.seed,
                                       msg.return_timer, msg.grace, msg.ai_timeout, msg.fill_bots,
                                       msg.auto_next, msg.counter, msg.bot)
        if set(msg.bots) & set(msg.ai):
            raise RoomError("seat_taken", "a seat was asked for both a bot and an AI",
                            {"seat": min(set(msg.bots) & set(msg.ai))})
        if msg.seat is not None and msg.seat in (*msg.bots, *msg.ai):
            raise RoomError("seat_taken", f"seat {msg.seat} was asked for both a bot and the host",
                            {"seat": msg.seat})
        token = rooms.new_token()
        secrets_of = {s: rooms.new_token() for s in msg.ai}
        seat_box: list[int] = []

        def make(code: str) -> dict[str, Any]:
            room = rooms.new_room(code, settings)
            for b in msg.bots:
                room["seats"][b] = rooms.bot_seat(b)
            for a, secret in secrets_of.items():
                room["seats"][a] = rooms.ai_seat(a, rooms.hash_token(secret))
            seat_box[:] = [rooms.take_seat(room, msg.nickname, msg.seat, rooms.hash_token(token))]
            return room

        record = {"kind": "room", "type": "create", "nickname": msg.nickname, "bots": msg.bots,
                  "ai": msg.ai, "ts": time.time(), "proc": self.proc_id}
        code, _room = await self.store.create(make, record)
        for secret in secrets_of.values():
            await self.store.link_ai(rooms.hash_token(secret), code)
        seat = seat_box[0]
        await self.attach(conn, code, seat, rooms.hash_token(token))
        log.info("room created code=%s preset=%s bots=%s ai=%s host=%s seat=%d", code, msg.preset, msg.bots,
                 msg.ai, clip(msg.nickname), seat)
        result: dict[str, Any] = {"code": code, "seat": seat, "token": token}
        if secrets_of:
            result["ai"] = [{"seat": a, "path": f"/game/{secret}"} for a, secret in secrets_of.items()]
        return result

    async def on_join(self, conn: Conn, msg: P.Join) -> dict[str, Any]:
        self._not_seated(conn)
        code = self._code(msg.code)
        if msg.spectator:
            await self.store.load(code)
            await self.attach(conn, code, None)
            await self.store.watch(code, conn.id, msg.nickname)  # the presence sent after the ack tells all
            log.info("spectator joined code=%s nickname=%s", code, clip(msg.nickname))
            return {"code": code, "seat": None}
        token = rooms.new_token()
        digest = rooms.hash_token(token)
        _v, done = await self.mutate(
            code, lambda room: C.join(room, msg.nickname, msg.seat, digest, time.time()))
        seat = done.result["seat"]
        await self.attach(conn, code, seat, digest)
        log.info("joined code=%s seat=%d nickname=%s", code, seat, clip(msg.nickname))
        return {"code": code, "seat": seat, "token": token}

    async def on_resume(self, conn: Conn, msg: P.Resume) -> dict[str, Any]:
        code = self._code(msg.code)
        _v, room = await self.store.load(code)
        seat = rooms.seat_of_token(room, msg.token)
        await self.attach(conn, code, seat, rooms.holder(room, seat))
        # control returns at once
        await self.try_mutate(code, lambda room: C.seat_back(room, seat, time.time()))
        log.info("resumed code=%s seat=%d conn=%s", code, seat, conn.id)
        return {"code": code, "seat": seat}

    async def on_leave(self, conn: Conn, msg: P.Leave) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        free_seat = None
        if seat is not None:
            _v, room = await self.store.load(code)
            give_up = rooms.leave_seat if room["status"] == "lobby" else None
            if room["status"] == "playing" and (room.get("game") or {}).get("phase") == "match_over":
                give_up = rooms.leave_finished_match

            if give_up is not None:
                def change(room: dict[str, Any]) -> Change:
                    give_up(room, seat)
                    return Change({"kind": "room", "type": "leave", "seat": seat}, {}, None)

                free_seat = self._as_holder(conn, change)
        # first: the seat it frees is no longer this connection's to see; mid-match, the bot plays it at once
        await self.detach(conn, went=None if free_seat is not None else C.seat_left)
        if free_seat is not None:
            await self.mutate(code, free_seat)
        log.info("left code=%s seat=%s conn=%s", code, seat, conn.id)
        return {"code": code}

    async def _host_seat_change(self, conn: Conn, kind: str, target: int,
                                apply: Callable[[dict[str, Any], int | None, int], None]) -> dict[str, Any]:
        """One of the host's lobby controls over a seat: ``apply(room, by_seat, target)`` checks and makes
        it."""
        code, seat = self._in_room(conn)

        def change(room: dict[str, Any]) -> Change:
            apply(room, seat, target)
            return Change({"kind": "room", "type": kind, "seat": target}, {}, None)

        version, _ = await self.mutate(code, self._as_holder(conn, change))
        return {"version": version}

    async def on_add_bot(self, conn: Conn, msg: P.AddBot) -> dict[str, Any]:
        return await self._host_seat_change(conn, "add_bot", msg.seat, rooms.add_bot)

    async def on_remove_bot(self, conn: Conn, msg: P.RemoveBot) -> dict[str, Any]:
        code, seat = self._in_room(conn)

        def change(room: dict[str, Any]) -> Change:
            released = rooms.holder(room, msg.seat)
            rooms.remove_bot(room, seat, msg.seat)
            record = {"kind": "room", "type": "remove_bot", "seat": msg.seat}
            return Change(record, {"released": released}, None)

        version, done = await self.mutate(code, self._as_holder(conn, change))
        if done.result["released"] is not None:  # an AI seat: its secret URL opens nothing any more
            await self.store.unlink_ai(done.result["released"])
        return {"version": version}

    async def on_sit(self, conn: Conn, msg: P.Sit) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        if seat is None:
            raise ClientError("not_seated", "spectators join a seat with join")

        def change(room: dict[str, Any]) -> Change:
            if msg.seat == seat and room["status"] == "lobby":
                raise NothingToDo  # one's own seat (after the start: already_started, as any other)
            rooms.sit(room, seat, msg.seat)
            return Change({"kind": "room", "type": "sit", "seat": seat, "to": msg.seat}, {}, None)

        try:
            version, _ = await self.mutate(code, self._as_holder(conn, change))
        except NothingToDo:
            version, _room = await self.store.load(code)
        return {"version": version, "seat": msg.seat}

    async def on_swap(self, conn: Conn, msg: P.Swap) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        a, b = msg.seats

        def change(room: dict[str, Any]) -> Change:
            rooms.swap(room, seat, a, b)
            return Change({"kind": "room", "type": "swap", "seats": [a, b]}, {}, None)

        version, _ = await self.mutate(code, self._as_holder(conn, change))
        return {"version": version}

    async def on_remove_player(self, conn: Conn, msg: P.RemovePlayer) -> dict[str, Any]:
        return await self._host_seat_change(conn, "remove_player", msg.seat, rooms.remove_player)

    async def on_add_ai(self, conn: Conn, msg: P.AddAi) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        secret = rooms.new_token()
        digest = rooms.hash_token(secret)

        def change(room: dict[str, Any]) -> Change:
            rooms.add_ai(room, seat, msg.seat, digest)
            return Change({"kind": "room", "type": "add_ai", "seat": msg.seat}, {}, None)

        version, _ = await self.mutate(code, self._as_holder(conn, change))
        await self.store.link_ai(digest, code)
        log.info("AI seat added code=%s seat=%d", code, msg.seat)
        return {"version": version, "seat": msg.seat, "path": f"/game/{secret}"}

    async def on_lock(self, conn: Conn, msg: P.Lock) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        version, _ = await self.mutate(code, self._as_holder(conn, lambda room: C.lock(room, seat, msg.on)))
        return {"version": version, "locked": msg.on}

    async def on_start(self, conn: Conn, msg: P.Start) -> dict[str, Any]:
        """The host starts the room's match with a fresh shuffle."""
        code, seat = self._in_room(conn)
        connected = await self.store.presence(code)
        seed = C.new_seed()
        version, _ = await self.mutate(
            code, self._as_holder(conn, lambda room: C.start_game(room, seat, connected, seed, time.time())))
        log.info("game started code=%s", code)
        # someone who moved (sit, swap) as the host pressed Start was read at the seat they left
        now_connected = await self.store.presence(code)
        for late in (s for s in range(len(connected)) if now_connected[s] and not connected[s]):
            await self.try_mutate(code, lambda room, s=late: C.seat_back(room, s, time.time()))
        return {"version": version}

    async def on_ready(self, conn: Conn, msg: P.NextDeal | P.NewMatch) -> dict[str, Any]:
        """Next deal or rematch: this seat is ready; the deal (or match) starts once nobody is waited for."""
        code, seat = self._in_room(conn)
        if seat is None:
            raise ClientError("not_seated", "spectators cannot act")
        seed = C.new_seed()
        version, _ = await self.mutate(code, self._as_holder(
            conn, lambda room: C.press_ready(room, seat, msg.type, seed, time.time())))
        return {"version": version}

    async def on_game_action(self, conn: Conn, msg: Any) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        if seat is None:
            raise ClientError("not_seated", "spectators cannot act")
        action = msg.model_dump(exclude={"id"}, exclude_none=True)
        version, _ = await self.mutate(
            code, self._as_holder(conn, lambda room: C.game_action(room, seat, action, "human")))
        return {"version": version}

    async def on_auto(self, conn: Conn, msg: P.Auto) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        if seat is None:
            raise ClientError("not_seated", "spectators cannot use auto-play")
        interval = msg.interval if msg.on else None
        version, _ = await self.mutate(
            code, self._as_holder(conn, lambda room: C.set_autoplay(room, seat, interval)))
        log.info("auto-play code=%s seat=%d interval=%s", code, seat, interval)
        return {"version": version, "autoplay": interval}

    async def on_suggest(self, conn: Conn, msg: P.Suggest) -> dict[str, Any]:
        room, game, seat = await self._seated_game(conn, "ask for a suggestion")
        if seat not in game.pending_seats():
            raise IllegalAction("not_your_turn", "there is nothing for you to do now")
        action, reason, reason_zh = suggestion(room, game, seat, msg.skip)
        return {"action": action, "reason": reason, "reason_zh": reason_zh}

    async def on_say(self, conn: Conn, msg: P.Say) -> dict[str, Any]:
        code, seat = self._in_room(conn)
        if seat is None:
            raise ClientError("not_seated", "spectators cannot speak at the table")
        now = time.time()
        chat.check_gap(conn.said_at, now)
        _version, room = await self.store.load(code)
        rooms.check_holder(room, seat, conn.holder)
        conn.said_at = now
        await self.store.publish(code, chat.notice(seat, msg.phrase))
        return {}

    async def on_readings(self, conn: Conn, msg: P.Readings) -> dict[str, Any]:
        _room, game, seat = await self._seated_game(conn, "play")
        return {"readings": [reading(p, game.level) for p in game.readings(seat, msg.cards)]}

    async def _seated_game(self, conn: Conn, what: str) -> tuple[dict[str, Any], Game, int]:
        """The room, its game and the connection's seat, for a question that changes nothing."""
        code, seat = self._in_room(conn)
        if seat is None:
            raise ClientError("not_seated", f"spectators cannot {what}")
        _version, room = await self.store.load(code)
        rooms.check_holder(room, seat, conn.holder)
        return room, C.game_of(room), seat

    async def on_resync(self, conn: Conn, msg: P.Resync) -> dict[str, Any]:
        code, _seat = self._in_room(conn)
        return {"code": code}

    def _not_seated(self, conn: Conn) -> None:
        if conn.code is not None and conn.seat is not None:
            raise ClientError("already_seated",
                              f"this connection holds seat {conn.seat} in room {conn.code}; leave first",
                              {"seat": conn.seat, "code": conn.code})

    def _in_room(self, conn: Conn) -> tuple[str, int | None]:
        if conn.code is None:
            raise ClientError("not_in_room", "join or resume a room first")
        return conn.code, conn.seat

    @staticmethod
    def _code(code: str) -> str:
        code = code.upper()
        if not valid_code(code):
            raise RoomError("room_not_found", f"no room with code {code}", {"code": code})
        return code

    # ---- acting by itself: bots, auto-play, timers, dropouts, external AIs ---------------------------

    async def drive(self, code: str) -> None:
        """Called by the scheduler once this process holds the room's lease: do what is due, if anything,
        else note when it will be due. Each step is re-checked against fresh state before its commit."""
        for _ in range(20):
            try:
                version, room = await self.store.load(code)
            except RoomNotFound:
                await self.store.forget_due(code)
                return
            outages = self.watch.outages
            if any(ap.outage_passed(room, down, back) for down, back in outages):
                await self.try_mutate(code, lambda room, outages=outages: C.outages_made_good(room, outages))
                continue  # plan on the clocks as they are now
            step = ap.plan(room, rooms.load_game(room))
            now = time.time()
            if step is None or step.due > now:
                await self._due_at(code, version, None if step is None else step.due)
                return
            if step.why == ap.TIMER and await self._held_by_silent_process(code, step.seat, now):
                # its player's server has stopped beating: the timer waits for the burial, which makes
                # the player a dropped one (not their own timeout; in what was played in their name)
                await self._due_at(code, version, now + self.config.heartbeat)
                return
            connected = False
            decided = None
            if step.why == ap.GRACE:
                connected = (await self.store.presence(code))[step.seat]
            elif step.why in C.BOT_STEPS:  # the bot thinks in a worker thread: the loop serves the others
                decided = await asyncio.to_thread(C.decide, room, step.seat)
            try:
                await self.mutate(code, lambda room, step=step, c=connected, d=decided:
                                  C.take_step(room, step, c, time.time(), d))
                return
            except NothingToDo:
                continue
            except (IllegalAction, RoomError, ChangeError) as exc:
                log.error("automatic step refused code=%s step=%s: %s", code, step, exc)
                return

    async def _due_at(self, code: str, version: int, due: float | None) -> None:
        """Note when the room is next due (None: waiting for people), unless it changed meanwhile."""
        if await self.store.reschedule(code, version, due):
            self.scheduler.arm(code, due)

    async def _held_by_silent_process(self, code: str, seat: int, now: float) -> bool:
        """Whether the seat's connection is on another process that has missed a few heartbeats (dead,
        most likely, but not buried until ``proc_ttl``)."""
        conn_id = (await self.store.seat_conns(code)).get(seat)
        proc = conn_id.split(":", 1)[0] if conn_id else self.proc_id
        if proc == self.proc_id:
            return False
        last = (await self.store.last_beats({proc}))[proc]
        return last is None or now - last > SILENT_BEATS * self.config.heartbeat

    async def bury(self, proc_id: str, burial: Burial) -> None:
        """A server process died: its seats' connections are gone, so their grace periods start; a
        table left without any of its people halts from the moment the process died."""
        codes = burial.codes
        if proc_id == self.proc_id:
            await self._unbury_self(codes)
            return
        prefix = proc_id + ":"
        since = burial.died if burial.died is not None else time.time() - self.config.proc_ttl
        for code in codes:
            try:
                conns = await self.store.seat_conns(code)
            except RedisError:
                continue
            seats = [seat for seat, conn_id in conns.items()
                     if conn_id.startswith(prefix) and await self.store.release_seat(code, seat, conn_id)]
            if seats:
                await self.try_mutate(code, lambda room, seats=seats:
                                      C.server_gone(room, seats, since, time.time()))
            await self.store.publish(code, {"k": "presence"})
            self.scheduler.kick(code)

    async def _unbury_self(self, codes: list[str]) -> None:
        """Our own heartbeat ran out while the event loop was too busy to beat (thousands of connections
        closing at once did it): we are alive, so our players keep their seats, and the rooms where we
        hold them are noted again for whoever buries us for real."""
        log.warning("this process missed its own heartbeat (event loop busy); keeping its %d rooms",
                    len(codes))
        await self.store.keep_proc_rooms(self.proc_id, codes)

    async def ai_handler(self, ws: ServerConnection, address: str) -> None:
        """``/game/<secret>``: an external AI takes its seat and plays it in the competition protocol."""
        try:
            self.limits.check(address, "ai")  # a wrong secret counts as a failed join
        except ClientError as exc:
            self.refusals.log(log, logging.INFO, "AI connection refused address=%s: %s", address, exc.message)
            await ws.close(1008, exc.message[:120])  # a close reason holds 123 bytes
            return
        secret = ws.request.path[len("/game/"):] if ws.request else ""
        digest = rooms.hash_token(secret.split("?", 1)[0])
        code = await self.store.ai_room(digest)
        seat = None
        if code is not None:
            with contextlib.suppress(RoomNotFound):
                _v, room = await self.store.load(code)
                seat = next((i for i, s in enumerate(room["seats"])
                             if s["kind"] == "ai" and s["token"] == digest), None)
        if code is None or seat is None:
            self.limits.failed(address)
            self.refusals.log(log, logging.INFO, "AI connection refused: unknown secret address=%s", address)
            await ws.close(1008, "unknown AI seat")
            return
        conn_id = f"{self.proc_id}:{next(self._ids)}"
        ai = AiSeat(self, ws, code, seat, digest, conn_id)
        old = await self.store.claim_seat(code, seat, conn_id)
        for other in list(self.ai_seats.get(code, ())):
            if other.seat == seat:
                await other.close()
        if old and old != conn_id:
            await self._kick(old)
        self.ai_seats.setdefault(code, set()).add(ai)
        await self.pubsub.subscribe(self.store.channel(code))
        log.info("AI connected code=%s seat=%d conn=%s", code, seat, conn_id)
        await self.try_mutate(code, lambda room: C.seat_back(room, seat, time.time()))
        await self.store.publish(code, {"k": "presence"})
        try:
            await ai.run()
        finally:
            seats = self.ai_seats.get(code)
            if seats is not None:
                seats.discard(ai)
                if not seats:
                    del self.ai_seats[code]
            if code not in self.rooms and code not in self.ai_seats:
                with contextlib.suppress(RedisError, OSError, RuntimeError):
                    await self.pubsub.unsubscribe(self.store.channel(code))
            with contextlib.suppress(RedisError, OSError):
                if await self.store.release_seat(code, seat, conn_id):
                    await self.store.publish(code, {"k": "presence"})
                    went = self._dropped()
                    await self.try_mutate(code, lambda room: went(room, seat, time.time()))
            log.info("AI disconnected code=%s seat=%d conn=%s", code, seat, conn_id)


def reading(play: Play, level: int) -> dict[str, Any]:
    """One way of playing a selection, named as players say it in both languages, and laid out as the
    table will show it (``cards`` in reading order, ``as``: the rank each stands for), so a client can
    word the choice as it words the plays on the table."""
    cards, ranks = lay_out(play.kind, play.value, play.cards, level)
    return {"kind": play.kind, "value": play.value, "name": play_name(play, level),
            "name_zh": play_name_zh(play, level), "cards": cards, "as": ranks}


def _echo_id(msg_id: Any) -> Any:
    if isinstance(msg_id, bool):
        return None
    if isinstance(msg_id, int) and 0 <= msg_id < 2**53:
        return msg_id
    if isinstance(msg_id, str) and 0 < len(msg_id) <= 64:
        return msg_id
    return None


def _validation_error(exc: ValidationError) -> tuple[str, str, dict[str, Any]]:
    errors = exc.errors(include_url=False)
    first = errors[0]
    if first["type"] == "union_tag_invalid":
        return "unknown_type", f"unknown message type; expected one of: {', '.join(P.CLIENT_TYPES)}", {}
    if first["type"] == "union_tag_not_found":
        return "unknown_type", "a message needs a 'type' field", {}
    parts, where = [], []
    for e in errors[:5]:
        loc = ".".join(str(x)[:40] for x in e["loc"][1:]) or "message"  # keys are the client's
        parts.append(f"{loc}: {e['msg']}")
        where.append(loc)
    return "invalid_message", "; ".join(parts), {"where": where}

