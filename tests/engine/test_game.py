"""Game flow: dealing, tricks, 接风, deal end, tribute/return phases, levels, errors (RULES.md §1, §5-§8;
seed 000 §13-§24)."""

from __future__ import annotations

from collections import Counter

import msgpack
import pytest

from engine import ERROR_CODES, Game, IllegalAction, Rules, deal_hands, parse_cards, preset, tribute_card
from engine.cards import NAMES, full_deck, sort_key
from engine.game import trick_leader

VIEW_KEYS = {
    "seat", "phase", "deal", "level", "levels", "level_team", "a_failures", "hand", "counts", "turn",
    "leader", "top", "trick", "finished", "played", "tribute", "return_choices", "last_result",
    "match_winner", "rules",
}


def cards(text):
    return [int(c) for c in parse_cards(text)] if text.strip() else []


def scripted(hands, *, seed=0, rules=None, turn=0, levels=None, level_team=0, **extra):
    """A deal-1 game whose hands are replaced by small scripted hands (seat 0..3)."""
    g = Game.new(seed, rules)
    d = g.to_dict()
    d["hands"] = [cards(h) for h in hands]
    d["turn"] = d["leader"] = turn
    if levels is not None:
        d["levels"] = list(levels)
        d["level_team"] = level_team
        d["level"] = levels[level_team]
    d.update(extra)
    return Game.from_dict(d)


def play(g, seat, text, **kw):
    return g.apply(seat, {"type": "play", "cards": cards(text), **kw})


def pass_(g, seat):
    return g.apply(seat, {"type": "pass"})


def types(events):
    return [e["type"] for e in events]


# ------------------------------------------------------------------ new match, dealing


def test_new_match_first_deal_goes_straight_to_play():
    g = Game.new(7)
    assert g.phase == "play"
    assert g.deal == 1 and g.level == 2 and g.levels == [2, 2]
    assert g.turn == 0 and g.pending_seats() == [0] and g.to_move() == [0]
    assert [len(h) for h in g.hands] == [27] * 4
    assert Counter(c for h in g.hands for c in h) == Counter(int(c) for c in full_deck())
    assert g.tribute is None
    assert g.events == [{"type": "deal_started", "deal": 1, "level": 2, "level_team": 0, "levels": [2, 2],
                         "leader": 0}]
    v = g.view(0)
    assert VIEW_KEYS <= set(v)
    assert v["hand"] == g.hands[0] and v["counts"] == [27] * 4 and v["tribute"] is None


def test_shuffle_depends_on_seed_and_deal_only():
    assert deal_hands(5, 1) == deal_hands(5, 1) == deal_hands("5", 1)
    assert deal_hands(5, 1) != deal_hands(5, 2)
    assert deal_hands(5, 1) != deal_hands(6, 1)
    assert [sorted(h) for h in Game.new(5).hands] == [sorted(h) for h in deal_hands(5, 1)]
    assert Game.new(5) == Game.new(5)
    assert Game.new(5) != Game.new(6)


def test_view_hand_sorted_by_rank_order_of_the_deal():
    g = Game.new(3)
    key = sort_key(g.level)
    for s in range(4):
        hand = g.view(s)["hand"]
        assert hand == sorted(hand, key=key)
        assert [c for c in hand if c >= 52] == hand[len(hand) - len([c for c in hand if c >= 52]):]


