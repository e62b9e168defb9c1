"""Views never leak another seat's unplayed cards (issue 3, "Must show" 4).

Non-interference: after every action of whole random matches, each seat's view (and the spectator's)
must stay exactly the same when every *other* seat's unplayed cards are replaced by random cards. So
a view is a function of public information and the viewer's own hand only. Events are checked to
carry cards only where they are public (plays, tribute, returns).
"""

from __future__ import annotations

import random

import pytest

from engine import Game, preset
from engine.cards import sort_key
from engine.simulate import random_action

EVENT_TYPES = {"deal_started", "tribute", "refusal", "return", "play", "pass", "trick_won", "takeover",
               "finished", "deal_over", "match_over"}
VIEW_KEYS = {
    "seat", "phase", "deal", "level", "levels", "level_team", "a_failures", "hand", "counts", "turn",
    "leader", "top", "trick", "finished", "played", "tribute", "return_choices", "last_result",
    "match_winner", "rules", "pending",
}
PLAIN = (dict, list, int, str, bool, type(None))


def assert_plain(obj, path="view"):
    assert isinstance(obj, PLAIN), f"{path} is a {type(obj).__name__}"
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert isinstance(k, str), f"{path} has a non-str key {k!r}"
            assert_plain(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            assert_plain(v, f"{path}[{i}]")


def views_with_fake_hands(g: Game, viewer, rng: random.Random) -> dict:
    """The viewer's view after replacing every other seat's unplayed cards with random cards."""
    real = g.hands
    key = sort_key(g.level)
    fake = [
        list(h) if s == viewer else sorted((rng.randrange(54) for _ in h), key=key)
        for s, h in enumerate(real)
    ]
    g.hands = fake
    try:
        return g.view(viewer)
    finally:
        g.hands = real


def check_views(g: Game, rng: random.Random) -> None:
    for viewer in (None, 0, 1, 2, 3):
        v = g.view(viewer)
        assert set(v) == VIEW_KEYS
        if viewer is None:
            assert v["hand"] is None and v["return_choices"] == []
        else:
            assert v["hand"] == g.hands[viewer]
        assert v["counts"] == [len(h) for h in g.hands]
        assert views_with_fake_hands(g, viewer, rng) == v, f"view of {viewer} depends on others' cards"
    assert_plain(g.view(0))


def check_events(events, g: Game) -> None:
    for e in events:
        assert e["type"] in EVENT_TYPES
        assert not {"hand", "hands"} & set(e)
        if e["type"] == "play":
            assert g.played[-len(e["cards"]):] == e["cards"]  # only the cards just played
        elif e["type"] == "tribute":
            assert set(e) == {"type", "kind", "from", "to", "card"}
        elif e["type"] == "return":
            assert set(e) - {"turn"} == {"type", "from", "to", "card"}
        else:
            assert "cards" not in e and "card" not in e
        assert_plain(e, f"event {e['type']}")


@pytest.mark.parametrize("name, seed", [("standard", "v1"), ("huaian", "v2"), ("nanjing", "v3"),
                                        ("national2017", "v4"), ("standard", "v5"), ("club", "v6")])
def test_views_never_show_other_seats_cards(name, seed):
    g = Game.new(seed, preset(name))
    rng = random.Random(seed)
    check_views(g, rng)
    check_events(g.events, g)
    n = 0
    while g.phase != "match_over":
        seat, action = random_action(g, rng)
        events = g.apply(seat, action)
        check_events(events, g)
        check_views(g, rng)
        n += 1
        assert n < 100_000
    assert g.match_winner in (0, 1)


def test_return_choices_only_in_own_view():
    g = Game.new("rc")
    rng = random.Random(5)
    while g.phase != "return":
        g.apply(*random_action(g, rng))
    for s in range(4):
        v = g.view(s)
        if s in g.tribute["pending"]:
            assert v["return_choices"] and set(v["return_choices"]) <= set(g.hands[s])
        else:
            assert v["return_choices"] == []
        assert v["tribute"]["pending"] == g.tribute["pending"]
