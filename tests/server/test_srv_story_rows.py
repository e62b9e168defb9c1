"""The story's storage (server/story.py) on its own: compact rows in the room, maps in the views, made
once and shared between versions, a summary capped for a long absence."""

from __future__ import annotations

import random
from collections import Counter

from engine import Game
from server import story
from server.autopilot import new_live
from server.codec import decode, encode


def new_room(code: str, game: Game) -> dict:
    room = {"code": code, "live": new_live(0.0)}
    story.begin(room, game)
    return room


def play(room: dict, game: Game, rng: random.Random, steps: int, by: str = "bot") -> list[tuple[int, dict]]:
    done = []
    for _ in range(steps):
        if game.phase != "play":
            break
        seat = game.pending_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        story.record(room, game, seat, game.actions[-1][1], by)
        done.append(game.actions[-1])
    return done


def test_rows_are_ints_and_the_maps_say_what_the_engine_logged():
    game = Game.new(11)
    room = new_room("ROWS01", game)
    actions = play(room, game, random.Random(1), 400)
    assert game.phase == "deal_over"
    for row in room["story"]["moves"]:
        assert all(type(x) is int for x in row)
    room = decode(encode(room))  # as stored
    told = story.told(room, game)
    history = [m for trick in told.tricks for m in trick] + told.last
    assert len(history) == len(actions)
    wild = (game.level - 2) * 4 + 1
    for entry, (seat, action) in zip(history, actions, strict=True):
        assert (entry["seat"], entry["type"], entry["by"]) == (seat, action["type"], "bot")
        if action["type"] == "play":
            assert (entry["kind"], entry["value"]) == (action["kind"], action["value"])
            assert Counter(entry["cards"]) == Counter(action["cards"])
            assert ("as" in entry) == (wild in action["cards"])
    assert len(told.tricks) >= 2 and all(trick[0]["type"] == "play" for trick in told.tricks)


def told_moves(room: dict, game: Game) -> list[dict]:
    told = story.told(decode(encode(room)), game)  # as stored
    return [m for trick in told.tricks for m in trick] + told.last


def test_the_maps_are_made_once_and_shared_by_later_versions():
    game = Game.new(12)
    room = new_room("ROWS02", game)
    rng = random.Random(2)
    play(room, game, rng, 10)
    first = told_moves(room, game)
    play(room, game, rng, 3)
    later = told_moves(room, game)
    assert len(later) == len(first) + 3
    assert all(a is b for a, b in zip(first, later[:len(first)], strict=True))
    # another room under the same code (or a stale copy) gets maps of its own rows, not the cached ones
    other_game = Game.new(13)
    other = new_room("ROWS02", other_game)
    played = play(other, other_game, random.Random(3), 5)
    assert [m["cards"] for m in told_moves(other, other_game) if m["type"] == "play"] == [
        story.entry(r, other_game.level)["cards"] for r in other["story"]["moves"] if len(r) > 2]
    assert len(told_moves(other, other_game)) == len(played)


def test_a_long_absence_keeps_the_last_moves_and_the_count():
    game = Game.new(14)
    room = new_room("ROWS03", game)
    seat = game.pending_seats()[0]
    rng = random.Random(4)
    made = 0
    while made < story.KEEP_STOOD_IN + 8 and game.phase == "play":
        acting = game.pending_seats()[0]
        game.apply(acting, rng.choice(game.legal_actions(acting)))
        story.record(room, game, acting, game.actions[-1][1], "away" if acting == seat else "bot")
        made += acting == seat
    box = room["story"]["stood_in"][seat]
    assert made > story.KEEP_STOOD_IN and game.phase == "play"
    assert box["n"] == made and len(box["moves"]) == story.KEEP_STOOD_IN
    view = game.view(seat)
    story.add_to_view(view, room, game, seat)
    assert view["in_your_name"]["n"] == made
    assert {m["by"] for m in view["in_your_name"]["moves"]} == {"away"}
    assert all(m["deal"] == 1 for m in view["in_your_name"]["moves"])
    for other in (None, (seat + 1) % 4):
        view = game.view(other)
        story.add_to_view(view, room, game, other)
        assert view["in_your_name"] is None
    # the player acts again: the summary is done with
    while game.pending_seats()[0] != seat:
        acting = game.pending_seats()[0]
        game.apply(acting, rng.choice(game.legal_actions(acting)))
        story.record(room, game, acting, game.actions[-1][1], "bot")
    assert room["story"]["stood_in"][seat]["n"] == made
    game.apply(seat, rng.choice(game.legal_actions(seat)))
    story.record(room, game, seat, game.actions[-1][1], "human")
    assert room["story"]["stood_in"][seat] == {"n": 0, "moves": []}


def test_a_returned_tribute_card_says_who_returned_it():
    """A return made by the timer (or our bot) was shown as if the player had chosen it, and nobody was
    told: the view's tribute returns say who made each, as the trick's moves do."""
    for seed in range(1, 40):  # a deal that ends in a tribute to return
        game = Game.new(seed)
        room = new_room("TRIB01", game)
        play(room, game, random.Random(seed), 400)
        game.apply(game.pending_seats()[0], {"type": "next_deal"})
        if game.phase == "return":
            break
    receivers = game.pending_seats()
    del room["story"]["returns"]  # a room stored before returns were kept
    for seat, by in zip(receivers, ["timer", "human"], strict=False):
        game.apply(seat, game.legal_actions(seat)[0])
        story.record(room, game, seat, game.actions[-1][1], by)
    room = decode(encode(room))  # as stored
    for seat in (*range(4), None):
        view = game.view(seat)
        story.add_to_view(view, room, game, seat)
        made = {r["from"]: r["by"] for r in view["tribute"]["returns"]}
        assert made == dict(zip(receivers, ["timer", "human"], strict=False)), (seat, view["tribute"])
    # the next deal's story starts without them
    play(room, game, random.Random(1), 400)
    game.apply(game.pending_seats()[0], {"type": "next_deal"})
    seat = game.pending_seats()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    story.record(room, game, seat, game.actions[-1][1], "bot")
    assert room["story"]["deal"] == game.deal
    assert len(room["story"]["returns"]) == int(game.actions[-1][1]["type"] == "return")
