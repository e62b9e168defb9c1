"""Our own bots as competition-protocol clients, so research tools can pit them against others.

The client rebuilds, from the protocol's messages alone, the same seat view the bot gets in
process (hand, level, team levels, counts, finishing order, cards played, table play, and the deal's
tribute: who gave which card to whom, the cards returned, a refusal), asks the bot, and answers with
the index of its choice in ``actionList``.

Run one: ``python -m server.competition_client ws://127.0.0.1:23456 --bot heuristic --name h1``; a bot
may carry settings as the arena's teams do: ``--bot strong:margin=0.6``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from engine.arena import make_team_bot, team_arg
from engine.bots import BOTS
from engine.cards import NAMES, parse_card, parse_rank
from engine.competition import action_of, play_of_action
from engine.levels import partner_of
from engine.plays import Play
from engine.rules import PRESETS, Rules, preset

Msg = dict[str, Any]


class PlatformGone(Exception):
    """The platform closed the connection (or went away) before ``gameResult``."""


class ProtocolView:
    """A seat's view, kept up to date from notify/act messages."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seat = 0
        self.counts = [27, 27, 27, 27]
        self.finished: list[int] = []
        self.played: list[int] = []
        self.places: list[int] | None = None  # the last deal's finishing order (notify/episodeOver)
        self.tribute: Msg | None = None  # as the engine's view has it (engine/game.py ``view``)

    def on_notify(self, msg: Msg) -> None:
        stage = msg.get("stage")
        if stage == "beginning":
            self.seat = msg["myPos"]
            self.counts = [27, 27, 27, 27]
            self.finished = []
            self.played = []
            self.tribute = None  # the first deal of a match has none: no tribute notify comes then
        elif stage == "episodeOver":
            self.places = list(msg.get("order") or ()) or None
        elif stage == "anti-tribute":
            givers = self._givers(list(msg.get("antiPos") or ()))
            first = self.places[0] if self.places else -1
            self.tribute = self._tribute(givers, [], True, first)
        elif stage == "tribute":
            gifts = [{"from": f, "to": t, "card": int(parse_card(c))} for f, t, c in msg["result"]]
            self.tribute = self._tribute(self._givers([g["from"] for g in gifts]), gifts, False,
                                         gifts[0]["from"] if gifts else -1)
        elif stage == "back" and self.tribute is not None:
            for f, t, c in msg["result"]:
                self.tribute["returns"].append({"from": f, "to": t, "card": int(parse_card(c))})
                if f in self.tribute["pending"]:
                    self.tribute["pending"].remove(f)
        elif stage == "play":
            action = msg.get("curAction")
            if action and action[0] != "PASS":
                cards = [int(parse_card(n)) for n in action[2]]
                seat = msg["curPos"]
                self.played.extend(cards)
                self.counts[seat] -= len(cards)
                if self.counts[seat] == 0 and seat not in self.finished:
                    self.finished.append(seat)

    def _givers(self, seen: list[int]) -> list[int]:
        """Who owes tribute (the engine's ``tribute_plan``): the last deal's 4th, or its 3rd and 4th when
        its 1st and 2nd were partners; from the seats the notify names when no order is known."""
        places = self.places
        if not places or len(places) != 4:
            return sorted(set(seen))
        return [places[2], places[3]] if places[1] == partner_of(places[0]) else [places[3]]

    @staticmethod
    def _tribute(givers: list[int], gifts: list[Msg], refused: bool, leader: int) -> Msg:
        """The engine view's ``tribute``; returns fill in as notify/back announces them (the platform
        announces them once all are made: during the returns, none is known yet)."""
        return {"kind": "double" if len(givers) == 2 else "single", "givers": givers, "gifts": gifts,
                "refused": refused, "returns": [], "pending": [g["to"] for g in gifts], "leader": leader}

    def view(self, msg: Msg, phase: str) -> Msg:
        level = parse_rank(msg["curRank"])
        levels = [0, 0]
        levels[self.seat % 2] = parse_rank(msg["selfRank"])
        levels[1 - self.seat % 2] = parse_rank(msg["oppoRank"])
        hand = [int(parse_card(n)) for n in msg["handCards"]]
        top = None
        if msg.get("greaterAction") and msg["greaterAction"][0] != "PASS":
            play = play_of_action(msg["greaterAction"], level, self.rules)
            top = {"seat": msg["greaterPos"], "kind": play.kind, "value": play.value,
                   "cards": list(play.cards)}
        counts = [info["rest"] for info in msg.get("publicInfo") or ()] or list(self.counts)
        view: Msg = {
            "seat": self.seat, "phase": phase, "level": level, "levels": levels, "hand": hand,
            "counts": counts, "turn": self.seat if phase == "play" else None, "top": top, "trick": [],
            "finished": list(self.finished), "played": list(self.played),
            "tribute": _copy_tribute(self.tribute),
            "return_choices": [], "rules": self.rules.to_dict(),
        }
        if phase == "return":
            view["return_choices"] = [int(parse_card(a[2][0])) for a in msg["actionList"]]
        return view


