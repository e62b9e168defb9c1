"""Tribute (进贡), return (还贡) and refusal (抗贡) between deals (RULES.md §7, seed 000 §18–§22).

Pure functions of plain data: who gives which card to whom, whether the tribute is refused, who
leads once returns are done, and which cards a receiver may return.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .cards import BIG_JOKER, N_CODES, RANK_OF, card_code, parse_card, parse_rank, rank_order
from .levels import check_places, partner_of
from .rules import RETURN_ANY, RETURN_TEN_OR_LOWER_ANY_RANK, Rules, resolve_rules

SINGLE = "single"
DOUBLE = "double"


class Gift(NamedTuple):
    """One tribute card (or one returned card): ``giver`` gives ``card`` to ``receiver``."""

    giver: int
    receiver: int
    card: int

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, str):
            return self.to_dict()[key]
        return tuple.__getitem__(self, key)

    def to_dict(self) -> dict[str, int]:
        return {"from": self.giver, "to": self.receiver, "card": self.card}

    def __eq__(self, other: object) -> bool:  # also equal to its dict form {"from", "to", "card"}
        if isinstance(other, dict):
            return self.to_dict() == other
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = tuple.__hash__


class TributePlan(NamedTuple):
    """What happens before a deal (from the second deal on).

    ``kind``: "single" or "double"; ``givers``: the seats that owe tribute (4th, or 3rd and 4th);
    ``gifts``: the tribute cards, [] when refused; ``refused``: refusal (抗贡); ``leader``: who leads
    the deal once every return is done.
    """

    kind: str
    givers: list[int]
    gifts: list[Gift]
    refused: bool
    leader: int

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, str):
            return getattr(self, key)
        return tuple.__getitem__(self, key)

    @property
    def receivers(self) -> list[int]:
        return [g.receiver for g in self.gifts]

    @property
    def single(self) -> bool:
        return self.kind == SINGLE

    @property
    def double(self) -> bool:
        return self.kind == DOUBLE

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "givers": list(self.givers),
            "gifts": [g.to_dict() for g in self.gifts],
            "refused": self.refused,
            "leader": self.leader,
        }


def _codes(cards: Iterable[int | str]) -> list[int]:
    out = []
    for c in cards:
        if isinstance(c, str):
            out.append(int(parse_card(c)))
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < N_CODES:
            out.append(int(c))
        else:
            raise ValueError(f"unknown card {c!r}")
    return out


def card_order(code: int, level: int) -> int:
    """Size of one card for tribute and return (§2): big joker > small joker > level rank > A > … > 2."""
    return rank_order(RANK_OF[code], level)


def tribute_card(hand: Iterable[int | str], level: int) -> int:
    """The card a giver must hand over: the highest card, hearts level cards excluded; suits don't matter
    (among equal ranks the highest code is taken, so the choice is deterministic)."""
    level = parse_rank(level)
    wild = card_code(level, 1)
    best = -1
    best_key = (-1, -1)
    for c in _codes(hand):
        if c == wild:
            continue
        key = (card_order(c, level), c)
        if key > best_key:
            best, best_key = c, key
    if best < 0:
        raise ValueError("a giver needs a card other than the hearts level cards")
    return best


def tribute_plan(
    places: Sequence[int],
    hands: Mapping[int, Iterable[int | str]] | Sequence[Iterable[int | str]],
    level: int,
    rules: Rules | str | dict | None = None,
) -> TributePlan:
    """Plan the tribute of a new deal from the previous deal's ``places`` (seats 1st..4th) and the new
    deal's dealt ``hands`` (seat → cards), at the new deal's ``level``.

    Single tribute (the previous 1st's partner was not 2nd): the 4th gives to the 1st, even when the 4th
    is the 1st's partner. Double (1st+2nd of one team): both losers give; the larger card goes to the
    1st, the smaller to the 2nd; on equal cards the giver reached first walking the seats from the 1st
    gives to the 1st. Refusal: the giver(s) hold both big jokers (receivers' jokers, small jokers and
    wild cards don't count). Leader: the giver (single), the giver to the 1st (double), the previous
    1st (refused).
    """
    resolve_rules(rules)  # validates; no option changes the plan itself
    places = check_places(places)
    level = parse_rank(level)
    first, second = places[0], places[1]
    double = second == partner_of(first)
    givers = [places[2], places[3]] if double else [places[3]]
    hand_codes = {g: _codes(hands[g]) for g in givers}
    big = sum(h.count(BIG_JOKER) for h in hand_codes.values())
    kind = DOUBLE if double else SINGLE
    if big >= 2:
        return TributePlan(kind, givers, [], True, first)
    if not double:
        g = givers[0]
        return TributePlan(kind, givers, [Gift(g, first, tribute_card(hand_codes[g], level))], False, g)
    cards = {g: tribute_card(hand_codes[g], level) for g in givers}
    # Walk the seats from the 1st in play order; on a tie the giver reached first gives to the 1st.
    walk = sorted(givers, key=lambda s: (s - first) % 4)
    a, b = walk
    if card_order(cards[b], level) > card_order(cards[a], level):
        a, b = b, a
    gifts = [Gift(a, first, cards[a]), Gift(b, second, cards[b])]
    return TributePlan(kind, givers, gifts, False, a)


def return_choices(
    hand: Iterable[int | str],
    received: int | str | None,
    level: int,
    rules: Rules | str | dict | None = None,
    *,
    to_partner: bool | None = None,
) -> list[int]:
    """The distinct cards (codes, ascending in the deal's rank order) a receiver may return.

    Standard: a card of rank 10 or lower that is not the level rank and not a joker; with none, the
    smallest card(s). National 2017 and Nanjing (``ten_or_lower_any_rank``): a card of rank 10 or
    lower, the level rank included; with none, the smallest. Huai'an (``return_limit="any"``): any
    card. Club rule (``club_return``): to one's partner a card below the level rank, to an opponent
    any card. The card just received is never
    returnable: two copies of one card are indistinguishable, so its code is excluded altogether.
    ``to_partner`` says whether the return goes to the receiver's partner (club rule only).
    """
    rules = resolve_rules(rules)
    level = parse_rank(level)
    codes = _codes(hand)
    got = None if received is None else _codes([received])[0]
    pool = sorted({c for c in codes if c != got}, key=lambda c: (card_order(c, level), c))
    if not pool:
        return []
    if rules.club_return:
        if not to_partner:
            return pool
        eligible = [c for c in pool if card_order(c, level) < 15]  # below the level rank, no jokers
    elif rules.return_limit == RETURN_ANY:
        return pool
    elif rules.return_limit == RETURN_TEN_OR_LOWER_ANY_RANK:
        eligible = [c for c in pool if RANK_OF[c] <= 10]
    else:
        eligible = [c for c in pool if RANK_OF[c] <= 10 and RANK_OF[c] != level]
    if eligible:
        return eligible
    low = card_order(pool[0], level)
    return [c for c in pool if card_order(c, level) == low]


def suggest_return(choices: Sequence[int], level: int) -> int:
    """A sensible default among the eligible cards: the smallest."""
    return min(choices, key=lambda c: (card_order(c, level), c))


__all__ = [
    "Gift", "TributePlan", "tribute_plan", "return_choices", "tribute_card", "card_order",
    "suggest_return", "SINGLE", "DOUBLE",
]
