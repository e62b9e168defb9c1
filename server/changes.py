"""Every change to a stored room, as a function of the room dict: it changes the room in place and
returns a ``Change`` (the log record, the result for the ack, the game it built), or raises and leaves
the room as it was. No I/O: the server loads, calls one of these and commits (GameServer.mutate), and
retries on a lost race by calling it again on the fresh room.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from typing import Any, NamedTuple

from engine import Game, IllegalAction

from . import autopilot as ap
from . import ready, rooms, story
from .bots import choose_action, random_action

log = logging.getLogger("guandan.server")

Room = dict[str, Any]


class Change(NamedTuple):
    """What a room mutation did: its log record, the result for the ack, and the game it built."""

    record: dict[str, Any]
    result: dict[str, Any]
    game: Game | None


class NothingToDo(Exception):
    """The step is no longer due (a player or another process acted first): look again."""


class ChangeError(Exception):
    """A request that cannot change the room now (not a room rule or a game rule); ``fields`` as for
    RoomError, what a client words it from."""

    def __init__(self, code: str, message: str, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}


def game_of(room: Room) -> Game:
    game = rooms.load_game(room)
    if room["status"] != "playing" or game is None:
        raise ChangeError("not_started", "the game has not started", {})
    return game


def game_action(room: Room, seat: int, action: dict[str, Any], by: str, game: Game | None = None) -> Change:
    """Apply one game action through the engine (IllegalAction: nothing changes). The turn that
    follows begins now: the pace of bots, auto-play and timers counts from here."""
    if game is None:
        game = game_of(room)
    before = game.pending_seats()
    phase = game.phase
    events = game.apply(seat, action)
    rooms.save_game(room, game)
    ap.stamp(room, game, before, time.time())
    if game.phase != phase and game.phase in ("deal_over", "match_over"):
        log.info("%s code=%s deal=%s result=%s", game.phase.replace("_", " "), room["code"], game.deal,
                 game.last_result)
    logged = game.actions[-1][1]  # the engine's normalized action (interpretation named)
    if by == "human":
        ap.acted(room, seat)
    story.record(room, game, seat, logged, by)
    return Change({"kind": "game", "seat": seat, "action": logged, "by": by}, {"events": events}, game)


def join(room: Room, nickname: str, seat: int | None, token_hash: str, now: float) -> Change:
    """A person takes a seat (rooms.take_seat). A bot's seat taken mid-match passes as it is: hand,
    place, team and level; the log and the table say who replaced whom."""
    seat = rooms.take_seat(room, nickname, seat, token_hash)
    record = {"kind": "room", "type": "join", "seat": seat, "nickname": nickname}
    replaced = room["seats"][seat].get("replaced")
    if ap.halted(room):  # someone to play with again after the server's outage
        ap.unhalt(room, now)
    if replaced is not None:
        record["replaced"] = replaced
        game = rooms.load_game(room)
        if room["status"] == "playing" and game is not None:
            ap.taken_over(room, game, seat, now)
            log.info("%s took over %s code=%s seat=%d deal=%s", nickname, replaced, room["code"], seat,
                     game.deal)
    return Change(record, {"seat": seat}, None)


def lock(room: Room, by_seat: int | None, on: bool) -> Change:
    """The host locks the table (bots keep their seats) or opens it again."""
    rooms.set_locked(room, by_seat, on)
    return Change({"kind": "room", "type": "lock", "on": on}, {}, None)


def start_game(room: Room, by_seat: int | None, connected: list[bool], seed: int, now: float) -> Change:
    """The host starts the match (bots take the seats still empty, if the room says so); seats whose
    player is not connected yet count as gone from now."""
    rooms.check_startable(room, by_seat)
    filled = rooms.fill_with_bots(room)
    settings = room["settings"]
    if settings["seed"] is None:
        settings["seed"] = seed
    done = _begin_match(room, connected, now, "start")
    if filled:
        done.record["bots"] = filled
    return done


def press_ready(room: Room, seat: int, what: str, seed: int, now: float) -> Change:
    """A person's "next deal" (``what`` = "next_deal") or "rematch" ("new_match"): the ready check of
    ready.py. The press that leaves nobody waited for starts the deal (or the match) at once."""
    game = game_of(room)
    phase = "deal_over" if what == "next_deal" else "match_over"
    if game.phase != phase:
        if what == "next_deal":  # the engine says why not (wrong_phase, match_over)
            return game_action(room, seat, {"type": "next_deal"}, "human", game)
        raise ChangeError("match_not_over", "the match is still on: a new one starts once it is won")
    if ready.pressed(room)[seat]:
        raise ChangeError("already_ready", "you are ready already; the table waits for the others",
                          {"waiting": [s for s, ok in enumerate(ready.counted(room, phase)) if not ok]})
    if not ready.press(room, seat, phase):
        return Change({"kind": "live", "type": "ready", "seat": seat, "for": what}, {}, None)
    if what == "next_deal":
        return game_action(room, seat, {"type": "next_deal"}, "human", game)
    return rematch(room, seed, now)


def rematch(room: Room, seed: int, now: float) -> Change:
    """A new match at the same table, seats and settings (new shuffles, both teams at 2); whoever was
    gone, away or left stays so."""
    room["settings"]["seed"] = seed
    live = room["live"]
    kept = {key: live[key] for key in ("gone", "away", "left") if key in live}
    rooms.forget_leavers(room)
    done = _begin_match(room, [True] * 4, now, "new_match")
    room["live"].update(kept)
    return done


def _begin_match(room: Room, connected: list[bool], now: float, kind: str) -> Change:
    settings = room["settings"]
    game = Game.new(settings["seed"], settings["rules"])
    rooms.save_game(room, game)
    room["status"] = "playing"
    live = room["live"] = ap.new_live(now)
    for seat in ap.SEATS:
        if rooms.connected_kind(room, seat) and not connected[seat]:
            live["gone"][seat] = now
    ap.stamp(room, game, [], now)
    story.begin(room, game)
    # "start" in the log marks where a match begins: a replay starts from its seed
    return Change({"kind": "room", "type": "start", "seed": settings["seed"], "by": kind}, {}, game)


def seat_gone(room: Room, seat: int, now: float) -> Change:
    """A seat's last connection closed: the grace period of the dropout takeover starts."""
    live = room["live"]
    if room["status"] != "playing" or not rooms.connected_kind(room, seat) or live["gone"][seat] is not None:
        raise NothingToDo
    live["gone"][seat] = now
    return Change({"kind": "live", "type": "gone", "seat": seat}, {}, None)


