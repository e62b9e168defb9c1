"""The heuristic player: plays like a sensible partner from its own view only.

Every choice is judged by the hand it leaves (``hand.decompose``: fewest, cheapest plays).
Leading: the low play that is hardest to stop and keeps the hand easy to finish; winners
first when only one loser is left; feed a partner who is almost out; never hand an opponent
who is almost out the kind of play they can finish with. Following: the cheapest play that
beats without breaking the hand; the highest (or one nobody can beat) when an opponent could
go out over it; never over the partner unless that finishes or the next opponent could go
out on the partner's play; bombs only when the opponent who would win the trick is getting
low (``BOMB_WHEN`` cards), when any opponent is close to going out, to take the lead and
finish, or to keep the lead from the partner of an opponent who just went out (接风).
Late in the deal (``search_cards``) a look-ahead plays a few candidate actions out on sampled
deals of the unseen cards (``search.evaluate``) and keeps the rule of thumb's choice unless
another is clearly better. Returns: the card whose loss hurts least.
``decide`` also says why, in a sentence for the suggest button, in English and in Chinese (each
template written in both languages side by side, ``words.Said``).
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import NamedTuple

from ..cards import card_code
from ..moves import HandIndex, Shape, expand, play_groups
from ..plays import PAIR, SINGLE, STRAIGHT_FLUSH, TRIPLE, Play, beats, classify
from ..rules import Rules
from .base import Action, View, legal_actions_from_view, partner, play_action, top_play
from .hand import Plan, decompose, has_straight_flush, shape_cost, straight_flush_cards, tier_of
from .memory import Memory
from .search import compare, evaluate
from .words import SILENT, Said, card_words, kind_name, kind_words, n_cards, play_words

#: a following play may make the rest of the hand this much worse and still be worth it
FOLLOW_SLACK = 0.5
#: an opponent with at most this many cards is "close to going out"
DANGER = 4
#: bomb an opponent's play when that opponent holds at most this many cards
BOMB_WHEN = 10
#: how many beating shapes are weighed when following (cheapest first)
MAX_CANDIDATES = 14


class _Decision(NamedTuple):
    action: Action
    reason: str


class Decision(_Decision):
    """An action and why, unpacking as ``(action, reason)`` (English) as it always has; ``reason_zh``
    says the same in Chinese. The bot always gives both (``said``); two arguments remain for building
    one to compare with, and equality looks at the action and the English only."""

    reason_zh: str

    def __new__(cls, action: Action, reason: str, reason_zh: str = "") -> Decision:
        self = super().__new__(cls, action, reason)
        self.reason_zh = reason_zh
        return self

    @classmethod
    def said(cls, action: Action, why: Said) -> Decision:
        return cls(action, why.en, why.zh)


_RULES: dict[tuple, Rules] = {}


def _rules(view: View) -> Rules:
    """The view's rules, parsed once per distinct rule set (the look-ahead's views carry them parsed)."""
    parsed = view.get("parsed_rules")
    if parsed is not None:
        return parsed
    d = view.get("rules") or {}
    key = tuple(sorted(d.items()))
    got = _RULES.get(key)
    if got is None:
        got = _RULES[key] = Rules.from_dict(d)
    return got


class Context:
    """What one decision needs, computed from the view (card memory and the plan when first asked)."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.partner = partner(self.seat)
        self.level: int = view["level"]
        self.hand: list[int] = list(view["hand"])
        self.rules = _rules(view)
        counts = view.get("counts") or [27] * 4
        self.counts: list[int] = list(counts)
        self.finished = set(view.get("finished") or ())
        self.opponents = [s for s in ((self.seat + 1) % 4, (self.seat + 3) % 4) if s not in self.finished]
        self.opp_min = min((self.counts[s] for s in self.opponents), default=99)
        self.partner_cards = 0 if self.partner in self.finished else self.counts[self.partner]
        self.top = top_play(view)
        top = view.get("top")
        self.top_seat: int | None = top["seat"] if top else None

    @cached_property
    def memory(self) -> Memory:
        return Memory(self.hand, self.view.get("played") or [], self.level)

    @cached_property
    def plan(self) -> Plan:
        return decompose(self.hand, self.level)

    #: name plays in the reasons (the look-ahead's own players need no reasons)
    explain = True

    def name(self, play: Play) -> Said:
        return play_words(play, self.level) if self.explain else SILENT

    def say(self, template: Said, /, **parts: Said | str | int | float) -> Said:
        """The template filled in, in both languages (nothing for the look-ahead's own players)."""
        return template.fill(**parts) if self.explain else SILENT


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
    #: look ahead once the four hands hold at most this many cards in all (0: never)
    search_cards = 40
    #: ... and no hand holds more than this many (long rollouts; an easy win or loss anyway)
    search_hand = 16
    #: rollouts one look-ahead may spend, in cards (samples x candidates x cards in play)
    search_budget = 800
    search_min_samples = 3
    search_max_samples = 10
    #: candidate actions weighed by one look-ahead (the rule of thumb's own choice included)
    search_width = 5
    #: an alternative must beat the rule of thumb's choice by this much (levels per deal) and by
    #: this many standard errors of the difference over the same sampled deals
    search_margin = 0.25
    search_z = 1.5

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
                return Decision.said({"type": "next_deal"}, _NEXT_DEAL)
            if phase == "play" and view.get("turn") == view.get("seat"):
                ctx = Context(view)
                decision = self._lead(ctx) if ctx.top is None else self._follow(ctx)
                if (self.search_cards and sum(ctx.counts) <= self.search_cards
                        and max(ctx.counts) <= self.search_hand):
                    try:
                        decision = self._search(ctx, decision)
                    except Exception as exc:  # keep the rule of thumb's choice
                        self._error(f"look-ahead failed: {exc!r}")
                if self._legal(ctx, decision.action):
                    return decision
                self._error(f"illegal choice {decision.action} in {view}")
        except Exception as exc:  # a bot must never take the table down
            self._error(f"{exc!r} on view {view}")
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
                return Decision.said(a, _PASS)
        if not actions:
            raise ValueError(f"seat {view.get('seat')} has nothing to do in phase {view.get('phase')!r}")
        return Decision.said(actions[0], Said("a legal play", "出一手能出的牌"))

    def _realize(self, ctx: Context, shape: Shape, avoid: Counter | None = None) -> Play | None:
        return realize(ctx.hand, ctx.level, shape, avoid)

    def _reserved(self, ctx: Context, shape: Shape) -> Counter:
        return reserved(ctx.hand, ctx.level, ctx.plan, shape)

    def _remaining(self, ctx: Context, play: Play) -> list[int]:
        left = Counter(ctx.hand)
        left.subtract(play.cards)
        return list(left.elements())

    def _play(self, ctx: Context, shape: Shape, reason: Said, /, **parts: Said | int) -> Decision | None:
        """The shape as real cards; ``{play}`` in the reason becomes the play's name, the other
        fields come from ``parts``."""
        play = self._realize(ctx, shape, self._reserved(ctx, shape))
        if play is None:
            return None
        return _said(ctx, play_action(play), reason, play=ctx.name(play), **parts)

    def _to_finish(self, ctx: Context, n: int) -> Said:
        """``then 3 more plays to go out``; ``then one more play goes out``."""
        if n <= 0:
            return Said("and that goes out", "这手就出完了")
        if n == 1:
            return Said("then one more play goes out", "之后再出一手就走完")
        return ctx.say(Said("then {n} more plays to go out", "之后还要{n}手才能走完"), n=n)

    # ------------------------------------------------------------------ look-ahead

    def _alternatives(self, ctx: Context, first: Action) -> list[Action]:
        """A few sensible actions besides the rule of thumb's: the other planned leads; or pass,
        the cheapest and the highest beat and the cheapest bomb when following."""
        out = [first]
        seen = {_action_key(first)}

        def add(a: Action | None) -> None:
            if a is not None and _action_key(a) not in seen and len(out) < self.search_width:
                seen.add(_action_key(a))
                out.append(a)

        if ctx.top is None:
            for play in planned_leads(ctx.hand, ctx.level, ctx.plan):
                add(play_action(play))
            return out
        add({"type": "pass"})
        groups = play_groups(ctx.hand, ctx.level, ctx.top, ctx.rules)
        shapes = [sh for ss in groups.values() for sh in ss]
        ordinary = [sh for sh in shapes if not tier_of(sh.kind, sh.size)]
        bombs = [sh for sh in shapes if tier_of(sh.kind, sh.size)]
        best = self._cheapest(ctx, ordinary, ctx.plan.cost)
        if best is not None:
            add(play_action(best[1]))
        if ordinary:
            hi = max(ordinary, key=lambda sh: (sh.value, -sh.wilds))
            play = self._realize(ctx, hi, self._reserved(ctx, hi))
            if play is not None:
                add(play_action(play))
        b = self._cheapest(ctx, bombs, ctx.plan.cost)
        if b is not None:
            add(play_action(b[1]))
        return out

    def _search(self, ctx: Context, decision: Decision) -> Decision:
        """Play the rule of thumb's choice and a few others out on sampled deals; keep the best."""
        if decision.action["type"] == "play" and len(decision.action["cards"]) == len(ctx.hand):
            return decision  # going out is never wrong
        if ctx.top_seat == ctx.partner:
            return decision  # never second-guess letting the partner's play run (or the reasons to block)
        cands = self._alternatives(ctx, decision.action)
        if len(cands) < 2:
            return decision
        in_play = max(1, sum(ctx.counts))
        samples = self.search_budget // (len(cands) * in_play)
        samples = max(self.search_min_samples, min(self.search_max_samples, samples))
        scores = evaluate(ctx.view, ctx.memory.unseen, cands, _ROLLOUT.choose, samples)
        # An alternative must be better on the same sampled deals by a margin and clearly so
        # (not by the luck of a few samples); the rule of thumb's choice stays otherwise.
        best_k, best_mean = 0, 0.0
        for k in range(1, len(cands)):
            mean, se = compare(scores[0], scores[k])
            if mean >= self.search_margin and mean >= self.search_z * se and mean > best_mean:
                best_k, best_mean = k, mean
        if best_k == 0:
            return decision
        k = best_k
        avg = [sum(sc) / len(sc) for sc in scores]
        action = cands[k]
        verb = Said("lead {play}", "出{play}") if ctx.top is None else Said("play {play}", "出{play}")

        def said(a: Action) -> Said:
            if a["type"] == "pass":
                return _PASS
            return ctx.say(verb, play=ctx.name(Play(a["kind"], a["value"], tuple(a["cards"]))))

        why = Said("{this}: played out over {samples} likely deals of the unseen cards, this does best (on "
                   "average {mean:+.1f} levels for our team, against {other:+.1f} if we {that})",
                   "{this}：把没见过的牌按{samples}种可能的分法推演下去，这样打最好（我方平均{mean:+.1f}级，"
                   "若{that}则是{other:+.1f}级）")
        return _said(ctx, action, why, this=said(action), samples=samples, mean=avg[k], other=avg[0],
                     that=said(cands[0]))

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

        # Suits matter only to straight flushes: of the cards outside every straight flush the hand
        # could make, one per rank is enough; the others are each tried.
        sf = straight_flush_cards(hand, level)
        tried: dict[tuple[str, int], int] = {}
        for c in choices:
            tried.setdefault(("card", c) if c in sf else ("rank", _order(c, level)), c)
        card = min(tried.values(), key=lambda c: (cost_without(c), c))
        plan = decompose(hand, level)
        lone = any(s.kind == SINGLE and s.size == 1 and not s.wilds and s.value == _order(card, level)
                   for s in plan.plays)
        if lone:
            why = Said("return {card}: a lone card that fits no combination, so the hand misses it least",
                       "还{card}：这张单牌凑不成任何牌型，还掉它最不伤手牌")
        else:
            why = Said("return {card}: of the cards allowed, the hand misses it least",
                       "还{card}：能还的牌里，少了它手牌损失最小")
        return Decision.said({"type": "return", "card": int(card)}, why.fill(card=card_words(card)))

    # ------------------------------------------------------------------ lead

    def _lead(self, ctx: Context) -> Decision:
        plan = ctx.plan
        all_plays = list(plan.plays)
        if len(all_plays) == 1:
            d = self._play(ctx, all_plays[0], _GO_OUT)
            if d:
                return d
        ordinary = plan.ordinary
        mem = ctx.memory
        bosses = [s for s in ordinary if mem.is_boss(s)]
        losers = [s for s in ordinary if not mem.is_boss(s)]
        # Finish: winners first while at most one loser is left, then the loser.
        if len(losers) <= 1 and bosses:
            s = max(bosses, key=lambda s: (s.size, -s.value))
            d = self._play(ctx, s, Said("lead {play}: nobody can beat it except with a bomb, {finish}",
                                        "出{play}：除了炸弹没人要得起，{finish}"),
                           finish=self._to_finish(ctx, len(all_plays) - 1))
            if d:
                return d
        if not ordinary:
            s = min(plan.bombs, key=lambda s: (tier_of(s.kind, s.size), s.value))
            d = self._play(ctx, s, Said("lead {play}: only bombs are left, the smallest first",
                                        "出{play}：只剩炸弹了，先出最小的"))
            if d:
                return d
        # Feed a partner who is almost out, unless an opponent is closer.
        if 0 < ctx.partner_cards <= 2 and ctx.opp_min > ctx.partner_cards and len(losers) > 1:
            d = self._feed(ctx)
            if d:
                return d
        candidates = ordinary or all_plays
        scored = sorted(candidates, key=lambda s: self._lead_score(ctx, s, candidates))
        for s in scored:
            d = self._play(ctx, s, _LEAD, why=self._lead_reason(ctx, s, scored))
            if d:
                return d
        # Only if no planned play has real cards (a "straight" that is a straight flush only):
        # the lowest single.
        groups = play_groups(ctx.hand, ctx.level, None, ctx.rules)
        for s in sorted((s for (kind, _), ss in groups.items() if kind == SINGLE for s in ss),
                        key=lambda s: (s.wilds, s.value)):
            d = self._play(ctx, s, Said("lead {play}: the lowest card", "出{play}：最小的一张"))
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
        if self._lead_danger(ctx, s):
            return 60 - _base_rank(s) if s.size > 1 or ctx.opp_min == 1 else 40 - _base_rank(s)
        return score

    def _lead_danger(self, ctx: Context, s: Shape) -> int:
        """The card count of an opponent who could go out over this lead (0: none)."""
        if ctx.memory.is_boss(s):
            return 0
        for o in ctx.opponents:
            n = ctx.counts[o]
            if n <= self.danger and s.size == n:
                return n
            if n <= 2 and s.size < n and s.kind == SINGLE:
                return n
        return 0

    def _lead_reason(self, ctx: Context, s: Shape, scored: list[Shape]) -> Said:
        n = self._lead_danger(ctx, s)
        if n:
            why = Said("an opponent holds {n} and could go out over anything, so lead high to make them pay "
                       "for it",
                       "有对手只剩{n}，出小了就可能让他走掉，所以出大的，逼他拿大牌来管")
            return ctx.say(why, n=n_cards(n))
        avoided = [t for t in scored if self._lead_danger(ctx, t)]
        finish = self._to_finish(ctx, len(ctx.plan.plays) - 1)
        if avoided:
            kinds = [kind_words(k) for k in sorted({t.kind for t in avoided}, key=kind_name)]
            return ctx.say(Said("an opponent holds {n}, so no {kinds} they could go out on; {finish}",
                                "有对手只剩{n}，不出他能接着走掉的{kinds}；{finish}"),
                           n=n_cards(ctx.opp_min), kinds=Said(" or ", "或").join(kinds), finish=finish)
        if s.size >= 5:
            return ctx.say(Said("{size} low cards in one play; {finish}", "一手出掉{size}张小牌；{finish}"),
                           size=s.size, finish=finish)
        return ctx.say(Said("the lowest play that keeps the rest of the hand together; {finish}",
                            "最小的一手，又不拆散其余的牌；{finish}"), finish=finish)

    def _feed(self, ctx: Context) -> Decision | None:
        """Lead the lowest single (or pair) so the partner with 1–2 cards can go out on it."""
        want = SINGLE if ctx.partner_cards == 1 else PAIR
        groups = play_groups(ctx.hand, ctx.level, None, ctx.rules)
        shapes = [s for (kind, _), ss in groups.items() if kind == want for s in ss if not s.wilds]
        if not shapes and want == PAIR:
            want = SINGLE
            shapes = [s for (kind, _), ss in groups.items() if kind == want for s in ss if not s.wilds]
        if not shapes:
            return None
        s = min(shapes, key=lambda s: s.value)
        why = Said("lead {play}: partner holds {n}; the lowest {kind} gives them the best chance to go out "
                   "over it",
                   "出{play}：对家只剩{n}，出最小的{kind}，他最有机会接着走完")
        return self._play(ctx, s, why, n=n_cards(ctx.partner_cards), kind=kind_words(want))

    # ------------------------------------------------------------------ follow

    def _follow(self, ctx: Context) -> Decision:
        top = ctx.top
        assert top is not None
        what = ctx.name(top)
        if not can_beat(ctx.hand, ctx.level, top.kind, top.value, len(top.cards)):
            return _said(ctx, {"type": "pass"}, _NOTHING_BEATS, what=what)
        groups = play_groups(ctx.hand, ctx.level, top, ctx.rules)
        shapes = [s for ss in groups.values() for s in ss]
        if not shapes:
            return _said(ctx, {"type": "pass"}, _NOTHING_BEATS, what=what)
        n_hand = len(ctx.hand)
        # Going out beats everything, even over the partner.
        for s in shapes:
            if s.size == n_hand:
                d = self._play(ctx, s, _GO_OUT)
                if d:
                    return d
        if ctx.top_seat == ctx.partner:
            block = self._block(ctx, shapes)
            if block is not None:
                return block
            if ctx.partner in ctx.finished:
                return _said(ctx, {"type": "pass"},
                             Said("pass: partner went out with {what}; let it stand and take the lead (接风)",
                                  "过：对家出{what}走完了，不管它，由我接风"), what=what)
            return _said(ctx, {"type": "pass"}, Said("pass: partner's {what} is winning, let it run",
                                                     "过：对家的{what}最大，不用管"), what=what)
        base = ctx.plan.cost
        danger = ctx.opp_min <= self.danger
        ordinary = [s for s in shapes if not tier_of(s.kind, s.size)]
        bombs = [s for s in shapes if tier_of(s.kind, s.size)]
        if ordinary and not top.tier:
            threat = [o for o in ctx.opponents if ctx.counts[o] == len(top.cards)]
            if threat:
                stop = self._stopper(ctx, ordinary, base)
                if stop is not None:
                    return stop
        best = self._cheapest(ctx, ordinary, base)
        top_out = ctx.top_seat in ctx.finished  # an opponent went out with it
        if best is not None and top_out:
            why = Said("play {play}: an opponent went out with {what}; beat it to keep the lead from their "
                       "partner (接风)",
                       "出{play}：对手出{what}走完了，管住它，不让他的对家接风")
            return _said(ctx, play_action(best[1]), why, play=ctx.name(best[1]), what=what)
        if best is not None:
            delta, play, _left = best
            if delta <= self.follow_slack or danger:
                if play.value == min(s.value for s in ordinary):
                    why = Said("play {play}: the lowest {kind} that beats {what}",
                               "出{play}：能管{what}的最小{kind}")
                else:  # a lower one would break a combination
                    why = Said("play {play}: it beats {what} and keeps the rest of the hand together",
                               "出{play}：管得住{what}，又不拆散其余的牌")
                if delta > self.follow_slack:
                    why = why.then(Said("; worth breaking the hand, an opponent holds {n}",
                                        "；有对手只剩{n}，拆牌也值得"))
                return _said(ctx, play_action(play), why, play=ctx.name(play), kind=kind_words(play.kind),
                             what=what, n=n_cards(ctx.opp_min))
        if bombs:
            bomb = self._cheapest(ctx, bombs, base)
            if bomb is not None:
                _delta, play, left = bomb
                top_cards = ctx.counts[ctx.top_seat] if ctx.top_seat is not None else 99
                after = decompose(left, ctx.level)
                finish = len(after.ordinary) <= 1 or sum(
                    1 for s in after.ordinary if not ctx.memory.is_boss(s)) <= 1
                count = ctx.opp_min
                if top_out and ctx.opponents:
                    why = Said("bomb with {name}: an opponent went out with {what}; keep the lead from their "
                               "partner (接风)",
                               "用{name}炸：对手出{what}走完了，不让他的对家接风")
                elif top_cards <= self.bomb_when:
                    why = Said("bomb with {name}: the opponent who played {what} holds only {n}",
                               "用{name}炸：出{what}的对手只剩{n}")
                    count = top_cards
                elif danger:
                    why = Said("bomb with {name}: an opponent holds {n}", "用{name}炸：有对手只剩{n}")
                elif finish:
                    why = Said("bomb with {name}: take the lead and finish", "用{name}炸：拿回牌权，一路走完")
                else:
                    total = sum(ctx.counts[o] for o in ctx.opponents)
                    return _said(ctx, {"type": "pass"}, Said("keep the bomb: opponents hold {n}",
                                                             "过，炸弹留着：对手还有{n}"), n=n_cards(total))
                return _said(ctx, play_action(play), why, name=ctx.name(play), what=what, n=n_cards(count))
        if best is not None:
            return _said(ctx, {"type": "pass"}, Said("pass: beating {what} would break up the hand",
                                                     "过：要管{what}就得拆牌"), what=what)
        return _said(ctx, {"type": "pass"}, Said("pass: nothing sensible beats {what}",
                                                 "过：没有合适的牌管{what}"), what=what)

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
        whose = (Said("partner's last play", "对家最后一手") if ctx.partner in ctx.finished
                 else Said("partner", "对家"))
        why = Said("play {play} over the {whose}: the next opponent holds {n} and could go out over {top}",
                   "出{play}压{whose}：下家只剩{n}，可能管上{top}就走完")
        return self._play(ctx, s, why, whose=whose, n=n_cards(ctx.counts[nxt]), top=ctx.name(top))

    def _stopper(self, ctx: Context, ordinary: list[Shape], base: float) -> Decision | None:
        """An opponent could go out over our play: one nobody can beat, else the highest."""
        n = n_cards(len(ctx.top.cards))
        bosses = [s for s in ordinary if ctx.memory.is_boss(s)]
        if bosses:
            best = self._cheapest(ctx, bosses, base)
            if best is not None:
                why = Said("play {play}: nobody can beat it except with a bomb, and an opponent holding {n} "
                           "could go out over anything less",
                           "出{play}：除了炸弹没人要得起；有对手只剩{n}，出小了他就能走")
                return _said(ctx, play_action(best[1]), why, play=ctx.name(best[1]), n=n)
        s = max(ordinary, key=lambda s: (s.value, -s.wilds))
        why = Said("play {play}: the highest we have, so an opponent holding {n} is least likely to go out "
                   "over it",
                   "出{play}：手里最大的一手，只剩{n}的对手最难压过它走完")
        return self._play(ctx, s, why, n=n)

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


