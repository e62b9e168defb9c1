"""Which action a bot takes: one small function, the room's choice of bot in one place.

Bots see what a player at the table sees: the seat's view from views.py, never the game object's
hidden hands. The room's ``bot`` setting (engine/bots ``BOTS``; ``heuristic`` unless the room chose
another, e.g. ``strong``) plays bot seats, dropouts, auto-play and timers; a uniform pick among the
engine's legal actions is the fallback when it cannot decide (so a bot bug can never stall a table).
The suggest button stays the heuristic's: it says why in words.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from engine.bots import make_bot, other_play, suggest_explained

from .rooms import DEFAULT_BOT
from .views import view_for

log = logging.getLogger("guandan.bots")


def random_action(game: Any, seat: int, seed: str) -> dict[str, Any]:
    """Uniform among ``game.legal_actions(seat)``, seeded so a replay is reproducible."""
    actions = game.legal_actions(seat)
    if not actions:
        raise ValueError(f"seat {seat} has nothing to do")
    return random.Random(seed).choice(actions)


def choose_action(room: dict[str, Any], game: Any, seat: int, seed: str) -> dict[str, Any]:
    """The action the room's bot takes for ``seat`` now, from that seat's view only."""
    name = room["settings"].get("bot", DEFAULT_BOT)  # (rooms stored before the setting existed)
    try:
        return make_bot(name, seed).choose(view_for(room, game, seat))
    except Exception:  # a bot bug must not stop the table: log it and play a legal move
        log.exception("%s bot failed for seat %d; playing a random legal action", name, seat)
        return random_action(game, seat, seed)


def suggestion(room: dict[str, Any], game: Any, seat: int, skip: int = 0) -> tuple[dict[str, Any], str, str]:
    """What the heuristic player would do for this seat now, and why in English and Chinese (the
    client shows its player's language); with ``skip`` n > 0, the n-th other play that beats the table
    (the button pressed again), when there is one. Nothing is applied."""
    view = view_for(room, game, seat)
    advice = suggest_explained(view)
    return (skip and other_play(view, advice[0], skip)) or advice
