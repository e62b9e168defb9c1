"""Plays and cards in the words a player uses at the table, in English and Chinese, for the bots' reasons.

A play is named by the ranks it stands for, as players say them: ``88`` (a pair of 8s),
``34567``, ``99955``, ``10 J Q K A`` (spaced once a 10 is in it), ``the big joker`` (``大王``). The
rank a wild card stands for is part of the name (a wild card with 88 is ``888``). Ranks read the same
in both languages; jokers, straight flushes and counts are said in each language's own words.

A reason is composed once from ``Said`` pairs, each template written in both languages side by side,
so the Chinese can never say less (or something else) than the English.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

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
_KIND_ZH = {
    SINGLE: "单张", PAIR: "对子", TRIPLE: "三张", FULL_HOUSE: "三带二", STRAIGHT: "顺子",
    TUBE: "三连对", PLATE: "钢板", BOMB: "炸弹", STRAIGHT_FLUSH: "同花顺", JOKER_BOMB: "四大天王",
}
#: a joker single and a joker pair, by compared value (16 small, 17 big), in each language
_JOKERS = {
    16: ("the small joker", "the two small jokers", "小王", "一对小王"),
    17: ("the big joker", "the two big jokers", "大王", "一对大王"),
}


class Said(NamedTuple):
    """The same words in English and Chinese; reasons are built from these so both languages agree."""

    en: str
    zh: str

    def fill(self, /, **parts: Said | str | int | float) -> Said:
        """Both templates filled in: a ``Said`` part gives each language its own words, anything
        else (a number, a play's ranks) reads the same in both."""
        en = {k: v.en if isinstance(v, Said) else v for k, v in parts.items()}
        zh = {k: v.zh if isinstance(v, Said) else v for k, v in parts.items()}
        return Said(self.en.format(**en), self.zh.format(**zh))

    def then(self, more: Said) -> Said:
        """This followed by ``more`` in each language (templates stay templates)."""
        return Said(self.en + more.en, self.zh + more.zh)

    def join(self, items: list[Said]) -> Said:
        """The items with this as the separator in each language (``Said(" or ", "或")``)."""
        return Said(self.en.join(i.en for i in items), self.zh.join(i.zh for i in items))


#: nothing said (the look-ahead's own players name no plays)
SILENT = Said("", "")


def cards(n: int) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} card" if n == 1 else f"{n} cards"


def cards_zh(n: int) -> str:
    """``1张牌``, ``3张牌``."""
    return f"{n}张牌"


def plays(n: int) -> str:
    return f"{n} play" if n == 1 else f"{n} plays"


def plays_zh(n: int) -> str:
    """``3手``: the plays still needed to go out."""
    return f"{n}手"


def kind_name(kind: str) -> str:
    return _KIND.get(kind, kind.replace("_", " "))


def kind_name_zh(kind: str) -> str:
    """The kind as players call it: ``对子``, ``三连对``, ``钢板``."""
    return _KIND_ZH.get(kind, kind)


def n_cards(n: int) -> Said:
    """A card count in both languages, for a reason to fill in."""
    return Said(cards(n), cards_zh(n))


def kind_words(kind: str) -> Said:
    """A kind of play in both languages, for a reason to fill in."""
    return Said(kind_name(kind), kind_name_zh(kind))


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
    return _play_name(play, level, zh=False)


def play_name_zh(play: Play, level: int) -> str:
    """A play as Chinese players write it: ``88``, ``34567``, ``一对大王``, ``同花顺 34567``, ``四大天王``."""
    return _play_name(play, level, zh=True)


def play_words(play: Play, level: int) -> Said:
    """A play in both languages, for a reason to fill in."""
    return Said(play_name(play, level), play_name_zh(play, level))


def _play_name(play: Play, level: int, zh: bool) -> str:
    """One naming for both languages: they differ only in jokers and the straight flush's label."""
    kind, v, n = play.kind, play.value, len(play.cards)
    if kind == JOKER_BOMB:
        return "四大天王" if zh else "the four jokers"
    if v in (16, 17) and kind in (SINGLE, PAIR):
        return _JOKERS[v][(2 if zh else 0) + (kind == PAIR)]
    if kind in (SINGLE, PAIR, TRIPLE, BOMB):
        return _ranks([_rank_of(v, level)] * n)
    if kind == STRAIGHT:
        return _ranks(_sequence(v, 5))
    if kind == STRAIGHT_FLUSH:
        return ("同花顺 " if zh else "straight flush ") + _ranks(_sequence(v, 5))
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
            pair_name = _JOKERS[17 if jokers[0] == BIG_JOKER else 16][3 if zh else 1]
            return _ranks([triple] * 3) + ("带" if zh else " + ") + pair_name
        pair = others[0] if others else level
        return _ranks([triple] * 3 + [pair] * 2)
    return NAMES[play.cards[0]] if play.cards else kind


def card_name(code: int) -> str:
    """One physical card with its suit: ``♦10``, ``♠A``, ``the small joker``."""
    if code >= SMALL_JOKER:
        return _JOKERS[16 if code == SMALL_JOKER else 17][0]
    name = NAMES[code]
    return _SUIT[name[0]] + _RANK[(code >> 2) + 2]


def card_name_zh(code: int) -> str:
    """``♦10``, ``♠A``, ``小王``: suits read the same in both languages, jokers do not."""
    if code >= SMALL_JOKER:
        return _JOKERS[16 if code == SMALL_JOKER else 17][2]
    return card_name(code)


def card_words(code: int) -> Said:
    """One card in both languages, for a reason to fill in."""
    return Said(card_name(code), card_name_zh(code))


__all__ = [
    "Said", "SILENT", "cards", "plays", "kind_name", "play_name", "card_name",
    "cards_zh", "plays_zh", "kind_name_zh", "play_name_zh", "card_name_zh",
    "n_cards", "kind_words", "play_words", "card_words",
]
