"""Seats for competition-protocol AIs, and the standalone platform that replaces the 2020 one.

The table runner drives one ``engine.Game`` through the protocol: every seat is a ``ProtocolSeat``
(a bot's socket, or our own bot answering in-process). A seat that is slow, silent, gone or
answers out of range never stalls the table: the fallback bot plays that turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
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


class ProtocolSeat:
    """One competition client. ``act`` returns a valid index, or None when the fallback must play."""

    name = "seat"

    async def notify(self, msg: Msg) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    async def act(self, msg: Msg) -> int | None:  # pragma: no cover - interface
        raise NotImplementedError


class SocketSeat(ProtocolSeat):
    """A bot on a WebSocket: JSON text frames; it only ever sends ``{"actIndex": n}``."""

    def __init__(self, ws: ServerConnection, name: str, act_timeout: float | None) -> None:
        self.ws = ws
        self.name = name
        self.act_timeout = act_timeout
        self.closed = False
        self.logs = LogBudget()

    async def notify(self, msg: Msg) -> None:
        if not self.closed:
            self.closed = not await send_json(self.ws, msg)

    async def act(self, msg: Msg) -> int | None:
        if self.closed:
            return None
        try:
            await self.ws.send(json.dumps(msg))
            deadline = None if self.act_timeout is None else time.monotonic() + self.act_timeout
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                raw = await asyncio.wait_for(self.ws.recv(), left)
                index = parse_act_index(raw, msg["indexRange"])
                if index is not None:
                    return index
                self.logs.log(log, logging.WARNING, "%s sent an invalid answer %s (indexRange %d)", self.name,
                              clip(raw), msg["indexRange"])
        except TimeoutError:
            log.warning("%s did not answer in %.1f s; our bot plays this turn", self.name, self.act_timeout)
            return None
        except ConnectionClosed:
            self.closed = True
            log.warning("%s disconnected; our bot plays its turns", self.name)
            return None


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
            view = game.view(seat)
            dealt = list(view["hand"])
            for g in gifts:  # the hand as dealt, before tribute
                if g["to"] == seat:
                    dealt.remove(g["card"])
                if g["from"] == seat:
                    dealt.append(g["card"])
            await self.seats[seat].notify(ct.beginning(view, dealt))
        if tribute and tribute.get("refused"):
            await self.broadcast(ct.notify_anti_tribute(refusers(game, tribute)))
        elif gifts:
            for g in gifts:
                view = game.view(g["from"])
                await self.seats[g["from"]].act(ct.act_tribute(view, g["card"]))
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
) -> dict[str, Any]:
    """The old platform's behaviour: four connections make a table, N matches, then gameResult."""
    rules = rules or preset("competition2020")
    joined: list[SocketSeat] = []
    full = asyncio.Event()
    done = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        path = ws.request.path if ws.request else ""
        if not path.startswith("/game/") or len(joined) >= 4:
            await ws.close(1008, "table full" if len(joined) >= 4 else "connect to /game/<name>")
            return
        seat = SocketSeat(ws, path[len("/game/"):] or f"bot{len(joined)}", act_timeout)
        joined.append(seat)
        print(f"seat {len(joined) - 1}: {seat.name} connected", flush=True)
        if len(joined) == 4:
            full.set()
        await done.wait()

    summary: dict[str, Any] = {}
    async with serve(handler, host, port, max_size=2**16, ping_interval=None) as server:
        bound = server.sockets[0].getsockname()[1]
        if on_listening:
            on_listening(bound)
        print(f"competition platform listening on ws://{host}:{bound}/game/<name>", flush=True)
        await full.wait()
        table = ProtocolTable(list(joined), rules)
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
        await table.broadcast(ct.game_result(victories, draws))
        elapsed = time.monotonic() - started
        summary = {"matches": matches, "deals": table.stats.deals, "victories": victories, "draws": draws,
                   "seconds": elapsed, "fallback_turns": table.stats.fallback_turns, "actions": action_logs}
        print(f"done: {matches} matches, {table.stats.deals} deals in {elapsed:.1f} s; "
              f"wins per seat {victories}, draws {draws}", flush=True)
        done.set()
        for seat in joined:
            await seat.ws.close()
    return summary
