"""The strong player: the heuristic's candidates, chosen between by playing each out on sampled deals.

Every decision in play (from the first lead on) takes the heuristic's rule-of-thumb action and a
few alternatives from its plans (the other planned leads; pass, the cheapest and the highest beat,
the cheapest bomb when following), deals the unseen cards at random consistent with what this seat
has seen (``sampler.Constraints``: counts, cards played, tribute and return cards), and plays each
candidate out to the end of the deal with the fast plan-following policy (``rollout.FastDeal``) at
all four seats. Every candidate meets the same sampled deals, scored by the upgrade they end with for
the team (``win_weight`` adds a value for winning the deal: at 100, the deal won first, the bot won more
duplicate deals against the heuristic but gained fewer levels and fewer whole matches: bench/RESULTS.md).
The rule of thumb's choice stays unless another is better on those deals by a margin and by ``z``
standard errors of the difference: with a few deals a noisy candidate would otherwise win (the max
of noisy means), and that lost most deals against the heuristic in trials. Nor does it bomb where the
rule of thumb would not: judged on the real hands (bench/strong_candidates.py), those departures
lost, uniform deals of the unseen cards overrate a bomb. More samples are spent when fewer cards are
in play (shorter rollouts), within a fixed budget of rollout work, so a decision stays fast and, being
seeded from the seed and the view only, reproducible. Returns and next-deal are the heuristic's.
"""

from __future__ import annotations

import random

from ..plays import Play
from .base import Action, View
from .hand import decompose, tier_of
from .heuristic import Context, Decision, HeuristicBot
from .rollout import FastDeal, P, as_p
from .sampler import Constraints
from .search import _passes_so_far, compare, view_seed
from .words import Said


