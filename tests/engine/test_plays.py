"""RULES.md §2–§4 as tests: recognition, comparison and the bomb ladder."""

from __future__ import annotations

import pytest

from engine import Rules, beats, classify, format_cards, legal_plays, parse_cards, play_groups
from engine.cards import CARDS


def kinds(text: str, level: int, rules: Rules | None = None) -> list[tuple[str, int]]:
    return [(p.kind, p.value) for p in classify(text, level, rules)]


def best(text: str, level: int):
    plays = classify(text, level)
    assert plays, f"{text} should be a legal play at level {level}"
    return plays[0]


def b(a: str, top: str, level: int) -> bool:
    return beats(best(a, level), best(top, level))


# ---------------------------------------------------------------- notation


def test_parse_format_round_trip():
    text = "S2 H9 CT DJ SQ HK CA SB HR"
    cards = parse_cards(text)
    assert format_cards(cards) == text
    assert parse_cards("S10 h10") == parse_cards("ST HT")
    assert [c.rank for c in parse_cards("SA SB HR")] == [14, 16, 17]


@pytest.mark.parametrize("bad", ["", "   ", "S1", "X9", "S11", "SJ SJ SJ", "SB SB SB", "9S", "Joker"])
def test_parse_rejects_bad_input(bad):
    with pytest.raises(ValueError) as err:
        parse_cards(bad)
    assert str(err.value)


def test_error_names_the_token():
    with pytest.raises(ValueError, match="X9"):
        parse_cards("S9 X9")
    with pytest.raises(ValueError, match="SJ"):
        parse_cards("SJ SJ SJ")


@pytest.mark.parametrize("bad", ["", "ZZ", "S9 S9 S9", [], [54], ["S9", "Q9"]])
def test_classify_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        classify(bad, 2)


# ---------------------------------------------------------------- §2 rank order


def test_single_rank_order_with_level():
    assert b("S7", "SA", 7)  # level rank above A
    assert b("SB", "S7", 7)
    assert b("HR", "SB", 7)
    assert not b("SA", "S7", 7)
    assert b("SA", "SK", 7)
    assert b("S2", "SA", 2)  # at level 2, 2 beats A
    assert not b("S2", "S3", 7)
    assert not b("H9", "S9", 7)  # suits never matter
    assert not b("S9", "S9", 7)


def test_single_lowest_and_highest():
    assert best("S2", 7).value < best("S3", 7).value
    assert best("HR", 7).value > best("SB", 7).value > best("H7", 7).value


def test_pairs_and_triples():
    assert kinds("S8 H8", 5) == [("pair", 8)]
    assert b("SK HK", "SQ DQ", 5)
    assert b("SB SB", "SA SA", 5)
    assert b("HR HR", "SB SB", 5)
    assert kinds("SB HR", 5) == []  # small + big joker is no pair
    assert kinds("S2 D2", 5) == [("pair", 2)]  # the lowest pair
    assert kinds("S9 C9 D9", 5) == [("triple", 9)]
    assert kinds("SB SB HR", 5) == []
    assert kinds("SB SB", 5) == [("pair", 16)]
    assert not b("SK DK CK", "SQ SQ", 5)  # different ordinary types never beat


# ---------------------------------------------------------------- §3 wild cards


def test_wild_card_uses_at_level_7():
    wild = "H7"
    assert kinds(f"S9 {wild}", 7) == [("pair", 9)]
    assert kinds(f"S9 C9 {wild}", 7) == [("triple", 9)]
    assert kinds(f"S5 S6 {wild} S8 S9", 7)[0] == ("straight_flush", 9)
    assert ("straight", 9) in kinds(f"S5 S6 {wild} S8 S9", 7)
    assert ("straight", 9) in kinds(f"S5 D6 {wild} C8 S9", 7)
    assert ("straight_flush", 9) not in kinds(f"S5 D6 {wild} C8 S9", 7)
    assert kinds(f"S9 C9 D9 H9 {wild}", 7) == [("bomb", 9)]
    assert kinds(f"S7 C7 {wild}", 7) == [("triple", 15)]  # stands in for the level rank itself
    assert kinds(wild, 7) == [("single", 15)]  # alone: the level-rank single, not a joker
    assert kinds(f"{wild} {wild}", 7) == [("pair", 15)]
    assert kinds(f"{wild} SB", 7) == []  # a wild card never becomes a joker
    assert kinds(f"{wild} SB HR HR", 7) == []


