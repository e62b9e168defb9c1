"""The ready check between deals and after a won match: who the table still waits for.

One player's "next deal" (or "rematch") must not close the others' result screens: the next deal starts
once every seated person is ready, and a rematch once every seated person asked for it. Our bots and
external AIs never hold the table up, and neither does a player who is away (dropped out past the grace
period: our bot plays for them anyway). Between deals a player on auto-play counts as ready too (the
suggestion at a result is "next deal"); a rematch is a choice nobody makes for a player.

Pure functions over the stored room (``room["live"]["ready"]``: the seats that pressed), so every
server process decides the same; the press itself is ``changes.press_ready`` and the time the
autopilot starts a deal by itself is ``due``.
"""

from __future__ import annotations

from typing import Any

SEATS = range(4)
BETWEEN = ("deal_over", "match_over")  # the phases a ready check belongs to
#: auto-play presses "next deal" no sooner than this after the result (at a 1 s pace the sheet was gone
#: before anyone could read who placed where; the apps leave it up a few seconds)
RESULT_SHOWN = 4.0


def pressed(room: dict[str, Any]) -> list[bool]:
    """The seats that pressed "next deal" / "rematch" since the deal (or match) ended."""
    return room["live"].get("ready") or [False] * 4  # rooms stored before the ready check had none


def counted(room: dict[str, Any], phase: str) -> list[bool]:
    """Per seat: does it count as ready now (pressed, not a person, away; on auto-play between deals)?"""
    live = room["live"]
    done = pressed(room)
    out = []
    for seat in SEATS:
        person = room["seats"][seat]["kind"] == "human"
        auto = phase == "deal_over" and live["autoplay"][seat] is not None
        out.append(not person or done[seat] or live["away"][seat] or auto)
    return out


def marks(room: dict[str, Any], phase: str) -> list[bool] | None:
    """What every seat's view shows (who the table waits for), or None outside a ready check."""
    return counted(room, phase) if phase in BETWEEN else None


def press(room: dict[str, Any], seat: int, phase: str) -> bool:
    """Mark ``seat`` ready (the caller checked the phase and the seat); True if nobody is waited for now."""
    room["live"]["ready"] = [*pressed(room)]
    room["live"]["ready"][seat] = True
    return all(counted(room, phase))


def clear(live: dict[str, Any]) -> None:
    """A deal (or match) began: the next ready check starts from nobody."""
    live["ready"] = [False] * 4


def due(room: dict[str, Any], phase: str, changed: float) -> tuple[float, int] | None:
    """When the next deal (or the rematch) starts by itself, and for which seat, or None (the table waits).

    Nobody presses for a table whose people are all away: it waits for them. A rematch needs at least
    one person to ask for it. Otherwise, once everyone counts as ready, it starts at once, or after the
    shortest auto-play interval of those who only count as ready by their auto-play (at least
    ``RESULT_SHOWN``).
    """
    live = room["live"]
    people = [s for s in SEATS if room["seats"][s]["kind"] == "human"]
    here = [s for s in people if not live["away"][s]]
    done = pressed(room)
    if not here or not all(counted(room, phase)):
        return None
    if phase == "match_over" and not any(done[s] for s in people):
        return None
    auto = [s for s in here if not done[s]]  # here, not pressed, counted: on auto-play
    if auto:
        seat = min(auto, key=lambda s: live["autoplay"][s])
        return changed + max(live["autoplay"][seat], RESULT_SHOWN), seat
    return changed, here[0]
