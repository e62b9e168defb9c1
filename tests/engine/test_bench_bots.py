"""The strong bot's research tools under bench/ still run and report what their docstrings say
(tiny runs; the figures of bench/RESULTS.md come from the full ones)."""

from __future__ import annotations

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
    for how, samples in (("fast-real", "4"), ("rule-sampled", "2")):
        out = _run("strong_candidates.py", "--deals", "1", "--samples", samples, "--seed", "7",
                   "--estimate", how)
        assert f"estimate: {how}" in out
        assert re.search(r"^  all +(\d+) +[+-]\d\.\d{3} +[+-]\d\.\d{3} +\d+%$", out, re.M)