def test_wild_card_uses_at_level_2():
    assert kinds("H2", 2) == [("single", 15)]
    assert kinds("S2 H2", 2) == [("pair", 15)]
    assert kinds("SA H2", 2) == [("pair", 14)]
    assert kinds("SA H2 S3 S4 S5", 2)[0] == ("straight_flush", 5)  # wild as spade 2
    assert ("straight", 5) in kinds("SA H2 D3 S4 S5", 2)
    assert kinds("SA CA H2 H2", 2) == [("bomb", 14)]
    # either rank may be the triple: both readings, the higher first (RULES.md §3, every interpretation)
    assert kinds("S3 S3 H2 D4 D4", 2) == [("full_house", 4), ("full_house", 3)]
    # a natural hearts 2 is the wild card at level 2, but a plain card at level 3
    assert kinds("H2 S3 S4 S5 S6", 3) == [("straight", 6)]


def test_wild_fills_straight_tube_plate():
    assert kinds("S3 D4 H7 C6 S7", 7) == [("straight", 7)]  # wild as 5
    assert kinds("S3 S3 D4 H7 C5 S5", 7) == [("tube", 5)]
    assert ("plate", 4) in kinds("S3 S3 D3 D4 H7 H7", 7)
    assert ("tube", 4) in kinds("S3 S3 D4 C4 H7 H7", 7)
    assert ("plate", 4) in kinds("S3 S3 D4 C4 H7 H7", 7)
    assert kinds("S3 S3 D4 C4 H7 H7", 7)[0] == ("tube", 5)  # 334455 with the wilds as 55


def test_a_full_house_with_a_wild_card_reads_either_rank_as_its_triple():
    """9 9 J J ♥7 at level 7 is JJJ+99 (the default) or 999+JJ: the lower is a lead a partner can beat."""
    assert kinds("S9 C9 SJ CJ H7", 7) == [("full_house", 11), ("full_house", 9)]
    assert kinds("S7 C7 S9 C9 H7", 7) == [("full_house", 15), ("full_house", 9)]  # 777+99 or 999+77
    hand = parse_cards("S9 C9 SJ CJ H7 S3")
    full = [p for p in legal_plays(hand, 7) if p.kind == "full_house"]
    assert sorted(p.value for p in full) == [9, 11] and len({p.cards for p in full}) == 1
    following = [p.value for p in legal_plays(hand, 7, best("ST CT DT S4 C4", 7)) if p.kind == "full_house"]
    assert following == [11]  # over 10 10 10 only the JJJ reading
    assert [k for k in play_groups(hand, 7) if k[0] == "full_house"] == [("full_house", 11)]  # the bots' view
    assert kinds("S9 C9 D9 SJ CJ", 7) == [("full_house", 9)]  # no wild card: one reading


def test_wild_interpretation_choice_order():
    # x4567 may be 34567 or 45678: strongest first
    assert kinds("H7 S4 D5 C6 S7", 7)[:2] == [("straight", 8), ("straight", 7)]
    # three naturals + two wilds: the bomb reading comes first, the full house is also legal
    assert kinds("S9 C9 D9 H7 H7", 7) == [("bomb", 9), ("full_house", 9)]


# ---------------------------------------------------------------- §4 the ten types


def test_full_house_compares_by_triple_only():
    assert b("S9 C9 D9 S3 C3", "S8 C8 D8 SA CA", 5)
    assert not b("S8 C8 D8 SA CA", "S9 C9 D9 S3 C3", 5)
    assert kinds("S3 C3 D3 S2 C2", 5) == [("full_house", 3)]
    assert kinds("SA CA DA SK CK", 5) == [("full_house", 14)]
    assert b("S5 C5 D5 S2 C2", "SA CA DA SK CK", 5)  # level triple above A
    assert not b("S9 C9 D9 S3 C3", "S9 D9 H9 SA CA", 5)  # equal triple never beats


def test_wild_full_house_readings_and_generator_agree():
    cards = "S3 C3 H7 S9 C9"
    plays = classify(cards, 7)
    # 33+99+wild is 999+33 or 333+99: two readings of the same cards, the higher first
    assert [(p.kind, p.value) for p in plays] == [("full_house", 9), ("full_house", 3)]
    hand = parse_cards(cards)
    gen = [p for p in legal_plays(hand, 7) if p.kind == "full_house"]
    assert set(gen) == set(plays)
    # two wild cards: S3 + 99 + two wilds is 999+33 or 333+99 too
    hand2 = parse_cards("S3 H7 H7 S9 C9")
    plays2 = [p for p in classify(hand2, 7) if p.kind == "full_house"]
    assert [p.value for p in plays2] == [9, 3]
    gen2 = [p for p in legal_plays(hand2, 7) if p.kind == "full_house" and len(set(p.cards)) == 4]
    assert {(p.value, p.cards) for p in gen2} == {(p.value, p.cards) for p in plays2}
    # the level rank as the triple is above A (or AAA+77)
    assert kinds("S7 C7 SA CA H7", 7) == [("full_house", 15), ("full_house", 14)]


