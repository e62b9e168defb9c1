"""Small RFC 6902-shaped diffs between two views of the same seat.

A view is a map of a known, shallow shape, and between two versions most keys stay as they are;
lists such as the cards played only grow. So a diff needs just three ideas, and stays tiny:
maps are compared key by key (``add``/``remove``/``replace`` at ``/key``, recursing into nested
string-keyed maps), a list that only grew gets one ``add`` at ``/key/-`` per new item, and anything
else is a ``replace``. The ops are valid JSON Patch, so any RFC 6902 library can apply them; we do
not use a general JSON-Patch differ because it would search for moves and index edits we never need.
"""

from __future__ import annotations

import copy
from typing import Any

Op = dict[str, Any]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def same(a: Any, b: Any) -> bool:
    """Equality that also tells 1, 1.0 and True apart (msgpack does, so the client would)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _str_keyed(d: dict) -> bool:
    return all(isinstance(k, str) for k in d)


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Op]:
    """Ops that turn ``old`` into ``new`` (both string-keyed maps)."""
    ops: list[Op] = []
    _diff_maps(old, new, "", ops)
    return ops


def _diff_maps(old: dict, new: dict, path: str, ops: list[Op]) -> None:
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
    for key, value in new.items():
        p = f"{path}/{_escape(key)}"
        if key not in old:
            ops.append({"op": "add", "path": p, "value": value})
        else:
            _diff_values(old[key], value, p, ops)


def _diff_values(a: Any, b: Any, path: str, ops: list[Op]) -> None:
    if a is b or (a == b and same(a, b)):
        return
    if isinstance(a, dict) and isinstance(b, dict) and _str_keyed(a) and _str_keyed(b):
        _diff_maps(a, b, path, ops)
        return
    if isinstance(a, list) and isinstance(b, list) and len(b) > len(a) and same(a, b[: len(a)]):
        ops.extend({"op": "add", "path": f"{path}/-", "value": item} for item in b[len(a):])
        return
    ops.append({"op": "replace", "path": path, "value": b})


def apply(doc: dict[str, Any], ops: list[Op]) -> dict[str, Any]:
    """Apply ops made by ``diff`` (add/remove/replace on maps, add at ``/-`` on lists) to a copy."""
    root = copy.deepcopy(doc)
    for op in ops:
        tokens = [_unescape(t) for t in op["path"].split("/")[1:]]
        if not tokens:
            raise ValueError(f"op on the whole document is not supported: {op}")
        parent: Any = root
        for t in tokens[:-1]:
            parent = parent[t] if isinstance(parent, dict) else parent[int(t)]
        last = tokens[-1]
        kind = op["op"]
        if isinstance(parent, list):
            if kind == "add" and last == "-":
                parent.append(op["value"])
            elif kind == "replace":
                parent[int(last)] = op["value"]
            else:
                raise ValueError(f"unsupported list op {op}")
        elif kind in ("add", "replace"):
            if kind == "replace" and last not in parent:
                raise ValueError(f"replace of a missing key: {op['path']}")
            parent[last] = op["value"]
        elif kind == "remove":
            del parent[last]
        else:
            raise ValueError(f"unsupported op {kind!r}")
    return root
