"""Load benchmark of the game server: rooms of 4 scripted clients over real loopback sockets.

Run (from the repository root):

    python bench/load.py --rooms 24 --seconds 30                  # one server process, flat out
    python bench/load.py --rooms 110 --think 0.1 --seconds 30     # ... paced near 1,000 actions/s
    python bench/load.py --rooms 40 --seconds 30 --servers 2      # two, sharing one Redis
    python bench/load.py --idle 8000 --seconds 30 --procs 2       # idle connections held

Every client acts at once, so the rooms are a closed loop: latency is about rooms / throughput once
the server is saturated (``--rooms`` sets how many actions are in flight); ``--think`` paces them instead.

It starts its own redis-server on a free port in a temporary folder (unless ``--redis-url``) and the
server process(es) (``python -m server``), and stops all of them by process id at the end. With two
servers the seats of every room alternate between them, so each action also travels through pub/sub.

Each client acts as soon as it is its turn (after ``--think`` seconds, if given): a play chosen at
random among the engine's legal plays for its view (``engine.play_groups`` + ``expand``, which
partition ``legal_plays`` and cost a third of it), a pass, the lowest return choice, or ``next_deal``.
A finished match is replaced by a new one in the same room slots.

The clients are lean on purpose (the load generator must not be the bottleneck): a minimal RFC 6455
client on ``asyncio.Protocol`` with callbacks, no task per message, diffs applied in place.
``--procs 2`` splits the rooms over two load-generating processes (the server needs a core too).

Latency is from sending an action to the moment the last of the room's 4 seats has the diff of the
action's version. CPU is the server process's utime+stime from /proc/<pid>/stat over wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import itertools
import multiprocessing as mp
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import msgpack

from engine import HandIndex, expand, play_groups
from engine.plays import BOMB, JOKER_BOMB, STRAIGHT_FLUSH, Play
from engine.rules import Rules
from server.lifecycle import free_port, start_redis, stop_process, wait_healthy

try:
    from websockets.speedups import apply_mask  # the C masking of the websockets library
except ImportError:  # pragma: no cover - websockets built without its C extension
    from websockets.utils import apply_mask

REPO = Path(__file__).resolve().parents[1]
BOMB_KINDS = frozenset((BOMB, STRAIGHT_FLUSH, JOKER_BOMB))
PASS_CHANCE = 0.25  # a follower who could beat the table passes this often (deals end sooner)
BOMB_CHANCE = 0.2  # a follower who can beat only with a bomb uses it this often

# ---- services: redis-server and server processes, started on free ports, stopped by pid ------------


def raise_nofile() -> int:
    """Raise the soft open-files limit to the hard one: 8,000 client sockets need it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard




@dataclass
class Services:
    """The redis-server (if we started it) and the server processes under test."""

    redis_url: str
    servers: list[tuple[subprocess.Popen[bytes], int]]
    redis: subprocess.Popen[bytes] | None
    folder: Path

    @property
    def ports(self) -> list[int]:
        return [port for _, port in self.servers]

    def stop(self) -> None:
        for proc, _ in self.servers:
            stop_process(proc, 15)
        if self.redis is not None:
            stop_process(self.redis, 15)


def start_server(port: int, redis_url: str, log: Path, log_level: str,
                 server_dir: Path = REPO, frame_rate: float = 0.0) -> subprocess.Popen[bytes]:
    """``python -m server`` on ``port`` (output appended to ``log``), once its /healthz answers.
    ``frame_rate`` (> 0) sets the per-connection frame limit (``--rate``, the same ``--burst``)."""
    cmd = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
           "--redis-url", redis_url, "--client-dir", "", "--log-level", log_level, "--allow-fixed-seeds",
           "--no-address-limits"]  # every client is on 127.0.0.1
    if frame_rate > 0:
        cmd += ["--rate", str(frame_rate), "--burst", str(frame_rate)]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=server_dir)
    try:
        wait_healthy(port, proc, log)
    except BaseException:
        stop_process(proc)
        raise
    return proc


