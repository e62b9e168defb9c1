"""Legal-move generation.

Generation works in two steps so bots can stop after the first:

1. **Shapes** — over rank counts only: a kind, its compared value, how many natural cards of
   each rank it takes, how many wild cards, and (straight flushes) the suit. Shapes of one
   (kind, value) never share a physical multiset, so they partition the legal plays.
2. **Expansion** — every distinct physical choice of suits for a shape.

A hand is indexed once as counts per card code; wild cards are kept as a count.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations, product
from typing import NamedTuple

from .cards import ACE, BIG_JOKER, BIG_JOKER_RANK, CARDS, SMALL_JOKER, SMALL_JOKER_RANK, Card, card_code
from .plays import (
    BOMB,
    FULL_HOUSE,
    JOKER_BOMB,
    PAIR,
    PLATE,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    STRAIGHT_FLUSH_TIER,
    TRIPLE,
    TUBE,
    Play,
    _as_codes,
    as_play,
    normalize_level,
    sequence_window,
)
from .rules import Rules, resolve_rules

RANKS = range(2, ACE + 1)
_LEVEL_VALUE = 15
_TIER_OF_BOMB = {4: 1, 5: 2, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8}


class Shape(NamedTuple):
    """A play chosen by ranks only; ``naturals`` is ((rank, count), ...) in rank order."""

    kind: str
    value: int
    naturals: tuple[tuple[int, int], ...]
    wilds: int
    suit: int = -1  # straight flushes only
    jokers: tuple[Card, ...] = ()  # joker singles/pairs/bomb, or a joker pair in a full house

    @property
    def size(self) -> int:
        return sum(k for _, k in self.naturals) + self.wilds + len(self.jokers)


class HandIndex:
    """A hand as counts, for generating plays from it."""

    __slots__ = ("level", "wild", "w", "counts", "nat", "_subs")

    def __init__(self, hand: Iterable[int], level: int) -> None:
        self.level = level
        self.wild = CARDS[card_code(level, 1)]
        counts = [0] * 54
        for c in hand:
            counts[c] += 1
        self.w = counts[self.wild]
        counts[self.wild] = 0
        self.counts = counts
        nat = [0] * (ACE + 1)
        for r in RANKS:
            b = (r - 2) * 4
            nat[r] = counts[b] + counts[b + 1] + counts[b + 2] + counts[b + 3]
        self.nat = nat
        self._subs: dict[tuple[int, int], list[tuple[Card, ...]]] = {}

    def order(self, rank: int) -> int:
        return _LEVEL_VALUE if rank == self.level else rank

    def sub(self, rank: int, j: int) -> list[tuple[Card, ...]]:
        """Distinct sub-multisets of ``j`` natural cards of ``rank`` (sorted by code)."""
        key = (rank, j)
        got = self._subs.get(key)
        if got is None:
            b = (rank - 2) * 4
            got = []
            _subsets(self.counts, b, 0, j, (), got)
            self._subs[key] = got
        return got


def _subsets(counts: list[int], b: int, s: int, j: int, acc: tuple, out: list) -> None:
    if j == 0:
        out.append(acc)
        return
    if s == 4:
        return
    c = CARDS[b + s]
    for a in range(min(counts[b + s], j), -1, -1):
        _subsets(counts, b, s + 1, j - a, acc + (c,) * a, out)


# --------------------------------------------------------------------------- shapes


def _rank_vectors(
    idx: HandIndex, ranks: tuple[int, ...], width: int, max_wild_per_rank: int
) -> Iterator[tuple[tuple[tuple[int, int], ...], int]]:
    """Ways to take ``width`` cards of each rank from naturals plus wild cards."""
    nat = idx.nat
    w = idx.w
    options = []
    for r in ranks:
        hi = min(width, nat[r])
        lo = max(0, width - max_wild_per_rank, width - w)
        if hi < lo:
            return
        options.append([(r, j) for j in range(hi, lo - 1, -1)])
    for combo in product(*options):
        used = 0
        for _, j in combo:
            used += width - j
        if used <= w:
            yield tuple((r, j) for r, j in combo if j), used


def shapes(
    hand: Iterable[int], level: int | str, top: Play | None = None, rules: Rules | str | None = None
) -> list[Shape]:
    """Every shape playable from ``hand`` (on ``top`` when following), ordinary kinds first."""
    level = normalize_level(level)
    top = as_play(top, level, rules)
    return list(_shapes(HandIndex(_hand_codes(hand), level), resolve_rules(rules), top))


def _shapes(idx: HandIndex, rules: Rules, top: Play | None, lower_readings: bool = True) -> Iterator[Shape]:
    top_tier = top.tier if top is not None else 0
    if top is None:
        want = None
        floor = -1
    elif top_tier:
        want = ()
        floor = -1
    else:
        want = top.kind
        floor = top.value
    if want is None or want == SINGLE:
        yield from _singles(idx, floor)
    if want is None or want == PAIR:
        yield from _pairs(idx, floor)
    if want is None or want == TRIPLE:
        yield from _triples(idx, floor)
    if want is None or want == FULL_HOUSE:
        yield from _full_houses(idx, rules, floor, lower_readings)
    if want is None or want == STRAIGHT:
        yield from _sequences(idx, STRAIGHT, 5, 1, floor)
    if want is None or want == TUBE:
        yield from _sequences(idx, TUBE, 3, 2, floor)
    if want is None or want == PLATE:
        yield from _sequences(idx, PLATE, 2, 3, floor)
    yield from _bombs(idx, top if top_tier else None)


def _singles(idx: HandIndex, floor: int) -> Iterator[Shape]:
    for r in RANKS:
        if idx.nat[r] and idx.order(r) > floor:
            yield Shape(SINGLE, idx.order(r), ((r, 1),), 0)
    if idx.w and _LEVEL_VALUE > floor:
        yield Shape(SINGLE, _LEVEL_VALUE, (), 1)
    if idx.counts[SMALL_JOKER] and SMALL_JOKER_RANK > floor:
        yield Shape(SINGLE, SMALL_JOKER_RANK, (), 0, -1, (CARDS[SMALL_JOKER],))
    if idx.counts[BIG_JOKER] and BIG_JOKER_RANK > floor:
        yield Shape(SINGLE, BIG_JOKER_RANK, (), 0, -1, (CARDS[BIG_JOKER],))


def _same_rank(idx: HandIndex, kind: str, n: int, floor: int) -> Iterator[Shape]:
    """Pairs, triples and bombs of one rank: j naturals + (n - j) wilds, j ≥ 1."""
    w = idx.w
    nat = idx.nat
    for r in RANKS:
        v = idx.order(r)
        if v <= floor:
            continue
        hi = min(n, nat[r])
        for j in range(hi, max(1, n - w) - 1, -1):
            yield Shape(kind, v, ((r, j),), n - j)


def _pairs(idx: HandIndex, floor: int) -> Iterator[Shape]:
    yield from _same_rank(idx, PAIR, 2, floor)
    if idx.w == 2 and _LEVEL_VALUE > floor:
        yield Shape(PAIR, _LEVEL_VALUE, (), 2)
    if idx.counts[SMALL_JOKER] == 2 and SMALL_JOKER_RANK > floor:
        yield Shape(PAIR, SMALL_JOKER_RANK, (), 0, -1, (CARDS[SMALL_JOKER],) * 2)
    if idx.counts[BIG_JOKER] == 2 and BIG_JOKER_RANK > floor:
        yield Shape(PAIR, BIG_JOKER_RANK, (), 0, -1, (CARDS[BIG_JOKER],) * 2)


def _triples(idx: HandIndex, floor: int) -> Iterator[Shape]:
    yield from _same_rank(idx, TRIPLE, 3, floor)


def _full_houses(idx: HandIndex, rules: Rules, floor: int, lower_readings: bool) -> Iterator[Shape]:
    """With ``lower_readings`` off, cards that make two full houses (99+JJ+wild) give the higher only."""
    nat = idx.nat
    w = idx.w
    joker_pairs = []
    if rules.joker_pair_in_full_house:
        for jc in (SMALL_JOKER, BIG_JOKER):
            if idx.counts[jc] == 2:
                joker_pairs.append((CARDS[jc],) * 2)
    for t in RANKS:
        v = idx.order(t)
        if v <= floor:
            continue
        for jt in range(min(3, nat[t]), max(1, 3 - w) - 1, -1):
            left = w - (3 - jt)
            for p in RANKS:
                if p == t or (not lower_readings and jt < 3 and idx.order(p) > v):
                    continue
                for jp in range(min(2, nat[p]), max(1, 2 - left) - 1, -1):
                    nats = ((t, jt), (p, jp)) if t < p else ((p, jp), (t, jt))
                    yield Shape(FULL_HOUSE, v, nats, 5 - jt - jp)
            if left == 2:  # the two wild cards are the pair; one play whatever rank they stand for
                yield Shape(FULL_HOUSE, v, ((t, jt),), 5 - jt)
            for jp in joker_pairs:
                yield Shape(FULL_HOUSE, v, ((t, jt),), 3 - jt, -1, jp)


def _sequences(idx: HandIndex, kind: str, length: int, width: int, floor: int) -> Iterator[Shape]:
    for top in range(max(length, floor + 1), ACE + 1):
        ranks = tuple(sorted(sequence_window(top, length)))
        for nats, used in _rank_vectors(idx, ranks, width, width if width < 3 else 2):
            yield Shape(kind, top, nats, used)


def _bombs(idx: HandIndex, top: Play | None) -> Iterator[Shape]:
    """Bomb class in ladder order, only those that beat ``top`` when it is a bomb."""
    t_tier = top.tier if top is not None else 0
    t_val = top.value if top is not None else -1
    nat = idx.nat
    w = idx.w
    # only ranks that can make a 4-card bomb at all (naturals plus every wild card)
    ranks = [r for r in RANKS if nat[r] and nat[r] + w >= 4]
    for n in range(4, 11):
        tier = _TIER_OF_BOMB[n]
        if tier >= t_tier:
            for r in ranks:
                if nat[r] + w < n:
                    continue
                v = idx.order(r)
                if tier == t_tier and v <= t_val:
                    continue
                for j in range(min(n, nat[r]), max(1, n - w) - 1, -1):
                    yield Shape(BOMB, v, ((r, j),), n - j)
        # Straight flushes sit between 5- and 6-card bombs. On a straight flush the 5-card bombs are
        # too small, but a higher straight flush still beats it.
        if n == 5 and t_tier <= STRAIGHT_FLUSH_TIER:
            yield from _straight_flushes(idx, t_val if t_tier == STRAIGHT_FLUSH_TIER else 0)
    if idx.counts[SMALL_JOKER] == 2 and idx.counts[BIG_JOKER] == 2 and t_tier < 9:
        jokers = (CARDS[SMALL_JOKER],) * 2 + (CARDS[BIG_JOKER],) * 2
        yield Shape(JOKER_BOMB, BIG_JOKER_RANK, (), 0, -1, jokers)


# The five ranks of the straight (flush) with top position t, by rank, and as a bit mask over ranks.
_STRAIGHT_RANKS = {t: tuple(sorted(sequence_window(t, 5))) for t in range(5, ACE + 1)}
_STRAIGHT_MASK = {t: sum(1 << r for r in rs) for t, rs in _STRAIGHT_RANKS.items()}


def _straight_flushes(idx: HandIndex, floor: int) -> Iterator[Shape]:
    counts = idx.counts
    w = idx.w
    for suit in range(4):
        mask = 0
        for r in RANKS:
            if counts[(r - 2) * 4 + suit]:
                mask |= 1 << r
        if mask.bit_count() < 5 - w:
            continue
        for top in range(max(5, floor + 1), ACE + 1):
            have = mask & _STRAIGHT_MASK[top]
            missing = 5 - have.bit_count()
            if missing > w:
                continue
            present = [r for r in _STRAIGHT_RANKS[top] if have >> r & 1]
            # any present card may also be replaced by a wild card
            for drop in range(0, w - missing + 1):
                for dropped in combinations(present, drop):
                    nats = tuple((r, 1) for r in present if r not in dropped)
                    yield Shape(STRAIGHT_FLUSH, top, nats, missing + drop, suit)


# --------------------------------------------------------------------------- expansion


def expand(idx: HandIndex, shape: Shape) -> list[Play]:
    """Every distinct physical choice of cards for a shape."""
    kind = shape.kind
    wilds = (idx.wild,) * shape.wilds
    if shape.suit >= 0:
        cards = tuple(CARDS[(r - 2) * 4 + shape.suit] for r, _ in shape.naturals)
        return [Play(kind, shape.value, tuple(sorted(cards + wilds)))]
    tail = shape.jokers
    nats = shape.naturals
    if not nats:
        return [Play(kind, shape.value, wilds + tail)]
    if len(nats) == 1:
        r, j = nats[0]
        if wilds:
            if r > idx.level:
                return [Play(kind, shape.value, wilds + s + tail) for s in idx.sub(r, j)]
            if r < idx.level:
                return [Play(kind, shape.value, s + wilds + tail) for s in idx.sub(r, j)]
            return [Play(kind, shape.value, tuple(sorted(s + wilds)) + tail) for s in idx.sub(r, j)]
        return [Play(kind, shape.value, s + tail) for s in idx.sub(r, j)]
    parts = [idx.sub(r, j) for r, j in nats]
    out: list[Play] = []
    value = shape.value
    mono_check = kind == STRAIGHT and not wilds
    if wilds:
        for combo in product(*parts):
            out.append(Play(kind, value, tuple(sorted(sum(combo, wilds)))))
    elif mono_check:
        for a, b, c, d, e in product(*parts):
            s = a[0] & 3
            if b[0] & 3 == s and c[0] & 3 == s and d[0] & 3 == s and e[0] & 3 == s:
                continue  # five natural same-suit consecutive cards are a straight flush only
            out.append(Play(kind, value, a + b + c + d + e))
    else:
        for combo in product(*parts):
            out.append(Play(kind, value, sum(combo, ())))
    return out


def legal_plays(
    hand: Iterable[int] | str,
    level: int | str,
    top: Play | None = None,
    rules: Rules | str | None = None,
) -> list[Play]:
    """Every distinct legal play from ``hand``: leading if ``top`` is None, else those beating it."""
    level = normalize_level(level)
    idx = HandIndex(_hand_codes(hand), level)
    top = as_play(top, level, rules)
    out: list[Play] = []
    for shape in _shapes(idx, resolve_rules(rules), top):
        out.extend(expand(idx, shape))
    return out


def play_groups(
    hand: Iterable[int] | str,
    level: int | str,
    top: Play | None = None,
    rules: Rules | str | None = None,
) -> dict[tuple[str, int], list[Shape]]:
    """The bots' cheaper view: shapes grouped by (kind, compared value), no suits expanded yet; cards
    that make two full houses give only the higher (it beats all the lower does, and the bots' search
    keeps to a few candidates).

    Expand a chosen shape with ``expand(HandIndex(hand, level), shape)``.
    """
    level = normalize_level(level)
    top = as_play(top, level, rules)
    groups: dict[tuple[str, int], list[Shape]] = {}
    idx = HandIndex(_hand_codes(hand), level)
    for shape in _shapes(idx, resolve_rules(rules), top, lower_readings=False):
        if shape.kind == STRAIGHT and not shape.wilds and _flush_only(idx, shape):
            continue  # its cards make a straight flush only: ``expand`` gives nothing (a caller's [0] failed)
        groups.setdefault((shape.kind, shape.value), []).append(shape)
    return groups


def _flush_only(idx: HandIndex, shape: Shape) -> bool:
    """A straight of natural cards whose every rank is held in one and the same suit alone."""
    counts = idx.counts
    suits = set()
    for r, _ in shape.naturals:
        held = [s for s in range(4) if counts[(r - 2) * 4 + s]]
        if len(held) != 1:
            return False
        suits.add(held[0])
    return len(suits) == 1


def _hand_codes(hand: Iterable[int] | str) -> list[int]:
    if isinstance(hand, str):
        return _as_codes(hand) if hand.strip() else []
    hand = list(hand)
    return _as_codes(hand) if hand else []
