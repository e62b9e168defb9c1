"""The protocol fuzzer: tests/server/test_srv_fuzz.py runs it bounded, bench/fuzz.py for 1,000,000 frames.

Frames come from hypothesis strategies over the client models of server/protocol.py (CLIENT_MODELS,
read through their JSON schemas): messages with every field valid, or one dropped, given a value of
any type or nested 1,000 deep, or an unknown field added; raw-byte mutations of such frames (bits
flipped, bytes inserted, cut, truncated, repeated), hypothesis-drawn and, cheaper, ``mutants`` drawn
from a hypothesis-seeded Random after each message; text frames, random bytes, oversized frames.

Two real ``python -m server`` processes share one real Redis: ``open`` with a per-connection rate
limit out of reach, ``limited`` with a low one. A session (``run_lockstep``) sends its frames to
``open`` from its own loopback address, sometimes after resuming the host seat of a started room, and
matches the answers with the frames in order (a connection handles its frames one after the other):
each frame must get exactly one ack or error (its id echoed when it had a readable one), every frame
from the server must be a valid server message, no error may be ``internal``, the connection may only
close as the protocol says (4000 after ``protocol_mismatch``, 1009 at a frame over the hard cap), and
it must still answer a hello at the end. A flood session (``run_flood``)
sends its frames to ``limited`` without waiting: it must be closed (1008), and the frames the server
says it read (its log's ``connection closed`` line) must be exactly those it answered plus those it
dropped. After each session the servers must be alive and their logs free of tracebacks and errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import random
import re
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from hypothesis import strategies as st
from srv_client import free_port
from srv_procs import RedisProc, ServerProc, start_redis, start_server_process, stop_process
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from engine.rules import PRESETS, Rules
from server import protocol as P
from server.codec import MAX_DEPTH

MAX_FRAME = 16 * 1024  # the servers' --max-frame (the default)
HARD_MAX = 1024 * 1024  # beyond this websockets closes the connection (1009)
FLOOD_RATE, FLOOD_BURST = 5, 20  # the limited server's --rate and --burst
ANSWER_TIMEOUT = 30.0  # seconds a frame may wait for its answer on a busy machine
NO_ID = object()  # the answer's id is not known in advance (an unreadable frame)
RULE_OPTIONS = [name for name in Rules.__dataclass_fields__ if name != "name"]
PLAY_KINDS = ["single", "pair", "triple", "full_house", "straight", "tube", "plate", "bomb",
              "straight_flush", "joker_bomb"]


# ---- strategies -----------------------------------------------------------------------------------

def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


SCALARS = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=40) | st.binary(max_size=40))
JUNK = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=8)
ANY_VALUE = st.one_of(JUNK, JUNK, st.integers(MAX_DEPTH, 1_000).map(_nested),
                      st.text(min_size=100, max_size=3_000))
ROOM_CODE = st.text(P.CODE_ALPHABET, min_size=P.CODE_LENGTH, max_size=P.CODE_LENGTH)
NICKNAME = (st.text(st.characters(categories=["L", "N", "P", "S", "Zs"]), min_size=1, max_size=24)
            | st.text(max_size=26) | st.sampled_from(["Bo\nb", "\u202eevil", "A\u200bnn", " ", "x" * 25]))


def _from_schema(schema: dict[str, Any], name: str, codes: list[str]) -> st.SearchStrategy[Any]:
    """Valid values of one field, from its JSON schema; a few fields get the values that matter."""
    if "anyOf" in schema:
        return st.one_of(*[_from_schema(s, name, codes) for s in schema["anyOf"]])
    if "const" in schema:
        return st.just(schema["const"])
    kind = schema.get("type")
    if name == "code" and kind == "string":
        return st.sampled_from(codes) | ROOM_CODE if codes else ROOM_CODE
    if name == "nickname":
        return NICKNAME
    if name == "preset":
        return st.sampled_from([*PRESETS, "nope"])
    if name == "kind" and kind == "string":
        return st.sampled_from(PLAY_KINDS) | st.text(max_size=32)
    if name == "options":
        return st.dictionaries(st.sampled_from(RULE_OPTIONS) | st.text(max_size=20), JUNK, max_size=3)
    if name == "interval":
        return st.sampled_from(sorted(P.AUTO_INTERVALS)) | st.floats()
    if name == "protocol":  # mostly the right one: another closes the connection
        return st.integers(0, 9).flatmap(lambda n: st.integers(-1, 3) if n == 5
                                         else st.just(P.PROTOCOL_VERSION))
    if kind == "integer":
        low = schema.get("minimum", -(2**63))
        high = schema.get("maximum", schema.get("exclusiveMaximum", 2**63) - 1)
        return st.integers(low, min(high, 2**64 - 1))
    if kind == "number":
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        return st.floats(low, schema.get("maximum"), allow_nan=False,
                         exclude_min=low is not None and "exclusiveMinimum" in schema)
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 80))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(_from_schema(schema.get("items", {}), name, codes),
                        min_size=schema.get("minItems", 0), max_size=schema.get("maxItems", 30))
    return JUNK


@functools.cache
def _fields(model: type[P._ClientMsg], codes: tuple[str, ...]) -> list[tuple[str, bool, Any]]:
    """(name, required, valid values) of each field of a model (built once: schemas are slow)."""
    schema = model.model_json_schema()
    required = set(schema.get("required", ()))
    return [(name, name in required, _from_schema(prop, name, list(codes)))
            for name, prop in schema["properties"].items()]


@st.composite
def message(draw: st.DrawFn, codes: tuple[str, ...]) -> dict[str, Any]:
    """A client message: each field valid, or (now and then) dropped or given any value; now and then
    an unknown field too."""
    model = draw(st.sampled_from(P.CLIENT_MODELS))
    msg: dict[str, Any] = {}
    for name, required, valid in _fields(model, codes):
        fate = draw(st.integers(0, 19))
        if fate == 0 or (fate < 8 and not required):
            continue  # left out
        msg[name] = draw(ANY_VALUE) if fate == 1 else draw(valid)
    if draw(st.integers(0, 19)) == 0:
        msg[draw(st.text(max_size=20))] = draw(ANY_VALUE)
    return msg


OPS = ("flip", "insert", "delete", "truncate", "repeat")
MUTATIONS = st.lists(st.tuples(st.sampled_from(OPS),
                               st.floats(0, 1, exclude_max=True), st.binary(min_size=1, max_size=8)),
                     min_size=1, max_size=4)


def mutate(data: bytes, ops: list[tuple[str, float, bytes]]) -> bytes:
    out = bytearray(data)
    for op, where, blob in ops:
        at = int(where * len(out)) if out else 0
        if op == "flip" and out:
            out[at] ^= blob[0] or 1
        elif op == "insert":
            out[at:at] = blob
        elif op == "delete":
            del out[at:at + len(blob)]
        elif op == "truncate":
            del out[at:]
        elif op == "repeat":
            out += out[at:]
    return bytes(out)


class Frame:
    """What is sent, and the id its answer must carry (NO_ID: any, the frame may be unreadable). Not a
    dataclass: hypothesis prints a failing example through ``__repr__``, which keeps it short."""

    __slots__ = ("data", "expect_id")

    def __init__(self, data: bytes | str, expect_id: Any = NO_ID) -> None:
        self.data, self.expect_id = data, expect_id

    def __repr__(self) -> str:
        more = f"...({len(self.data)} long)" if len(self.data) > 200 else ""
        return f"Frame({self.data[:200]!r}{more}, {'?' if self.expect_id is NO_ID else repr(self.expect_id)})"


def readable_id(msg_id: Any) -> bool:
    """An id the server echoes (server/app.py _echo_id)."""
    if isinstance(msg_id, bool):
        return False
    if isinstance(msg_id, int):
        return 0 <= msg_id < 2**53
    return isinstance(msg_id, str) and 0 < len(msg_id) <= 64


def _message_frame(msg: dict[str, Any]) -> Frame:
    data = msgpack.packb(msg, use_bin_type=True)
    readable = len(data) <= MAX_FRAME and readable_id(msg.get("id"))
    return Frame(data, msg["id"] if readable else NO_ID)


@st.composite
def frame(draw: st.DrawFn, codes: tuple[str, ...], over_cap: bool = True) -> Frame:
    """One frame of any kind: mostly messages (valid or nearly), then mutated ones, random bytes, text,
    oversized frames, and (``over_cap``) about one in a thousand over the hard cap, which ends the
    session (a value inside the range: hypothesis favours the ends of ranges)."""
    kind = draw(st.integers(0, 999))  # shrinks towards a plain message
    if kind == 777 and over_cap:
        return Frame(b"\x00" * (HARD_MAX + 1))
    if kind < 600:
        return _message_frame(draw(message(codes)))
    if kind < 800:
        data = msgpack.packb(draw(message(codes)), use_bin_type=True)
        return Frame(mutate(data, draw(MUTATIONS)))
    if kind < 880:
        return Frame(draw(st.binary(max_size=64)))
    if kind < 940:
        return Frame(draw(st.text(max_size=64)))
    return Frame(b"\x81\xa4type" + b"\xc0" * draw(st.integers(MAX_FRAME, 2 * MAX_FRAME)))


@dataclass(frozen=True)
class Session:
    frames: list[Frame]
    address: str  # the loopback address it connects from (per-address limits count it)
    hello: bool = True  # greet first (without it most frames get hello_required)
    seat: int | None = None  # resume the host seat of this started room first
    seed: int = 0  # of the mutants (hypothesis draws it: a failing session replays the same)
    mutants: int = 0  # cheap byte mutants sent after each message frame

    def expanded(self) -> list[Frame]:
        """The frames, each message followed by its mutants (a thousand times cheaper to draw than with
        hypothesis, which keeps a million-frame run within hours on a busy machine)."""
        rng = random.Random(self.seed)
        out = []
        for f in self.frames:
            out.append(f)
            if isinstance(f.data, bytes) and len(f.data) <= MAX_FRAME:
                out += [Frame(mutate(f.data, _random_ops(rng))) for _ in range(self.mutants)]
        return out


def _random_ops(rng: random.Random) -> list[tuple[str, float, bytes]]:
    return [(rng.choice(OPS), rng.random(), rng.randbytes(rng.randint(1, 8)))
            for _ in range(rng.randint(1, 4))]


def sessions(codes: tuple[str, ...], min_frames: int = 1, max_frames: int = 40,
             mutants: int = 0) -> st.SearchStrategy[Session]:
    return st.builds(Session, st.lists(frame(codes), min_size=min_frames, max_size=max_frames),
                     st.builds("127.{}.{}.{}".format, st.integers(1, 100), st.integers(0, 255),
                               st.integers(1, 254)),
                     st.integers(0, 9).map(bool), st.none() | st.integers(0, 3), st.integers(0, 2**32 - 1),
                     st.just(mutants))


def floods(codes: tuple[str, ...]) -> st.SearchStrategy[Session]:
    # nothing over the hard cap: websockets then drops what it had not sent yet, answers included
    return st.builds(Session, st.lists(frame(codes, over_cap=False), min_size=100, max_size=160),
                     st.builds("127.200.{}.{}".format, st.integers(0, 255), st.integers(1, 254)))


# ---- running sessions -----------------------------------------------------------------------------

@dataclass
class Tally:
    """What the sessions did; ``problems`` must stay empty, and every frame is accounted for:
    ``frames == answered + (dropped - notices) + cut_off``."""

    sessions: int = 0
    frames: int = 0
    answered: int = 0
    dropped: int = 0  # by a rate limit, as the server's log says
    notices: int = 0  # rate_limited errors (each answers one dropped frame)
    cut_off: int = 0  # never read: sent after the server closed the connection, or over the hard cap
    closes: Counter[int | None] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    crashes: int = 0  # a server process that exited
    bad_log_lines: int = 0  # tracebacks and errors in the servers' logs
    problems: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Fold in another process's tally."""
        for name in ("sessions", "frames", "answered", "dropped", "notices", "cut_off", "bad_log_lines"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.crashes = max(self.crashes, other.crashes)
        self.closes.update(other.closes)
        self.codes.update(other.codes)
        self.problems += other.problems

    def unaccounted(self) -> int:
        """Frames neither answered, nor dropped by the rate limit, nor cut off by a close: 0."""
        return self.frames - self.answered - (self.dropped - self.notices) - self.cut_off


class Problem(Exception):
    """Something a session saw that the protocol does not allow."""


def _decoded(raw: bytes | str) -> dict[str, Any]:
    if not isinstance(raw, bytes):
        raise Problem(f"a text frame from the server: {raw[:100]!r}")
    msg = msgpack.unpackb(raw, raw=False)
    P.SERVER_ADAPTER.validate_python(msg)  # raises on an invalid server message
    if msg["type"] == "error" and msg["code"] == "internal":
        raise Problem(f"an internal error: {msg}")
    return msg


UNSOLICITED = {"replaced", "seat_lost"}  # errors that answer nothing (another session took the seat)


async def _answer(ws: ClientConnection) -> dict[str, Any]:
    """The next ack or error, past the other messages (each checked as it comes)."""
    async with asyncio.timeout(ANSWER_TIMEOUT):
        while True:
            msg = _decoded(await ws.recv())
            if msg["type"] == "ack" or (msg["type"] == "error" and msg["code"] not in UNSOLICITED):
                return msg


class Fuzz:
    """A Redis, the two servers, a few started rooms to resume into, and the running tally. ``start``
    starts them; another process runs sessions against them with ``Fuzz(folder, urls).prepare()``."""

    def __init__(self, folder: Path, urls: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.redis: RedisProc | None = None
        self.servers: dict[str, ServerProc] = {}  # the processes, where they were started
        self.urls = urls or {}
        self.rooms: list[tuple[str, str]] = []  # (code, host token) of started rooms, this process's own
        self.tally = Tally()
        self.logs = {name: LogWatch(folder / f"{name}.log") for name in ("open", "limited")}
        self.loop = asyncio.Runner()
        self.ids = itertools.count()

    def start(self) -> Fuzz:
        self.redis = start_redis(self.folder)
        common = ["--redis-url", self.redis.url, "--client-dir", "", "--room-ttl", "3600"]
        self.servers["open"] = start_server_process(
            [*common, "--rate", "1e9", "--burst", "1e9", "--log-level", "WARNING"],
            self.folder / "open.log", free_port())
        self.servers["limited"] = start_server_process(
            [*common, "--rate", str(FLOOD_RATE), "--burst", str(FLOOD_BURST)], self.folder / "limited.log",
            free_port())
        self.urls = {name: server.url for name, server in self.servers.items()}
        return self.prepare()

    def prepare(self) -> Fuzz:
        """Rooms of our own to resume into (a seat resumed from two processes would close one)."""
        self.rooms = self.loop.run(self._rooms(4))
        return self

    def stop(self) -> None:
        self.loop.close()
        for proc in self.servers.values():
            stop_process(proc.proc)
        if self.redis is not None:
            stop_process(self.redis.proc)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(code for code, _ in self.rooms)

    async def _rooms(self, count: int) -> list[tuple[str, str]]:
        """Started rooms (the host and three slow bots) whose host seat sessions resume."""
        made = []
        async with connect(self.urls["open"], compression=None) as ws:
            await self._request(ws, {"type": "hello", "protocol": P.PROTOCOL_VERSION})
            for _ in range(count):
                res = await self._request(ws, {"type": "create", "nickname": "Host", "bots": [1, 2, 3],
                                               "bot_delay": 1.0, "grace": 1.0})
                await self._request(ws, {"type": "start"})
                await self._request(ws, {"type": "leave"})
                made.append((res["result"]["code"], res["result"]["token"]))
        return made

    async def _request(self, ws: ClientConnection, msg: dict[str, Any]) -> dict[str, Any]:
        msg = {**msg, "id": f"fuzz-{next(self.ids)}-{secrets.token_hex(8)}"}
        await ws.send(msgpack.packb(msg))
        answer = await _answer(ws)
        if answer["id"] != msg["id"]:
            raise Problem(f"answer {answer} to {msg}")
        return answer

    # -- lock step against the open server

    def run_lockstep(self, session: Session) -> list[str]:
        return self._run(self._lockstep(session), session)

    def run_flood(self, session: Session) -> list[str]:
        return self._run(self._flood(session), session)

    def _run(self, coro: Any, session: Session) -> list[str]:
        """Run one session; the problems it found (also added to the tally)."""
        self.tally.sessions += 1
        problems = []
        try:
            self.loop.run(coro)
        except Exception as exc:  # anything unforeseen is a problem of the session, to report
            problems.append(f"{type(exc).__name__}: {str(exc)[:300]}")
        problems += self.check_servers()
        self.tally.problems += problems
        return problems

    async def _lockstep(self, session: Session) -> None:
        """The frames are pipelined (a busy machine makes each round trip slow), and matched with
        their answers in order: a connection handles its frames one after the other."""
        tally = self.tally
        ws = await connect(self.urls["open"], local_addr=(session.address, 0), compression=None,
                           max_size=None, open_timeout=ANSWER_TIMEOUT)
        try:
            if session.hello:
                await self._request(ws, {"type": "hello", "protocol": P.PROTOCOL_VERSION})
                if session.seat is not None and session.seat < len(self.rooms):
                    code, token = self.rooms[session.seat]
                    await self._request(ws, {"type": "resume", "code": code, "token": token})
            frames = session.expanded()
            answers: list[dict[str, Any]] = []

            async def read() -> None:
                with contextlib.suppress(ConnectionClosed):
                    while len(answers) < len(frames):
                        answers.append(await _answer(ws))

            reader = asyncio.create_task(read())
            sent = 0
            for f in frames:
                try:
                    await ws.send(f.data)
                except ConnectionClosed:
                    break
                sent += 1
            await reader
            tally.frames += sent
            tally.answered += len(answers)
            for f, answer in zip(frames, answers, strict=False):
                tally.codes[answer.get("code", "ack")] += 1
                if f.expect_id is not NO_ID and answer["id"] != f.expect_id:
                    raise Problem(f"the answer {answer} does not carry the id of {f}")
            if len(answers) < sent:
                tally.cut_off += sent - len(answers)
                await asyncio.wait_for(ws.wait_closed(), ANSWER_TIMEOUT)
                self._closed_as_allowed(ws, frames[len(answers):sent], answers)
                return
            await self._request(ws, {"type": "hello", "protocol": P.PROTOCOL_VERSION})  # still usable
            tally.closes[None] += 1
        finally:
            await ws.close()

    def _closed_as_allowed(self, ws: ClientConnection, unanswered: list[Frame],
                           answers: list[dict[str, Any]]) -> None:
        """Only two closes answer nothing more: after a hello of another protocol, and at a frame over
        the hard cap (websockets then also drops the answers it had not sent)."""
        code = ws.close_code
        self.tally.closes[code] += 1
        if code == 4000 and answers and answers[-1].get("code") == "protocol_mismatch":
            return
        if code == 1009 and any(len(f.data) > HARD_MAX for f in unanswered):
            return
        raise Problem(f"closed with {code} ({ws.close_reason!r}) before answering {unanswered[:3]}")

    # -- floods against the limited server

    async def _flood(self, session: Session) -> None:
        tally = self.tally
        ws = await connect(self.urls["limited"], local_addr=(session.address, 0), compression=None,
                           max_size=None, open_timeout=ANSWER_TIMEOUT)
        port = ws.local_address[1]
        answers: list[dict[str, Any]] = []

        async def read() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for raw in ws:
                    msg = _decoded(raw)
                    if msg["type"] in ("ack", "error"):
                        answers.append(msg)

        reader = asyncio.create_task(read())
        sent = 0
        for frame in session.frames:
            try:
                await ws.send(frame.data)
            except ConnectionClosed:
                break
            sent += 1
        tally.frames += sent
        await asyncio.wait_for(reader, ANSWER_TIMEOUT)
        code = ws.close_code
        tally.closes[code] += 1
        read_by_server, dropped = await self.logs["limited"].closed(f"{session.address}:{port}")
        notices = sum(1 for a in answers if a["type"] == "error" and a["code"] == "rate_limited")
        tally.answered += len(answers)
        tally.notices += notices
        tally.dropped += dropped
        tally.cut_off += sent - read_by_server
        for a in answers:
            tally.codes[a.get("code", "ack")] += 1
        if len(answers) - notices != read_by_server - dropped:
            raise Problem(f"the server read {read_by_server} frames and dropped {dropped}, but answered "
                          f"{len(answers) - notices} (+{notices} notices)")
        mismatch = any(a.get("code") == "protocol_mismatch" for a in answers)
        if not (code == 1008 or (code == 4000 and mismatch)):
            raise Problem(f"a flood of {len(session.frames)} frames was closed with {code}")

    # -- the servers themselves

    def check_servers(self) -> list[str]:
        """The servers are alive and have logged no traceback and no error."""
        problems = [f"server {name} exited with {s.proc.returncode}"
                    for name, s in self.servers.items() if s.proc.poll() is not None]
        self.tally.crashes = max(self.tally.crashes, len(problems))
        for name, watch in self.logs.items():
            bad = watch.bad_lines()
            self.tally.bad_log_lines += len(bad)
            problems += [f"{name} server log: {line[:300]}" for line in bad]
        return problems


OPENED = re.compile(r"connection opened conn=(\S+) peer=(\S+)")
CLOSED = re.compile(r"connection closed conn=(\S+) code=\S+ frames=(\d+) dropped=(\d+)")
BAD = re.compile(r"Traceback|\bERROR\b|\bCRITICAL\b")


class LogWatch:
    """Reads a server's log as it grows: tracebacks and errors, and connections' closing counts."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.conn_of_peer: dict[str, str] = {}
        self.counts: dict[str, tuple[int, int]] = {}
        self.bad: list[str] = []

    def _read(self) -> None:
        if not self.path.exists():
            return
        with self.path.open("rb") as f:
            f.seek(self.offset)
            chunk = f.read()
        end = chunk.rfind(b"\n") + 1  # whole lines only
        self.offset += end
        for line in chunk[:end].decode(errors="replace").splitlines():
            if m := OPENED.search(line):
                self.conn_of_peer[m[2]] = m[1]
            elif m := CLOSED.search(line):
                self.counts[m[1]] = (int(m[2]), int(m[3]))
            if BAD.search(line):
                self.bad.append(line)

    def bad_lines(self) -> list[str]:
        self._read()
        bad, self.bad = self.bad, []
        return bad

    async def closed(self, peer: str, timeout: float = ANSWER_TIMEOUT) -> tuple[int, int]:
        """(frames read, frames dropped) of the connection from ``peer``, once the server closed it."""
        deadline = time.monotonic() + timeout
        while True:
            self._read()
            conn = self.conn_of_peer.get(peer)
            if conn is not None and conn in self.counts:
                return self.counts[conn]
            if time.monotonic() > deadline:
                raise Problem(f"no 'connection closed' line for {peer} in {self.path.name}")
            await asyncio.sleep(0.02)
