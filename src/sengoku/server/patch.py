"""Differences between JSON documents as JSON Patch (RFC 6902), for sending views by update.

:func:`diff` gives the ``add``, ``remove`` and ``replace`` operations that turn one JSON
document (dicts with ``str`` keys, lists, ``str``, ``int``, ``float``, ``bool``, ``None``) into
another; :func:`apply` applies them. The difference is exact: ``1``, ``1.0`` and ``True`` are
different values, as they are different JSON texts. The browser's ``web/patch.js`` applies the
same operations.

>>> daimyo = ["Oda Nobunaga", "Takeda Shingen", "Uesugi Kenshin", "Mori Motonari"]
>>> old = {"turn": 3, "hand": ["a", "b"], "a/b": True, "daimyo": daimyo}
>>> new = {"turn": 4, "hand": ["a", "b", "c"], "a/b": 1, "daimyo": daimyo}
>>> ops = diff(old, new)
>>> ops  # doctest: +NORMALIZE_WHITESPACE
[{'op': 'replace', 'path': '/turn', 'value': 4},
 {'op': 'add', 'path': '/hand/2', 'value': 'c'},
 {'op': 'replace', 'path': '/a~1b', 'value': 1}]
>>> apply(old, ops) == new and old["turn"] == 3
True
>>> diff(new, new)
[]

A short list or dict that changes much is replaced whole, unless ``compact`` is turned off:

>>> diff({"n": [1, 2]}, {"n": [3, 4]})
[{'op': 'replace', 'path': '/n', 'value': [3, 4]}]
>>> diff({"n": [1, 2]}, {"n": [3, 4]}, compact=False)  # doctest: +NORMALIZE_WHITESPACE
[{'op': 'replace', 'path': '/n/0', 'value': 3}, {'op': 'replace', 'path': '/n/1', 'value': 4}]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import msgspec

__all__ = ["PatchError", "apply", "diff", "diff_parts", "escape", "parts", "unescape"]

_encode = msgspec.json.Encoder().encode


class PatchError(ValueError):
    """An operation that cannot be applied: a bad path, a missing target or an unknown ``op``."""


def escape(key: str) -> str:
    """A dict key as a JSON Pointer reference token (``~`` → ``~0``, ``/`` → ``~1``).

    >>> escape("a/b~c")
    'a~1b~0c'
    """
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def unescape(token: str) -> str:
    """The dict key a JSON Pointer reference token names (the inverse of :func:`escape`).

    >>> unescape("a~1b~0c")
    'a/b~c'
    """
    if "~" in token:
        return token.replace("~1", "/").replace("~0", "~")
    return token


def diff(old: Any, new: Any, *, compact: bool = True) -> list[dict[str, Any]]:
    """The JSON Patch operations that turn ``old`` into ``new``: ``apply(old, diff(old, new))``
    equals ``new``, with the same types; ``[]`` when they are the same.

    Dicts are compared key by key; lists element by element after their common start and end
    (so one element added or removed anywhere is one operation); anything else that differs,
    or changes type, is replaced. With ``compact`` (the default) a dict or list whose
    operations would be longer, as JSON, than its new value is replaced whole. The operations'
    values are parts of ``new``, not copies. Neither argument is changed.

    >>> diff({"a": [1, 2, 3], "b": 0}, {"a": [1, 3], "c": None}, compact=False)
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'op': 'remove', 'path': '/b'}, {'op': 'remove', 'path': '/a/1'},
     {'op': 'add', 'path': '/c', 'value': None}]
    >>> diff([1, 2], {"x": 1})
    [{'op': 'replace', 'path': '', 'value': {'x': 1}}]
    >>> diff({"n": 1}, {"n": 1.0}) + diff({"n": 1}, {"n": True})  # doctest: +NORMALIZE_WHITESPACE
    [{'op': 'replace', 'path': '/n', 'value': 1.0},
     {'op': 'replace', 'path': '/n', 'value': True}]
    """
    ops: list[dict[str, Any]] = []
    if old is not new:
        _diff(old, new, "", ops, compact)
    return ops


# ``==`` runs in C but takes 1 == 1.0 == True, and -0.0 == 0.0: values it finds equal are the
# same when they are str, int, bool or None of one type, else when their JSON texts are the same
# (these also differ when only the order of keys does: then diff looks inside, finds nothing).
_EXACT = frozenset({str, int, bool, type(None)})
_ABSENT = object()


def _same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same JSON, types included (see ``_EXACT``)."""
    kind = type(b)
    return kind is type(a) and a == b and (kind in _EXACT or _encode(a) == _encode(b))


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]], compact: bool) -> None:
    kind = type(old)
    if kind is not type(new):
        ops.append({"op": "replace", "path": path, "value": new})
    elif kind is dict or kind is list:
        if not _same(old, new):
            _diff_container(old, new, path, ops, compact)
    elif old != new or (kind is float and math.copysign(1.0, old) != math.copysign(1.0, new)):
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_container(
    old: Any, new: Any, path: str, ops: list[dict[str, Any]], compact: bool
) -> None:
    # two dicts or two lists, not the same JSON
    first = len(ops)
    if type(new) is dict:
        _diff_dict(old, new, path, ops, compact)
    else:
        _diff_list(old, new, path, ops, compact)
    if compact:
        _replace_if_smaller(new, path, ops, first)


