"""The arena's and the benchmark's options: what a mistyped value is told before anything runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.arena import bot_settings, main

REPO = Path(__file__).resolve().parents[2]
FOUR = ["--client", "random"] * 4


def usage_error(capsys, argv: list[str]) -> str:
    """The arena's one error line for ``argv``, which must be a usage error (exit code 2)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize("option, value, says", [
    ("--act-timeout", "-1", "--act-timeout must be 0 or more seconds, not -1.0"),
    ("--act-timeout", "nan", "--act-timeout must be 0 or more seconds, not nan"),
    ("--exit-grace", "-2", "--exit-grace must be 0 or more seconds, not -2.0"),
    ("--connect-timeout", "0", "--connect-timeout must be more than 0 seconds, not 0.0"),
    ("--port", "70000", "--port must be from 1 to 65535, not 70000"),
])
def test_the_protocol_mode_refuses_bad_times_and_ports_itself(capsys, option, value, says):
    """Refused by the arena, not passed on for the platform to print its own usage text."""
    assert usage_error(capsys, ["--protocol", *FOUR, option, value]).endswith(f"error: {says}")


def test_a_misspelt_bot_name_is_told_as_one(capsys):
    line = usage_error(capsys, ["--protocol", "--client", "heurstic", *FOUR[2:]])
    assert line.endswith("error: --client heurstic: no bot named 'heurstic' (bots: heuristic, random, "
                         "strong) and no such command")
    line = usage_error(capsys, ["--protocol", "--client", "stong:margin=0.6", *FOUR[2:]])
    assert "no bot named 'stong' (bots: heuristic, random, strong) and no such command" in line


def test_a_command_that_cannot_be_split_is_a_usage_error(capsys):
    line = usage_error(capsys, ["--protocol", "--client", "python3 bot.py '{url}", *FOUR[2:]])
    assert line.endswith("error: --client python3 bot.py '{url}: not a command line: No closing quotation")


def test_a_setting_that_must_be_whole_says_so(capsys):
    with pytest.raises(ValueError, match="win_weight is a whole number like 0"):
        bot_settings("strong:win_weight=3.5")
    with pytest.raises(ValueError, match="margin is a number like 0.15"):
        bot_settings("strong:margin=high")
    assert usage_error(capsys, ["--team-a", "strong:win_weight=3.5"]).endswith(
        "'win_weight=3.5': win_weight is a whole number like 0")


def test_the_benchmark_shows_its_defaults() -> None:
    text = " ".join(subprocess.run([sys.executable, "bench/bot_bench.py", "--help"], cwd=REPO,
                                   capture_output=True, text=True, timeout=60).stdout.split())
    for words in ("seeded deals per table (default 200)", "after the deals (default 4)",
                  "matches and hands (default 1)", "(default heuristic;", "(wall, the default)"):
        assert words in text
