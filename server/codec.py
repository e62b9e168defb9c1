"""msgpack encoding for frames and stored state, in one place so every writer agrees."""

from __future__ import annotations

from typing import Any

import msgpack

MAX_DEPTH = 4  # levels of maps and lists in a client message (valid ones use 2: a map of lists or maps)


class CodecError(ValueError):
    """A frame that is not well-formed msgpack (or not a map, for client messages)."""


def encode(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def decode(data: bytes) -> Any:
    """Decode trusted bytes (our own stored state): map keys may be ints."""
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def decode_frame(data: bytes, max_len: int) -> dict[str, Any]:
    """Decode an untrusted client frame; anything but one msgpack map is a CodecError."""
    try:
        obj = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            max_str_len=max_len,
            max_bin_len=max_len,
            max_array_len=max_len,
            max_map_len=max_len,
            max_ext_len=0,
        )
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        raise CodecError(f"frame is not valid msgpack: {exc.__class__.__name__}") from None
    if not isinstance(obj, dict):
        raise CodecError(f"a message must be a msgpack map, not {type(obj).__name__}")
    return obj


def deeper_than(obj: Any, limit: int) -> bool:
    """Whether maps and lists nest more than ``limit`` levels. Checked before validation, whose recursion
    a value nested 1,000 deep would exhaust; this walk has none."""
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
