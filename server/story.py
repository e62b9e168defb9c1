"""The story of a deal as the table tells it: every play and pass in order, each laid out as it reads
and marked with who made it, the cards left in each hand once the deal is over, and for a player who
was away what our bot (or the turn timer) did in their name meanwhile.

The engine keeps only the current trick, and the room's Redis Stream (the action log) is not read to
build views, so the room keeps this story itself, in ``room["story"]``::

    {"deal": the deal the moves belong to,
     "moves": [row, ...],                           # this deal's plays and passes (reset each deal)
     "returns": [row, ...],                         # this deal's returned tribute cards (reset each deal)
     "stood_in": [{"n": int, "moves": [[deal, level, *row], ...]}] * 4}   # per seat, since it last acted

A row is a short list of ints, ``[seat, by]`` for a pass, ``[seat, by, kind, value, lead, *cards]``
for a play and ``[seat, by, -1, card, to]`` for a returned tribute card (``by`` and ``kind`` index
``BY`` and ``engine.KINDS``). The room is encoded on every commit and decoded on every notice, and
ints cost a fraction of what maps with string keys cost there.

Views carry the moves as maps (docs/protocol.md): ``{"seat", "type": "play", "kind", "value",
"cards", "by"}`` with the cards in reading order (engine.lay_out) and ``"as"`` (the rank each card
stands for) when a wild card is among them; a pass is ``{"seat", "type": "pass", "by"}``. The view's
``trick`` is the engine's told so, and ``history`` holds the deal's finished tricks: an action appends
one move to ``trick``, and a trick that ends moves whole to ``history``, once. A room's maps are made
once and shared by every seat's view and by the views of later versions (``told``), so a diff finds
them unchanged by identity. Pure functions over the room, no I/O: ``changes.game_action`` records,
``views.view_for`` reads.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine import KINDS, Game, lay_out

from .autopilot import AI_FALLBACK, AUTOPLAY, AWAY, BOT, NEXT_DEAL, TIMER

Room = dict[str, Any]
Entry = dict[str, Any]
Row = list[int]

#: who made a move, as the action log says it; a row holds the index
BY = ("human", BOT, TIMER, AUTOPLAY, AWAY, "ai", AI_FALLBACK, NEXT_DEAL)
RETURN = -1
#: how many moves made in a player's name are kept for the summary (the count goes on)
KEEP_STOOD_IN = 30
_OVER = ("deal_over", "match_over")
_CACHED_ROOMS = 4096  # rooms whose told moves are kept (the views of rooms with players here)


def _new_story(deal: int, stood_in: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"deal": deal, "moves": [], "returns": [],
            "stood_in": stood_in or [{"n": 0, "moves": []} for _ in range(4)]}


def begin(room: Room, game: Game) -> None:
    """A match begins: a new story; what was played for someone who is still away is kept."""
    old = room.get("story")
    room["story"] = _new_story(game.deal, old["stood_in"] if old else None)


def record(room: Room, game: Game, seat: int, action: dict[str, Any], by: str) -> None:
    """Note one applied action (the engine's normalized ``action``, after ``game.apply``)."""
    story = room.get("story") or _new_story(game.deal)
    room["story"] = story
    if story["deal"] != game.deal:  # next_deal (whoever started it) begins the new deal's story
        story["deal"], story["moves"], story["returns"] = game.deal, [], []
    row = _row(game, seat, action, BY.index(by))
    if row is not None and action["type"] == "return":
        story.setdefault("returns", []).append(row)  # rooms stored before returns were kept: none yet
    elif row is not None:
        story["moves"].append(row)
    box = story["stood_in"][seat]
    if by == "human":  # the player is at the table again and has seen their hand
        if box["n"]:
            story["stood_in"][seat] = {"n": 0, "moves": []}
    elif row is not None and (by == AWAY or (by == TIMER and room["live"]["gone"][seat] is not None)):
        box["n"] += 1
        box["moves"].append([game.deal, game.level, *row])
        del box["moves"][:-KEEP_STOOD_IN]


def _row(game: Game, seat: int, action: dict[str, Any], by: int) -> Row | None:
    kind = action["type"]
    if kind == "pass":
        return [seat, by]
    if kind == "return":
        to = next(r["to"] for r in reversed(game.tribute["returns"]) if r["from"] == seat)
        return [seat, by, RETURN, action["card"], to]
    if kind != "play":
        return None
    lead = int(len(game.trick) == 1 and game.trick[0]["seat"] == seat)
    return [seat, by, KINDS.index(action["kind"]), action["value"], lead, *action["cards"]]


def entry(row: Row, level: int) -> Entry:
    """A row as the view shows it (see the module's docstring)."""
    seat, by = row[0], BY[row[1]]
    if len(row) == 2:
        return {"seat": seat, "type": "pass", "by": by}
    if row[2] == RETURN:
        return {"seat": seat, "type": "return", "card": row[3], "to": row[4], "by": by}
    kind, value = KINDS[row[2]], row[3]
    cards, ranks = lay_out(kind, value, row[5:], level)
    shown: Entry = {"seat": seat, "type": "play", "kind": kind, "value": value, "cards": cards, "by": by}
    if (level - 2) * 4 + 1 in cards:  # a wild card: say what each card stands for
        shown["as"] = ranks
    return shown


@dataclass(frozen=True, slots=True)
class Told:
    """What a room's views show of its rows; its lists are never changed, only replaced, so views
    of later versions (and every seat's) share them and a diff finds them unchanged by identity."""

    level: int
    rows: list[Row]
    tricks: list[list[Entry]]  # the tricks before the last lead
    last: list[Entry]  # the moves since the last lead (the trick under way, or just won)


#: room code -> what its views show of its rows, shared between views
_TOLD: OrderedDict[str, Told] = OrderedDict()


def told(room: Room, game: Game) -> Told:
    """The deal's moves as maps in tricks; maps are made once per row, from the room's cached story."""
    story = room.get("story")
    rows = story["moves"] if story and story["deal"] == game.deal else []
    code = room.get("code", "")
    seen = _TOLD.get(code)
    if seen is None or seen.level != game.level or rows[:len(seen.rows)] != seen.rows:
        seen = Told(game.level, [], [], [])
    if len(rows) > len(seen.rows):
        tricks, last = seen.tricks, seen.last
        for row in rows[len(seen.rows):]:
            move = entry(row, game.level)
            if len(row) > 2 and row[4] and last:  # a lead: the trick before it is over
                tricks, last = [*tricks, last], [move]
            else:
                last = [*last, move]
        seen = Told(game.level, list(rows), tricks, last)
    _TOLD[code] = seen
    _TOLD.move_to_end(code)
    if len(_TOLD) > _CACHED_ROOMS:
        _TOLD.popitem(last=False)
    return seen


def add_to_view(view: dict[str, Any], room: Room, game: Game, seat: int | None) -> None:
    """The story's part of ``seat``'s view: ``trick`` told (who made each move, its cards as read),
    ``history`` and ``leftover`` (public at the table), and ``in_your_name`` (the seat's own, never
    another seat's or a spectator's)."""
    story = room.get("story")
    moves = told(room, game)
    under_way = len(view["trick"])
    if under_way and under_way == len(moves.last):
        view["trick"] = moves.last
        view["history"] = moves.tricks
    else:  # the trick just won is history (or a room's story began mid-deal: the engine's trick stays)
        view["history"] = [*moves.tricks, moves.last] if moves.last and not under_way else moves.tricks
    view["leftover"] = [game.hand(s) for s in range(4)] if game.phase in _OVER else None
    tribute = view.get("tribute")
    if tribute and tribute.get("returns") and story and story["deal"] == game.deal:
        # who returned each card: the timer or our bot, as for plays (the player was told of neither)
        made = {(row[0], row[3]): BY[row[1]] for row in story.get("returns", ())}
        for r in tribute["returns"]:
            r["by"] = made.get((r["from"], r["card"]), "human")
    box = story["stood_in"][seat] if story and seat is not None else None
    view["in_your_name"] = None if not box or not box["n"] else {
        "n": box["n"], "moves": [{**entry(m[2:], m[1]), "deal": m[0]} for m in box["moves"]]}


__all__ = ["begin", "record", "told", "add_to_view", "entry", "Told", "BY", "KEEP_STOOD_IN"]
