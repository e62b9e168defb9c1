"""Seats for competition-protocol AIs, and the standalone platform that replaces the 2020 one.

The table runner drives one ``engine.Game`` through the protocol: every seat is a ``ProtocolSeat``
(a bot's socket, or our own bot answering in-process). A seat that is slow, silent, gone or
answers out of range never stalls the table: the fallback bot plays that turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from engine import Game, Rules
from engine import competition_table as ct
from engine.bots import make_bot
from engine.plays import Play
from engine.rules import preset

from .safelog import LogBudget, clip

log = logging.getLogger("guandan.competition")
Msg = dict[str, Any]
DEFAULT_SETTLE = 0.5  # seconds between the 4th bot's handshake and the first message
BEHIND_WARNING = 3  # acts in a row that time out after a late answer before the seat is warned of


class CannotListen(OSError):
    """The server's address is taken or not this machine's: said in one line, not a traceback."""

    @classmethod
    def of(cls, host: str, port: int, exc: OSError) -> CannotListen:
        why = os.strerror(exc.errno) if exc.errno else str(exc)  # asyncio's own text repeats the address
        return cls(f"cannot listen on {host}:{port}: {why}")


class ProtocolSeat:
    """One competition client. ``act`` returns a valid index, or None when the fallback must play."""

    name = "seat"

    async def notify(self, msg: Msg) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    async def act(self, msg: Msg) -> int | None:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass
class OpenAct:
    """An act sent to a bot and not answered yet."""

    future: asyncio.Future[int | None]
    index_range: int
    dropped_late: bool = False  # an earlier act's late answer came while this one was open


@dataclass
class SeatStats:
    """What went wrong with one bot's seat (the summary's per-seat counters)."""

    invalid_answers: int = 0  # out of range or not {"actIndex": n}: our bot played that turn
    late_answers: int = 0  # came after their act timed out: dropped
    unasked_answers: int = 0  # came while no act was open: dropped
    disconnected: bool = False


class SocketSeat(ProtocolSeat):
    """A bot on a WebSocket: JSON text frames; it only ever sends ``{"actIndex": n}``.

    The protocol has no request ids, so an answer is tied to its act by order alone: at most one act
    is open, an answer that comes while none is open is dropped, and after an act timed out the next
    answer is that act's (late) one and is dropped too. So a slow bot loses the turns it was late
    for, and never has an answer applied to a later act. ``read_answers`` must run for the whole
    connection (the server's handler does it): it is what notices answers and disconnects.
    """

    def __init__(self, ws: ServerConnection, name: str, act_timeout: float | None, seat: int) -> None:
        self.ws = ws
        self.name = name
        self.seat = seat
        self.act_timeout = act_timeout
        self.closed = False
        self.waiting = True  # the table is not full yet: a bot that leaves now gives its seat back
        self.ending = False  # the table is over: a bot that leaves now does what real bots do
        self.open: OpenAct | None = None
        self.late = 0  # acts that timed out and whose answer has not come yet
        self.behind = 0  # acts in a row that dropped a late answer and then timed out themselves
        self.stats = SeatStats()
        self.logs = LogBudget()

    async def notify(self, msg: Msg) -> None:
        if not self.closed and not await send_json(self.ws, msg):
            self.gone("a send failed")

    async def act(self, msg: Msg) -> int | None:
        if self.closed:
            return None
        act = OpenAct(asyncio.get_running_loop().create_future(), msg["indexRange"])
        self.open = act
        timer = None
        try:
            if not await send_json(self.ws, msg):
                self.gone("a send failed")
                return None
            if self.act_timeout is not None:
                timer = asyncio.get_running_loop().call_later(self.act_timeout, self._expire, act)
            return await act.future
        finally:
            self.open = None
            if timer is not None:
                timer.cancel()

    def _expire(self, act: OpenAct) -> None:
        """The act's time is up: our bot plays it, and the answer still owed for it will be dropped."""
        if act.future.done():
            return
        self.late += 1
        self.behind = self.behind + 1 if act.dropped_late else 0
        if self.behind == BEHIND_WARNING:
            print(f"seat {self.seat}: {self.name} answers every act only after its timeout: it is slower "
                  f"than {self.act_timeout} s, or it missed an act and answers one behind", flush=True)
        # a bot that never answers would log a line per act: hundreds in one match
        self.logs.log(log, logging.WARNING, "seat %d (%s) did not answer in %.1f s; our bot plays this turn "
                      "and its late answer will be dropped", self.seat, self.name, self.act_timeout)
        act.future.set_result(None)

    async def read_answers(self) -> None:
        """Take every frame the bot sends until its connection closes."""
        try:
            async for raw in self.ws:
                self.on_answer(raw)
        except ConnectionClosed:
            pass
        self.gone("its connection closed")

    def on_answer(self, raw: str | bytes) -> None:
        if self.late:
            self.late -= 1
            self.stats.late_answers += 1
            if self.open is not None:
                self.open.dropped_late = True
            self.logs.log(log, logging.WARNING, "seat %d (%s) answered %s after its act timed out: dropped",
                          self.seat, self.name, clip(raw))
            return
        act = self.open
        if act is None or act.future.done():
            self.stats.unasked_answers += 1
            self.logs.log(log, logging.WARNING, "seat %d (%s) answered %s while no act was open: dropped",
                          self.seat, self.name, clip(raw))
            return
        index = parse_act_index(raw, act.index_range)
        if index is None:
            self.stats.invalid_answers += 1
            self.logs.log(log, logging.WARNING, "seat %d (%s) sent an invalid answer %s (indexRange %d); our "
                          "bot plays this turn", self.seat, self.name, clip(raw), act.index_range)
        act.future.set_result(index)

    def gone(self, why: str) -> None:
        """The bot's socket is closed: our bot plays its turns from now on, and everyone is told."""
        if self.closed:
            return
        self.closed = True
        if self.open is not None and not self.open.future.done():
            self.open.future.set_result(None)
        if self.ending or self.waiting:
            return
        self.stats.disconnected = True
        log.warning("seat %d (%s) disconnected (%s); our bot plays its turns", self.seat, self.name, why)
        print(f"seat {self.seat}: {self.name} disconnected ({why}); our bot plays its turns", flush=True)

    async def close(self) -> None:
        """End the table's connection to this bot (not a disconnect: the matches are over)."""
        self.ending = True
        await self.ws.close()


async def send_json(ws: Any, msg: Msg) -> bool:
    """One protocol message as a JSON text frame; False once the bot's socket is closed."""
    try:
        await ws.send(json.dumps(msg))
    except ConnectionClosed:
        return False
    return True


def parse_act_index(raw: str | bytes, index_range: int) -> int | None:
    try:
        data = json.loads(raw)
        n = data["actIndex"]
    except (ValueError, TypeError, KeyError, RecursionError):  # deep nesting recurses in json's parser
        return None
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= index_range:
        return None
    return n


@dataclass
class TableStats:
    deals: int = 0
    a_fallbacks: int = 0
    fallback_turns: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


class ProtocolTable:
    """Runs matches of one Game through four protocol seats."""

    def __init__(self, seats: list[ProtocolSeat], rules: Rules, fallback: str = "heuristic") -> None:
        self.seats = seats
        self.rules = rules
        self.fallback = [make_bot(fallback, seed=s) for s in range(4)]
        self.stats = TableStats()

    async def broadcast(self, msg: Msg) -> None:
        await asyncio.gather(*(s.notify(msg) for s in self.seats))

    async def play_match(self, game: Game, max_a_fallbacks: int | None = None) -> int | None:
        """Play ``game`` to its end; the winning team, or None for a draw (too many A fall-backs)."""
        started = 0
        while True:
            phase = game.view(None)["phase"]
            if game.view(None)["deal"] != started:
                started = game.view(None)["deal"]
                await self._start_deal(game)
                continue
            if phase == "play":
                await self._play_turn(game)
            elif phase == "deal_over":
                before = game.view(None)
                await self._episode_over(game)
                if before["phase"] == "match_over":
                    return before["match_winner"]
                self.stats.deals += 1
                if max_a_fallbacks is not None and self.stats.a_fallbacks >= max_a_fallbacks:
                    return None
                game.apply(0, {"type": "next_deal"})
            elif phase == "match_over":
                await self._episode_over(game)
                self.stats.deals += 1
                return game.view(None)["match_winner"]
            else:  # "return" is handled when the deal starts
                raise RuntimeError(f"unexpected phase {phase}")

    async def _start_deal(self, game: Game) -> None:
        tribute = game.view(None).get("tribute")
        gifts = (tribute or {}).get("gifts") or []
        for seat in range(4):
            await self.seats[seat].notify(ct.beginning(ct.before_tribute(game.view(seat), gifts)))
        if tribute and tribute.get("refused"):
            await self.broadcast(ct.notify_anti_tribute(refusers(game, tribute)))
        elif gifts:
            for g in gifts:  # asked before notify/tribute applies the gifts, as the old platform did
                view = ct.before_tribute(game.view(g["from"]), gifts)
                if await self.seats[g["from"]].act(ct.act_tribute(view, g["card"])) is None:
                    # the rules fix the card, so the gift stands; still a turn our bot played for the seat
                    self.stats.fallback_turns[g["from"]] += 1
            await self.broadcast(ct.notify_tribute(gifts, game.view(None)["level"]))
            returns = []
            for g in gifts:
                view = game.view(g["to"])
                msg, cards = ct.act_back(view, g["from"], g["card"])
                index = await self.seats[g["to"]].act(msg)
                if index is None:
                    action = self.fallback[g["to"]].choose(view)
                    self.stats.fallback_turns[g["to"]] += 1
                else:
                    action = {"type": "return", "card": cards[index]}
                game.apply(g["to"], action)
                returns.append({"from": g["to"], "to": g["from"], "card": action["card"]})
            await self.broadcast(ct.notify_back(returns, game.view(None)["level"]))

    async def _play_turn(self, game: Game) -> None:
        seat = game.turn
        view = game.view(seat)
        msg, options = ct.act_play(view, self.rules)
        index = await self.seats[seat].act(msg)
        top = ct.top_of(view)
        if index is None:
            action = self.fallback[seat].choose(view)
            self.stats.fallback_turns[seat] += 1
            play = None
            if action["type"] == "play":
                play = Play(action["kind"], action["value"], tuple(action["cards"]))
        else:
            play = options[index]
            action = {"type": "pass"} if play is None else {
                "type": "play", "cards": [int(c) for c in play.cards], "kind": play.kind, "value": play.value}
        game.apply(seat, action)
        level = view["level"]
        if play is None:
            greater_pos = view["top"]["seat"] if view.get("top") else -1
            greater = ct.action_of(top, level) if top else None
            cur = list(ct.PASS_ACTION)
        else:
            greater_pos, greater = seat, ct.action_of(play, level)
            cur = greater
        await self.broadcast(ct.notify_play(seat, cur, greater_pos, greater))

    async def _episode_over(self, game: Game) -> None:
        public = game.view(None)
        result = public["last_result"]
        rest = {s: list(game.view(s)["hand"]) for s in range(4)}
        await self.broadcast(ct.episode_over(result["places"], public["level"], rest))
        self.stats.a_fallbacks += sum(1 for fell in result.get("fell_back") or () if fell)


def refusers(game: Game, tribute: Msg) -> list[int]:
    """The givers who hold a big joker: together they refused the tribute (抗贡)."""
    return [s for s in tribute.get("givers") or () if 53 in game.hand(s)]


async def run_standalone(
    host: str,
    port: int,
    matches: int,
    seed: int = 0,
    rules: Rules | None = None,
    act_timeout: float | None = None,
    max_a_fallbacks: int = 50,
    on_listening: Callable[[int], None] | None = None,
    settle: float = DEFAULT_SETTLE,
) -> dict[str, Any]:
    """The old platform's behaviour: four connections make a table, N matches, then gameResult.

    The first message goes out ``settle`` seconds after the 4th connection's handshake: the websocket
    library of the 2020 bots can crash when a frame arrives in the same read as the handshake response.
    """
    rules = rules or preset("competition2020")
    joined: list[SocketSeat] = []
    full = asyncio.Event()
    done = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        path = ws.request.path if ws.request else ""
        if not path.startswith("/game/") or len(joined) >= 4:
            await ws.close(1008, "table full" if len(joined) >= 4 else "connect to /game/<name>")
            return
        # the handler runs once the handshake response is written: the connection is open
        seat = SocketSeat(ws, path[len("/game/"):] or f"bot{len(joined)}", act_timeout, len(joined))
        joined.append(seat)
        print(f"seat {seat.seat}: {seat.name} connected", flush=True)
        if len(joined) == 4:
            for s in joined:
                s.waiting = False
            full.set()
        await seat.read_answers()
        if seat.waiting:  # left before the table was full: the seat is free again, and nobody plays for it
            joined.remove(seat)
            for number, s in enumerate(joined):
                s.seat = number
            print(f"{seat.name} left before the table was full; seats now: "
                  + ", ".join(f"{s.seat} {s.name}" for s in joined), flush=True)
            return
        await done.wait()

    try:
        listening = await serve(handler, host, port, max_size=2**16, ping_interval=None)
    except OSError as exc:
        raise CannotListen.of(host, port, exc) from None
    async with listening as server:
        bound = server.sockets[0].getsockname()[1]
        if on_listening:
            on_listening(bound)
        print(f"competition platform listening on ws://{host}:{bound}/game/<name>", flush=True)
        try:
            await full.wait()
            await asyncio.sleep(settle)  # let the last handshake response arrive on its own
            return await play_matches(joined, rules, matches, seed, max_a_fallbacks)
        finally:  # also when cancelled: the handlers end and the server can close
            done.set()
            for seat in joined:
                await seat.close()


async def play_matches(seats: list[SocketSeat], rules: Rules, matches: int, seed: int,
                       max_a_fallbacks: int) -> dict[str, Any]:
    """N matches at one table with progress lines on stdout; the summary."""
    table = ProtocolTable(list(seats), rules)
    victories = [0, 0, 0, 0]
    draws = [0, 0, 0, 0]
    action_logs: list[list] = []
    started = time.monotonic()
    for m in range(matches):
        table.stats.a_fallbacks = 0
        game = Game.new(seed + m, rules)
        winner = await table.play_match(game, max_a_fallbacks)
        action_logs.append(list(game.actions))
        if winner is None:
            draws = [d + 1 for d in draws]
        else:
            victories[winner] += 1
            victories[winner + 2] += 1
        await table.broadcast(ct.game_over(m + 1, matches))
        print(f"match {m + 1}/{matches}: " + ("draw" if winner is None else f"team {winner} "
              f"(seats {winner} and {winner + 2}) wins"), flush=True)
    for seat in seats:  # real bots leave once they have gameResult
        seat.ending = True
    await table.broadcast(ct.game_result(victories, draws))
    elapsed = time.monotonic() - started
    summary = {"matches": matches, "deals": table.stats.deals, "victories": victories, "draws": draws,
               "seconds": elapsed, "fallback_turns": table.stats.fallback_turns,
               **seat_counters(seats), "actions": action_logs}
    print(f"done: {matches} matches, {table.stats.deals} deals in {elapsed:.1f} s; "
          f"wins per seat {victories}, draws {draws}; turns our bot played per seat "
          f"{table.stats.fallback_turns}, disconnects per seat {summary['disconnects']}", flush=True)
    return summary


def seat_counters(seats: list[SocketSeat]) -> dict[str, list[int]]:
    """The summary's per-seat counts of what went wrong with each bot."""
    return {
        "disconnects": [int(s.stats.disconnected) for s in seats],
        "invalid_answers": [s.stats.invalid_answers for s in seats],
        "late_answers": [s.stats.late_answers for s in seats],
        "unasked_answers": [s.stats.unasked_answers for s in seats],
    }
