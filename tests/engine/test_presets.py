"""Rule presets of RULES.md §8 (seeds 000, 002, 004): every difference shows in play."""

from __future__ import annotations

import msgpack
import pytest

from engine import PRESETS, Game, IllegalAction, Rules, parse_cards, preset, return_choices, settle_deal
from engine.rules import RETURN_ANY, RETURN_TEN_OR_LOWER, RETURN_TEN_OR_LOWER_ANY_RANK, resolve_rules

A = 14

TABLE = {
    # name: (failed A attempts before falling back to 2, return limit, joker pair in full house, first leader)
    "standard": (None, RETURN_TEN_OR_LOWER, False, "first"),
    "national2017": (3, RETURN_TEN_OR_LOWER_ANY_RANK, False, "first"),
    "huaian": (3, RETURN_ANY, False, "first"),
    "nanjing": (2, RETURN_TEN_OR_LOWER_ANY_RANK, False, "first"),
}


def cards(text):
    return [int(c) for c in parse_cards(text)]


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_options_match_the_rulebook_table(name):
    r = preset(name)
    assert (r.a_attempts, r.return_limit, r.joker_pair_in_full_house, r.first_leader) == TABLE[name]
    assert not (r.demote_repeated_last or r.demote_repeated_bottom_pair or r.bonus_repeated_first
                or r.club_return)
    assert r.name == name
    assert Rules.from_dict(msgpack.unpackb(msgpack.packb(r.to_dict()))) == r


def test_standard_is_the_default():
    assert Rules() == preset("standard") == resolve_rules(None)
    assert Game.new(1).rules == preset("standard")


def test_club_preset_switches_on_every_seed_004_rule():
    r = preset("club")
    assert r.demote_repeated_last and r.demote_repeated_bottom_pair and r.bonus_repeated_first
    assert r.club_return and r.a_attempts is None


def test_unknown_preset_and_option_are_refused():
    with pytest.raises(ValueError):
        preset("vegas")
    with pytest.raises(ValueError):
        Rules.from_dict({"no_such_option": 1})
    for bad in ({"a_attempts": 0}, {"return_limit": "anything"}, {"first_leader": "dealer"}):
        with pytest.raises(ValueError):
            Rules.from_dict(bad)


def _fail_a(name, times):
    """Team 0 at A fails ``times`` deals played at its A (each a 1st+4th win): where does it end?"""
    levels, fails = [A, 6], (0, 0)
    for _ in range(times):
        s = settle_deal(levels, [0, 1, 3, 2], 0, preset(name), fails)
        levels, fails = s.levels, s.a_failures
    return levels, fails


def test_failed_a_limit_differs_between_presets():
    assert _fail_a("standard", 10) == ([A, 6], (10, 0))
    assert _fail_a("national2017", 2) == ([A, 6], (2, 0))
    assert _fail_a("national2017", 3) == ([2, 6], (0, 0))
    assert _fail_a("huaian", 3) == ([2, 6], (0, 0))
    assert _fail_a("nanjing", 1) == ([A, 6], (1, 0))
    assert _fail_a("nanjing", 2) == ([2, 6], (0, 0))


def test_return_limit_differs_between_presets():
    hand = cards("S3 D8 SA SK SB")
    got = cards("HR")[0]
    low = cards("S3 D8")
    assert return_choices(hand, got, 8, preset("standard")) == cards("S3")
    assert return_choices(hand, got, 5, preset("national2017")) == low
    assert return_choices(hand, got, 5, preset("nanjing")) == low
    assert return_choices(hand, got, 5, preset("huaian")) == cards("S3 D8 SK SA SB")
    # §8's table: the standard return excludes the level rank (seed 000 §20: at level 7 a 7 may not be
    # returned); national 2017 and Nanjing say only "10 or lower" (seed 002), the level rank included
    hand = cards("S7 D7 S9 SK")
    assert return_choices(hand, got, 7, preset("standard")) == cards("S9")
    for name in ("national2017", "nanjing"):
        assert return_choices(hand, got, 7, preset(name)) == cards("S9 S7 D7")
    # without any card of 10 or lower, every ten-or-lower preset falls back to the smallest card
    assert return_choices(cards("SJ SQ SA"), got, 7, preset("national2017")) == cards("SJ")


