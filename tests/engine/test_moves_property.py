"""legal_plays against a brute-force enumeration, and against classify/beats (hypothesis)."""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules, beats, classify, legal_plays, parse_cards, play_groups
from engine.cards import full_deck
from engine.moves import HandIndex, expand

SLOW_OR_FILTERED = [HealthCheck.filter_too_much, HealthCheck.too_slow]  # a busy CI machine is not a bug

DECK = full_deck()


def sub_multisets(hand):
    """Every distinct non-empty sub-multiset of ``hand``, written out by hand (no engine code)."""
    counts = sorted(Counter(hand).items())
    ranges = [range(n + 1) for _, n in counts]
    for pick in product(*ranges):
        cards = []
        for (code, _), k in zip(counts, pick, strict=True):
            cards.extend([code] * k)
        if cards:
            yield cards


def brute_force(hand, level, top=None, rules=None):
    found = set()
    for cards in sub_multisets(hand):
        for play in classify(cards, level, rules):
            if beats(play, top):
                found.add(play)
    return found


hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=10).filter(
    lambda h: max(Counter(h).values()) <= 2
)
levels = st.integers(min_value=2, max_value=14)


def _rigged(draw_hand, level, wilds):
    """Add 0-2 wild cards so wild-card generation is exercised often."""
    wild = (level - 2) * 4 + 1
    h = [c for c in draw_hand if c != wild]
    return h + [wild] * wilds


@settings(max_examples=300, deadline=None, suppress_health_check=SLOW_OR_FILTERED)
@given(hands, levels, st.integers(0, 2), st.booleans())
def test_leading_plays_equal_brute_force(hand, level, wilds, joker_pair):
    hand = _rigged(hand, level, wilds)
    rules = Rules(joker_pair_in_full_house=joker_pair)
    got = legal_plays(hand, level, rules=rules)
    assert len(got) == len(set(got)), "duplicates in legal_plays"
    assert set(got) == brute_force(hand, level, rules=rules)


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW_OR_FILTERED)
@given(hands, hands, levels, st.integers(0, 2), st.data())
def test_following_plays_equal_brute_force(hand, other, level, wilds, data):
    hand = _rigged(hand, level, wilds)
    tops = legal_plays(other, level)
    top = data.draw(st.sampled_from(tops))
    got = legal_plays(hand, level, top)
    assert len(got) == len(set(got))
    assert set(got) == brute_force(hand, level, top)


big_hands = st.lists(st.sampled_from(DECK), min_size=20, max_size=27).filter(
    lambda h: max(Counter(h).values()) <= 2
)


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW_OR_FILTERED)
@given(big_hands, big_hands, levels, st.integers(0, 2), st.data())
def test_every_generated_play_classifies_and_beats(hand, other, level, wilds, data):
    hand = _rigged(hand, level, wilds)
    tops = [None, data.draw(st.sampled_from(legal_plays(other, level)))]
    for top in tops:
        plays = legal_plays(hand, level, top)
        assert len(plays) == len(set(plays))
        for play in plays:
            assert play in classify(play.cards, level)
            assert beats(play, top)
            assert not Counter(play.cards) - Counter(hand)


@st.composite
def dense_hands(draw):
    """Hands packed into a few neighbouring ranks (A low or high), so sequences and bombs are common."""
    start = draw(st.integers(1, 10))
    ranks = [14 if p == 1 else p for p in range(start, start + 5)]
    pool = [(r - 2) * 4 + s for r in ranks for s in range(4)] * 2 + [52, 52, 53, 53]
    return draw(st.lists(st.sampled_from(pool), min_size=3, max_size=11).filter(
        lambda h: max(Counter(h).values()) <= 2))


@settings(max_examples=400, deadline=None, suppress_health_check=SLOW_OR_FILTERED)
@given(dense_hands(), levels, st.integers(0, 2), st.booleans())
def test_dense_leading_plays_equal_brute_force(hand, level, wilds, joker_pair):
    hand = _rigged(hand, level, wilds)
    rules = Rules(joker_pair_in_full_house=joker_pair)
    got = legal_plays(hand, level, rules=rules)
    assert len(got) == len(set(got))
    assert set(got) == brute_force(hand, level, rules=rules)


@settings(max_examples=300, deadline=None, suppress_health_check=SLOW_OR_FILTERED)
@given(dense_hands(), dense_hands(), levels, st.integers(0, 2), st.data())
def test_dense_following_plays_equal_brute_force(hand, other, level, wilds, data):
    hand = _rigged(hand, level, wilds)
    top = data.draw(st.sampled_from(legal_plays(other, level)))
    got = legal_plays(hand, level, top)
    assert len(got) == len(set(got))
    assert set(got) == brute_force(hand, level, top)


@st.composite
def suited_hands(draw):
    """Runs of one suit (each card once or twice) and a few others: straights that are flushes only."""
    start = draw(st.integers(2, 10))
    suit = draw(st.integers(0, 3))
    run = [(r - 2) * 4 + suit for r in range(start, start + 5)]
    return run + draw(st.lists(st.sampled_from(run + DECK[:52]), max_size=5).filter(
        lambda more: max(Counter(run + more).values()) <= 2))


@settings(max_examples=300, deadline=None, suppress_health_check=SLOW_OR_FILTERED)
@given(st.one_of(dense_hands(), suited_hands()), dense_hands(), levels, st.integers(0, 2), st.booleans(),
       st.data())
def test_every_group_of_the_bots_view_expands_to_legal_plays(hand, other, level, wilds, follow, data):
    """play_groups offered a straight of five same-suit cards held in no other suit, which ``expand``
    (rightly: a straight flush only) turned into nothing: a caller taking the first play crashed."""
    hand = _rigged(hand, level, wilds)
    top = data.draw(st.sampled_from(legal_plays(other, level))) if follow else None
    legal = set(legal_plays(hand, level, top))
    idx = HandIndex(hand, level)
    for key, shapes in play_groups(hand, level, top).items():
        for shape in shapes:
            plays = expand(idx, shape)
            assert plays, f"{key}: {shape} expands to nothing"
            assert set(plays) <= legal


def test_a_straight_held_in_one_suit_alone_is_a_straight_flush_group_only():
    hand = parse_cards("D9 DT DT DJ DQ DK S2 C3")  # 9-K: only diamonds (two 10s, both diamonds)
    groups = play_groups(hand, 6)
    assert ("straight_flush", 13) in groups and ("straight", 13) not in groups
    assert ("straight", 13) in play_groups([*hand, parse_cards("CK")[0]], 6)  # a club K: a plain one too