def test_first_leader_random_option_is_seeded():
    leaders = {Game.new(s, Rules(first_leader="random")).turn for s in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert Game.new(11, Rules(first_leader="random")).turn == Game.new(11, Rules(first_leader="random")).turn
    assert {Game.new(s).turn for s in range(10)} == {0}


# ------------------------------------------------------------------ illegal actions


def assert_refused(g, seat, action, code):
    before = g.to_dict()
    with pytest.raises(IllegalAction) as e:
        g.apply(seat, action)
    assert e.value.code == code
    assert e.value.code in ERROR_CODES
    assert e.value.message
    assert g.to_dict() == before


def test_every_illegal_action_is_refused_with_a_code_and_changes_nothing():
    g = scripted(["S3 S4 D4 S9", "S5 S6 SK", "S7 S8", "SA SQ"])
    assert_refused(g, 4, {"type": "pass"}, "bad_seat")
    assert_refused(g, -1, {"type": "pass"}, "bad_seat")
    assert_refused(g, "0", {"type": "pass"}, "bad_seat")
    assert_refused(g, 0, "pass", "bad_action")
    assert_refused(g, 0, {"type": "dance"}, "bad_action")
    assert_refused(g, 0, {"cards": [1]}, "bad_action")
    assert_refused(g, 0, {"type": "play", "cards": []}, "bad_action")
    assert_refused(g, 0, {"type": "play"}, "bad_action")
    assert_refused(g, 0, {"type": "play", "cards": ["ZZ"]}, "bad_action")
    assert_refused(g, 0, {"type": "play", "cards": [99]}, "bad_action")
    assert_refused(g, 0, {"type": "return", "card": cards("S3")[0]}, "wrong_phase")
    assert_refused(g, 0, {"type": "next_deal"}, "wrong_phase")
    assert_refused(g, 1, {"type": "play", "cards": cards("S5")}, "not_your_turn")
    assert_refused(g, 1, {"type": "pass"}, "not_your_turn")
    assert_refused(g, 0, {"type": "play", "cards": cards("SA")}, "not_your_cards")
    assert_refused(g, 0, {"type": "play", "cards": cards("S3 S3")}, "not_your_cards")
    assert_refused(g, 0, {"type": "pass"}, "cannot_pass_lead")
    assert_refused(g, 0, {"type": "play", "cards": cards("S3 S4")}, "not_a_play")
    assert_refused(g, 0, {"type": "play", "cards": cards("S4 D4"), "kind": "single"}, "not_a_play")
    play(g, 0, "S9")
    assert_refused(g, 1, {"type": "play", "cards": cards("S5")}, "does_not_beat")
    assert_refused(g, 1, {"type": "play", "cards": cards("S5 S6")}, "not_a_play")
    assert g.legal_actions(0) == []
    assert {a["type"] for a in g.legal_actions(1)} == {"play", "pass"}


def test_return_refusals():
    g = game_after_deal([0, 1, 2, 3], seed=21)
    g.apply(2, {"type": "next_deal"})
    assert g.phase == "return"
    receiver = g.tribute["pending"][0]
    choices = g.return_choices(receiver)
    not_eligible = next(c for c in g.hands[receiver] if c not in choices)
    missing = next(c for c in range(54) if c not in g.hands[receiver])
    other = next(s for s in range(4) if s != receiver)
    assert_refused(g, receiver, {"type": "return", "card": not_eligible}, "not_eligible")
    assert_refused(g, receiver, {"type": "return", "card": missing}, "not_your_cards")
    assert_refused(g, receiver, {"type": "return"}, "bad_action")
    assert_refused(g, other, {"type": "return", "card": g.hands[other][0]}, "not_your_turn")
    assert_refused(g, receiver, {"type": "play", "cards": [choices[0]]}, "wrong_phase")
    assert_refused(g, receiver, {"type": "pass"}, "wrong_phase")
    gift = g.tribute["gifts"][0]
    assert_refused(g, receiver, {"type": "return", "card": gift["card"]}, "not_eligible")


def test_match_over_refuses_everything():
    g = scripted(["S3", "S5 S6", "SA", "S8 S9"], levels=(14, 9), level_team=0)
    play(g, 0, "S3")
    play(g, 1, "S5")
    evs = play(g, 2, "SA")
    assert types(evs)[-3:] == ["finished", "deal_over", "match_over"]
    assert g.phase == "match_over" and g.match_winner == 0
    assert g.pending_seats() == [] and g.legal_actions(0) == [] and g.legal_actions(3) == []
    refused = [(3, {"type": "pass"}), (1, {"type": "next_deal"}), (1, {"type": "play", "cards": [1]})]
    for seat, action in refused:
        assert_refused(g, seat, action, "match_over")
    v = g.view(None)
    assert v["match_winner"] == 0 and v["last_result"]["match_won"]
    assert "match is won" in v["last_result"]["reason"]


# ------------------------------------------------------------------ plays and interpretations


def test_card_names_accepted_and_default_interpretation():
    g = scripted(["S4 S5 S6 S7 H2 D9", "S8 S9 ST SJ SQ", "DK", "SA"])
    evs = g.apply(0, {"type": "play", "cards": ["S4", "S5", "S6", "S7", "H2"]})
    # Wild H2 with 4567 of spades: the strongest interpretation (a straight flush to 8) is taken.
    assert (evs[0]["kind"], evs[0]["value"]) == ("straight_flush", 8)
    assert g.actions[-1] == (0, {"type": "play", "cards": cards("H2 S4 S5 S6 S7"), "kind": "straight_flush",
                                 "value": 8})


def test_named_interpretation():
    g = scripted(["S4 S5 S6 S7 H2 D9", "C8 S9 DT SJ SQ", "DK", "SA"])
    evs = play(g, 0, "S4 S5 S6 S7 H2", kind="straight", value=7)
    assert (evs[0]["kind"], evs[0]["value"]) == ("straight", 7)
    assert g.top["kind"] == "straight"
    evs = play(g, 1, "C8 S9 DT SJ SQ")
    assert (evs[0]["kind"], evs[0]["value"]) == ("straight", 12)


def test_following_picks_an_interpretation_that_beats_the_table():
    # Table: straight to 8; H2 S5 S6 S7 S8 reads as straight flush 4-8 / 5-9 or straights: the strongest
    # beating one is the straight flush to 9.
    g = scripted(["C4 S5 D6 S7 C8 S3", "H2 S5 S6 S7 S8", "DK", "SA"])
    play(g, 0, "C4 S5 D6 S7 C8")
    evs = play(g, 1, "H2 S5 S6 S7 S8")
    assert (evs[0]["kind"], evs[0]["value"]) == ("straight_flush", 9)
    g = scripted(["C4 S5 D6 S7 C8 S3", "H2 S5 S6 S7 S8", "DK", "SA"])
    play(g, 0, "C4 S5 D6 S7 C8")
    with pytest.raises(IllegalAction) as e:
        play(g, 1, "H2 S5 S6 S7 S8", kind="straight", value=8)
    assert e.value.code == "does_not_beat"
    evs = play(g, 1, "H2 S5 S6 S7 S8", kind="straight", value=9)
    assert (evs[0]["kind"], evs[0]["value"]) == ("straight", 9)


def test_readings_are_the_interpretations_legal_now_default_first():
    # Leading: H2 with 5678 of spades reads as straight flush to 9 or to 8, or as a straight to 9 or 8.
    g = scripted(["C4 S5 D6 S7 C8 S3", "H2 S5 S6 S7 S8 D3", "DK", "SA"])
    with pytest.raises(IllegalAction) as e:
        g.readings(1, cards("H2 S5 S6 S7 S8"))
    assert e.value.code == "not_your_turn"
    lead = scripted(["H2 S5 S6 S7 S8 D3", "C4", "DK", "SA"])
    got = [(p.kind, p.value) for p in lead.readings(0, cards("H2 S5 S6 S7 S8"))]
    assert got == [("straight_flush", 9), ("straight_flush", 8), ("straight", 9), ("straight", 8)]
    # Following a straight to 8: only the readings that beat it, the default (what a bare play takes) first.
    play(g, 0, "C4 S5 D6 S7 C8")
    got = [(p.kind, p.value) for p in g.readings(1, cards("H2 S5 S6 S7 S8"))]
    assert got == [("straight_flush", 9), ("straight_flush", 8), ("straight", 9)]
    only = g.readings(1, cards("H2 S5 S6 S7 S8"), "straight")
    assert [(p.kind, p.value) for p in only] == [("straight", 9)]
    # The refusals a play would get, with nothing changed.
    before = g.to_dict()
    for text, kind, code in (("D3", None, "does_not_beat"), ("S5 D3", None, "not_a_play"),
                             ("SA", None, "not_your_cards"), ("H2 S5 S6 S7 S8", "tube", "not_a_play")):
        with pytest.raises(IllegalAction) as e:
            g.readings(1, cards(text), kind)
        assert e.value.code == code, text
    assert g.to_dict() == before


# ------------------------------------------------------------------ tricks (§13, §14)


def test_pass_does_not_exclude_from_the_trick_13():
    g = scripted(["S3 S9 D9", "S5 SK", "S4 S7", "S6 S8"])
    play(g, 0, "S3")
    pass_(g, 1)                 # seat 1 passes although it could beat
    play(g, 2, "S4")
    play(g, 3, "S6")
    pass_(g, 0)
    assert g.turn == 1
    evs = play(g, 1, "SK")      # seat 1 passed earlier and still plays in this trick
    assert evs[0]["seat"] == 1 and g.top["seat"] == 1
    pass_(g, 2)
    pass_(g, 3)
    evs = pass_(g, 0)
    assert types(evs) == ["pass", "trick_won"]
    assert evs[-1] == {"type": "trick_won", "seat": 1, "leader": 1}
    assert g.turn == 1 and g.leader == 1 and g.top is None and g.trick == []
    with pytest.raises(IllegalAction):
        pass_(g, 1)


def test_trick_ends_only_when_all_other_holders_passed():
    g = scripted(["S3 S9", "S5 SK", "S4 S7", "S6 S8"])
    play(g, 0, "S9")
    pass_(g, 1)
    pass_(g, 2)
    assert g.top is not None and g.turn == 3
    evs = pass_(g, 3)
    assert types(evs) == ["pass", "trick_won"]
    assert g.turn == 0


def test_takeover_partner_leads_after_last_cards_unbeaten_14():
    g = scripted(["S3", "S5 SK", "S4 S7", "S6 S8"])
    evs = play(g, 0, "S3")
    assert types(evs) == ["play", "finished"]
    assert evs[1] == {"type": "finished", "seat": 0, "place": 1}
    assert g.turn == 1               # the others still get their chance to beat the last play
    pass_(g, 1)
    pass_(g, 2)
    evs = pass_(g, 3)
    assert types(evs) == ["pass", "trick_won", "takeover"]
    assert evs[2] == {"type": "takeover", "from": 0, "seat": 2, "partner": True}
    assert g.turn == 2 and g.leader == 2 and g.top is None
    v = g.view(2)
    assert v["turn"] == 2 and v["finished"] == [0] and v["counts"] == [0, 2, 2, 2]


def test_no_takeover_when_someone_beats_the_last_play_14():
    g = scripted(["S3", "S5 SK", "S4 S7", "S6 S8"])
    play(g, 0, "S3")
    play(g, 1, "S5")                 # 2 beats the last play of 1: the trick goes on as usual
    pass_(g, 2)
    evs = pass_(g, 3)                # seat 0 is out and skipped
    assert types(evs) == ["pass", "trick_won"]
    assert evs[-1]["seat"] == 1 and g.turn == 1


def test_partner_may_beat_its_partners_last_play():
    g = scripted(["S3", "S5 SK", "S4 S7", "S6 S8"])
    play(g, 0, "S3")
    pass_(g, 1)
    evs = play(g, 2, "S7")
    assert evs[0]["seat"] == 2 and g.turn == 3


def test_takeover_when_partner_is_out_goes_to_next_holder():
    # Not reachable in a four-player deal (both partners out ends the deal), but the rule is defined:
    assert trick_leader(0, [False, True, False, True]) == 1
    assert trick_leader(1, [True, False, True, False]) == 2
    assert trick_leader(3, [True, False, True, False]) == 0
    assert trick_leader(3, [True, False, True, True]) == 3
    assert trick_leader(3, [True, True, True, False]) == 1


def test_finished_players_are_skipped():
    g = scripted(["S3", "S5 SK", "S4 S7", "S6 S8"])
    play(g, 0, "S3")
    play(g, 1, "S5")
    play(g, 2, "S7")
    play(g, 3, "S8")
    assert g.turn == 1               # seat 0 skipped


# ------------------------------------------------------------------ deal end (§15)


def test_deal_ends_when_partner_of_first_is_out_and_places_are_filled():
    g = scripted(["S3", "S5 S6", "SA", "S8 S9"])
    play(g, 0, "S3")
    play(g, 1, "S5")
    evs = play(g, 2, "SA")
    assert types(evs) == ["play", "finished", "deal_over"]
    r = evs[-1]
    assert r["places"] == [0, 2, 3, 1]
    assert r["winner_team"] == 0 and r["upgrade"] == 3 and r["levels"] == [5, 2]
    assert not r["match_won"]
    assert g.phase == "deal_over" and g.turn is None
    assert g.pending_seats() == [0, 1, 2, 3]
    assert g.legal_actions(3) == [{"type": "next_deal"}]
    assert g.view(1)["last_result"]["places"] == [0, 2, 3, 1]


def test_deal_ends_when_three_are_out():
    g = scripted(["S3", "S4", "S5 S6", "S7"])
    play(g, 0, "S3")
    play(g, 1, "S4")
    play(g, 2, "S5")
    evs = play(g, 3, "S7")
    assert types(evs) == ["play", "finished", "deal_over"]
    assert evs[-1]["places"] == [0, 1, 3, 2]
    assert evs[-1]["upgrade"] == 1 and evs[-1]["levels"] == [3, 2]


def test_first_plus_fourth_at_a_is_not_a_win_and_next_deal_is_at_a():
    g = scripted(["S3", "S4", "S5 S6", "S7"], levels=(14, 9), level_team=0)
    play(g, 0, "S3")
    play(g, 1, "S4")
    play(g, 2, "S5")
    evs = play(g, 3, "S7")
    r = evs[-1]
    assert not r["match_won"] and r["levels"] == [14, 9]
    assert "1st+4th at A is not a pass" in r["reason"]
    assert g.phase == "deal_over"
    g.apply(1, {"type": "next_deal"})
    assert g.deal == 2 and g.level == 14 and g.level_team == 0


# ------------------------------------------------------------------ whole flow with tribute (§18-§24)


def game_after_deal(places, *, seed=0, rules=None, levels=None, level_team=0, **extra):
    """A game whose scripted first deal ended with ``places`` (via tiny hands played out)."""
    first, second, third, fourth = places
    hands = ["", "", "", ""]
    # The 1st leads its single card; every next finisher beats with a higher single.
    for rank, s in zip(("S3", "S4", "S5"), (first, second, third), strict=True):
        hands[s] = rank
    hands[fourth] = "S7 S8 S9"
    g = scripted(hands, seed=seed, rules=rules, turn=first, levels=levels, level_team=level_team, **extra)
    done = 0
    while g.phase == "play":
        s = g.turn
        want = places[done]
        if s == want or g.top is None:
            text = NAMES[g.hands[s][0]]
            play(g, s, text)
            done += 1
        else:
            pass_(g, s)
    assert g.last_result["places"] == list(places), g.last_result
    return g


def test_example_1_of_24_single_tribute_step_by_step():
    big = cards("HR")[0]
    g = game_after_deal([0, 1, 2, 3], seed=_seed_where(lambda h: h[3].count(big) < 2))
    assert g.levels == [4, 2]                    # 1st+3rd: team of seats 1 and 3 up 2, to 4
    evs = g.apply(2, {"type": "next_deal"})
    assert g.deal == 2 and g.level == 4 and g.level_team == 0
    assert types(evs) == ["deal_started", "tribute"]
    assert evs[0]["leader"] == 3
    gift = evs[1]
    assert (gift["from"], gift["to"]) == (3, 0)
    assert gift["card"] != 4 * (4 - 2) + 1       # never the wild H4
    assert g.phase == "return" and g.pending_seats() == [0] and g.turn is None
    assert [len(h) for h in g.hands] == [28, 27, 27, 26]
    v0 = g.view(0)
    assert v0["return_choices"] == g.return_choices(0) and v0["return_choices"]
    assert all(g.view(s)["return_choices"] == [] for s in (1, 2, 3))
    assert v0["tribute"]["gifts"] == [{"from": 3, "to": 0, "card": gift["card"]}]
    assert v0["tribute"]["pending"] == [0]
    card = v0["return_choices"][0]
    evs = g.apply(0, {"type": "return", "card": card})
    assert evs == [{"type": "return", "from": 0, "to": 3, "card": card, "turn": 3}]
    assert g.phase == "play" and g.turn == 3      # the giver leads
    assert [len(h) for h in g.hands] == [27] * 4
    assert g.view(1)["tribute"]["returns"] == [{"from": 0, "to": 3, "card": card}]


def _seed_where(pred, deal=2):
    for seed in range(20000):
        if pred(deal_hands(seed, deal)):
            return seed
    raise AssertionError("no seed found")


def test_example_1_of_24_refusal_previous_first_leads():
    big = cards("HR")[0]
    seed = _seed_where(lambda h: h[3].count(big) == 2)
    g = game_after_deal([0, 1, 2, 3], seed=seed)
    evs = g.apply(1, {"type": "next_deal"})
    assert types(evs) == ["deal_started", "refusal"]
    assert evs[1] == {"type": "refusal", "kind": "single", "seats": [3], "leader": 0}
    assert g.phase == "play" and g.turn == 0
    assert [len(h) for h in g.hands] == [27] * 4
    v = g.view(None)
    assert v["tribute"]["refused"] and v["tribute"]["gifts"] == [] and v["hand"] is None


def test_example_2_of_24_double_tribute_step_by_step():
    big = cards("HR")[0]

    def ok(h):
        # next deal at 5: seat 2 (index 1) holds one big joker, seat 4 (index 3) tops out at an A
        s1, s3 = h[1], h[3]
        if s1.count(big) != 1 or big in s3 or 52 in s3:
            return False
        fives = [c for c in s3 if (c >> 2) + 2 == 5 and c != 13]
        return not fives and any((c >> 2) + 2 == 14 for c in s3)

    seed = _seed_where(ok)
    g = game_after_deal([0, 2, 3, 1], seed=seed)
    assert g.levels == [5, 2]
    evs = g.apply(0, {"type": "next_deal"})
    assert g.level == 5
    assert types(evs) == ["deal_started", "tribute", "tribute"]
    assert (evs[1]["from"], evs[1]["to"], evs[1]["card"]) == (1, 0, big)
    assert (evs[2]["from"], evs[2]["to"]) == (3, 2) and (evs[2]["card"] >> 2) + 2 == 14
    assert evs[0]["leader"] == 1
    assert sorted(g.pending_seats()) == [0, 2]
    # Receivers return in any order; each returns to the player whose card it got.
    c2 = g.return_choices(2)[0]
    evs = g.apply(2, {"type": "return", "card": c2})
    assert evs[0]["to"] == 3 and g.phase == "return" and g.pending_seats() == [0]
    c0 = g.return_choices(0)[-1]
    evs = g.apply(0, {"type": "return", "card": c0})
    assert evs[0]["to"] == 1
    assert g.phase == "play" and g.turn == 1      # the giver to the 1st leads
    assert [len(h) for h in g.hands] == [27] * 4


def test_double_refusal_in_game():
    big = cards("HR")[0]
    seed = _seed_where(lambda h: h[1].count(big) == 1 and h[3].count(big) == 1)
    g = game_after_deal([0, 2, 3, 1], seed=seed)
    evs = g.apply(0, {"type": "next_deal"})
    assert types(evs) == ["deal_started", "refusal"]
    assert evs[1]["kind"] == "double" and sorted(evs[1]["seats"]) == [1, 3]
    assert g.turn == 0 and g.phase == "play"


def test_deal_played_at_previous_winners_level():
    g = game_after_deal([1, 3, 0, 2], seed=4, levels=(6, 2), level_team=0)
    assert g.levels == [6, 5]
    g.apply(0, {"type": "next_deal"})
    assert g.level == 5 and g.level_team == 1


def test_legal_actions_in_each_phase():
    g = Game.new(9)
    acts = g.legal_actions(0)
    assert acts and all(a["type"] == "play" and {"cards", "kind", "value"} <= set(a) for a in acts)
    assert g.legal_actions(1) == [] and g.legal_actions(7) == []
    g.apply(0, acts[0])
    acts1 = g.legal_actions(1)
    assert {"type": "pass"} in acts1
    g = game_after_deal([0, 1, 2, 3], seed=21)
    g.apply(3, {"type": "next_deal"})
    if g.phase == "return":
        r = g.pending_seats()[0]
        assert g.legal_actions(r) == [{"type": "return", "card": c} for c in g.return_choices(r)]


def test_round_trip_through_msgpack_and_replay():
    g = game_after_deal([0, 2, 3, 1], seed=5)
    g.apply(0, {"type": "next_deal"})
    while g.phase == "return":
        s = g.pending_seats()[0]
        g.apply(s, {"type": "return", "card": g.return_choices(s)[0]})
    g.apply(g.turn, g.legal_actions(g.turn)[0])
    d = msgpack.unpackb(msgpack.packb(g.to_dict()))
    h = Game.from_dict(d)
    assert h == g and h.to_dict() == g.to_dict()
    assert h.view(2) == g.view(2)
    # A scripted first deal is not reproducible from the seed; a plain match is:
    m = Game.new("r")
    m.apply(0, m.legal_actions(0)[3])
    m.apply(1, {"type": "pass"})
    assert Game.replay("r", None, m.actions) == m
    with pytest.raises(ValueError):
        Game.from_dict({"version": 99})


def test_view_of_bad_seat_is_refused():
    g = Game.new(1)
    with pytest.raises(IllegalAction) as e:
        g.view(5)
    assert e.value.code == "bad_seat"


# ------------------------------------------------------------------ more of §13-§24, step by step

BIG, SMALL = 53, 52


def rank(c):
    return (c >> 2) + 2 if c < 52 else (16 if c == SMALL else 17)


def order(c, level):
    return 15 if rank(c) == level else rank(c)


def top_order(hand, level):
    """Rank order of the highest card other than the hearts level cards (the tribute card, §18)."""
    wild = (level - 2) * 4 + 1
    return max(order(c, level) for c in hand if c != wild)


def finish_returns(g):
    while g.phase == "return":
        s = g.pending_seats()[0]
        g.apply(s, {"type": "return", "card": g.return_choices(s)[0]})


def test_pass_counting_when_the_top_player_finishes_and_its_partner_beats_14():
    # Seat 1 plays its last card; seat 2 passes; seat 3 (its partner) beats it: the trick goes on with
    # seat 3's play as the top, and needs the passes of every *other* holder (seats 0 and 2), not of 3.
    g = scripted(["S3 SA", "S5", "S6 S7", "S8 S9 SK"])
    play(g, 0, "S3")
    evs = play(g, 1, "S5")
    assert types(evs) == ["play", "finished"] and g.turn == 2
    pass_(g, 2)
    play(g, 3, "S9")
    assert g.turn == 0 and g.top["seat"] == 3
    evs = pass_(g, 0)
    assert types(evs) == ["pass"] and g.turn == 2    # one pass of two: the trick goes on
    evs = pass_(g, 2)
    assert types(evs) == ["pass", "trick_won"] and evs[-1] == {"type": "trick_won", "seat": 3, "leader": 3}
    assert g.turn == 3 and g.top is None


def test_takeover_needs_every_other_holder_to_pass_once_14():
    # Seat 1 is out already; seat 0 plays its last card: seats 2 and 3 (not seat 1) must both pass.
    g = scripted(["S3 S9", "S4", "S5 S6 S7", "S8 ST SJ"])
    play(g, 0, "S3")
    play(g, 1, "S4")                                 # seat 1 is 1st
    pass_(g, 2)
    pass_(g, 3)
    play(g, 0, "S9")                                 # seat 0 leads again and goes out: 2nd
    assert g.finished == [1, 0] and g.phase == "play" and g.turn == 2
    evs = pass_(g, 2)
    assert types(evs) == ["pass"] and g.turn == 3
    evs = pass_(g, 3)
    assert types(evs) == ["pass", "trick_won", "takeover"]
    assert evs[-1] == {"type": "takeover", "from": 0, "seat": 2, "partner": True}
    assert g.turn == 2 and g.leader == 2


def test_finishing_when_partner_is_already_out_ends_the_deal_at_once_5():
    # Seat 1 is 1st and seat 2 2nd; seat 0 then plays its last cards while its partner (seat 2) is out.
    # Three are out: the deal ends at once, nobody gets to beat that play and nobody takes the lead
    # (the "next player in order" case of 接风 cannot arise at a four-player table; see trick_leader).
    g = scripted(["S3 S9", "S4", "S5", "S6 S7 S8"])
    play(g, 0, "S3")
    play(g, 1, "S4")
    play(g, 2, "S5")
    assert g.finished == [1, 2] and g.turn == 3
    play(g, 3, "S6")
    evs = play(g, 0, "S9")
    assert types(evs) == ["play", "finished", "deal_over"]
    r = evs[-1]
    assert r["places"] == [1, 2, 0, 3] and r["winner_team"] == 1 and r["upgrade"] == 1
    assert g.phase == "deal_over" and g.turn is None
    assert trick_leader(0, [False, False, False, True]) == 3


def test_deal_does_not_end_when_only_the_first_is_out_15():
    g = scripted(["S3", "S4 S5", "S6 S7", "S8 S9"])
    evs = play(g, 0, "S3")
    assert types(evs) == ["play", "finished"] and g.phase == "play"
    play(g, 1, "S5")                                 # seat 1 is not out yet
    play(g, 2, "S7")                                 # partner of the 1st still holds S6
    assert g.phase == "play" and g.finished == [0]


def test_example_16_next_deal_at_the_winners_own_new_level():
    # §16: our team at 4 wins the deal played at the opponents' 8 with 1st+3rd: we are at 6, next deal at 6.
    g = game_after_deal([0, 1, 2, 3], seed=3, levels=(4, 8), level_team=1)
    assert g.last_result["level"] == 8 and g.last_result["level_team"] == 1
    assert g.levels == [6, 8] and g.last_result["levels_before"] == [4, 8]
    g.apply(1, {"type": "next_deal"})
    assert g.level == 6 and g.level_team == 0


def test_k_plus_2_stops_at_a_and_the_next_deal_is_played_at_a_17():
    g = game_after_deal([0, 1, 2, 3], seed=3, levels=(13, 5), level_team=0)
    r = g.last_result
    assert g.levels == [14, 5] and not r["match_won"] and g.phase == "deal_over"
    assert "stops at A" in r["reason"]
    g.apply(0, {"type": "next_deal"})
    assert g.level == 14 and g.level_team == 0 and g.match_winner is None


@pytest.mark.parametrize("places, won", [([0, 2, 3, 1], True), ([0, 1, 2, 3], True), ([0, 1, 3, 2], False),
                                         ([1, 0, 2, 3], False)])
def test_passing_a_in_game_flow_17(places, won):
    g = game_after_deal(places, seed=3, levels=(14, 9), level_team=0)
    r = g.last_result
    assert r["match_won"] is won and (g.phase == "match_over") is won
    assert g.levels[0] == 14
    if won:
        assert g.match_winner == 0
    else:
        assert g.a_failures == [1, 0]                 # an A attempt used (standard: no limit)
        g.apply(0, {"type": "next_deal"})
        assert g.level == g.levels[g.level_team]
        assert g.level == (14 if places[0] % 2 == 0 else 10)


def test_a_deal_played_at_the_opponents_level_does_not_pass_a_17():
    g = game_after_deal([0, 2, 3, 1], seed=3, levels=(14, 9), level_team=1)
    r = g.last_result
    assert not r["match_won"] and g.levels == [14, 9] and g.a_failures == [0, 0]
    assert "not played at A" in r["reason"]
    g.apply(0, {"type": "next_deal"})
    assert g.level == 14                              # now the deal is played at A


@pytest.mark.parametrize("name, limit", [("nanjing", 2), ("national2017", 3), ("huaian", 3)])
def test_failed_a_attempts_fall_back_to_2_in_game_flow(name, limit):
    # The last allowed attempt fails with a 1st+4th win at A: the team falls back to 2 and, as the winner,
    # the next deal is played at its 2.
    g = game_after_deal([0, 1, 3, 2], seed=3, rules=name, levels=(14, 9), level_team=0,
                        a_failures=[limit - 1, 0])
    r = g.last_result
    assert g.levels == [2, 9] and g.a_failures == [0, 0] and not r["match_won"]
    assert "falls back to 2" in r["reason"]
    g.apply(0, {"type": "next_deal"})
    assert g.level == 2 and g.level_team == 0
    # One attempt earlier: still at A.
    g = game_after_deal([1, 0, 2, 3], seed=3, rules=name, levels=(14, 9), level_team=0,
                        a_failures=[limit - 2, 0])
    assert g.levels == [14, 10] and g.a_failures == [limit - 1, 0]
    # Standard: no limit.
    g = game_after_deal([1, 0, 2, 3], seed=3, levels=(14, 9), level_team=0, a_failures=[limit - 1, 0])
    assert g.levels == [14, 10] and g.a_failures == [limit, 0]


def test_example_1_of_24_tribute_card_and_return_rules_in_detail():
    seed = _seed_where(lambda h: h[3].count(BIG) < 2)
    g = game_after_deal([0, 1, 2, 3], seed=seed)
    g.apply(2, {"type": "next_deal"})
    dealt = deal_hands(seed, 2)
    gift = g.tribute["gifts"][0]
    # the 4th's highest card other than the wild H4 (suits don't matter)
    assert order(gift["card"], 4) == top_order(dealt[3], 4) and gift["card"] != 9
    assert gift["card"] == tribute_card(dealt[3], 4)
    choices = g.return_choices(0)
    held = set(g.hands[0]) - {gift["card"]}
    low = {c for c in held if rank(c) <= 10 and rank(c) != 4}
    if low:
        assert set(choices) == low                    # §20: every ≤10 non-level, non-joker card, no other
    else:
        assert {order(c, 4) for c in choices} == {min(order(c, 4) for c in held)}
    assert gift["card"] not in choices
    g.apply(0, {"type": "return", "card": choices[-1]})
    assert g.turn == 3 and choices[-1] in g.hands[3] and [len(h) for h in g.hands] == [27] * 4


def test_receivers_big_jokers_do_not_refuse_in_game_21():
    seed = _seed_where(lambda h: h[0].count(BIG) == 2)
    g = game_after_deal([0, 1, 2, 3], seed=seed)
    evs = g.apply(1, {"type": "next_deal"})
    assert types(evs) == ["deal_started", "tribute"] and not g.tribute["refused"]
    assert g.phase == "return"


def test_two_small_jokers_do_not_refuse_in_game_21():
    seed = _seed_where(lambda h: h[3].count(SMALL) == 2 and BIG not in h[3])
    g = game_after_deal([0, 1, 2, 3], seed=seed)
    evs = g.apply(1, {"type": "next_deal"})
    assert types(evs) == ["deal_started", "tribute"] and evs[1]["card"] == SMALL


def test_double_refusal_with_both_big_jokers_in_one_givers_hand_21():
    seed = _seed_where(lambda h: h[3].count(BIG) == 2)
    g = game_after_deal([0, 2, 3, 1], seed=seed)
    evs = g.apply(0, {"type": "next_deal"})
    assert types(evs) == ["deal_started", "refusal"]
    assert evs[1] == {"type": "refusal", "kind": "double", "seats": [3, 1], "leader": 0}
    assert g.turn == 0 and [len(h) for h in g.hands] == [27] * 4 and g.tribute["gifts"] == []


def test_double_tribute_tie_in_game_flow_19():
    # §19: 1st = seat 1 (index 0), 2nd = seat 3 (index 2); seats 2 and 4 (1 and 3) give equal cards:
    # the walk from the 1st reaches seat 2 first, so 2→1 and 4→3, and seat 2 leads.
    def tie(h):
        return (BIG not in h[1] + h[3]) and top_order(h[1], 5) == top_order(h[3], 5)

    seed = _seed_where(tie)
    g = game_after_deal([0, 2, 3, 1], seed=seed)
    evs = g.apply(0, {"type": "next_deal"})
    assert [(e["from"], e["to"]) for e in evs[1:]] == [(1, 0), (3, 2)]
    assert order(evs[1]["card"], 5) == order(evs[2]["card"], 5)
    finish_returns(g)
    assert g.turn == 1
    # 1st = seat 3 (index 2), 2nd = seat 1 (index 0): the walk 3 → 4 → 1 → 2 reaches seat 4 first.
    seed = _seed_where(tie)
    g = game_after_deal([2, 0, 1, 3], seed=seed)
    evs = g.apply(0, {"type": "next_deal"})
    assert [(e["from"], e["to"]) for e in evs[1:]] == [(3, 2), (1, 0)]
    finish_returns(g)
    assert g.turn == 3


def test_double_tribute_larger_card_to_the_first_in_game_flow_19():
    def unequal(h):
        return (BIG not in h[1] + h[3]) and top_order(h[1], 5) < top_order(h[3], 5)

    seed = _seed_where(unequal)
    g = game_after_deal([0, 2, 3, 1], seed=seed)
    evs = g.apply(0, {"type": "next_deal"})
    assert [(e["from"], e["to"]) for e in evs[1:]] == [(3, 0), (1, 2)]   # the 4th's larger card to the 1st
    finish_returns(g)
    assert g.turn == 3                                # the giver to the 1st leads


def test_single_tribute_to_partner_and_club_return_rule_in_game_18():
    # Places 1st seat 1 (index 1) ... 4th seat 3 (index 3): the 4th is the 1st's partner and still gives.
    seed = 4
    g = game_after_deal([1, 0, 2, 3], seed=seed)
    g.apply(0, {"type": "next_deal"})
    level = g.level
    assert level == 3 and g.tribute["gifts"][0]["from"] == 3 and g.tribute["gifts"][0]["to"] == 1
    std = set(g.return_choices(1))
    assert all(rank(c) <= 10 and rank(c) != level for c in std)
    # Club rule (seed 004): a return to one's partner must be below the level rank (A counts as below).
    g = game_after_deal([1, 0, 2, 3], seed=seed, rules="club")
    g.apply(0, {"type": "next_deal"})
    gift = g.tribute["gifts"][0]
    held = set(g.hands[1]) - {gift["card"]}
    assert set(g.return_choices(1)) == {c for c in held if rank(c) != level and rank(c) < 15}
    with pytest.raises(IllegalAction) as e:
        g.apply(1, {"type": "return", "card": gift["card"]})
    assert e.value.code == "not_eligible"
    # ... and to an opponent any card but the one just received.
    g = game_after_deal([0, 1, 2, 3], seed=seed, rules="club")
    g.apply(0, {"type": "next_deal"})
    gift = g.tribute["gifts"][0]
    assert set(g.return_choices(0)) == set(g.hands[0]) - {gift["card"]}


def test_huaian_returns_any_card_in_game():
    seed = 4
    g = game_after_deal([0, 1, 2, 3], seed=seed, rules="huaian")
    g.apply(0, {"type": "next_deal"})
    gift = g.tribute["gifts"][0]
    choices = g.return_choices(0)
    assert set(choices) == set(g.hands[0]) - {gift["card"]}
    assert any(rank(c) > 10 for c in choices)
    big = max(choices, key=lambda c: order(c, g.level))
    g.apply(0, {"type": "return", "card": big})
    assert big in g.hands[3] and g.turn == 3
    h = game_after_deal([0, 1, 2, 3], seed=seed, rules=preset("standard"))
    h.apply(0, {"type": "next_deal"})
    with pytest.raises(IllegalAction) as e:
        h.apply(0, {"type": "return", "card": big})
    assert e.value.code == "not_eligible"


def test_no_play_before_every_return_is_done_22():
    seed = _seed_where(lambda h: (h[1] + h[3]).count(BIG) < 2)
    g = game_after_deal([0, 2, 3, 1], seed=seed)
    g.apply(0, {"type": "next_deal"})
    assert g.phase == "return" and g.turn is None and sorted(g.pending_seats()) == [0, 2]
    leader = g.tribute["leader"]
    before = g.to_dict()
    for seat in range(4):
        with pytest.raises(IllegalAction) as e:
            g.apply(seat, {"type": "play", "cards": [g.hands[seat][0]]})
        assert e.value.code == "wrong_phase"
        assert g.legal_actions(seat) == [{"type": "return", "card": c} for c in g.return_choices(seat)]
    assert g.to_dict() == before
    g.apply(0, {"type": "return", "card": g.return_choices(0)[0]})
    assert g.phase == "return" and g.turn is None      # returning gives the receiver no lead
    with pytest.raises(IllegalAction) as e:
        g.apply(0, {"type": "return", "card": g.hands[0][0]})
    assert e.value.code == "not_your_turn"             # one return each
    g.apply(2, {"type": "return", "card": g.return_choices(2)[0]})
    assert g.phase == "play" and g.turn == leader and [len(h) for h in g.hands] == [27] * 4


def test_actions_refused_once_the_deal_is_over():
    g = scripted(["S3", "S5 S6", "SA", "S8 S9"])
    play(g, 0, "S3")
    play(g, 1, "S5")
    play(g, 2, "SA")
    assert g.phase == "deal_over"
    assert_refused(g, 1, {"type": "play", "cards": cards("S6")}, "wrong_phase")
    assert_refused(g, 3, {"type": "pass"}, "wrong_phase")
    assert_refused(g, 3, {"type": "return", "card": cards("S8")[0]}, "wrong_phase")
