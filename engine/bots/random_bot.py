"""The baseline: a uniform pick among the legal actions of the view."""

from __future__ import annotations

import random

from .base import Action, View, legal_actions_from_view


class RandomBot:
    """Uniform among legal actions (every distinct play, and pass when following)."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        actions = legal_actions_from_view(view)
        if not actions:
            raise ValueError(f"seat {view.get('seat')} has nothing to do in phase {view.get('phase')!r}")
        return self.rng.choice(actions)
