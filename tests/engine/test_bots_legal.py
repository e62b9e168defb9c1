"""Bots never raise and always act legally, over many real games driven through ``Game.apply``.

The arena stops with ``BotError`` when a bot raises, picks an action the game refuses, or the
heuristic bot had to fall back to a safe action; so every finished run below is the proof.
"""

from __future__ import annotations

import random

import pytest

from engine.arena import run_deals, run_matches
from engine.bots import HeuristicBot, RandomBot, legal_actions_from_view
from engine.game import Game
from engine.rules import Rules


def _key(action):
    if action["type"] == "play":
        return f"play {sorted(action['cards'])} {action['kind']} {action['value']}"
    return str(sorted(action.items()))


def test_view_legal_actions_match_the_game():
    """What a bot derives from its view is exactly what the game allows."""
    rng = random.Random(2)
    game = Game.new("legal-view")
    bot = RandomBot(seed=1)
    checked = 0
    while game.phase != "match_over" and game.deal <= 6:
        for seat in range(4):
            from_view = sorted(map(_key, legal_actions_from_view(game.view(seat))))
            from_game = sorted(map(_key, game.legal_actions(seat)))
            assert from_view == from_game
            checked += 1
        seat = rng.choice(game.pending_seats())
        game.apply(seat, bot.choose(game.view(seat)))
    assert checked > 1000


def test_heuristic_against_random_over_duplicate_deals():
    report = run_deals("heuristic", "random", deals=100, seed=7)
    assert report.games == 200
    assert report.team_a.deals_won + report.team_b.deals_won == 200
    assert report.team_a.deals_won / report.games >= 0.9


def test_heuristic_against_itself_over_duplicate_deals():
    report = run_deals("heuristic", "heuristic", deals=30, seed=8)
    assert report.games == 60
    # same bot, same cards, seats exchanged: luck cancels exactly
    assert report.team_a.deals_won == report.team_b.deals_won == 30


def test_random_against_heuristic_over_duplicate_deals():
    report = run_deals("random", "heuristic", deals=40, seed=9)
    assert report.team_b.deals_won / report.games >= 0.9


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(name="huaian", a_attempts=3, return_limit="any"),
        Rules(joker_pair_in_full_house=True, first_leader="random"),
        Rules(club_return=True, demote_repeated_last=True, bonus_repeated_first=True,
              demote_repeated_bottom_pair=True),
    ],
    ids=["standard", "huaian", "joker-pair-fh", "club"],
)
def test_whole_matches_with_tribute_and_returns(rules):
    report = run_matches("heuristic", "random", matches=2, seed=3, rules=rules)
    assert report.matches == 4
    assert report.team_a.matches_won == 4


@pytest.mark.slow
def test_heuristic_mirror_matches_exercise_every_phase():
    """Even teams give long matches: many tributes, returns, refusals and A attempts."""
    report = run_matches("heuristic", "heuristic", matches=3, seed=4)
    assert report.matches == 6
    assert report.games >= 30
    assert report.undecided == 0


@pytest.mark.slow
def test_many_deals_never_raise_and_stay_legal():
    report = run_deals("heuristic", "random", deals=300, seed=11)
    assert report.games == 600
    assert len(report.team_a.times_ms) > 10_000


def test_heuristic_handles_every_view_of_a_random_game():
    """Ask the heuristic bot at every step of random games (all kinds of odd positions)."""
    rng = random.Random(5)
    for match in range(3):
        game = Game.new(f"odd-{match}", Rules(joker_pair_in_full_house=True))
        walker = RandomBot(seed=match)
        bot = HeuristicBot()
        steps = 0
        while game.phase != "match_over" and steps < 1500:
            seat = rng.choice(game.pending_seats())
            view = game.view(seat)
            action = bot.choose(view)
            assert bot.errors == []
            assert _key(action) in set(map(_key, game.legal_actions(seat)))
            game.apply(seat, walker.choose(view))
            steps += 1


def test_look_ahead_simulation_follows_the_game_rules():
    """The look-ahead's own deal simulation (tricks, passes, 接风, end of deal, upgrade) agrees with
    the game step by step, on random games played with every hand known."""
    from engine.bots.search import Sim
    from engine.plays import Play

    for seed in range(12):
        game = Game.new(f"sim:{seed}")
        walker = RandomBot(seed=seed)
        sim = Sim([list(game.hand(s)) for s in range(4)], game.turn, None, None, [], [], game.level,
                  game.view(0)["rules"])
        while game.phase == "play":
            seat = game.pending_seats()[0]
            assert sim.turn == seat and not sim.over()
            action = walker.choose(game.view(seat))
            game.apply(seat, action)
            sim.apply(seat, action)
            if game.phase != "play":
                break
            top = game.view(seat)["top"]
            assert (sim.top is None) == (top is None)
            if top is not None:
                assert sim.top == Play(top["kind"], top["value"], tuple(top["cards"]))
                assert sim.top_seat == top["seat"]
            assert sim.finished == game.view(seat)["finished"]
        assert sim.over()
        res = game.last_result
        for team in (0, 1):
            expected = res["upgrade"] if res["winner_team"] == team else -res["upgrade"]
            assert sim.score(team) == expected


def test_quick_cannot_beat_check_is_never_wrong():
    """``can_beat`` lets the bot pass without generating plays: it may only say no when no play beats."""
    from engine.bots.heuristic import can_beat

    quick = 0
    for seed in range(40):
        game = Game.new(f"can-beat:{seed}")
        walker = RandomBot(seed=seed)
        while game.phase == "play":
            view = game.view(game.pending_seats()[0])
            top = view["top"]
            if top:
                for s in range(4):
                    hand = [int(c) for c in game.hand(s)]
                    if hand and not can_beat(hand, view["level"], top["kind"], top["value"],
                                             len(top["cards"])):
                        quick += 1
                        other = dict(view, seat=s, hand=hand, turn=s)
                        assert legal_actions_from_view(other) == [{"type": "pass"}]
            game.apply(view["seat"], walker.choose(view))
    assert quick > 1000
