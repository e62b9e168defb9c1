"""The card counter (记牌器), a room option: per rank, how many cards this seat has not seen yet.

Computed from the seat's own view only (its hand and the cards played this deal), never from the
game's hidden state, so it tells a player nothing a perfect memory would not: these cards are in the
other three hands. Two decks: eight of each rank; the level rank's cards are counted apart from the
rest (``level``: the six of spades, clubs and diamonds; ``wild``: the two hearts, 逢人配), and the jokers
apart from each other. Keys are strings (a view is a string-keyed map: diffs then send only the
numbers that changed).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

SMALL_JOKER, BIG_JOKER = 52, 53
HEARTS = 1


def bucket(card: int, level: int) -> str:
    """The counter's key for a card: its rank ("2".."14"), or "level", "wild", "small_joker", "big_joker"."""
    if card == SMALL_JOKER:
        return "small_joker"
    if card == BIG_JOKER:
        return "big_joker"
    rank = (card >> 2) + 2
    if rank != level:
        return str(rank)
    return "wild" if card & 3 == HEARTS else "level"


def full_counts(level: int) -> dict[str, int]:
    """How many of each key the two decks hold (108 cards in all)."""
    counts = {str(rank): 8 for rank in range(2, 15) if rank != level}
    counts.update(level=6, wild=2, small_joker=2, big_joker=2)
    return counts


def unseen(view: dict[str, Any]) -> dict[str, int]:
    """Per key, the cards neither in this seat's hand nor played this deal (a seated view's, never a
    spectator's)."""
    level = view["level"]
    seen = Counter(bucket(c, level) for c in (*view["hand"], *view["played"]))
    return {key: total - seen[key] for key, total in full_counts(level).items()}
