"""The suggest button: what the heuristic player would do here, and why."""

from __future__ import annotations

from .base import Action, View
from .heuristic import HeuristicBot

_ADVISER = HeuristicBot()


def suggest(view: View) -> tuple[Action, str]:
    """The heuristic bot's action for this view and a short human reason; submits nothing."""
    decision = _ADVISER.decide(view)
    return decision.action, decision.reason
