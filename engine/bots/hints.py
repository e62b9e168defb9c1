"""Suggest pressed again: the other plays that beat the table, one press each.

The first press gives the heuristic's advice with its reason (suggest.py). In the Guandan apps the hint
button, pressed again, offers the next play that would do; here each further press does the same,
weakest first (ordinary plays by value, then the bombs up the ladder), so a player who would rather
not follow the advice still finds every option without hunting for it. One physical variant stands for
each way to play (suits do not matter); a variant that spends a wild card counts as its own way.

On a lead any play would do, far too many to page through: the presses go through the plays the hand
is built for instead (its plan: each pair, straight, full house... as it is best split), low first.
"""

from __future__ import annotations

from ..cards import HEARTS, card_code
from ..moves import legal_plays
from ..plays import Play
from .base import Action, View, play_action, top_play, view_rules
from .heuristic import planned_leads
from .words import Said, play_words

_ANOTHER = Said("another play that beats {top}: {play} ({n} of {total})",
                "另一种管得住{top}的出法：{play}（{n}/{total}）")
_ANOTHER_LEAD = Said("another lead your hand is built for: {play} ({n} of {total})",
                     "按这手牌的组合，另一种出法：{play}（{n}/{total}）")


def _way(play: Play, wild: int) -> tuple[str, int, int, int]:
    return play.kind, play.value, len(play.cards), sum(c == wild for c in play.cards)


def other_plays(view: View, advice: Action) -> list[Play]:
    """The plays other than the ``advice``, one per way: those that beat the table, weakest first, or
    on a lead the hand's planned plays; none when the seat is not to play."""
    if view.get("phase") != "play" or view.get("turn") != view.get("seat"):
        return []
    top = top_play(view)
    wild = card_code(view["level"], HEARTS)
    ways: dict[tuple[str, int, int, int], Play] = {}
    if top is None:
        plays = planned_leads(view["hand"], view["level"])
    else:
        beats = legal_plays(view["hand"], view["level"], top, view_rules(view))
        plays = sorted(beats, key=lambda p: (p.tier, p.value))
    for play in plays:
        ways.setdefault(_way(play, wild), play)
    if advice.get("type") == "play":
        ways.pop(_way(Play(advice["kind"], advice["value"], tuple(advice["cards"])), wild), None)
    return list(ways.values())


def other_play(view: View, advice: Action, skip: int) -> tuple[Action, str, str] | None:
    """The ``skip``-th other play (1 = the weakest; counting goes round) with its reason in English
    and Chinese, or None when there is none."""
    others = other_plays(view, advice)
    if not others or skip < 1:
        return None
    n = (skip - 1) % len(others)
    play = others[n]
    top = top_play(view)
    words = {"play": play_words(play, view["level"]), "n": n + 1, "total": len(others)}
    if top is None:
        said = _ANOTHER_LEAD.fill(**words)
    else:
        said = _ANOTHER.fill(top=play_words(top, view["level"]), **words)
    return play_action(play), said.en, said.zh
