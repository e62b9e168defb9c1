"""External AI seats in rooms: a bot written for the 2020 competition protocol plays one seat.

The AI connects at ``/game/<secret>`` (the host got that path when marking the seat). It sees the
table only through protocol messages built from its seat's view (engine/competition_table.py), in the
order the room's changes were committed: every state notice of the room reaches ``update`` through
Redis pub/sub, whichever process committed it. When the seat owes an action the AI is asked
(act/play, act/back); a valid answer is committed only if the turn is still the one asked about. If
the AI is silent past the room's ``ai_timeout``, or not connected, our bot plays that turn (the
scheduler's ``AI_FALLBACK`` step); an invalid answer makes our bot play at once. Nothing but protocol
messages is ever sent on this socket: real bots die on an unknown message kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from engine import Game
from engine import competition_table as ct
from engine.competition import PASS_ACTION, action_of
from engine.plays import Play

from . import changes as C
from . import rooms
from .competition import parse_act_index, refusers, send_json
from .limits import FrameGate
from .safelog import LogBudget, clip
from .views import view_for

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("guandan.ai")
Msg = dict[str, Any]


class AiSeat:
    """One external AI's connection to one seat of one room.

    At most one question (act) is open at a time, and it stays open until the AI answers it: the
    protocol has no request ids, so this is what ties an answer to its question. An answer while no
    question is open is dropped. A late answer closes its question and is dropped if the turn moved on
    meanwhile (our bot played it when the AI's time was up), so it is never applied to a later act. An
    invalid answer closes its question too and makes our bot play that turn at once (real bots send
    one answer per act and would never send a second). While a question is open no new one is asked
    (our bot plays those turns when the AI's time is up), so a slow or stuck AI costs its own turns,
    never the table's.
    """

    def __init__(self, server: GameServer, ws: ServerConnection, code: str, seat: int, secret_hash: str,
                 conn_id: str) -> None:
        self.server = server
        self.ws = ws
        self.code = code
        self.seat = seat
        self.secret_hash = secret_hash
        self.conn_id = conn_id
        self.inbox: asyncio.Queue[tuple[int, dict[str, Any], dict[str, Any] | None]] = asyncio.Queue()
        self.version = 0
        self.room: dict[str, Any] | None = None
        self.top: tuple[int, list | None] = (-1, None)  # greaterPos, greaterAction in this trick
        self.asked: tuple[Any, ...] | None = None  # the turn the last question was about
        self.question: Question | None = None  # the open question
        self.over_sent: int | None = None
        self.closed = False
        self.gate = FrameGate(server.config.rate, server.config.burst)  # as for any connection
        self.logs = LogBudget()
        self.closing: asyncio.Task[None] | None = None  # a flood's close, while its frames are drained

    def update(self, version: int, room: dict[str, Any], record: dict[str, Any] | None) -> None:
        """A committed change of the room (called in commit order)."""
        self.inbox.put_nowait((version, room, record))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    async def send(self, msg: Msg) -> None:
        if not self.closed:
            self.closed = not await send_json(self.ws, msg)

    # ---- the conversation -----------------------------------------------------------------------

    async def run(self) -> None:
        """Turn the room's changes into messages, and the AI's answers into actions, until it leaves."""
        version, room = await self.server.store.load(self.code)
        self.version, self.room = version, room
        game = rooms.load_game(room)
        # between deals it waits for the next deal's beginning (a beginning now showed the cards the
        # finished deal left, and no episodeOver followed it)
        if game is not None and room["status"] == "playing" and game.phase not in ("deal_over", "match_over"):
            await self._begin_deal(room, game, joined_late=True)
            await self._maybe_ask(room, game)
        answers = self.ws.__aiter__()
        next_answer: asyncio.Task[Any] = asyncio.ensure_future(answers.__anext__())
        next_change: asyncio.Task[Any] = asyncio.ensure_future(self.inbox.get())
        try:
            while not self.closed:
                done, _ = await asyncio.wait({next_answer, next_change}, return_when=asyncio.FIRST_COMPLETED)
                if next_answer in done:
                    try:
                        raw = next_answer.result()
                    except (StopAsyncIteration, ConnectionClosed):
                        break
                    await self._on_frame(raw)
                    next_answer = asyncio.ensure_future(answers.__anext__())
                if next_change in done:
                    await self._on_change(*next_change.result())
                    next_change = asyncio.ensure_future(self.inbox.get())
        finally:
            for task in (next_answer, next_change):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, ConnectionClosed,
                                         Exception):
                    await task
            self.closed = True

    async def _on_change(self, version: int, room: dict[str, Any], record: dict[str, Any] | None) -> None:
        if version <= self.version:
            return
        if version > self.version + 1:  # a notice was missed: take its records from the log
            for rec in await self.server.store.records(self.code, self.version, version - 1):
                await self._process(rec["v"], room, rec)
        await self._process(version, room, record)
        game = rooms.load_game(room)
        if game is not None:
            await self._maybe_ask(room, game)

    def _holds(self, room: dict[str, Any]) -> bool:
        try:
            rooms.check_holder(room, self.seat, self.secret_hash)
        except rooms.RoomError:
            return False
        return True

    async def _process(self, version: int, room: dict[str, Any], record: dict[str, Any] | None) -> None:
        if not self._holds(room):  # the seat was given to someone else: not one more message of it
            log.info("AI seat released code=%s seat=%d conn=%s: closing", self.code, self.seat, self.conn_id)
            await self.close(1008, "this AI seat was released")
            return
        self.version, self.room = version, room
        game = rooms.load_game(room)
        if game is None or record is None:
            return
        if record["kind"] == "room" and record.get("type") == "start":
            await self._begin_deal(room, game)
        elif record["kind"] == "game":
            await self._game_record(room, game, record)

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
        if joined_late:  # the hand it holds now
            await self.send(ct.beginning(view))
            return
        dealt = ct.before_tribute(view, gifts)  # the hand and counts before the gifts changed hands
        await self.send(ct.beginning(dealt))
        if tribute.get("refused"):
            await self.send(ct.notify_anti_tribute(refusers(game, tribute)))
        elif gifts:
            for g in gifts:
                if g["from"] == self.seat and self.question is None:
                    # the rules choose the card; the AI's answer only closes the question
                    await self._ask(ct.act_tribute(dealt, g["card"]), None, [])
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

    # ---- questions and answers ------------------------------------------------------------------

    async def _maybe_ask(self, room: dict[str, Any], game: Game) -> None:
        """Ask the AI for its action when its seat owes one (once per turn, one question at a time)."""
        if self.question is not None:
            return
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
        await self._ask(msg, key, choices)

    async def _ask(self, msg: Msg, key: tuple[Any, ...] | None, choices: list[dict[str, Any]]) -> None:
        self.question = Question(key, choices, msg["indexRange"])
        await self.send(msg)

    async def _on_frame(self, raw: str | bytes) -> None:
        """The answer to an open act is always read: we set that pace, and a quick AI at a table of quick
        bots answers faster than any person sends. Other frames count against the rate limit; past it a
        frame is dropped (the protocol has no error message) and a flood closes."""
        if self.closing is not None:
            return
        if self.question is not None:
            await self._on_answer(raw)
            return
        verdict = self.gate.admit()
        if verdict == FrameGate.PASS:
            await self._on_answer(raw)
        elif verdict == FrameGate.CLOSE:  # closed aside: queued frames must be read for the handshake
            log.warning("AI code=%s seat=%d flooding (%d frames dropped): closing", self.code, self.seat,
                        self.gate.dropped)
            self.closing = asyncio.ensure_future(self.ws.close(1008, "too many messages"))
        else:
            self.logs.log(log, logging.WARNING, "AI code=%s seat=%d over the rate limit: frame dropped",
                          self.code, self.seat)

    async def _on_answer(self, raw: str | bytes) -> None:
        question = self.question
        if question is None:
            self.logs.log(log, logging.WARNING, "AI code=%s seat=%d answered with no question open: %s",
                          self.code, self.seat, clip(raw))
            return
        index = parse_act_index(raw, question.index_range)
        self.question = None  # answered: bots send one answer per act, even an invalid one
        if index is None:
            self.logs.log(log, logging.WARNING, "AI code=%s seat=%d answered %s out of range 0..%d; our bot "
                          "plays this turn", self.code, self.seat, clip(raw), question.index_range)
            if question.key is not None:
                await self._commit(question.key, None, "ai_fallback")
        elif question.key is not None:
            await self._commit(question.key, question.choices[index], "ai")
        if self.room is not None:  # the question was holding back the next one
            game = rooms.load_game(self.room)
            if game is not None:
                await self._maybe_ask(self.room, game)

    async def _commit(self, key: tuple[Any, ...], action: dict[str, Any] | None, by: str) -> None:
        """Apply the answer (None: our bot's move) if the turn is still the one asked about."""
        await self.server.try_mutate(self.code,
                                     lambda r: C.answer(r, self.seat, self.secret_hash, key, action, by))


@dataclass
class Question:
    """An act sent to the AI and not validly answered yet."""

    key: tuple[Any, ...] | None  # the turn it is about (None: act/tribute, whose answer changes nothing)
    choices: list[dict[str, Any]]
    index_range: int
