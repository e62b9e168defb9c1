"""Hundreds of seeded random matches; invariants checked after every action (issue 3, "Must show" 2).

The random player mixes the simulator's uniform choice over (kind, value) groups with a cheap
same-rank chooser, so whole matches stay fast while every play type, tribute case and A attempt
still occurs. Every action is also checked against an independent reading of the rulebook (a
"shadow" of RULES.md §5 and §7 kept by the test itself): whose turn it is, when a trick ends and who
leads it (接风), when a deal ends and how its places are filled, who gives which tribute card to whom,
refusal, which cards may be returned, and who leads once returns are done. Levels are checked against
an independent reading of RULES.md §6/§8 (A attempts, fall-back to 2 and the club rules of seed 004).
"""

from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest

from engine import Game, IllegalAction, Rules, beats, classify, deal_hands, preset
from engine.cards import full_deck
from engine.simulate import main as simulate_main
from engine.simulate import play_match, random_action, summarize

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


def rank(c):
    return (c >> 2) + 2 if c < 52 else (16 if c == 52 else 17)


def order(c, level):
    """Rank order of RULES.md §2: big joker > small joker > level rank > A > K > ... > 2."""
    r = rank(c)
    return 15 if r == level else r


def next_holder(hands, seat):
    for i in (1, 2, 3):
        if hands[(seat + i) % 4]:
            return (seat + i) % 4
    raise AssertionError("nobody else holds cards")


def empty_club_streaks():
    return {"last": [0] * 4, "first": [0] * 4, "bottom": [0, 0]}


def expected_levels(before, places, level_team, rules: Rules, fails, streaks=None):
    """Independent reading of §6 (+ the A-attempt limit and the club rules of §8): levels after, match won,
    failures after, club streaks after."""
    level = before[level_team]
    w = places[0] % 2
    up = {2: 3, 3: 2, 4: 1}[places.index(partner(places[0])) + 1]
    after = list(before)
    fails = list(fails)
    won = level == ACE and before[w] == ACE and up >= 2
    if rules.a_pass_needs_double and (up != 3 or level_team != w):
        won = False
    if not won:
        after[w] = min(ACE, before[w] + up)
    if level == ACE:
        for t in (0, 1):
            if before[t] == ACE and not (won and t == w):
                fails[t] += 1
                if rules.a_attempts is not None and fails[t] >= rules.a_attempts:
                    after[t], fails[t] = 2, 0
    st = {k: list(v) for k, v in (streaks or empty_club_streaks()).items()}
    if rules.demote_repeated_last or rules.demote_repeated_bottom_pair or rules.bonus_repeated_first:
        st["last"] = [st["last"][s] + 1 if s == places[3] else 0 for s in range(4)]
        st["first"] = [st["first"][s] + 1 if s == places[0] else 0 for s in range(4)]
        st["bottom"] = [st["bottom"][t] + 1 if {places[2], places[3]} == {t, t + 2} else 0 for t in (0, 1)]
        if not won:
            adj = [0, 0]
            if rules.bonus_repeated_first and st["first"][places[0]] >= 3:
                adj[w] += st["first"][places[0]] - 2
            for s in range(4):
                if rules.demote_repeated_last and st["last"][s] >= 3:
                    adj[s % 2] -= st["last"][s] - 2
            for t in (0, 1):
                if rules.demote_repeated_bottom_pair and st["bottom"][t] >= 3:
                    adj[t] -= st["bottom"][t] - 1
            for t in (0, 1):
                if adj[t] > 0:
                    after[t] = min(ACE, after[t] + adj[t])
                elif adj[t] < 0 and after[t] != ACE:  # never below 2, a team at A never demoted
                    after[t] = max(2, after[t] + adj[t])
    return after, won, fails, st