class _Rollout(HeuristicBot):
    """The rule of thumb alone: what every seat plays in the look-ahead's sampled deals.

    Its views come from the look-ahead's own simulation, so the legality check is skipped.
    """

    search_cards = 0

    def choose(self, view: View) -> Action:
        ctx = Context(view)
        ctx.explain = False
        return (self._lead(ctx) if ctx.top is None else self._follow(ctx)).action


def can_beat(hand: list[int], level: int, kind: str, value: int, size: int) -> bool:
    """False only when nothing in ``hand`` can beat the play (a quick count; True may be a maybe)."""
    wild = card_code(level, 1)
    w = 0
    nat = [0] * 18  # natural cards by compared value (level rank 15, jokers 16/17)
    for c in hand:
        if c == wild:
            w += 1
        elif c >= 52:
            nat[c - 36] += 1
        else:
            r = (c >> 2) + 2
            nat[15 if r == level else r] += 1
    n = len(hand)
    if n >= 4 and (max(nat[2:16]) + w >= 4 or (nat[16] == 2 and nat[17] == 2)):
        return True  # a bomb
    if n >= 5 and has_straight_flush(hand, level):
        return True
    if kind == SINGLE:
        return any(nat[v] for v in range(value + 1, 18)) or (w > 0 and value < 15)
    if kind == PAIR:
        return any(nat[v] + (w if v <= 15 else 0) >= 2 for v in range(value + 1, 18))
    if kind == TRIPLE:
        return any(nat[v] + w >= 3 for v in range(value + 1, 16))
    if tier_of(kind, size):
        return False  # no bomb in the hand
    return n >= size


