"""The story of a deal as the table tells it: every play and pass in order, each laid out as it reads
and marked with who made it, the cards left in each hand once the deal is over, and for a player who
was away what our bot (or the turn timer) played in their name meanwhile.

The engine keeps only the current trick, and the room's Redis Stream (the action log) is not read to
build views, so the room keeps this story itself, in ``room["story"]``::

    {"deal": the deal the moves belong to,
     "moves": [entry, ...],            # this deal's plays and passes, in order (reset each deal)
     "stood_in": [{"n": int, "moves": [entry, ...]}] * 4}   # per seat, since its player last acted

A move entry is what the view carries: ``{"seat", "type": "play", "kind", "value", "cards", "by"}``
with the cards in reading order (engine.lay_out), ``"as"`` (the rank each card stands for) when a
wild card is among them, and ``"lead": true`` on the play that opens a trick; a pass is ``{"seat",
"type": "pass", "by"}``. ``by`` is the action log's: human, bot, timer, autoplay, away, ai, ai_fallback.
The moves only grow during a deal, so a view's diff appends one entry per action. Pure functions over
the room, no I/O: ``changes.game_action`` records, ``views.view_for`` reads.
"""

from __future__ import annotations

from typing import Any

from engine import Game, lay_out

from .autopilot import AWAY, TIMER

Room = dict[str, Any]
Entry = dict[str, Any]

#: how many plays made in a player's name are kept for the summary (the count goes on)
KEEP_STOOD_IN = 30
_OVER = ("deal_over", "match_over")


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
    entry = _entry(game, seat, action, by)
    if entry is not None and action["type"] != "return":
        story["moves"].append(entry)
    box = story["stood_in"][seat]
    if by == "human":  # the player is at the table again and has seen their hand
        if box["n"]:
            story["stood_in"][seat] = {"n": 0, "moves": []}
    elif entry is not None and (by == AWAY or (by == TIMER and room["live"]["gone"][seat] is not None)):
        box["n"] += 1
        box["moves"].append({**entry, "deal": game.deal})
        del box["moves"][:-KEEP_STOOD_IN]


def _entry(game: Game, seat: int, action: dict[str, Any], by: str) -> Entry | None:
    kind = action["type"]
    if kind == "pass":
        return {"seat": seat, "type": "pass", "by": by}
    if kind == "return":
        to = next(r["to"] for r in reversed(game.tribute["returns"]) if r["from"] == seat)
        return {"seat": seat, "type": "return", "card": action["card"], "to": to, "by": by}
    if kind != "play":
        return None
    cards, ranks = lay_out(action["kind"], action["value"], action["cards"], game.level)
    entry: Entry = {"seat": seat, "type": "play", "kind": action["kind"], "value": action["value"],
                    "cards": cards, "by": by}
    wild = (game.level - 2) * 4 + 1
    if wild in cards:
        entry["as"] = ranks
    if len(game.trick) == 1 and game.trick[0]["seat"] == seat:
        entry["lead"] = True
    return entry


def add_to_view(view: dict[str, Any], room: Room, game: Game, seat: int | None) -> None:
    """The story's part of ``seat``'s view: ``history`` and ``leftover`` (public at the table), and
    ``in_your_name`` (the seat's own, never another seat's or a spectator's)."""
    story = room.get("story")
    view["history"] = list(story["moves"]) if story and story["deal"] == game.deal else []
    view["leftover"] = [game.hand(s) for s in range(4)] if game.phase in _OVER else None
    box = story["stood_in"][seat] if story and seat is not None else None
    view["in_your_name"] = {"n": box["n"], "moves": list(box["moves"])} if box and box["n"] else None


__all__ = ["begin", "record", "add_to_view", "KEEP_STOOD_IN"]
