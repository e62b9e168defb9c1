"""Room rules that are not game rules: seats, host, bots, tokens, starting. Pure functions, no I/O.

A room is a plain dict (stored as msgpack, see store.py)::

    {"code", "status": "lobby"|"playing", "host": seat|None, "created": unix time,
     "seats": [{"kind": "empty"|"human"|"bot"|"ai", "nickname": str|None, "token": sha256 hex|None}] * 4,
     "settings": {"preset", "rules": Rules.to_dict(), "turn_timer", "return_timer", "grace",
                  "ai_timeout", "bot_delay", "bot", "seed"},
     "live": autopilot.new_live(...),   # auto-play, dropouts, deadlines (see autopilot.py)
     "game": the engine state without its logs | None}

The game is stored without its event and action logs: the room's Redis Stream is the action log, and
a state that grew with every action would make every action slower. An "ai" seat's token is the hash
of the secret in its ``/game/<secret>`` URL.

Every function either changes the room and returns, or raises RoomError and leaves it untouched.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any

from engine import Game
from engine.bots import BOTS
from engine.rules import Rules, preset

from .autopilot import DEFAULT_AI_TIMEOUT, DEFAULT_GRACE, new_live
from .protocol import SEATS

_LOGS = ("events", "actions")
#: the bot that plays bot seats, dropouts and auto-play unless the room chose another (engine.bots.BOTS)
DEFAULT_BOT = "heuristic"


class RoomError(Exception):
    """A request that breaks a room rule: ``code`` for machines, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _empty_seat() -> dict[str, Any]:
    return {"kind": "empty", "nickname": None, "token": None}


def make_settings(
    preset_name: str,
    options: dict[str, Any],
    turn_timer: float | None,
    bot_delay: float,
    seed: int | None,
    return_timer: float | None = None,
    grace: float = DEFAULT_GRACE,
    ai_timeout: float = DEFAULT_AI_TIMEOUT,
    bot: str = DEFAULT_BOT,
) -> dict[str, Any]:
    """Validate the rule preset, options and bot into stored settings (RoomError ``bad_rules``,
    ``bad_bot``)."""
    if bot not in BOTS:
        raise RoomError("bad_bot", f"unknown bot {bot!r}: choose one of {', '.join(BOTS)}")
    try:
        base = preset(preset_name)
    except ValueError as exc:
        raise RoomError("bad_rules", str(exc)) from None
    defaults = base.to_dict()
    for key, value in options.items():
        if key == "name" or key not in defaults:
            raise RoomError("bad_rules", f"unknown rule option {key!r}")
        default = defaults[key]
        ok = (value is None or isinstance(value, int)) if default is None else type(value) is type(default)
        if not ok:
            raise RoomError("bad_rules", f"rule option {key!r} must be like {default!r}, not {value!r}")
    rules = Rules.from_dict({**defaults, **options})
    return {
        "preset": preset_name,
        "rules": rules.to_dict(),
        "turn_timer": turn_timer,
        "return_timer": return_timer,
        "grace": grace,
        "ai_timeout": ai_timeout,
        "bot_delay": bot_delay,
        "bot": bot,
        "seed": seed,
    }


def new_room(code: str, settings: dict[str, Any]) -> dict[str, Any]:
    now = time.time()
    return {
        "code": code,
        "status": "lobby",
        "host": None,
        "created": now,
        "seats": [_empty_seat() for _ in range(SEATS)],
        "settings": settings,
        "live": new_live(now),
        "game": None,
    }


def save_game(room: dict[str, Any], game: Game) -> None:
    """Store the engine state in the room, without the logs (the Stream keeps the actions)."""
    state = game.to_dict()
    for key in _LOGS:
        state.pop(key, None)
    room["game"] = state


def load_game(room: dict[str, Any]) -> Game | None:
    state = room["game"]
    if state is None:
        return None
    return Game.from_dict({**state, **{k: [] for k in _LOGS if k not in state}})


def take_seat(room: dict[str, Any], nickname: str, seat: int | None, token_hash: str) -> int:
    """Seat a human (the given seat, else the first empty one); the first human becomes host."""
    seats = room["seats"]
    if seat is None:
        free = [i for i, s in enumerate(seats) if s["kind"] == "empty"]
        if not free:
            raise RoomError("room_full", f"room {room['code']} has no empty seat; join as a spectator")
        seat = free[0]
    elif seats[seat]["kind"] != "empty":
        who = seats[seat]["nickname"] or seats[seat]["kind"]
        raise RoomError("seat_taken", f"seat {seat} of room {room['code']} is taken by {who}")
    seats[seat] = {"kind": "human", "nickname": nickname, "token": token_hash}
    if room["host"] is None:
        room["host"] = seat
    return seat