def test_joker_pair_full_house_is_a_rule_option():
    assert kinds("S9 C9 D9 SB SB", 7) == []
    assert kinds("S9 C9 D9 SB SB", 7, Rules(joker_pair_in_full_house=True)) == [("full_house", 9)]
    assert kinds("S9 C9 D9 SB HR", 7, Rules(joker_pair_in_full_house=True)) == []


def test_straights_natural_positions():
    assert kinds("SA D2 C3 S4 H5", 9) == [("straight", 5)]  # lowest
    assert kinds("ST DJ CQ SK HA", 9) == [("straight", 14)]  # highest
    assert kinds("S5 D6 C7 S8 H9", 7) == [("straight", 9)]  # level rank keeps its place
    assert b("S6 D7 C8 S9 HT", "S5 D6 C7 S8 H9", 7)
    assert not b("D5 H6 S7 C8 D9", "S5 D6 C7 S8 H9", 7)  # same straight in other suits
    assert kinds("SJ DQ CK SA H2", 9) == []  # no wrap
    assert kinds("SQ DK CA S2 H3", 9) == []


def test_tubes_and_plates():
    assert kinds("SA DA S2 D2 S3 D3", 9) == [("tube", 3)]  # AA2233
    assert kinds("SQ DQ SK DK SA DA", 9) == [("tube", 14)]  # QQKKAA
    assert kinds("SA DA CA S2 D2 C2", 9) == [("plate", 2)]  # AAA222
    assert kinds("SK DK CK SA DA CA", 9) == [("plate", 14)]  # KKKAAA
    assert not b("S5 D5 C5 S6 D6 C6", "SK DK CK SA DA CA", 5)  # 555666 at level 5 < KKKAAA
    assert b("S4 D4 S5 D5 S6 D6", "S3 D3 S4 D4 S5 D5", 9)
    assert not b("S3 D3 C3 S4 D4 C4", "S3 D3 S4 D4 S5 D5", 9)  # tube vs plate: different types


@pytest.mark.parametrize(
    "text",
    [
        "S9 C9 D9 S3",  # three with one
        "S9 C9 D9 S3 D4",  # three with two singles
        "S9 C9 D9 H9 S3",  # four with one
        "S9 C9 D9 H9 S3 C3",  # four with a pair
        "S3 D4 C5 S6 H7 D8",  # six-card straight
        "S3 D3 S4 D4",  # two-pair tube
        "S3 D3 S4 D4 S5 D5 S6 D6",  # four-pair tube
        "S3 D3 C3 S4 D4 C4 S5 D5 C5",  # three-triple plate
        "S2 S5 S7 S9 SJ",  # flush
        "SB HR",  # small + big joker
        "SB SB HR",
        "SJ SQ SK SA S2",  # wrapping straight flush
        "S3 D3 S5 D5 S6 D6",  # gapped tube
        "SQ SK SA SB HR",  # joker in a straight
        "S9 S9 SB",  # pair plus joker
        "S3 S4 S5 S6",
    ],
)
def test_illegal_shapes(text):
    assert classify(text, 7) == []


def test_natural_straight_flush_is_only_a_straight_flush():
    assert kinds("C3 C4 C5 C6 C7", 9) == [("straight_flush", 7)]
    plays = legal_plays(parse_cards("C3 C4 C5 C6 C7"), 9)
    assert [(p.kind, p.value) for p in plays if len(p.cards) == 5] == [("straight_flush", 7)]


# ---------------------------------------------------------------- bomb ladder


def test_bomb_ladder():
    four = "S3 D3 C3 H3"
    five = "S2 D2 C2 H2 S2"
    sf = "C3 C4 C5 C6 C7"
    six = "S3 D3 C3 H3 S3 D3"
    jokers = "SB SB HR HR"
    lvl = 9
    assert b(five, four, lvl) and not b(four, five, lvl)
    assert b(sf, "SA DA CA HA SA", lvl)  # straight flush beats a 5-card bomb
    assert b(six, sf, lvl) and not b(sf, six, lvl)  # and loses to a 6-card bomb
    assert b("S3 D3 C3 H3 S3 D3 C3", six, lvl)
    assert b(four, "SA DA SK DK SQ DQ", lvl)  # any bomb beats any ordinary play
    assert b(four, "HR", lvl)
    assert b(jokers, "S4 D4 C4 H4 S4 D4 C4 H4 H9 H9", lvl)
    assert b(jokers, sf, lvl)
    assert not b(jokers, jokers, lvl)
    assert not b(sf, jokers, lvl)


