"""A competition-protocol bot written from COMPETITION_PROTOCOL.md alone, for the tests.

It records every message and checks each one as it arrives, as real bots would crash on a bad one.
Its variants at the end misbehave the ways real bots did against our platform (issue 14).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable

from websockets.asyncio.client import ClientConnection, connect

KNOWN = {
    ("notify", "beginning"), ("notify", "play"), ("notify", "tribute"), ("notify", "anti-tribute"),
    ("notify", "back"), ("notify", "episodeOver"), ("notify", "gameOver"), ("notify", "gameResult"),
    ("act", "play"), ("act", "tribute"), ("act", "back"),
}
ACT_FIELDS = {"handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "curPos", "curAction",
              "greaterPos", "greaterAction", "actionList", "indexRange"}
PASS = ["PASS", "PASS", "PASS"]


class ProtocolClient:
    def __init__(self, name: str, choose: Callable[[dict], int] | None = None, seed: int = 0,
                 delay: float = 0.0, silent: bool = False) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.choose = choose or (lambda msg: self.rng.randint(0, msg["indexRange"]))
        self.delay = delay  # seconds before each answer (a slow bot)
        self.silent = silent  # never answers (a stuck bot)
        self.messages: list[dict] = []
        self.problems: list[str] = []
        self.my_pos: int | None = None
        self.answers: list[tuple[dict, int]] = []  # (act, index sent for it), in order
        self.opened = asyncio.Event()  # the handshake is done: the platform has seated this client
        self.opened_at: float | None = None  # time.monotonic() of the handshake's end
        self.first_at: float | None = None  # ... and of the first message

    def check(self, msg: dict) -> None:
        key = (msg.get("type"), msg.get("stage"))
        if key not in KNOWN:
            self.problems.append(f"unknown message kind {key}")
            return
        if key == ("notify", "beginning"):
            if len(msg["handCards"]) != 27 or msg.get("myPos") not in range(4):
                self.problems.append(f"bad beginning {msg}")
            self.my_pos = msg["myPos"]
        if msg["type"] == "act":
            missing = ACT_FIELDS - set(msg)
            if missing:
                self.problems.append(f"act without {missing}")
            if msg["indexRange"] != len(msg["actionList"]) - 1:
                self.problems.append("indexRange is not len(actionList) - 1")
        if key == ("act", "play"):
            following = msg["greaterPos"] != -1
            if following and msg["actionList"][0] != PASS:
                self.problems.append("following without PASS at index 0")
            if not following and PASS in msg["actionList"]:
                self.problems.append("PASS offered when leading")
            if not following and (msg["curAction"] is not None or msg["greaterAction"] is not None):
                self.problems.append("leading with a current action")

    async def run(self, url: str) -> None:
        async with connect(f"{url}/game/{self.name}", max_size=2**22) as ws:
            self.opened_at = time.monotonic()
            self.opened.set()
            async for raw in ws:
                if self.first_at is None:
                    self.first_at = time.monotonic()
                msg = json.loads(raw)
                self.messages.append(msg)
                self.check(msg)
                await self.on_message(ws, msg)
                if msg.get("stage") == "gameResult":
                    return

    async def on_message(self, ws: ClientConnection, msg: dict) -> None:
        """Answer each act (tests override this to misbehave the way real bots do)."""
        if msg["type"] == "act" and not self.silent:
            if self.delay:
                await asyncio.sleep(self.delay)
            await self.answer(ws, msg, self.choose(msg))

    async def answer(self, ws: ClientConnection, msg: dict, index: int) -> None:
        self.answers.append((msg, index))
        await ws.send(json.dumps({"actIndex": index}))

    def my_moves(self) -> list[tuple[dict, int | None, list]]:
        """Each act/play with the index answered to it (None: not answered) and the move the table
        then announced for this seat (the next notify/play of it)."""
        answered = {id(msg): index for msg, index in self.answers}
        out = []
        for i, msg in enumerate(self.messages):
            if (msg["type"], msg["stage"]) != ("act", "play"):
                continue
            move = next(m["curAction"] for m in self.messages[i + 1:]
                        if (m["type"], m["stage"]) == ("notify", "play") and m["curPos"] == self.my_pos)
            out.append((msg, answered.get(id(msg)), move))
        return out


def kind(msg: dict) -> tuple[str, str]:
    return msg["type"], msg["stage"]


class OneInvalidAnswer(ProtocolClient):
    """Answers its 3rd act/play with ``raw`` (default: one past indexRange) and sends nothing more for
    that act, as real bots do."""

    def __init__(self, name: str, raw: str | None = None, **kw) -> None:
        super().__init__(name, **kw)
        self.raw = raw

    async def on_message(self, ws: ClientConnection, msg: dict) -> None:
        if kind(msg) == ("act", "play") and sum(kind(m) == ("act", "play") for m in self.messages) == 3:
            await ws.send(self.raw or json.dumps({"actIndex": msg["indexRange"] + 1}))
            return
        await super().on_message(ws, msg)


def played_its_own_choices_but(client: ProtocolClient, unanswered: list[int]) -> bool:
    """Our bot played exactly the ``unanswered`` act/plays; every other move is the one the client chose."""
    moves = client.my_moves()
    return ([i for i, (_act, index, _move) in enumerate(moves) if index is None] == unanswered
            and all(move == act["actionList"][index] for act, index, move in moves if index is not None))


class LateAndUnasked(ProtocolClient):
    """Answers out of turn once (no act open), and answers its 3rd act/play only after our bot has
    played that turn; every other answer is prompt and the last index (often a bomb)."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.choose = lambda msg: msg["indexRange"]
        self.held: dict | None = None

    async def on_message(self, ws: ClientConnection, msg: dict) -> None:
        acts = sum(kind(m) == ("act", "play") for m in self.messages)
        if kind(msg) == ("act", "play") and acts == 3:
            self.held = msg  # think too long
            return
        if kind(msg) == ("notify", "play") and msg["curPos"] == self.my_pos:
            if acts == 1:  # just played: no act of ours is open before three others have moved
                await ws.send(json.dumps({"actIndex": 0}))
            if self.held is not None:  # our bot has played the held act: its answer is late now
                await ws.send(json.dumps({"actIndex": 0}))
                self.held = None
        await super().on_message(ws, msg)
