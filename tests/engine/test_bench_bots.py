"""The strong bot's research tools under bench/ still run and report what their docstrings say
(tiny runs; the figures of bench/RESULTS.md come from the full ones)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_strong_candidates_weighs_every_candidate_and_replays_the_bot_s_rule() -> None:
    out = _run("strong_candidates.py", "--deals", "2", "--samples", "4", "--seed", "7")
    decisions = int(re.search(r"2 deals \(seed 7\), (\d+) decisions", out).group(1))
    assert decisions > 10
    assert re.search(r"^  all +(\d+) +[+-]\d\.\d{3} +[+-]\d\.\d{3} +\d+%$", out, re.M)
    assert "the bot's rule, as it is (bomb departures left out)" in out
    assert "the bot's rule, bomb departures allowed" in out
    assert "the best candidate on the real hands" in out


def test_strong_departures_judges_the_departures_on_the_real_hands() -> None:
    out = _run("strong_departures.py", "--deals", "1", "--continuation", "rule")
    assert re.search(r"decisions of seats 0 and 2: [1-9]\d*; departures: \d+", out)
    assert "worth of a departure" in out


def test_strong_candidates_tells_the_rollouts_error_from_the_sampling_s() -> None:
    for how, samples in (("fast-real", "4"), ("rule-sampled", "2"), ("search-read", "4")):
        out = _run("strong_candidates.py", "--deals", "1", "--samples", samples, "--seed", "7",
                   "--estimate", how, "--particles", "8")
        assert f"estimate: {how}" in out
        assert re.search(r"^  all +(\d+) +[+-]\d\.\d{3} +[+-]\d\.\d{3} +\d+%$", out, re.M)
    ess = float(re.search(r"effective sample size (\d+\.\d)", out).group(1))
    assert 1.0 <= ess <= 8.0


def test_the_real_hands_explain_the_others_play_better_than_sampled_ones() -> None:
    """The read's premise (bench/hand_reading.py): the fast policy predicts the heuristic's actions
    better on the hands it really held than on uniformly dealt ones."""
    sys.path.insert(0, str(BENCH))
    from hand_reading import Story, misses

    from engine.bots import make_bot
    from engine.bots.heuristic import Context
    from engine.bots.sampler import Constraints
    from engine.game import Game

    real_total, sampled_total = 0, 0.0
    for g in range(3):
        game = Game.new(f"read:{g}")
        players = [make_bot("heuristic", seed=s) for s in range(4)]
        story = Story([list(game.hand(s)) for s in range(4)], game.turn)
        while len(story.actions) < 40:
            s = game.turn
            action = players[s].choose(game.view(s))
            story.actions.append((s, action))
            game.apply(s, action)
        seat = game.turn
        view = game.view(seat)
        played: list[list[int]] = [[], [], [], []]
        for s, a in story.actions:
            if a["type"] == "play":
                played[s].extend(int(c) for c in a["cards"])
        cons = Constraints(view, Context(view).memory.unseen)
        rng = random.Random(g)
        real_total += misses(story.start, story, view["level"], seat)
        for _ in range(20):
            deal = cons.sample(view["hand"], rng)
            start = [story.start[s] if s == seat else deal[s] + played[s] for s in range(4)]
            assert sorted(sum(start, [])) == sorted(sum(story.start, []))  # the same cards, dealt otherwise
            sampled_total += misses(start, story, view["level"], seat) / 20
    assert real_total < 0.8 * sampled_total


def test_undefined_figures_print_as_n_a_not_as_zero() -> None:
    """A correlation with a side of no variance, and a standard error from one value, are undefined:
    bench/strong_candidates.py prints them ``n/a`` (they read +0.000 and SE 0.000, as if measured)."""
    sys.path.insert(0, str(BENCH))
    from strong_candidates import correlation
    from strong_departures import mean_se, show

    assert correlation([1.0, 1.0, 1.0], [0.0, 1.0, 2.0]) is None
    assert correlation([0.0, 1.0, 2.0], [0.0, 0.0, 0.0]) is None
    assert correlation([0.0, 1.0, 2.0], [0.0, 2.0, 4.0]) == 1.0
    assert mean_se([1]) == (1, None)
    assert mean_se([0, 1])[1] == 0.5
    assert show(None, "+.3f") == "n/a" and show(0.25, "+.3f") == "+0.250" and show(None) == "n/a"
