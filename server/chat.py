"""Quick phrases (快捷语): a seated player's canned words to the table, as the Guandan apps have them.

A phrase is a number: the clients hold the words in their languages, so nothing typed by anyone is ever
shown to others (no free text to moderate), and a phrase costs a few bytes. Phrases are not game state:
they are not stored, not in the log, not in views; the room's pub/sub channel carries them to every
process with a connection in the room, and a reload or a late joiner sees none, as a word said at a
table is gone once said. One phrase every ``GAP`` seconds per connection: a bubble needs time to be read.
"""

from __future__ import annotations

from typing import Any

from .changes import ChangeError
from .protocol import PHRASES

#: seconds between two phrases of one connection
GAP = 2.0


class TooSoon(ChangeError):
    """A phrase within ``GAP`` of the connection's last one: refused, with when it would be let through."""

    def __init__(self, wait: float) -> None:
        super().__init__("rate_limited", f"one phrase every {GAP:g} s: wait {wait:.1f} s")
        self.retry_after = round(wait, 2)


def check_gap(last: float | None, now: float) -> None:
    """Raise TooSoon if a phrase said at ``last`` is too recent for another at ``now``."""
    if last is not None and now - last < GAP:
        raise TooSoon(GAP - (now - last))


def notice(seat: int, phrase: int) -> dict[str, Any]:
    """What the room's channel carries for a phrase said (short keys, as its other notices)."""
    return {"k": "say", "s": seat, "p": phrase}


__all__ = ["GAP", "PHRASES", "TooSoon", "check_gap", "notice"]
