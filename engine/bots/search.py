"""Endgame look-ahead: try a few candidate actions on sampled deals of the unseen cards.

Late in a deal the order in which players go out decides the upgrade, and a one-step rule of
thumb can miss that a lead hands an opponent the way out. ``evaluate`` deals the cards this
seat cannot see (``Memory``'s unseen cards) to the other hands at random, consistent with their
counts, plays each candidate action and then the rest of the deal with the plain heuristic at
all four seats, and scores the finishing order as the upgrade it gives (+ for our team, - for
theirs). Every candidate is played on the same sampled deals, so their differences come from
the actions, not from different deals. The random generator is seeded from the view, so a decision is
reproducible (the same view always gives the same action).

It only sees what the view shows: the sampled hands are guesses, never the real ones.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import Any

from ..game import next_holder
from ..plays import Play
from ..rules import Rules

Action = dict[str, Any]
View = dict[str, Any]


def _partner(seat: int) -> int:
    return (seat + 2) % 4


class Sim:
    """A deal in play with all four hands known (the sampled ones included)."""

    __slots__ = ("hands", "turn", "top", "top_seat", "passes", "finished", "played", "level", "rules_dict",
                 "rules")

    def __init__(self, hands: list[list[int]], turn: int, top: Play | None, top_seat: int | None,
                 finished: list[int], played: list[int], level: int, rules_dict: dict,
                 rules: Rules | None = None) -> None:
        self.hands = hands
        self.turn = turn
        self.top = top
        self.top_seat = top_seat
        self.passes = 0
        self.finished = finished
        self.played = played
        self.level = level
        self.rules_dict = rules_dict
        self.rules = rules if rules is not None else Rules.from_dict(rules_dict)

    def view(self, seat: int) -> View:
        top = None
        if self.top is not None:
            top = {"seat": self.top_seat, "kind": self.top.kind, "value": self.top.value,
                   "cards": list(self.top.cards)}
        return {
            "seat": seat, "phase": "play", "level": self.level, "hand": self.hands[seat],
            "counts": [len(h) for h in self.hands], "turn": seat, "top": top,
            "finished": self.finished, "played": self.played, "rules": self.rules_dict,
            "parsed_rules": self.rules,
        }

    def over(self) -> bool:
        f = self.finished
        return len(f) >= 3 or (len(f) >= 2 and _partner(f[0]) in f)

    def apply(self, seat: int, action: Action) -> None:
        if action["type"] == "pass":
            self.passes += 1
            others = sum(1 for s in range(4) if s != self.top_seat and self.hands[s])
            if self.passes < others:
                self.turn = next_holder(self.hands, seat)
                return
            lead = self.top_seat
            if not self.hands[lead]:
                lead = _partner(lead) if self.hands[_partner(lead)] else next_holder(self.hands, lead)
            self.top = None
            self.top_seat = None
            self.passes = 0
            self.turn = lead
            return
        cards = action["cards"]
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.played.extend(cards)
        self.top = Play(action["kind"], action["value"], tuple(cards))
        self.top_seat = seat
        self.passes = 0
        if not hand:
            self.finished.append(seat)
            if self.over():
                return
        self.turn = next_holder(self.hands, seat)

    def score(self, team: int) -> int:
        return deal_score(self.finished, team)


def deal_score(finished: list[int], team: int) -> int:
    """The deal's upgrade for ``team`` (negative when the other team wins) once ``finished`` ends it."""
    f = list(finished)
    for s in range(4):  # the players still holding cards come last, in any order
        if s not in f:
            f.append(s)
    winner = f[0] % 2
    mate = f.index(_partner(f[0]))
    up = 3 if mate == 1 else 2 if mate == 2 else 1
    return up if winner == team else -up


def view_seed(view: View, salt: str = "") -> int:
    """A seed that depends on the view's content only, not on the order cards are listed in (the
    same in every process, and through the competition protocol's rebuilt views)."""
    top = view.get("top") or {}
    def codes(cards: Any) -> list[int]:  # plain ints: cards may come as ``Card`` (its repr is a name)
        return sorted(int(c) for c in cards or ())

    text = repr((view.get("seat"), codes(view.get("hand")), [int(n) for n in view.get("counts") or ()],
                 codes(view.get("played")), codes(top.get("cards")), top.get("seat"),
                 [int(s) for s in view.get("finished") or ()], view.get("level"), salt))
    return zlib.crc32(text.encode())


def sample_hands(view: View, unseen: list[int], rng: random.Random) -> list[list[int]]:
    """The other hands dealt at random from the unseen cards, with the counts the view shows."""
    seat = view["seat"]
    counts = view["counts"]
    pool = [c for c, n in enumerate(unseen) for _ in range(n)]
    rng.shuffle(pool)
    hands: list[list[int]] = [[], [], [], []]
    i = 0
    for s in range(4):
        if s == seat:
            hands[s] = sorted(view["hand"])
            continue
        n = counts[s]
        hands[s] = pool[i:i + n]
        i += n
    return hands


def evaluate(view: View, unseen: list[int], candidates: list[Action], policy: Callable[[View], Action],
             samples: int, max_steps: int = 400) -> list[list[int]]:
    """Each candidate's score for this seat's team on each of ``samples`` sampled deals."""
    rng = random.Random(view_seed(view))
    seat = view["seat"]
    team = seat % 2
    top_d = view.get("top")
    top = Play(top_d["kind"], top_d["value"], tuple(top_d["cards"])) if top_d else None
    top_seat = top_d["seat"] if top_d else None
    scores: list[list[int]] = [[] for _ in candidates]
    rules = view.get("rules") or {}
    parsed = Rules.from_dict(rules)
    for _ in range(samples):
        hands = sample_hands(view, unseen, rng)
        for k, action in enumerate(candidates):
            sim = Sim([list(h) for h in hands], seat, top, top_seat, list(view.get("finished") or ()),
                      list(view.get("played") or ()), view["level"], rules, parsed)
            sim.passes = _passes_so_far(view)
            sim.apply(seat, action)
            steps = 0
            while not sim.over() and steps < max_steps:
                s = sim.turn
                sim.apply(s, policy(sim.view(s)))
                steps += 1
            scores[k].append(sim.score(team))
    return scores


def compare(base: list[int], other: list[int]) -> tuple[float, float]:
    """Mean and standard error of ``other - base`` over the same sampled deals."""
    n = len(base)
    d = [o - b for b, o in zip(base, other, strict=True)]
    mean = sum(d) / n
    if n < 2:
        return mean, float("inf")
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, (var / n) ** 0.5


def _passes_so_far(view: View) -> int:
    """Passes since the top play, as far as the view tells (the seats between the top play and us)."""
    top = view.get("top")
    if not top:
        return 0
    counts = view["counts"]
    seat = view["seat"]
    n = 0
    s = (top["seat"] + 1) % 4
    while s != seat:
        if counts[s]:
            n += 1
        s = (s + 1) % 4
    return n


__all__ = ["Sim", "compare", "deal_score", "evaluate", "sample_hands", "view_seed"]
