"""Client values in log lines: short, on one line, and only a few lines per connection.

A client chooses what it sends. Logged whole with ``%r``, a 1 MiB AI answer put 1 MiB in the log for
every frame, and a 16 KB rule option key put 16 KB. ``clip`` shows a value as ``repr`` would, but at
most ``limit`` characters, three levels deep and a few items per container, so a value nested 1,000
deep costs nothing; its escapes keep a newline or a bidi override in a client string from forging or
hiding log lines. ``LogBudget`` keeps the lines one connection can cause to a few per minute and says
how many it held back.
"""

from __future__ import annotations

import itertools
import logging
import time
from typing import Any

DEPTH = 3  # container levels shown
ITEMS = 6  # items shown per container
LIMIT = 80  # characters of a clipped value


def clip(value: Any, limit: int = LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters; cheap whatever the size or depth of ``value``."""
    text = _short(value, DEPTH, limit)
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."


def _short(value: Any, depth: int, limit: int) -> str:
    if isinstance(value, str | bytes | bytearray):
        head = repr(value[:limit])
        return head if len(value) <= limit else f"{head}...({len(value)} long)"
    if isinstance(value, int) and value.bit_length() > 64:  # repr of a huge int may raise (str digits)
        return f"<int of {value.bit_length()} bits>"
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    if isinstance(value, dict | list | tuple | set | frozenset):
        return _container(value, depth, limit)
    return f"<{type(value).__name__}>"


def _container(value: Any, depth: int, limit: int) -> str:
    if depth == 0:
        return f"<{type(value).__name__} of {len(value)}>"
    if isinstance(value, dict):
        parts = [f"{_short(k, depth - 1, limit // 2)}: {_short(v, depth - 1, limit // 2)}"
                 for k, v in _first(value.items())]
        opening, closing = "{", "}"
    else:
        parts = [_short(v, depth - 1, limit // 2) for v in _first(value)]
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
    if len(value) > ITEMS:
        parts.append(f"...+{len(value) - ITEMS}")
    return opening + ", ".join(parts) + closing


def _first(items: Any) -> list[Any]:
    return list(itertools.islice(items, ITEMS))


class LogBudget:
    """At most ``lines`` log lines per ``period`` seconds about one connection; the others are counted,
    and the next line let through says how many were held back (``held`` keeps the total)."""

    def __init__(self, lines: int = 10, period: float = 60.0) -> None:
        self.lines = lines
        self.period = period
        self.start = time.monotonic()
        self.used = 0
        self.pending = 0  # held back since the last line let through
        self.held = 0

    def log(self, logger: logging.Logger, level: int, msg: str, *args: Any) -> None:
        if not logger.isEnabledFor(level):
            return
        now = time.monotonic()
        if now - self.start >= self.period:
            self.start, self.used = now, 0
        if self.used >= self.lines:
            self.pending += 1
            self.held += 1
            return
        self.used += 1
        if self.pending:
            msg, args = msg + " (%d similar lines held back)", (*args, self.pending)
            self.pending = 0
        logger.log(level, msg, *args)
