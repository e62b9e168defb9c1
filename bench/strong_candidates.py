"""How well the strong bot's sampled deals predict what its candidates are really worth.

Run: python bench/strong_candidates.py [--deals N] [--seed S] [--samples K] [--estimate HOW]

Plays seeded deals with the heuristic at all four seats. At every play decision of seats 0 and 2 the
strong bot's candidates (bombs included) are scored twice: by the bot's own search on ``K`` sampled
deals of the unseen cards (what it sees), and on the real hands, each candidate followed by the rule of
thumb at all four seats (what it is worth against players like the arena's). It prints:

- how closely the search's estimate of a candidate against the rule of thumb's choice follows its real
  worth (correlation, in levels and in deals won), by lead or follow and by cards still in play, and how
  often another candidate changes who wins the deal on the real hands;
- the bot's own choice rule (``StrongBot.candidates``, ``samples_for``, ``pick``) replayed on these
  decisions, as it is and with bomb departures allowed: departures a deal and what they are worth, by kind;
- the best candidate on the real hands, decision by decision: what a search that saw the cards could win.

``--estimate`` says what the estimate is, to tell the search's two sources of error apart: ``search``
(the bot's own: fast rollouts on sampled deals), ``fast-real`` (one fast rollout on the real hands: the
rollout policy's own error, no sampling), ``rule-sampled`` (the rule of thumb playing out each sampled
deal: the sampling's error, with the arena's own policy; about 40 times slower), ``search-read`` (the
bot's search on deals resampled by how well they explain the other seats' actions: ``hand_reading.py``;
``--particles``, ``--miss``; ``search`` with the same ``--samples`` is its uniform counterpart).

``bench/strong_departures.py`` follows the bot's departures as played; this weighs every candidate of
every decision. It ranks kinds of departures; it does not predict whole deals (one decision followed by
the rule of thumb is not how a deal goes on when the bot departs again and again): a rule it judged
better lost over 1000 arena deals (bench/RESULTS.md). The arena decides.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field

from hand_reading import ReadDeals, Story
from strong_departures import mean_se, play_out, rule_of_thumb, show

from engine.bots import make_bot
from engine.bots.base import Action, View
from engine.bots.heuristic import Context
from engine.bots.sampler import Constraints
from engine.bots.search import view_seed
from engine.bots.strong import StrongBot, is_bomb
from engine.game import Game

ESTIMATES = ("search", "fast-real", "rule-sampled", "search-read")

PHASES = ((0, 26), (27, 53), (54, 80), (81, 108))


@dataclass
class Decision:
    """One decision: its candidates' scores on the sampled deals and their real worth."""

    in_play: int
    lead: bool
    kinds: list[str]  # pass / play / bomb per candidate
    usual: list[int]  # the candidates the bot as it is weighs (without bomb departures), by index
    samples: list[int]  # what the bot would sample, as it is and with bomb departures
    est: list[list[int]]
    real: list[int]


def kind_of(action: dict) -> str:
    return "pass" if action["type"] == "pass" else "bomb" if is_bomb(action) else "play"


@dataclass
class Reading:
    """How ``search-read`` reads the hidden hands (``hand_reading.ReadDeals``), and the reads' effective
    sample sizes."""

    particles: int = 60
    miss: float = 0.3
    ess: list[float] = field(default_factory=list)


class RealHands(Constraints):
    """The "sampled" deal is the real one: the fast rollouts' error without the sampling's."""

    def __init__(self, hands: list[list[int]]) -> None:
        self.hands = hands

    def sample(self, hand: list[int], rng: random.Random) -> list[list[int]]:
        return [list(h) for h in self.hands]


def estimate(bot: StrongBot, ctx: Context, hands: list[list[int]], cands: list[Action], samples: int,
             how: str, story: Story, reading: Reading) -> list[list[int]]:
    """Each candidate's scores on the deals ``how`` says (the same deals for every candidate)."""
    view: View = ctx.view
    rng = random.Random(view_seed(view, f"candidates:{how}"))
    if how == "search":
        return bot.evaluate(ctx, cands, samples)
    if how == "fast-real":
        return bot.evaluate(ctx, cands, 1, RealHands(hands))
    if how == "search-read":
        read = ReadDeals(view, ctx.memory.unseen, story, rng, particles=reading.particles, keep=samples,
                         miss=reading.miss)
        reading.ess.append(read.ess)
        return bot.evaluate(ctx, cands, samples, read)
    cont = rule_of_thumb().choose
    cons = Constraints(view, ctx.memory.unseen)
    scores: list[list[int]] = [[] for _ in cands]
    for _ in range(samples):
        deal = cons.sample(ctx.hand, rng)
        for k, a in enumerate(cands):
            scores[k].append(bot.value(play_out(view, deal, a, cont)))
    return scores


def collect(deals: int, seed: str, samples: int, how: str = "search",
            reading: Reading | None = None) -> list[Decision]:
    reading = reading or Reading()
    base = rule_of_thumb()
    cont = rule_of_thumb().choose
    search = StrongBot(seed=seed)
    search.bomb_departures = True
    usual = StrongBot(seed=seed)
    out: list[Decision] = []
    for g in range(deals):
        game = Game.new(f"candidates:{seed}:{g}")
        players = [make_bot("heuristic", seed=s) for s in range(4)]
        story = Story([list(game.hand(s)) for s in range(4)], game.turn)
        while game.phase == "play":
            seat = game.turn
            view = game.view(seat)
            if seat % 2 == 0:
                ctx = Context(view)
                ctx.explain = False
                action = base.decide(view).action
                if not (action["type"] == "play" and len(action["cards"]) == len(ctx.hand)):
                    cands = search.candidates(ctx, action)
                    if len(cands) >= 2:
                        hands = [game.hand(s) for s in range(4)]
                        mine = usual.candidates(ctx, action)
                        out.append(Decision(
                            sum(ctx.counts), ctx.top is None, [kind_of(a) for a in cands],
                            [k for k, a in enumerate(cands) if a in mine],
                            [usual.samples_for(ctx, len(mine)), search.samples_for(ctx, len(cands))],
                            estimate(search, ctx, hands, cands, samples, how, story, reading),
                            [play_out(view, hands, a, cont) for a in cands]))
            act = players[seat].choose(view)
            story.actions.append((seat, act))
            game.apply(seat, act)
    return out


