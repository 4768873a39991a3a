"""JSON Patch differences between views (``sengoku.server.patch``): exact round trips on random
JSON trees and on the views of real matches, inputs left as they were, and precise errors."""

from __future__ import annotations

import copy
import math
import statistics
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sengoku
from sengoku.core import Rng, get_game
from sengoku.server.patch import PatchError, apply, diff, diff_parts, escape, parts, unescape
from sengoku.sim.runner import play_randomly

_encode = msgspec.json.Encoder().encode
# JSON with sorted keys: the same text for exactly the same JSON value (1, 1.0, true differ)
_exact_text = msgspec.json.Encoder(order="sorted").encode

# keys with the characters JSON Pointer escapes, and one that looks like an escape
KEYS = st.sampled_from(["", "a", "b", "/", "~", "~1", "a/b", "0", "-"]) | st.text(max_size=4)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, 1, 0.0, -0.0, 1.0, True, False]),
    st.text(max_size=5),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=25,
)
# a list long enough that a few changes in it are shorter than the whole list
WORDS = ["Owari", "Mino", "Omi", "Echizen", "Kaga", "Noto", "Etchu", "Hida"]


def exact_equal(a: Any, b: Any) -> bool:
    """The same JSON value with the same types all the way down (Python's ``==`` takes
    ``1 == 1.0 == True`` and ``0.0 == -0.0``); the order of a dict's keys does not count."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(exact_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(exact_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


def mutated(data: st.DataObject, tree: Any, depth: int = 0) -> Any:
    """A copy of ``tree`` with random edits: values replaced (also by equal values of another
    type), dict keys removed and added, list elements removed and inserted anywhere."""
    choice = data.draw(st.integers(0, 9))
    if choice == 0:
        return data.draw(JSON)
    if choice <= 3 and isinstance(tree, int | float):
        return data.draw(st.sampled_from([float(tree), int(tree), bool(tree), -tree]))
    if isinstance(tree, dict):
        out = {}
        for key, value in tree.items():
            if data.draw(st.integers(0, 4)) != 0:  # most keys stay
                out[key] = mutated(data, value, depth + 1)
        for key in data.draw(st.lists(KEYS, max_size=2)):
            out[key] = data.draw(JSON)
        return out
    if isinstance(tree, list):
        items = [mutated(data, value, depth + 1) for value in tree]
        for _ in range(data.draw(st.integers(0, 2))):
            if items and data.draw(st.booleans()):
                del items[data.draw(st.integers(0, len(items) - 1))]
            else:
                items.insert(data.draw(st.integers(0, len(items))), data.draw(JSON))
        return items
    return tree


def check_round_trip(old: Any, new: Any, compact: bool = True) -> list[dict[str, Any]]:
    """``apply(old, diff(old, new))`` is exactly ``new``, well-formed operations, and neither
    input nor the operations changed by diff or apply; returns the operations."""
    old_before, new_before = copy.deepcopy(old), copy.deepcopy(new)
    ops = diff(old, new, compact=compact)
    ops_before = copy.deepcopy(ops)
    result = apply(old, ops)
    assert exact_equal(result, new), (old, new, ops, result)
    assert exact_equal(old, old_before) and exact_equal(new, new_before)
    assert exact_equal(ops, ops_before)
    for op in ops:
        assert op["op"] in ("add", "remove", "replace")
        assert set(op) == ({"op", "path"} if op["op"] == "remove" else {"op", "path", "value"})
    return ops


@settings(max_examples=150, deadline=None)
@given(JSON, JSON)
def test_round_trip_between_any_two_trees(old: Any, new: Any) -> None:
    """Between two unrelated JSON trees the patch turns one into the other exactly, compact
    or not."""
    for compact in (True, False):
        check_round_trip(old, new, compact)
        check_round_trip(new, old, compact)


@settings(max_examples=250, deadline=None)
@given(JSON, st.data())
def test_round_trip_after_edits(old: Any, data: st.DataObject) -> None:
    """Between a tree and an edited copy (the case of consecutive views) the patch turns one
    into the other exactly, with types: 1, 1.0 and True, 0.0 and -0.0 stay apart. Without
    ``compact`` (small trees are mostly replaced whole) every edit is an operation of its own;
    with it the patch is no longer."""
    new = mutated(data, old)
    for a, b in ((old, new), (new, old)):
        short, fine = check_round_trip(a, b, True), check_round_trip(a, b, False)
        assert len(_encode(short)) <= len(_encode(fine))


OBJECTS = st.dictionaries(KEYS, JSON, max_size=6)


@settings(max_examples=200, deadline=None)
@given(OBJECTS, st.data())
def test_diff_parts_is_diff(old: dict[str, Any], data: st.DataObject) -> None:
    """``diff_parts`` on two objects and their parts turns one into the other exactly, with
    ``diff``'s operations where ``diff`` does not replace the whole object, and a memo shared
    with another pair does not change them."""
    new = mutated(data, old)
    if not isinstance(new, dict):
        return
    memo: dict[Any, Any] = {}
    encoded: dict[int, Any] = {}  # shared between the documents, as a server's position does
    other = mutated(data, old)
    if isinstance(other, dict):
        diff_parts(old, parts(old), other, parts(other), memo=memo)
    for a, b in ((old, new), (new, old)):
        got = diff_parts(a, parts(a), b, parts(b), memo=memo)
        assert parts(a, encoded) == parts(a) and parts(b, encoded) == parts(b)
        assert got == diff_parts(a, parts(a), b, parts(b))
        assert exact_equal(apply(a, got), b)
        expected = diff(a, b)
        if not (len(expected) == 1 and expected[0]["path"] == ""):
            assert _encode(got) == _encode(expected)


def test_parts_are_the_values_as_json() -> None:
    """A part is the value's JSON text: 1, 1.0 and true differ, so they are told apart."""
    assert parts({"a": 1, "b": 1.0, "c": True, "d": [None]}) == {
        "a": b"1",
        "b": b"1.0",
        "c": b"true",
        "d": b"[null]",
    }
    old, new = {"n": 1, "m": [1]}, {"n": True, "m": [1.0]}
    ops = diff_parts(old, parts(old), new, parts(new))
    assert _encode(ops) == _encode(
        [
            {"op": "replace", "path": "/n", "value": True},
            {"op": "replace", "path": "/m/0", "value": 1.0},
        ]
    )


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_no_difference_no_operations(tree: Any) -> None:
    """A tree against itself, or against a deep copy of itself, has an empty patch, and an
    empty patch changes nothing."""
    assert diff(tree, tree) == []
    assert diff(tree, copy.deepcopy(tree)) == []
    assert exact_equal(apply(tree, []), tree)


