"""The suggest button: what the heuristic player would do here, and why."""

from __future__ import annotations

from .base import Action, View
from .heuristic import HeuristicBot

_ADVISER = HeuristicBot()


def suggest(view: View) -> tuple[Action, str]:
    """The heuristic bot's action for this view and a short human reason; submits nothing."""
    decision = _ADVISER.decide(view)
    return decision.action, decision.reason


def suggest_explained(view: View) -> tuple[Action, str, str]:
    """``suggest`` with the reason in Chinese as well: (action, reason, reason_zh), for a client that
    shows either language."""
    decision = _ADVISER.decide(view)
    return decision.action, decision.reason, decision.reason_zh
