"""Hand decomposition: split a hand into the plays that are cheapest to get rid of.

The heuristic bot judges every candidate action by what it leaves behind, so this runs many
times per decision and works on rank counts, not on physical cards:

1. the hand is planned without a straight flush, with each of the few that fit (it is a
   bomb, and suits matter only there) and with each of those plus a second one of natural
   cards; the cheapest plan wins;
2. a depth-first search picks the sequences (straights, tubes, plates), lowest position first;
3. what is left falls into same-rank groups (single, pair, triple, bomb); triples take the
   lowest pairs as full houses; the wild cards go where they lower the cost most.

The cost of a plan is about "turns needed to go out": each ordinary play costs 1 less a
control bonus when it is high enough to win its trick; bombs cost less than nothing, since
they win the lead back whenever needed. Plans are ``Shape`` tuples of the moves module, so
``expand`` turns the chosen one into physical cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..cards import ACE, BIG_JOKER, BIG_JOKER_RANK, CARDS, SMALL_JOKER, SMALL_JOKER_RANK, card_code
from ..moves import Shape
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
)

LEVEL_VALUE = 15
_SB = CARDS[SMALL_JOKER]
_HR = CARDS[BIG_JOKER]

# Control bonus: how likely a play of this compared value wins its trick outright.
_CTRL_SINGLE = {17: 0.9, 16: 0.75, 15: 0.6, 14: 0.45, 13: 0.3, 12: 0.15, 11: 0.05}
_CTRL_PAIR = {17: 0.95, 16: 0.85, 15: 0.7, 14: 0.55, 13: 0.4, 12: 0.25, 11: 0.1}
_CTRL_TRIPLE = {15: 0.75, 14: 0.6, 13: 0.45, 12: 0.3, 11: 0.15}
_CTRL_STRAIGHT = {14: 0.6, 13: 0.45, 12: 0.3, 11: 0.15}
_CTRL_TUBE = {14: 0.7, 13: 0.55, 12: 0.4, 11: 0.25, 10: 0.1}
_CTRL_PLATE = {14: 0.8, 13: 0.65, 12: 0.5, 11: 0.35, 10: 0.2}
_CTRL = {
    SINGLE: _CTRL_SINGLE, PAIR: _CTRL_PAIR, TRIPLE: _CTRL_TRIPLE, FULL_HOUSE: _CTRL_TRIPLE,
    STRAIGHT: _CTRL_STRAIGHT, TUBE: _CTRL_TUBE, PLATE: _CTRL_PLATE,
}
_BOMB_TIER = {4: 1, 5: 2, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}
BOMB_BASE = 0.6
BOMB_STEP = 0.1

# Sequence kinds searched: (kind, length, width).
_SEQS = ((STRAIGHT, 5, 1), (TUBE, 3, 2), (PLATE, 2, 3))


def tier_of(kind: str, size: int) -> int:
    if kind == BOMB:
        return _BOMB_TIER[size]
    if kind == STRAIGHT_FLUSH:
        return 3
    if kind == JOKER_BOMB:
        return 9
    return 0


def play_cost(kind: str, value: int, size: int) -> float:
    """Cost of one planned play: 1 less its control bonus; bombs are worth having."""
    tier = tier_of(kind, size)
    if tier:
        return -(BOMB_BASE + BOMB_STEP * tier)
    return 1.0 - _CTRL[kind].get(value, 0.0)


class Plan(NamedTuple):
    """A decomposition: its total cost and its plays (``moves.Shape``), bombs last."""

    cost: float
    plays: tuple[Shape, ...]

    @property
    def ordinary(self) -> list[Shape]:
        return [s for s in self.plays if not tier_of(s.kind, s.size)]

    @property
    def bombs(self) -> list[Shape]:
        return [s for s in self.plays if tier_of(s.kind, s.size)]


def shape_cost(s: Shape) -> float:
    return play_cost(s.kind, s.value, s.size)


# --------------------------------------------------------------------------- groups


def _cost_table(ctrl: dict[int, float]) -> list[float]:
    return [1.0 - ctrl.get(v, 0.0) for v in range(18)]


_C1 = _cost_table(_CTRL_SINGLE)
_C2 = _cost_table(_CTRL_PAIR)
_C3 = _cost_table(_CTRL_TRIPLE)
_CB = [0.0] * 4 + [BOMB_BASE + BOMB_STEP * _BOMB_TIER[n] for n in range(4, 11)]


def _joker_cost(sb: int, hr: int) -> float:
    if sb == 2 and hr == 2:
        return -(BOMB_BASE + BOMB_STEP * 9)
    c = 0.0
    if sb:
        c += _C2[SMALL_JOKER_RANK] if sb == 2 else _C1[SMALL_JOKER_RANK]
    if hr:
        c += _C2[BIG_JOKER_RANK] if hr == 2 else _C1[BIG_JOKER_RANK]
    return c


#: ranks in rank order for each level: the level rank moves above A
_ORDER = {lv: (*range(2, lv), *range(lv + 1, 15), lv) for lv in range(2, 15)}


def _group_cost(cnt: list[int], level: int, a: int, b: int) -> float:
    """Cost of the same-rank groups, wild cards added at ranks ``a`` and ``b`` (0 = none)."""
    c = 0.0
    triples = 0
    pair_costs: list[float] = []
    for r in _ORDER[level]:
        t = cnt[r]
        if a == r:
            t += 1
        if b == r:
            t += 1
        if not t:
            continue
        v = LEVEL_VALUE if r == level else r
        if t >= 4:
            c -= _CB[t]
        elif t == 3:
            triples += 1
            c += _C3[v]
        elif t == 2:
            pair_costs.append(_C2[v])
        else:
            c += _C1[v]
    # full houses: each triple takes one of the lowest pairs, which then costs nothing
    return c + sum(pair_costs[min(triples, len(pair_costs)):])


_GROUP_CACHE: dict[tuple, tuple[float, int, int]] = {}
#: cache sizes: about one deal's worth of positions; cleared when full (a small dict clears fast)
_GROUP_LIMIT = 60_000
_PLAN_LIMIT = 6_000


def _best_groups(cnt: list[int], w: int, level: int) -> tuple[float, int, int]:
    """Cheapest grouping of the leftover naturals: (cost, wild home a, wild home b)."""
    key = (*cnt, w, level)
    got = _GROUP_CACHE.get(key)
    if got is not None:
        return got
    if w == 0:
        best = (_group_cost(cnt, level, 0, 0), 0, 0)
    else:
        # Homes worth trying: the level rank (a wild card alone is a level card), ranks it
        # raises to a bomb or a bigger bomb, the lowest single and the lowest pair.
        homes = [level]
        single = pair = 0
        for r in range(2, 15):
            n = cnt[r]
            if n >= 3 and r != level:
                homes.append(r)
            elif n == 2 and not pair and r != level:
                pair = r
            elif n == 1 and not single and r != level:
                single = r
        if single:
            homes.append(single)
        if pair:
            homes.append(pair)
        best = (1e9, 0, 0)
        if w == 1:
            for h in homes:
                c = _group_cost(cnt, level, h, 0)
                if c < best[0]:
                    best = (c, h, 0)
        else:
            for i, h in enumerate(homes):
                for g in homes[i:]:
                    c = _group_cost(cnt, level, h, g)
                    if c < best[0]:
                        best = (c, h, g)
    if len(_GROUP_CACHE) > _GROUP_LIMIT:
        _GROUP_CACHE.clear()
    _GROUP_CACHE[key] = best
    return best


# --------------------------------------------------------------------------- sequences


def _search(cnt: list[int], w: int, level: int) -> tuple[float, list[Shape], list[int], int, int]:
    """Best choice of sequences (depth first, lowest position first) and of the wild homes.

    Returns (cost, sequences, leftover counts, wild home a, wild home b).
    """
    best: list = [1e9, [], cnt, 0, 0]
    chosen: list[Shape] = []
    chosen_cost = [0.0]

    def rec(p: int, kmin: int, w: int) -> None:
        if p > 13:
            gc, a, b = _best_groups(cnt, w, level)
            total = chosen_cost[0] + gc
            if total < best[0]:
                best[0] = total
                best[1] = list(chosen)
                best[2] = list(cnt)
                best[3] = a
                best[4] = b
            return
        r0 = ACE if p == 1 else p
        if cnt[r0]:
            for k in range(kmin, 3):
                kind, length, width = _SEQS[k]
                top = p + length - 1
                if top > ACE:
                    continue
                need = 0
                loose = 0  # ranks where the sequence takes loose cards, not a whole group
                broken = 0  # bombs it would break
                ok = True
                for q in range(p, top + 1):
                    have = cnt[ACE if q == 1 else q]
                    if have < width:
                        if have == 0 and width > 1:
                            ok = False
                            break
                        need += width - have
                        loose += 1
                    elif have <= width + 1:
                        loose += 1
                    elif have == 4:
                        broken += 1
                # a straight that only splits pairs and bombs never pays: skip it early
                if not ok or need > w or (width == 1 and loose < 3 + broken):
                    continue
                nats = []
                for q in range(p, top + 1):
                    r = ACE if q == 1 else q
                    take = min(width, cnt[r])
                    cnt[r] -= take
                    if take:
                        nats.append((r, take))
                s = Shape(kind, top, tuple(sorted(nats)), need)
                c = 1.0 - _CTRL[kind].get(top, 0.0)
                chosen.append(s)
                chosen_cost[0] += c
                rec(p, k, w - need)
                chosen_cost[0] -= c
                chosen.pop()
                for r, take in nats:
                    cnt[r] += take
        rec(p + 1, 0, w)

    rec(1, 0, w)
    return best[0], best[1], best[2], best[3], best[4]


def _group_shapes(cnt: list[int], level: int, sb: int, hr: int, a: int, b: int) -> list[Shape]:
    """The plays of the chosen grouping (same order of thought as ``_group_cost``)."""
    singles: list[Shape] = []
    pairs: list[Shape] = []
    triples: list[Shape] = []
    bombs: list[Shape] = []
    for r in _ORDER[level]:
        n = cnt[r]
        k = (a == r) + (b == r)
        t = n + k
        if not t:
            continue
        v = LEVEL_VALUE if r == level else r
        nats = ((r, n),) if n else ()
        if t >= 4:
            bombs.append(Shape(BOMB, v, nats, k))
        elif t == 3:
            triples.append(Shape(TRIPLE, v, nats, k))
        elif t == 2:
            pairs.append(Shape(PAIR, v, nats, k))
        else:
            singles.append(Shape(SINGLE, v, nats, k))
    n_fh = min(len(triples), len(pairs))
    out = singles
    for t, p in zip(triples, pairs, strict=False):
        # a wild card in the triple means the pair's rank could be the triple: the higher one counts
        value = max(t.value, p.value) if t.wilds and p.naturals else t.value
        out.append(Shape(FULL_HOUSE, value, tuple(sorted(t.naturals + p.naturals)), t.wilds + p.wilds))
    out.extend(triples[n_fh:])
    out.extend(pairs[n_fh:])
    if sb == 2 and hr == 2:
        bombs.append(Shape(JOKER_BOMB, BIG_JOKER_RANK, (), 0, -1, (_SB, _SB, _HR, _HR)))
    else:
        if sb:
            out.append(Shape(PAIR if sb == 2 else SINGLE, SMALL_JOKER_RANK, (), 0, -1, (_SB,) * sb))
        if hr:
            out.append(Shape(PAIR if hr == 2 else SINGLE, BIG_JOKER_RANK, (), 0, -1, (_HR,) * hr))
    out.extend(bombs)
    return out


# --------------------------------------------------------------------------- entry point


#: straight flush windows: (top, natural ranks, bit mask of the ranks); a low A is rank 14 (bit 14)
_SF_WINDOWS = tuple(
    (top, rs, sum(1 << r for r in rs))
    for top in range(5, ACE + 1)
    for rs in [tuple(ACE if q == 1 else q for q in range(top - 4, top + 1))]
)


def _straight_flush_options(suited: list[list[int]], w: int) -> list[tuple[int, int, tuple[int, ...], int]]:
    """Straight flushes the hand can make: (suit, top, natural ranks used, wild cards needed)."""
    out = []
    need = 5 - w
    for suit in range(4):
        row = suited[suit]
        mask = 0
        for r in range(2, ACE + 1):
            if row[r]:
                mask |= 1 << r
        if (mask.bit_count()) < need:
            continue
        for top, ranks, wmask in _SF_WINDOWS:
            have = (mask & wmask).bit_count()
            if have >= need:
                out.append((suit, top, tuple(r for r in ranks if row[r]), 5 - have))
    out.sort(key=lambda o: (o[3], o[1]))
    return out[:4]


def straight_flush_cards(hand: Iterable[int], level: int) -> set[int]:
    """Codes of the natural cards that sit in a straight flush the hand could make (wild cards
    filling the gaps): only these cards' suits can matter to ``decompose``."""
    wild = card_code(level, 1)
    w = 0
    suited = [[0] * 15 for _ in range(4)]
    for c in hand:
        if c == wild:
            w += 1
        elif c < SMALL_JOKER:
            suited[c & 3][(c >> 2) + 2] += 1
    out: set[int] = set()
    for suit in range(4):
        row = suited[suit]
        for _top, ranks, _mask in _SF_WINDOWS:
            if sum(1 for r in ranks if row[r]) >= 5 - w:
                out.update(card_code(r, suit) for r in ranks if row[r])
    return out