@given(KEYS)
def test_escape_round_trip(key: str) -> None:
    """A dict key survives escaping to a JSON Pointer token and back, and the token has no '/'."""
    assert "/" not in escape(key)
    assert unescape(escape(key)) == key


@pytest.mark.parametrize(
    ("old", "new", "ops"),
    [
        ({"a/b": 1, "m~n": 2, "k": WORDS}, {"a/b": 2, "k": WORDS}, [
            {"op": "remove", "path": "/m~0n"},
            {"op": "replace", "path": "/a~1b", "value": 2},
        ]),
        ({"~1": 0}, {"~1": 0, "": 5}, [{"op": "add", "path": "/", "value": 5}]),
        (WORDS, [*WORDS, 4, 5], [
            {"op": "add", "path": "/8", "value": 4},
            {"op": "add", "path": "/9", "value": 5},
        ]),
        (WORDS, WORDS[:6], [
            {"op": "remove", "path": "/7"},
            {"op": "remove", "path": "/6"},
        ]),
        (["a", "b", "c", "d"], ["a", "x", "b", "c", "d"], [
            {"op": "add", "path": "/1", "value": "x"},
        ]),
        (["a", "b", "c", "d"], ["a", "c", "d"], [{"op": "remove", "path": "/1"}]),
        ({"p": [{"q": [0, {"r": None}]}]}, {"p": [{"q": [0, {"r": False}]}]}, [
            {"op": "replace", "path": "/p/0/q/1/r", "value": False},
        ]),
        ({"n": [1, 2]}, {"n": [True, 2]}, [{"op": "replace", "path": "/n/0", "value": True}]),
        ({"n": [0.0]}, {"n": [-0.0]}, [{"op": "replace", "path": "/n/0", "value": -0.0}]),
        ({"n": {"x": 1}}, {"n": [1]}, [{"op": "replace", "path": "/n", "value": [1]}]),
        ([7, 8, 9, 10, 11, 12], [1, 2, 3, 4, 5, 6], [
            {"op": "replace", "path": "", "value": [1, 2, 3, 4, 5, 6]},
        ]),
        ("x", {"x": 1}, [{"op": "replace", "path": "", "value": {"x": 1}}]),
    ],
    ids=[
        "escaped-keys", "empty-key", "list-grows", "list-shrinks-from-the-back",
        "insert-in-the-middle", "remove-in-the-middle", "nested", "int-to-bool",
        "zero-sign", "type-change", "whole-list-smaller", "root",
    ],
)  # fmt: skip
def test_examples(old: Any, new: Any, ops: list[dict[str, Any]]) -> None:
    """Known differences give the expected (short) operations, which apply back."""
    assert diff(old, new) == ops
    assert exact_equal(check_round_trip(old, new), ops)


