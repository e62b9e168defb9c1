"""The arena: duplicate seating, statistics and the command line."""

from __future__ import annotations

import pytest

from engine.arena import BotError, main, play_deal, play_match, run_deals, seating, wilson
from engine.game import Game
from engine.rules import Rules


def test_wilson_interval():
    lo, hi = wilson(90, 100)
    assert 0.82 < lo < 0.83 and 0.94 < hi < 0.95
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(100, 100)
    assert hi == pytest.approx(1.0) and lo > 0.96


def test_sign_test_on_duplicate_pairs():
    from engine.arena import sign_test

    assert sign_test(0, 0) == 1.0 and sign_test(10, 10) == 1.0
    assert sign_test(5, 0) == sign_test(0, 5) == 0.0625  # 2 * (1/2)**5
    assert 0.002 < sign_test(51, 24) < 0.003


def test_duplicate_pairs_are_counted_in_deal_mode():
    report = run_deals("heuristic", "random", deals=4, seed=2)
    assert report.pairs == 4 and report.sweeps_a == 4 and report.sweeps_b == 0
    assert "duplicate pairs: A won both 4, B won both 0, split 0; sign test p = 0.125" in report.lines()


def test_duplicate_seating_exchanges_the_teams():
    assert seating(True) == (0, 1)
    assert seating(False) == (1, 0)


def test_both_seatings_play_the_same_cards():
    # the deal depends on the seed only, so each team holds every hand once
    a = Game.new("arena:5:0")
    b = Game.new("arena:5:0")
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]


def test_play_deal_reports_the_winner_and_upgrade():
    times = [[], [], [], []]
    o = play_deal("arena:1:0", "heuristic", "random", True, Rules(), times)
    assert o.a_won and o.a_upgrade in (1, 2, 3) and o.b_upgrade == 0
    assert all(times[s] for s in range(4))


def test_play_match_ends_in_a_winner():
    times = [[], [], [], []]
    game, outcomes = play_match("m:1", "heuristic", "random", False, Rules(), times)
    assert game.phase == "match_over"
    assert game.match_winner == 1  # team A (heuristic) sits as team 1 here
    assert len(outcomes) == game.deal


def test_run_deals_counts_every_game():
    report = run_deals("random", "random", deals=5, seed=2)
    assert report.games == 10
    assert report.team_a.deals_won + report.team_b.deals_won == 10
    text = "\n".join(report.lines())
    assert "A win rate" in text and "95% CI" in text and "p99" in text


def test_a_bot_that_plays_illegally_stops_the_run(monkeypatch):
    from engine.bots import RandomBot

    monkeypatch.setattr(RandomBot, "choose", lambda self, view: {"type": "pass"} if view["top"] is None
                        else {"type": "play", "cards": [0]})
    with pytest.raises(BotError, match="bot random at seat"):
        run_deals("random", "random", deals=1, seed=1)


