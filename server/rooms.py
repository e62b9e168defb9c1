"""Room rules that are not game rules: seats, host, bots, tokens, starting. Pure functions, no I/O.

A room is a plain dict (stored as msgpack, see store.py)::

    {"code", "status": "lobby"|"playing", "host": seat|None, "created": unix time, "locked": bool,
     "seats": [{"kind": "empty"|"human"|"bot"|"ai", "nickname": str|None, "token": sha256 hex|None,
                "replaced": the nickname of the bot a person took the seat from (only then),
                "removed": on an empty lobby seat, the person the host removed from it (only then),
                "left": after a won match, the person who played the seat and left it (only then)}] * 4,
     "settings": {"preset", "rules": Rules.to_dict(), "turn_timer", "return_timer", "grace",
                  "ai_timeout", "bot_delay", "bot", "seed", "fixed_seed", "fill_bots", "auto_next",
                  "counter"},
     "live": autopilot.new_live(...),   # auto-play, dropouts, deadlines (see autopilot.py)
     "game": the engine state without its logs | None}

The game is stored without its event and action logs: the room's Redis Stream is the action log, and
a state that grew with every action would make every action slower. An "ai" seat's token is the hash
of the secret in its ``/game/<secret>`` URL.

Our bots keep seats warm for people: a person joining takes an empty seat, else a bot's (in the lobby
or mid-match, with the bot's hand and place), unless the host ``locked`` the table. Rooms stored before
a key existed lack it: read ``locked``, ``replaced``, ``removed``, ``left`` and ``fill_bots`` with ``.get``.

Every function either changes the room and returns, or raises RoomError and leaves it untouched.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import typing
from typing import Any

from engine import Game
from engine.bots import BOTS
from engine.rules import Rules, preset

from .autopilot import DEFAULT_AI_TIMEOUT, DEFAULT_GRACE, left_marks, new_live
from .protocol import SEATS
from .safelog import clip

_LOGS = ("events", "actions")
# The exact types each rule option may have, from engine/rules.py (a bool is not an int here).
_OPTION_TYPES = {name: typing.get_args(hint) or (hint,)
                 for name, hint in typing.get_type_hints(Rules).items()}
#: the bot that plays bot seats, dropouts and auto-play unless the room chose another (engine.bots.BOTS)
DEFAULT_BOT = "heuristic"


class RoomError(Exception):
    """A request that breaks a room rule: ``code`` for machines, ``message`` for people (English),
    ``fields`` what a client needs to say it in its own language (seats, codes, which action)."""

    def __init__(self, code: str, message: str, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}


#: what a host-only lobby action is called in a refusal's message (its ``action`` field is the key)
HOST_ACTIONS = {"add_bot": "add a bot", "add_ai": "add an AI seat", "remove_bot": "remove a bot",
                "remove_player": "remove a player", "swap": "swap seats", "start": "start the game"}


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
    fill_bots: bool = False,
    auto_next: bool = False,
    counter: bool = False,
    bot: str = DEFAULT_BOT,
) -> dict[str, Any]:
    """Validate the rule preset, options and bot into stored settings (RoomError ``bad_rules``,
    ``bad_bot``)."""
    if bot not in BOTS:
        raise RoomError("bad_bot", f"unknown bot {clip(bot)}: choose one of {', '.join(BOTS)}",
                        {"bots": list(BOTS)})
    try:
        base = preset(preset_name)
    except ValueError as exc:
        raise RoomError("bad_rules", str(exc), {"preset": preset_name}) from None
    defaults = base.to_dict()
    for key, value in options.items():
        if key == "name" or key not in defaults:
            raise RoomError("bad_rules", f"unknown rule option {clip(key)}", {"option": key[:40]})
        types = _OPTION_TYPES[key]
        if type(value) not in types:
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise RoomError("bad_rules", f"rule option {key!r} must be {names}, not {clip(value)}",
                            {"option": key})
    try:
        rules = Rules.from_dict({**defaults, **options})
    except (ValueError, TypeError) as exc:  # a value of the right type the engine refuses
        raise RoomError("bad_rules", str(exc)[:200], {"preset": preset_name}) from None
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
        "fixed_seed": seed is not None,
        "fill_bots": fill_bots,  # the seats still empty when the host starts get bots
        "auto_next": auto_next,  # a timed table deals on when the timer runs out, ready or not
        "counter": counter,  # every seat sees its card counter (记牌器, counter.py)
    }


def new_room(code: str, settings: dict[str, Any]) -> dict[str, Any]:
    now = time.time()
    return {
        "code": code,
        "status": "lobby",
        "host": None,
        "created": now,
        "locked": False,
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
    """Seat a human: the given seat, else the first empty one, else the first bot's. A bot yields its
    seat (and mid-match its hand and place) unless the host locked the table; the first human is host."""
    seats = room["seats"]
    _check_nickname_free(room, nickname)
    if seat is None:
        seat = _open_seat(room)
    elif not _yields(room, seat):
        who = seats[seat]["nickname"] or seats[seat]["kind"]
        locked = " and the host locked the table" if seats[seat]["kind"] == "bot" else ""
        raise RoomError("seat_taken", f"seat {seat} of room {room['code']} is taken by {who}{locked}",
                        {"seat": seat})
    was = seats[seat]
    seats[seat] = {"kind": "human", "nickname": nickname, "token": token_hash}
    back = was.get("left") == nickname  # one who left a won match, back in the seat they gave up
    if was["kind"] == "bot" and not back:
        seats[seat]["replaced"] = was["nickname"]
    if was.get("left") and not back:  # the won match's result names who played it, until the rematch
        seats[seat]["left"] = was["left"]
    if room["host"] is None:
        room["host"] = seat
    return seat


def _check_nickname_free(room: dict[str, Any], nickname: str) -> None:
    """One person, one seat: a nickname already seated here is refused. Someone back on another device
    (no seat token there) was given another seat, on the other team as often as not, with two players of
    one name at the table; told instead, they go back to the browser that holds the seat, or pick a name."""
    wanted = nickname.strip().casefold()
    for i, s in enumerate(room["seats"]):
        if s["kind"] == "human" and (s.get("nickname") or "").strip().casefold() == wanted:
            raise RoomError("nickname_taken", f"{s['nickname']} already has seat {i} of room {room['code']}: "
                            "open the game in the browser that took it, or choose another nickname",
                            {"seat": i, "nickname": s["nickname"]})


def _yields(room: dict[str, Any], seat: int) -> bool:
    """Whether a person may sit in ``seat``: it is empty, or one of our bots keeps it on an open table."""
    kind = room["seats"][seat]["kind"]
    return kind == "empty" or (kind == "bot" and not room.get("locked", False))


def _open_seat(room: dict[str, Any]) -> int:
    seats = range(len(room["seats"]))
    empty = [i for i in seats if room["seats"][i]["kind"] == "empty"]
    open_ = empty or [i for i in seats if _yields(room, i)]
    if not open_:
        why = "; the host locked the table, so bots keep theirs" if bot_seats(room) else ""
        raise RoomError("room_full", f"room {room['code']} has no empty seat{why}; join as a spectator",
                        {"code": room["code"], "locked": bool(why)})
    return open_[0]


def set_locked(room: dict[str, Any], by_seat: int | None, locked: bool) -> None:
    """The host locks the table (bots keep their seats: no newcomer takes them over) or opens it again."""
    if by_seat is None or room["host"] != by_seat:
        raise RoomError("not_host", "only the host may lock or unlock the table", {"action": "lock"})
    room["locked"] = locked


def seat_of_token(room: dict[str, Any], token: str) -> int:
    """The seat whose stored hash matches ``token`` (RoomError ``bad_token`` if none)."""
    digest = hash_token(token)
    found = None
    for i, s in enumerate(room["seats"]):
        if s["kind"] == "human" and s["token"] and hmac.compare_digest(s["token"], digest):
            found = i
    if found is None:
        raise RoomError("bad_token", f"this token holds no seat in room {room['code']}",
                        {"code": room["code"]})
    return found


def holder(room: dict[str, Any], seat: int) -> str | None:
    """Who holds a seat, as a connection proves it: the hash of the person's token or the AI's secret
    (None for a bot or an empty seat). Any change of a seat's occupant changes this."""
    return room["seats"][seat]["token"]