def _copy_tribute(t: Msg | None) -> Msg | None:
    if t is None:
        return None
    return {**t, "givers": list(t["givers"]), "gifts": [dict(g) for g in t["gifts"]],
            "returns": [dict(r) for r in t["returns"]], "pending": list(t["pending"])}


def index_of(action: Msg, msg: Msg, level: int) -> int:
    """Where the bot's action stands in ``actionList`` (0 when it is not there)."""
    actions = msg["actionList"]
    if action["type"] == "pass":
        want: list = ["PASS", "PASS", "PASS"]
    elif action["type"] == "return":
        want = ["back", "back", [NAMES[action["card"]]]]
    else:
        want = action_of(Play(action["kind"], action["value"], tuple(action["cards"])), level)
    try:
        return actions.index(want)
    except ValueError:
        return 0


async def play(url: str, bot_name: str = "heuristic", name: str = "guandan-bot", seed: int | None = None,
               rules: Rules | None = None) -> int:
    """Play as one seat until gameResult; returns the number of decisions made. ``bot_name`` may carry
    the bot's settings: ``strong:margin=0.6``."""
    bot = make_team_bot(bot_name, seed=seed)
    tracker = ProtocolView(rules or preset("competition2020"))
    decisions = 0
    async with connect(seat_url(url, name), max_size=2**22, ping_interval=None) as ws:
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "notify":
                    tracker.on_notify(msg)
                    if msg.get("stage") == "gameResult":
                        return decisions
                    continue
                decisions += 1
                await ws.send(json.dumps({"actIndex": answer(bot, tracker, msg)}))
        except ConnectionClosed as exc:  # a platform killed mid-match, or one that refused the seat
            raise PlatformGone(f"the platform closed the connection before gameResult ({exc})") from None
    raise PlatformGone("the platform closed the connection before gameResult")


def seat_url(url: str, name: str) -> str:
    """The platform's address and our name (``/game/NAME``), or a room's AI seat given whole
    (``ws://HOST:PORT/game/<secret>``, as ``add_ai`` answers): used as it is."""
    if urlsplit(url).path.startswith("/game/"):
        return url
    return f"{url.rstrip('/')}/game/{name}"


def answer(bot: Any, tracker: ProtocolView, msg: Msg) -> int:
    """The index of the bot's choice for an act (a tribute has one choice: the rules fix the card)."""
    stage = msg.get("stage")
    if stage == "tribute":
        return 0
    view = tracker.view(msg, "return" if stage == "back" else "play")
    return index_of(bot.choose(view), msg, view["level"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m server.competition_client",
                                 description="Play one seat of a competition-protocol table with our bot")
    ap.add_argument("url", help="the platform's address, e.g. ws://127.0.0.1:23456, or a room's AI seat "
                                "whole, ws://HOST:PORT/game/<secret> (add_ai's path)")
    ap.add_argument("--rules", default="competition2020", choices=sorted(PRESETS),
                    help="the table's preset, which the protocol does not say (default competition2020; "
                         "a room's AI seat plays the room's)")
    ap.add_argument("--bot", default="heuristic", type=team_arg, metavar="BOT",
                    help=f"our bot: {', '.join(BOTS)} (default heuristic), optionally with settings: "
                         "strong:margin=0.6")
    ap.add_argument("--name", default="guandan-bot",
                    help="the name this client connects with (URL/game/NAME), shown in the platform's "
                         "progress lines (default guandan-bot)")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of the bot's own random choices, for a reproducible run (default: none)")
    args = ap.parse_args(argv)
    try:
        asyncio.run(play(args.url, args.bot, args.name, args.seed, preset(args.rules)))
    except (OSError, InvalidURI, InvalidHandshake) as exc:
        print(f"competition_client: cannot connect to {args.url}: {exc or type(exc).__name__}",
              file=sys.stderr)
        return 1
    except PlatformGone as exc:
        print(f"competition_client: {args.url}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