def start_services(count: int, redis_url: str | None, folder: Path, log_level: str,
                   server_dir: Path = REPO, frame_rate: float = 0.0) -> Services:
    redis_proc = None
    if redis_url is None:
        redis_proc, port = start_redis(folder)
        redis_url = f"redis://127.0.0.1:{port}/0"
    services = Services(redis_url, [], redis_proc, folder)
    try:
        for i in range(count):
            port = free_port()
            services.servers.append((start_server(port, redis_url, folder / f"server{i}.log", log_level,
                                                  server_dir, frame_rate), port))
    except BaseException:
        services.stop()
        raise
    return services


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat, after the command name)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kib(pid: int) -> tuple[int, int]:
    """(resident, peak resident) KiB of a process, from /proc/<pid>/status."""
    found = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found.get("VmRSS", 0), found.get("VmHWM", 0)


# ---- a minimal WebSocket client ------------------------------------------------------------------


class Wire(asyncio.Protocol):
    """RFC 6455 client for binary frames: handshake, masked sends, ping/pong, close. The server never
    fragments its messages (websockets sends each one as a single frame), so neither do we."""

    def __init__(self, host: str, on_message: Callable[[bytes], None]) -> None:
        self.host = host
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pong: asyncio.Future[None] | None = None
        self.handshaken = False
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write((f"GET /ws HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                         f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n").encode())

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"closed during the handshake: {exc}"))

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.handshaken:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end])
            del self.buf[:end + 4]
            if not head.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(head.split(b"\r\n", 1)[0].decode()))
                self.close()
                return
            self.handshaken = True
            self.opened.set_result(None)
        self._read_frames()

    def _read_frames(self) -> None:
        buf, pos, size = self.buf, 0, len(self.buf)
        while size - pos >= 2:
            length, head = buf[pos + 1] & 0x7F, 2
            if length == 126:
                if size - pos < 4:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
            end = pos + head + length
            if end > size:
                break
            opcode = buf[pos] & 0x0F
            payload = bytes(buf[pos + head:end])
            pos = end
            self._frame(opcode, payload)
        del buf[:pos]

    def _frame(self, opcode: int, payload: bytes) -> None:
        if opcode == 0x2:
            self.on_message(payload)
        elif opcode == 0x9:
            self.send(payload, 0xA)
        elif opcode == 0xA:
            if self.pong is not None and not self.pong.done():
                self.pong.set_result(None)
        elif opcode == 0x8:
            self.send(payload[:2], 0x8)
            self.closed = True
            if self.transport is not None:
                self.transport.close()

    def send(self, payload: bytes, opcode: int = 0x2) -> None:
        if self.closed or self.transport is None:
            return
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | opcode, 0xFE)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0xFF)) + n.to_bytes(8, "big")
        self.transport.write(head + mask + apply_mask(payload, mask))

    async def ping(self, timeout: float) -> bool:
        """True when the server answers a ping within ``timeout`` (the connection is really held)."""
        if self.closed:
            return False
        self.pong = asyncio.get_running_loop().create_future()
        self.send(b"bench", 0x9)
        try:
            await asyncio.wait_for(self.pong, timeout)
            return True
        except TimeoutError:
            return False

    def close(self) -> None:
        """Say goodbye with a normal close frame (code 1000) and close the socket."""
        if self.handshaken and not self.closed:
            self.send((1000).to_bytes(2, "big"), 0x8)
        self.closed = True
        if self.transport is not None:
            self.transport.close()


