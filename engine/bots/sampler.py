"""Determinizations: the hidden hands dealt at random, consistent with everything one seat has seen.

A seat sees its own hand, the cards played (``view["played"]``), every hand's card count, and the
tribute: which card each giver gave to whom and which card came back (RULES.md §7; public at a real
table). So the unseen cards (``Memory.unseen``) are dealt to the other seats with their counts, and:

- a tribute card is still in its receiver's hand, and a returned card in its giver's hand, while no
  copy of that card has been played (once one has, who played it is unknown: no constraint);
- a tribute giver gave its highest card (the wild card aside), so it held nothing higher: only the
  cards it got back (forced above) and wild cards may rank above its tribute card;
- a refused tribute (抗贡) means the givers held both big jokers: the unplayed ones are theirs.

The view says nothing more about who holds what, so within these constraints every deal is equally
likely; sampling is seeded by the caller, so a decision is reproducible.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import BIG_JOKER, SMALL_JOKER, card_code

View = dict[str, Any]


def _order(code: int, level: int) -> int:
    if code == SMALL_JOKER:
        return 16
    if code == BIG_JOKER:
        return 17
    r = (code >> 2) + 2
    return 15 if r == level else r


class Constraints:
    """What the view pins down about the hidden hands: cards known to be in a hand, and cards a hand
    cannot hold (``allowed[code]`` = the seats that may hold a copy; None = any other seat)."""

    __slots__ = ("seat", "unseen", "counts", "forced", "allowed")

    def __init__(self, view: View, unseen: list[int]) -> None:
        seat = view["seat"]
        level = view["level"]
        self.seat = seat
        self.unseen = list(unseen)
        self.counts = list(view["counts"])
        self.forced: list[list[int]] = [[], [], [], []]
        self.allowed: dict[int, set[int]] = {}
        played = [0] * 54
        for c in view.get("played") or ():
            played[int(c)] += 1
        t = view.get("tribute")
        if not t:
            return
        held: list[dict[int, int]] = [{}, {}, {}, {}]  # cards received, by seat
        for g in t.get("gifts") or ():
            c = int(g["card"])
            held[g["to"]][c] = held[g["to"]].get(c, 0) + 1
        for r in t.get("returns") or ():
            c = int(r["card"])
            got = held[r["from"]]
            if got.get(c):
                got[c] -= 1
            held[r["to"]][c] = held[r["to"]].get(c, 0) + 1
        left = list(self.unseen)
        for s in range(4):
            if s == seat:
                continue
            for c, k in held[s].items():
                if played[c]:
                    continue  # a copy was played, perhaps this one
                k = min(k, left[c])
                self.forced[s].extend([c] * k)
                left[c] -= k
        wild = card_code(level, 1)
        givers = [s for s in t.get("givers") or () if s != seat]
        if t.get("refused"):
            if givers:
                self.allowed[BIG_JOKER] = set(givers)
            return
        for g in t.get("gifts") or ():
            giver = g["from"]
            if giver == seat:
                continue
            top = _order(int(g["card"]), level)
            for c in range(54):
                if c != wild and _order(c, level) > top:
                    self.allowed.setdefault(c, {0, 1, 2, 3} - {seat}).discard(giver)

    def sample(self, hand: list[int], rng: random.Random) -> list[list[int]]:
        """One deal of the hidden cards: four hands, this seat's own as it is."""
        seat = self.seat
        hands: list[list[int]] = [[], [], [], []]
        hands[seat] = sorted(hand)
        room = [0 if s == seat else self.counts[s] for s in range(4)]
        left = list(self.unseen)
        for s in range(4):
            for c in self.forced[s]:
                if room[s] > 0 and left[c] > 0:
                    hands[s].append(c)
                    room[s] -= 1
                    left[c] -= 1
        # Restricted cards first (fewest seats allowed first), each to an allowed seat with room,
        # chosen in proportion to room (a uniform deal of the remaining places).
        free: list[int] = []
        restricted: list[tuple[int, int]] = []
        for c in range(54):
            for _ in range(left[c]):
                if c in self.allowed:
                    restricted.append((len(self.allowed[c]), c))
                else:
                    free.append(c)
        rng.shuffle(restricted)
        restricted.sort(key=lambda x: x[0])
        for _, c in restricted:
            seats = sorted(s for s in self.allowed[c] if room[s] > 0)
            if not seats:  # an inconsistent view: place it anywhere rather than fail
                free.append(c)
                continue
            x = rng.randrange(sum(room[s] for s in seats))
            for s in seats:
                x -= room[s]
                if x < 0:
                    break
            hands[s].append(c)
            room[s] -= 1
        rng.shuffle(free)
        i = 0
        for s in range(4):
            if s != seat and room[s] > 0:
                hands[s].extend(free[i:i + room[s]])
                i += room[s]
                room[s] = 0
        return hands


__all__ = ["Constraints"]
