"""Every WebSocket message as a pydantic v2 model, in two discriminated unions on ``type``.

Frames are msgpack maps (see codec.py). Client messages carry a client-chosen ``id`` that the
server echoes in the matching ``ack`` or ``error``. docs/protocol.md documents each model here;
tests/server/test_srv_protocol_doc.py checks that every example there validates against this file.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from .autopilot import AUTO_INTERVALS, DEFAULT_AI_TIMEOUT, DEFAULT_GRACE

PROTOCOL_VERSION = 1
SEATS = 4
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 6

# Unicode categories a nickname may not hold: controls (newlines, tabs), format characters (zero-width
# spaces and joiners, bidi overrides and isolates), line and paragraph separators, surrogates and
# private use. Shown to the table and logged, they would forge lines, hide or reverse text.
REFUSED_IN_NICKNAMES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})


def _visible(name: str) -> str:
    for ch in name:
        if unicodedata.category(ch) in REFUSED_IN_NICKNAMES:
            raise ValueError(f"must not hold U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed')}): no "
                             "control, zero-width, bidi or line separator characters")
    if not name.strip():
        raise ValueError("must show something besides spaces")
    return name


MsgId = Annotated[int, Field(ge=0, lt=2**53)] | Annotated[str, Field(min_length=1, max_length=64)]
Seat = Annotated[int, Field(ge=0, lt=SEATS)]
Nickname = Annotated[str, Field(min_length=1, max_length=24), AfterValidator(_visible)]
RoomCode = Annotated[str, Field(min_length=CODE_LENGTH, max_length=CODE_LENGTH)]
CardCode = Annotated[int, Field(ge=0, le=53)]


class _Msg(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class _ClientMsg(_Msg):
    id: MsgId


# ---- client -> server ---------------------------------------------------------------------------


class Hello(_ClientMsg):
    """First message on a connection: the client's protocol version."""

    type: Literal["hello"]
    protocol: int
    client: str | None = Field(default=None, max_length=64)