def check_holder(room: dict[str, Any], seat: int | None, token_hash: str | None) -> None:
    """RoomError ``seat_lost`` unless the connection that took ``seat`` with ``token_hash`` still holds
    it: a seat given to someone else must not be played, nor seen, by its previous occupant."""
    if seat is None:
        return
    held = holder(room, seat)
    if token_hash is None or held is None or not hmac.compare_digest(held, token_hash):
        raise RoomError("seat_lost", f"seat {seat} of room {room['code']} is no longer yours",
                        {"seat": seat, "code": room["code"]})


def leave_seat(room: dict[str, Any], seat: int) -> None:
    """In the lobby a leaving human frees the seat (the host role moves to another human)."""
    if room["status"] != "lobby":
        raise RoomError("already_started", "a started game keeps your seat; resume with your token",
                        {"action": "leave"})
    room["seats"][seat] = _empty_seat()
    if room["host"] == seat:
        humans = [i for i, s in enumerate(room["seats"]) if s["kind"] == "human"]
        room["host"] = humans[0] if humans else None


def sit(room: dict[str, Any], seat: int, to: int) -> None:
    """A person moves to another lobby seat: an empty one, or a bot's, whose bot takes the seat left (so
    friends choose their partners). Their token goes with them; so does the host role."""
    if room["status"] != "lobby":
        raise RoomError("already_started", "seats are chosen before the game starts", {"action": "sit"})
    if room["seats"][to]["kind"] not in ("empty", "bot"):
        raise RoomError("seat_taken", f"seat {to} is taken", {"seat": to})
    _exchange(room, seat, to)