def seat_of_token(room: dict[str, Any], token: str) -> int:
    """The seat whose stored hash matches ``token`` (RoomError ``bad_token`` if none)."""
    digest = hash_token(token)
    found = None
    for i, s in enumerate(room["seats"]):
        if s["kind"] == "human" and s["token"] and hmac.compare_digest(s["token"], digest):
            found = i
    if found is None:
        raise RoomError("bad_token", f"this token holds no seat in room {room['code']}")
    return found


def leave_seat(room: dict[str, Any], seat: int) -> None:
    """In the lobby a leaving human frees the seat (the host role moves to another human)."""
    if room["status"] != "lobby":
        raise RoomError("already_started", "a started game keeps your seat; resume with your token")
    room["seats"][seat] = _empty_seat()
    if room["host"] == seat:
        humans = [i for i, s in enumerate(room["seats"]) if s["kind"] == "human"]
        room["host"] = humans[0] if humans else None


def _host_in_lobby(room: dict[str, Any], by_seat: int | None, what: str) -> None:
    if by_seat is None or room["host"] != by_seat:
        raise RoomError("not_host", f"only the host may {what}")
    if room["status"] != "lobby":
        raise RoomError("already_started", f"cannot {what} once the game has started")


def bot_seat(seat: int) -> dict[str, Any]:
    return {"kind": "bot", "nickname": f"Bot {seat + 1}", "token": None}


def ai_seat(seat: int, secret_hash: str) -> dict[str, Any]:
    return {"kind": "ai", "nickname": f"AI {seat + 1}", "token": secret_hash}


def add_bot(room: dict[str, Any], by_seat: int | None, seat: int) -> None:
    _host_in_lobby(room, by_seat, "add a bot")
    if room["seats"][seat]["kind"] != "empty":
        raise RoomError("seat_taken", f"seat {seat} is not empty")
    room["seats"][seat] = bot_seat(seat)


def add_ai(room: dict[str, Any], by_seat: int | None, seat: int, secret_hash: str) -> None:
    """Mark an empty seat for an external AI that will connect at its secret URL."""
    _host_in_lobby(room, by_seat, "add an AI seat")
    if room["seats"][seat]["kind"] != "empty":
        raise RoomError("seat_taken", f"seat {seat} is not empty")
    room["seats"][seat] = ai_seat(seat, secret_hash)


def remove_bot(room: dict[str, Any], by_seat: int | None, seat: int) -> None:
    """Empty a seat held by one of our bots or by an external AI."""
    _host_in_lobby(room, by_seat, "remove a bot")
    if room["seats"][seat]["kind"] not in ("bot", "ai"):
        raise RoomError("not_a_bot", f"seat {seat} has no bot")
    room["seats"][seat] = _empty_seat()


def check_startable(room: dict[str, Any], by_seat: int | None) -> None:
    _host_in_lobby(room, by_seat, "start the game")
    empty = [i for i, s in enumerate(room["seats"]) if s["kind"] == "empty"]
    if empty:
        raise RoomError("seats_empty", f"seats {empty} are empty: add bots or wait for players")


def bot_seats(room: dict[str, Any]) -> list[int]:
    return [i for i, s in enumerate(room["seats"]) if s["kind"] == "bot"]


def has_humans(room: dict[str, Any]) -> bool:
    return any(s["kind"] == "human" for s in room["seats"])


def connected_kind(room: dict[str, Any], seat: int) -> bool:
    """Seats whose player connects (people and external AIs), as opposed to our own bots."""
    return room["seats"][seat]["kind"] in ("human", "ai")


def room_info(room: dict[str, Any]) -> dict[str, Any]:
    """What every client may know about the room: never tokens, never cards."""
    settings = room["settings"]
    return {
        "code": room["code"],
        "status": room["status"],
        "host": room["host"],
        "seats": [{"kind": s["kind"], "nickname": s["nickname"]} for s in room["seats"]],
        "settings": {
            "preset": settings["preset"],
            "rules": settings["rules"],
            "turn_timer": settings["turn_timer"],
            "return_timer": settings.get("return_timer"),
            "grace": settings.get("grace"),
            "ai_timeout": settings.get("ai_timeout"),
            "bot_delay": settings["bot_delay"],
            "bot": settings.get("bot", DEFAULT_BOT),
        },
    }