def apply_ops(view: dict[str, Any], ops: list[list[Any]]) -> None:
    """Apply the server's diff ops in place: wire tuples ``[code, path, value?]`` (``+`` add, ``-``
    remove, ``=`` replace) at /key[/sub], and ``+`` at /key/- to append."""
    for op in ops:
        code, path = op[0], op[1]
        parts = path[1:].split("/")
        if "~" in path:
            parts = [p.replace("~1", "/").replace("~0", "~") for p in parts]
        target: Any = view
        for part in parts[:-1]:
            target = target[int(part)] if isinstance(target, list) else target[part]
        last = parts[-1]
        if code == "-":
            del target[last]
        elif last == "-" and isinstance(target, list):
            target.append(op[2])
        elif isinstance(target, list):
            target[int(last)] = op[2]
        else:
            target[last] = op[2]


# ---- what a client plays -------------------------------------------------------------------------


def choose_play(view: dict[str, Any], rules: Rules, rng: random.Random) -> dict[str, Any]:
    """A random legal play for the seat to act (or a pass when following)."""
    top = view["top"]
    table = None if not top else Play(top["kind"], top["value"], tuple(top["cards"]))
    groups = play_groups(view["hand"], view["level"], table, rules)
    plain = [k for k in groups if k[0] not in BOMB_KINDS]
    if table is not None:
        if not groups or rng.random() < PASS_CHANCE or (not plain and rng.random() > BOMB_CHANCE):
            return {"type": "pass"}
    key = rng.choice(plain or list(groups))
    play = expand(HandIndex(view["hand"], view["level"]), rng.choice(groups[key]))[0]
    return {"type": "play", "cards": list(play.cards), "kind": play.kind, "value": play.value}


class Player:
    """What a scripted seat does when it is its turn (bench/soak.py's people too): a random legal play,
    the lowest return, or the next deal; at a won match, seat 0 has its table form a new one."""

    view: dict[str, Any]
    index: int
    rules: Rules | None
    rng: random.Random
    table: Any  # with match_over()

    def due_action(self) -> dict[str, Any] | None:
        view = self.view
        phase = view.get("phase")
        if phase == "play":
            if view["turn"] != self.index:
                return None
            if self.rules is None:
                self.rules = Rules.from_dict(view["rules"])
            return choose_play(view, self.rules, self.rng)
        if phase == "return":
            choices = view["return_choices"]
            return {"type": "return", "card": min(choices)} if choices else None
        if phase == "deal_over" and not (view.get("ready") or [True] * 4)[self.index]:
            return {"type": "next_deal"}  # the ready check: every seat presses, the last press deals
        if phase == "match_over" and self.index == 0:
            self.table.match_over()
        return None


# ---- one worker's clients ------------------------------------------------------------------------


