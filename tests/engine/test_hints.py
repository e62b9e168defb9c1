"""Suggest pressed again (engine/bots/hints.py): the other plays that beat the table, one per way to
play, weakest first, counting round; on a lead the other plays of the hand's plan."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Game
from engine.bots.base import top_play
from engine.bots.heuristic import planned_leads
from engine.bots.hints import other_play, other_plays
from engine.bots.suggest import suggest_explained
from engine.cards import HEARTS, card_code
from engine.plays import Play, beats


def way(play: Play, level: int) -> tuple[str, int, int, int]:
    """What tells two ways to play apart: suits aside, a variant that spends a wild card is its own."""
    wild = card_code(level, HEARTS)
    return play.kind, play.value, len(play.cards), sum(c == wild for c in play.cards)


def play_of(action: dict) -> Play:
    return Play(action["kind"], action["value"], tuple(action["cards"]))


def rank_of(code: int) -> int:
    return code if code >= 52 else code // 4  # the jokers are their own ranks


def as_action(play: Play) -> dict:
    return {"type": "play", "cards": [int(c) for c in play.cards], "kind": play.kind, "value": play.value}


@pytest.mark.parametrize("seed", range(4))
def test_every_other_play_is_legal_beats_the_table_and_comes_weakest_first(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(seed)
    followed = led = 0
    while game.phase == "play":
        seat = game.pending_seats()[0]
        view, level = game.view(seat), game.level
        advice, _reason, _zh = suggest_explained(view)
        others = other_plays(view, advice)
        legal = game.legal_actions(seat)
        if view.get("top") is None:
            led += 1
            leads = planned_leads(view["hand"], level)
            # the plan splits the whole hand: every card's rank in exactly one of its plays
            assert Counter(rank_of(c) for p in leads for c in p.cards) == Counter(map(rank_of, view["hand"]))
            for p in leads:
                assert as_action(p) in legal
            advised = way(play_of(advice), level)
            assert [way(p, level) for p in others] == [w for w in dict.fromkeys(way(p, level) for p in leads)
                                                       if w != advised]
            if others:
                action, reason, reason_zh = other_play(view, advice, len(others) + 1)  # round again
                assert action == as_action(others[0])
                assert reason.startswith("another lead") and reason.endswith(f"(1 of {len(others)})")
                assert reason_zh.endswith(f"（1/{len(others)}）")
        else:
            followed += 1
            ways = [way(p, level) for p in others]
            assert len(set(ways)) == len(ways)  # one variant per way
            assert [(p.tier, p.value) for p in others] == sorted((p.tier, p.value) for p in others)
            for p in others:
                assert beats(p, top_play(view)) and as_action(p) in legal
            # every way to beat the table is the advice or one of the others, never both
            advised = {way(play_of(advice), level)} if advice["type"] == "play" else set()
            assert not advised & set(ways)
            assert {way(play_of(a), level) for a in legal if a["type"] == "play"} == set(ways) | advised
            if not others:
                assert other_play(view, advice, 1) is None  # the advice is the only way: it comes again
            for skip in range(1, 2 * len(others) + 2) if others else ():  # counting goes round
                action, reason, reason_zh = other_play(view, advice, skip)
                n, total = (skip - 1) % len(others), len(others)
                assert action == as_action(others[n])
                assert reason.endswith(f"({n + 1} of {total})") and reason_zh.endswith(f"（{n + 1}/{total}）")
        game.apply(seat, rng.choice(legal))
    assert followed > 10 and led > 3