def test_bomb_comparisons_from_the_seeds():
    assert b("S3 D3 C3 H3 S3 D3", "SA DA CA HA SA", 9)  # six 3s beat five As
    assert b("S7 D7 C7 S7", "SA DA CA HA", 7)  # 7777 beats AAAA at level 7
    assert not b("SA DA CA HA", "S7 D7 C7 S7", 7)
    assert not b("S9 D9 C9 H9", "S9 D9 C9 H9", 7)  # equal bombs never beat
    assert b("C4 C5 C6 C7 C8", "S3 S4 S5 S6 S7", 9)
    assert not b("D3 D4 D5 D6 D7", "S3 S4 S5 S6 S7", 9)  # equal straight flushes
    assert b("S2 S3 S4 S5 S6", "SA S2 S3 S4 S5", 9)  # A2345 is the lowest straight flush


def test_bombs_up_to_ten_cards():
    ten = "S9 S9 D9 D9 C9 C9 H9 H9 H7 H7"
    assert kinds(ten, 7) == [("bomb", 9)]
    assert best(ten, 7).tier == 8
    # the level-rank bomb stops at 8: six natural non-hearts plus two wild cards
    assert kinds("S7 S7 D7 D7 C7 C7 H7 H7", 7) == [("bomb", 15)]
    assert b(ten, "S8 S8 D8 D8 C8 C8 H8 H8 H7", 7)


def test_joker_bomb_needs_the_real_four_jokers():
    assert kinds("SB SB HR HR", 7) == [("joker_bomb", 17)]
    assert kinds("SB HR HR H7", 7) == []
    assert kinds("SB SB HR", 7) == []


def test_generated_low_ace_sequences():
    hand = parse_cards("SA DA CA S2 D2 C2 S3 D3")
    plays = {(p.kind, p.value) for p in legal_plays(hand, 9)}
    assert ("tube", 3) in plays  # AA2233
    assert ("plate", 2) in plays  # AAA222
    hand = parse_cards("SA D2 C3 S4 H5")
    assert ("straight", 5) in {(p.kind, p.value) for p in legal_plays(hand, 9)}


def test_following_only_lists_beating_plays():
    hand = parse_cards("S3 S4 S5 S6 S7 D9 C9 H9 S9 SB HR")
    top = best("SK", 7)
    follow = legal_plays(hand, 7, top)
    assert all(beats(p, top) for p in follow)
    assert {(p.kind, p.value) for p in follow} == {
        ("single", 15), ("single", 16), ("single", 17), ("bomb", 9), ("straight_flush", 7)
    }  # S7 is the level rank: above K


def test_two_wild_hand_counts_every_wild_use():
    hand = parse_cards("S9 D9 H7 H7")
    pairs = {p.cards for p in legal_plays(hand, 7) if p.kind == "pair"}
    expected = {tuple(sorted(parse_cards(t))) for t in ("S9 D9", "S9 H7", "D9 H7", "H7 H7")}
    assert pairs == expected


def test_plays_are_hashable_and_cheap():
    p = best("S9 D9", 7)
    assert hash(p) == hash(best("D9 S9", 7))
    assert p.cards == (CARDS[28], CARDS[31])


def test_straight_flush_follows_a_lower_straight_flush():
    # RULES.md §4: straight flushes compare by natural position; a higher one beats a lower one
    top = best("C3 C4 C5 C6 C7", 9)
    hand = parse_cards("D4 D5 D6 D7 D8 S9 SA SA DA CA HA")  # H9 is wild: left out
    follow = {(p.kind, p.value) for p in legal_plays(hand, 9, top)}
    assert ("straight_flush", 8) in follow
    assert ("bomb", 14) not in follow  # a 5-card bomb is below a straight flush
    assert ("straight_flush", 7) not in {(p.kind, p.value) for p in legal_plays("D3 D4 D5 D6 D7", 9, top)}
    # a wild card filling the straight flush: at level 2, H2 as the spade 5 over A2345
    low = best("DA D2 D3 D4 D5", 9)
    assert low.kind == "straight_flush"
    follow = {(p.kind, p.value) for p in legal_plays("S2 H2 S3 S4 S6", 2, low)}
    assert ("straight_flush", 6) in follow
    groups = play_groups("D4 D5 D6 D7 D8", 9, top)
    assert ("straight_flush", 8) in groups


def test_classify_refuses_several_cards_in_one_list_item():
    with pytest.raises(ValueError, match="S9 D9"):
        classify(["S9 D9"], 7)
    assert classify(["S9", "D9"], 7) == classify("S9 D9", 7)
