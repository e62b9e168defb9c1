"""The standalone competition platform against bots written from COMPETITION_PROTOCOL.md."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import legal_plays, parse_cards
from engine.cards import parse_rank
from engine.competition import action_of, hand_order, play_of_action
from server.cli import parse_args

from .protocol_client import PASS, ProtocolClient
from .table import run_table


def expected_actions(msg: dict) -> list[list]:
    level = parse_rank(msg["curRank"])
    hand = parse_cards(msg["handCards"])
    top = None if msg["greaterAction"] is None else play_of_action(msg["greaterAction"], level)
    return [action_of(p, level) for p in legal_plays(hand, level, top)]


@pytest.mark.slow
async def test_random_bots_play_whole_matches_and_every_act_is_right():
    clients = [ProtocolClient(f"rand{i}", seed=i) for i in range(4)]
    summary = await run_table(clients, matches=1, seed=7)
    assert summary["matches"] == 1 and summary["deals"] >= 1
    assert sum(summary["victories"]) == 2 or summary["draws"] == [1, 1, 1, 1]
    assert summary["disconnects"] == [0, 0, 0, 0]  # leaving after gameResult is no disconnect
    for seat, c in enumerate(clients):
        assert c.problems == []
        assert c.my_pos == seat
        kinds = Counter((m["type"], m["stage"]) for m in c.messages)
        assert kinds[("notify", "beginning")] == summary["deals"]
        assert kinds[("notify", "episodeOver")] == summary["deals"]
        assert kinds[("notify", "gameResult")] == 1
        acts = [m for m in c.messages if (m["type"], m["stage"]) == ("act", "play")]
        assert acts
        for msg in acts[:60]:
            got = msg["actionList"][1:] if msg["actionList"][0] == PASS else msg["actionList"]
            want = expected_actions(msg)
            assert sorted(map(repr, got)) == sorted(map(repr, want))
            assert len(got) == len(want)  # no duplicates either
            level = parse_rank(msg["curRank"])
            assert msg["handCards"] == hand_order(parse_cards(msg["handCards"]), level)


async def test_silence_falls_back_once_the_act_timeout_is_up():
    clients = [ProtocolClient(name, seed=i) for i, name in enumerate("abcd")]
    clients[0].silent = True
    summary = await run_table(clients, matches=1, seed=12, act_timeout=0.05)
    owed = [m for m in clients[0].messages if m["type"] == "act"]  # play, back and tribute
    # our bot played each of them (others may be late too on a loaded machine: 0.05 s is short)
    assert owed and summary["fallback_turns"][0] == len(owed)
    assert summary["disconnects"] == [0, 0, 0, 0] and summary["invalid_answers"] == [0, 0, 0, 0]
    assert all(c.problems == [] for c in clients)


@pytest.mark.parametrize("argv", [["--matches", "0"], ["--matches", "-3"], ["--act-timeout", "-1"],
                                  ["--act-timeout", "nan"], ["--settle", "-1"]])
def test_the_platform_refuses_bad_counts_and_times_as_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        parse_args(["--competition", *argv])
    assert exc.value.code == 2
    assert f"error: {argv[0]} must be" in capsys.readouterr().err


def test_the_platform_takes_zero_times():
    args = parse_args(["--competition", "--matches", "2", "--act-timeout", "0", "--settle", "0"])
    assert (args.matches, args.act_timeout, args.settle) == (2, 0.0, 0.0)


def test_the_port_defaults_to_the_modes_own_and_a_given_one_is_kept_in_any_form():
    """--port=8765 (the game server's default, given in the equals form) used to turn into 23456."""
    assert parse_args([]).port == 8765 and parse_args(["--competition"]).port == 23456
    for given in (["--port=8765"], ["--port", "8765"], ["--port=9000"]):
        assert parse_args(["--competition", *given]).port == int(given[-1].split("=")[-1])
    assert parse_args(["--port", "23456"]).port == 23456