class Create(_ClientMsg):
    """Create a room and take a seat in it as host."""

    type: Literal["create"]
    nickname: Nickname
    preset: str = Field(default="standard", max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    bots: list[Seat] = Field(default_factory=list, max_length=3)
    fill_bots: bool = False  # bots take the seats still empty at the start (people may take them over)
    ai: list[Seat] = Field(default_factory=list, max_length=3)
    seat: Seat | None = None
    turn_timer: float | None = Field(default=None, gt=0, le=600)
    return_timer: float | None = Field(default=None, gt=0, le=600)
    grace: float = Field(default=DEFAULT_GRACE, ge=0, le=600)
    ai_timeout: float = Field(default=DEFAULT_AI_TIMEOUT, gt=0, le=120)
    bot_delay: float = Field(default=1.0, ge=0, le=10)
    bot: str = Field(default="heuristic", max_length=32)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    auto_next: bool = False  # a timed table starts the next deal when its timer runs out, ready or not
    counter: bool = False  # the card counter (记牌器): each seat sees how many of each rank it has not seen

    @field_validator("bots", "ai")
    @classmethod
    def _distinct(cls, seats: list[int]) -> list[int]:
        if len(set(seats)) != len(seats):
            raise ValueError("seats must be distinct")
        return seats


class Join(_ClientMsg):
    """Join a room by code: a seat (given or the first empty one), or as a spectator."""

    type: Literal["join"]
    code: RoomCode
    nickname: Nickname
    seat: Seat | None = None
    spectator: bool = False


class Resume(_ClientMsg):
    """Take back one's seat with the seat token from the join's ack."""

    type: Literal["resume"]
    code: RoomCode
    token: str = Field(min_length=1, max_length=128)


class Leave(_ClientMsg):
    type: Literal["leave"]


class AddBot(_ClientMsg):
    type: Literal["add_bot"]
    seat: Seat


class RemoveBot(_ClientMsg):
    """Empty a seat held by a bot or an external AI."""

    type: Literal["remove_bot"]
    seat: Seat


class Sit(_ClientMsg):
    """Move to another seat in the lobby (to sit with one's partner): an empty one, or a bot's (the bot
    takes the seat left)."""

    type: Literal["sit"]
    seat: Seat


class Swap(_ClientMsg):
    """The host exchanges the occupants of two lobby seats (a full table choosing partners)."""

    type: Literal["swap"]
    seats: Annotated[list[Seat], Field(min_length=2, max_length=2)]

    @field_validator("seats")
    @classmethod
    def _two_seats(cls, seats: list[int]) -> list[int]:
        if seats[0] == seats[1]:
            raise ValueError("two different seats")
        return seats


class RemovePlayer(_ClientMsg):
    """Empty a seat another person took in the lobby (someone who came in by mistake, or never plays)."""

    type: Literal["remove_player"]
    seat: Seat


class AddAi(_ClientMsg):
    """Reserve a seat for an external AI speaking the 2020 competition protocol (host, lobby)."""

    type: Literal["add_ai"]
    seat: Seat


class Lock(_ClientMsg):
    """The host locks the table (bots keep their seats: no newcomer takes them over) or opens it again."""

    type: Literal["lock"]
    on: bool


class Auto(_ClientMsg):
    """Auto-play (托管) on or off: the server plays the suggestion for this seat every ``interval`` s."""

    type: Literal["auto"]
    on: bool
    interval: float = 1.0

    @field_validator("interval")
    @classmethod
    def _known_interval(cls, interval: float) -> float:
        if interval not in AUTO_INTERVALS:
            raise ValueError(f"interval must be one of {', '.join(f'{i:g}' for i in AUTO_INTERVALS)}")
        return interval


class Start(_ClientMsg):
    type: Literal["start"]


class Play(_ClientMsg):
    """Play physical cards; ``kind``/``value`` name one interpretation when there are several."""

    type: Literal["play"]
    cards: list[CardCode] = Field(min_length=1, max_length=27)
    kind: str | None = Field(default=None, max_length=32)
    value: int | None = None


class Pass(_ClientMsg):
    type: Literal["pass"]


class Return(_ClientMsg):
    type: Literal["return"]
    card: CardCode


class Suggest(_ClientMsg):
    """The heuristic's advice; ``skip`` n > 0 asks for the n-th other play that beats the table."""

    type: Literal["suggest"]
    skip: int = Field(default=0, ge=0, le=10_000)


class Readings(_ClientMsg):
    """The ways these cards may be played now (RULES.md §3), so the client can offer a choice."""

    type: Literal["readings"]
    cards: list[CardCode] = Field(min_length=1, max_length=27)


#: how many quick phrases there are (chat.py; the clients' lists have this many, in this order)
PHRASES = 10


class Say(_ClientMsg):
    """A quick phrase to the table (chat.py): its number, the words are the clients'."""

    type: Literal["say"]
    phrase: int = Field(ge=0, lt=PHRASES)


class NextDeal(_ClientMsg):
    type: Literal["next_deal"]


class NewMatch(_ClientMsg):
    """After a won match, the host starts a new one at the same table."""

    type: Literal["new_match"]


class Resync(_ClientMsg):
    """Ask for a fresh snapshot (after a version gap)."""

    type: Literal["resync"]


CLIENT_MODELS: tuple[type[_ClientMsg], ...] = (
    Hello, Create, Join, Resume, Leave, Sit, Swap, AddBot, RemoveBot, RemovePlayer, AddAi, Lock, Start,
    Play, Pass, Return, Suggest, Readings, NextDeal, NewMatch, Auto, Resync, Say,
)
ClientMessage = Annotated[Union[CLIENT_MODELS], Field(discriminator="type")]  # noqa: UP007
CLIENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
CLIENT_TYPES = tuple(get_args(m.model_fields["type"].annotation)[0] for m in CLIENT_MODELS)
GAME_ACTIONS = {"play", "pass", "return", "next_deal"}


# ---- server -> client ---------------------------------------------------------------------------


class Welcome(_Msg):
    """The answer to hello; ``time`` (unix seconds) lets a client with a wrong clock show deadlines right."""

    type: Literal["welcome"] = "welcome"
    id: MsgId
    protocol: int = PROTOCOL_VERSION
    server: str
    time: float | None = None
    fixed_seeds: bool = False  # this server lets ``create`` fix the shuffle (a test or replay server)
    invite: list[str] = Field(default_factory=list)  # base URLs friends can open, best first (links.py)


class Ack(_Msg):
    type: Literal["ack"] = "ack"
    id: MsgId
    result: dict[str, Any] = Field(default_factory=dict)


class Error(_Msg):
    """A refusal: ``code`` for machines, ``message`` in English (logs, tools), ``fields`` the data a
    client words it from in its own language (cards as codes, plays named, seats, phases)."""

    type: Literal["error"] = "error"
    id: MsgId | None = None
    code: str
    message: str
    fields: dict[str, Any] = Field(default_factory=dict)
    retry_after: float | None = None  # a limit's refusal: seconds until it would be let through


class Snapshot(_Msg):
    """The seat's whole view (``{}`` before the game starts) at ``version``."""

    type: Literal["snapshot"] = "snapshot"
    version: int
    seat: Seat | None
    view: dict[str, Any]


class Diff(_Msg):
    """RFC 6902 ops turning the view at ``base`` into the view at ``version``, each as a tuple
    ``[code, path]`` or ``[code, path, value]``: ``+`` add, ``-`` remove, ``=`` replace (diff.py)."""

    type: Literal["diff"] = "diff"
    base: int
    version: int
    ops: list[list[Any]]


class SeatInfo(_Msg):
    kind: Literal["empty", "human", "bot", "ai"]
    nickname: str | None = None
    replaced: str | None = None  # the bot whose seat this person took over
    removed: str | None = None  # on an empty lobby seat: the person the host removed from it
    left: str | None = None  # after a won match, until the rematch: the person who played the seat and left


class RoomInfo(_Msg):
    type: Literal["room"] = "room"
    code: RoomCode
    status: Literal["lobby", "playing"]
    host: Seat | None
    locked: bool = False
    seats: list[SeatInfo]
    settings: dict[str, Any]


class Presence(_Msg):
    type: Literal["presence"] = "presence"
    connected: list[bool]
    spectators: int = 0  # how many watch the room
    spectator_names: list[str] = Field(default_factory=list)  # the first SPECTATOR_NAMES of them


class Said(_Msg):
    """A quick phrase said at the table (chat.py), to everyone in the room, the speaker included."""

    type: Literal["said"] = "said"
    seat: Seat
    phrase: int


SERVER_MODELS: tuple[type[_Msg], ...] = (Welcome, Ack, Error, Snapshot, Diff, RoomInfo, Presence, Said)
ServerMessage = Annotated[Union[SERVER_MODELS], Field(discriminator="type")]  # noqa: UP007
SERVER_ADAPTER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def dump(msg: _Msg) -> dict[str, Any]:
    return msg.model_dump()
