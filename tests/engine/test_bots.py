"""Bots on crafted positions: cooperation, bombs, feeding, takeover, memory, returns, suggest.

Every position is a view dict with exactly the keys ``Game.view(seat)`` gives, built by hand so
each test shows one situation a sensible partner must get right.
"""

from __future__ import annotations

import pytest

from engine.bots import BOTS, HeuristicBot, RandomBot, legal_actions_from_view, make_bot, suggest
from engine.cards import format_cards, parse_cards
from engine.game import Game
from engine.plays import beats, classify
from engine.rules import Rules


def make_view(seat, hand, *, level=2, top=None, top_seat=None, counts=None, finished=(), played="",
              phase="play", return_choices="", rules=None):
    """A view as ``Game.view(seat)`` shapes it: only this seat's hand, public counts and history."""
    hand_codes = [int(c) for c in parse_cards(hand)]
    counts = list(counts) if counts else [27] * 4
    counts[seat] = len(hand_codes)
    top_d = None
    trick = []
    if top is not None:
        p = classify(top, level)[0]
        top_d = {"seat": top_seat, "kind": p.kind, "value": p.value, "cards": [int(c) for c in p.cards]}
        trick = [dict(top_d, type="play")]
    return {
        "seat": seat, "phase": phase, "deal": 1, "level": level, "levels": [level, 2], "level_team": 0,
        "a_failures": [0, 0], "hand": hand_codes, "counts": counts,
        "turn": seat if phase == "play" else None, "leader": top_seat, "top": top_d, "trick": trick,
        "finished": list(finished),
        "played": sorted(int(c) for c in parse_cards(played)) if played else [],
        "tribute": None,
        "return_choices": [int(c) for c in parse_cards(return_choices)] if return_choices else [],
        "pending": [seat], "last_result": None, "match_winner": None,
        "rules": (rules or Rules()).to_dict(),
    }


def decide(view):
    bot = HeuristicBot()
    d = bot.decide(view)
    assert bot.errors == [], bot.errors
    return d


def played_cards(action):
    return format_cards(sorted(action["cards"]))


def assert_legal(view, action):
    assert action in legal_actions_from_view(view) or _same_play(view, action)


def _same_play(view, action):
    if action["type"] != "play":
        return False
    top = None
    if view["top"]:
        from engine.plays import Play

        t = view["top"]
        top = Play(t["kind"], t["value"], tuple(t["cards"]))
    return any(p.kind == action["kind"] and p.value == action["value"] and beats(p, top)
               for p in classify(action["cards"], view["level"]))


# ---------------------------------------------------------------------------- partner


BOMB_HAND = "S7 H7 C7 D7 S3 S4 D9 C9 SJ"


def test_does_not_bomb_partners_winning_play_when_opponents_far_from_out():
    v = make_view(0, BOMB_HAND, top="SK HK", top_seat=2, counts=[9, 20, 12, 18])
    d = decide(v)
    assert d.action == {"type": "pass"}
    assert "partner" in d.reason


def test_does_not_overtake_partner_even_with_a_cheap_higher_play():
    # A spare pair of A would beat the partner's pair of K, but the partner is winning.
    v = make_view(0, "SA HA S3 S5 D9 C9 SJ", top="SK HK", top_seat=2, counts=[7, 15, 12, 18])
    assert decide(v).action == {"type": "pass"}


def test_overtakes_partner_only_to_go_out():
    v = make_view(0, "SA HA", top="SK HK", top_seat=2, counts=[2, 15, 12, 18])
    d = decide(v)
    assert d.action["type"] == "play" and played_cards(d.action) == "SA HA"
    assert "go out" in d.reason


def test_bombs_when_an_opponent_with_two_cards_would_otherwise_go_out():
    v = make_view(0, BOMB_HAND, top="SA HA", top_seat=1, counts=[9, 2, 12, 18])
    d = decide(v)
    assert d.action["type"] == "play" and d.action["kind"] == "bomb"
    assert played_cards(d.action) == "S7 H7 C7 D7"
    assert "2 card" in d.reason


def test_keeps_the_bomb_when_opponents_are_far_from_out():
    v = make_view(0, BOMB_HAND, top="SA HA", top_seat=1, counts=[9, 20, 12, 18])
    d = decide(v)
    assert d.action == {"type": "pass"}
    assert d.reason == "keep the bomb: opponents hold 38 cards"


def test_bombs_to_take_the_lead_and_finish():
    # After the bomb only a pair is left: take the lead and go out with it.
    v = make_view(0, "S7 H7 C7 D7 S3 H3", top="SA HA", top_seat=1, counts=[6, 20, 12, 18])
    d = decide(v)
    assert d.action["kind"] == "bomb"
    assert "finish" in d.reason


