"""A play laid out as it reads (engine/layout.py): sequences in order, full houses triple first, each
wild card at the place it fills."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules, classify, legal_plays, parse_cards
from engine.cards import NAMES, RANK_OF, full_deck
from engine.layout import lay_out
from engine.plays import sequence_window


def laid(text: str, level: int, kind: str, value: int) -> tuple[str, list[int]]:
    cards, ranks = lay_out(kind, value, parse_cards(text), level)
    return " ".join(NAMES[c] for c in cards), ranks


def test_a_wild_straight_reads_from_its_low_end_with_the_wild_in_its_place():
    # level 2: the wild ♥2 with 5678 is the 4 of 45678, or the 9 of 56789
    assert laid("H2 S5 C6 D7 S8", 2, "straight", 8) == ("H2 S5 C6 D7 S8", [4, 5, 6, 7, 8])
    assert laid("H2 S5 C6 D7 S8", 2, "straight", 9) == ("S5 C6 D7 S8 H2", [5, 6, 7, 8, 9])
    assert laid("S5 H2 D7 S8 C9", 2, "straight", 9) == ("S5 H2 D7 S8 C9", [5, 6, 7, 8, 9])


def test_a_low_ace_straight_starts_with_the_ace():
    assert laid("S2 C3 D4 S5 HA", 9, "straight", 5) == ("HA S2 C3 D4 S5", [14, 2, 3, 4, 5])


def test_a_wild_card_at_its_own_rank_stands_for_itself():
    assert laid("SA S2 S3 S4 H5", 5, "straight_flush", 5) == ("SA S2 S3 S4 H5", [14, 2, 3, 4, 5])


def test_full_houses_read_triple_first():
    assert laid("S6 C6 SQ HQ DQ", 3, "full_house", 12) == ("SQ HQ DQ S6 C6", [12, 12, 12, 6, 6])
    assert laid("H7 S9 C9 SJ DJ", 7, "full_house", 11) == ("SJ DJ H7 S9 C9", [11, 11, 11, 9, 9])
    # two wild cards as the pair stand for the level rank
    assert laid("H4 H4 SK CK DK", 4, "full_house", 13) == ("SK CK DK H4 H4", [13, 13, 13, 4, 4])
    # a level-rank triple (value 15)
    assert laid("S8 C8 D8 S3 C3", 8, "full_house", 15) == ("S8 C8 D8 S3 C3", [8, 8, 8, 3, 3])


def test_a_joker_pair_in_a_full_house_comes_after_the_triple():
    rules = Rules(joker_pair_in_full_house=True)
    (play,) = classify("HR HR S9 C9 H2", 2, rules)
    cards, ranks = lay_out(play.kind, play.value, play.cards, 2)
    assert [NAMES[c] for c in cards] == ["S9", "C9", "H2", "HR", "HR"]
    assert ranks == [9, 9, 9, 17, 17]


def test_tubes_and_plates_fill_each_rank():
    assert laid("H2 H2 S3 S4 C4 C5", 2, "tube", 5) == ("S3 H2 S4 C4 C5 H2", [3, 3, 4, 4, 5, 5])
    assert laid("S3 C3 D3 H2 S4 C4", 2, "plate", 4) == ("S3 C3 D3 S4 C4 H2", [3, 3, 3, 4, 4, 4])


def test_same_rank_plays_and_jokers():
    assert laid("H2", 2, "single", 15) == ("H2", [2])
    assert laid("SB", 2, "single", 16) == ("SB", [16])
    assert laid("H9 S9", 9, "pair", 15) == ("S9 H9", [9, 9])
    assert laid("H2 S9 C9 D9", 2, "bomb", 9) == ("S9 C9 D9 H2", [9, 9, 9, 9])
    assert laid("HR SB HR SB", 2, "joker_bomb", 17) == ("SB SB HR HR", [16, 16, 17, 17])


SHAPES = {"straight": (5, 1), "straight_flush": (5, 1), "tube": (3, 2), "plate": (2, 3)}


def check(play, level: int) -> None:
    """What every layout must be: the same cards; natural cards at their own rank; the ranks of the
    reading, in reading order."""
    cards, ranks = lay_out(play.kind, play.value, play.cards, level)
    assert Counter(cards) == Counter(play.cards)
    wild = (level - 2) * 4 + 1
    for c, r in zip(cards, ranks, strict=True):
        if c != wild:
            assert r == RANK_OF[c], (play, cards, ranks)
    if play.kind in SHAPES:
        length, width = SHAPES[play.kind]
        assert ranks == [r for r in sequence_window(play.value, length) for _ in range(width)]
    elif play.kind == "full_house":
        triple = level if play.value == 15 else play.value
        assert ranks[:3] == [triple] * 3 and ranks[3] == ranks[4]
    elif play.kind in ("pair", "triple", "bomb") and play.value < 16:
        assert set(ranks) == {level if play.value == 15 else play.value}


@pytest.mark.parametrize("level", [2, 5, 10, 14])
def test_every_leading_play_of_a_wild_hand_lays_out(level):
    wild = (level - 2) * 4 + 1
    hand = [c for c in range(52) if c != wild][::2] + [wild, wild, 52, 53]
    for play in legal_plays(hand, level):
        check(play, level)


hands = st.lists(st.sampled_from(full_deck()), min_size=1, max_size=9).filter(
    lambda h: max(Counter(h).values()) <= 2)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                   HealthCheck.too_slow])
@given(hands, st.integers(2, 14), st.integers(0, 2))
def test_any_reading_lays_out(hand, level, wilds):
    wild = (level - 2) * 4 + 1
    hand = [c for c in hand if c != wild] + [wild] * wilds
    for play in legal_plays(hand, level, rules=Rules(joker_pair_in_full_house=True)):
        check(play, level)
