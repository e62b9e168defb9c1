"""The 2020 Guandan AI competition's action format (COMPETITION_PROTOCOL.md), as pure functions.

Third-party bots pick an index into ``actionList`` and several find their chosen play by exact
list equality, so the card order inside an action and the list's order are part of the format:
hand cards by rank (2…A, then the level rank, then SB, HR), suits S H C D within a rank; inside an
action the wild hearts go last among same-rank cards, a full house's triple before its pair, and
sequences in natural rank order with each wild card at the position of the rank it stands for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .cards import NAMES, RANK_CHARS, RANK_OF, card_code, parse_card
from .moves import legal_plays
from .plays import (
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
    classify,
    sequence_window,
)
from .rules import Rules

PASS_ACTION = ["PASS", "PASS", "PASS"]
TYPE_NAMES = {
    SINGLE: "Single", PAIR: "Pair", TRIPLE: "Trips", FULL_HOUSE: "ThreeWithTwo", STRAIGHT: "Straight",
    TUBE: "ThreePair", PLATE: "TwoTrips", BOMB: "Bomb", STRAIGHT_FLUSH: "StraightFlush",
    JOKER_BOMB: "Bomb",
}
KIND_OF_TYPE = {v: k for k, v in TYPE_NAMES.items() if k != JOKER_BOMB}
_SEQ_LENGTH = {STRAIGHT: (5, 1), STRAIGHT_FLUSH: (5, 1), TUBE: (3, 2), PLATE: (2, 3)}


def rank_char(rank: int) -> str:
    if rank == 16:
        return "B"
    if rank == 17:
        return "R"
    return RANK_CHARS[rank - 2]


def hand_key(level: int):
    """Sort key of ``handCards``: by rank 2…A, then the level rank, then SB, HR; suits S H C D."""

    def key(c: int) -> tuple[int, int]:
        r = RANK_OF[c]
        return (15 if r == level else r, c)

    return key


def hand_order(cards: Iterable[int], level: int) -> list[str]:
    return [NAMES[c] for c in sorted(cards, key=hand_key(level))]


def _same_rank(codes: list[int], wild: int) -> list[int]:
    return sorted(c for c in codes if c != wild) + [c for c in codes if c == wild]


def action_of(play: Play, level: int) -> list:
    """A play as ``[type, rank, cards]`` in the official card order."""
    kind = play.kind
    codes = list(play.cards)
    wild = card_code(level, 1)
    if kind == JOKER_BOMB:
        return ["Bomb", "JOKER", [NAMES[c] for c in sorted(codes)]]
    if kind in _SEQ_LENGTH:
        length, width = _SEQ_LENGTH[kind]
        window = sequence_window(play.value, length)
        naturals = Counter(c for c in codes if c != wild)
        by_rank: dict[int, list[int]] = {}
        for c in sorted(naturals.elements()):
            by_rank.setdefault(RANK_OF[c], []).append(c)
        ordered: list[int] = []
        for r in window:
            got = by_rank.get(r, [])
            ordered.extend(got + [wild] * (width - len(got)))
        return [TYPE_NAMES[kind], rank_char(window[0]), [NAMES[c] for c in ordered]]
    if kind == FULL_HOUSE:
        triple_rank = _natural_rank_of_value(play.value, level)
        trip = [c for c in codes if c != wild and RANK_OF[c] == triple_rank]
        pair = [c for c in codes if c != wild and RANK_OF[c] != triple_rank]
        n_wild = len(codes) - len(trip) - len(pair)
        to_trip = 3 - len(trip)
        trip = _same_rank(trip + [wild] * to_trip, wild)
        pair = _same_rank(pair + [wild] * (n_wild - to_trip), wild)
        return ["ThreeWithTwo", rank_char(triple_rank), [NAMES[c] for c in trip + pair]]
    rank = _natural_rank_of_value(play.value, level)
    return [TYPE_NAMES[kind], rank_char(rank), [NAMES[c] for c in _same_rank(codes, wild)]]


def _natural_rank_of_value(value: int, level: int) -> int:
    return level if value == 15 else value


def action_list(
    hand: Iterable[int], level: int, top: Play | None = None, rules: Rules | None = None
) -> list[list]:
    """The complete ``actionList``: PASS at index 0 when following, then every legal play."""
    plays = legal_plays(list(hand), level, top, rules)
    actions = [action_of(p, level) for p in plays]
    return ([list(PASS_ACTION)] if top is not None else []) + actions


def play_of_action(action: list, level: int, rules: Rules | None = None) -> Play | None:
    """Read an action back (also the successor's ``FourKings``); None for PASS."""
    if not action or action[0] == "PASS":
        return None
    codes = [parse_card(n) for n in action[2]]
    kind = JOKER_BOMB if action[0] in ("FourKings",) or action[1] == "JOKER" else KIND_OF_TYPE[action[0]]
    for play in classify(codes, level, rules):
        if play.kind == kind and action_of(play, level)[1] == action[1]:
            return play
    raise ValueError(f"{action!r} is not a legal play at level {rank_char(level)}")


__all__ = ["action_of", "action_list", "hand_order", "play_of_action", "rank_char", "PASS_ACTION"]