def test_leads_a_low_single_the_partner_with_one_card_can_beat():
    v = make_view(0, "S3 S4 D9 C9 SJ SQ HK C8 C8", counts=[9, 15, 1, 18])
    d = decide(v)
    assert d.action["kind"] == "single" and played_cards(d.action) == "S3"
    assert "partner holds 1 card" in d.reason


def test_leads_a_low_pair_to_the_partner_with_two_cards():
    v = make_view(0, "S3 S4 D9 C9 SJ SQ HK C8 C8", counts=[9, 15, 2, 18])
    d = decide(v)
    assert d.action["kind"] == "pair" and played_cards(d.action) == "C8 C8"


def test_does_not_feed_when_an_opponent_is_closer_to_out():
    # Partner has 2 cards but an opponent has 1: no low single for the opponent to finish with.
    v = make_view(0, "S3 S4 D9 C9 SJ SQ HK C8 C8", counts=[9, 1, 2, 18])
    d = decide(v)
    assert d.action["kind"] != "single"


def test_never_leads_a_beatable_single_to_an_opponent_with_one_card():
    v = make_view(0, "S3 S4 D9 C9 SJ SQ HK C8 C8", counts=[9, 1, 12, 18])
    d = decide(v)
    assert d.action["kind"] == "pair"
    assert "opponent" in d.reason


def test_lets_the_partners_last_play_stand_for_takeover():
    # Partner went out with a 10; a spare A could beat it, but passing hands us the lead (接风).
    v = make_view(0, "S3 S4 S5 H6 D7 D9 SA SA", top="DT", top_seat=2, counts=[8, 15, 0, 18], finished=[2])
    d = decide(v)
    assert d.action == {"type": "pass"}
    assert "接风" in d.reason


# ---------------------------------------------------------------------------- plain play


def test_follows_with_the_cheapest_play_that_keeps_the_hand():
    # 3-7 is a straight and 88/99 are pairs: the spare J is the cheapest single over the 5.
    v = make_view(0, "S3 S4 S5 H6 D7 D9 C9 SJ SQ HK C8 C8 DA SB", top="D5", top_seat=3,
                  counts=[14, 15, 12, 18])
    d = decide(v)
    assert played_cards(d.action) == "SJ"
    assert d.reason == "single of J beats single of 5 and keeps the rest of the hand together"


def test_follows_with_the_lowest_pair_that_beats():
    v = make_view(0, "S9 H9 SJ HJ S3 D6", top="S8 H8", top_seat=1, counts=[6, 20, 12, 18])
    d = decide(v)
    assert played_cards(d.action) == "S9 H9"
    assert d.reason == "lowest pair that beats pair of 8"


def test_follows_a_pair_without_splitting_a_bomb():
    v = make_view(0, "S9 H9 C9 D9 SJ HJ S3", top="S8 H8", top_seat=1, counts=[7, 20, 12, 18])
    d = decide(v)
    assert played_cards(d.action) == "SJ HJ"
    assert "keeps the rest of the hand together" in d.reason


def test_leads_the_low_straight_first():
    v = make_view(0, "S3 S4 S5 H6 D7 D9 C9 SJ SQ HK C8 C8 DA SB", counts=[14, 15, 12, 18])
    d = decide(v)
    assert d.action["kind"] == "straight" and d.action["value"] == 7


def test_keeps_the_control_card_for_later():
    v = make_view(0, "S4 SB H9 D9", counts=[4, 15, 12, 18])
    d = decide(v)
    assert played_cards(d.action) in ("S4", "H9 D9")


def test_memory_plays_a_card_nobody_can_beat_before_the_last_loser():
    # Both big jokers are played, so the small joker is the highest single left: play it first
    # (or the nobody-can-beat pair of A), then the last loser.
    v = make_view(0, "SB S4", counts=[2, 15, 12, 18], played="HR HR")
    d = decide(v)
    assert played_cards(d.action) == "SB"
    assert "nobody can beat" in d.reason


def test_memory_does_not_trust_a_single_that_can_still_be_beaten():
    v = make_view(0, "SB S4 S6", counts=[3, 15, 12, 18])  # both big jokers still out
    d = decide(v)
    assert played_cards(d.action) == "S4"


def test_goes_out_in_one_play_when_possible():
    v = make_view(0, "S3 S4 S5 S6 D7", counts=[5, 15, 12, 18])
    d = decide(v)
    assert played_cards(d.action) == "S3 S4 S5 S6 D7"
    assert "go out" in d.reason


def test_wild_card_completes_a_straight_when_following():
    # Level 5: H5 is wild and stands in for the missing 8: 6 7 (8) 9 T beats the opponent's 4-8.
    v = make_view(0, "S6 D7 S9 ST H5 SK", level=5, top="S4 S5 D6 C7 S8", top_seat=1, counts=[6, 3, 12, 18])
    d = decide(v)
    assert d.action["kind"] == "straight" and d.action["value"] == 10
    assert played_cards(d.action) == "H5 S6 D7 S9 ST"


