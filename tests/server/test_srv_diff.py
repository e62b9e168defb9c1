"""Must show 5 (property part): snapshot + diff rebuilds the view exactly, for any views."""

from __future__ import annotations

import random

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.simulate import play_match
from server.autopilot import new_live
from server.codec import decode, encode
from server.diff import apply, diff, same
from server.views import match_record, view_for

scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=5)
keys = st.text(alphabet="ab/~c", min_size=0, max_size=3)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)
docs = st.dictionaries(keys, values, max_size=6)


@given(docs, docs)
@settings(max_examples=400)
def test_diff_then_apply_rebuilds_any_document(old, new) -> None:
    ops = diff(old, new)
    assert same(apply(old, ops), new)
    # the ops are plain RFC 6902: an independent JSON Patch implementation agrees
    assert same(jsonpatch.apply_patch(old, ops), new)


@given(docs)
def test_no_change_no_ops(doc) -> None:
    assert diff(doc, decode(encode(doc))) == []


@given(docs, st.lists(values, min_size=1, max_size=4))
def test_appended_items_are_adds_at_the_end(doc, extra) -> None:
    old = {**doc, "played": [1, 2]}
    new = {**doc, "played": [1, 2, *extra]}
    ops = diff(old, new)
    assert ops == [{"op": "add", "path": "/played/-", "value": v} for v in extra]


def test_types_are_told_apart() -> None:
    assert diff({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]
    assert diff({"a": [1]}, {"a": [1.0]}) == [{"op": "replace", "path": "/a", "value": [1.0]}]


def _random_views(seed: int, steps: int, seat: int | None) -> list[dict]:
    game = Game.new(seed)
    rng = random.Random(seed)
    room = {"seats": [{"kind": "human"}] * 4, "live": new_live(0.0), "settings": {"counter": True}}
    views = [view_for(room, game, seat)]
    for _ in range(steps):
        if game.phase == "match_over":
            break
        pending = game.pending_seats()
        actor = rng.choice(pending)
        game.apply(actor, rng.choice(game.legal_actions(actor)))
        pend = game.pending_seats()
        room["live"]["deadlines"] = [1e9 + len(views) if s in pend else None for s in range(4)]
        views.append(view_for(room, game, seat))
    return views


@given(st.integers(0, 2**32), st.integers(1, 400), st.sampled_from([0, 1, 2, 3, None]),
       st.integers(1, 5))
@settings(max_examples=60, deadline=None)
def test_random_game_views_rebuild_from_snapshot_and_diffs(seed, steps, seat, stride) -> None:
    views = _random_views(seed, steps, seat)
    rebuilt = views[0]
    for prev, nxt in zip(views[::stride], views[stride::stride], strict=False):
        assert same(rebuilt, prev)
        rebuilt = apply(rebuilt, diff(prev, nxt))
        assert same(rebuilt, nxt)
    # the first (empty) view before a game starts also diffs into a whole view
    assert same(apply({}, diff({}, views[-1])), views[-1])


def test_the_match_record_grows_by_one_line_a_deal_and_its_diff_is_that_line() -> None:
    """The view's ``match``: a line per finished deal (docs/protocol.md), sent once, never resent."""
    views = _random_views(3, 3000, 0)
    records = [v.get("match") for v in views if v]
    assert records[0] == [] and len(records[-1]) >= 2
    deals = [len(r) for r in records]
    assert deals == sorted(deals) and set(deals) == set(range(deals[-1] + 1))  # one deal at a time
    for prev, nxt in zip(views, views[1:], strict=False):
        if prev and len(nxt["match"]) == len(prev["match"]) + 1:
            line = nxt["match"][-1]
            assert line == {key: nxt["last_result"][key] for key in line} and "reason" not in line
            assert set(line) == {"deal", "level", "places", "winner_team", "levels_before", "levels",
                                 "match_won"}
            ops = [op for op in diff(prev, nxt) if op["path"].startswith("/match/")]
            assert ops == [{"op": "add", "path": "/match/-", "value": line}]


def test_the_views_of_one_change_share_one_match_record() -> None:
    """Made once per change, not once per seat (it cost as much as the rest of a view at 12 deals)."""
    game = Game.new(3)
    rng = random.Random(3)
    while len(game.results) < 2:
        seat = rng.choice(game.pending_seats())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    room = {"seats": [{"kind": "human"}] * 4, "live": new_live(0.0), "settings": {}}
    views = [view_for(room, game, seat) for seat in (0, 1, 2, 3, None)]
    assert all(v["match"] is views[0]["match"] for v in views) and len(views[0]["match"]) == 2
    again = Game.from_dict(game.to_dict())  # the next change loads its own game: a record of its own
    assert view_for(room, again, 0)["match"] == views[0]["match"]


def test_a_match_on_points_keeps_each_deal_s_score_before_and_after_in_its_record() -> None:
    """The record said every deal of a scored match scored 0: its lines held the score after, not before."""
    game = play_match(3, "points6")
    record = match_record(game)
    assert len(record) == len(game.results) >= 6
    for line, result in zip(record, game.results, strict=True):
        assert line["points_before"] == result["points_before"] and line["points"] == result["points"]
        won = line["winner_team"]
        assert line["points"][won] - line["points_before"][won] == result["upgrade"]
    assert "points" not in match_record(play_match(3))[0]  # a match of levels has none
