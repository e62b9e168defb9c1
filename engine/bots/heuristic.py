"""The heuristic player: plays like a sensible partner from its own view only.

Every choice is judged by the hand it leaves (``hand.decompose``: fewest, cheapest plays).
Leading: the low play that is hardest to stop and keeps the hand easy to finish; winners
first when only one loser is left; feed a partner who is almost out; never hand an opponent
who is almost out the kind of play they can finish with. Following: the cheapest play that
beats without breaking the hand; never over the partner unless that finishes or the next
opponent could go out on the partner's play; bombs only when the opponent who would win the
trick is getting low (``BOMB_WHEN`` cards, measured best in the arena), when any opponent is
close to going out, or to take the lead and finish. Returns: the card whose loss hurts least.
``decide`` also says why, for the suggest button.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from ..cards import NAMES
from ..moves import HandIndex, Shape, expand, play_groups
from ..plays import PAIR, SINGLE, STRAIGHT_FLUSH, Play, beats, classify
from .base import Action, View, legal_actions_from_view, partner, play_action, top_play, view_rules
from .hand import Plan, decompose, shape_cost, tier_of
from .memory import Memory

#: a following play may make the rest of the hand this much worse and still be worth it
FOLLOW_SLACK = 0.5
#: an opponent with at most this many cards is "close to going out"
DANGER = 4
#: bomb an opponent's play when that opponent holds at most this many cards
BOMB_WHEN = 10
#: how many beating shapes are weighed when following (cheapest first)
MAX_CANDIDATES = 14


class Decision(NamedTuple):
    action: Action
    reason: str


class Context:
    """What one decision needs, computed once from the view."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.partner = partner(self.seat)
        self.level: int = view["level"]
        self.hand: list[int] = list(view["hand"])
        self.rules = view_rules(view)
        counts = view.get("counts") or [27] * 4
        self.counts: list[int] = list(counts)
        self.finished = set(view.get("finished") or ())
        self.opponents = [s for s in ((self.seat + 1) % 4, (self.seat + 3) % 4) if s not in self.finished]
        self.opp_min = min((self.counts[s] for s in self.opponents), default=99)
        self.partner_cards = 0 if self.partner in self.finished else self.counts[self.partner]
        self.memory = Memory(self.hand, view.get("played") or [], self.level)
        self.plan: Plan = decompose(self.hand, self.level)
        self.top = top_play(view)
        top = view.get("top")
        self.top_seat: int | None = top["seat"] if top else None