# ---------------------------------------------------------------------------- returns, phases


def test_returns_the_card_that_hurts_least():
    # S3 S4 S5 H6 D7 is a straight; 88 and 99 are pairs: the lone T is the harmless return.
    v = make_view(0, "S3 S4 S5 H6 D7 D9 C9 DT C8 C8 SA SA HK", phase="return",
                  return_choices="S3 S4 S5 H6 D7 D9 C9 DT C8")
    d = decide(v)
    assert d.action == {"type": "return", "card": int(parse_cards("DT")[0])}
    assert "return DT" in d.reason


def test_deal_over_starts_the_next_deal():
    v = make_view(0, "S3", phase="deal_over")
    assert decide(v).action == {"type": "next_deal"}


def test_random_bot_picks_only_legal_actions():
    v = make_view(1, "S3 S4 S5 H6 D7 D9 C9 C8 C8 SB", top="D5", top_seat=0)
    bot = RandomBot(seed=3)
    legal = legal_actions_from_view(v)
    seen = {str(bot.choose(v)) for _ in range(200)}
    assert seen <= {str(a) for a in legal}
    assert len(seen) > 3  # it really is spread over the actions


def test_make_bot_names_and_errors():
    assert set(BOTS) == {"random", "heuristic"}
    assert make_bot("heuristic").name == "heuristic"
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        make_bot("smart")


# ---------------------------------------------------------------------------- suggest, views only


def test_suggest_names_the_action_and_a_reason():
    v = make_view(0, "S3 S4 S5 H6 D7 D9 C9 SJ SQ HK C8 C8 DA SB", top="D5", top_seat=3)
    action, reason = suggest(v)
    assert action["type"] == "play" and action["kind"] == "single"
    assert "beats single of 5" in reason
    assert_legal(v, action)


def test_suggest_does_not_change_the_view():
    import copy

    v = make_view(0, BOMB_HAND, top="SA HA", top_seat=1, counts=[9, 2, 12, 18])
    before = copy.deepcopy(v)
    suggest(v)
    assert v == before


def test_bot_decisions_depend_on_the_view_only():
    """Re-deal the three hidden hands at random: the seat's view and so its choice stay the same."""
    import random

    rng = random.Random(5)
    game = Game.new(11)
    bots = [HeuristicBot() for _ in range(4)]
    checked = 0
    for _step in range(60):
        seat = game.pending_seats()[0]
        state = game.to_dict()
        others = [s for s in range(4) if s != seat]
        pool = [c for s in others for c in state["hands"][s]]
        rng.shuffle(pool)
        for s in others:
            n = len(state["hands"][s])
            state["hands"][s], pool = pool[:n], pool[n:]
        twin = Game.from_dict(state)
        assert twin.view(seat) == game.view(seat)
        a = bots[seat].choose(game.view(seat))
        assert HeuristicBot().choose(twin.view(seat)) == a
        game.apply(seat, a)
        checked += 1
        if game.phase != "play":
            break
    assert checked >= 20


def test_blocks_over_the_partner_when_the_next_opponent_could_go_out():
    # Partner led a 5; the next opponent (seat 1) holds one card and would go out on any higher single.
    v = make_view(0, "S3 S4 D9 C9 SA SJ", top="D5", top_seat=2, counts=[6, 1, 12, 18])
    d = decide(v)
    assert d.action["type"] == "play" and played_cards(d.action) == "SA"
    assert "could go out" in d.reason


def test_no_block_when_the_next_opponent_cannot_finish_on_that_play():
    v = make_view(0, "S3 S4 D9 C9 SA SJ", top="D5", top_seat=2, counts=[6, 2, 12, 18])
    assert decide(v).action == {"type": "pass"}


def test_suggest_refuses_clearly_when_the_seat_cannot_act():
    v = make_view(0, "S3 S4", top="D5", top_seat=3)
    v["turn"] = 1
    with pytest.raises(ValueError, match="seat 0 has nothing to do"):
        suggest(v)
    v = make_view(0, "S3 S4", phase="match_over")
    with pytest.raises(ValueError, match="nothing to do in phase 'match_over'"):
        HeuristicBot().choose(v)


def test_leads_from_the_top_when_every_lead_helps_an_opponent_with_two_cards():
    # Only singles left and an opponent holds 2 cards (maybe a pair): make them pay for the lead.
    v = make_view(0, "S3 D6 S9 CK", counts=[4, 2, 12, 18])
    d = decide(v)
    assert played_cards(d.action) == "CK"
