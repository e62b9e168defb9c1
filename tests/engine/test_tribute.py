"""tribute_plan and return_choices (RULES.md §7; seed 000 §18-§22, §24)."""

from __future__ import annotations

import pytest

from engine import Rules, parse_cards, preset, return_choices, tribute_card, tribute_plan
from engine.cards import NAMES


def cards(text):
    return [int(c) for c in parse_cards(text)]


def names(codes):
    return [NAMES[c] for c in codes]


FILLER = "S3 D3 C4 S6"


def hands_of(**by_seat):
    """Four hands; unnamed seats get filler."""
    return {s: cards(by_seat.get(f"s{s}", FILLER)) for s in range(4)}


# ------------------------------------------------------------------ tribute card (§18)


@pytest.mark.parametrize(
    "hand, level, want",
    [
        ("S3 HR SB SA", 2, "HR"),
        ("S3 SB SA DK", 2, "SB"),
        ("S3 SA D7 C7", 7, "D7"),        # level rank above A; equal ranks: the highest code
        ("S3 SA H7 D2", 7, "SA"),        # the hearts level card (wild) never given
        ("S3 H7 H7 D2", 7, "S3"),
        ("S3 SK HA DA", 2, "DA"),        # suits don't matter: equal ranks, the highest code is taken
        ("H2 S2 C2 D2", 2, "D2"),
    ],
)
def test_tribute_card_is_highest_excluding_hearts_level(hand, level, want):
    assert NAMES[tribute_card(cards(hand), level)] == want


# ------------------------------------------------------------------ single tribute


def test_single_tribute_4th_gives_1st_and_leads():
    # §24 example 1: places 1,2,3,4 (seats 0,1,2,3); next deal at 4; 4th (seat 3) gives to 1st (seat 0).
    plan = tribute_plan([0, 1, 2, 3], hands_of(s3="S3 S5 CA H4 D4"), 4)
    assert plan.kind == "single" and plan.single
    assert not plan.refused
    assert plan.gifts == [(3, 0, cards("D4")[0])]  # D4 is the level rank; H4 (wild) excluded
    assert plan.gifts == [{"from": 3, "to": 0, "card": cards("D4")[0]}]
    assert plan.gifts[0]["from"] == 3 and plan.gifts[0]["to"] == 0
    assert plan.leader == 3
    assert plan["leader"] == 3
    assert plan.to_dict()["gifts"] == [{"from": 3, "to": 0, "card": cards("D4")[0]}]


def test_single_tribute_even_to_partner_18():
    # 1st seat 1, 2nd seat 0, 3rd seat 2, 4th seat 3 = partner of the 1st: still gives to the 1st.
    plan = tribute_plan([1, 0, 2, 3], hands_of(s3="S3 DK"), 2)
    assert plan.kind == "single"
    assert plan.gifts == [(3, 1, cards("DK")[0])]
    assert plan.leader == 3


def test_single_refusal_two_big_jokers_leader_is_previous_first():
    plan = tribute_plan([0, 1, 2, 3], hands_of(s3="S3 HR HR"), 4)
    assert plan.refused
    assert plan.gifts == []
    assert plan.leader == 0  # §24 example 1: with two big jokers at seat 4, seat 1 leads


def test_single_refusal_receivers_and_small_jokers_and_wild_do_not_count():
    # The receiver's big jokers don't count.
    assert not tribute_plan([0, 1, 2, 3], hands_of(s0="HR HR", s3="S3 HR"), 4).refused
    # Two small jokers don't count.
    assert not tribute_plan([0, 1, 2, 3], hands_of(s3="S3 SB SB"), 4).refused
    # A big joker plus a small joker, or a big joker and a wild card: no refusal.
    assert not tribute_plan([0, 1, 2, 3], hands_of(s3="S3 SB HR"), 4).refused
    plan = tribute_plan([0, 1, 2, 3], hands_of(s3="S3 H4 HR"), 4)
    assert not plan.refused
    assert names(c for _, _, c in plan.gifts) == ["HR"]
    # Another seat's big jokers don't count either.
    assert not tribute_plan([0, 1, 2, 3], hands_of(s1="HR", s2="HR", s3="S3 HR"), 4).refused


# ------------------------------------------------------------------ double tribute (§19)


def test_double_tribute_example_2_of_24():
    # Seats 0 and 2 are 1st and 2nd; seat 1 gives the big joker, seat 3 an A: HR → seat 0, A → seat 2.
    plan = tribute_plan([0, 2, 1, 3], hands_of(s1="S3 HR SA", s3="S4 CA D9"), 5)
    assert plan.kind == "double" and plan.double
    assert not plan.refused
    assert plan.gifts == [(1, 0, cards("HR")[0]), (3, 2, cards("CA")[0])]
    assert plan.receivers == [0, 2]
    assert plan.leader == 1