def swap(room: dict[str, Any], by_seat: int | None, a: int, b: int) -> None:
    """The host exchanges two lobby seats' occupants (people, bots, empty seats): a full table chooses
    partners. A seat kept for an external AI stays where its secret URL points."""
    _host_in_lobby(room, by_seat, "swap")
    for seat in (a, b):
        if room["seats"][seat]["kind"] == "ai":
            raise RoomError("seat_taken", f"seat {seat} is kept for an external AI", {"seat": seat})
    _exchange(room, a, b)


def _exchange(room: dict[str, Any], a: int, b: int) -> None:
    """Seats ``a`` and ``b`` change occupants: people take their tokens along (their connections follow
    them, ``holder_seat``), a bot is the bot of its new seat, and the host role goes with its person."""
    seats = room["seats"]

    def moved(seat: dict[str, Any], to: int) -> dict[str, Any]:
        if seat["kind"] == "bot":
            return bot_seat(to)
        # "replaced" named the old seat's bot, "removed" the old seat's person
        return {k: v for k, v in seat.items() if k not in ("replaced", "removed")}

    seats[a], seats[b] = moved(seats[b], a), moved(seats[a], b)
    if room["host"] in (a, b):
        room["host"] = b if room["host"] == a else a


def holder_seat(room: dict[str, Any], token_hash: str | None) -> int | None:
    """The seat a person's token holds now (None: none); a lobby ``sit`` or ``swap`` moves it."""
    if token_hash is None:
        return None
    for i, s in enumerate(room["seats"]):
        if s["kind"] == "human" and s["token"] and hmac.compare_digest(s["token"], token_hash):
            return i
    return None


def leave_finished_match(room: dict[str, Any], seat: int) -> None:
    """A person who leaves once the match is won gives the seat up (their page forgets it): a bot takes
    it, as in a seat left empty at the start, and a newcomer may take it from the bot for the rematch;
    the host role moves to another person. Kept for them, it stood at the rematch as a seat "away" that
    nobody could take, not even its own player under the same name."""
    if room["status"] != "playing" or (room.get("game") or {}).get("phase") != "match_over":
        raise RoomError("match_not_over", "the seat is given up on leaving only once the match is over",
                        {"action": "leave"})
    # the won match's result still names who played the seat, and the others read that they left
    room["seats"][seat] = {**bot_seat(seat), "left": room["seats"][seat]["nickname"]}
    live = room["live"]
    for key, cleared in (("gone", None), ("away", False), ("autoplay", None)):
        live[key][seat] = cleared
    left_marks(live)[seat] = False
    # the others asked for a rematch with this player: the table changed, they ask again (else one who
    # had pressed was dealt a new match at once, a bot in the friend's place, nothing said)
    live["ready"] = [False] * len(room["seats"])
    if room["host"] == seat:
        humans = [i for i, s in enumerate(room["seats"]) if s["kind"] == "human"]
        room["host"] = humans[0] if humans else None


def _host_in_lobby(room: dict[str, Any], by_seat: int | None, action: str) -> None:
    what = HOST_ACTIONS[action]
    if by_seat is None or room["host"] != by_seat:
        raise RoomError("not_host", f"only the host may {what}", {"action": action})
    if room["status"] != "lobby":
        raise RoomError("already_started", f"cannot {what} once the game has started", {"action": action})