def expected_tribute(prev_places, dealt, level):
    """Independent reading of RULES.md §7.

    Returns (kind, givers, refused, [(giver, receiver, rank order of the card)], leader)."""
    first, second, third, fourth = prev_places
    double = second == partner(first)
    givers = [third, fourth] if double else [fourth]
    kind = "double" if double else "single"
    if sum(dealt[g].count(53) for g in givers) >= 2:
        return kind, givers, True, [], first
    wild = (level - 2) * 4 + 1

    def top(g):
        return max(order(c, level) for c in dealt[g] if c != wild)

    if not double:
        return kind, givers, False, [(fourth, first, top(fourth))], fourth
    a, b = sorted(givers, key=lambda g: (g - first) % 4)  # the walk from the 1st reaches a first
    if top(b) > top(a):
        a, b = b, a
    return kind, givers, False, [(a, first, top(a)), (b, second, top(b))], a


def expected_return_choices(hand, got, level, rules: Rules, to_partner):
    """Independent reading of RULES.md §7/§8 return eligibility (set of codes)."""
    pool = set(hand) - {got}
    if rules.club_return:
        if not to_partner:
            return pool
        ok = {c for c in pool if rank(c) < 15 and rank(c) != level}
    elif rules.return_limit == "any":
        return pool
    elif rules.return_limit == "ten_or_lower_any_rank":  # national 2017, Nanjing: "10 or lower"
        ok = {c for c in pool if rank(c) <= 10}
    else:
        ok = {c for c in pool if rank(c) <= 10 and rank(c) != level}
    if ok:
        return ok
    low = min(order(c, level) for c in pool)
    return {c for c in pool if order(c, level) == low}


class Shadow:
    """The test's own model of a deal's flow, checked against the game after every action."""

    def __init__(self) -> None:
        self.passes = 0  # passes since the top play

    def check(self, pre: dict, g: Game, seat: int, action: dict) -> None:
        kind = action["type"]
        hands = pre["hands"]
        if kind == "play":
            assert pre["phase"] == "play" and pre["turn"] == seat
            left = Counter(hands[seat])
            left.subtract(action["cards"])
            assert +left == Counter(g.hands[seat]) and min(left.values(), default=0) >= 0
            self.passes = 0
            fin = pre["finished"] + ([seat] if not g.hands[seat] else [])
            assert g.finished == fin
            if fin and (partner(fin[0]) in fin or len(fin) == 3):
                # The deal ends at once; the remaining places are filled in (RULES.md §5).
                assert g.phase in ("deal_over", "match_over") and g.turn is None
                places = g.last_result["places"]
                assert places[: len(fin)] == fin and sorted(places) == [0, 1, 2, 3]
                return
            assert g.phase == "play" and g.top["seat"] == seat
            now = [list(h) for h in g.hands]
            assert g.turn == next_holder(now, seat)
        elif kind == "pass":
            assert pre["phase"] == "play" and pre["turn"] == seat and pre["top_seat"] is not None
            self.passes += 1
            top = pre["top_seat"]
            others = sum(1 for s in range(4) if s != top and hands[s])
            if self.passes == others:
                # Trick over: the top play's player leads; if out, its partner (接风); else the next holder.
                if hands[top]:
                    lead = top
                elif hands[partner(top)]:
                    lead = partner(top)
                else:
                    lead = next_holder(hands, top)
                assert g.top is None and g.turn == lead and g.leader == lead
                self.passes = 0
            else:
                assert self.passes < others
                assert g.top is not None and g.top["seat"] == top and g.turn == next_holder(hands, seat)
        elif kind == "return":
            assert pre["phase"] == "return" and seat in pre["pending"]
            gift = next(x for x in pre["gifts"] if x["to"] == seat)
            want = expected_return_choices(hands[seat], gift["card"], pre["level"], g.rules,
                                           gift["from"] == partner(seat))
            assert set(pre["choices"][seat]) == want
            assert action["card"] in want and action["card"] != gift["card"]
            assert len(g.hands[seat]) == len(hands[seat]) - 1
            assert Counter(g.hands[gift["from"]]) == Counter(hands[gift["from"]] + [action["card"]])
            if g.phase == "play":
                assert g.turn == g.leader == pre["tribute_leader"]
                assert [len(h) for h in g.hands] == [27] * 4
        else:
            assert kind == "next_deal" and pre["phase"] == "deal_over"
            self.passes = 0
            prev = pre["last_result"]
            assert g.deal == pre["deal"] + 1
            assert g.level_team == prev["winner_team"] and g.level == g.levels[prev["winner_team"]]
            dealt = [list(h) for h in deal_hands(g.seed, g.deal)]
            kind_, givers, refused, gifts, leader = expected_tribute(prev["places"], dealt, g.level)
            t = g.tribute
            assert (t["kind"], t["givers"], t["refused"], t["leader"]) == (kind_, givers, refused, leader)
            assert [(x["from"], x["to"]) for x in t["gifts"]] == [(a, b) for a, b, _ in gifts]
            wild = (g.level - 2) * 4 + 1
            for x, (_, _, size) in zip(t["gifts"], gifts, strict=True):
                assert x["card"] != wild and order(x["card"], g.level) == size
                assert x["card"] in dealt[x["from"]]
            moved = [Counter(h) for h in dealt]
            for x in t["gifts"]:
                moved[x["from"]][x["card"]] -= 1
                moved[x["to"]][x["card"]] += 1
            assert [Counter(h) for h in g.hands] == [+m for m in moved]
            if refused:
                assert g.phase == "play" and g.turn == prev["places"][0] and not t["gifts"]
            else:
                assert g.phase == "return" and g.turn is None
                assert sorted(g.pending_seats()) == sorted(x["to"] for x in t["gifts"])