@dataclass
class Stats:
    """What one load-generating process measured (sent back to the main process)."""

    latencies: list[float] = field(default_factory=list)  # action sent -> last seat's diff, seconds
    acks: list[float] = field(default_factory=list)  # action sent -> its ack, seconds
    diff_bytes: list[int] = field(default_factory=list)
    snapshot_bytes: list[int] = field(default_factory=list)
    actions: int = 0  # game actions acked in the window
    errors: Counter[str] = field(default_factory=Counter)
    gaps: int = 0
    matches: int = 0
    deals: int = 0
    connections: int = 0
    held: int = 0
    cpu: float = 0.0  # this process's CPU seconds over the window
    window: tuple[float, float] = (0.0, 0.0)  # unix times: measure actions sent in [start, end)

    def measuring(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


class Seat(Player):
    """One client connection: tracks its view from snapshot + diffs and acts when it is due."""

    def __init__(self, table: Table, index: int) -> None:
        self.table = table
        self.index = index
        self.stats = table.stats
        self.wire: Wire | None = None
        self.ids = itertools.count(1)
        self.requests: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.inflight: dict[int, float] = {}  # game action id -> unix time sent
        self.view: dict[str, Any] = {}
        self.version: int | None = None
        self.rules: Rules | None = None
        self.acted_at: int | None = None  # the version at which this seat last sent an action
        self.snapshot = asyncio.Event()  # set by each snapshot
        self.rng = random.Random(table.seed * 10 + index)

    async def connect(self, port: int) -> None:
        loop = asyncio.get_running_loop()
        _t, self.wire = await loop.create_connection(
            lambda: Wire(f"127.0.0.1:{port}", self.on_message), "127.0.0.1", port)
        await self.wire.opened
        await self.request({"type": "hello", "protocol": 1, "client": "bench"})

    def send(self, msg: dict[str, Any]) -> int:
        msg_id = msg["id"] = next(self.ids)
        assert self.wire is not None
        self.wire.send(msgpack.packb(msg))
        return msg_id

    async def resync(self) -> None:
        """Ask for a fresh snapshot and wait for it (it comes after the ack)."""
        self.snapshot.clear()
        await self.request({"type": "resync"})
        await asyncio.wait_for(self.snapshot.wait(), 60.0)

    async def request(self, msg: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        """Send a setup message and wait for its ack (an error raises; rate_limited: again, later)."""
        for _ in range(100):
            future = asyncio.get_running_loop().create_future()
            self.requests[self.send(dict(msg))] = future
            reply = await asyncio.wait_for(future, timeout)
            if reply.get("code") != "rate_limited":
                break
            await asyncio.sleep(0.1)
        if reply["type"] == "error":
            raise RuntimeError(f"{msg['type']} refused: {reply['code']}: {reply['message']}")
        return reply["result"]

    def on_message(self, payload: bytes) -> None:
        msg = msgpack.unpackb(payload)
        kind = msg["type"]
        if kind == "diff":
            self.on_diff(msg, len(payload))
        elif kind == "ack" or kind == "error":
            self.on_reply(msg)
        elif kind == "snapshot":
            if msg["view"]:  # not the lobby's empty view
                self.stats.snapshot_bytes.append(len(payload))
            self.view, self.version, self.rules = msg["view"], msg["version"], None
            self.snapshot.set()
            self.maybe_act()

    def on_diff(self, msg: dict[str, Any], size: int) -> None:
        now = time.time()
        if self.stats.measuring(now):
            self.stats.diff_bytes.append(size)
        if msg["base"] != self.version:
            self.stats.gaps += 1
            self.version = None
            self.send({"type": "resync"})
            return
        apply_ops(self.view, msg["ops"])
        self.version = msg["version"]
        self.table.arrived(msg["base"], msg["version"], now)
        self.maybe_act()

    def on_reply(self, msg: dict[str, Any]) -> None:
        msg_id = msg["id"]
        sent = self.inflight.pop(msg_id, None)
        if sent is None:
            future = self.requests.pop(msg_id, None)
            if future is not None and not future.done():
                future.set_result(msg)
            elif msg["type"] == "error":
                self.stats.errors[msg["code"]] += 1
                if msg["code"] == "rate_limited" and self.inflight:  # our action was dropped unanswered
                    self.inflight.clear()
                    self._act_again(msg.get("retry_after") or 0.0)
            return
        if msg["type"] == "error":
            self.stats.errors[msg["code"]] += 1
            self._act_again(0.0)  # rate_limited, or a state we misread
            return
        now = time.time()
        if self.stats.measuring(sent):
            self.stats.actions += 1
            self.stats.acks.append(now - sent)
        self.table.acked(msg["result"]["version"], sent)
        self.maybe_act()

    def _act_again(self, after: float) -> None:
        """Try the turn again shortly (``after`` more seconds: what a rate_limited notice asks)."""
        self.acted_at = None
        asyncio.get_running_loop().call_later(after + 0.05, self.maybe_act)

    def maybe_act(self) -> None:
        if not self.table.playing or self.inflight or self.version is None or self.acted_at == self.version:
            return
        action = self.due_action()
        if action is None:
            return
        think = self.table.think
        if think > 0:
            self.acted_at = self.version
            asyncio.get_running_loop().call_later(think * self.rng.uniform(0.5, 1.5), self._act_later,
                                                  self.version)
            return
        self._send_action(action)

    def _act_later(self, version: int) -> None:
        if self.version == version and not self.inflight and self.table.playing:
            action = self.due_action()
            if action is not None:
                self._send_action(action)

    def _send_action(self, action: dict[str, Any]) -> None:
        self.acted_at = self.version
        now = time.time()
        if action["type"] == "next_deal" and self.index == 0 and self.stats.measuring(now):
            self.stats.deals += 1
        self.inflight[self.send(action)] = now


class Table:
    """One room slot: 4 seats, the latency bookkeeping of its actions, and forming a new match."""

    def __init__(self, number: int, ports: list[int], stats: Stats, think: float) -> None:
        self.number = number
        self.ports = ports
        self.stats = stats
        self.think = think
        self.seed = number * 1000 + 1
        self.seats = [Seat(self, i) for i in range(4)]
        self.playing = False
        self.stopped = False  # the run is over: no more actions, no new match
        self.arrivals: dict[int, list[float]] = {}  # version -> [seats that have it, last time]
        self.sent: dict[int, float] = {}  # version -> when its action was sent (acked, diffs pending)
        self.done: dict[int, float] = {}  # version -> when the last seat had it (ack pending)
        self.reforming: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        for seat in self.seats:  # seats alternate between the server processes
            await seat.connect(self.ports[seat.index % len(self.ports)])

    async def form(self) -> None:
        """Create the room, seat the other three, start the match (each step waits for its ack)."""
        host = self.seats[0]
        created = await host.request({"type": "create", "nickname": "S0", "preset": "standard",
                                      "seed": self.seed, "bot_delay": 0.0})
        for seat in self.seats[1:]:
            await seat.request({"type": "join", "code": created["code"], "nickname": f"S{seat.index}",
                                "seat": seat.index})
        await host.request({"type": "start"})
        for seat in self.seats:  # a snapshot of the game under way, to measure its size
            await seat.resync()

    def arrived(self, base: int, version: int, now: float) -> None:
        for v in range(base + 1, version + 1):
            seen = self.arrivals.get(v)
            if seen is None:
                seen = self.arrivals[v] = [0.0, now]
            seen[0] += 1
            seen[1] = now
            if seen[0] >= 4:
                del self.arrivals[v]
                sent = self.sent.pop(v, None)
                if sent is None:
                    self.done[v] = now
                elif self.stats.measuring(sent):
                    self.stats.latencies.append(now - sent)

    def acked(self, version: int, sent: float) -> None:
        done = self.done.pop(version, None)
        if done is None:
            self.sent[version] = sent
        elif self.stats.measuring(sent):
            self.stats.latencies.append(done - sent)
        for old in [v for v in self.done if v < version]:  # versions no action of ours made
            del self.done[old]

    def start_playing(self) -> None:
        if self.stopped:
            return
        self.playing = True
        for seat in self.seats:
            seat.maybe_act()

    async def stop(self) -> None:
        """End of the run: stop acting, and let a new match being formed finish forming."""
        self.stopped, self.playing = True, False
        if self.reforming is not None:
            await self.reforming

    def match_over(self) -> None:
        if not self.stopped and (self.reforming is None or self.reforming.done()):
            self.reforming = asyncio.get_running_loop().create_task(self._reform())

    async def _reform(self) -> None:
        """The match is over: everyone leaves and the same four start a new one in a new room."""
        if self.stats.measuring(time.time()):
            self.stats.matches += 1
        self.playing = False
        for seat in self.seats:
            await seat.request({"type": "leave"})
            seat.view, seat.version, seat.acted_at, seat.rules = {}, None, None, None
        self.arrivals.clear()
        self.sent.clear()
        self.done.clear()
        self.seed += 1
        await self.form()
        self.start_playing()


async def _bounded(coros: list[Any], limit: int) -> None:
    gate = asyncio.Semaphore(limit)

    async def run(coro: Any) -> None:
        async with gate:
            await coro

    await asyncio.gather(*(run(c) for c in coros))


async def _set_up(tables: list[Table], concurrency: int) -> None:
    async def one(table: Table) -> None:
        await table.connect()
        await table.form()

    await _bounded([one(t) for t in tables], concurrency)


async def _recv(pipe: Connection) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, pipe.recv)


async def _worker(cfg: dict[str, Any], pipe: Connection) -> None:
    stats = Stats()
    tables = [Table(n, cfg["ports"], stats, cfg["think"]) for n in cfg["tables"]]
    await _set_up(tables, cfg["setup_concurrency"])
    seats = [s for t in tables for s in t.seats]
    stats.connections = len(seats)
    pipe.send(("ready", stats.connections))
    start, end = await _recv(pipe)
    stats.window = (start, end)
    if not cfg["idle"]:
        for table in tables:
            table.start_playing()
    await asyncio.sleep(max(0.0, start - time.time()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, end - time.time()))
    stats.cpu = time.process_time() - cpu0
    await asyncio.gather(*(table.stop() for table in tables))
    if not cfg["idle"]:  # snapshots of games under way, for their sizes (not only at a deal's start)
        await _bounded([seat.resync() for seat in seats], cfg["setup_concurrency"])
    pongs = await asyncio.gather(*(s.wire.ping(10.0) for s in seats if s.wire is not None))
    stats.held = sum(pongs)
    pipe.send(("stats", stats))
    for seat in seats:
        if seat.wire is not None:
            seat.wire.close()
    await asyncio.sleep(0.2)  # let the close frames go out


def worker_main(cfg: dict[str, Any], pipe: Connection) -> None:
    """Entry point of a load-generating process. Its cyclic garbage collector is tuned like the
    server's (server/cli.py ``tune_gc``), so that its own pauses do not add to the measured latency."""
    raise_nofile()
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, *gc.get_threshold()[1:])
    try:
        asyncio.run(_worker(cfg, pipe))
    except BaseException as exc:
        pipe.send(("failed", f"{type(exc).__name__}: {exc}"))
        raise