def test_command_line_deals(capsys):
    argv = ["--team-a", "heuristic", "--team-b", "random", "--deals", "3", "--seed", "1", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "deals played: 6 (3 duplicate pairs)" in out
    assert "deals won: A heuristic" in out
    assert "decision time  heuristic" in out


def test_command_line_matches(capsys):
    assert main(["--team-a", "heuristic", "--team-b", "random", "--matches", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "matches: 2, won: A 2, B 0" in out


def test_command_line_rejects_bad_input(capsys):
    with pytest.raises(SystemExit):
        main(["--team-a", "genius"])
    with pytest.raises(SystemExit):
        main(["--deals", "0"])
    assert "no bot named 'genius'" in capsys.readouterr().err


def test_runs_are_reproducible_across_processes():
    """Same seed, same results, whatever Python's per-process hash seed is."""
    import os
    import subprocess
    import sys

    outs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run(
            [sys.executable, "-m", "engine.arena", "--team-a", "random", "--team-b", "random",
             "--deals", "8", "--seed", "4", "--quiet"],
            capture_output=True, text=True, env=env, check=True, timeout=120,
        )
        outs.append([line for line in proc.stdout.splitlines()
                     if line.startswith(("deals won", "average upgrade"))])
    assert outs[0] == outs[1] and len(outs[0]) == 2


class _Stream:
    def __init__(self, tty):
        self.tty, self.text = tty, ""

    def isatty(self):
        return self.tty

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_progress_off_a_terminal_is_one_line_every_n_steps():
    from engine.arena import Progress

    out = _Stream(tty=False)
    p = Progress(1000, "deals", out, t0=0.0)
    for i in range(1, 1001):
        p(i)
    p.done()
    lines = out.text.splitlines()
    assert len(lines) == 10 and "\r" not in out.text and out.text.endswith("\n")
    assert lines[0].startswith("arena: 100/1000 deals") and lines[-1].startswith("arena: 1000/1000 deals")
    out = _Stream(tty=False)
    p = Progress(7, "matches", out, t0=0.0, every=3)
    for i in range(1, 8):
        p(i)
    assert [line.split(",")[0] for line in out.text.splitlines()] == [
        "arena: 3/7 matches", "arena: 6/7 matches", "arena: 7/7 matches"]


def test_progress_on_a_terminal_rewrites_one_line():
    from engine.arena import Progress

    out = _Stream(tty=True)
    p = Progress(400, "deals", out, t0=0.0)
    for i in range(1, 401):
        p(i)
    p.done()
    assert out.text.count("\n") == 1 and out.text.endswith("\n")
    assert out.text.count("\r") == 200 and out.text.split("\r")[-1].startswith("400/400 deals")


def test_command_line_progress_goes_to_stderr_in_lines(capsys):
    assert main(["--team-a", "random", "--team-b", "random", "--deals", "20", "--progress-every", "5"]) == 0
    captured = capsys.readouterr()
    assert [line.split(",")[0] for line in captured.err.splitlines()] == [
        f"arena: {n}/20 deals" for n in (5, 10, 15, 20)]
    assert "deals/" not in captured.out and captured.out.startswith("arena: A random vs B random")


def test_a_team_may_carry_bot_settings():
    """``name:key=value,...`` sets the bot's own public settings, typed as the bot's; anything else is
    refused with a message naming it."""
    from engine.arena import bot_settings, make_team_bot

    assert bot_settings("strong") == ("strong", {})
    assert bot_settings("strong:win_weight=0,margin=0.15") == ("strong", {"win_weight": 0, "margin": 0.15})
    bot = make_team_bot("strong:win_weight=0,z=1.5", seed="s")
    assert (bot.win_weight, bot.z) == (0, 1.5)
    assert type(bot).z == 2.0  # the class (and every other bot) keeps its own
    for bad, says in (("nobody", "no bot named"), ("strong:colour=3", "not a setting"),
                      ("strong:name=x", "not a setting"), ("strong:_seed=1", "not a setting"),
                      ("strong:win_weight=1.5", "a whole number like 0"), ("strong:margin", "not a setting")):
        with pytest.raises(ValueError, match=says):
            bot_settings(bad)


def test_the_command_line_refuses_a_bad_team_setting(capsys):
    with pytest.raises(SystemExit):
        main(["--team-a", "strong:colour=3", "--deals", "1"])
    assert "not a setting of the strong bot" in capsys.readouterr().err


def test_a_run_with_settings_names_them(capsys):
    args = ["--team-a", "heuristic:search_cards=0", "--team-b", "random", "--deals", "1", "--quiet"]
    assert main(args) == 0
    assert "A heuristic:search_cards=0 vs B random" in capsys.readouterr().out


@pytest.mark.parametrize("extra", [["--rules", "standard"], ["--team-a", "strong"], ["--deals", "5"],
                                   ["--team-b", "random", "--progress-every", "2"]])
def test_the_protocol_mode_refuses_the_deal_modes_options(capsys, extra):
    """They do not apply to it (whole matches of the --client bots, competition2020 rules): a usage error
    rather than a run that silently ignores them."""
    with pytest.raises(SystemExit) as exc:
        main(["--protocol", *["--client", "random"] * 4, *extra])
    assert exc.value.code == 2
    assert f"--protocol does not take {extra[0]}" in capsys.readouterr().err


def test_protocol_options_without_the_protocol_mode_are_refused(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--client", "random", "--deals", "1"])
    assert exc.value.code == 2
    assert ("--client, --act-timeout, --summary, --port, --connect-timeout and --exit-grace are for "
            "--protocol") in capsys.readouterr().err


def test_the_protocol_mode_numbers_seats_from_0_as_the_platform(capsys):
    with pytest.raises(SystemExit):
        main(["--protocol", "--client", "random"])
    assert "exactly four --client (seats 0 to 3 in order" in capsys.readouterr().err
    from engine.protocol_arena import report

    summary = {"matches": 3, "deals": 40, "seconds": 9.0, "victories": [2, 1, 2, 1], "draws": [0, 0, 0, 0],
               "fallback_turns": [0, 0, 0, 5], "disconnects": [0, 0, 0, 1]}
    lines = report(summary, ["a", "b", "c", "d"])
    assert "team 0 (seats 0 and 2: a + c): 2 of 3 matches won" in lines
    assert "team 1 (seats 1 and 3: b + d): 1 of 3 matches won" in lines
    assert lines[-1].startswith("seat 3 (d): ")


def test_the_protocol_report_breaks_out_what_went_wrong_per_seat():
    from engine.protocol_arena import report

    summary = {"matches": 1, "deals": 9, "seconds": 3.0, "victories": [1, 0, 1, 0], "draws": [0, 0, 0, 0],
               "fallback_turns": [0, 4, 0, 7], "disconnects": [0, 0, 0, 1], "invalid_answers": [0, 1, 0, 0],
               "late_answers": [0, 3, 0, 0], "unasked_answers": [0, 2, 0, 0]}
    lines = report(summary, ["a", "b", "c", "d"])
    assert lines[-2:] == [
        "seat 1 (b): our bot played 4 of its turns; answers invalid 1, late 3, unasked 2",
        "seat 3 (d): our bot played 7 of its turns; answers invalid 0, late 0, unasked 0; disconnected "
        "(our bot played on)"]
    assert not any(line.startswith(("seat 0", "seat 2")) for line in lines)
