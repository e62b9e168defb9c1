"""A match scored in points (seed 004, RULES.md §8): N deals at level 2, 3/2/1 points, the team ahead
after the last deal wins, a tie plays on; with a points target the first team to reach it wins."""

from __future__ import annotations

import msgpack
import pytest

from engine import Game, Rules, preset
from engine.scoring import score_deal
from engine.simulate import play_match

SIX = preset("points6")
EIGHT = preset("points8")


def test_the_winners_score_three_two_or_one_by_where_the_partner_of_the_1st_finished():
    assert score_deal([0, 0], [0, 2, 1, 3], 1, SIX).points == [3, 0]  # 1st+2nd
    assert score_deal([0, 0], [1, 0, 3, 2], 1, SIX).points == [0, 2]  # 1st+3rd
    assert score_deal([4, 1], [1, 0, 2, 3], 2, SIX).points == [4, 2]  # 1st+4th
    s = score_deal([4, 1], [1, 0, 2, 3], 2, SIX)
    assert (s.winner_team, s.upgrade, s.match_won, s.match_winner) == (1, 1, False, None)
    assert list(s.levels) == [2, 2]  # no levels in a scored match
    assert "1 point, 4 to 2 after deal 2 of 6" in s.reason


def test_the_team_ahead_after_the_last_deal_wins_even_when_it_lost_that_deal():
    s = score_deal([9, 4], [1, 3, 0, 2], 6, SIX)  # team 2 wins the sixth deal with 1st+2nd: 9 to 7
    assert s.points == [9, 7] and s.winner_team == 1
    assert s.match_won and s.match_winner == 0
    assert s.to_dict()["match_winner"] == 0 and s.to_dict()["points"] == [9, 7]


def test_a_tie_after_the_last_deal_plays_one_more_deal_at_a_time():
    tied = score_deal([5, 6], [0, 1, 3, 2], 6, SIX)  # 1st+4th: 6 to 6
    assert tied.points == [6, 6] and not tied.match_won and tied.match_winner is None
    assert "one more deal decides" in tied.reason and "加赛一局" in tied.reason_zh
    extra = score_deal([6, 6], [3, 1, 0, 2], 7, SIX)  # the extra deal's winners are ahead: they win
    assert extra.points == [6, 9] and extra.match_won and extra.match_winner == 1
    assert "after extra deal 1" in extra.reason


def test_a_points_target_ends_the_match_at_once():
    early = score_deal([11, 3], [0, 2, 1, 3], 4, EIGHT)
    assert early.points == [14, 3] and early.match_won and early.match_winner == 0
    assert "reached 13 points" in early.reason
    assert not score_deal([10, 3], [0, 1, 2, 3], 4, EIGHT).match_won  # 12: not yet


def test_level_matches_keep_their_settlement():
    with pytest.raises(ValueError, match="no match_deals"):
        score_deal([0, 0], [0, 1, 2, 3], 1, "standard")


@pytest.mark.parametrize("options", [
    {"match_points": 13},  # a target needs a fixed number of deals
    {"match_deals": 0}, {"match_deals": True}, {"match_deals": 6, "match_points": "13"},
    {"match_deals": 6, "a_attempts": 3},  # every deal is at 2: A rules would silently do nothing
    {"match_deals": 6, "bonus_repeated_first": True},
])
def test_options_a_scored_match_cannot_take_are_refused(options):
    with pytest.raises(ValueError):
        Rules(**options)


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_scored_match_is_played_at_level_2_and_won_by_the_team_ahead(seed):
    game = play_match(seed, SIX)
    assert game.phase == "match_over" and game.deal >= 6
    assert all(r["level"] == 2 for r in game.results) and game.levels == [2, 2]
    running = [0, 0]
    for r in game.results:  # every deal adds its points to its winners
        assert r["points_before"] == running
        running[r["winner_team"]] += r["upgrade"]
        assert r["points"] == running
    assert game.points == running and running[game.match_winner] > running[1 - game.match_winner]
    assert not any(r["match_won"] for r in game.results[:-1])
    assert game.results[-1]["deal"] == 6 or game.results[-2]["points"][0] == game.results[-2]["points"][1]
    assert any(e["type"] in ("tribute", "refusal") for e in game.events)  # tribute goes on as usual
    assert game.view(0)["points"] == running
    assert game.events[-1] == {"type": "match_over", "winner": game.match_winner,
                               "winner_team": game.match_winner, "deal": game.deal, "levels": [2, 2],
                               "points": running}
    again = Game.from_dict(msgpack.unpackb(msgpack.packb(game.to_dict())))
    assert again == game and again.points == running


def test_a_level_match_has_no_points():
    game = Game.new(1)
    assert "points" not in game.view(0) and "points" not in game.to_dict()
    assert Game.new(1, SIX).view(None)["points"] == [0, 0]
