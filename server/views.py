"""Per-seat views: the ONE place where what a seat may see is decided.

The engine's ``game.view(seat)`` already hides the other hands; this module is the only caller of it
in the server, and it normalizes the view to exactly what msgpack carries (tuples become lists), so a
client rebuilding the view from a snapshot plus diffs ends with the very same value.
"""

from __future__ import annotations

from typing import Any

from .codec import decode, encode

View = dict[str, Any]
EMPTY_VIEW: View = {}


def view_for(game: Any | None, seat: int | None) -> View:
    """``game.view(seat)`` as msgpack sees it; spectators (seat None) get ``game.view(None)``."""
    if game is None:
        return {}
    return decode(encode(game.view(seat)))
