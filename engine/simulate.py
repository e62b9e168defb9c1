"""Play whole matches with random legal actions and print throughput and how often each case occurs.

    python -m engine.simulate --matches 50 --seed 1 [--rules nanjing]

Random actions come from ``play_groups`` (pick a (kind, value) group, a shape, then one physical
choice), which is much cheaper than listing every legal play, and every action goes through
``Game.apply`` so the simulator also exercises the validation path.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from .game import Game
from .moves import HandIndex, expand, play_groups
from .rules import PRESETS, resolve_rules


def random_action(game: Game, rng: random.Random, pass_chance: float = 0.4) -> tuple[int, dict]:
    """A uniformly chosen seat that may act and a random legal action for it.

    Following, the player passes with probability ``pass_chance`` (decided before any play is
    generated, which keeps the simulator cheap) or when nothing beats the table; otherwise it picks a
    (kind, value) group uniformly, then a shape, then one physical choice of cards.
    """
    phase = game.phase
    if phase == "deal_over":
        return rng.randrange(4), {"type": "next_deal"}
    if phase == "return":
        seat = rng.choice(game.pending_seats())
        return seat, {"type": "return", "card": rng.choice(game.return_choices(seat))}
    if phase != "play":
        raise ValueError(f"no action possible in phase {phase}")
    seat = game.turn
    hand = game.hands[seat]
    top = game.top_play()
    if top is not None and rng.random() < pass_chance:
        return seat, {"type": "pass"}
    groups = play_groups(hand, game.level, top, game.rules)
    if not groups:
        return seat, {"type": "pass"}
    shapes = groups[rng.choice(list(groups))]
    plays = expand(HandIndex(hand, game.level), rng.choice(shapes))
    p = rng.choice(plays)
    return seat, {"type": "play", "cards": [int(c) for c in p.cards], "kind": p.kind, "value": p.value}


def play_match(seed, rules=None, rng_seed=None, max_actions: int = 200_000) -> Game:
    """One whole match with random legal actions (the action choices seeded by ``rng_seed``)."""
    game = Game.new(seed, rules)
    rng = random.Random(f"actions:{seed if rng_seed is None else rng_seed}")
    n = 0
    while game.phase != "match_over":
        seat, action = random_action(game, rng)
        game.apply(seat, action)
        n += 1
        if n > max_actions:
            raise RuntimeError(f"match {seed} did not end within {max_actions} actions")
    return game


def summarize(games: list[Game]) -> Counter:
    """Counts of deals, tribute cases, refusals, A attempts, A fall-backs and matches per winner."""
    c: Counter = Counter()
    for g in games:
        c["matches"] += 1
        c[f"winner_team_{g.match_winner}"] += 1
        for e in g.events:
            t = e["type"]
            if t == "deal_started":
                c["deals"] += 1
            elif t == "refusal":
                c[f"refused_{e['kind']}"] += 1
            elif t == "tribute":
                c[f"tribute_card_{e['kind']}"] += 1
            elif t == "deal_over":
                # An A attempt (RULES.md §8): a deal played at A by each team already at A; it passes
                # only when that team wins the match with this deal.
                if e["level"] == 14:
                    for team in (0, 1):
                        if e["levels_before"][team] == 14:
                            c["a_attempts"] += 1
                            passed = e["match_won"] and e["winner_team"] == team
                            c["a_passed" if passed else "a_failed"] += 1
                            if not passed and e["levels"][team] == 2:
                                c["a_fallbacks"] += 1
                c[f"upgrade_{e['upgrade']}"] += 1
        c["actions"] += len(g.actions)
    c["single"] = c["tribute_card_single"]
    c["double"] = c["tribute_card_double"] // 2
    return c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20, help="whole matches to play (default 20)")
    ap.add_argument("--seed", default="1", help="base seed; match i uses '<seed>-<i>' (default 1)")
    ap.add_argument("--rules", default="standard", choices=sorted(PRESETS),
                    help="rule preset (default standard)")
    args = ap.parse_args(argv)
    if args.matches < 1:
        ap.error(f"--matches must be at least 1, not {args.matches}")
    rules = resolve_rules(args.rules)
    games = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    for i in range(args.matches):
        games.append(play_match(f"{args.seed}-{i}", rules))
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    c = summarize(games)
    deals = c["deals"]
    tributes = c["single"] + c["double"] + c["refused_single"] + c["refused_double"]
    print(f"rules            {rules.name}")
    print(f"matches          {c['matches']}  "
          f"(won by team 0: {c['winner_team_0']}, team 1: {c['winner_team_1']})")
    print(f"deals            {deals}  ({deals / max(1, c['matches']):.1f} per match)")
    print(f"actions          {c['actions']}")
    print(f"seconds          {dt:.2f} wall, {cpu:.2f} cpu")
    print(f"deals per second {deals / dt:.1f} wall, {deals / max(cpu, 1e-9):.1f} cpu")
    print(f"actions/second   {c['actions'] / dt:.0f} wall")
    print(f"tribute deals    {tributes}")
    for name in ("single", "double", "refused_single", "refused_double"):
        print(f"  {name:<15}{c[name]:>6}  ({100 * c[name] / max(1, tributes):.1f}%)")
    print(f"upgrades         +3: {c['upgrade_3']}  +2: {c['upgrade_2']}  +1: {c['upgrade_1']}")
    print(f"A attempts       {c['a_attempts']}  (passed {c['a_passed']}, failed {c['a_failed']}, "
          f"fell back to 2: {c['a_fallbacks']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