def bot_seat(seat: int) -> dict[str, Any]:
    return {"kind": "bot", "nickname": f"Bot {seat + 1}", "token": None}


def ai_seat(seat: int, secret_hash: str) -> dict[str, Any]:
    return {"kind": "ai", "nickname": f"AI {seat + 1}", "token": secret_hash}


def add_bot(room: dict[str, Any], by_seat: int | None, seat: int) -> None:
    _host_in_lobby(room, by_seat, "add_bot")
    if room["seats"][seat]["kind"] != "empty":
        raise RoomError("seat_taken", f"seat {seat} is not empty", {"seat": seat})
    room["seats"][seat] = bot_seat(seat)


def add_ai(room: dict[str, Any], by_seat: int | None, seat: int, secret_hash: str) -> None:
    """Mark an empty seat for an external AI that will connect at its secret URL."""
    _host_in_lobby(room, by_seat, "add_ai")
    if room["seats"][seat]["kind"] != "empty":
        raise RoomError("seat_taken", f"seat {seat} is not empty", {"seat": seat})
    room["seats"][seat] = ai_seat(seat, secret_hash)


def remove_bot(room: dict[str, Any], by_seat: int | None, seat: int) -> None:
    """Empty a seat held by one of our bots or by an external AI."""
    _host_in_lobby(room, by_seat, "remove_bot")
    if room["seats"][seat]["kind"] not in ("bot", "ai"):
        raise RoomError("not_a_bot", f"seat {seat} has no bot", {"seat": seat})
    room["seats"][seat] = _empty_seat()


def remove_player(room: dict[str, Any], by_seat: int | None, seat: int) -> None:
    """Empty a seat another person holds in the lobby; its connection loses it (``seat_lost``)."""
    _host_in_lobby(room, by_seat, "remove_player")
    if room["seats"][seat]["kind"] != "human" or seat == by_seat:
        why = "is yours: leave to give it up" if seat == by_seat else "holds no other person"
        raise RoomError("not_a_player", f"seat {seat} {why}", {"seat": seat})
    # the others see why the seat emptied (one who leaves lets go of it; this one was let go)
    room["seats"][seat] = {**_empty_seat(), "removed": room["seats"][seat]["nickname"]}


def removed_by_host(room: dict[str, Any], seat: int | None) -> bool:
    """Whether a seat that changed hands was emptied by the host (in the lobby nothing else empties a
    seat its player still holds: one who leaves lets go of it first)."""
    return seat is not None and room["status"] == "lobby" and room["seats"][seat]["kind"] == "empty"


def check_startable(room: dict[str, Any], by_seat: int | None) -> None:
    _host_in_lobby(room, by_seat, "start")
    empty = [i for i, s in enumerate(room["seats"]) if s["kind"] == "empty"]
    if empty and not room["settings"].get("fill_bots", False):
        raise RoomError("seats_empty", f"seats {empty} are empty: add bots or wait for players",
                        {"seats": empty})


def fill_with_bots(room: dict[str, Any]) -> list[int]:
    """At the start, when the room asks for it, bots take the seats nobody took (people may still
    take them over). Returns the seats filled."""
    if not room["settings"].get("fill_bots", False):
        return []
    empty = [i for i, s in enumerate(room["seats"]) if s["kind"] == "empty"]
    for i in empty:
        room["seats"][i] = bot_seat(i)
    return empty


def forget_leavers(room: dict[str, Any]) -> None:
    """A new match begins: the seats of people who left the last one are plain bots' seats again."""
    for seat in room["seats"]:
        seat.pop("left", None)


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
        "locked": room.get("locked", False),
        "seats": [{"kind": s["kind"], "nickname": s["nickname"], "replaced": s.get("replaced"),
                   "removed": s.get("removed"), "left": s.get("left")} for s in room["seats"]],
        "settings": {
            "preset": settings["preset"],
            "rules": settings["rules"],
            "turn_timer": settings["turn_timer"],
            "return_timer": settings.get("return_timer"),
            "grace": settings.get("grace"),
            "ai_timeout": settings.get("ai_timeout"),
            "bot_delay": settings["bot_delay"],
            # the host chose the shuffle: a test or replay table, never a fair one
            "fixed_seed": settings.get("fixed_seed", False),
            "fill_bots": settings.get("fill_bots", False),
            "auto_next": settings.get("auto_next", False),
            "counter": settings.get("counter", False),
            "bot": settings.get("bot", DEFAULT_BOT),
        },
    }