def server_gone(room: Room, seats: list[int], since: float, now: float) -> Change:
    """Seats whose connections went with their server process, which stopped or died ``since`` (its
    last heartbeat), all in one change: a drop like any other, unless it leaves the table without any of
    its people; then the room halts from ``since`` (autopilot.halt) until someone is back. One change,
    because a commit arms the room's due step: marked one by one, a timer run out during the outage
    played for the last seat before the room counted as left."""
    gone = []
    for seat in seats:
        with contextlib.suppress(NothingToDo):
            seat_gone(room, seat, now)
            gone.append(seat)
    if not gone:
        raise NothingToDo
    if ap.unattended(room) and not ap.halted(room):
        ap.halt(room, min(since, now))
    return Change({"kind": "live", "type": "gone", "seats": gone}, {}, None)


def outages_made_good(room: Room, outages: list[tuple[float, float]]) -> Change:
    """Redis was down (nobody could act, no timer could play) while the room's clocks ran: they go on
    from where they were when it went (autopilot.make_good), once, by whichever process gets here."""
    passed = [(down, back) for down, back in outages if ap.outage_passed(room, down, back)]
    if not passed:
        raise NothingToDo
    for down, back in passed:
        ap.make_good(room, down, back)
    return Change({"kind": "live", "type": "outage", "seconds": round(sum(b - d for d, b in passed), 3)}, {},
                  None)


def seat_left(room: Room, seat: int, now: float) -> Change:
    """A player pressed Leave mid-match: our bot plays for them at once (waiting out a grace period for
    someone who said they are going would only hold the table up); the seat stays theirs to resume."""
    live = room["live"]
    if room["status"] != "playing" or room["seats"][seat]["kind"] != "human":
        raise NothingToDo
    if live["gone"][seat] is None:
        live["gone"][seat] = now
    live["away"][seat] = True
    ap.left_marks(live)[seat] = True
    return Change({"kind": "live", "type": "left", "seat": seat}, {}, None)


def seat_back(room: Room, seat: int, now: float) -> Change:
    """A player (or AI) is connected again: control returns to them at once."""
    live = room["live"]
    if live["gone"][seat] is None and not live["away"][seat]:
        raise NothingToDo
    _back(room, seat, now)
    live["away"][seat] = False
    return Change({"kind": "live", "type": "back", "seat": seat}, {}, None)


def _back(room: Room, seat: int, now: float) -> None:
    """The seat's connection is back; a table that waited for its people goes on from where it stopped."""
    if ap.halted(room):
        ap.unhalt(room, now)
    elif room["status"] == "playing" and ap.unattended(room):
        ap.resume(room, now)
    room["live"]["gone"][seat] = None
    ap.left_marks(room["live"])[seat] = False


