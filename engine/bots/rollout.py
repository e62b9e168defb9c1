"""Fast rollouts for the strong bot: a deal played to its end by a cheap plan-following policy.

Why not the heuristic itself: it costs 0.1-3.5 ms a decision (it re-plans the hand for every
candidate play) and a deal has about 70 decisions, while a search wants hundreds of rollouts per
decision. Here each hand is planned once (``hand.decompose``) and then plays from its plan by the
heuristic's rules of thumb: lead the low play that is hardest to stop (winners first when one
loser is left, feed a partner who is almost out, never hand an opponent the play they can go out
on), follow with the cheapest planned play that beats, break a group only when it costs little or
an opponent is close to going out, bomb when an opponent runs low. A hand is re-planned only when
it breaks a combination. Hands are counts by rank: suits matter only to straight flushes, which the
first plan already holds. Card memory is exact for every seat here (the other three hands together
are what that seat has not seen), so "nobody can beat it" is the same test as ``Memory.is_boss``.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import BIG_JOKER, SMALL_JOKER, card_code
from ..moves import Shape
from ..plays import FULL_HOUSE, PAIR, PLATE, SINGLE, STRAIGHT, TRIPLE, TUBE
from .hand import _C1, _C2, _C3, _CB, decompose, decompose_counts, play_cost, tier_of
from .search import deal_score

LEVEL_VALUE = 15
#: the heuristic's thresholds (``HeuristicBot``): close to going out, bomb when the player holds this few
DANGER = 4
BOMB_WHEN = 10
FOLLOW_SLACK = 0.5
_GROUP_KINDS = {SINGLE: 1, PAIR: 2, TRIPLE: 3}
#: sequence kinds: (width, length)
_SEQ_WIDTH = {STRAIGHT: (1, 5), TUBE: (2, 3), PLATE: (3, 2)}


class P(NamedTuple):
    """A planned play by counts: what the rollout needs of a ``Shape`` without recomputing it."""

    kind: str
    value: int
    size: int
    tier: int
    naturals: tuple[tuple[int, int], ...]
    wilds: int
    sb: int
    hr: int
    cost: float


_P_CACHE: dict[Shape, P] = {}


def as_p(s: Shape) -> P:
    got = _P_CACHE.get(s)
    if got is not None:
        return got
    if len(_P_CACHE) > 50_000:
        _P_CACHE.clear()
    got = _P_CACHE[s] = _as_p(s)
    return got


def _as_p(s: Shape) -> P:
    sb = sum(1 for c in s.jokers if c == SMALL_JOKER)
    size = s.size
    return P(s.kind, s.value, size, tier_of(s.kind, size), s.naturals, s.wilds, sb, len(s.jokers) - sb,
             play_cost(s.kind, s.value, size))


def beats(p: P, top: P) -> bool:
    if p.tier or top.tier:
        if p.tier != top.tier:
            return p.tier > top.tier
        return p.value > top.value
    return p.kind == top.kind and p.size == top.size and p.value > top.value


def _group_cost(t: int, v: int) -> float:
    if t <= 0:
        return 0.0
    if t == 1:
        return _C1[v]
    if t == 2:
        return _C2[v]
    if t == 3:
        return _C3[v]
    return -_CB[min(t, 10)]


def _base_rank(p: P) -> float:
    if p.kind == STRAIGHT:
        return p.value - 2
    if p.kind == TUBE:
        return p.value - 1
    if p.kind == PLATE:
        return p.value - 0.5
    return p.value


class FastDeal:
    """One deal in play, every hand known (sampled ones included), played out by the fast policy."""

    __slots__ = ("level", "wild", "nat", "wl", "sb", "hr", "n", "plans", "tot", "tot_w", "tot_sb", "tot_hr",
                 "turn", "top", "top_seat", "passes", "finished", "hands")

    def __init__(self, hands: list[list[int]], level: int, turn: int, top: P | None, top_seat: int | None,
                 passes: int, finished: list[int]) -> None:
        self.level = level
        self.wild = card_code(level, 1)
        self.hands = hands  # physical cards, only until each seat's first plan
        self.nat = [[0] * 15 for _ in range(4)]
        self.wl = [0, 0, 0, 0]
        self.sb = [0, 0, 0, 0]
        self.hr = [0, 0, 0, 0]
        self.n = [len(h) for h in hands]
        for s, h in enumerate(hands):
            self._count(s, h, 1)
        self.tot = [sum(self.nat[s][r] for s in range(4)) for r in range(15)]
        self.tot_w = sum(self.wl)
        self.tot_sb = sum(self.sb)
        self.tot_hr = sum(self.hr)
        self.plans: list[list[P] | None] = [None, None, None, None]
        self.turn = turn
        self.top = top
        self.top_seat = top_seat
        self.passes = passes
        self.finished = finished

    def _count(self, s: int, cards: list[int], sign: int) -> None:
        nat = self.nat[s]
        wild = self.wild
        for c in cards:
            if c == wild:
                self.wl[s] += sign
            elif c == SMALL_JOKER:
                self.sb[s] += sign
            elif c == BIG_JOKER:
                self.hr[s] += sign
            else:
                nat[(c >> 2) + 2] += sign

    def copy(self) -> FastDeal:
        d = FastDeal.__new__(FastDeal)
        d.level = self.level
        d.wild = self.wild
        d.hands = self.hands
        d.nat = [list(x) for x in self.nat]
        d.wl = list(self.wl)
        d.sb = list(self.sb)
        d.hr = list(self.hr)
        d.n = list(self.n)
        d.plans = [None if p is None else list(p) for p in self.plans]
        d.tot = list(self.tot)
        d.tot_w = self.tot_w
        d.tot_sb = self.tot_sb
        d.tot_hr = self.tot_hr
        d.turn = self.turn
        d.top = self.top
        d.top_seat = self.top_seat
        d.passes = self.passes
        d.finished = list(self.finished)
        return d

    # ------------------------------------------------------------------ state

    def plan(self, s: int) -> list[P]:
        p = self.plans[s]
        if p is None:
            p = self.plans[s] = [as_p(x) for x in decompose(self.hands[s], self.level).plays]
        return p

    def replan(self, s: int) -> None:
        self.plans[s] = [as_p(x) for x in decompose_counts(self.nat[s], self.wl[s], self.sb[s], self.hr[s],
                                                            self.level).plays]

    def remove_cards(self, s: int, cards: list[int]) -> None:
        """Take physical cards from a hand (the searched seat's candidate play)."""
        self._count(s, cards, -1)
        for c in cards:
            if c == self.wild:
                self.tot_w -= 1
            elif c == SMALL_JOKER:
                self.tot_sb -= 1
            elif c == BIG_JOKER:
                self.tot_hr -= 1
            else:
                self.tot[(c >> 2) + 2] -= 1
        self.n[s] -= len(cards)

    def over(self) -> bool:
        f = self.finished
        return len(f) >= 3 or (len(f) >= 2 and (f[0] + 2) % 4 in f)

    def next_holder(self, seat: int) -> int:
        n = self.n
        for i in (1, 2, 3):
            s = (seat + i) % 4
            if n[s]:
                return s
        return seat

    def after_play(self, s: int, p: P) -> None:
        """Turn, top and finishing after seat ``s`` played ``p`` (its cards already taken)."""
        self.top = p
        self.top_seat = s
        self.passes = 0
        if not self.n[s]:
            self.finished.append(s)
            if self.over():
                return
        self.turn = self.next_holder(s)

    def do_pass(self, s: int) -> None:
        self.passes += 1
        ts = self.top_seat
        n = self.n
        others = sum(1 for x in range(4) if x != ts and n[x])
        if self.passes < others:
            self.turn = self.next_holder(s)
            return
        lead = ts
        if not n[lead]:
            lead = (lead + 2) % 4 if n[(lead + 2) % 4] else self.next_holder(lead)
        self.top = None
        self.top_seat = None
        self.passes = 0
        self.turn = lead

    def play(self, s: int, p: P, planned: bool) -> None:
        nat = self.nat[s]
        tot = self.tot
        for r, k in p.naturals:
            nat[r] -= k
            tot[r] -= k
        if p.wilds:
            self.wl[s] -= p.wilds
            self.tot_w -= p.wilds
        if p.sb:
            self.sb[s] -= p.sb
            self.tot_sb -= p.sb
        if p.hr:
            self.hr[s] -= p.hr
            self.tot_hr -= p.hr
        self.n[s] -= p.size
        if planned:
            self.plans[s].remove(p)
        elif self.n[s]:
            self.replan(s)
        self.after_play(s, p)

    # ------------------------------------------------------------------ card memory (exact here)

    def _out(self, s: int, v: int) -> int:
        """Cards of compared value ``v`` the other three seats hold (wild cards apart)."""
        if v == 16:
            return self.tot_sb - self.sb[s]
        if v == 17:
            return self.tot_hr - self.hr[s]
        if v == LEVEL_VALUE:
            r = self.level
        elif v == self.level:
            return 0
        else:
            r = v
        return self.tot[r] - self.nat[s][r]

    def higher_set_out(self, s: int, value: int, width: int) -> bool:
        wo = self.tot_w - self.wl[s]
        for v in range(value + 1, 18):
            n = self._out(s, v)
            if v <= LEVEL_VALUE:
                n += wo
            if n >= width and (v < 16 or width <= 2):
                return True
        return False

    def is_boss(self, s: int, p: P) -> bool:
        kind = p.kind
        if kind == SINGLE:
            return not self.higher_set_out(s, p.value, 1)
        if kind == PAIR:
            return not self.higher_set_out(s, p.value, 2)
        if kind in (TRIPLE, FULL_HOUSE):
            return not self.higher_set_out(s, p.value, 3)
        if kind == STRAIGHT:
            return p.value >= 14
        if kind in (TUBE, PLATE):
            return p.value >= 13
        return False

    # ------------------------------------------------------------------ the policy

    def run(self, team: int, max_steps: int = 600) -> int:
        """Play the deal out; the upgrade for ``team`` (negative when the other team wins)."""
        steps = 0
        while not self.over() and steps < max_steps:
            self.step()
            steps += 1
        return self.score(team)

    def step(self) -> None:
        s = self.turn
        if self.top is None:
            p, planned = self.lead(s)
            self.play(s, p, planned)
            return
        got = self.follow(s)
        if got is None:
            self.do_pass(s)
        else:
            self.play(s, got[0], got[1])

    def _opponents(self, s: int) -> list[int]:
        n = self.n
        return [o for o in ((s + 1) % 4, (s + 3) % 4) if n[o]]

    def lead(self, s: int) -> tuple[P, bool]:
        plan = self.plan(s)
        if len(plan) == 1:
            return plan[0], True
        ordinary = [p for p in plan if not p.tier]
        if not ordinary:
            return min(plan, key=lambda p: (p.tier, p.value)), True
        bosses = []
        losers = 0
        for p in ordinary:
            if self.is_boss(s, p):
                bosses.append(p)
            else:
                losers += 1
        if losers <= 1 and bosses:
            return max(bosses, key=lambda p: (p.size, -p.value)), True
        n = self.n
        opps = self._opponents(s)
        opp_min = min((n[o] for o in opps), default=99)
        pc = n[(s + 2) % 4]
        if 0 < pc <= 2 and opp_min > pc and losers > 1:
            fed = self._feed(s, pc)
            if fed is not None:
                return fed
        counts: dict[str, int] = {}
        for p in ordinary:
            counts[p.kind] = counts.get(p.kind, 0) + 1
        best = None
        best_score = 1e9
        for p in ordinary:
            score = self._lead_score(s, p, counts, opps, opp_min)
            if score < best_score:
                best, best_score = p, score
        return best, True

    def _lead_score(self, s: int, p: P, counts: dict[str, int], opps: list[int], opp_min: int) -> float:
        base = _base_rank(p)
        n = self.n
        for o in opps:
            c = n[o]
            if (c <= DANGER and p.size == c) or (c <= 2 and p.size < c and p.kind == SINGLE):
                if not self.is_boss(s, p):
                    return (60 if p.size > 1 or opp_min == 1 else 40) - base
                break
        score = base
        if p.size >= 5:
            score -= 2.5
        elif p.size >= 3:
            score -= 1.0
        score -= 0.6 * (counts[p.kind] - 1)
        if p.cost < 0.6:
            score += 8
        return score

    def _feed(self, s: int, pc: int) -> tuple[P, bool] | None:
        """The lowest natural single (or pair, partner holding two) for a partner about to go out."""
        nat = self.nat[s]
        level = self.level
        for width in ((1,) if pc == 1 else (2, 1)):
            best = None
            for r in range(2, 15):
                if nat[r] >= width:
                    v = LEVEL_VALUE if r == level else r
                    if best is None or v < best[0]:
                        best = (v, r)
            if best is not None:
                v, r = best
                kind = SINGLE if width == 1 else PAIR
                p = P(kind, v, width, 0, ((r, width),), 0, 0, 0, 0.0)
                return p, p in self.plan(s)
        return None

    def follow(self, s: int) -> tuple[P, bool] | None:
        top = self.top
        ts = self.top_seat
        plan = self.plan(s)
        if len(plan) == 1 and beats(plan[0], top):
            return plan[0], True  # going out beats everything
        if ts == (s + 2) % 4:
            return None  # the partner's play runs
        n = self.n
        opps = self._opponents(s)
        opp_min = min((n[o] for o in opps), default=99)
        danger = opp_min <= DANGER
        top_out = not n[ts]
        # (cost change of the hand, value, play, planned): planned plays first, then plays taken
        # out of the hand's free groups (cards no planned sequence uses)
        ordinary: list[tuple[float, int, P, bool]] = []
        bombs = []
        for p in plan:
            if beats(p, top):
                if p.tier:
                    bombs.append(p)
                else:
                    ordinary.append((-p.cost, p.value, p, True))
        if not top.tier:
            ordinary.extend(self._unplanned(s, top))
        if ordinary:
            if any(n[o] == top.size for o in opps):
                bosses = [c for c in ordinary if self.is_boss(s, c[2])]
                if bosses:
                    c = min(bosses, key=lambda c: (round(c[0], 6), c[1]))
                else:
                    c = max(ordinary, key=lambda c: c[1])
                return c[2], c[3]
            c = min(ordinary, key=lambda c: (round(c[0], 6), c[1]))
            if c[0] <= FOLLOW_SLACK or danger or top_out:
                return c[2], c[3]
        if bombs:
            top_cards = n[ts]
            if top_out or top_cards <= BOMB_WHEN or danger or self._finishes(s, bombs):
                return min(bombs, key=lambda p: (p.tier, p.value)), True
        return None

    def _finishes(self, s: int, bombs: list[P]) -> bool:
        """After a bomb, at most one ordinary play left, or at most one nobody can beat."""
        ordinary = [p for p in self.plans[s] if not p.tier]
        return len(ordinary) <= 1 or sum(1 for p in ordinary if not self.is_boss(s, p)) <= 1

    def _free(self, s: int) -> list[int]:
        """Natural cards by rank that no planned sequence (or straight flush) uses."""
        free = list(self.nat[s])
        for p in self.plans[s]:
            if p.kind in _SEQ_WIDTH or p.tier == 3:
                for r, k in p.naturals:
                    free[r] -= k
        return free

    def _unplanned(self, s: int, top: P) -> list[tuple[float, int, P, bool]]:
        """Plays of the top's kind from free cards, each with the cost change of its groups."""
        free = self._free(s)
        level = self.level
        kind = top.kind
        out = []
        if kind in _GROUP_KINDS:
            width = _GROUP_KINDS[kind]
            for r in range(2, 15):
                f = free[r]
                if f >= width and f != width:  # (a whole group is a planned play already)
                    v = LEVEL_VALUE if r == level else r
                    if v > top.value:
                        delta = _group_cost(f - width, v) - _group_cost(f, v)
                        out.append((delta, v, P(kind, v, width, 0, ((r, width),), 0, 0, 0, 0.0), False))
        elif kind == FULL_HOUSE:
            pair = None
            for r in range(2, 15):
                if free[r] >= 2:
                    v = LEVEL_VALUE if r == level else r
                    d = _group_cost(free[r] - 2, v) - _group_cost(free[r], v)
                    if pair is None or d < pair[0]:
                        pair = (d, r)
            if pair is not None:
                for r in range(2, 15):
                    if free[r] >= 3 and r != pair[1]:
                        v = LEVEL_VALUE if r == level else r
                        if v > top.value:
                            d = _group_cost(free[r] - 3, v) - _group_cost(free[r], v) + pair[0]
                            nats = tuple(sorted(((r, 3), (pair[1], 2))))
                            out.append((d, v, P(FULL_HOUSE, v, 5, 0, nats, 0, 0, 0, 0.0), False))
        elif kind in _SEQ_WIDTH:
            width, length = _SEQ_WIDTH[kind]
            for hi in range(max(length, top.value + 1), 15):
                d = 0.0
                nats = []
                for q in range(hi - length + 1, hi + 1):
                    r = 14 if q == 1 else q
                    f = free[r]
                    if f < width:
                        break
                    v = LEVEL_VALUE if r == level else r
                    d += _group_cost(f - width, v) - _group_cost(f, v)
                    nats.append((r, width))
                else:
                    p = P(kind, hi, width * length, 0, tuple(sorted(nats)), 0, 0, 0, 0.0)
                    out.append((d, hi, p, False))
        return out

    def score(self, team: int) -> int:
        return deal_score(self.finished, team)


__all__ = ["FastDeal", "P", "as_p", "beats"]