def has_straight_flush(hand: Iterable[int], level: int) -> bool:
    """Could the hand make any straight flush (wild cards filling the gaps)?"""
    wild = card_code(level, 1)
    w = 0
    masks = [0, 0, 0, 0]
    for c in hand:
        if c == wild:
            w += 1
        elif c < SMALL_JOKER:
            masks[c & 3] |= 1 << ((c >> 2) + 2)
    need = 5 - w
    for mask in masks:
        if mask.bit_count() >= need:
            for _top, _ranks, wmask in _SF_WINDOWS:
                if (mask & wmask).bit_count() >= need:
                    return True
    return False


_PLAN_CACHE: dict[tuple, Plan] = {}


def decompose(hand: Iterable[int], level: int) -> Plan:
    """The cheapest plan for a hand (cached on the sorted hand and level)."""
    codes = tuple(sorted(hand))
    key = (codes, level)
    got = _PLAN_CACHE.get(key)
    if got is not None:
        return got
    wild = card_code(level, 1)
    cnt = [0] * 15
    suited = [[0] * 15 for _ in range(4)]
    w = sb = hr = 0
    for c in codes:
        if c == wild:
            w += 1
        elif c == SMALL_JOKER:
            sb += 1
        elif c == BIG_JOKER:
            hr += 1
        else:
            r = (c >> 2) + 2
            cnt[r] += 1
            suited[c & 3][r] += 1
    jc = _joker_cost(sb, hr)
    cost, seqs, left, a, b = _search(cnt, w, level)
    best = (cost + jc, (), seqs, left, a, b)
    sf_bonus = BOMB_BASE + BOMB_STEP * 3
    options = _straight_flush_options(suited, w)
    for i, (suit, top, present, missing) in enumerate(options):
        sf = Shape(STRAIGHT_FLUSH, top, tuple((r, 1) for r in sorted(present)), missing, suit)
        for r in present:
            cnt[r] -= 1
            suited[suit][r] -= 1
        cost, seqs, left, a, b = _search(cnt, w - missing, level)
        cost += jc - sf_bonus
        if cost < best[0]:
            best = (cost, (sf,), seqs, left, a, b)
        # A second straight flush of natural cards (two of them are rare; both are bombs, and a
        # plan that called the second one a straight could not play it as one).
        for j, (suit2, top2, present2, missing2) in enumerate(options):
            if j == i or missing2 or (j < i and not missing):  # (natural pairs are tried once)
                continue
            if any(not suited[suit2][r] for r in present2):
                continue
            for r in present2:
                cnt[r] -= 1
            cost, seqs, left, a, b = _search(cnt, w - missing, level)
            for r in present2:
                cnt[r] += 1
            cost += jc - 2 * sf_bonus
            if cost < best[0]:
                sf2 = Shape(STRAIGHT_FLUSH, top2, tuple((r, 1) for r in sorted(present2)), 0, suit2)
                best = (cost, (sf, sf2), seqs, left, a, b)
        for r in present:
            cnt[r] += 1
            suited[suit][r] += 1
    best_cost, sfs, seqs, left, a, b = best
    best_plays = list(sfs) + seqs + _group_shapes(left, level, sb, hr, a, b)
    plan = Plan(best_cost, tuple(best_plays))
    if len(_PLAN_CACHE) > _PLAN_LIMIT:
        _PLAN_CACHE.clear()
    _PLAN_CACHE[key] = plan
    return plan


_COUNTS_CACHE: dict[tuple, Plan] = {}


def decompose_counts(cnt: list[int], w: int, sb: int, hr: int, level: int) -> Plan:
    """The cheapest plan for a hand given as natural counts by rank (index 2..14), wild cards and
    jokers: no straight flush (suits unknown). For the strong bot's rollouts, whose hands are counts
    once the first plan (``decompose``, suits and all) is broken."""
    key = (*cnt, w, sb, hr, level)
    got = _COUNTS_CACHE.get(key)
    if got is not None:
        return got
    work = list(cnt)
    cost, seqs, left, a, b = _search(work, w, level)
    plan = Plan(cost + _joker_cost(sb, hr), tuple(seqs + _group_shapes(left, level, sb, hr, a, b)))
    if len(_COUNTS_CACHE) > _PLAN_LIMIT:
        _COUNTS_CACHE.clear()
    _COUNTS_CACHE[key] = plan
    return plan


def hand_cost(hand: Iterable[int], level: int) -> float:
    return decompose(hand, level).cost


__all__ = [
    "Plan", "decompose", "decompose_counts", "hand_cost", "has_straight_flush", "play_cost", "shape_cost",
    "straight_flush_cards", "tier_of", "LEVEL_VALUE",
]
