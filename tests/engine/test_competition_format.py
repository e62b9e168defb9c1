"""The competition protocol's action format (COMPETITION_PROTOCOL.md, 'Cards and actions')."""

from __future__ import annotations

import random

from engine import classify, legal_plays, parse_cards
from engine.cards import full_deck, wild_card
from engine.competition import PASS_ACTION, action_list, action_of, hand_order, play_of_action


def act(text: str, level: int, index: int = 0) -> list:
    return action_of(classify(text, level)[index], level)


def test_types_ranks_and_card_order():
    assert act("S2 H2 C3 D3 S4 H4", 9) == ["ThreePair", "2", ["S2", "H2", "C3", "D3", "S4", "H4"]]
    assert act("SA DA S2 D2 S3 D3", 9) == ["ThreePair", "A", ["SA", "DA", "S2", "D2", "S3", "D3"]]
    assert act("SA DA CA S2 D2 C2", 9) == ["TwoTrips", "A", ["SA", "CA", "DA", "S2", "C2", "D2"]]
    assert act("ST DJ CQ SK HA", 9) == ["Straight", "T", ["ST", "DJ", "CQ", "SK", "HA"]]
    assert act("S3 D3 S9 C9 D9", 5) == ["ThreeWithTwo", "9", ["S9", "C9", "D9", "S3", "D3"]]
    assert act("SB SB HR HR", 5) == ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]
    assert act("SB", 5) == ["Single", "B", ["SB"]]
    assert act("HR HR", 5) == ["Pair", "R", ["HR", "HR"]]


def test_level_rank_written_as_itself_and_wild_last():
    assert act("H9 S9", 9) == ["Pair", "9", ["S9", "H9"]]
    assert act("H9", 9) == ["Single", "9", ["H9"]]
    assert act("H9 SK DK", 9) == ["Trips", "K", ["SK", "DK", "H9"]]
    # the wild card sits at the position of the rank it stands for
    assert act("S3 D4 H9 C6 S7", 9) == ["Straight", "3", ["S3", "D4", "H9", "C6", "S7"]]
    assert act("S3 S3 D4 H9 C5 S5", 9) == ["ThreePair", "3", ["S3", "S3", "D4", "H9", "S5", "C5"]]


def test_action_list_pass_first_when_following_only():
    hand = parse_cards("S3 D3 S9 SK HR")
    lead = action_list(hand, 7)
    assert PASS_ACTION not in lead
    top = classify("SQ", 7)[0]
    follow = action_list(hand, 7, top)
    assert follow[0] == PASS_ACTION
    expected = [action_of(p, 7) for p in legal_plays(hand, 7, top)]
    assert sorted(map(str, follow[1:])) == sorted(map(str, expected))


def test_round_trip_on_random_hands():
    rng = random.Random(5)
    for _ in range(20):
        level = rng.randint(2, 14)
        deck = full_deck()
        rng.shuffle(deck)
        hand = deck[:25] + [wild_card(level)] * 2 if deck[:25].count(wild_card(level)) == 0 else deck[:27]
        for play in legal_plays(hand, level):
            assert play_of_action(action_of(play, level), level) == play


def test_hand_order():
    hand = parse_cards("HR S9 SA S2 H9 SB C9 DK")
    assert hand_order(hand, 9) == ["S2", "DK", "SA", "S9", "H9", "C9", "SB", "HR"]


def test_four_kings_accepted_when_reading():
    play = play_of_action(["FourKings", "JOKER", ["SB", "SB", "HR", "HR"]], 5)
    assert play.kind == "joker_bomb"
