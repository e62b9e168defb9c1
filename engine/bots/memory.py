"""Card memory: what is still out (in the other three hands), rebuilt from one seat's view.

Everything a player at the table could count: the cards played this deal (``view["played"]``)
and one's own hand. The rest of the 108 cards are "out". A bot asks it whether a play of its
own can still be beaten by an ordinary play of the same kind, how many jokers and wild cards are
out, and how many same-rank bombs the others could still hold.
"""

from __future__ import annotations

from ..cards import BIG_JOKER, SMALL_JOKER, card_code
from ..moves import Shape
from ..plays import FULL_HOUSE, PAIR, PLATE, SINGLE, STRAIGHT, TRIPLE, TUBE

LEVEL_VALUE = 15


class Memory:
    """Unseen cards of one deal from one seat's point of view."""

    __slots__ = ("level", "unseen", "wilds_out", "by_value")

    def __init__(self, hand: list[int], played: list[int], level: int) -> None:
        self.level = level
        unseen = [2] * 54
        for c in played:
            unseen[c] -= 1
        for c in hand:
            unseen[c] -= 1
        if min(unseen) < 0:  # an inconsistent view: never count below zero
            unseen = [max(0, n) for n in unseen]
        self.unseen = unseen
        wild = card_code(level, 1)
        self.wilds_out = unseen[wild]
        # natural cards out by compared value (level rank = 15, jokers 16/17); wild cards apart
        by_value = [0] * 18
        for r in range(2, 15):
            b = (r - 2) * 4
            n = unseen[b] + unseen[b + 1] + unseen[b + 2] + unseen[b + 3]
            if r == level:
                by_value[LEVEL_VALUE] = n - self.wilds_out
            else:
                by_value[r] = n
        by_value[16] = unseen[SMALL_JOKER]
        by_value[17] = unseen[BIG_JOKER]
        self.by_value = by_value

    @property
    def jokers_out(self) -> int:
        return self.by_value[16] + self.by_value[17]

    @property
    def level_cards_out(self) -> int:
        return self.by_value[LEVEL_VALUE] + self.wilds_out

    def higher_set_out(self, value: int, width: int) -> bool:
        """Could someone else hold ``width`` cards of one rank above ``value`` (wild cards help)?"""
        for v in range(value + 1, 18):
            n = self.by_value[v]
            if v <= LEVEL_VALUE:
                n += self.wilds_out
            if n >= width and (v < 16 or width <= 2):
                return True
        return False

    def bombs_out(self) -> int:
        """Ranks of which the others may still hold four or more (a rough bomb count)."""
        return sum(1 for v in range(2, 16) if self.by_value[v] + self.wilds_out >= 4) + (
            1 if self.jokers_out == 4 else 0
        )

    def is_boss(self, s: Shape) -> bool:
        """No ordinary play of the same kind can beat this one (bombs aside)."""
        kind = s.kind
        if kind == SINGLE:
            return not self.higher_set_out(s.value, 1)
        if kind == PAIR:
            return not self.higher_set_out(s.value, 2)
        if kind in (TRIPLE, FULL_HOUSE):
            return not self.higher_set_out(s.value, 3)
        if kind == STRAIGHT:
            return s.value >= 14
        if kind in (TUBE, PLATE):
            return s.value >= 13
        return False