def parts(
    doc: dict[str, Any], encoded: dict[int, tuple[Any, bytes]] | None = None
) -> dict[str, bytes]:
    """Each value of the JSON object ``doc`` as JSON text, by key (for :func:`diff_parts`).

    ``encoded``, shared by several calls, keeps each dict or list value with its text, by
    ``id``: a value that several documents share (the same object) is encoded once.

    >>> parts({"turn": 4, "hand": ["a", "b"]})
    {'turn': b'4', 'hand': b'["a","b"]'}
    >>> hand, encoded = ["a"], {}
    >>> parts({"hand": hand}, encoded)["hand"] is parts({"mine": hand}, encoded)["mine"]
    True
    """
    if encoded is None:
        return {key: _encode(value) for key, value in doc.items()}
    found = {}
    for key, value in doc.items():
        if type(value) is dict or type(value) is list:
            known = encoded.get(id(value))
            if known is None or known[0] is not value:  # kept with the value: its id stays its
                known = encoded[id(value)] = value, _encode(value)
            found[key] = known[1]
        else:
            found[key] = _encode(value)
    return found


def diff_parts(
    old: dict[str, Any],
    old_parts: dict[str, bytes],
    new: dict[str, Any],
    new_parts: dict[str, bytes],
    *,
    memo: dict[tuple[str, bytes, bytes], list[dict[str, Any]]] | None = None,
    compact: bool = True,
) -> list[dict[str, Any]]:
    """:func:`diff` of two JSON objects whose values are also at hand as JSON text (their
    :func:`parts`): a value with the same text in both is the same and not looked into, and
    ``memo``, shared by several calls, keeps each key's operations by its two texts, so
    objects that share values (the views of one position for different seats) have each
    changed value compared once. The operations are those of :func:`diff`, but that the whole
    object is never replaced by one operation at the path ``""``.

    >>> old, new = {"turn": 3, "hand": ["a"]}, {"turn": 4, "hand": ["a"]}
    >>> memo = {}
    >>> diff_parts(old, parts(old), new, parts(new), memo=memo)
    [{'op': 'replace', 'path': '/turn', 'value': 4}]
    >>> list(memo)
    [('turn', b'3', b'4')]
    """
    ops: list[dict[str, Any]] = []
    if old.keys() != new.keys():
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"/{escape(key)}"})
    for key, text in new_parts.items():
        before = old_parts.get(key)
        if before == text:
            continue
        if before is None:
            ops.append({"op": "add", "path": f"/{escape(key)}", "value": new[key]})
            continue
        found = memo.get((key, before, text)) if memo is not None else None
        if found is None:
            found = []
            value, previous = new[key], old[key]
            if type(value) is type(previous) and type(value) in (dict, list):
                _diff_container(previous, value, f"/{escape(key)}", found, compact)
            else:
                _diff(previous, value, f"/{escape(key)}", found, compact)
            if memo is not None:
                memo[key, before, text] = found
        ops += found
    return ops


def _diff_dict(
    old: dict[str, Any], new: dict[str, Any], path: str, ops: list[dict[str, Any]], compact: bool
) -> None:
    if old.keys() != new.keys():
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{escape(key)}"})
    for key, value in new.items():
        before = old.get(key, _ABSENT)
        if before is value:
            continue
        if _same(before, value):
            continue
        if before is _ABSENT:
            ops.append({"op": "add", "path": f"{path}/{escape(key)}", "value": value})
        else:
            _diff(before, value, f"{path}/{escape(key)}", ops, compact)


def _replace_if_smaller(new: Any, path: str, ops: list[dict[str, Any]], first: int) -> None:
    # Operations ``first`` onwards change the container ``new`` at ``path``: when there are
    # several and their JSON is longer than one replace of the whole (most elements of a list
    # of numbers changed, a dict made anew), they become that replace.
    if len(ops) - first > 1:
        whole = {"op": "replace", "path": path, "value": new}
        # the operations take their JSON array's length less the brackets in the patch
        if len(_encode(ops[first:])) - 2 > len(_encode(whole)):
            del ops[first:]
            ops.append(whole)


def _diff_items(
    old: list[Any],
    new: list[Any],
    at_old: int,
    at_new: int,
    count: int,
    path: str,
    ops: list[dict[str, Any]],
    compact: bool,
) -> None:
    # old[at_old:at_old + count] against new[at_new:at_new + count], the paths new's indices
    for i in range(count):
        before, value = old[at_old + i], new[at_new + i]
        if before is value:
            continue
        if _same(before, value):
            continue
        _diff(before, value, f"{path}/{at_new + i}", ops, compact)