def snapshot(g: Game) -> dict:
    return {
        "phase": g.phase, "turn": g.turn, "deal": g.deal, "level": g.level,
        "hands": [list(h) for h in g.hands], "finished": list(g.finished),
        "top_seat": None if g.top is None else g.top["seat"],
        "pending": list(g.pending_seats()) if g.phase == "return" else [],
        "gifts": [dict(x) for x in g.tribute["gifts"]] if g.tribute else [],
        "tribute_leader": g.tribute["leader"] if g.tribute else None,
        "choices": {s: g.return_choices(s) for s in range(4)} if g.phase == "return" else {},
        "last_result": g.last_result,
    }


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
    assert all(2 <= v <= ACE for v in g.levels)


def check_deal_over(g: Game, before: dict) -> dict:
    r = g.last_result
    places = r["places"]
    assert sorted(places) == [0, 1, 2, 3], "finishing order complete"
    assert places[: len(g.finished)] == g.finished
    assert g.finished[-1] in places
    assert partner(places[0]) in g.finished or len(g.finished) == 3
    after, won, fails, streaks = expected_levels(before["levels"], places, before["level_team"], g.rules,
                                                 before["a_failures"], before["streaks"])
    assert r["winner_team"] == places[0] % 2
    assert g.levels == after and r["levels"] == after
    assert r["match_won"] == won and g.a_failures == fails
    assert (g.phase == "match_over") == won
    assert r["reason"]
    if not won and (before["levels"][places[0] % 2] == ACE):
        assert "A" in r["reason"]  # staying at A is explained
    assert g.played == g.view(None)["played"]
    return streaks


def run_match(seed, rules, rng_seed, *, full_round_trip_every=1, max_actions=60_000):
    g = Game.new(seed, rules)
    rng = random.Random(rng_seed)
    check_state(g)
    shadow = Shadow()
    deals = Counter()
    n = 0
    streaks = empty_club_streaks()
    before = {"levels": list(g.levels), "level_team": g.level_team, "a_failures": list(g.a_failures),
              "streaks": streaks}
    while g.phase != "match_over":
        phase = g.phase
        pre = snapshot(g)
        seat, action = cheap_action(g, rng)
        g.apply(seat, action)
        n += 1
        assert n < max_actions
        check_state(g)
        shadow.check(pre, g, seat, g._actions[-1][1])  # the logged (normalised) action
        if g.phase in ("deal_over", "match_over") and phase == "play":
            streaks = check_deal_over(g, before)
            d = msgpack.unpackb(msgpack.packb(g.to_dict()))
            assert Game.from_dict(d) == g
            r = g.last_result
            if r["level"] == ACE:
                for t in (0, 1):
                    if r["levels_before"][t] == ACE:
                        deals["a_attempt"] += 1
                        deals["a_passed" if r["match_won"] and r["winner_team"] == t else "a_failed"] += 1
                deals["a_fell_back"] += sum(1 for t in (0, 1) if r["levels_before"][t] == ACE
                                            and r["levels"][t] == 2)
        if phase == "deal_over":
            before = {"levels": list(g.levels), "level_team": g.level_team, "a_failures": list(g.a_failures),
                      "streaks": streaks}
            t = g.tribute
            assert g.level == g.levels[g.level_team]
            deals[("refused_" if t["refused"] else "") + t["kind"]] += 1
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


