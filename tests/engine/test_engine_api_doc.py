"""docs/engine-api.md and the README's research section stay true to the code they describe."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import engine
import engine.bots
from engine import Game
from engine.bots import make_bot, other_play
from engine.competition import action_of
from engine.plays import Play

REPO = Path(__file__).resolve().parents[2]
DOC = " ".join((REPO / "docs" / "engine-api.md").read_text().split())
README = " ".join((REPO / "README.md").read_text().split())


def test_what_the_doc_says_is_importable_from_engine_is_and_the_bots_are_in_engine_bots() -> None:
    assert "importable from `engine`, except the bots (`make_bot`, `BOTS`, `other_play`, ...), which are " \
           "in `engine.bots`" in DOC
    for name in ("parse_cards", "format_cards", "classify", "beats", "legal_plays", "lay_out",
                 "play_groups", "expand", "HandIndex", "Rules", "PRESETS", "preset", "resolve_rules", "Game",
                 "IllegalAction"):
        assert hasattr(engine, name), name
    for name in ("make_bot", "BOTS", "other_play"):
        assert hasattr(engine.bots, name), name


def test_the_doc_shows_game_new_as_it_is_and_says_whose_turn_it_is() -> None:
    params = inspect.signature(Game.new).parameters
    shown = ", ".join(f"{n}={p.default!r}" for n, p in params.items())
    assert f"`Game.new({shown}) -> Game`" in DOC  # Game.new(seed=0, rules=None)
    assert "`game.pending_seats() -> list[int]`" in DOC and '`view["pending"]`' in DOC
    game = Game.new(3, "competition2020")
    view = game.view(game.pending_seats()[0])
    assert view["pending"] == game.pending_seats() == [view["turn"]]


def test_other_play_is_as_the_doc_says() -> None:
    assert re.search(r"`other_play\(view, advice, skip\)`.*`advice` is the action dict.*`skip` counts from 1 "
                     r"and goes round past the last; it returns None when `skip` is 0", DOC)
    game = Game.new(3, "competition2020")
    seat = game.pending_seats()[0]
    view = game.view(seat)
    advice = make_bot("heuristic", seed=0).choose(view)
    assert other_play(view, advice, 0) is None
    first = other_play(view, advice, 1)
    action, en, zh = first
    assert action["type"] == "play" and en and zh
    total = int(re.search(r"\(1 of (\d+)\)$", en).group(1))
    assert other_play(view, advice, total + 1) == first  # counting goes round
    assert other_play(view, advice, total) != first
    assert other_play(game.view((seat + 1) % 4), advice, 1) is None  # not this seat's turn


def test_the_readme_names_the_jokers_rank_in_single_and_pair_actions() -> None:
    assert action_of(Play("single", 16, (52,)), 2) == ["Single", "B", ["SB"]]
    assert action_of(Play("pair", 17, (53, 53)), 2) == ["Pair", "R", ["HR", "HR"]]
    assert '`["Single", "B", ["SB"]]`, `["Pair", "R", ["HR", "HR"]]`' in README