def _diff_list(
    old: list[Any], new: list[Any], path: str, ops: list[dict[str, Any]], compact: bool
) -> None:
    n_old, n_new = len(old), len(new)
    if n_old == n_new:
        _diff_items(old, new, 0, 0, n_new, path, ops, compact)
        return
    # The common start and end (by ==; the pairs are still diffed, for 1 against True), then
    # the middle element by element, its extra old elements removed from the back (so the
    # indices stay right) or the extra new ones added in order.
    shorter = min(n_old, n_new)
    start = 0
    while start < shorter and old[start] == new[start]:
        start += 1
    end = 0
    while end < shorter - start and old[n_old - 1 - end] == new[n_new - 1 - end]:
        end += 1
    paired = shorter - end
    _diff_items(old, new, 0, 0, paired, path, ops, compact)
    for i in range(n_old - end - 1, paired - 1, -1):
        ops.append({"op": "remove", "path": f"{path}/{i}"})
    for i in range(paired, n_new - end):
        ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
    _diff_items(old, new, n_old - end, n_new - end, end, path, ops, compact)


def apply(doc: Any, ops: Sequence[dict[str, Any]]) -> Any:
    """The document ``doc`` with the JSON Patch operations ``ops`` applied in order (``add``,
    ``remove`` and ``replace``; paths are JSON Pointers, ``-`` appends to a list).

    Neither ``doc`` nor ``ops`` is changed: the dicts and lists on the operations' paths are
    copied, the rest is shared with ``doc`` (and the operations' values), so change neither
    later. Raises :class:`PatchError` for an operation that cannot be applied.

    >>> doc = {"hand": ["a"], "seen": {"x": 1}}
    >>> new = apply(doc, [{"op": "add", "path": "/hand/-", "value": "b"},
    ...                   {"op": "remove", "path": "/seen/x"}])
    >>> new, doc, new["hand"] is doc["hand"]
    ({'hand': ['a', 'b'], 'seen': {}}, {'hand': ['a'], 'seen': {'x': 1}}, False)
    >>> apply(doc, [{"op": "replace", "path": "/hand/1", "value": "c"}])
    Traceback (most recent call last):
    ...
    sengoku.server.patch.PatchError: replace /hand/1: no index 1 in a list of 1
    """
    root = [doc]  # a box, so that the path "" is the box's element 0
    copied: dict[int, Any] = {}  # the containers copied, by id (kept alive: the ids stay theirs)
    for op in ops:
        name = op.get("op")
        path = op.get("path")
        if name not in ("add", "remove", "replace"):
            raise PatchError(f"unsupported operation {name!r}")
        if not isinstance(path, str) or (path and not path.startswith("/")):
            raise PatchError(f"{name} {path!r}: a path is '' or starts with '/'")
        if name != "remove" and "value" not in op:
            raise PatchError(f"{name} {path}: no value")
        if not path:
            if name == "remove":
                raise PatchError("remove '': the whole document cannot be removed")
            root[0] = op["value"]
            continue
        tokens = [unescape(t) for t in path.split("/")[1:]]
        parent: Any = root
        key: str | int = 0
        for depth, token in enumerate(tokens):
            parent = _child_copy(parent, key, copied)
            last = depth == len(tokens) - 1
            if isinstance(parent, dict):
                if not last and token not in parent:
                    raise PatchError(f"{name} {path}: no key {token!r}")
                key = token
            elif isinstance(parent, list):
                key = _index(parent, token, name, path, last)
            else:
                raise PatchError(f"{name} {path}: {token!r} inside a {type(parent).__name__}")
        _change(parent, key, op, name, path)
    return root[0]


def _child_copy(parent: Any, key: str | int, copied: dict[int, Any]) -> Any:
    """``parent[key]``, made a fresh copy first (once) if it is a dict or list."""
    child = parent[key]
    if id(child) not in copied and isinstance(child, dict | list):
        child = child.copy()
        parent[key] = child
        copied[id(child)] = child
    return child


def _index(items: list[Any], token: str, name: str, path: str, last: bool) -> int:
    size = len(items)
    if token == "-" and last and name == "add":
        return size
    if not token.isdecimal() or not token.isascii() or (token != "0" and token.startswith("0")):
        raise PatchError(f"{name} {path}: {token!r} is not a list index")
    index = int(token)
    if index > size or (index == size and not (last and name == "add")):
        raise PatchError(f"{name} {path}: no index {index} in a list of {size}")
    return index


def _change(parent: Any, key: str | int, op: dict[str, Any], name: str, path: str) -> None:
    if isinstance(parent, list):
        assert isinstance(key, int)
        if name == "add":
            parent.insert(key, op["value"])
        elif name == "remove":
            del parent[key]
        else:
            parent[key] = op["value"]
        return
    if name != "add" and key not in parent:
        raise PatchError(f"{name} {path}: no key {key!r}")
    if name == "remove":
        del parent[key]
    else:
        parent[key] = op["value"]
