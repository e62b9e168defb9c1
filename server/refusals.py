"""A refusal's fields as they go on the wire: what a client words the refusal from, in its language.

The engine and the room rules give plain data (cards as codes, plays as ``{kind, value, cards}``,
seats, phases); a play is also named here as players read it, in both languages (``name``,
``name_zh``: "QQQ66", "34567", "一对大王"), as ``readings`` names them, so no client needs the rules
to say which play it was. The English ``message`` stays for logs and tools.
"""

from __future__ import annotations

from typing import Any

from engine import Play
from engine.bots.words import play_name, play_name_zh

PLAY_FIELDS = ("play", "top")  # the fields that hold a play


def wire_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with each play named in both languages (plays are named at the deal's ``level``)."""
    level = fields.get("level")
    if level is None or not any(k in fields for k in PLAY_FIELDS):
        return fields
    out = dict(fields)
    for key in PLAY_FIELDS:
        if isinstance(out.get(key), dict):
            out[key] = named(out[key], level)
    return out


def named(play: dict[str, Any], level: int) -> dict[str, Any]:
    p = Play(play["kind"], play["value"], tuple(play["cards"]))
    return {**play, "name": play_name(p, level), "name_zh": play_name_zh(p, level)}
