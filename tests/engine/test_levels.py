"""settle_deal: upgrades, the cap at A, passing A, failed A attempts and the club rules (RULES.md §6, §8;
seed 000 §15-§17)."""

from __future__ import annotations

import pytest

from engine import Rules, preset, settle_deal
from engine.levels import empty_streaks

A, K, Q, J = 14, 13, 12, 11


@pytest.mark.parametrize(
    "places, winner, upgrade",
    [([0, 2, 1, 3], 0, 3), ([0, 2, 3, 1], 0, 3), ([0, 1, 2, 3], 0, 2), ([0, 3, 2, 1], 0, 2),
     ([0, 1, 3, 2], 0, 1), ([0, 3, 1, 2], 0, 1), ([1, 3, 0, 2], 1, 3), ([3, 0, 1, 2], 1, 2),
     ([2, 1, 3, 0], 0, 1)],
)
def test_upgrade_by_partner_place(places, winner, upgrade):
    s = settle_deal([2, 2], places, 0)
    assert (s.winner_team, s.upgrade) == (winner, upgrade)


def test_upgrade_by_places_16():
    # §16: 1st+2nd → +3 (double down), 1st+3rd → +2, 1st+4th → +1; losers stay.
    assert settle_deal([2, 2], [0, 2, 1, 3], 0).levels == [5, 2]
    assert settle_deal([2, 2], [0, 1, 2, 3], 0).levels == [4, 2]
    assert settle_deal([2, 2], [0, 1, 3, 2], 0).levels == [3, 2]
    assert settle_deal([2, 2], [1, 3, 0, 2], 0).levels == [2, 5]
    assert settle_deal([2, 2], [3, 0, 2, 1], 0).levels == [2, 3]


def test_winner_is_team_of_first_even_when_other_team_has_2nd_and_3rd():
    s = settle_deal([2, 2], [0, 1, 3, 2], 0)
    assert (s.winner_team, s.upgrade) == (0, 1)


def test_example_16_team_upgrades_from_its_own_level():
    # §16: our team at 4 wins a deal played at the opponents' 8 with 1st+3rd: we go to 6, next deal at 6.
    s = settle_deal([4, 8], [0, 1, 2, 3], 1)
    assert s.levels == [6, 8]
    assert s.winner_team == 0
    assert not s.match_won


def test_result_unpacks_and_reads_by_key():
    levels, winner, upgrade, won, fails = settle_deal((2, 2), (0, 1, 2, 3), 0)
    assert (levels, winner, upgrade, won, fails) == ((4, 2), 0, 2, False, (0, 0))
    s = settle_deal([2, 2], [0, 1, 2, 3], 0, a_failures=[0, 0])
    assert s["levels"] == [4, 2] and s["a_failures"] == [0, 0] and s["upgrade"] == 2
    assert "up 2 from 2 to 4" in s.reason


def test_k_plus_2_is_a_not_a_win_17():
    s = settle_deal([K, 5], [0, 1, 2, 3], 0)
    assert s.levels == [A, 5]
    assert not s.match_won
    assert "stops at A" in s.reason and "not a match win" in s.reason
    s = settle_deal([Q, 5], [0, 2, 1, 3], 0)
    assert s.levels == [A, 5] and not s.match_won


@pytest.mark.parametrize("places", [[0, 2, 1, 3], [0, 1, 2, 3], [2, 3, 0, 1]])
def test_pass_a_wins_the_match_17(places):
    s = settle_deal([A, 9], places, 0)
    assert s.match_won
    assert s.winner_team == 0
    assert s.levels == [A, 9]
    assert "match is won" in s.reason


def test_first_and_fourth_at_a_is_not_a_win_and_says_why():
    s = settle_deal([A, 9], [0, 1, 3, 2], 0)
    assert not s.match_won
    assert s.levels == [A, 9]
    assert s.upgrade == 1
    assert "1st+4th at A is not a pass" in s.reason
    assert s.a_failures == (1, 0)


