"""Bots: players that see one seat's view only (never the game object or other hands).

``make_bot(name, seed)`` builds one by name (``random``, ``heuristic``, ``strong``); every bot has
``choose(view) -> action``. ``suggest(view) -> (action, reason)`` backs the suggest button;
``suggest_explained(view) -> (action, reason, reason_zh)`` gives the reason in Chinese too;
``other_play(view, advice, skip)`` is the button pressed again: the next other play that beats the table.
"""

from __future__ import annotations

from .base import Action, Bot, View, legal_actions_from_view
from .heuristic import HeuristicBot
from .hints import other_play
from .random_bot import RandomBot
from .strong import StrongBot
from .suggest import suggest, suggest_explained

BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot, "strong": StrongBot}


def make_bot(name: str, seed: int | str | None = None) -> Bot:
    """A bot by name; a clear error for an unknown one."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None
    return cls(seed)


__all__ = [
    "Action", "Bot", "View", "BOTS", "make_bot", "legal_actions_from_view",
    "HeuristicBot", "RandomBot", "StrongBot", "suggest", "suggest_explained", "other_play",
]
