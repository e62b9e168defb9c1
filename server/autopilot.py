"""Who acts for a seat when its player does not, and when: bots, auto-play, dropout takeover, timers.

Pure functions over the stored room (no I/O, no clock of their own: ``now`` is passed in), so every
server process computes the same plan from the same version, and the plan can be tested on its own.
The scheduler (scheduler.py) only has to run ``plan(room, game)`` at the time it names.

A room's ``live`` part (see rooms.py) holds what the plan needs besides the game:

- ``changed``: when the room last changed (the pace of bots and auto-play counts from it);
- ``autoplay[seat]``: the interval a player chose for auto-play (托管), or None;
- ``gone[seat]``: since when a human (or AI) seat has had no connection, or None;
- ``away[seat]``: the grace period after ``gone`` ran out: our bot plays for the seat until it returns;
- ``left[seat]``: the player pressed Leave mid-match (away at once, no grace period); rooms stored before
  it have no ``left`` (``left_marks``);
- ``deadlines[seat]``: the turn timer's deadline (unix time) of a seat that owes an action, or None;
- ``ready[seat]``: the seat pressed "next deal" / "rematch" at this result (the ready check, ready.py);
- ``timeouts[seat]``: turn timers in a row that ran out on a connected player (``timed_out``); rooms
  stored before it have none.
- ``halt``: since when the room has stood still because the server went (stopped, or died) with its
  people's connections; None (or absent, in rooms stored before it) otherwise (``halt``);
- ``calm``: the end of the last Redis outage the room's clocks were made good for (``make_good``).

A table whose people have all left (no person and no external AI connected) waits for them: nothing
but the grace periods runs out there, so an empty table costs nothing, and when one of them comes back
the clock goes on where it stopped (``resume``). A table whose people all went with the server itself
(a restart, a crash) waits the same way, and there the grace periods stand still too (``halt``): the
outage is nobody's absence, so when the server is back no one finds a bot in their seat or a turn timer
run out, and those not back yet get their whole grace period from the moment the first one is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine import Game

from . import ready

SEATS = range(4)
AUTO_INTERVALS = (0.3, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0)
DEFAULT_GRACE = 15.0
DEFAULT_AI_TIMEOUT = 10.0
DEFAULT_RETURN_TIMER = 20.0
#: turn timers in a row that put a connected player on auto-play (超时托管, as the apps do): a player who
#: walked away from an open tab held the whole table up for a full timer at each of their turns
TIMEOUTS_TO_AUTOPLAY = 2
TIMEOUT_AUTOPLAY_INTERVAL = 1.0

# Why a step happens; every step but GRACE is an action taken by our bot for the seat.
BOT = "bot"  # a bot seat
AUTOPLAY = "autoplay"  # the player turned auto-play on
AWAY = "away"  # the player dropped out and the grace period is over
TIMER = "timer"  # the turn timer ran out
AI_FALLBACK = "ai_fallback"  # an external AI seat did not answer in time (or is not connected)
GRACE = "grace"  # a dropped player's grace period is over: the seat goes on auto (no action)
NEXT_DEAL = "next_deal"  # everyone counts as ready (ready.py), or a table without people, or auto_next
REMATCH = "rematch"  # after a won match, everyone still at the table asked for a rematch


@dataclass(frozen=True, slots=True)
class Step:
    """The next thing the server does for a room by itself: at ``due`` (unix time), for ``seat``."""

    due: float
    seat: int
    why: str


def new_live(now: float) -> dict[str, Any]:
    return {"changed": now, "autoplay": [None] * 4, "gone": [None] * 4, "away": [False] * 4,
            "left": [False] * 4, "deadlines": [None] * 4, "ready": [False] * 4, "timeouts": [0] * 4}


def left_marks(live: dict[str, Any]) -> list[bool]:
    """``live["left"]``, created for a room stored before players could leave a match on purpose."""
    return live.setdefault("left", [False] * 4)


def _kind(room: dict[str, Any], seat: int) -> str:
    return room["seats"][seat]["kind"]


def _timer_for(settings: dict[str, Any], phase: str) -> float | None:
    if phase == "play":
        return settings.get("turn_timer")
    if phase == "return":
        timer = settings.get("return_timer")
        if timer is None and settings.get("turn_timer"):
            return DEFAULT_RETURN_TIMER
        return timer
    return None


def controller(room: dict[str, Any], seat: int) -> str | None:
    """Who plays ``seat`` right now when it is not its player: BOT, AUTOPLAY, AWAY, or None (the player)."""
    kind = _kind(room, seat)
    if kind == "bot":
        return BOT
    if kind != "human":
        return None
    live = room["live"]
    if live["away"][seat]:
        return AWAY
    if live["autoplay"][seat] is not None:
        return AUTOPLAY
    return None


def timed_out(room: dict[str, Any], seat: int) -> bool:
    """The turn timer ran out on ``seat`` (its bot step is taken): count it, and put the seat on auto-play
    at the ``TIMEOUTS_TO_AUTOPLAY``-th in a row (True then). A dropped player's timeouts are not counted:
    the grace period and the takeover deal with an absence, and the seat is theirs again on return."""
    live = room["live"]
    if live["gone"][seat] is not None or live["autoplay"][seat] is not None:
        return False
    counts = live.setdefault("timeouts", [0] * 4)
    counts[seat] += 1
    if counts[seat] < TIMEOUTS_TO_AUTOPLAY:
        return False
    counts[seat] = 0
    live["autoplay"][seat] = TIMEOUT_AUTOPLAY_INTERVAL
    return True


def acted(room: dict[str, Any], seat: int) -> None:
    """The player acted (or turned auto-play on or off) themselves: the next timeout is the first again."""
    counts = room["live"].get("timeouts")
    if counts:
        counts[seat] = 0


def auto_marks(room: dict[str, Any]) -> list[str | None]:
    """What every seat sees about the others: "dropout" (our bot plays for a dropped player), "left" (for
    one who left the match on purpose), "player" (the player turned auto-play on), or None."""
    marks: list[str | None] = []
    left = room["live"].get("left") or [False] * 4
    for seat in SEATS:
        who = controller(room, seat)
        if who == AWAY:
            marks.append("left" if left[seat] else "dropout")
        else:
            marks.append("player" if who == AUTOPLAY else None)
    return marks


def takeover_times(room: dict[str, Any]) -> list[float | None]:
    """Per seat, when our bot takes over from a player whose connection dropped (the grace period's end,
    unix seconds), while the table waits for them; else None. Friends read "dropped" with no idea how
    long the wait would be."""
    live, grace = room["live"], room["settings"].get("grace", DEFAULT_GRACE)
    if halted(room):
        return [None] * 4  # the grace periods stand still until the server is back
    gone, away = live["gone"], live["away"]
    waiting = [_kind(room, s) == "human" and gone[s] is not None and not away[s] for s in SEATS]
    return [round(gone[s] + grace, 3) if waiting[s] else None for s in SEATS]


def stamp(room: dict[str, Any], game: Game | None, before: list[int], now: float) -> None:
    """After a change: note the time and give every newly pending human seat its turn deadline.

    ``before`` lists the seats that were pending before the change; a tribute receiver still owing its
    return keeps the deadline it had.
    """
    live = room["live"]
    live["changed"] = now
    ready.clear(live)  # a deal that ended, or began, starts its ready check from nobody
    deadlines = live["deadlines"]
    if game is None or room["status"] != "playing":
        live["deadlines"] = [None] * 4
        return
    timer = _timer_for(room["settings"], game.phase)
    pending = set(game.pending_seats()) if game.phase in ("play", "return") else set()
    for seat in SEATS:
        if seat not in pending or timer is None or _kind(room, seat) != "human":
            deadlines[seat] = None
        elif not (game.phase == "return" and seat in before and deadlines[seat] is not None):
            deadlines[seat] = now + timer


def taken_over(room: dict[str, Any], game: Game, seat: int, now: float) -> None:
    """A person took over a bot's seat mid-match: the seat waits for them now, their turn timer (if the
    room has one and the seat owes an action) starting from this moment."""
    timer = _timer_for(room["settings"], game.phase)
    owes = game.phase in ("play", "return") and seat in game.pending_seats()
    room["live"]["deadlines"][seat] = now + timer if owes and timer else None


def unattended(room: dict[str, Any]) -> bool:
    """Whether the table has people and all of them left: no person and no external AI is connected."""
    gone = room["live"]["gone"]
    joining = [s for s in SEATS if _kind(room, s) in ("human", "ai")]
    return any(_kind(room, s) == "human" for s in SEATS) and all(gone[s] is not None for s in joining)


def resume(room: dict[str, Any], now: float) -> None:
    """Someone is back at a table that waited for its people (call it before clearing their ``gone``):
    the time it waited counts neither against the bots' pace nor against anyone's turn timer."""
    live = room["live"]
    left = max(live["gone"][s] for s in SEATS if _kind(room, s) in ("human", "ai"))  # the last one out
    _shift_clocks(live, max(0.0, now - max(left, live["changed"])))


def _shift_clocks(live: dict[str, Any], waited: float, gone_before: float | None = None) -> None:
    """Time that counts for nobody (a table waiting for its people, an outage): the bots' pace and the
    turn timers go on ``waited`` later; so do the grace periods of those gone before ``gone_before``."""
    live["changed"] += waited
    live["deadlines"] = [None if d is None else d + waited for d in live["deadlines"]]
    if gone_before is not None:
        live["gone"] = [g + waited if g is not None and g < gone_before else g for g in live["gone"]]


def halted(room: dict[str, Any]) -> bool:
    return room["live"].get("halt") is not None


def halt(room: dict[str, Any], since: float) -> None:
    """The server went with the last of the table's people (call it once they all count as gone):
    from ``since`` nothing runs out here, grace periods included. Those who went with it count as
    gone from ``since``, so that when the room goes on their grace period starts afresh."""
    live = room["live"]
    since = max(since, live["changed"])  # a move after the last heartbeat: the process was alive then
    live["halt"] = since
    live["gone"] = [None if g is None else min(g, since) for g in live["gone"]]


def unhalt(room: dict[str, Any], now: float) -> None:
    """Someone is back after the server's outage: every clock of the room (the pace of bots, turn
    timers, grace periods) goes on where it stopped, as if the outage had not been."""
    live = room["live"]
    _shift_clocks(live, max(0.0, now - live.pop("halt")), gone_before=math.inf)


def outage_passed(room: dict[str, Any], down: float, back: float) -> bool:
    """Whether the room's clocks were set before a Redis outage (nobody could act from ``down`` to
    ``back``) and are not made good for it yet: nothing has happened in the room since it began."""
    live = room["live"]
    return (room["status"] == "playing" and not halted(room) and live.get("calm", 0.0) < down
            and live["changed"] < down)


def make_good(room: dict[str, Any], down: float, back: float) -> None:
    """A Redis outage cost nobody a move: the room's clocks (turn timers, grace periods, the pace of
    bots) go on as if it had not been; ``calm`` notes the outage as made good (by whichever process)."""
    live = room["live"]
    # one who dropped during the outage (noted once Redis was back) has a whole grace period already
    _shift_clocks(live, max(0.0, back - down), gone_before=down)
    live["calm"] = back


def plan(room: dict[str, Any], game: Game | None) -> Step | None:
    """The earliest thing the server must do for the room by itself, or None (waiting for people)."""
    if room["status"] != "playing" or game is None or halted(room):
        return None
    live = room["live"]
    settings = room["settings"]
    changed = live["changed"]
    steps: list[Step] = []
    for seat in SEATS:  # dropped players go on auto after the grace period, whether or not it is their turn
        if _kind(room, seat) == "human" and live["gone"][seat] is not None and not live["away"][seat]:
            steps.append(Step(live["gone"][seat] + settings.get("grace", DEFAULT_GRACE), seat, GRACE))
    if unattended(room):
        pass  # nobody to play with: no moves, no timers, no next deal until someone is back
    elif game.phase in ready.BETWEEN:
        step = _next_deal_step(room, changed) if game.phase == "deal_over" else _rematch_step(room, changed)
        if step is not None:
            steps.append(step)
    else:
        for seat in game.pending_seats():
            step = _seat_step(room, seat, changed)
            if step is not None:
                steps.append(step)
    return min(steps, key=lambda s: (s.due, s.seat)) if steps else None


def next_deal_at(room: dict[str, Any], game: Game | None) -> float | None:
    """At a deal's result, when the next deal starts by itself (unix seconds), else None: the result
    counts it down (a timed table with ``auto_next`` dealt on while its players were still reading)."""
    if game is None or game.phase != "deal_over" or halted(room) or unattended(room):
        return None
    step = _next_deal_step(room, room["live"]["changed"])
    return None if step is None else round(step.due, 3)


def _next_deal_step(room: dict[str, Any], changed: float) -> Step | None:
    """Who starts the next deal by itself, if anyone: a table without people (bots and AIs); the ready
    check once nobody is waited for (everyone pressed, is away, or is on auto-play: then after its
    interval); a timed table with ``auto_next`` when its turn timer runs out, ready or not. A table
    whose people all left gets here only with an external AI still connected (``plan``): it plays on
    like a table without people (it stood at the result for ever, the AIs waiting)."""
    settings = room["settings"]
    people = [s for s in SEATS if _kind(room, s) == "human"]
    if all(room["live"]["away"][s] for s in people):
        first = next((s for s in SEATS if _kind(room, s) == "bot"), 0)
        return Step(changed + settings["bot_delay"], first, NEXT_DEAL)
    found = ready.due(room, "deal_over", changed)
    if found is not None:
        return Step(found[0], found[1], NEXT_DEAL)
    if settings.get("auto_next") and settings.get("turn_timer"):
        return Step(changed + settings["turn_timer"], people[0], NEXT_DEAL)
    return None


def _rematch_step(room: dict[str, Any], changed: float) -> Step | None:
    """A rematch starts by itself only when those who asked for it are no longer waiting for anyone
    (the others went away after they asked); a pressed button that completes the check starts it at once."""
    found = ready.due(room, "match_over", changed)
    return None if found is None else Step(found[0], found[1], REMATCH)


def _seat_step(room: dict[str, Any], seat: int, changed: float) -> Step | None:
    settings = room["settings"]
    live = room["live"]
    kind = _kind(room, seat)
    if kind == "bot":
        return Step(changed + settings["bot_delay"], seat, BOT)
    if kind == "ai":
        if live["gone"][seat] is not None:  # not connected: our bot plays its turns
            return Step(changed + settings["bot_delay"], seat, AI_FALLBACK)
        return Step(changed + settings.get("ai_timeout", DEFAULT_AI_TIMEOUT), seat, AI_FALLBACK)
    who = controller(room, seat)
    if who == AWAY:
        return Step(changed + settings["bot_delay"], seat, AWAY)
    if who == AUTOPLAY:
        return Step(changed + live["autoplay"][seat], seat, AUTOPLAY)
    deadline = live["deadlines"][seat]
    if deadline is not None:
        return Step(deadline, seat, TIMER)
    return None


__all__ = [
    "Step", "plan", "next_deal_at", "stamp", "new_live", "left_marks", "taken_over", "unattended", "resume",
    "controller", "halted", "halt", "unhalt", "outage_passed", "make_good",
    "auto_marks", "takeover_times", "timed_out", "acted",
    "TIMEOUTS_TO_AUTOPLAY", "TIMEOUT_AUTOPLAY_INTERVAL", "AUTO_INTERVALS",
    "BOT", "AUTOPLAY", "AWAY", "TIMER", "AI_FALLBACK", "GRACE", "NEXT_DEAL", "REMATCH",
    "DEFAULT_GRACE", "DEFAULT_AI_TIMEOUT", "DEFAULT_RETURN_TIMER",
]