def test_joker_pair_full_house_option_changes_what_is_playable():
    g = Game.new(1)
    d = g.to_dict()
    d["hands"][0] = cards("S9 D9 C9 SB SB S3")
    for rules, ok in ((Rules(), False), (Rules(joker_pair_in_full_house=True), True)):
        d["rules"] = rules.to_dict()
        h = Game.from_dict(d)
        action = {"type": "play", "cards": cards("S9 D9 C9 SB SB")}
        if ok:
            assert h.apply(0, action)[0]["kind"] == "full_house"
        else:
            with pytest.raises(IllegalAction) as e:
                h.apply(0, action)
            assert e.value.code == "not_a_play"


def test_first_leader_option():
    assert {Game.new(s, preset(n)).turn for n in TABLE for s in range(5)} == {0}
    random_rules = Rules(first_leader="random")
    assert len({Game.new(s, random_rules).turn for s in range(30)}) == 4


def test_presets_round_trip_in_game_state():
    for name in PRESETS:
        g = Game.new(3, name)
        assert g.rules == preset(name)
        h = Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict())))
        assert h.rules == g.rules and h == g
        assert g.view(0)["rules"] == preset(name).to_dict()


# ---- competition2020 (COMPETITION_PROTOCOL.md: the 2020 AI platform's own rules)


def test_competition2020_passes_a_only_with_first_and_second_at_own_a():
    rules = preset("competition2020")
    # 1st+3rd at the team's own A: a pass under standard rules, not on the 2020 platform
    assert settle_deal([A, 9], [0, 1, 2, 3], 0, "standard").match_won
    s = settle_deal([A, 9], [0, 1, 2, 3], 0, rules)
    assert not s.match_won and list(s.levels) == [A, 9] and list(s.a_failures) == [1, 0]
    assert "1st+2nd" in s.reason
    assert settle_deal([A, 9], [0, 2, 1, 3], 0, rules).match_won
    # both teams at A, the deal played at the other team's A: not its own A
    s = settle_deal([A, A], [0, 2, 1, 3], 1, rules)
    assert not s.match_won and "own A" in s.reason


def test_competition2020_falls_back_to_2_after_two_failed_deals_at_a():
    rules = preset("competition2020")
    first = settle_deal([A, 9], [1, 0, 3, 2], 0, rules)  # the opponents win the deal played at A
    assert first.levels[0] == A and list(first.a_failures) == [1, 0]
    second = settle_deal(first.levels, [1, 0, 3, 2], 0, rules, first.a_failures)
    assert second.levels[0] == 2 and second.fell_back[0]


def test_ten_or_lower_presets_follow_section_20():
    # §20 at level 7 (standard): 3, 8 and 10 may be returned, 7 (the level rank) may not; nor J+ or
    # jokers; with no such card the smallest card.
    hand = cards("S3 D7 S8 CT SJ SA SB")
    assert return_choices(hand, cards("HR")[0], 7, "standard") == cards("S3 S8 CT")
    assert return_choices(cards("SJ DJ SQ D7 SB"), cards("HR")[0], 7, "standard") == cards("SJ DJ")
    # §8's table gives national 2017 and Nanjing "≤10, else smallest" (seed 002): the level rank counts
    for name in ("national2017", "nanjing"):
        assert return_choices(hand, cards("HR")[0], 7, name) == cards("S3 S8 CT D7")
        assert return_choices(cards("SJ DJ SQ D7 SB"), cards("HR")[0], 7, name) == cards("D7")
        assert return_choices(cards("SJ DJ SQ SB"), cards("HR")[0], 7, name) == cards("SJ DJ")


def test_huaian_returns_even_the_level_rank_and_jokers_but_not_the_received_card():
    hand = cards("S3 D7 SA SB HR")
    assert return_choices(hand, cards("HR")[0], 7, "huaian") == cards("S3 SA D7 SB")