class HeuristicBot:
    """A real player: plan-based leads and follows, partner-aware, bombs with a purpose."""

    name = "heuristic"
    follow_slack = FOLLOW_SLACK
    danger = DANGER
    bomb_when = BOMB_WHEN
    max_candidates = MAX_CANDIDATES
    # lead preferences (in rank steps): 5-6 card plays, 3-4 card plays, each other play of the kind
    lead_big = 2.5
    lead_mid = 1.0
    lead_same = 0.6
    #: plays cheaper than this in the plan are control cards, led only when nothing else is left
    control = 0.6

    def __init__(self, seed: int | str | None = None) -> None:
        self.errors: list[str] = []  # decisions that fell back to a safe legal action (should stay empty)

    def choose(self, view: View) -> Action:
        return self.decide(view).action

    def decide(self, view: View) -> Decision:
        """The action and a short human reason; falls back to a safe legal action, never raises."""
        try:
            phase = view.get("phase")
            if phase == "return":
                return self._return(view)
            if phase == "deal_over":
                return Decision({"type": "next_deal"}, "start the next deal")
            if phase == "play" and view.get("turn") == view.get("seat"):
                ctx = Context(view)
                decision = self._lead(ctx) if ctx.top is None else self._follow(ctx)
                if self._legal(ctx, decision.action):
                    return decision
                self._error(f"illegal choice {decision.action} in {view}")
        except Exception as exc:  # a bot must never take the table down
            self._error(repr(exc))
        return self._fallback(view)

    # ------------------------------------------------------------------ helpers

    def _error(self, what: str) -> None:
        self.errors.append(what)
        del self.errors[:-20]  # a long-lived adviser keeps only the latest few

    def _legal(self, ctx: Context, action: Action) -> bool:
        if action["type"] == "pass":
            return ctx.top is not None
        cards = action["cards"]
        have = Counter(ctx.hand)
        if any(n > have[c] for c, n in Counter(cards).items()):
            return False
        for p in classify(cards, ctx.level, ctx.rules):
            if p.kind == action["kind"] and p.value == action["value"]:
                return beats(p, ctx.top)
        return False

    def _fallback(self, view: View) -> Decision:
        actions = legal_actions_from_view(view)
        for a in actions:
            if a["type"] == "pass":
                return Decision(a, "pass")
        if not actions:
            raise ValueError(f"seat {view.get('seat')} has nothing to do in phase {view.get('phase')!r}")
        return Decision(actions[0], "a legal play")

    def _realize(self, ctx: Context, shape: Shape, avoid: Counter | None = None) -> Play | None:
        """Physical cards for a shape, keeping clear of cards another planned play needs."""
        plays = expand(HandIndex(ctx.hand, ctx.level), shape)
        if not plays:
            return None
        if avoid:
            return min(plays, key=lambda p: sum(min(n, avoid[c]) for c, n in Counter(p.cards).items()))
        return plays[0]

    def _reserved(self, ctx: Context, shape: Shape) -> Counter:
        """Cards of the planned straight flush (suits matter only there)."""
        out: Counter = Counter()
        for s in ctx.plan.plays:
            if s.kind == STRAIGHT_FLUSH and s != shape:
                p = self._realize(ctx, s)
                if p:
                    out.update(p.cards)
        return out

    def _remaining(self, ctx: Context, play: Play) -> list[int]:
        left = Counter(ctx.hand)
        left.subtract(play.cards)
        return list(left.elements())

    def _play(self, ctx: Context, shape: Shape, reason: str) -> Decision | None:
        play = self._realize(ctx, shape, self._reserved(ctx, shape))
        if play is None:
            return None
        return Decision(play_action(play), reason.format(play=play.describe()))

    # ------------------------------------------------------------------ return

    def _return(self, view: View) -> Decision:
        choices = sorted(set(view.get("return_choices") or ()))
        if not choices:
            return self._fallback(view)
        hand = list(view["hand"])
        level = view["level"]

        def cost_without(c: int) -> tuple[float, int]:
            left = list(hand)
            left.remove(c)
            return round(decompose(left, level).cost, 6), _order(c, level)

        # One card per rank first (suits only matter for straight flushes), then the suits of the
        # best rank: half the decompositions of trying every card.
        by_rank: dict[int, list[int]] = {}
        for c in choices:
            by_rank.setdefault(_order(c, level), []).append(c)
        rank = min(by_rank, key=lambda r: cost_without(by_rank[r][0]))
        card = min(by_rank[rank], key=cost_without)
        return Decision({"type": "return", "card": int(card)},
                        f"return {_card_name(card)}: it hurts the hand least")

    # ------------------------------------------------------------------ lead

    def _lead(self, ctx: Context) -> Decision:
        plan = ctx.plan
        plays = list(plan.plays)
        if len(plays) == 1:
            d = self._play(ctx, plays[0], "{play}: the last cards, go out")
            if d:
                return d
        ordinary = plan.ordinary
        mem = ctx.memory
        bosses = [s for s in ordinary if mem.is_boss(s)]
        losers = [s for s in ordinary if not mem.is_boss(s)]
        # Finish: winners first while at most one loser is left, then the loser.
        if len(losers) <= 1 and bosses:
            s = max(bosses, key=lambda s: (s.size, -s.value))
            d = self._play(ctx, s, "{play}: nobody can beat it, then go out")
            if d:
                return d
        if not ordinary:
            s = min(plan.bombs, key=lambda s: (tier_of(s.kind, s.size), s.value))
            d = self._play(ctx, s, "{play}: only bombs left")
            if d:
                return d
        # Feed a partner who is almost out, unless an opponent is closer.
        if 0 < ctx.partner_cards <= 2 and ctx.opp_min > ctx.partner_cards and len(losers) > 1:
            d = self._feed(ctx)
            if d:
                return d
        candidates = ordinary or list(plays)
        scored = sorted(candidates, key=lambda s: self._lead_score(ctx, s, candidates))
        for s in scored:
            d = self._play(ctx, s, "lead {play}: " + self._lead_reason(ctx, s))
            if d:
                return d
        raise RuntimeError("no lead found")

    def _lead_score(self, ctx: Context, s: Shape, candidates: list[Shape]) -> float:
        """Lower leads first: low plays, many cards at once, kinds we hold several of."""
        score = _base_rank(s)
        if s.size >= 5:
            score -= self.lead_big
        elif s.size >= 3:
            score -= self.lead_mid
        same = sum(1 for t in candidates if t.kind == s.kind)
        score -= self.lead_same * (same - 1)
        if shape_cost(s) < self.control:  # a control card: keep it to win the lead back
            score += 8
        # Never hand an opponent who is almost out a play of the size they can finish with; when
        # every choice is like that, lead from the top so they need their best card to beat it.
        if ctx.memory.is_boss(s):
            return score
        for o in ctx.opponents:
            n = ctx.counts[o]
            if n <= self.danger and s.size == n:
                return 60 - _base_rank(s)
            if n <= 2 and s.size < n and s.kind == SINGLE:
                return 40 - _base_rank(s)
        return score

    def _lead_reason(self, ctx: Context, s: Shape) -> str:
        if any(ctx.counts[o] <= 2 for o in ctx.opponents):
            return f"an opponent holds {ctx.opp_min} card(s), keep them from finishing"
        n = len(ctx.plan.plays)
        return f"a low play; the hand then needs {n - 1} more play(s)"

    def _feed(self, ctx: Context) -> Decision | None:
        """Lead the lowest single (or pair) so the partner with 1–2 cards can go out on it."""
        want = SINGLE if ctx.partner_cards == 1 else PAIR
        shapes = [s for (kind, _), ss in play_groups(ctx.hand, ctx.level, None, ctx.rules).items()
                  if kind == want for s in ss if not s.wilds]
        if not shapes and want == PAIR:
            want = SINGLE
            shapes = [s for (kind, _), ss in play_groups(ctx.hand, ctx.level, None, ctx.rules).items()
                      if kind == want for s in ss if not s.wilds]
        if not shapes:
            return None
        s = min(shapes, key=lambda s: s.value)
        what = "single" if want == SINGLE else "pair"
        return self._play(ctx, s, f"lead {{play}}: partner holds {ctx.partner_cards} card(s), "
                                  f"the lowest {what} they can beat")

    # ------------------------------------------------------------------ follow

    def _follow(self, ctx: Context) -> Decision:
        top = ctx.top
        assert top is not None
        groups = play_groups(ctx.hand, ctx.level, top, ctx.rules)
        shapes = [s for ss in groups.values() for s in ss]
        what = top.describe()
        if not shapes:
            return Decision({"type": "pass"}, f"nothing beats {what}")
        n_hand = len(ctx.hand)
        # Going out beats everything, even over the partner.
        for s in shapes:
            if s.size == n_hand:
                d = self._play(ctx, s, "{play}: the last cards, go out")
                if d:
                    return d
        if ctx.top_seat == ctx.partner:
            if ctx.partner in ctx.finished:
                return Decision({"type": "pass"}, f"partner went out with {what}: let it stand and "
                                                  "take the lead (接风)")
            block = self._block(ctx, shapes)
            if block is not None:
                return block
            return Decision({"type": "pass"}, f"partner's {what} is winning: let it run")
        base = ctx.plan.cost
        danger = ctx.opp_min <= self.danger
        ordinary = [s for s in shapes if not tier_of(s.kind, s.size)]
        bombs = [s for s in shapes if tier_of(s.kind, s.size)]
        best = self._cheapest(ctx, ordinary, base)
        if best is not None:
            delta, play, left = best
            if delta <= self.follow_slack or danger:
                if play.value == min(s.value for s in ordinary):
                    reason = f"lowest {play.kind.replace('_', ' ')} that beats {what}"
                else:  # a lower one would break a combination
                    reason = f"{play.describe()} beats {what} and keeps the rest of the hand together"
                if delta > self.follow_slack:
                    reason += f" (an opponent holds {ctx.opp_min} card(s))"
                return Decision(play_action(play), reason)
        if bombs:
            bomb = self._cheapest(ctx, bombs, base)
            if bomb is not None:
                delta, play, left = bomb
                top_cards = ctx.counts[ctx.top_seat] if ctx.top_seat is not None else 99
                after = decompose(left, ctx.level)
                finish = len(after.ordinary) <= 1 or sum(
                    1 for s in after.ordinary if not ctx.memory.is_boss(s)) <= 1
                if top_cards <= self.bomb_when or danger:
                    return Decision(play_action(play), f"bomb with {play.describe()}: an opponent holds "
                                                       f"{min(top_cards, ctx.opp_min)} card(s)")
                if finish:
                    return Decision(play_action(play),
                                    f"bomb with {play.describe()}: take the lead and finish")
                total = sum(ctx.counts[o] for o in ctx.opponents)
                return Decision({"type": "pass"}, f"keep the bomb: opponents hold {total} cards")
        if best is not None:
            return Decision({"type": "pass"}, f"beating {what} would break the hand: pass")
        return Decision({"type": "pass"}, f"nothing sensible beats {what}")

    def _block(self, ctx: Context, shapes: list[Shape]) -> Decision | None:
        """Over the partner only when the next opponent could go out on the partner's play."""
        top = ctx.top
        nxt = (ctx.seat + 1) % 4
        if nxt in ctx.finished or top.tier or ctx.counts[nxt] != len(top.cards):
            return None
        if ctx.memory.is_boss(Shape(top.kind, top.value, (), 0)):
            return None
        ordinary = [s for s in shapes if not tier_of(s.kind, s.size)]
        if not ordinary:
            return None
        bosses = [s for s in ordinary if ctx.memory.is_boss(s)]
        s = min(bosses, key=lambda s: (s.wilds, s.value)) if bosses else max(ordinary, key=lambda s: s.value)
        return self._play(ctx, s, f"{{play}} over the partner: the next opponent holds {ctx.counts[nxt]} "
                                  f"card(s) and could go out on {top.describe()}")

    def _cheapest(
        self, ctx: Context, shapes: list[Shape], base: float
    ) -> tuple[float, Play, list[int]] | None:
        """The beating play that leaves the cheapest hand: (cost increase, play, cards left)."""
        planned = set(ctx.plan.plays)
        shapes = sorted(shapes, key=lambda s: (s not in planned, s.wilds, tier_of(s.kind, s.size), s.value))
        best = None
        for s in shapes[:self.max_candidates]:
            play = self._realize(ctx, s, self._reserved(ctx, s))
            if play is None:
                continue
            left = self._remaining(ctx, play)
            delta = decompose(left, ctx.level).cost - base
            key = (round(delta, 6), tier_of(s.kind, s.size), s.value)
            if best is None or key < best[0]:
                best = (key, delta, play, left)
        if best is None:
            return None
        return best[1], best[2], best[3]


def _order(code: int, level: int) -> int:
    if code >= 52:
        return code - 36  # 16, 17
    r = (code >> 2) + 2
    return 15 if r == level else r


def _card_name(code: int) -> str:
    return NAMES[code]


def _base_rank(s: Shape) -> float:
    """Where a play sits among plays of its kind, on one 2..17 scale (sequences by their low end)."""
    if s.kind in ("straight", "straight_flush"):
        return s.value - 2
    if s.kind == "tube":
        return s.value - 1
    if s.kind == "plate":
        return s.value - 0.5
    return s.value


__all__ = ["HeuristicBot", "Decision"]
