"""A scripted protocol client for the server tests: real WebSocket, msgpack frames, view rebuilding."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server import protocol as P
from server.diff import apply, expand
from server.lifecycle import free_port as free_port  # re-exported for the tests


class ServerError(Exception):
    def __init__(self, msg: dict[str, Any]) -> None:
        super().__init__(f"{msg['code']}: {msg['message']}")
        self.code = msg["code"]
        self.message = msg["message"]
        self.fields = msg.get("fields") or {}
        self.reply = msg


class Client:
    """Sends requests, keeps every frame it got, rebuilds its view from snapshot + diffs."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.frames: list[bytes] = []
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.version: int | None = None
        self.seat: int | None = None
        self.room: dict[str, Any] | None = None
        self.presence: list[bool] | None = None
        self.history: list[tuple[int, dict[str, Any]]] = []  # (version, rebuilt view) after each change
        self.gaps = 0
        self.changed = asyncio.Condition()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, hello: bool = True, **kw: Any) -> Client:
        ws = await connect(url, compression=None, **kw)
        client = cls(ws)
        if hello:
            await client.request({"type": "hello", "protocol": P.PROTOCOL_VERSION})
        return client

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                self.frames.append(frame)
                msg = msgpack.unpackb(frame, raw=False)
                P.SERVER_ADAPTER.validate_python(msg)  # every frame is a valid server message
                self.messages.append(msg)
                self._track(msg)
                async with self.changed:
                    self.changed.notify_all()
        async with self.changed:
            self.changed.notify_all()

    def _track(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "snapshot":
            self.view, self.version, self.seat = msg["view"], msg["version"], msg["seat"]
            self.history.append((self.version, self.view))
        elif kind == "diff":
            if self.version != msg["base"]:
                self.gaps += 1
                return
            self.view = apply(self.view, expand(msg["ops"]))
            self.version = msg["version"]
            self.history.append((self.version, self.view))
        elif kind == "room":
            self.room = msg
        elif kind == "presence":
            self.presence = msg["connected"]

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def send(self, msg: dict[str, Any]) -> Any:
        msg = dict(msg)
        msg.setdefault("id", next(self.ids))
        await self.ws.send(msgpack.packb(msg))
        return msg["id"]

    async def reply(self, msg_id: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The ack or error for ``msg_id``."""
        def find() -> dict[str, Any] | None:
            for m in self.messages:
                if m["type"] in ("ack", "error") and m.get("id") == msg_id:
                    return m
            return None

        return await self.wait(find, timeout)

    async def request(self, msg: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        msg_id = await self.send(msg)
        reply = await self.reply(msg_id, timeout)
        if reply["type"] == "error":
            raise ServerError(reply)
        return reply["result"]

    async def wait(self, predicate: Any, timeout: float = 10.0) -> Any:
        async def loop() -> Any:
            async with self.changed:
                while True:
                    found = predicate()
                    if found:
                        return found
                    if self.reader.done():
                        raise ConnectionError("connection closed while waiting")
                    await self.changed.wait()

        return await asyncio.wait_for(loop(), timeout)

    async def wait_version(self, version: int, timeout: float = 10.0) -> None:
        await self.wait(lambda: self.version is not None and self.version >= version, timeout)

    def view_at(self, version: int) -> dict[str, Any] | None:
        """The view this client held at ``version`` (it may have moved past it since)."""
        held = [view for v, view in self.history if v <= version]
        return held[-1] if held else None

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self.reader


async def seated_room(
    url: str, humans: int = 4, seed: int = 1, start: bool = True, **create: Any
) -> tuple[str, list[Client], list[str]]:
    """A room with ``humans`` scripted clients in seats 0.. and bots in the rest (if asked)."""
    clients = [await Client.open(url) for _ in range(humans)]
    res = await clients[0].request(
        {"type": "create", "nickname": "P0", "seed": seed, "bot_delay": 0, **create}
    )
    code, tokens = res["code"], [res["token"]]
    for i in range(1, humans):
        joined = await clients[i].request({"type": "join", "code": code, "nickname": f"P{i}"})
        tokens.append(joined["token"])
    if start:
        await clients[0].request({"type": "start"})
    for c in clients:
        await c.wait(lambda c=c: c.view if start else c.version is not None)
        # settle: everyone has seen every human connected (presence travels through pub/sub)
        await c.wait(lambda c=c: c.presence is not None and sum(c.presence) == humans)
    return code, clients, tokens


async def game_at(store: Any, code: str) -> tuple[int, dict[str, Any], Any]:
    """The room's version, the room and its game (the stored state keeps no logs: see replayed)."""
    from server.rooms import load_game

    version, room = await store.load(code)
    return version, room, load_game(room)


async def game_log(store: Any, code: str, upto: int | None = None) -> list[list[Any]]:
    """The room's game actions from its Redis Stream (the action log), as [seat, action] pairs."""
    return [[r["seat"], r["action"]] for r in await store.log(code)
            if r["kind"] == "game" and (upto is None or r["v"] <= upto)]


async def replayed(store: Any, code: str, upto: int | None = None) -> Any:
    """The game rebuilt from its seed and the action log, with its event and action logs."""
    from engine import Game

    _v, room = await store.load(code)
    settings = room["settings"]
    return Game.replay(settings["seed"], settings["rules"], await game_log(store, code, upto))


def stored_state(game: Any) -> dict[str, Any]:
    """The engine state as the server stores it (without the logs)."""
    from server.rooms import save_game

    room: dict[str, Any] = {}
    save_game(room, game)
    return room["game"]


LIVE_KEYS = ("auto", "takeover", "paused", "deadlines", "deadline", "autoplay")


def engine_part(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view without what the room adds (auto marks, deadlines): the engine's game.view."""
    return {k: v for k, v in view.items() if k not in LIVE_KEYS}


async def play_until(store: Any, code: str, clients: dict[int, Client], rng: Any, until: Any, *,
                     idle: frozenset[int] = frozenset(), timeout: float = 60.0,
                     check_views: bool = False) -> tuple[int, dict[str, Any], Any]:
    """Seats in ``clients`` act from the engine's legal actions (seats in ``idle`` never do) until
    ``until(game)`` holds; bots, timers and other processes act by themselves meanwhile."""
    from server import ready
    from server.views import view_for

    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        version, room, game = await game_at(store, code)
        if until(game):
            return version, room, game
        pressed = ready.pressed(room) if game.phase == "deal_over" else [False] * 4  # ready for the next deal
        mine = [s for s in game.pending_seats() if s in clients and s not in idle and not pressed[s]]
        if not mine:
            await asyncio.sleep(0.005)
            continue
        seat = mine[0]
        await clients[seat].wait_version(version)
        if check_views:  # a timer or a reconnect may have moved the room on since our read
            assert clients[seat].view_at(version) == view_for(room, game, seat)
        try:
            await clients[seat].request(rng.choice(game.legal_actions(seat)))
        except ServerError:  # a bot, a timer or another process acted between our read and our action
            pass
    raise AssertionError("the room did not get there in time")
