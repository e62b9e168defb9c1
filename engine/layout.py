"""A play's cards in the order it reads, and the rank each card stands for (RULES.md §2–§3).

The engine keeps a play's cards sorted by code, so a straight with a wild card reads ``♥2 5 6 7 8``
and a full house pair first. At the table a play is laid out as it is read: sequences from their low
end, a full house triple first, each wild card at the place it fills. The interpretation (kind and
value) decides the layout: ``x5678`` read as 45678 puts the wild card first, read as 56789 last.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import HEARTS, RANK_OF, card_code
from .plays import FULL_HOUSE, JOKER_BOMB, PLATE, SINGLE, STRAIGHT, STRAIGHT_FLUSH, TUBE, sequence_window

LEVEL_VALUE = 15  # a same-rank play's value when its rank is the level rank
#: sequence kinds: (length of the window of ranks, cards of each rank)
_SEQUENCES = {STRAIGHT: (5, 1), STRAIGHT_FLUSH: (5, 1), TUBE: (3, 2), PLATE: (2, 3)}


def lay_out(kind: str, value: int, cards: Sequence[int], level: int) -> tuple[list[int], list[int]]:
    """``(cards in reading order, the rank each stands for)``; ranks 2..14, 16/17 for jokers.

    ``kind``/``value`` must be a reading of ``cards`` at ``level`` (``engine.classify``); a natural
    card always stands for its own rank, a wild card for the rank whose place it fills.
    """
    wild = card_code(level, HEARTS)
    wilds = [c for c in cards if c == wild]
    naturals = sorted(c for c in cards if c != wild)
    if kind == SINGLE:
        card = cards[0]
        return [card], [level if card == wild else RANK_OF[card]]
    if kind in _SEQUENCES:
        length, width = _SEQUENCES[kind]
        return _fill(sequence_window(value, length), width, naturals, wilds, level)
    if kind == FULL_HOUSE:
        return _full_house(value, naturals, wilds, level)
    if kind == JOKER_BOMB:
        return naturals, [RANK_OF[c] for c in naturals]
    # pairs, triples and bombs: one rank (a joker pair's value is its joker rank)
    rank = level if value == LEVEL_VALUE else value
    return naturals + wilds, [rank] * len(cards)


def _fill(
    window: tuple[int, ...], width: int, naturals: list[int], wilds: list[int], level: int
) -> tuple[list[int], list[int]]:
    """Each rank of the window ``width`` times, natural cards first; wild cards fill the gaps (a
    wild card takes its own rank's gap first, where it stands for itself)."""
    by_rank: dict[int, list[int]] = {}
    for c in naturals:
        by_rank.setdefault(RANK_OF[c], []).append(c)
    placed = {r: by_rank.get(r, []) for r in window}
    spare = list(wilds)
    for r in sorted(window, key=lambda r: r != level):  # the level rank's gap first
        take = width - len(placed[r])
        placed[r] = placed[r] + spare[:take]
        spare = spare[take:]
    out: list[int] = []
    ranks: list[int] = []
    for r in window:
        out.extend(placed[r])
        ranks.extend([r] * len(placed[r]))
    return out, ranks


def _full_house(value: int, naturals: list[int], wilds: list[int], level: int) -> tuple[list[int], list[int]]:
    """Triple first, then the pair; wild cards complete the triple first (its rank is the value)."""
    triple_rank = level if value == LEVEL_VALUE else value
    triple = [c for c in naturals if RANK_OF[c] == triple_rank][:3]
    rest = _minus(naturals, triple)
    need = 3 - len(triple)
    triple += wilds[:need]
    pair = rest + wilds[need:]
    pair_rank = RANK_OF[rest[0]] if rest else level
    return triple + pair, [triple_rank] * 3 + [pair_rank] * len(pair)


def _minus(cards: list[int], taken: list[int]) -> list[int]:
    left = list(cards)
    for c in taken:
        left.remove(c)
    return left


__all__ = ["lay_out"]
