"""What the strong bot's departures from the rule of thumb are worth, judged with the real hands.

Run: python bench/strong_departures.py [--deals N] [--seed S] [--continuation rule|heuristic]

Plays seeded deals with the heuristic at all four seats. At every play decision of seats 0 and 2 it
also asks the strong bot (which sees only the seat's view); where the strong bot would play something
other than the rule of thumb's choice (a departure), both actions are played out from that position on
the real hands by a deterministic continuation at all four seats, and the difference is the
departure's worth: in levels (the team's upgrade) and in deals won. The arena measures the same thing
with far more noise (the cards decide most deals); this shows where a change to the search helps.

``--continuation rule`` continues with the rule of thumb alone (the policy the strong bot's own
rollouts imitate); ``heuristic`` with the full heuristic, its late look-ahead included (what the
arena's opponents play: slower). A departure that looks good under the first and not the second
exploits a weakness the real opponent does not have.
"""

from __future__ import annotations

import argparse
import math
import platform
import time
from collections.abc import Callable

from engine.bots import HeuristicBot, make_bot
from engine.bots.base import Action, View
from engine.bots.search import Sim, _passes_so_far
from engine.bots.strong import StrongBot
from engine.game import Game
from engine.plays import Play


def rule_of_thumb() -> HeuristicBot:
    """The heuristic without its late look-ahead: what the strong bot starts from."""
    bot = HeuristicBot()
    bot.search_cards = 0
    return bot


def play_out(view: View, hands: list[list[int]], action: Action, policy: Callable[[View], Action]) -> int:
    """``action`` and then the rest of the deal by ``policy`` on the real ``hands``: the team's upgrade."""
    seat = view["seat"]
    t = view.get("top")
    top = Play(t["kind"], t["value"], tuple(t["cards"])) if t else None
    sim = Sim([list(h) for h in hands], seat, top, t["seat"] if t else None, list(view.get("finished") or ()),
              list(view.get("played") or ()), view["level"], view.get("rules") or {})
    sim.passes = _passes_so_far(view)
    sim.apply(seat, action)
    while not sim.over():
        s = sim.turn
        sim.apply(s, policy(sim.view(s)))
    return sim.score(seat % 2)


def mean_se(xs: list[int]) -> tuple[float, float | None]:
    """The mean and its standard error; the error is None (undefined) from fewer than two values."""
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), None
    m = sum(xs) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def show(x: float | None, spec: str = ".3f") -> str:
    """A figure as ``format(x, spec)``, or ``n/a`` when it is undefined (None)."""
    return "n/a" if x is None else format(x, spec)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=60, help="heuristic deals asked (default 60)")
    ap.add_argument("--seed", default="1", help="seed of the deals (default 1)")
    ap.add_argument("--continuation", choices=("rule", "heuristic"), default="heuristic",
                    help="who plays on after a departure, on the real hands: the full heuristic or its rule "
                         "of thumb alone (default heuristic)")
    args = ap.parse_args()
    policy = (rule_of_thumb() if args.continuation == "rule" else HeuristicBot()).choose
    base = rule_of_thumb()
    decisions = 0
    levels: list[int] = []
    wins: list[int] = []
    t0 = time.process_time()
    for g in range(args.deals):
        game = Game.new(f"departures:{args.seed}:{g}")
        players = [make_bot("heuristic", seed=s) for s in range(4)]
        strong = StrongBot(seed=args.seed)
        while game.phase == "play":
            seat = game.turn
            view = game.view(seat)
            if seat % 2 == 0:
                decisions += 1
                mine, usual = strong.choose(view), base.choose(view)
                if mine != usual:
                    hands = [game.hand(s) for s in range(4)]
                    a, b = play_out(view, hands, mine, policy), play_out(view, hands, usual, policy)
                    levels.append(a - b)
                    wins.append((a > 0) - (b > 0))
            game.apply(seat, players[seat].choose(view))
        assert not strong.errors, strong.errors
    n = len(levels)
    lv, lv_se = mean_se(levels)
    wn, wn_se = mean_se(wins)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    print(f"{args.deals} deals (seed {args.seed}), continuation: {args.continuation}")
    print(f"decisions of seats 0 and 2: {decisions}; departures: {n} ({n / max(1, args.deals):.2f} a deal)")
    print(f"departures better / worse / same (levels): {sum(x > 0 for x in levels)} / "
          f"{sum(x < 0 for x in levels)} / {sum(x == 0 for x in levels)}")
    print(f"worth of a departure: {lv:+.3f} levels (SE {show(lv_se)}), "
          f"{wn:+.3f} deals won (SE {show(wn_se)})")
    print(f"worth per deal: {sum(levels) / max(1, args.deals):+.3f} levels, "
          f"{sum(wins) / max(1, args.deals):+.3f} deals won")
    print(f"CPU time {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
