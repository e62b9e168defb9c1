"""A competition-protocol bot written from COMPETITION_PROTOCOL.md alone, for the tests.

It records every message and checks each one as it arrives, as real bots would crash on a bad one.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable

from websockets.asyncio.client import connect

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
            async for raw in ws:
                msg = json.loads(raw)
                self.messages.append(msg)
                self.check(msg)
                if msg["type"] == "act" and not self.silent:
                    if self.delay:
                        await asyncio.sleep(self.delay)
                    await ws.send(json.dumps({"actIndex": self.choose(msg)}))
                if msg.get("stage") == "gameResult":
                    return
