"""Per-seat views: the ONE place where what a seat may see is decided.

A seat's view is the engine's ``game.view(seat)`` (which already hides the other hands) plus what the
room adds at the table: who is on auto (``auto``: "dropout" when our bot plays for a dropped player,
"player" when the player turned auto-play on), when our bot takes over from a dropped player
(``takeover``), whether the table waits for its people to come back (``paused``: all of them gone, the
bots wait too), the turn timer's deadlines (unix seconds; ``deadline``
is the one of the seat to act now), this seat's own auto-play interval, who the ready check between deals
waits for (``ready``, ready.py), the match record (``match``: a line per finished deal) and, in a room
with the card counter on, this seat's own counter (never a
spectator's or another seat's: counter.py computes it from this seat's view). It is exactly what msgpack
carries (fresh lists and dicts of plain values, never tuples: ``game.view`` builds them so), so a client
rebuilding the view from a snapshot plus diffs ends with the very same value. (It used to be made so
by a msgpack round trip, which cost more than building the view, for every seat of every change; the
server tests compare rebuilt views with ``==``, which a tuple would fail.)

The story of the deal (story.py) tells the trick (who made each move, its cards as they read) and
adds the deal's finished tricks, the hands left at its end, and what was played in this seat's name
while its player was away. Its moves are maps shared between views and never changed once made.
"""

from __future__ import annotations

from typing import Any

from engine import Game

from . import counter, ready, story
from .autopilot import auto_marks, next_deal_at, takeover_times, unattended

View = dict[str, Any]
EMPTY_VIEW: View = {}


#: the last match record made, and the game it was made of: the views of one change (one per seat) share
#: it instead of each building it again (the game object is the same for all of them)
_last_record: tuple[Game | None, list[dict[str, Any]]] = (None, [])


def match_record(game: Game) -> list[dict[str, Any]]:
    """The match so far, a line per finished deal (as in ``last_result``, without its texts): a result
    screen on auto-play is up for a second, and a won match is told by how it went. Appended to only, so
    a diff carries just the new deal; shared between views, never changed once made."""
    global _last_record
    made_of, record = _last_record
    if made_of is game and len(record) == len(game.results):
        return record
    record = [{"deal": r["deal"], "level": r["level"], "places": list(r["places"]),
               "winner_team": r["winner_team"], "levels_before": list(r["levels_before"]),
               "levels": list(r["levels"]), "match_won": r["match_won"],
               **_points_of(r)} for r in game.results]
    _last_record = (game, record)
    return record


def _points_of(result: dict[str, Any]) -> dict[str, Any]:
    """A deal's score before and after it, in a match scored in points (else nothing)."""
    if "points" not in result:
        return {}
    return {"points_before": list(result["points_before"]), "points": list(result["points"])}


def view_for(room: dict[str, Any], game: Game | None, seat: int | None) -> View:
    """What ``seat`` (None: a spectator) sees of the room's game now; ``{}`` before the game starts."""
    if game is None:
        return {}
    view = game.view(seat)
    live = room["live"]
    deadlines = [None if d is None else round(d, 3) for d in live["deadlines"]]
    pending = view["pending"]
    view["auto"] = auto_marks(room)
    view["takeover"] = takeover_times(room)
    view["paused"] = unattended(room)  # every person gone: the bots wait too, which a watcher must be told
    view["deadlines"] = deadlines
    view["deadline"] = max((deadlines[s] for s in pending if deadlines[s] is not None), default=None)
    view["autoplay"] = None if seat is None else live["autoplay"][seat]
    story.add_to_view(view, room, game, seat)
    view["ready"] = ready.marks(room, view["phase"])
    view["next_deal_at"] = next_deal_at(room, game)
    view["match"] = match_record(game)
    if seat is not None and room["settings"].get("counter"):
        view["counter"] = counter.unseen(view)
    return view
