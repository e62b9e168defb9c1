"""Benchmark of the plays engine: classify and legal_plays over seeded random 27-card hands.

Run: python bench/engine_bench.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from engine import classify, legal_plays
from engine.cards import full_deck, wild_card


def deal_hand(rng: random.Random, level: int, wilds: int) -> list[int]:
    """A random 27-card hand holding exactly ``wilds`` wild cards."""
    wild = wild_card(level)
    deck = [c for c in full_deck() if c != wild]
    rng.shuffle(deck)
    return deck[: 27 - wilds] + [wild] * wilds


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def timed(fn, *args) -> tuple[float, object]:
    t = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - t) * 1000, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=300, help="seeded random hands timed (default 300)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the hands (default 1)")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{args.hands} hands per row, seed {args.seed}")
    print(f"{'case':<28}{'median ms':>10}{'p90 ms':>10}{'mean plays':>12}")
    for wilds in (0, 1, 2):
        rng = random.Random(args.seed * 10 + wilds)
        lead_t, follow_t, cls_t, n_lead, n_follow = [], [], [], [], []
        for _ in range(args.hands):
            level = rng.randint(2, 14)
            hand = deal_hand(rng, level, wilds)
            other = deal_hand(rng, level, rng.randint(0, 2))
            t, plays = timed(legal_plays, hand, level)
            lead_t.append(t)
            n_lead.append(len(plays))
            top = rng.choice(legal_plays(other, level))
            t, follows = timed(legal_plays, hand, level, top)
            follow_t.append(t)
            n_follow.append(len(follows))
            for play in rng.sample(plays, min(20, len(plays))):
                t, _ = timed(classify, play.cards, level)
                cls_t.append(t)
        for name, ts, ns in (
            (f"legal_plays lead, {wilds} wild", lead_t, n_lead),
            (f"legal_plays follow, {wilds} wild", follow_t, n_follow),
            (f"classify, {wilds} wild hands", cls_t, None),
        ):
            mean = f"{statistics.mean(ns):.0f}" if ns else "-"
            print(f"{name:<28}{statistics.median(ts):>10.3f}{pct(ts, 0.9):>10.3f}{mean:>12}")


if __name__ == "__main__":
    main()