# ---- the run and its report ----------------------------------------------------------------------


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def merge(parts: list[Stats]) -> Stats:
    total = Stats(window=parts[0].window)
    for s in parts:
        total.latencies += s.latencies
        total.acks += s.acks
        total.diff_bytes += s.diff_bytes
        total.snapshot_bytes += s.snapshot_bytes
        total.errors.update(s.errors)
        for name in ("actions", "gaps", "matches", "deals", "connections", "held", "cpu"):
            setattr(total, name, getattr(total, name) + getattr(s, name))
    return total


def _expect(pipe: Connection, kind: str, timeout: float) -> Any:
    if not pipe.poll(timeout):
        raise RuntimeError(f"a load worker sent no {kind!r} within {timeout:.0f} s")
    got, value = pipe.recv()
    if got != kind:
        raise RuntimeError(f"load worker: {got}: {value}")
    return value


@dataclass
class Sample:
    """CPU seconds and memory of the measured processes at one moment."""

    at: float
    cpu: dict[int, float]
    mem: dict[int, tuple[int, int]]


def sample(pids: list[int]) -> Sample:
    return Sample(time.time(), {p: cpu_seconds(p) for p in pids}, {p: memory_kib(p) for p in pids})


def run(args: argparse.Namespace, services: Services) -> list[str]:
    """Form the rooms in worker processes, let them play (or sit), and return the report's lines."""
    count = (args.idle + 3) // 4 if args.idle else args.rooms
    server_pids = [proc.pid for proc, _ in services.servers]
    pids = server_pids + ([services.redis.pid] if services.redis is not None else [])
    before = sample(pids)
    ctx = mp.get_context("spawn")
    pipes, workers = [], []
    for k in range(args.procs):
        cfg = {"ports": services.ports, "think": args.think, "idle": bool(args.idle),
               "tables": list(range(k, count, args.procs)), "setup_concurrency": args.setup_concurrency}
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=worker_main, args=(cfg, theirs), daemon=True)
        proc.start()
        pipes.append(mine)
        workers.append(proc)
    try:
        t_setup = time.time()
        connections = sum(_expect(p, "ready", args.setup_timeout) for p in pipes)
        setup = time.time() - t_setup
        formed = sample(pids)
        start = time.time() + args.warmup
        end = start + args.seconds
        for p in pipes:
            p.send((start, end))
        time.sleep(max(0.0, start - time.time()))
        first = sample(pids)
        time.sleep(max(0.0, end - time.time()))
        last = sample(pids)
        stats = merge([_expect(p, "stats", 60.0) for p in pipes])
    finally:
        for proc in workers:
            proc.join(10)
            if proc.is_alive():
                proc.terminate()
    report = _header(args, count, connections, setup)
    report += _figures(args, stats, server_pids, services, before, formed, first, last)
    return report


