"""Plays and cards in the words a player uses at the table, for the bots' reasons.

A play is named by the ranks it stands for, as players say them: ``88`` (a pair of 8s),
``34567``, ``99955``, ``10 J Q K A`` (spaced once a 10 is in it), ``the big joker``. The rank a
wild card stands for is part of the name (a wild card with 88 is ``888``).
"""

from __future__ import annotations

from collections import Counter

from ..cards import ACE, BIG_JOKER, NAMES, SMALL_JOKER, card_code
from ..plays import (
    BOMB,
    FULL_HOUSE,
    JOKER_BOMB,
    PAIR,
    PLATE,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    TUBE,
    Play,
)

LEVEL_VALUE = 15
_RANK = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
_SUIT = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
_KIND = {
    SINGLE: "single", PAIR: "pair", TRIPLE: "triple", FULL_HOUSE: "full house", STRAIGHT: "straight",
    TUBE: "tube", PLATE: "plate", BOMB: "bomb", STRAIGHT_FLUSH: "straight flush", JOKER_BOMB: "joker bomb",
}


def cards(n: int) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} card" if n == 1 else f"{n} cards"


def plays(n: int) -> str:
    return f"{n} play" if n == 1 else f"{n} plays"


def kind_name(kind: str) -> str:
    return _KIND.get(kind, kind.replace("_", " "))


def _ranks(ranks: list[int]) -> str:
    texts = [_RANK[r] for r in ranks]
    return (" " if "10" in texts else "").join(texts)


def _rank_of(value: int, level: int) -> int:
    return level if value == LEVEL_VALUE else value


def _sequence(top: int, length: int) -> list[int]:
    """Ranks of a sequence from its natural top position (a top of 5 or less starts from a low A)."""
    return [ACE if q == 1 else q for q in range(top - length + 1, top + 1)]


def play_name(play: Play, level: int) -> str:
    """A play as players say it: ``88``, ``34567``, ``10 10 10 4 4``, ``the two big jokers``."""
    kind, v, n = play.kind, play.value, len(play.cards)
    if kind == JOKER_BOMB:
        return "the four jokers"
    if v in (16, 17) and kind in (SINGLE, PAIR):
        joker = "small" if v == 16 else "big"
        return f"the {joker} joker" if kind == SINGLE else f"the two {joker} jokers"
    if kind in (SINGLE, PAIR, TRIPLE, BOMB):
        return _ranks([_rank_of(v, level)] * n)
    if kind == STRAIGHT:
        return _ranks(_sequence(v, 5))
    if kind == STRAIGHT_FLUSH:
        return "straight flush " + _ranks(_sequence(v, 5))
    if kind == TUBE:
        return _ranks([r for r in _sequence(v, 3) for _ in range(2)])
    if kind == PLATE:
        return _ranks([r for r in _sequence(v, 2) for _ in range(3)])
    if kind == FULL_HOUSE:
        triple = _rank_of(v, level)
        wild = card_code(level, 1)
        natural = Counter((c >> 2) + 2 for c in play.cards if c != wild and c < SMALL_JOKER)
        others = [r for r in natural if r != triple]
        jokers = [c for c in play.cards if c >= SMALL_JOKER]
        if jokers:  # a joker pair as the pair (a rule option)
            return _ranks([triple] * 3) + " + " + ("the two big jokers" if jokers[0] == BIG_JOKER
                                                   else "the two small jokers")
        pair = others[0] if others else level
        return _ranks([triple] * 3 + [pair] * 2)
    return NAMES[play.cards[0]] if play.cards else kind


def card_name(code: int) -> str:
    """One physical card with its suit: ``♦10``, ``♠A``, ``the small joker``."""
    if code == SMALL_JOKER:
        return "the small joker"
    if code == BIG_JOKER:
        return "the big joker"
    name = NAMES[code]
    return _SUIT[name[0]] + _RANK[(code >> 2) + 2]


__all__ = ["cards", "plays", "kind_name", "play_name", "card_name"]