def set_autoplay(room: Room, seat: int, interval: float | None) -> Change:
    if room["status"] != "playing":
        raise ChangeError("not_started", "auto-play is for a game under way")
    room["live"]["autoplay"][seat] = interval
    ap.acted(room, seat)
    return Change({"kind": "live", "type": "autoplay", "seat": seat, "interval": interval},
                  {"autoplay": interval}, None)


#: what our bot decided for a seat, and at which turn (``turn_key``): made before the commit, off the
#: event loop, and used only if the turn is still that one
Decision = tuple[tuple[Any, ...], dict[str, Any]]

#: the steps in which our bot chooses an action for a seat (the others act by rule or change no game)
BOT_STEPS = frozenset({ap.BOT, ap.AWAY, ap.TIMER, ap.AUTOPLAY, ap.AI_FALLBACK})


def decide(room: Room, seat: int) -> Decision | None:
    """Our bot's action for ``seat`` in the room as loaded: the slow part of a bot step, which the
    server runs in a worker thread so a thinking bot (``strong``: tens to hundreds of ms) never holds
    up the event loop. Pure: the room is not changed."""
    game = rooms.load_game(room)
    if game is None or seat not in game.pending_seats():
        return None
    return turn_key(game, seat), choose_action(room, game, seat, _bot_seed(room, game, seat))


def take_step(room: Room, step: ap.Step, connected: bool, now: float,
              decided: Decision | None = None) -> Change:
    """Do ``step`` if it is still what the room's plan says is due now (else NothingToDo); a bot's
    action ``decided`` beforehand is taken if it was decided at this very turn."""
    game = rooms.load_game(room)
    current = ap.plan(room, game)
    if current is None or (current.seat, current.why) != (step.seat, step.why) or current.due > now:
        raise NothingToDo
    seat = step.seat
    if step.why == ap.GRACE:
        live = room["live"]
        if connected:  # the player came back on a connection we had not heard of yet
            _back(room, seat, now)
            return Change({"kind": "live", "type": "back", "seat": seat}, {}, None)
        live["away"][seat] = True
        log.info("seat on auto after the grace period code=%s seat=%d", room["code"], seat)
        return Change({"kind": "live", "type": "away", "seat": seat}, {}, None)
    assert game is not None
    if step.why == ap.NEXT_DEAL:
        return game_action(room, seat, {"type": "next_deal"}, step.why, game)
    if step.why == ap.REMATCH:
        return rematch(room, new_seed(), now)
    change = bot_action(room, game, seat, step.why, decided)
    if step.why == ap.TIMER and ap.timed_out(room, seat):
        log.info("seat on auto-play after %d timeouts in a row code=%s seat=%d", ap.TIMEOUTS_TO_AUTOPLAY,
                 room["code"], seat)
        change.record["autoplay"] = room["live"]["autoplay"][seat]
    return change


def _bot_seed(room: Room, game: Game, seat: int) -> str:
    return f"{room['code']}:{game.deal}:{len(game.played)}:{game.phase}:{seat}"


def bot_action(room: Room, game: Game, seat: int, by: str, decided: Decision | None = None) -> Change:
    """Our bot acts for ``seat``; a bot mistake falls back to a random legal action, never a stall."""
    seed = _bot_seed(room, game, seat)
    if decided is not None and decided[0] == turn_key(game, seat):
        action = decided[1]
    else:
        action = choose_action(room, game, seat, seed)
    try:
        return game_action(room, seat, action, by, game)
    except IllegalAction as exc:
        log.error("bot move refused code=%s seat=%d: %s; playing a random legal move", room["code"], seat,
                  exc)
        return game_action(room, seat, random_action(game, seat, seed), by, game)


def turn_key(game: Game, seat: int) -> tuple[Any, ...]:
    """What must be unchanged for an answer to a question asked at this state to still apply."""
    pending = game.pending_seats()
    return (game.deal, game.phase, seat in pending, game.turn, len(game.played), len(game.trick))


def answer(room: Room, seat: int, secret_hash: str, key: tuple[Any, ...], action: dict[str, Any] | None,
           by: str) -> Change:
    """An external AI's answer to the question asked at ``key``; None: our bot answers instead. Only
    the AI that holds the seat now may answer (a released AI's late answer is dropped)."""
    game = game_of(room)
    try:
        rooms.check_holder(room, seat, secret_hash)
    except rooms.RoomError:
        raise NothingToDo from None
    if turn_key(game, seat) != key:
        raise NothingToDo  # too late: the turn moved on (our bot played it)
    if action is None:
        return bot_action(room, game, seat, by)
    return game_action(room, seat, action, by, game)


def new_seed() -> int:
    """A shuffle nobody can predict or choose: from the OS's secure source, never from a client."""
    return secrets.randbits(62)  # msgpack's integers stop at 64 bits
