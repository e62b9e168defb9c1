"""Soak benchmark: rooms of scripted clients play for minutes while a chaos loop breaks things.

Run (from the repository root):

    python bench/soak.py --rooms 8 --minutes 10

It starts a redis-server with its append-only file on a free loopback port and two server processes
on it (bench/load.py's pieces), then forms N rooms of three scripted people and one of our bots, the
people's connections spread over both servers. They play (a random legal action after ``--think``
seconds); a room whose match is won is left as it is and its people form a new one. Every
``--chaos-every`` seconds one fault is injected, in turn:

- drop: a quarter of the client connections are cut; each reconnects (either server) and resumes;
- server: one of the two server processes is SIGKILLed, and restarted on its port a moment later;
- redis: redis-server is SIGKILLed, and restarted on its port and files a moment later.

Then the chaos stops, every room gets ``--settle`` seconds to finish the deal it is in, and the run is
checked against Redis: its figures end with ``lost``, ``doubled``, ``stuck`` and ``leaks``, and the exit
status is 1 unless all four are 0.

- lost: an acknowledged action that is not in its room's log at the version its ack named;
- doubled: a version acknowledged twice, a version twice in a log, or one request committed twice (the
  same seat's same action twice in a row, which the rules never allow);
- stuck: a room that neither finished its deal nor waits on a connected person told of their turn;
- leaks: a view a client rebuilt from its snapshot and diffs that differs from the engine's view for
  its seat at that version (another seat's cards, or anything else).

The log is replayed from its seed through the engine as well: an illegal record counts as doubled,
and a replay that does not end in the stored state is reported (``replays differing``). Tracebacks
in the servers' logs are counted too.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import json
import os
import platform
import random
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from load import Player, Wire, apply_ops, raise_nofile, start_server
from redis.asyncio import Redis

from engine import Game, IllegalAction
from engine.rules import Rules
from server import autopilot as ap
from server.lifecycle import free_port, start_redis, stop_process
from server.rooms import load_game, save_game
from server.store import Store

GRACE = 3.0  # seconds before our bot plays for a dropped person
BOT_DELAY = 0.2
TURN_TIMER = 5.0  # every other room has a turn timer
# what the room adds to the engine's view: the table's live marks, and the story of the deal (history,
# leftovers, what was played in one's name, the ready check, the card counter, the match record) told
# from the same plays
LIVE_KEYS = ("auto", "deadlines", "deadline", "autoplay", "history", "leftover", "in_your_name", "ready",
             "counter", "match", "takeover", "paused", "next_deal_at")
RETRY = ("unavailable", "busy", "rate_limited")  # a request refused for now, not for good


class Refused(Exception):
    """The server answered a request with an error (``code``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def digest(view: dict[str, Any]) -> bytes:
    """A fingerprint of the engine's part of a view (what the room adds left out; the trick's moves as
    the engine has them: the server tells each play in reading order and says who made it). Views whose
    history holds a card nobody played yet fingerprint as such, so a leak there is counted too; the
    tribute's returns without who made them."""
    part = {k: v for k, v in view.items() if k not in LIVE_KEYS}
    part["trick"] = [(m["seat"], m["type"], sorted(m.get("cards", ()))) for m in view.get("trick") or ()]
    if part.get("tribute"):
        returns = [{k: v for k, v in r.items() if k != "by"} for r in part["tribute"].get("returns") or ()]
        part["tribute"] = {**part["tribute"], "returns": returns}
    told = sorted(c for trick in view.get("history") or () for m in trick for c in m.get("cards", ()))
    played = sorted(view.get("played") or ())
    part["history_unplayed"] = sorted((Counter(told) - Counter(played)).elements())
    return hashlib.blake2b(json.dumps(part, sort_keys=True, separators=(",", ":")).encode(),
                           digest_size=16).digest()


@dataclass
class Run:
    """What every client and the chaos loop did, for the figures and the checks."""

    closing: bool = False
    acked: list[tuple[str, int, int, dict[str, Any]]] = field(default_factory=list)  # code, v, seat, action
    faults: Counter[str] = field(default_factory=Counter)
    cut: int = 0  # connections cut by "drop" faults
    reconnects: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0  # actions whose connection closed before the reply


class SoakWire(Wire):
    """load.Wire that says when its connection is gone."""

    def __init__(self, host: str, on_message: Callable[[bytes], None], on_close: Callable[[], None]) -> None:
        super().__init__(host, on_message)
        self.on_close = on_close

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.on_close()


class Person(Player):
    """One seat's player: stays connected (reconnecting and resuming after any loss), keeps its view
    and the fingerprint of every version it held, and plays when it is its turn."""

    def __init__(self, table: Table, index: int, rng: random.Random) -> None:
        self.table = table
        self.run_ = table.run
        self.index = index
        self.rng = rng
        self.wire: SoakWire | None = None
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.inflight: dict[int, tuple[str, dict[str, Any]]] = {}  # game action id -> (code, action)
        self.code: str | None = None
        self.token: str | None = None
        self.view: dict[str, Any] = {}
        self.version: int | None = None
        self.rules: Rules | None = None
        self.acted_at: int | None = None
        self.ready = asyncio.Event()  # connected, and resumed if it has a seat
        self.lost: asyncio.Future[None] | None = None
        self.history: dict[str, dict[int, bytes]] = defaultdict(dict)  # code -> version -> digest

    # ---- the connection ---------------------------------------------------------------------------

    async def stay_connected(self, ports: list[int]) -> None:
        home = ports[self.index % len(ports)]
        first = True
        while not self.run_.closing:
            for port in (home, *[p for p in ports if p != home]):
                if await self._session(port, first):
                    first = False
                    break
            await asyncio.sleep(self.rng.uniform(0.1, 0.5))

    async def _session(self, port: int, first: bool) -> bool:
        """One connection, until it is lost; False if it could not be made."""
        loop = asyncio.get_running_loop()
        lost = self.lost = loop.create_future()
        try:
            _t, wire = await loop.create_connection(
                lambda: SoakWire(f"127.0.0.1:{port}", self.on_message, lambda: self._on_close(lost)),
                "127.0.0.1", port)
            self.wire = wire
            await asyncio.wait_for(wire.opened, 10)
            await self.call({"type": "hello", "protocol": 1, "client": "soak"})
            while self.code is not None:
                reply = await self.call({"type": "resume", "code": self.code, "token": self.token})
                if reply["type"] == "ack" or reply["code"] not in RETRY:
                    break
                await asyncio.sleep(0.3)  # unavailable: Redis is being restarted
        except (OSError, ConnectionError, TimeoutError):
            if self.wire is not None:
                self.wire.close()
            return False
        if not first:
            self.run_.reconnects += 1
        self.ready.set()
        self.maybe_act()  # the snapshot came before we were ready
        await lost
        return True

    def _on_close(self, lost: asyncio.Future[None]) -> None:
        if not lost.done():
            lost.set_result(None)
        if lost is not self.lost:
            return  # an earlier connection's end: the current one is not touched
        self.ready.clear()
        self.view, self.version, self.acted_at = {}, None, None
        for future in self.replies.values():
            if not future.done():
                future.set_exception(ConnectionError("connection lost"))
        self.replies.clear()
        self.run_.unanswered += len(self.inflight)
        self.inflight.clear()

    def cut(self) -> bool:
        """Chaos: cut the connection without a goodbye."""
        if self.wire is None or self.wire.transport is None or self.wire.closed:
            return False
        self.wire.transport.abort()
        return True

    def close(self) -> None:
        if self.wire is not None:
            self.wire.close()

    def send(self, msg: dict[str, Any]) -> int:
        msg_id = msg["id"] = next(self.ids)
        assert self.wire is not None
        self.wire.send(msgpack.packb(msg))
        return msg_id

    async def call(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send and wait for the ack or error (ConnectionError if the connection goes first)."""
        if self.wire is None or self.wire.closed:
            raise ConnectionError("not connected")
        future = asyncio.get_running_loop().create_future()
        self.replies[self.send(dict(msg))] = future
        return await asyncio.wait_for(future, 30)

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """``call`` once connected, again while refused for now; Refused for good, ConnectionError."""
        for _ in range(100):
            await asyncio.wait_for(self.ready.wait(), 60)
            reply = await self.call(msg)
            if reply["type"] == "ack":
                return reply["result"]
            if reply["code"] not in RETRY:
                raise Refused(reply["code"], reply["message"])
            await asyncio.sleep(0.3)
        raise Refused(reply["code"], reply["message"])

    # ---- what the server says ---------------------------------------------------------------------

    def on_message(self, payload: bytes) -> None:
        msg = msgpack.unpackb(payload)
        kind = msg["type"]
        if kind in ("ack", "error"):
            self.on_reply(msg)
        elif kind == "snapshot":
            self.view, self.version, self.rules = msg["view"], msg["version"], None
            self._held()
        elif kind == "diff":
            if msg["base"] != self.version:  # a gap: ask for a fresh snapshot
                self.version = None
                self.send({"type": "resync"})
                return
            apply_ops(self.view, msg["ops"])
            self.version = msg["version"]
            self._held()

    def _held(self) -> None:
        if self.view and self.code is not None and self.version is not None:
            self.history[self.code][self.version] = digest(self.view)
        self.maybe_act()

    def on_reply(self, msg: dict[str, Any]) -> None:
        msg_id = msg["id"]
        future = self.replies.pop(msg_id, None)
        if future is not None and not future.done():
            future.set_result(msg)
        sent = self.inflight.pop(msg_id, None)
        if msg["type"] == "error":
            self.run_.errors[msg["code"]] += 1
            if sent is not None:
                self.acted_at = None  # try again shortly
                asyncio.get_running_loop().call_later(0.2, self.maybe_act)
        elif sent is not None:
            self.run_.acked.append((sent[0], msg["result"]["version"], self.index, sent[1]))
            self.maybe_act()  # its own action's diff may have come first (a next deal it leads)

    # ---- playing ----------------------------------------------------------------------------------

    def maybe_act(self) -> None:
        if (not self.table.playing or not self.ready.is_set() or self.inflight or self.version is None
                or self.acted_at == self.version or self.code != self.table.code):
            return
        if self.due_action() is None:
            return
        self.acted_at = self.version
        asyncio.get_running_loop().call_later(self.table.think * self.rng.uniform(0.5, 1.5), self._act,
                                              self.version)

    def _act(self, version: int) -> None:
        if self.version != version or self.inflight or not self.table.playing or not self.ready.is_set():
            return
        action = self.due_action()
        if action is not None and self.code is not None:
            self.inflight[self.send(dict(action))] = (self.code, action)


class Table:
    """Three people (seats 0-2) and our bot (seat 3); a new room when a match is won."""

    def __init__(self, run: Run, number: int, think: float) -> None:
        self.run = run
        self.number = number
        self.think = think
        rng = random.Random(number)
        self.people = [Person(self, i, random.Random(rng.random())) for i in range(3)]
        self.codes: list[str] = []  # every room this table started
        self.code: str | None = None
        self.playing = False
        self.matches = 0
        self.timer = TURN_TIMER if number % 2 else None
        self.forming: asyncio.Task[None] | None = None

    async def form(self) -> None:
        """Create, join, start; a refusal or a lost connection on the way starts over in a new room."""
        while not self.run.closing:
            for p in self.people:
                p.code = p.token = None
                if p.ready.is_set():  # leave whatever room it was in (a lobby seat blocks a new create)
                    await _quietly(p.call({"type": "leave"}))
            try:
                host = self.people[0]
                made = await host.request({"type": "create", "nickname": f"T{self.number}P0", "seat": 0,
                                           "bots": [3], "bot_delay": BOT_DELAY, "grace": GRACE,
                                           "turn_timer": self.timer,
                                           "seed": self.number * 1000 + len(self.codes)})
                host.code, host.token = made["code"], made["token"]
                for p in self.people[1:]:
                    joined = await p.request({"type": "join", "code": made["code"],
                                              "nickname": f"T{self.number}P{p.index}", "seat": p.index})
                    p.code, p.token = made["code"], joined["token"]
                try:
                    await host.request({"type": "start"})
                except Refused as exc:
                    if exc.code != "already_started":  # a start whose ack was lost went through
                        raise
            except (Refused, ConnectionError, TimeoutError):
                await asyncio.sleep(0.5)
                continue
            self.code = made["code"]
            self.codes.append(self.code)
            self.playing = True
            for p in self.people:
                p.maybe_act()
            return

    def match_over(self) -> None:
        if self.playing and not self.run.closing:
            self.playing = False
            self.matches += 1
            self.forming = asyncio.get_running_loop().create_task(self.form())


async def _quietly(aw: Any) -> None:
    try:
        await aw
    except (ConnectionError, TimeoutError):
        pass


# ---- the services and the chaos -----------------------------------------------------------------


@dataclass
class Services:
    folder: Path
    redis: Any  # subprocess.Popen
    redis_port: int
    servers: list[tuple[Any, int]]  # (subprocess.Popen, port)
    log_level: str

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def log(self, i: int) -> Path:
        return self.folder / f"server{i}.log"

    def stop(self) -> None:
        for proc, _ in self.servers:
            stop_process(proc, 15)
        stop_process(self.redis, 15)


def start_services(folder: Path, log_level: str) -> Services:
    redis, port = start_redis(folder, aof=True)
    services = Services(folder, redis, port, [], log_level)
    try:
        for i in range(2):
            port = free_port()
            proc = start_server(port, services.redis_url, services.log(i), log_level)
            services.servers.append((proc, port))
    except BaseException:
        services.stop()
        raise
    return services


class Chaos:
    """One fault every ``every`` seconds, the kinds in turn."""

    def __init__(self, run: Run, services: Services, tables: list[Table], every: float, seed: int) -> None:
        self.run = run
        self.services = services
        self.tables = tables
        self.every = every
        self.rng = random.Random(seed)

    async def loop(self, until: float) -> None:
        kinds = itertools.cycle((self.drop, self.server, self.redis))
        while time.time() + self.every < until:
            await asyncio.sleep(self.every)
            fault = next(kinds)
            await fault()
            self.run.faults[fault.__name__] += 1

    async def drop(self) -> None:
        people = [p for t in self.tables for p in t.people]
        for p in self.rng.sample(people, max(1, len(people) // 4)):
            self.run.cut += p.cut()

    async def server(self) -> None:
        i = self.rng.randrange(len(self.services.servers))
        proc, port = self.services.servers[i]
        os.kill(proc.pid, signal.SIGKILL)
        await asyncio.to_thread(proc.wait)
        await asyncio.sleep(self.rng.uniform(0.5, 2.0))
        restarted = await asyncio.to_thread(start_server, port, self.services.redis_url, self.services.log(i),
                                            self.services.log_level)
        self.services.servers[i] = (restarted, port)

    async def redis(self) -> None:
        s = self.services
        os.kill(s.redis.pid, signal.SIGKILL)
        await asyncio.to_thread(s.redis.wait)
        await asyncio.sleep(self.rng.uniform(0.3, 2.0))
        s.redis, _ = await asyncio.to_thread(start_redis, s.folder, s.redis_port, True)


# ---- the checks ---------------------------------------------------------------------------------


@dataclass
class Findings:
    lost: int = 0
    doubled: int = 0
    stuck: int = 0
    leaks: int = 0
    replays_differing: int = 0
    views: int = 0  # rebuilt views compared with the engine's
    actions: int = 0  # game actions in the logs
    waiting: int = 0  # rooms waiting on a connected person at the end
    finished: int = 0  # rooms whose deal finished within the settle time
    notes: list[str] = field(default_factory=list)


async def settle(store: Store, tables: list[Table], seconds: float) -> dict[str, bool]:
    """Let every table's room finish the deal it is in; which did (a won match: once the table plays
    on in a new room)."""
    start = {}
    for t in tables:
        if t.code is not None:
            _v, room = await store.load(t.code)
            game = load_game(room)
            start[t.code] = (game.deal, t) if game is not None else (0, t)
    done: dict[str, bool] = dict.fromkeys(start, False)
    deadline = time.time() + seconds
    while time.time() < deadline and not all(done.values()):
        for code, (deal, table) in start.items():
            if done[code]:
                continue
            _v, room = await store.load(code)
            game = load_game(room)
            done[code] = table.playing and (table.code != code or game is None or game.deal > deal
                                            or game.phase in ("deal_over", "match_over"))
        await asyncio.sleep(0.5)
    return done


async def waits_on_present_person(store: Store, code: str, people: list[Person]) -> bool:
    """Whether the room waits for people who are connected and were told it is their turn (their client
    holds the room's version): the server has nothing to do, and nothing was kept from them."""
    version, room = await store.load(code)
    game = load_game(room)
    if game is None or room["status"] != "playing":
        return False
    present = await store.presence(code)
    pending = game.pending_seats()
    return bool(pending) and all(room["seats"][s]["kind"] == "human" and present[s]
                                 and ap.controller(room, s) is None and people[s].version == version
                                 for s in pending)


async def check_room(store: Store, code: str, people: list[Person], acked: list[tuple[int, int, dict]],
                     found: Findings) -> None:
    log = await store.log(code)
    _v, room = await store.load(code)
    versions = [r["v"] for r in log]
    found.doubled += len(versions) - len(set(versions))
    if sorted(set(versions)) != list(range(1, len(set(versions)) + 1)):
        found.notes.append(f"{code}: log versions not 1..n")
        found.lost += 1
    by_version = {r["v"]: r for r in log}
    settings = room["settings"]
    histories = {p.index: p.history.get(code, {}) for p in people}
    game: Game | None = None
    previous: dict[str, Any] | None = None
    for r in log:
        if r["kind"] == "room" and r.get("type") == "start":
            game = Game.new(settings["seed"], settings["rules"])
        elif r["kind"] == "game" and game is not None:
            found.actions += 1
            if previous is not None and (previous["seat"], previous["action"]) == (r["seat"], r["action"]):
                found.doubled += 1
                found.notes.append(f"{code}: v{r['v']} repeats v{previous['v']}")
            previous = r
            try:
                game.apply(r["seat"], r["action"])
            except IllegalAction as exc:
                found.doubled += 1
                found.notes.append(f"{code}: v{r['v']} illegal on replay: {exc}")
                return
        if game is None:
            continue
        for seat, held in histories.items():
            if r["v"] in held:
                found.views += 1
                if held[r["v"]] != digest(game.view(seat)):
                    found.leaks += 1
                    found.notes.append(f"{code}: seat {seat}'s view at v{r['v']} is not the engine's")
    if game is not None:
        stored: dict[str, Any] = {}
        save_game(stored, game)
        if stored["game"] != room["game"]:
            found.replays_differing += 1
            found.notes.append(f"{code}: the replay does not end in the stored state")
    seen: Counter[int] = Counter()
    for v, seat, action in acked:
        seen[v] += 1
        r = by_version.get(v)
        if r is not None and r["kind"] == "live" and r.get("type") == "ready" and r["seat"] == seat:
            continue  # a "next deal" press the table still waits on others for (the ready check)
        if (r is None or r["kind"] != "game" or r["seat"] != seat or r["action"]["type"] != action["type"]
                or sorted(r["action"].get("cards", [])) != sorted(action.get("cards", []))):
            found.lost += 1
            found.notes.append(f"{code}: acked action of seat {seat} at v{v} is not in the log")
    found.doubled += sum(n - 1 for n in seen.values())


async def check(store: Store, run: Run, tables: list[Table], finished: dict[str, bool]) -> Findings:
    found = Findings()
    acked: dict[str, list[tuple[int, int, dict]]] = defaultdict(list)
    for code, v, seat, action in run.acked:
        acked[code].append((v, seat, action))
    for t in tables:
        for code in t.codes:
            await check_room(store, code, t.people, acked.pop(code, []), found)
    for code, items in acked.items():  # acks for a room no table started: impossible unless lost
        found.lost += len(items)
        found.notes.append(f"{code}: {len(items)} acked actions in a room no table started")
    for code, done in finished.items():
        if done:
            found.finished += 1
        elif await waits_on_present_person(store, code, next(t.people for t in tables if code in t.codes)):
            found.waiting += 1
        else:
            found.stuck += 1
            found.notes.append(f"{code}: stuck")
    return found


# ---- the run ------------------------------------------------------------------------------------


async def soak(args: argparse.Namespace, services: Services) -> list[str]:
    run = Run()
    tables = [Table(run, n, args.think) for n in range(args.rooms)]
    ports = [port for _, port in services.servers]
    clients = [asyncio.create_task(p.stay_connected(ports)) for t in tables for p in t.people]
    t0 = time.time()
    await asyncio.gather(*(t.form() for t in tables))
    end = time.time() + args.minutes * 60
    chaos = Chaos(run, services, tables, args.chaos_every, args.seed)
    await chaos.loop(end)
    await asyncio.sleep(max(0.0, end - time.time()))
    redis = Redis.from_url(services.redis_url)
    store = Store(redis)
    try:
        finished = await settle(store, tables, args.settle)
        for t in tables:
            t.playing = False
        run.closing = True
        await asyncio.sleep(1.0)  # the last replies
        found = await check(store, run, tables, finished)
    finally:
        run.closing = True
        for t in tables:
            for p in t.people:
                p.close()
        tasks = [*clients, *(t.forming for t in tables if t.forming is not None)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await redis.aclose()
    tracebacks = sum(services.log(i).read_text().count("Traceback") for i in range(len(services.servers)))
    return report(args, run, tables, found, time.time() - t0, tracebacks)


def report(args: argparse.Namespace, run: Run, tables: list[Table], found: Findings, wall: float,
           tracebacks: int) -> list[str]:
    faults = run.faults
    errors = ", ".join(f"{k} {v}" for k, v in sorted(run.errors.items())) or "none"
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, "
        f"{platform.system()} {platform.release()}",
        f"soak: {args.rooms} tables of 3 scripted people and a bot, {args.minutes:g} min of chaos "
        f"(a fault every {args.chaos_every:g} s), 2 server processes, redis-server with appendfsync "
        f"everysec; {wall:.0f} s in all",
        f"rooms: {sum(len(t.codes) for t in tables)} started ({sum(t.matches for t in tables)} matches won)",
        f"actions: {len(run.acked)} acknowledged to the scripted people; {found.actions} in the logs "
        f"(people, bots, timers, takeovers)",
        f"faults injected: drop {faults['drop']} ({run.cut} connections cut), server {faults['server']} "
        f"(SIGKILL and restart), redis {faults['redis']} (SIGKILL and restart)",
        f"reconnections: {run.reconnects}; errors answered: {errors}; actions unanswered (connection lost): "
        f"{run.unanswered}",
        f"checked: {found.views} rebuilt views against the engine's; deals at the end: {found.finished} "
        f"finished, {found.waiting} waiting on a connected person; replays differing: "
        f"{found.replays_differing}; tracebacks in the server logs: {tracebacks}",
        f"lost {found.lost}, doubled {found.doubled}, stuck {found.stuck}, leaks {found.leaks}",
    ]
    return lines + [f"  {note}" for note in found.notes[:20]]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rooms", type=int, default=8, help="tables of 3 people and a bot (default 8)")
    p.add_argument("--minutes", type=float, default=10.0, help="minutes of play under chaos (default 10)")
    p.add_argument("--chaos-every", type=float, default=10.0, help="seconds between faults (default 10)")
    p.add_argument("--think", type=float, default=0.2, help="mean seconds a person takes to act")
    p.add_argument("--settle", type=float, default=90.0,
                   help="seconds the rooms get to finish their deals after the chaos (default 90)")
    p.add_argument("--seed", type=int, default=1, help="seed of the chaos loop's choices")
    p.add_argument("--server-log-level", default="INFO")
    p.add_argument("--logs", default=None, help="keep the servers' logs (and Redis's files) in this folder")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    raise_nofile()
    # stopped by its pid, it still stops the redis-server and servers it started (as on Ctrl-C)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with tempfile.TemporaryDirectory(prefix="guandan-soak-") as tmp:
        folder = Path(args.logs or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        services = start_services(folder, args.server_log_level)
        try:
            lines = asyncio.run(soak(args, services))
        finally:
            services.stop()
        for line in lines:
            print(line, flush=True)
    last = next(line for line in lines if line.startswith("lost "))
    return 0 if last == "lost 0, doubled 0, stuck 0, leaks 0" else 1


if __name__ == "__main__":
    sys.exit(main())
