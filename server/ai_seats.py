"""External AI seats in rooms: a bot written for the 2020 competition protocol plays one seat.

The AI connects at ``/game/<secret>`` (the host got that path when marking the seat). It sees the
table only through protocol messages built from its seat's view (engine/competition_table.py), in the
order the room's changes were committed: every state notice of the room reaches ``update`` through
Redis pub/sub, whichever process committed it. When the seat owes an action the AI is asked
(act/play, act/back); a valid answer is committed only if the turn is still the one asked about. If
the AI is silent past the room's ``ai_timeout``, our bot plays that turn (the scheduler's
``AI_FALLBACK`` step); an invalid answer makes our bot play at once. Nothing but protocol messages is
ever sent on this socket: real bots die on an unknown message kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from engine import Game
from engine import competition_table as ct
from engine.competition import PASS_ACTION, action_of
from engine.plays import Play

from . import changes as C
from . import rooms
from .competition import parse_act_index, refusers
from .views import view_for

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("guandan.ai")
Msg = dict[str, Any]
TRIBUTE_ANSWER_WAIT = 2.0  # act/tribute needs an answer, but the tribute card is chosen by the rules


class AiSeat:
    """One external AI's connection to one seat of one room."""

    def __init__(self, server: GameServer, ws: ServerConnection, code: str, seat: int, conn_id: str) -> None:
        self.server = server
        self.ws = ws
        self.code = code
        self.seat = seat
        self.conn_id = conn_id
        self.inbox: asyncio.Queue[tuple[int, dict[str, Any], dict[str, Any] | None]] = asyncio.Queue()
        self.answers: asyncio.Queue[str | bytes] = asyncio.Queue()
        self.version = 0
        self.top: tuple[int, list | None] = (-1, None)  # greaterPos, greaterAction in this trick
        self.asked: tuple[Any, ...] | None = None
        self.over_sent: int | None = None
        self.closed = False

    def update(self, version: int, room: dict[str, Any], record: dict[str, Any] | None) -> None:
        """A committed change of the room (called in commit order)."""
        self.inbox.put_nowait((version, room, record))

    async def close(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def send(self, msg: Msg) -> None:
        if self.closed:
            return
        try:
            await self.ws.send(json.dumps(msg))
        except ConnectionClosed:
            self.closed = True

    # ---- the conversation -----------------------------------------------------------------------

    async def run(self) -> None:
        reader = asyncio.create_task(self._read(), name=f"ai-read-{self.code}-{self.seat}")
        try:
            version, room = await self.server.store.load(self.code)
            self.version = version
            game = rooms.load_game(room)
            if game is not None and room["status"] == "playing" and game.phase != "match_over":
                await self._begin_deal(room, game, joined_late=True)
                await self._maybe_ask(room, game)
            while not self.closed:
                got = asyncio.create_task(self.inbox.get())
                done, _ = await asyncio.wait({got, reader}, return_when=asyncio.FIRST_COMPLETED)
                if got not in done:
                    got.cancel()
                    break
                version, room, record = got.result()
                if version <= self.version:
                    continue
                if version > self.version + 1:  # a notice was missed: take its records from the log
                    for rec in await self.server.store.records(self.code, self.version, version - 1):
                        await self._process(rec["v"], room, rec, ask=False)
                await self._process(version, room, record)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            self.closed = True

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                self.answers.put_nowait(raw)

    async def _process(self, version: int, room: dict[str, Any], record: dict[str, Any] | None,
                       ask: bool = True) -> None:
        self.version = version
        game = rooms.load_game(room)
        if game is None or record is None:
            return
        if record["kind"] == "room" and record.get("type") == "start":
            await self._begin_deal(room, game)
        elif record["kind"] == "game":
            await self._game_record(room, game, record)
        if ask:
            await self._maybe_ask(room, game)

    async def _game_record(self, room: dict[str, Any], game: Game, record: dict[str, Any]) -> None:
        action = record["action"]
        seat = record["seat"]
        kind = action["type"]
        if kind == "play":
            official = action_of(Play(action["kind"], action["value"], tuple(action["cards"])), game.level)
            self.top = (seat, official)
            await self.send(ct.notify_play(seat, official, seat, official))
        elif kind == "pass":
            await self.send(ct.notify_play(seat, list(PASS_ACTION), *self.top))
        elif kind == "next_deal":
            await self._begin_deal(room, game)
            return
        elif kind == "return":
            if game.phase != "return" and game.tribute:
                await self.send(ct.notify_back(game.tribute["returns"], game.level))
            return
        if game.phase in ("deal_over", "match_over") and self.over_sent != game.deal:
            await self._deal_over(game)

    async def _begin_deal(self, room: dict[str, Any], game: Game, joined_late: bool = False) -> None:
        view = view_for(room, game, self.seat)
        self.top = (-1, None)
        self.over_sent = None
        tribute = game.tribute or {}
        gifts = tribute.get("gifts") or []
        dealt = list(view["hand"])
        if not joined_late:
            for g in gifts:  # the hand as dealt, before the tribute
                if g["to"] == self.seat:
                    dealt.remove(g["card"])
                if g["from"] == self.seat:
                    dealt.append(g["card"])
        await self.send(ct.beginning(view, dealt))
        if joined_late:
            return
        if tribute.get("refused"):
            await self.send(ct.notify_anti_tribute(refusers(game, tribute)))
        elif gifts:
            for g in gifts:
                if g["from"] == self.seat:
                    await self.send(ct.act_tribute(view, g["card"]))
                    await self._answer(time.monotonic() + TRIBUTE_ANSWER_WAIT, 0)
            await self.send(ct.notify_tribute(gifts, game.level))

    async def _deal_over(self, game: Game) -> None:
        self.over_sent = game.deal
        result = game.last_result or {}
        rest = {s: game.hand(s) for s in range(4)}  # shown at the end of a deal, as at a real table
        await self.send(ct.episode_over(result.get("places", []), game.level, rest))
        if game.phase == "match_over":
            winner = game.match_winner
            await self.send(ct.game_over(1, 1))
            await self.send(ct.game_result([1 if s % 2 == winner else 0 for s in range(4)], [0, 0, 0, 0]))

    async def _maybe_ask(self, room: dict[str, Any], game: Game) -> None:
        """Ask the AI for its action when its seat owes one (once per turn)."""
        if game.phase == "play" and game.turn == self.seat:
            stage = "play"
        elif game.phase == "return" and self.seat in game.pending_seats():
            stage = "back"
        else:
            return
        key = C.turn_key(game, self.seat)
        if self.asked == key:
            return
        self.asked = key
        view = view_for(room, game, self.seat)
        if stage == "play":
            msg, options = ct.act_play(view, game.rules)
            choices: list[dict[str, Any]] = [
                {"type": "pass"} if p is None else
                {"type": "play", "cards": [int(c) for c in p.cards], "kind": p.kind, "value": p.value}
                for p in options
            ]
        else:
            gift = next(g for g in game.tribute["gifts"] if g["to"] == self.seat)
            msg, cards = ct.act_back(view, gift["from"], gift["card"])
            choices = [{"type": "return", "card": c} for c in cards]
        while not self.answers.empty():  # an answer to an earlier question that came too late
            self.answers.get_nowait()
        await self.send(msg)
        timeout = room["settings"].get("ai_timeout") or 10.0
        deadline = time.monotonic() + max(0.0, room["live"]["changed"] + timeout - time.time())
        index = await self._answer(deadline, msg["indexRange"])
        if index is None:
            return  # silent: the scheduler's fallback plays this turn when the time is up
        if index < 0:
            log.warning("AI code=%s seat=%d answered out of range; our bot plays this turn", self.code,
                        self.seat)
        action = choices[index] if index >= 0 else None
        by = "ai" if action is not None else "ai_fallback"
        await self.server.try_mutate(self.code,
                                     lambda r: C.answer(r, self.seat, key, action, by))

    async def _answer(self, deadline: float, index_range: int) -> int | None:
        """The index the AI answered; -1 for an invalid answer; None if it said nothing in time."""
        try:
            raw = await asyncio.wait_for(self.answers.get(), max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            return None
        index = parse_act_index(raw, index_range)
        return -1 if index is None else index
