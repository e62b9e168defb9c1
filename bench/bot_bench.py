"""Benchmark of bot decision time on real games (issue 4: median < 20 ms, p99 < 200 ms).

Run: python bench/bot_bench.py [--deals N] [--matches M] [--seed S] [--bot NAME]

Plays seeded deals (heuristic at all four seats, and heuristic against random) plus whole
matches (tribute and returns), timing every ``choose(view)`` call of each bot from a cold
start (fresh process caches), split by situation: lead, follow, return, and "late" (the
decisions where the heuristic's look-ahead may run: at most ``search_cards`` cards in play;
they are also counted in lead and follow). Also times the
heuristic's hand decomposition on fresh random 27-card hands with 0, 1 and 2 wild cards.

``--bot strong`` (any bot but the heuristic) times that bot instead: it plays seats 1 and 3 against
the heuristic in the deals and in the whole matches (issue 14: median under 50 ms, p99 under 500 ms).
``--clock cpu`` times each decision by the process's CPU time instead of the wall clock: on a machine
shared with other work, that is what one decision costs on one core.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections import defaultdict

from engine.bots import BOTS, HeuristicBot, make_bot
from engine.bots import hand as hand_module
from engine.cards import full_deck, wild_card
from engine.game import Game

#: the heuristic looks ahead (plays candidates out on sampled deals) from this many cards in play
LATE = HeuristicBot.search_cards


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def situation(view: dict) -> str:
    if view["phase"] == "return":
        return "return"
    if view["phase"] == "deal_over":
        return "next_deal"
    return "lead" if view["top"] is None else "follow"


def play(game: Game, names: list[str], seed: str, times: dict, whole_match: bool,
         clock=time.perf_counter) -> None:
    bots = [make_bot(n, seed=f"{seed}:{s}") for s, n in enumerate(names)]
    while game.phase != "match_over":
        if game.phase == "deal_over" and not whole_match:
            return
        seat = game.pending_seats()[0]
        view = game.view(seat)
        bot = bots[seat]
        t = clock()
        action = bot.choose(view)
        dt = (clock() - t) * 1000
        times[(bot.name, situation(view))].append(dt)
        times[(bot.name, "all")].append(dt)
        if view["phase"] == "play" and sum(view["counts"]) <= LATE:
            times[(bot.name, f"late (<={LATE} cards)")].append(dt)
        game.apply(seat, action)
        if game.deal > 60:
            return


def deal_hand(rng: random.Random, level: int, wilds: int) -> list[int]:
    wild = wild_card(level)
    deck = [int(c) for c in full_deck() if c != wild]
    rng.shuffle(deck)
    return deck[: 27 - wilds] + [int(wild)] * wilds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="seeded deals per table (default 200)")
    ap.add_argument("--matches", type=int, default=4,
                    help="whole matches (tribute and returns) after the deals (default 4)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the deals, matches and hands (default 1)")
    ap.add_argument("--bot", default="heuristic", choices=sorted(BOTS),
                    help="the bot to time (default heuristic; another plays against the heuristic)")
    ap.add_argument("--clock", default="wall", choices=("wall", "cpu"),
                    help="time decisions by the wall clock (wall, the default) or by the process's CPU "
                         "time (cpu)")
    args = ap.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    print(f"python {platform.python_version()} on {platform.machine()} ({os.cpu_count()} cores), "
          f"seed {args.seed}, {args.deals} deals per table, {args.matches} matches, bot {args.bot}, "
          f"{args.clock} clock")
    if args.bot == "heuristic":
        tables = [["heuristic"] * 4, ["heuristic", "random"] * 2]
    else:
        tables = [[args.bot, "heuristic"] * 2]
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    t0 = time.perf_counter()
    for i in range(args.deals):
        seed = f"bench:{args.seed}:{i}"
        for names in tables:
            play(Game.new(seed), names, seed, times, False, clock)
    for i in range(args.matches):
        seed = f"bench-match:{args.seed}:{i}"
        play(Game.new(seed), tables[0], seed, times, True, clock)
    wall = time.perf_counter() - t0
    print(f"{'bot / situation':<32}{'decisions':>10}{'mean ms':>9}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}")
    for key in sorted(times):
        ts = times[key]
        name = f"{key[0]} / {key[1]}"
        print(f"{name:<32}{len(ts):>10}{statistics.fmean(ts):>9.2f}{statistics.median(ts):>9.2f}"
              f"{pct(ts, 0.9):>9.2f}{pct(ts, 0.99):>9.2f}{max(ts):>9.2f}")
    print(f"games wall time {wall:.1f} s")

    print("\nhand decomposition of a fresh 27-card hand (caches cleared each time)")
    print(f"{'wild cards':<32}{'hands':>10}{'':>9}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for wilds in (0, 1, 2):
        rng = random.Random(args.seed * 10 + wilds)
        ts = []
        for _ in range(300):
            level = rng.randint(2, 14)
            hand = deal_hand(rng, level, wilds)
            hand_module._PLAN_CACHE.clear()
            hand_module._GROUP_CACHE.clear()
            t = time.perf_counter()
            hand_module.decompose(hand, level)
            ts.append((time.perf_counter() - t) * 1000)
        print(f"{wilds:<32}{len(ts):>10}{'':>9}{statistics.median(ts):>9.2f}{pct(ts, 0.9):>9.2f}"
              f"{pct(ts, 0.99):>9.2f}{max(ts):>9.2f}")


if __name__ == "__main__":
    main()
