"""Hundreds of seeded random matches; invariants checked after every action (issue 3, "Must show" 2).

The random player mixes the simulator's uniform choice over (kind, value) groups with a cheap
same-rank chooser, so whole matches stay fast while every play type, tribute case and A attempt
still occurs. Levels are checked against an independent reading of RULES.md §6/§8.
"""

from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest

from engine import Game, IllegalAction, Rules, beats, classify, preset
from engine.cards import full_deck
from engine.simulate import random_action

DECK = sorted(int(c) for c in full_deck())
ACE = 14


def cheap_action(g: Game, rng: random.Random) -> tuple[int, dict]:
    """A random legal action; plays are all the cards of one rank (or a part), else a full random pick."""
    if g.phase != "play" or rng.random() < 0.05:
        return random_action(g, rng)
    seat = g.turn
    hand = g.hands[seat]
    top = g.top_play()
    if top is not None and (rng.random() < 0.35 or (top.kind not in ("single", "pair", "triple", "bomb")
                                                    and rng.random() < 0.7)):
        return seat, {"type": "pass"}
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        by_rank.setdefault(c >> 2, []).append(c)
    groups = list(by_rank.values())
    rng.shuffle(groups)
    for grp in groups[:6]:
        k = len(grp) if top is None and rng.random() < 0.5 else rng.randint(1, len(grp))
        if top is not None and not top.is_bomb and top.kind in ("single", "pair", "triple"):
            k = len(top.cards)
        if k > len(grp):
            continue
        for p in classify(grp[:k], g.level, g.rules):
            if beats(p, top):
                return seat, {"type": "play", "cards": list(grp[:k])}
    return random_action(g, rng)


def partner(s):
    return (s + 2) % 4


def expected_levels(before, places, level_team, rules: Rules, fails):
    """Independent reading of §6 (+ the A-attempt limit of §8): levels after, match won, failures after."""
    level = before[level_team]
    w = places[0] % 2
    up = {2: 3, 3: 2, 4: 1}[places.index(partner(places[0])) + 1]
    after = list(before)
    fails = list(fails)
    won = level == ACE and before[w] == ACE and up >= 2
    if not won:
        after[w] = min(ACE, before[w] + up)
    if level == ACE:
        for t in (0, 1):
            if before[t] == ACE and not (won and t == w):
                fails[t] += 1
                if rules.a_attempts is not None and fails[t] >= rules.a_attempts:
                    after[t], fails[t] = 2, 0
    return after, won, fails


def check_state(g: Game) -> None:
    # 108 cards conserved; no card in two places (each code exactly twice over hands + played).
    h0, h1, h2, h3 = g.hands
    assert sorted(g.played + h0 + h1 + h2 + h3) == DECK
    counts = [len(h) for h in g.hands]
    if g.phase == "return":
        t = g.tribute
        assert t and not t["refused"] and t["pending"]
        owed = Counter(r["to"] for r in t["returns"])
        for gift in t["gifts"]:
            got_back = owed[gift["from"]]
            assert counts[gift["from"]] == 26 + got_back
        assert sum(counts) == 108 and not g.played
    if g.phase == "play":
        assert g.turn is not None and g.hands[g.turn], "the seat to play holds cards"
        if not g.played:
            assert counts == [27] * 4, "hands back to 27 after returns"
        assert len(g.finished) < 3 and (not g.finished or partner(g.finished[0]) not in g.finished)
        if g.top is None:
            assert g.trick == [] and g.leader == g.turn
    for s in g.finished:
        assert not g.hands[s]
    if g.phase in ("return", "play"):
        assert len(g.finished) == sum(1 for h in g.hands if not h)


def check_deal_over(g: Game, before: dict) -> None:
    r = g.last_result
    places = r["places"]
    assert sorted(places) == [0, 1, 2, 3], "finishing order complete"
    assert places[: len(g.finished)] == g.finished
    assert g.finished[-1] in places
    assert partner(places[0]) in g.finished or len(g.finished) == 3
    after, won, fails = expected_levels(before["levels"], places, before["level_team"], g.rules,
                                        before["a_failures"])
    assert r["winner_team"] == places[0] % 2
    assert g.levels == after and r["levels"] == after
    assert r["match_won"] == won and g.a_failures == fails
    assert (g.phase == "match_over") == won
    assert r["reason"]
    assert g.played == g.view(None)["played"]


def run_match(seed, rules, rng_seed, *, full_round_trip_every=1, max_actions=60_000):
    g = Game.new(seed, rules)
    rng = random.Random(rng_seed)
    check_state(g)
    deals = {"refused": 0, "double": 0, "single": 0}
    n = 0
    before = {"levels": list(g.levels), "level_team": g.level_team, "a_failures": list(g.a_failures)}
    while g.phase != "match_over":
        phase = g.phase
        seat, action = cheap_action(g, rng)
        g.apply(seat, action)
        n += 1
        assert n < max_actions
        check_state(g)
        if g.phase in ("deal_over", "match_over") and phase == "play":
            check_deal_over(g, before)
            d = msgpack.unpackb(msgpack.packb(g.to_dict()))
            assert Game.from_dict(d) == g
        if phase == "deal_over":
            before = {"levels": list(g.levels), "level_team": g.level_team, "a_failures": list(g.a_failures)}
            t = g.tribute
            assert g.level == g.levels[g.level_team]
            deals["refused" if t["refused"] else t["kind"]] += 1
        if n % full_round_trip_every == 0 or g.phase != phase:
            assert Game.from_dict(g.to_dict()) == g
    # Replaying the log reproduces the same state, also when saved and restored at a random point.
    cut = rng.randrange(len(g.actions))
    part = Game.replay(seed, rules, g.actions[:cut])
    rest = Game.from_dict(part.to_dict())
    for s, a in g.actions[cut:]:
        rest.apply(s, a)
    assert rest == g
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "next_deal"})
    return g, deals


RULESETS = [preset("standard"), preset("nanjing"), preset("huaian"), preset("national2017")]


@pytest.mark.parametrize("batch", range(4))
def test_random_matches_keep_invariants(batch):
    """180 matches (4 batches of 45) over the presets; cheap invariants after every action, the
    from_dict(to_dict()) round trip every 25th action and at every phase change (the slow test below
    does it after every action), msgpack round trip and level rules at every deal end, replay at the end."""
    totals = Counter()
    for i in range(45):
        rules = RULESETS[(batch + i) % len(RULESETS)]
        g, deals = run_match(f"prop-{batch}-{i}", rules, i, full_round_trip_every=25)
        totals.update(deals)
        totals["deals"] += g.deal
    assert totals["single"] and totals["double"]
    assert totals["deals"] >= 200


@pytest.mark.slow
def test_random_matches_round_trip_after_every_action():
    """More matches, with from_dict(to_dict()) checked after every single action."""
    totals = Counter()
    for i in range(20):
        rules = RULESETS[i % len(RULESETS)]
        g, deals = run_match(f"prop-full-{i}", rules, 1000 + i, full_round_trip_every=1)
        totals.update(deals)
    assert totals["refused"] and totals["single"] and totals["double"]
