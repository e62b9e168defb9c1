"""The story of a deal as the table tells it: every play and pass in order, each laid out as it reads
and marked with who made it, the cards left in each hand once the deal is over, and for a player who
was away what our bot (or the turn timer) did in their name meanwhile.

The engine keeps only the current trick, and the room's Redis Stream (the action log) is not read to
build views, so the room keeps this story itself, in ``room["story"]``::

    {"deal": the deal the moves belong to,
     "moves": [row, ...],                           # this deal's plays and passes (reset each deal)
     "stood_in": [{"n": int, "moves": [[deal, level, *row], ...]}] * 4}   # per seat, since it last acted

A row is a short list of ints, ``[seat, by]`` for a pass, ``[seat, by, kind, value, lead, *cards]``
for a play and ``[seat, by, -1, card, to]`` for a returned tribute card (``by`` and ``kind`` index
``BY`` and ``engine.KINDS``). The room is encoded on every commit and decoded on every notice, and
ints cost a fraction of what maps with string keys cost there.

Views carry the moves as maps (docs/protocol.md): ``{"seat", "type": "play", "kind", "value",
"cards", "by"}`` with the cards in reading order (engine.lay_out), ``"as"`` (the rank each card stands
for) when a wild card is among them, and ``"lead": true`` on the play that opens a trick; a pass is
``{"seat", "type": "pass", "by"}``. A room's maps are made once and shared by every seat's view and by
the views of later versions (``_HISTORIES``), so a view's history diff appends one map per action
and finds the rest unchanged by identity. Pure functions over the room, no I/O:
``changes.game_action`` records, ``views.view_for`` reads.
"""

from __future__ import annotations

from collections import OrderedDict
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
_CACHED_ROOMS = 4096
#: room code -> (level, the rows seen, their maps): the history maps shared between views
_HISTORIES: OrderedDict[str, tuple[int, list[Row], list[Entry]]] = OrderedDict()


def _new_story(deal: int, stood_in: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"deal": deal, "moves": [], "stood_in": stood_in or [{"n": 0, "moves": []} for _ in range(4)]}


def begin(room: Room, game: Game) -> None:
    """A match begins: a new story; what was played for someone who is still away is kept."""
    old = room.get("story")
    room["story"] = _new_story(game.deal, old["stood_in"] if old else None)


def record(room: Room, game: Game, seat: int, action: dict[str, Any], by: str) -> None:
    """Note one applied action (the engine's normalized ``action``, after ``game.apply``)."""
    story = room.get("story") or _new_story(game.deal)
    room["story"] = story
    if story["deal"] != game.deal:  # next_deal (whoever started it) begins the new deal's story
        story["deal"], story["moves"] = game.deal, []
    row = _row(game, seat, action, BY.index(by))
    if row is not None and action["type"] != "return":
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
    if row[4]:
        shown["lead"] = True
    return shown


def history(room: Room, game: Game) -> list[Entry]:
    """The deal's moves as maps, made once per row: the maps of rows seen before are reused."""
    story = room.get("story")
    if not story or story["deal"] != game.deal:
        return []
    rows = story["moves"]
    code = room.get("code", "")
    seen = _HISTORIES.get(code)
    if seen is not None and seen[0] == game.level and rows[:len(seen[1])] == seen[1]:
        entries = seen[2] if len(rows) == len(seen[1]) else seen[2] + [entry(r, game.level)
                                                                      for r in rows[len(seen[1]):]]
    else:
        entries = [entry(r, game.level) for r in rows]
    _HISTORIES[code] = (game.level, list(rows), entries)
    _HISTORIES.move_to_end(code)
    if len(_HISTORIES) > _CACHED_ROOMS:
        _HISTORIES.popitem(last=False)
    return list(entries)  # the view's own list: the cached one is never handed out


def add_to_view(view: dict[str, Any], room: Room, game: Game, seat: int | None) -> None:
    """The story's part of ``seat``'s view: ``history`` and ``leftover`` (public at the table), and
    ``in_your_name`` (the seat's own, never another seat's or a spectator's)."""
    story = room.get("story")
    view["history"] = history(room, game)
    view["leftover"] = [game.hand(s) for s in range(4)] if game.phase in _OVER else None
    box = story["stood_in"][seat] if story and seat is not None else None
    view["in_your_name"] = None if not box or not box["n"] else {
        "n": box["n"], "moves": [{**entry(m[2:], m[1]), "deal": m[0]} for m in box["moves"]]}


__all__ = ["begin", "record", "history", "add_to_view", "entry", "BY", "KEEP_STOOD_IN"]
