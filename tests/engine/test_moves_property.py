"""legal_plays against a brute-force enumeration, and against classify/beats (hypothesis)."""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules, beats, classify, legal_plays
from engine.cards import full_deck

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