class StrongBot(HeuristicBot):
    """Determinized search over the heuristic's candidate actions."""

    name = "strong"
    search_cards = 0  # the heuristic's own late look-ahead: replaced by the search below
    #: candidate actions weighed per decision (the rule of thumb's own choice included)
    search_width = 6
    #: rollout work per decision, in cards in play summed over rollouts
    budget = 2500
    min_samples = 6
    max_samples = 30
    #: an alternative replaces the rule of thumb's choice only when better on the same sampled deals
    #: by this much (points of ``value`` per deal; with ``win_weight`` 100, 15 is 0.15 deals won) and by
    #: this many standard errors of the difference: with a handful of deals the noisiest would win
    margin = 0.15
    z = 2.0
    #: what winning the deal is worth on top of its upgrade (1-3 levels): 0 scores the upgrade alone
    #: (matches are won by levels); 100 puts the deal won first, levels breaking ties
    win_weight = 0
    #: may the search bomb where the rule of thumb would not? Judged on the real hands, such
    #: departures lost levels and deals (bench/strong_candidates.py): the sampled deals, dealt
    #: uniformly, overrate a bomb
    bomb_departures = False

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.seed = seed

    def decide(self, view: View) -> Decision:
        decision = super().decide(view)
        if view.get("phase") != "play" or view.get("turn") != view.get("seat") or self.errors:
            return decision
        try:
            return self._choose(Context(view), decision)
        except Exception as exc:  # keep the rule of thumb's (checked) choice
            self._error(f"search failed: {exc!r}")
            return decision

    def _choose(self, ctx: Context, decision: Decision) -> Decision:
        action = decision.action
        if action["type"] == "play" and len(action["cards"]) == len(ctx.hand):
            return decision  # going out is never wrong
        cands = self.candidates(ctx, action)
        if len(cands) < 2:
            return decision
        samples = self.samples_for(ctx, len(cands))
        scores = self.evaluate(ctx, cands, samples)
        best = self.pick(scores)
        if best == 0 or not self._legal(ctx, cands[best]):
            return decision
        if not self.win_weight:  # scored by the levels: say what they come to
            means = [sum(sc) / len(sc) for sc in scores]
            return Decision.said(cands[best], ctx.say(_BY_LEVELS, samples=samples, mean=means[best],
                                                      other=means[0]))
        won = [round(100 * sum(1 for x in sc if x > 0) / len(sc)) for sc in scores]
        return Decision.said(cands[best], ctx.say(_BY_WINS, samples=samples, won=won[best], other=won[0]))

    def candidates(self, ctx: Context, action: Action) -> list[Action]:
        """The rule of thumb's ``action`` first, then the alternatives the search may choose."""
        cands = self._alternatives(ctx, action)
        if not self.bomb_departures and not is_bomb(action):
            cands = [a for a in cands if not is_bomb(a)]
        return cands

    def samples_for(self, ctx: Context, n_cands: int) -> int:
        """Sampled deals per candidate: more when fewer cards are in play, within ``budget``."""
        in_play = max(1, sum(ctx.counts))
        return max(self.min_samples, min(self.max_samples, self.budget // (n_cands * in_play)))

    def pick(self, scores: list[list[int]]) -> int:
        """The candidate to play (0: the rule of thumb's), from their scores on the same deals."""
        best, best_gain = 0, 0.0
        for k in range(1, len(scores)):
            gain, se = compare(scores[0], scores[k])
            if gain >= self.margin and gain >= self.z * se and gain > best_gain:
                best, best_gain = k, gain
        return best

    def evaluate(self, ctx: Context, cands: list[Action], samples: int,
                 cons: Constraints | None = None) -> list[list[int]]:
        """Each candidate's ``value`` for this seat's team on each sampled deal (the same deals for all);
        ``cons`` deals them (by default: uniformly, consistent with the view)."""
        view = ctx.view
        seat = ctx.seat
        team = seat % 2
        level = ctx.level
        rng = random.Random(view_seed(view, f"strong:{self.seed}"))
        if cons is None:
            cons = Constraints(view, ctx.memory.unseen)
        top = None
        if ctx.top is not None:
            t = ctx.top
            top = P(t.kind, t.value, len(t.cards), t.tier, (), 0, 0, 0, 0.0)
        passes = _passes_so_far(view)
        finished = list(view.get("finished") or ())
        # after each candidate: its play and the plan of the cards it leaves (the same on every deal)
        after: list[tuple[P | None, list[P] | None, list[int]]] = []
        for a in cands:
            if a["type"] == "pass":
                after.append((None, None, []))
                continue
            cards = [int(c) for c in a["cards"]]
            left = list(ctx.hand)
            for c in cards:
                left.remove(c)
            plan = [as_p(s) for s in decompose(left, level).plays] if left else []
            size = len(cards)
            p = P(a["kind"], a["value"], size, tier_of(a["kind"], size), (), 0, 0, 0, 0.0)
            after.append((p, plan, cards))
        scores: list[list[int]] = [[] for _ in cands]
        for _ in range(samples):
            hands = cons.sample(ctx.hand, rng)
            base = FastDeal(hands, level, seat, top, ctx.top_seat, passes, finished)
            for s in range(4):  # the other hands are planned once per deal, for every candidate
                if s != seat and base.n[s]:
                    base.plan(s)
            for k, (p, plan, cards) in enumerate(after):
                d = base.copy()
                if p is None:
                    d.do_pass(seat)
                else:
                    d.remove_cards(seat, cards)
                    d.plans[seat] = list(plan)
                    d.after_play(seat, p)
                scores[k].append(self.value(d.run(team)))
        return scores

    def value(self, upgrade: int) -> int:
        """A deal's end for the team: its upgrade (negative when lost), plus ``win_weight`` if won."""
        return upgrade + (self.win_weight if upgrade > 0 else -self.win_weight)


_BY_LEVELS = Said("played out over {samples} likely deals of the unseen cards, this does best (on average "
                  "{mean:+.2f} levels for our team, against {other:+.2f} for the rule of thumb's choice)",
                  "把没见过的牌按{samples}种可能的分法推演下去，这样打最好（我方平均{mean:+.2f}级，"
                  "常规打法是{other:+.2f}级）")
_BY_WINS = Said("played out over {samples} likely deals of the unseen cards, this does best (our team "
                "wins {won}% of them, against {other}% with the rule of thumb's choice)",
                "把没见过的牌按{samples}种可能的分法推演下去，这样打最好（我方赢{won}%，常规打法赢{other}%）")


def is_bomb(action: Action) -> bool:
    """A play of the bomb class (``Play.is_bomb``: bombs, straight flushes, the joker bomb)."""
    return action["type"] == "play" and Play(action["kind"], action["value"], ()).is_bomb


__all__ = ["StrongBot", "is_bomb"]
