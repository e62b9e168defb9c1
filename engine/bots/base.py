"""The bot interface and what a bot may derive from one seat's view.

A bot sees exactly what a player at the table sees: ``game.view(seat)``. It never gets the
``Game`` object or another seat's hand, so its legal actions are rebuilt here from the view
with the plays engine (the same ``legal_plays`` the game uses).
"""

from __future__ import annotations

from typing import Any, Protocol

from ..moves import legal_plays
from ..plays import Play
from ..rules import Rules

Action = dict[str, Any]
View = dict[str, Any]


class Bot(Protocol):
    """Anything that picks an action for one seat from that seat's view."""

    name: str

    def choose(self, view: View) -> Action:
        """The action to take now; only called when the seat may act."""
        ...


def partner(seat: int) -> int:
    return (seat + 2) % 4


def is_opponent(seat: int, other: int) -> bool:
    return (seat - other) % 2 == 1


def top_play(view: View) -> Play | None:
    """The play to beat, rebuilt from the view; None when this seat leads."""
    top = view.get("top")
    if not top:
        return None
    return Play(top["kind"], top["value"], tuple(top["cards"]))


def view_rules(view: View) -> Rules:
    return Rules.from_dict(view.get("rules"))


def play_action(play: Play) -> Action:
    """A play as the game's action dict, naming the interpretation so nothing is guessed."""
    return {"type": "play", "cards": [int(c) for c in play.cards], "kind": play.kind, "value": play.value}


def legal_actions_from_view(view: View) -> list[Action]:
    """Every action this seat may take, from its view alone (mirrors ``Game.legal_actions``)."""
    phase = view.get("phase")
    seat = view["seat"]
    if phase == "return":
        return [{"type": "return", "card": int(c)} for c in sorted(set(view.get("return_choices") or ()))]
    if phase == "deal_over":
        return [{"type": "next_deal"}]
    if phase != "play" or view.get("turn") != seat:
        return []
    top = top_play(view)
    plays = legal_plays(view["hand"], view["level"], top, view_rules(view))
    actions = [play_action(p) for p in plays]
    if top is not None:
        actions.append({"type": "pass"})
    return actions