def test_double_tribute_larger_goes_to_first_whoever_is_3rd():
    # 1st seat 0, 2nd seat 2, 3rd seat 3, 4th seat 1; seat 1 (4th) holds the larger card.
    plan = tribute_plan([0, 2, 3, 1], hands_of(s1="S3 SB", s3="S4 DK"), 2)
    assert plan.gifts == [(1, 0, cards("SB")[0]), (3, 2, cards("DK")[0])]
    assert plan.leader == 1


def test_double_tribute_tie_walks_seats_from_first_19():
    # §19: 1st = seat 1 (0), 2nd = seat 3 (2); seats 2 and 4 (1 and 3) both give an A: 2→1, 4→3.
    plan = tribute_plan([0, 2, 3, 1], hands_of(s1="S3 SA", s3="S4 DA"), 2)
    assert plan.gifts == [(1, 0, cards("SA")[0]), (3, 2, cards("DA")[0])]
    assert plan.leader == 1
    # 1st = seat 3, 2nd = seat 1: walking 3 → 0 → 1 → 2 reaches seat 0 first; seat 0 gives to seat 3.
    plan = tribute_plan([3, 1, 2, 0], hands_of(s0="S3 HK", s2="S4 CK"), 9)
    assert plan.gifts == [(0, 3, cards("HK")[0]), (2, 1, cards("CK")[0])]
    assert plan.leader == 0
    # 1st = seat 2, 2nd = seat 0: the walk 2 → 3 → 0 → 1 reaches seat 3 before seat 1.
    plan = tribute_plan([2, 0, 1, 3], hands_of(s1="S3 HQ", s3="S4 DQ"), 2)
    assert plan.gifts == [(3, 2, cards("DQ")[0]), (1, 0, cards("HQ")[0])]
    assert plan.leader == 3


def test_double_tribute_level_cards_compare_above_a():
    plan = tribute_plan([0, 2, 1, 3], hands_of(s1="S3 SA", s3="S4 D8"), 8)
    assert plan.gifts == [(3, 0, cards("D8")[0]), (1, 2, cards("SA")[0])]
    assert plan.leader == 3


@pytest.mark.parametrize(
    "h1, h3",
    [("S3 HR HR", "S4 DK"), ("S3 HR", "S4 HR"), ("S3 DK", "HR HR S4")],
)
def test_double_refusal_givers_hold_both_big_jokers_between_them(h1, h3):
    plan = tribute_plan([0, 2, 1, 3], hands_of(s1=h1, s3=h3), 5)
    assert plan.refused
    assert plan.gifts == []
    assert plan.leader == 0


def test_double_no_refusal_when_receivers_hold_a_big_joker_or_small_jokers():
    assert not tribute_plan([0, 2, 1, 3], hands_of(s0="HR", s1="S3 HR", s3="S4 DK"), 5).refused
    assert not tribute_plan([0, 2, 1, 3], hands_of(s1="S3 SB SB", s3="SB SB S4"), 5).refused
    assert not tribute_plan([0, 2, 1, 3], hands_of(s1="S3 HR H5", s3="S4 H5"), 5).refused


def test_plan_accepts_hands_as_list_and_names():
    hands = [["S3"], ["S4"], ["S5"], ["S6", "HR"]]
    plan = tribute_plan((0, 1, 2, 3), hands, 2)
    assert plan.gifts[0] == (3, 0, cards("HR")[0])


def test_plan_rejects_bad_places():
    with pytest.raises(ValueError):
        tribute_plan([0, 0, 1, 2], hands_of(), 2)


# ------------------------------------------------------------------ return (§20)


def test_return_ten_or_lower_not_level_not_joker_20():
    # §20: at level 7, 3, 8 and 10 may be returned, 7 may not.
    hand = cards("S3 D7 S8 CT SJ SA SB HR D2")
    got = names(return_choices(hand, cards("SA")[0], 7))
    assert got == ["D2", "S3", "S8", "CT"]


def test_return_at_level_2_excludes_2():
    hand = cards("S2 D2 S5 ST SQ HR")
    assert names(return_choices(hand, cards("HR")[0], 2)) == ["S5", "ST"]


def test_return_fallback_is_the_smallest_card():
    # No card of rank 10 or lower other than level cards: the smallest card(s) only.
    hand = cards("SJ DJ SQ SK SA S5 H5 SB HR")
    assert names(return_choices(hand, cards("HR")[0], 5)) == ["SJ", "DJ"]
    # At level J the Js are level cards (above A): the smallest is Q.
    hand = cards("SJ DJ SQ SK SA SB")
    assert names(return_choices(hand, cards("SB")[0], 11)) == ["SQ"]


