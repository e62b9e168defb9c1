"""Suggest pressed again: the other plays that beat the table, one press each.

The first press gives the heuristic's advice with its reason (suggest.py). In the Guandan apps the hint
button, pressed again, offers the next play that would do; here each further press does the same,
weakest first (ordinary plays by value, then the bombs up the ladder), so a player who would rather
not follow the advice still finds every option without hunting for it. One physical variant stands for
each way to play (suits do not matter); a variant that spends a wild card counts as its own way.
"""

from __future__ import annotations

from ..cards import HEARTS, card_code
from ..moves import legal_plays
from ..plays import Play
from .base import Action, View, play_action, top_play, view_rules
from .words import Said, play_words

_ANOTHER = Said("another play that beats {top}: {play} ({n} of {total})",
                "另一种管得住{top}的出法：{play}（{n}/{total}）")


def _way(play: Play, wild: int) -> tuple[str, int, int, int]:
    return play.kind, play.value, len(play.cards), sum(c == wild for c in play.cards)


def other_plays(view: View, advice: Action) -> list[Play]:
    """The plays that beat the table other than the ``advice``, one per way, weakest first; none
    when the seat leads (any play may lead: too many to page through) or is not to play."""
    top = top_play(view)
    if top is None or view.get("phase") != "play" or view.get("turn") != view.get("seat"):
        return []
    wild = card_code(view["level"], HEARTS)
    ways: dict[tuple[str, int, int, int], Play] = {}
    for play in legal_plays(view["hand"], view["level"], top, view_rules(view)):
        ways.setdefault(_way(play, wild), play)
    if advice.get("type") == "play":
        ways.pop(_way(Play(advice["kind"], advice["value"], tuple(advice["cards"])), wild), None)
    return sorted(ways.values(), key=lambda p: (p.tier, p.value))


def other_play(view: View, advice: Action, skip: int) -> tuple[Action, str, str] | None:
    """The ``skip``-th other play (1 = the weakest; counting goes round) with its reason in English
    and Chinese, or None when there is none."""
    others = other_plays(view, advice)
    if not others or skip < 1:
        return None
    n = (skip - 1) % len(others)
    play = others[n]
    said = _ANOTHER.fill(top=play_words(top_play(view), view["level"]), play=play_words(play, view["level"]),
                         n=n + 1, total=len(others))
    return play_action(play), said.en, said.zh