def _header(args: argparse.Namespace, rooms: int, connections: int, setup: float) -> list[str]:
    mode = f"idle {args.idle}" if args.idle else f"load, think {args.think:g} s"
    return [
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, "
        f"{platform.system()} {platform.release()}",
        f"mode: {mode}; rooms {rooms}, connections {connections}, server processes {args.servers}, "
        f"load processes {args.procs}; window {args.seconds:g} s after {args.warmup:g} s warm-up; "
        f"set-up took {setup:.1f} s",
    ]


def _figures(args: argparse.Namespace, stats: Stats, server_pids: list[int], services: Services,
             before: Sample, formed: Sample, first: Sample, last: Sample) -> list[str]:
    wall = last.at - first.at
    lines = []
    if not args.idle:
        lat = [x * 1000 for x in stats.latencies]
        acks = [x * 1000 for x in stats.acks]
        lines += [
            f"actions per second: {stats.actions / wall:.1f} ({stats.actions} actions in {wall:.1f} s; "
            f"{stats.deals} deals, {stats.matches} matches finished)",
            f"latency action -> last seat's diff ms: p50 {pct(lat, 0.5):.2f}  p99 {pct(lat, 0.99):.2f}  "
            f"max {max(lat, default=float('nan')):.2f}  ({len(lat)} samples)",
            f"latency action -> ack ms: p50 {pct(acks, 0.5):.2f}  p99 {pct(acks, 0.99):.2f}",
        ]
    if not args.idle and stats.actions:
        cpu = sum(last.cpu[p] - first.cpu[p] for p in server_pids)
        lines.append(f"server CPU per action: {cpu / stats.actions * 1e6:.0f} us (all server processes)")
    for i, pid in enumerate(server_pids):
        cpu = last.cpu[pid] - first.cpu[pid]
        rss, peak = last.mem[pid]
        base = before.mem[pid][0]
        lines.append(f"server {i + 1} (pid {pid}): CPU {cpu / wall * 100:.1f}% ({cpu:.2f} s / {wall:.1f} s); "
                     f"resident {rss / 1024:.1f} MiB (peak {peak / 1024:.1f}, before clients "
                     f"{base / 1024:.1f}, after set-up {formed.mem[pid][0] / 1024:.1f})")
    if services.redis is not None:
        pid = services.redis.pid
        cpu = last.cpu[pid] - first.cpu[pid]
        lines.append(f"redis-server: CPU {cpu / wall * 100:.1f}%; resident {last.mem[pid][0] / 1024:.1f} MiB")
    lines.append(f"load processes: CPU {stats.cpu / wall * 100:.1f}% (sum over {args.procs})")
    diffs, snaps = stats.diff_bytes, stats.snapshot_bytes
    lines += [
        f"bytes per diff: median {_med(diffs)}, mean {_mean(diffs)}, p99 {pct(diffs, 0.99):.0f} "
        f"({len(diffs)} diffs)",
        f"bytes per snapshot: median {_med(snaps)}, p99 {pct(snaps, 0.99):.0f} ({len(snaps)} snapshots)",
        f"idle connections held: {stats.held} of {stats.connections} answered a ping at the end"
        if args.idle else f"connections held: {stats.held} of {stats.connections} answered a ping at the end",
    ]
    if args.idle and stats.connections:
        per = sum(last.mem[p][0] - before.mem[p][0] for p in server_pids) / stats.connections
        lines.append(f"server resident memory per connection: {per:.1f} KiB")
    errors = ", ".join(f"{k} {v}" for k, v in sorted(stats.errors.items())) or "none"
    lines.append(f"errors: {errors}; gaps (resyncs): {stats.gaps}")
    return lines


