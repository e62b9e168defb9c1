"""Play types, their comparison, and recognition of played cards (RULES.md §2–§4).

A ``Play`` is one interpretation of some physical cards: its kind, the value it compares by
and the cards (sorted by code). For rank-ordered kinds (single, pair, triple, full house,
bomb) the value is the rank order of §2 (level rank = 15, small joker 16, big joker 17); for
sequences (straight, tube, plate, straight flush) it is the natural position of the top rank
(A2345 → 5, 10JQKA → 14, AA2233 → 3, AAA222 → 2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .cards import (
    ACE,
    BIG_JOKER,
    BIG_JOKER_RANK,
    CARDS,
    N_CODES,
    NAMES,
    RANK_OF,
    SMALL_JOKER,
    SMALL_JOKER_RANK,
    Card,
    card_code,
    check_copies,
    format_cards,
    parse_card,
    parse_cards,
    rank_name,
    rank_order,
)
from .rules import Rules, resolve_rules

SINGLE = "single"
PAIR = "pair"
TRIPLE = "triple"
FULL_HOUSE = "full_house"
STRAIGHT = "straight"
TUBE = "tube"
PLATE = "plate"
BOMB = "bomb"
STRAIGHT_FLUSH = "straight_flush"
JOKER_BOMB = "joker_bomb"

KINDS = (SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE, BOMB, STRAIGHT_FLUSH, JOKER_BOMB)
ORDINARY_KINDS = (SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE)
SEQUENCE_KINDS = (STRAIGHT, TUBE, PLATE, STRAIGHT_FLUSH)

#: preference between ordinary kinds of equal value when choosing an interpretation (§3)
KIND_PREFERENCE = {PLATE: 6, TUBE: 5, FULL_HOUSE: 4, STRAIGHT: 3, TRIPLE: 2, PAIR: 1, SINGLE: 0}

# The bomb ladder: 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10 < joker bomb; 0 = ordinary.
_BOMB_TIER = {4: 1, 5: 2, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}
STRAIGHT_FLUSH_TIER = 3
JOKER_BOMB_TIER = 9


class Play(NamedTuple):
    """One legal interpretation of a set of physical cards."""

    kind: str
    value: int
    cards: tuple[Card, ...]

    @property
    def tier(self) -> int:
        """Place on the bomb ladder; 0 for ordinary plays."""
        kind = self.kind
        if kind == BOMB:
            return _BOMB_TIER[len(self.cards)]
        if kind == STRAIGHT_FLUSH:
            return STRAIGHT_FLUSH_TIER
        if kind == JOKER_BOMB:
            return JOKER_BOMB_TIER
        return 0

    @property
    def is_bomb(self) -> bool:
        """Bomb class: bombs, straight flushes and the joker bomb."""
        return self.kind in (BOMB, STRAIGHT_FLUSH, JOKER_BOMB)

    @property
    def size(self) -> int:
        return len(self.cards)

    def strength(self) -> tuple[int, int, int]:
        """Sort key, strongest last: bomb tier, value, then the §3 kind preference."""
        return (self.tier, self.value, KIND_PREFERENCE.get(self.kind, 0))

    def describe(self) -> str:
        """Short human name, e.g. ``pair of 8``, ``straight to A``, ``5-card bomb of 3``."""
        v = self.value
        if self.kind in SEQUENCE_KINDS:
            top = 1 if v == 1 else v
            return f"{self.kind.replace('_', ' ')} to {rank_name(ACE if top == 1 else top)}"
        if self.kind == JOKER_BOMB:
            return "joker bomb"
        if self.kind == BOMB:
            return f"{len(self.cards)}-card bomb of {_value_name(v, self.cards)}"
        return f"{self.kind.replace('_', ' ')} of {_value_name(v, self.cards)}"

    def __str__(self) -> str:
        return f"{self.describe()} [{format_cards(self.cards)}]"


def _value_name(value: int, cards: tuple[Card, ...]) -> str:
    if value == SMALL_JOKER_RANK:
        return "small jokers"
    if value == BIG_JOKER_RANK:
        return "big jokers"
    if value == 15:  # level rank
        return "level rank"
    return rank_name(value)


def beats(play: Play, top: Play | None) -> bool:
    """Whether ``play`` may be played on ``top`` (RULES.md §4). Any legal play may lead."""
    if top is None:
        return True
    pt = play.tier
    tt = top.tier
    if pt:
        if not tt:
            return True
        return pt > tt or (pt == tt and play.value > top.value)
    return (
        not tt
        and play.kind == top.kind
        and len(play.cards) == len(top.cards)
        and play.value > top.value
    )


def sequence_window(top: int, length: int) -> tuple[int, ...]:
    """Ranks of a sequence by natural position; position 1 is the low A."""
    return tuple(ACE if p == 1 else p for p in range(top - length + 1, top + 1))


def _as_codes(cards: Iterable[int] | str) -> list[int]:
    if isinstance(cards, str):
        return parse_cards(cards)
    codes: list[int] = []
    for c in cards:
        if isinstance(c, str):
            codes.append(parse_card(c))  # one card per item: "S9 D9" as one item is refused
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < N_CODES:
            codes.append(c)
        else:
            raise ValueError(f"unknown card {c!r}")
    if not codes:
        raise ValueError("no cards given")
    check_copies(codes)
    return codes


def normalize_level(level: int | str) -> int:
    from .cards import parse_rank

    return parse_rank(level)


def classify(cards: Iterable[int] | str, level: int | str, rules: Rules | str | None = None) -> list[Play]:
    """Every legal interpretation of playing exactly these cards, strongest first; [] if none."""
    codes = _as_codes(cards)
    level = normalize_level(level)
    rules = resolve_rules(rules)
    wild = card_code(level, 1)
    n = len(codes)
    key = tuple(sorted(CARDS[c] for c in codes))
    w = 0
    sb = hr = 0
    nat: dict[int, int] = {}
    suits: set[int] = set()
    for c in codes:
        if c == wild:
            w += 1
        elif c == SMALL_JOKER:
            sb += 1
        elif c == BIG_JOKER:
            hr += 1
        else:
            r = RANK_OF[c]
            nat[r] = nat.get(r, 0) + 1
            suits.add(c & 3)
    jokers = sb + hr
    out: list[Play] = []

    if n == 1:
        c = codes[0]
        r = RANK_OF[c] if c != wild else level
        out.append(Play(SINGLE, r if r > ACE else rank_order(r, level), key))
        return out
    if n == 4 and sb == 2 and hr == 2:
        return [Play(JOKER_BOMB, BIG_JOKER_RANK, key)]
    if jokers:
        if n == 2 and (sb == 2 or hr == 2):
            out.append(Play(PAIR, SMALL_JOKER_RANK if sb == 2 else BIG_JOKER_RANK, key))
        elif (
            n == 5 and rules.joker_pair_in_full_house and (sb == 2) != (hr == 2) and jokers == 2
            and len(nat) <= 1 and sum(nat.values()) + w == 3
        ):
            r = next(iter(nat)) if nat else level
            out.append(Play(FULL_HOUSE, rank_order(r, level), key))
        return out

    # From here on: natural cards of ranks 2..A plus up to two wild cards.
    if len(nat) <= 1:
        r = next(iter(nat)) if nat else level
        value = rank_order(r, level)
        if n == 2:
            out.append(Play(PAIR, value, key))
        elif n == 3:
            out.append(Play(TRIPLE, value, key))
        elif 4 <= n <= 10:
            out.append(Play(BOMB, value, key))
    if n == 5:
        _classify_full_house(nat, w, level, key, out)
        _classify_sequences(nat, 5, 1, key, out, STRAIGHT)
        if len(suits) == 1:
            _classify_sequences(nat, 5, 1, key, out, STRAIGHT_FLUSH)
            if w == 0:  # five natural same-suit consecutive cards are a straight flush only
                out = [p for p in out if p.kind != STRAIGHT]
    elif n == 6:
        _classify_sequences(nat, 3, 2, key, out, TUBE)
        _classify_sequences(nat, 2, 3, key, out, PLATE)
    out.sort(key=Play.strength, reverse=True)
    return out


def _classify_full_house(nat: dict[int, int], w: int, level: int, key: tuple, out: list[Play]) -> None:
    ranks = list(nat)
    if len(ranks) == 1:
        (r,) = ranks
        if nat[r] == 3 and w == 2:  # two wild cards as the pair
            out.append(Play(FULL_HOUSE, rank_order(r, level), key))
        return
    if len(ranks) != 2:
        return
    # With wild cards either rank may be the triple (99+JJ+wild): both readings are legal (RULES.md §3,
    # "every legal interpretation"), as a straight's lower one is; the higher is the default.
    for t, p in ((ranks[0], ranks[1]), (ranks[1], ranks[0])):
        if nat[t] <= 3 and nat[p] <= 2 and (3 - nat[t]) + (2 - nat[p]) == w:
            out.append(Play(FULL_HOUSE, rank_order(t, level), key))


def _classify_sequences(
    nat: dict[int, int], length: int, width: int, key: tuple, out: list[Play], kind: str
) -> None:
    if any(k > width for k in nat.values()):
        return
    for top in range(length, ACE + 1):
        window = sequence_window(top, length)
        if all(r in window for r in nat):
            out.append(Play(kind, top, key))


def as_play(
    top: Play | Iterable[int] | str | None, level: int, rules: Rules | str | None = None
) -> Play | None:
    """Accept a table play given as a Play or as its cards (then its strongest interpretation)."""
    if top is None or isinstance(top, Play):
        return top
    plays = classify(top, level, rules)
    if not plays:
        raise ValueError(f"{format_cards(_as_codes(top))} is not a legal play")
    return plays[0]


def play_from_text(text: str, level: int | str, rules: Rules | None = None) -> Play:
    """The default interpretation of some cards (a convenience for tests and tools)."""
    plays = classify(text, level, rules)
    if not plays:
        raise ValueError(f"{text} is not a legal play")
    return plays[0]


__all__ = [
    "Play", "beats", "classify", "KINDS", "ORDINARY_KINDS", "SEQUENCE_KINDS", "NAMES",
    "play_from_text", "sequence_window", "normalize_level",
]