def test_at_a_but_deal_not_played_at_a_is_not_a_win():
    # Team 0 reached A earlier but team 1 won the last deal: this deal is played at team 1's 9.
    s = settle_deal([A, 9], [0, 2, 1, 3], 1)
    assert not s.match_won
    assert s.levels == [A, 9]
    assert "not played at A" in s.reason
    assert s.a_failures == (0, 0)  # not an A attempt: the deal was not played at team 0's A


def test_losing_at_a_keeps_a_and_counts_a_failure_by_default_unlimited():
    s = settle_deal([A, 9], [1, 3, 0, 2], 0)
    assert s.levels == [A, 12]
    assert s.a_failures == (1, 0)
    s = settle_deal([A, 9], [1, 0, 3, 2], 0, a_failures=(40, 0))
    assert s.levels == [A, 11]  # standard: no limit, no fall-back
    assert s.a_failures == (41, 0)


@pytest.mark.parametrize("name, limit", [("national2017", 3), ("huaian", 3), ("nanjing", 2)])
def test_failed_a_attempts_fall_back_to_2(name, limit):
    rules = preset(name)
    fails = (0, 0)
    levels = [A, 5]
    for attempt in range(1, limit):
        s = settle_deal(levels, [1, 0, 3, 2], 0, rules, fails)  # team 1 wins +1: a failed attempt
        assert s.levels[0] == A
        assert s.a_failures == (attempt, 0)
        fails = s.a_failures
        levels = [A, 5]  # keep playing at team 0's A (as if team 0 had won a 1st+4th in between)
    s = settle_deal(levels, [0, 1, 3, 2], 0, rules, fails)  # 1st+4th at A: also a failure
    assert s.levels == [2, 5]
    assert s.a_failures == (0, 0)
    assert s.fell_back == [True, False]
    assert "falls back to 2" in s.reason


def test_a_attempts_counted_for_both_teams_at_a():
    s = settle_deal([A, A], [1, 0, 2, 3], 0, Rules(a_attempts=3), (2, 0))
    assert s.levels == [2, A]  # team 0 used its third attempt; team 1 (1st+4th) also failed
    assert s.a_failures == (0, 1)
    assert not s.match_won
    s = settle_deal([A, A], [1, 3, 0, 2], 0)
    assert s.match_won and s.winner_team == 1


def test_invalid_input():
    with pytest.raises(ValueError):
        settle_deal([2, 2], [0, 1, 1, 3], 0)
    with pytest.raises(ValueError):
        settle_deal([2, 15], [0, 1, 2, 3], 0)
    with pytest.raises(ValueError):
        settle_deal([2, 2], [0, 1, 2, 3], 2)


def test_levels_may_be_given_as_ranks_and_come_back_as_ranks():
    """Levels are ranks 2…A (issue 2's notation): text in, text out; ints in, ints out."""
    s = settle_deal(["A", "5"], [0, 1, 2, 3], 0)
    assert s.match_won and s.levels == ["A", "5"]
    assert settle_deal(("10", "Q"), [1, 3, 0, 2], 1).levels == ("10", "A")  # Q +3 stops at A
    assert settle_deal(["T", "3"], [0, 2, 1, 3], 0).levels == ["K", "3"]
    assert settle_deal(["10", "3"], [0, 1, 2, 3], 0).levels == ["Q", "3"]
    assert settle_deal([10, 3], [0, 1, 2, 3], 0).levels == [12, 3]
    for bad in (["X", "2"], ["2"], [True, 2], ["15", "2"]):
        with pytest.raises(ValueError, match="two ranks"):
            settle_deal(bad, [0, 1, 2, 3], 0)


CLUB = Rules(name="club", demote_repeated_last=True, demote_repeated_bottom_pair=True,
             bonus_repeated_first=True)


