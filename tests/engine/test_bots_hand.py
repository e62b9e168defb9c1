"""Hand decomposition and card memory: the heuristic bot's judgement of a hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.bots.hand import decompose
from engine.bots.memory import Memory
from engine.cards import full_deck, parse_cards, wild_card
from engine.moves import HandIndex, expand


def plan_of(text, level=2):
    return decompose([int(c) for c in parse_cards(text)], level)


def kinds(plan):
    return sorted((s.kind, s.value) for s in plan.plays)


@pytest.mark.parametrize(
    ("hand", "level", "expected"),
    [
        ("S3 S4 S5 H6 D7", 2, [("straight", 7)]),
        ("SA S2 H3 C4 D5 SK", 9, [("single", 13), ("straight", 5)]),  # A low
        ("S3 H3 S4 H4 S5 H5", 2, [("tube", 5)]),
        ("S3 H3 C3 S4 H4 C4", 2, [("plate", 4)]),
        ("S9 H9 C9 SJ HJ S3 H3 C3 D5 D5", 2, [("full_house", 3), ("full_house", 9)]),
        ("S9 H9 C9 D9 S2 C2 S3", 10, [("bomb", 9), ("pair", 2), ("single", 3)]),
        ("SB SB HR HR S3", 2, [("joker_bomb", 17), ("single", 3)]),
        ("S3 S4 S5 S6 S7 D9", 2, [("single", 9), ("straight_flush", 7)]),
        # the wild card (HT at level 10) turns a triple into a bomb, or fills a straight flush
        ("S8 C8 D8 HT", 10, [("bomb", 8)]),
        ("S3 S4 S6 S7 HT D9", 10, [("single", 9), ("straight_flush", 7)]),
        # a straight flush and a triple beat a bomb and four loose singles
        ("S7 H7 C7 D7 S3 S4 S5 S6", 2, [("straight_flush", 7), ("triple", 7)]),
        # the level rank sits above A as a group
        ("S7 D7 SA", 7, [("pair", 15), ("single", 14)]),
    ],
)
def test_decomposition_finds_the_fewest_plays(hand, level, expected):
    assert kinds(plan_of(hand, level)) == sorted(expected)


def test_a_bomb_is_not_split_for_a_tube():
    # 88 99 TT + 99 would be two plays, but the bomb of 9 plus two pairs is the stronger hand.
    assert kinds(plan_of("S9 H9 C9 D9 S8 H8 ST HT")) == [("bomb", 9), ("pair", 8), ("pair", 10)]


def test_a_bomb_gives_a_card_to_clear_four_loose_singles():
    assert kinds(plan_of("S9 H9 C9 D9 S7 H8 DT SJ")) == [("straight", 11), ("triple", 9)]


def test_plan_uses_every_card_exactly_once_and_expands_to_real_plays():
    rng = random.Random(7)
    for _ in range(150):
        deck = full_deck()
        rng.shuffle(deck)
        level = rng.randint(2, 14)
        hand = [int(c) for c in deck[: rng.choice((27, 20, 13, 6))]]
        plan = decompose(hand, level)
        assert sum(s.size for s in plan.plays) == len(hand)
        # naturals of each rank, wild cards and jokers add up to the hand
        wild = int(wild_card(level))
        by_rank = Counter()
        wilds = 0
        jokers = Counter()
        for s in plan.plays:
            for r, n in s.naturals:
                by_rank[r] += n
            wilds += s.wilds
            jokers.update(int(j) for j in s.jokers)
        assert wilds == hand.count(wild)
        assert jokers == Counter(c for c in hand if c >= 52)
        assert by_rank == Counter((c >> 2) + 2 for c in hand if c < 52 and c != wild)
        idx = HandIndex(hand, level)
        for s in plan.plays:
            if s.kind != "straight":  # a straight of one suit only is a straight flush, not a straight
                assert expand(idx, s), s


def test_decomposition_is_cached_and_deterministic():
    hand = [int(c) for c in parse_cards("S3 S4 S5 H6 D7 D9 C9 SJ SQ HK C8 C8 DA SB")]
    assert decompose(hand, 2) == decompose(list(reversed(hand)), 2)


def test_memory_counts_what_is_still_out():
    hand = [int(c) for c in parse_cards("SB HR H7 S7")]
    m = Memory(hand, [int(c) for c in parse_cards("HR SB SB")], level=7)
    assert m.jokers_out == 0  # both small jokers and both big jokers are seen
    assert m.wilds_out == 1  # one H7 in hand, the other still out
    assert m.level_cards_out == 8 - 2  # eight 7s, two of them in hand
    from engine.moves import Shape

    assert m.is_boss(Shape("single", 17, (), 0, -1, ()))
    assert not m.is_boss(Shape("single", 14, ((14, 1),), 0))  # six level cards (7s) are still out


def test_memory_counts_possible_bombs_out():
    # Nothing played, empty hand: every rank (with the two wild cards) and the joker bomb may be out.
    assert Memory([], [], level=2).bombs_out() == 14
    # Seven 9s seen (hand and table): at most one 9 and the two wild cards are out, no bomb of 9.
    hand = [int(c) for c in parse_cards("S9 H9 C9 D9")]
    played = [int(c) for c in parse_cards("S9 H9 C9 SB")]
    m = Memory(hand, played, level=2)
    assert m.bombs_out() == 12  # 9 gone, and the joker bomb is impossible without both SB


def test_two_straight_flushes_are_both_planned_as_bombs():
    # ♠3-7 and ♦10-A are both straight flushes (the ♦ one could never be played as a plain straight).
    plan = plan_of("S3 S4 S5 S5 H5 H5 C5 S6 S7 DT DJ DQ DK DA H2")
    assert kinds(plan) == [("bomb", 5), ("straight_flush", 7), ("straight_flush", 14)]