def test_card_just_received_never_returnable():
    # The received card would be the only low card: it is excluded, so the fallback applies.
    hand = cards("S3 SJ SQ SA")
    assert names(return_choices(hand, cards("S3")[0], 2)) == ["SJ"]
    # The received card would be the smallest card of the fallback: the next smallest.
    hand = cards("SJ DQ SA")
    assert names(return_choices(hand, cards("SJ")[0], 2)) == ["DQ"]
    # Two copies of the received card are indistinguishable: neither is returnable.
    hand = cards("S9 S9 S4")
    assert names(return_choices(hand, cards("S9")[0], 2)) == ["S4"]
    # Works whether or not ``hand`` already contains the received card.
    assert names(return_choices(cards("S4 S5"), cards("HR")[0], 2)) == ["S4", "S5"]


def test_return_any_card_huaian():
    hand = cards("S3 SA SB H5")
    assert names(return_choices(hand, cards("SB")[0], 5, preset("huaian"))) == ["S3", "SA", "H5"]


def test_club_return_partner_below_level_opponent_any():
    rules = Rules(club_return=True)
    hand = cards("S3 SJ SA D9 C9 H9 SB")
    # to the partner: below the level rank (9): not 9s, not jokers; A counts as below the level card
    assert names(return_choices(hand, cards("HR")[0], 9, rules, to_partner=True)) == ["S3", "SJ", "SA"]
    assert names(return_choices(hand, cards("HR")[0], 9, rules, to_partner=False)) == [
        "S3", "SJ", "SA", "H9", "C9", "D9", "SB"]


def test_double_tribute_tie_of_small_jokers_and_of_level_cards():
    plan = tribute_plan([0, 2, 1, 3], hands_of(s1="S3 SB", s3="S4 SB"), 2)
    assert plan.gifts == [(1, 0, 52), (3, 2, 52)] and plan.leader == 1
    # At level 9 both top out at a non-hearts 9 of different suits: equal, the walk decides.
    plan = tribute_plan([2, 0, 3, 1], hands_of(s1="S3 S9 H9", s3="S4 D9 SA"), 9)
    assert plan.gifts == [(3, 2, cards("D9")[0]), (1, 0, cards("S9")[0])] and plan.leader == 3


def test_double_no_refusal_with_one_big_joker_and_small_jokers():
    plan = tribute_plan([0, 2, 1, 3], hands_of(s1="S3 SB SB", s3="S4 HR SB"), 5)
    assert not plan.refused
    assert plan.gifts == [(3, 0, 53), (1, 2, 52)] and plan.leader == 3


def test_refusal_looks_only_at_the_givers_of_this_plan():
    # Single tribute: the 3rd's big joker doesn't help the 4th refuse.
    assert not tribute_plan([0, 1, 2, 3], hands_of(s2="HR S5", s3="S3 HR"), 4).refused
    # Double tribute: the two big jokers split between the givers refuse, whoever is 3rd or 4th.
    for places in ([0, 2, 1, 3], [0, 2, 3, 1], [3, 1, 0, 2], [1, 3, 2, 0]):
        givers = places[2:]
        plan = tribute_plan(places, hands_of(**{f"s{givers[0]}": "S3 HR", f"s{givers[1]}": "S4 HR"}), 5)
        assert plan.refused and plan.gifts == [] and plan.leader == places[0] and plan.kind == "double"


def test_return_at_level_10_excludes_the_tens():
    hand = cards("S2 D9 ST CT SJ SB")
    assert names(return_choices(hand, cards("SB")[0], 10)) == ["S2", "D9"]


def test_return_fallback_skips_the_wild_and_jokers():
    # Nothing of rank 10 or lower but the wild H5 (a level card): the smallest card is the J.
    hand = cards("H5 SJ SQ SA SB HR")
    assert names(return_choices(hand, cards("HR")[0], 5)) == ["SJ"]
    # Only jokers and level cards left: the smallest of them is the level card.
    hand = cards("D5 SB HR")
    assert names(return_choices(hand, cards("HR")[0], 5)) == ["D5"]


def test_received_card_never_returnable_under_any_preset():
    hand = cards("S3 S4 SA")
    for rules in (None, "national2017", "nanjing", "huaian", "club"):
        assert cards("S3")[0] not in return_choices(hand, cards("S3")[0], 2, rules)
        assert cards("S3")[0] not in return_choices(hand, cards("S3")[0], 2, rules, to_partner=True)
