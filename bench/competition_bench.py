"""Benchmark of the competition-protocol platform (issue 8).

1. The time to build an ``act/play`` message with its complete ``actionList`` (and to JSON-encode it)
   for seeded random 27-card leading hands with two wild cards.
2. Standalone matches per minute: ``run_standalone`` on a free loopback port with four protocol
   clients that answer every act with a random index, as fast as they can.

Run: python bench/competition_bench.py [--hands N] [--matches M] [--seed S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import time

from websockets.asyncio.client import connect

from engine import competition_table as ct
from engine.cards import full_deck, wild_card
from engine.rules import preset
from server.competition import run_standalone


def two_wild_hand(rng: random.Random, level: int) -> list[int]:
    wild = wild_card(level)
    deck = [c for c in full_deck() if c != wild]
    rng.shuffle(deck)
    return deck[:25] + [wild, wild]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def action_list_times(hands: int, seed: int) -> None:
    rng = random.Random(seed)
    rules = preset("competition2020")
    build, encode, sizes = [], [], []
    for _ in range(hands):
        level = rng.randint(2, 14)
        view = {"seat": 0, "level": level, "levels": [level, level], "hand": two_wild_hand(rng, level),
                "counts": [27, 27, 27, 27], "top": None, "trick": []}
        t = time.perf_counter()
        msg, _options = ct.act_play(view, rules)
        t2 = time.perf_counter()
        text = json.dumps(msg)
        t3 = time.perf_counter()
        build.append((t2 - t) * 1000)
        encode.append((t3 - t2) * 1000)
        sizes.append(len(msg["actionList"]))
    print(f"act/play with a complete actionList, 2-wild leading hands ({hands} hands):")
    print(f"  build  median {statistics.median(build):.2f} ms  p90 {pct(build, 0.9):.2f} ms")
    print(f"  json   median {statistics.median(encode):.2f} ms  p90 {pct(encode, 0.9):.2f} ms")
    print(f"  actions per list: mean {statistics.mean(sizes):.0f}, max {max(sizes)}; last message "
          f"{len(text) / 1024:.0f} KiB")


async def random_client(url: str, name: str, seed: int) -> int:
    """A protocol bot choosing random indexes; returns how many acts it answered."""
    rng = random.Random(seed)
    acts = 0
    async with connect(f"{url}/game/{name}", max_size=2**23, ping_interval=None, compression=None) as ws:
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "act":
                acts += 1
                await ws.send(json.dumps({"actIndex": rng.randint(0, msg["indexRange"])}))
            elif msg.get("stage") == "gameResult":
                return acts
    return acts


async def standalone_rate(matches: int, seed: int) -> None:
    ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    started = time.perf_counter()
    server = asyncio.create_task(run_standalone("127.0.0.1", 0, matches, seed=seed,
                                                on_listening=ready.set_result))
    port = await asyncio.wait_for(ready, 10)
    clients = []
    for i in range(4):
        clients.append(asyncio.create_task(random_client(f"ws://127.0.0.1:{port}", f"rand{i}", seed + i)))
        await asyncio.sleep(0.01)  # connection order makes the seats
    summary = await server
    acts = await asyncio.gather(*clients)
    wall = time.perf_counter() - started
    print(f"standalone: {matches} matches, {summary['deals']} deals, {sum(acts)} acts in {wall:.1f} s: "
          f"{matches / wall * 60:.1f} matches/min, {summary['deals'] / wall * 60:.0f} deals/min")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200, help="leading hands timed (default 200)")
    ap.add_argument("--matches", type=int, default=3, help="standalone matches played (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the hands and matches (default 1)")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    action_list_times(args.hands, args.seed)
    asyncio.run(standalone_rate(args.matches, args.seed))


if __name__ == "__main__":
    main()