def _med(xs: list[int]) -> str:
    return f"{statistics.median(xs):.0f}" if xs else "nan"


def _mean(xs: list[int]) -> str:
    """The bytes an action costs on average: the median alone hides a few large diffs (a trick that
    ends carries its moves to the history) behind many small ones."""
    return f"{statistics.fmean(xs):.0f}" if xs else "nan"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rooms", type=int, default=40, help="rooms of 4 playing clients (default 40)")
    p.add_argument("--seconds", type=float, default=20.0, help="measured window (default 20)")
    p.add_argument("--warmup", type=float, default=3.0, help="play before the window (default 3)")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a client waits before acting (default 0: at once)")
    p.add_argument("--procs", type=int, choices=(1, 2), default=1, help="load-generating processes")
    p.add_argument("--servers", type=int, choices=(1, 2), default=1, help="server processes on one Redis")
    p.add_argument("--idle", type=int, default=0,
                   help="idle test: open N connections (whole rooms of 4, started) that sit")
    p.add_argument("--redis-url", default=None,
                   help="Redis to use (default: start a redis-server on a free port, stop it after)")
    p.add_argument("--server-log-level", default="INFO", help="the servers' --log-level (default INFO, "
                   "as deployed; the logs go to a temporary folder, or --logs)")
    p.add_argument("--logs", default=None, help="keep the servers' logs in this folder")
    p.add_argument("--server-dir", default=str(REPO),
                   help="run `python -m server` from this checkout (compare before/after a change)")
    p.add_argument("--setup-concurrency", type=int, default=64,
                   help="rooms formed at once per load process (default 64)")
    p.add_argument("--setup-timeout", type=float, default=600.0, help="seconds to form all rooms")
    p.add_argument("--frame-rate", type=float, default=10_000.0,
                   help="the servers' frame limit per connection, frames a second and burst (default 10000: "
                        "with --think 0 a client of a few rooms sends far more than the 30 a second no "
                        "person reaches, and the limit, not the server, would be measured; 0: the servers' "
                        "own default, e.g. for a --server-dir without --rate)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_nofile()
    with tempfile.TemporaryDirectory(prefix="guandan-load-") as tmp:
        if args.logs:
            tmp = args.logs
            Path(tmp).mkdir(parents=True, exist_ok=True)
        services = start_services(args.servers, args.redis_url, Path(tmp), args.server_log_level,
                                  Path(args.server_dir), args.frame_rate)
        pids = ", ".join(f"pid {proc.pid} on port {port}" for proc, port in services.servers)
        print(f"servers: {pids}; redis {services.redis_url}", file=sys.stderr, flush=True)
        try:
            for line in run(args, services):
                print(line, flush=True)
        except BaseException:
            for log in sorted(Path(tmp).glob("server*.log")):
                print(f"--- {log.name} (last lines) ---\n{log.read_text()[-4000:]}", file=sys.stderr)
            raise
        finally:
            services.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