def run(levels, deals, rules, level_team=0):
    streaks = empty_streaks()
    fails = (0, 0)
    out = []
    for places in deals:
        s = settle_deal(levels, places, level_team, rules, fails, streaks)
        levels, fails, streaks = s.levels, s.a_failures, s.streaks
        level_team = s.winner_team
        out.append(s)
    return out


def test_club_last_three_running_costs_a_level():
    # Seat 1 is 4th three deals running; team 0 wins each with 1st+3rd (seat 3 is 3rd).
    deals = [[0, 3, 2, 1]] * 3
    rules = Rules(demote_repeated_last=True)
    s1, s2, s3 = run([2, 6], deals, rules)
    assert s1.levels == [4, 6] and s2.levels == [6, 6]
    assert s3.levels == [8, 5]
    assert s3.adjustments == [0, -1]
    assert "last 3 deals running" in s3.reason
    s4 = run([2, 6], deals + [[0, 3, 2, 1]], rules)[-1]
    assert s4.levels == [10, 3]  # four running: two more


def test_club_rules_never_below_2_and_never_at_a():
    rules = Rules(demote_repeated_last=True, demote_repeated_bottom_pair=True)
    out = run([2, 2], [[0, 2, 1, 3]] * 3, rules)  # team 1 3rd+4th three times; both count as last
    assert out[-1].levels == [11, 2]
    # the demotion it announced changes nothing, and the explanation says so
    assert "at 2 already" in out[-1].reason and "已是2级" in out[-1].reason_zh
    out = run([2, A], [[0, 2, 1, 3]] * 3, rules)
    assert out[-1].levels == [11, A]
    assert "never demoted" in out[-1].reason


def test_club_bottom_pair_three_running_loses_two():
    rules = Rules(demote_repeated_bottom_pair=True)
    out = run([2, 9], [[0, 2, 1, 3]] * 3, rules)
    assert [s.levels for s in out] == [[5, 9], [8, 9], [11, 7]]


def test_club_bonus_for_first_three_running():
    rules = Rules(bonus_repeated_first=True)
    out = run([2, 2], [[0, 1, 3, 2]] * 4, rules)
    assert [s.levels[0] for s in out] == [3, 4, 6, 9]
    assert out[2].adjustments == [1, 0]
    at_a = run([A - 1, 2], [[0, 1, 3, 2]] * 3, rules)[-1]  # a bonus for a team already at A
    assert at_a.levels[0] == A and "bonus changes nothing" in at_a.reason and "奖励不再升级" in at_a.reason_zh


def test_club_rules_off_by_default():
    out = run([2, 2], [[0, 1, 3, 2]] * 4, Rules())
    assert [s.levels for s in out] == [[3, 2], [4, 2], [5, 2], [6, 2]]
    assert CLUB.bonus_repeated_first


def test_club_only_the_4th_counts_as_last():
    # RULES.md §8: "a player who is 4th". In 1st+2nd deals the 3rd is not 4th (that team's 3rd+4th
    # has its own rule), so only the seat placed 4th builds a streak.
    rules = Rules(demote_repeated_last=True)
    out = run([2, 9], [[0, 2, 3, 1]] * 3, rules)
    assert [s.levels for s in out] == [[5, 9], [8, 9], [11, 8]]
    assert out[-1].adjustments == [0, -1]
    assert out[-1].streaks["last"] == [0, 3, 0, 0]
    # The same 4th player is needed: seats 1 and 3 taking turns as 4th build no streak.
    out = run([2, 9], [[0, 2, 3, 1], [0, 2, 1, 3], [0, 2, 3, 1]], rules)
    assert out[-1].levels == [11, 9] and out[-1].adjustments == [0, 0]
    # The club preset: seat 1 4th three running (-1) and team 2 3rd+4th three running (-2); seat 0 1st
    # three running (+1).
    out = run([2, 9], [[0, 2, 3, 1]] * 3, preset("club"))
    assert out[-1].levels == [12, 6] and out[-1].adjustments == [1, -3]