_ROLLOUT = _Rollout()


def _said(ctx: Context, action: Action, why: Said, /, **parts: Said | str | int | float) -> Decision:
    """The action and why, the reason filled in only when someone will read it (``Context.say``)."""
    return Decision.said(action, ctx.say(why, **parts))


# Phrases more than one decision path says.
_PASS = Said("pass", "过")
_NEXT_DEAL = Said("start the next deal", "开始下一局")
_GO_OUT = Said("go out with {play}: the last cards", "出{play}走完：手里最后的牌")
_LEAD = Said("lead {play}: {why}", "出{play}：{why}")
_NOTHING_BEATS = Said("pass: nothing in the hand beats {what}", "过：手里没有能管{what}的牌")


def _action_key(a: Action) -> tuple:
    if a["type"] != "play":
        return (a["type"],)
    return ("play", tuple(sorted(a["cards"])), a["kind"], a["value"])


def _order(code: int, level: int) -> int:
    if code >= 52:
        return code - 36  # 16, 17
    r = (code >> 2) + 2
    return 15 if r == level else r


def realize(hand: list[int], level: int, shape: Shape, avoid: Counter | None = None) -> Play | None:
    """Physical cards for a shape, keeping clear of cards another planned play needs."""
    plays = expand(HandIndex(hand, level), shape)
    if not plays:
        return None
    if avoid:
        return min(plays, key=lambda p: sum(min(n, avoid[c]) for c, n in Counter(p.cards).items()))
    return plays[0]


def reserved(hand: list[int], level: int, plan: Plan, shape: Shape) -> Counter:
    """Cards of the planned straight flush (suits matter only there)."""
    out: Counter = Counter()
    for s in plan.plays:
        if s.kind == STRAIGHT_FLUSH and s != shape:
            p = realize(hand, level, s)
            if p:
                out.update(p.cards)
    return out


def planned_leads(hand: list[int], level: int, plan: Plan | None = None) -> list[Play]:
    """The plays the hand is built for, as real cards: ordinary ones low first, then the bombs up
    the ladder. The sensible leads, without breaking a pair or a straight to make another."""
    plan = plan or decompose(hand, level)
    out = []
    for sh in sorted(plan.plays, key=lambda sh: (tier_of(sh.kind, sh.size), _base_rank(sh))):
        play = realize(hand, level, sh, reserved(hand, level, plan, sh))
        if play is not None:
            out.append(play)
    return out


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
