"""Small RFC 6902-shaped diffs between two views of the same seat.

A view is a map of a known, shallow shape, and between two versions most keys stay as they are;
lists such as the cards played only grow. So a diff needs just three ideas, and stays tiny:
maps are compared key by key (``add``/``remove``/``replace`` at ``/key``, recursing into nested
string-keyed maps), a list that only grew gets one ``add`` at ``/key/-`` per new item, and anything
else is a ``replace``. The ops are valid JSON Patch, so any RFC 6902 library can apply them; we do
not use a general JSON-Patch differ because it would search for moves and index edits we never need.

On the wire each op travels as a tuple, ``[code, path]`` or ``[code, path, value]`` with the codes
``+`` add, ``-`` remove, ``=`` replace (``compact``/``expand``): the same RFC 6902 operation, in about
half the bytes of ``{"op": ..., "path": ..., "value": ...}`` maps, which is most of a small diff.
"""

from __future__ import annotations

import copy
from operator import is_
from typing import Any

import msgpack

Op = dict[str, Any]
_CONTAINERS = (dict, list, tuple)
_SCALARS = frozenset((int, str, float, bool, type(None)))
_pack = msgpack.Packer(use_bin_type=True).pack  # one reused packer: no set-up per comparison


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


def _unchanged(a: Any, b: Any) -> bool:
    """``same(a, b)``, fast for what a diff meets most: big values that did not change.

    Walking every item of the cards played in Python dominated a diff; C equality answers first,
    and equal msgpack encodings then prove the types match too (msgpack tells 1, 1.0 and True
    apart). Only when the encodings differ (e.g. maps in another key order) does ``same`` decide.
    """
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    if not isinstance(a, _CONTAINERS):
        return True
    if type(a) is list and all(map(is_, a, b)):
        return True  # equal, item by item the same objects: cards (small ints), the history's shared maps
    try:
        if _pack(a) == _pack(b):
            return True
    except (TypeError, ValueError, OverflowError):
        pass
    return same(a, b)


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
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
            continue
        was = old[key]
        if was is value or (type(was) is type(value) and type(value) in _SCALARS and was == value):
            continue  # most keys of a view: an unchanged number, string or None, checked inline
        if not _unchanged(was, value):
            _diff_changed(was, value, f"{path}/{_escape(key)}", ops)


def _diff_changed(a: Any, b: Any, path: str, ops: list[Op]) -> None:
    """Ops for a value known to differ: into maps key by key (unless most of the map changed, as the
    table play does: one replace is smaller), appends to lists, else a replace."""
    if isinstance(a, dict) and isinstance(b, dict) and _str_keyed(a) and _str_keyed(b) and _mostly_same(a, b):
        _diff_maps(a, b, path, ops)
        return
    if isinstance(a, list) and isinstance(b, list) and len(b) > len(a) and _unchanged(a, b[: len(a)]):
        ops.extend({"op": "add", "path": f"{path}/-", "value": item} for item in b[len(a):])
        return
    ops.append({"op": "replace", "path": path, "value": b})


def _mostly_same(a: dict, b: dict) -> bool:
    """Whether more than half of the keys of ``b`` are in ``a`` with the same value."""
    kept = sum(1 for k, v in b.items() if k in a and _unchanged(a[k], v))
    return 2 * kept > len(b)


_CODE = {"add": "+", "remove": "-", "replace": "="}
_OP = {v: k for k, v in _CODE.items()}


def compact(ops: list[Op]) -> list[list[Any]]:
    """RFC 6902 op maps as the wire's tuples: ``[code, path]`` or ``[code, path, value]``."""
    return [[_CODE[op["op"]], op["path"], op["value"]] if "value" in op else [_CODE[op["op"]], op["path"]]
            for op in ops]


def expand(ops: list[list[Any]]) -> list[Op]:
    """The wire's tuples back to RFC 6902 op maps (any JSON Patch library applies these)."""
    out: list[Op] = []
    for op in ops:
        if not isinstance(op, list | tuple) or len(op) not in (2, 3) or op[0] not in _OP:
            raise ValueError(f"not a diff op: {op!r}")
        item: Op = {"op": _OP[op[0]], "path": op[1]}
        if len(op) == 3:
            item["value"] = op[2]
        out.append(item)
    return out


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
