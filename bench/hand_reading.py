"""Sampled deals weighted by how well they explain what the other seats did: a read of the hidden hands.

Research for the strong bot (``bench/strong_candidates.py --estimate search-read``), not part of it.
Each of ``particles`` uniformly sampled deals (``sampler.Constraints``) is turned back into the hands
of the deal's first lead (a seat's sampled hand plus what it has played since), and the deal so far is
replayed on them: at every action of another seat the fast policy (``rollout.FastDeal``, the heuristic's
rules of thumb) says what that seat would have done with that hand; each action it does not predict
(kind, value and size; a pass) multiplies the deal's weight by ``miss``. The search then plays out
deals resampled in proportion to the weights. Against the heuristic, whose habits the fast policy
copies, this is the likelihood the issue asked about; it costs a replay of the deal per particle (far
over a decision's time budget as written: a measurement of what such a read is worth, first).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.bots.base import Action, View
from engine.bots.hand import tier_of
from engine.bots.rollout import FastDeal, P
from engine.bots.sampler import Constraints


@dataclass
class Story:
    """One deal's play so far, as the table saw it: the hands at the first lead (only this seat's is
    used), who led first, and every action since in order."""

    start: list[list[int]]
    first: int
    actions: list[tuple[int, Action]] = field(default_factory=list)


def predicted(p: P | None, action: Action) -> bool:
    if action["type"] == "pass":
        return p is None
    return p is not None and p.kind == action["kind"] and p.value == action["value"] and p.size == len(
        action["cards"])


def misses(start: list[list[int]], story: Story, level: int, seat: int) -> int:
    """Actions of the other seats the fast policy does not predict on these starting hands."""
    d = FastDeal([list(h) for h in start], level, story.first, None, None, 0, [])
    for s in range(4):
        if d.n[s]:
            d.plan(s)
    n = 0
    for s, a in story.actions:
        d.turn = s
        if s != seat:
            if d.top is None:
                p: P | None = d.lead(s)[0]
            else:
                got = d.follow(s)
                p = None if got is None else got[0]
            n += not predicted(p, a)
        if a["type"] == "pass":
            d.do_pass(s)
            continue
        cards = [int(c) for c in a["cards"]]
        d.remove_cards(s, cards)
        if d.n[s]:
            d.replan(s)
        size = len(cards)
        d.after_play(s, P(a["kind"], a["value"], size, tier_of(a["kind"], size), (), 0, 0, 0, 0.0))
    return n


class ReadDeals(Constraints):
    """Deals of the hidden cards resampled by their weight (``sample`` hands them out in turn)."""

    def __init__(self, view: View, unseen: list[int], story: Story, rng: random.Random, *,
                 particles: int = 60, keep: int = 16, miss: float = 0.3) -> None:
        super().__init__(view, unseen)
        seat = view["seat"]
        hand = [int(c) for c in view["hand"]]
        played: list[list[int]] = [[], [], [], []]
        for s, a in story.actions:
            if a["type"] == "play":
                played[s].extend(int(c) for c in a["cards"])
        weighted = []
        for _ in range(particles):
            deal = super().sample(hand, rng)
            start = [list(story.start[s]) if s == seat else deal[s] + played[s] for s in range(4)]
            weighted.append((miss ** misses(start, story, view["level"], seat), deal))
        total = sum(w for w, _ in weighted)
        self.ess = total * total / sum(w * w for w, _ in weighted)
        self.deals: list[list[list[int]]] = []
        step = total / keep
        u = rng.random() * step
        acc = 0.0
        for w, deal in weighted:  # systematic resampling
            acc += w
            while u < acc and len(self.deals) < keep:
                self.deals.append(deal)
                u += step
        self.next = 0

    def sample(self, hand: list[int], rng: random.Random) -> list[list[int]]:
        deal = self.deals[self.next % len(self.deals)]
        self.next += 1
        return [list(h) for h in deal]


__all__ = ["ReadDeals", "Story", "misses"]