def test_apply_copies_only_the_changed_path() -> None:
    """apply leaves its input alone and shares the parts no operation touches."""
    doc = {"a": {"x": [1, 2]}, "b": {"y": [3]}}
    new = apply(doc, [{"op": "add", "path": "/a/x/-", "value": 9}])
    assert doc == {"a": {"x": [1, 2]}, "b": {"y": [3]}}
    assert new == {"a": {"x": [1, 2, 9]}, "b": {"y": [3]}}
    assert new["b"] is doc["b"] and new["a"] is not doc["a"]


def test_apply_does_not_change_values_from_the_operations() -> None:
    """A value an operation adds is copied before a later operation changes inside it."""
    value = {"list": [1]}
    ops = [
        {"op": "add", "path": "/v", "value": value},
        {"op": "add", "path": "/v/list/0", "value": 0},
        {"op": "remove", "path": "/v/list/1"},
    ]
    assert apply({}, ops) == {"v": {"list": [0]}}
    assert value == {"list": [1]}


@pytest.mark.parametrize(
    ("doc", "op", "message"),
    [
        ({"a": 1}, {"op": "replace", "path": "/b", "value": 0}, "no key 'b'"),
        ({"a": 1}, {"op": "remove", "path": "/b"}, "no key 'b'"),
        ({"a": 1}, {"op": "add", "path": "/b/c", "value": 0}, "no key 'b'"),
        ({"a": [1]}, {"op": "replace", "path": "/a/1", "value": 0}, "no index 1"),
        ({"a": [1]}, {"op": "add", "path": "/a/2", "value": 0}, "no index 2"),
        ({"a": [1]}, {"op": "add", "path": "/a/01", "value": 0}, "not a list index"),
        ({"a": [1]}, {"op": "remove", "path": "/a/-"}, "not a list index"),
        ({"a": [1]}, {"op": "add", "path": "/a/x", "value": 0}, "not a list index"),
        ({"a": 1}, {"op": "add", "path": "/a/b", "value": 0}, "inside a int"),
        ({"a": 1}, {"op": "add", "path": "a", "value": 0}, "starts with '/'"),
        ({"a": 1}, {"op": "add", "path": "/a"}, "no value"),
        ({"a": 1}, {"op": "move", "from": "/a", "path": "/b"}, "unsupported operation 'move'"),
        ({"a": 1}, {"op": "remove", "path": ""}, "cannot be removed"),
    ],
)
def test_apply_errors(doc: Any, op: dict[str, Any], message: str) -> None:
    """An operation that cannot be applied raises PatchError saying why, the input unchanged."""
    before = copy.deepcopy(doc)
    with pytest.raises(PatchError, match=message):
        apply(doc, [op])
    assert doc == before


def match_views(name: str, players: int, seed: int) -> Iterator[tuple[Any, Any]]:
    """Consecutive views of each seat and of a spectator through a seeded random match, as the
    server would send them after each action (the pairs that differ)."""
    seats: list[int | None] = [None, *range(players)]
    last: dict[int | None, Any] = {}
    pairs: list[tuple[Any, Any]] = []

    def step(match: Any) -> None:
        for seat in seats:
            view = match.view(seat)
            if seat in last:
                pairs.append((last[seat], view))
            last[seat] = view

    match = play_randomly(sengoku.new_match(name, players, seed=seed), Rng(seed), step)
    step(match)
    yield from pairs


GAMES = [
    pytest.param(name, players, id=f"{name}-{players}p")
    for name in sengoku.available_games()
    for players in get_game(name).player_counts
]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_round_trip_on_match_views(name: str, players: int) -> None:
    """Every pair of consecutive views of a seeded random match round-trips through its patch;
    prints the mean sizes of patch and view (as JSON), which the server's choice rests on."""
    patch_sizes, view_sizes = [], []
    for old, new in match_views(name, players, seed=11):
        old_text, new_text = _exact_text(old), _exact_text(new)
        ops = diff(old, new)
        assert _exact_text(apply(old, ops)) == new_text, (old, new, ops)
        assert _exact_text(old) == old_text and _exact_text(new) == new_text
        assert diff(new, new) == []
        patch_sizes.append(len(_encode(ops)))
        view_sizes.append(len(new_text))
    assert patch_sizes
    print(
        f"{name} {players}p: {len(patch_sizes)} views,"
        f" mean view {statistics.mean(view_sizes):.0f} B,"
        f" mean patch {statistics.mean(patch_sizes):.0f} B,"
        f" median {statistics.median(patch_sizes):.0f} B, largest {max(patch_sizes)} B"
    )