RULESETS = [preset("standard"), preset("nanjing"), preset("huaian"), preset("national2017"), preset("club"),
            preset("competition2020")]


@pytest.mark.parametrize("batch", range(4))
def test_random_matches_keep_invariants(batch):
    """180 matches (4 batches of 45) over the presets; cheap invariants and the shadow model after every
    action, the from_dict(to_dict()) round trip every 25th action and at every phase change (the test below
    does it after every action), msgpack round trip and level rules at every deal end, replay at the end."""
    totals = Counter()
    for i in range(45):
        rules = RULESETS[(batch + i) % len(RULESETS)]
        g, deals = run_match(f"prop-{batch}-{i}", rules, i, full_round_trip_every=25)
        totals.update(deals)
        totals["deals"] += g.deal
    assert totals["single"] and totals["double"] and totals["refused_single"] + totals["refused_double"]
    assert totals["a_attempt"] and totals["a_failed"] and totals["a_fell_back"]
    assert totals["deals"] >= 200


def test_random_matches_round_trip_after_every_action():
    """More matches, with from_dict(to_dict()) checked after every single action."""
    totals = Counter()
    for i in range(20):
        rules = RULESETS[i % len(RULESETS)]
        g, deals = run_match(f"prop-full-{i}", rules, 1000 + i, full_round_trip_every=1)
        totals.update(deals)
    assert totals["refused_single"] + totals["refused_double"] and totals["single"] and totals["double"]


def test_simulate_prints_the_figures(capsys):
    """`python -m engine.simulate` plays whole matches and prints matches, deals, deals per second, the
    tribute cases and refusals, and A attempts; its counts agree with the games' own logs."""
    assert simulate_main(["--matches", "3", "--seed", "sim-test"]) == 0
    out = capsys.readouterr().out
    games = [play_match(f"sim-test-{i}") for i in range(3)]
    c = summarize(games)
    assert c["deals"] == sum(g.deal for g in games)
    # every deal but the first of each match has a tribute case: single, double or refused
    assert c["single"] + c["double"] + c["refused_single"] + c["refused_double"] == c["deals"] - 3
    assert c["a_attempts"] == c["a_passed"] + c["a_failed"] and c["a_passed"] == 3  # every match passes A

    def field(label):
        line = next(x for x in out.splitlines() if x.startswith(label + " "))
        return line[len(label):].split()

    assert field("matches")[0] == "3"
    # teams numbered as everywhere else (engine views, docs/engine-api.md): team 0 holds seats 0 and 2
    won = [g.match_winner for g in games]
    assert " ".join(field("matches")[1:]) == f"(won by team 0: {won.count(0)}, team 1: {won.count(1)})"
    assert field("deals")[0] == str(c["deals"])
    assert float(field("deals per second")[0]) > 0
    for name in ("single", "double", "refused_single", "refused_double"):
        assert field("  " + name)[0] == str(c[name])
    assert field("A attempts")[0] == str(c["a_attempts"])


@pytest.mark.parametrize("argv", [["--rules", "bogus"], ["--matches", "0"]])
def test_simulate_refuses_bad_options_as_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        simulate_main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m engine.simulate") and argv[0] in err