def test_club_streak_broken_by_one_other_deal():
    rules = Rules(demote_repeated_last=True)
    out = run([2, 6], [[0, 3, 2, 1], [0, 3, 2, 1], [0, 1, 2, 3], [0, 3, 2, 1], [0, 3, 2, 1]], rules)
    assert all(s.adjustments == [0, 0] for s in out)
    assert [s.levels[1] for s in out] == [6] * 5


def test_club_demotion_stops_at_2():
    rules = Rules(demote_repeated_last=True, demote_repeated_bottom_pair=True)
    out = run([2, 3], [[0, 2, 3, 1]] * 3, rules)   # team 2 would lose 3 from 3
    assert out[-1].levels[1] == 2


def test_club_bonus_capped_at_a_and_not_a_win():
    rules = Rules(bonus_repeated_first=True)
    out = run([9, 2], [[0, 1, 2, 3]] * 3, rules)  # 9 -> J -> K, then K + 2 + bonus 1: A, not a match win
    assert [s.levels[0] for s in out] == [11, 13, 14]
    assert not any(s.match_won for s in out)


def test_jack_plus_3_is_exactly_a_not_a_win():
    s = settle_deal([J, 5], [0, 2, 1, 3], 0)
    assert s.levels == [A, 5] and not s.match_won


def test_reaching_a_in_a_deal_played_at_the_opponents_a_is_not_a_win():
    # Team 1 is at A and the deal is played at its A; team 0 (at K) wins with 1st+2nd: team 0 reaches A
    # (it was not already at A), team 1 used an A attempt.
    s = settle_deal([K, A], [0, 2, 1, 3], 1, a_failures=(0, 0))
    assert s.levels == [A, A] and not s.match_won
    assert s.a_failures == (0, 1)
    # The next deal is played at team 0's A: now 1st+3rd passes A.
    s = settle_deal(s.levels, [2, 1, 0, 3], 0, a_failures=s.a_failures)
    assert s.match_won and s.winner_team == 0


def test_no_demotion_by_default_and_losers_stay():
    s = settle_deal([7, 9], [1, 3, 0, 2], 1, a_failures=(0, 0))
    assert s.levels == [7, 12]
    s = settle_deal([7, 9], [0, 2, 1, 3], 1, preset("nanjing"))
    assert s.levels == [10, 9]


def test_every_explanation_also_comes_in_chinese():
    # §17: why 1st+4th at A is not a win, in the players' own language too
    st = settle_deal([14, 9], [0, 1, 3, 2], 0)
    assert "1st+4th at A is not a pass" in st.reason
    assert "头游+末游不算过A" in st.reason_zh and "未能过A" in st.reason_zh
    assert st.levels == [14, 9]
    capped = settle_deal([13, 2], [0, 2, 1, 3], 0).reason_zh
    assert capped.endswith("封顶为A（升到A不等于通关，还须在打A的一局中取胜）。")
    assert "通关获胜" in settle_deal([14, 9], [2, 0, 1, 3], 0).reason_zh
    assert "退回打2" in settle_deal([14, 9], [1, 0, 3, 2], 0, "nanjing", (1, 0)).reason_zh
    # the team at A wins its last attempt with 1st+4th: the text must not say it stays at A
    back = settle_deal([14, 9], [0, 1, 3, 2], 0, "nanjing", (1, 0))
    assert back.levels == [2, 9] and back.fell_back == [True, False]
    assert "stays at A" not in back.reason and "仍为A" not in back.reason_zh
    assert back.reason_zh.endswith("退回打2。") and "has not passed A" in back.reason
    plain = settle_deal([2, 2], [0, 2, 1, 3], 0).to_dict()["reason_zh"]
    assert plain == "1、3号队以头游+二游（双上）取胜：从2升3级到5。"