def correlation(xs: list[float], ys: list[float]) -> float | None:
    """Pearson's correlation; None (undefined) when either side has no variance."""
    n = len(xs)
    if n == 0:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sx = sum((x - mx) ** 2 for x in xs)
    sy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sx * sy) if sx and sy else None


def won(upgrade: int) -> int:
    return int(upgrade > 0)


def phase_of(in_play: int) -> str:
    lo, hi = next(p for p in PHASES if p[0] <= in_play <= p[1])
    return f"{lo}-{hi}"


def report_estimates(data: list[Decision]) -> None:
    groups: dict[tuple[str, str], list[tuple[float, int, float, int]]] = defaultdict(list)
    for d in data:
        means = [sum(s) / len(s) for s in d.est]
        wins = [sum(x > 0 for x in s) / len(s) for s in d.est]
        for k in range(1, len(d.real)):
            row = (means[k] - means[0], d.real[k] - d.real[0],
                   wins[k] - wins[0], won(d.real[k]) - won(d.real[0]))
            groups[("lead" if d.lead else "follow", phase_of(d.in_play))].append(row)
            groups[("all", "")].append(row)
    print("estimate against real worth (each alternative against the rule of thumb's choice):")
    print("  decision  in play   pairs  corr levels  corr deals won  real winner changes")
    for (what, phase), rows in sorted(groups.items()):
        est_l, real_l, est_w, real_w = zip(*rows, strict=True)
        flips = sum(1 for x in real_w if x) / len(rows)
        print(f"  {what:8s}  {phase:7s}  {len(rows):6d}  {show(correlation(est_l, real_l), '+.3f'):>11}"
              f"  {show(correlation(est_w, real_w), '+.3f'):>14}  {flips:19.0%}")


def replay_rule(data: list[Decision], deals: int, bombs: bool) -> None:
    bot = StrongBot()
    bot.bomb_departures = bombs
    levels: list[int] = []
    wins: list[int] = []
    kinds: dict[str, list[int]] = defaultdict(list)
    for d in data:
        keep = list(range(len(d.real))) if bombs else d.usual
        if len(keep) < 2:
            continue
        n = d.samples[1] if bombs else d.samples[0]
        k = keep[bot.pick([d.est[i][:n] for i in keep])]
        if k:
            levels.append(d.real[k] - d.real[0])
            wins.append(won(d.real[k]) - won(d.real[0]))
            kinds[f"{'lead' if d.lead else 'follow'} {d.kinds[0]}->{d.kinds[k]}"].append(wins[-1])
    lv, lv_se = mean_se(levels)
    wn, wn_se = mean_se(wins)
    name = "bomb departures allowed" if bombs else (
        f"as it is (bomb departures {'allowed' if StrongBot.bomb_departures else 'left out'})")
    print(f"the bot's rule, {name}: {len(levels) / deals:.2f} departures a deal; a departure is worth "
          f"{lv:+.3f} levels (SE {show(lv_se)}), {wn:+.3f} deals won (SE {show(wn_se)}); "
          f"a deal: {sum(levels) / deals:+.3f} levels, {sum(wins) / deals:+.3f} deals won")
    for kind, ws in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        m, se = mean_se(ws)
        print(f"    {kind:22s} {len(ws):5d} departures, {m:+.3f} deals won each (SE {show(se)})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40, help="heuristic deals judged (default 40)")
    ap.add_argument("--seed", default="1", help="seed of the deals (default 1)")
    ap.add_argument("--samples", type=int, default=30, help="sampled deals per candidate (the bot's maximum)")
    ap.add_argument("--estimate", choices=ESTIMATES, default="search",
                    help="the bot's search, fast rollouts on the real hands, or the rule of thumb on "
                    "sampled deals, or the search on read deals")
    ap.add_argument("--particles", type=int, default=60,
                    help="search-read: uniform deals weighed per decision")
    ap.add_argument("--miss", type=float, default=0.3,
                    help="search-read: weight factor per unpredicted action")
    args = ap.parse_args()
    t0 = time.process_time()
    reading = Reading(args.particles, args.miss)
    data = collect(args.deals, args.seed, args.samples, args.estimate, reading)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    print(f"{args.deals} deals (seed {args.seed}), {len(data)} decisions of seats 0 and 2 with alternatives, "
          f"{args.samples} sampled deals per candidate, estimate: {args.estimate}")
    if reading.ess:
        print(f"read deals: {args.particles} weighed per decision, a miss weighs {args.miss}; "
              f"effective sample size {sum(reading.ess) / len(reading.ess):.1f} on average")
    report_estimates(data)
    replay_rule(data, args.deals, bombs=False)
    replay_rule(data, args.deals, bombs=True)
    best = sum(won(max(d.real)) - won(d.real[0]) for d in data)
    print(f"the best candidate on the real hands, decision by decision: {best / args.deals:+.3f} deals won a "
          f"deal (each decision alone; they do not add up to whole deals)")
    print(f"CPU time {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
