"""The browser's ``applyPatch`` (``src/sengoku/web/patch.js``) in Chromium, on the operations
the server's ``diff`` makes: the same documents as in Python, inputs left alone, bad paths refused.

The module is loaded as the page loads it, from the real server under the page's
Content-Security-Policy. Data goes in and out as JSON text, so that keys such as
``__proto__`` arrive as JSON.parse makes them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest
from playwright.sync_api import Page

import sengoku
from sengoku.server.patch import diff
from tests.server.harness import Server
from tests.server.test_patch import match_views

_sorted_json = msgspec.json.Encoder(order="sorted").encode

KEYS = ["", "a", "b", "/", "~", "~1", "a/b", "0", "-", "__proto__", "constructor", "length"]
# JS: import the module, deep-freeze each input (any change to it throws in the module's strict
# code) and check its JSON text is the same after.
PRELUDE = """
const { applyPatch, PatchError } = await import("/web/patch.js");
const freeze = x => {
  if (typeof x === "object" && x !== null) { Object.values(x).forEach(freeze); Object.freeze(x); }
  return x;
};
const applied = (doc, ops) => {
  const before = JSON.stringify(freeze(doc));
  const out = applyPatch(doc, ops);
  if (JSON.stringify(doc) !== before) throw new Error("applyPatch changed its input");
  return out;
};
"""


def as_json_numbers(value: Any) -> Any:
    """``value`` as it reads back from JavaScript: every number a float (JS has one kind of
    number, ``1.0`` reads back as ``1``), ``-0.0`` as ``0.0``; booleans stay booleans."""
    if isinstance(value, dict):
        return {k: as_json_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json_numbers(v) for v in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value) + 0.0
    return value


def same_json(a: Any, b: Any) -> bool:
    """The same JSON value, numbers compared as numbers, types otherwise exact."""
    return _sorted_json(as_json_numbers(a)) == _sorted_json(as_json_numbers(b))


def random_tree(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON tree (a dict or list at the top two levels): dicts with awkward keys,
    lists, numbers JS holds exactly, text."""
    kind = rng.randrange(6, 10) if depth < 2 else rng.randrange(10 if depth < 4 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -1, 0.0, 1.0, -0.0, 2**53 - 1, rng.randint(-1000, 1000)])
    if kind == 3:
        return rng.choice([0.5, -2.25, 1e300, rng.uniform(-1e6, 1e6)])
    if kind in (4, 5):
        return rng.choice(["", "x", "a/b", "~0", "日本", str(rng.random())])
    if kind in (6, 7):
        return [random_tree(rng, depth + 1) for _ in range(rng.randrange(6))]
    return {rng.choice(KEYS): random_tree(rng, depth + 1) for _ in range(rng.randrange(6))}


def edited(rng: random.Random, tree: Any) -> Any:
    """A copy of ``tree`` with random edits: values replaced, keys and elements removed and
    added anywhere."""
    if rng.randrange(8) == 0:
        return random_tree(rng)
    if isinstance(tree, dict):
        out = {k: edited(rng, v) for k, v in tree.items() if rng.randrange(5)}
        for _ in range(rng.randrange(3)):
            out[rng.choice(KEYS)] = random_tree(rng, 2)
        return out
    if isinstance(tree, list):
        items = [edited(rng, v) for v in tree]
        for _ in range(rng.randrange(3)):
            if items and rng.randrange(2):
                del items[rng.randrange(len(items))]
            else:
                items.insert(rng.randrange(len(items) + 1), random_tree(rng, 2))
        return items
    return tree


def test_random_pairs(page: Page, server: Server) -> None:
    """For 200 seeded random pairs (fine-grained and compact patches), applyPatch in the
    browser gives the new document and leaves the old one as it was."""
    rng = random.Random(20)
    cases: list[tuple[Any, list[dict[str, Any]], Any]] = []
    for _ in range(200):
        old = random_tree(rng)
        new = edited(rng, old) if rng.randrange(5) else random_tree(rng)
        cases.append((old, diff(old, new, compact=False), new))
        cases.append((old, diff(old, new), new))
    # most fine-grained patches have several operations (compact ones mostly replace small trees)
    assert sum(len(ops) > 1 for _, ops, _ in cases[::2]) > 100
    text = json.dumps([[old, ops] for old, ops, _ in cases])
    page.goto(server.base + "/")
    out = page.evaluate(
        f"async text => {{ {PRELUDE} return JSON.stringify("
        "JSON.parse(text).map(([old, ops]) => applied(old, ops))); }",
        text,
    )
    results = json.loads(out)
    for (old, ops, new), result in zip(cases, results, strict=True):
        assert same_json(result, new), (old, ops, new, result)


@pytest.mark.parametrize("name", sengoku.available_games())
def test_match_views(page: Page, server: Server, name: str) -> None:
    """Each seat's views through a seeded random 4-player match (3 for a game without 4), as
    the page would get them: the first whole, then patch after patch applied to the last
    result; every view comes out right and no earlier one changes."""
    counts = sengoku.get_game(name).player_counts
    players = 4 if 4 in counts else max(counts)
    pairs = list(match_views(name, players, seed=5))
    chains = []
    for seat in range(players + 1):  # the pairs come seat after seat (a spectator first)
        mine = pairs[seat :: players + 1]
        chains.append((mine[0][0], [diff(a, b) for a, b in mine], [b for _, b in mine]))
    text = json.dumps([[first, patches] for first, patches, _ in chains])
    page.goto(server.base + "/")
    out = page.evaluate(
        f"async text => {{ {PRELUDE}"
        "return JSON.stringify(JSON.parse(text).map(([first, patches]) => {"
        "  let doc = first; const docs = [];"
        "  for (const ops of patches) { doc = applied(doc, ops); docs.push(doc); }"
        "  return docs; })); }",
        text,
    )
    for (_, patches, wanted), got in zip(chains, json.loads(out), strict=True):
        assert len(got) == len(wanted) == len(patches)
        for i, (result, view) in enumerate(zip(got, wanted, strict=True)):
            assert same_json(result, view), (i, patches[i])


BAD = [
    ({"a": 1}, {"op": "replace", "path": "/b", "value": 0}, 'no key "b"'),
    ({"a": 1}, {"op": "remove", "path": "/b"}, 'no key "b"'),
    ({"a": 1}, {"op": "add", "path": "/b/c", "value": 0}, 'no key "b"'),
    ({"a": {}}, {"op": "add", "path": "/a/constructor/x", "value": 0}, 'no key "constructor"'),
    ({"a": [1]}, {"op": "replace", "path": "/a/1", "value": 0}, "no index 1"),
    ({"a": [1]}, {"op": "add", "path": "/a/2", "value": 0}, "no index 2"),
    ({"a": [1]}, {"op": "add", "path": "/a/01", "value": 0}, "not an array index"),
    ({"a": [1]}, {"op": "remove", "path": "/a/-"}, "not an array index"),
    ({"a": [1]}, {"op": "add", "path": "/a/length", "value": 0}, "not an array index"),
    ({"a": 1}, {"op": "add", "path": "/a/b", "value": 0}, "inside a number"),
    ({"a": None}, {"op": "add", "path": "/a/b", "value": 0}, "inside a null"),
    ({"a": 1}, {"op": "add", "path": "a", "value": 0}, 'starts with "/"'),
    ({"a": 1}, {"op": "add", "path": "/a"}, "no value"),
    ({"a": 1}, {"op": "move", "from": "/a", "path": "/b"}, 'unsupported operation "move"'),
    ({"a": 1}, {"op": "remove", "path": ""}, "cannot be removed"),
]


def test_bad_operations_throw(page: Page, server: Server) -> None:
    """An operation that cannot be applied throws a PatchError (an Error) saying why, so the
    page can ask for the whole view; the document is left as it was (it is frozen)."""
    text = json.dumps([[doc, [op]] for doc, op, _ in BAD])
    page.goto(server.base + "/")
    out = page.evaluate(
        f"async text => {{ {PRELUDE}"
        "return JSON.parse(text).map(([doc, ops]) => {"
        "  try { applied(doc, ops); return 'no error'; }"
        "  catch (e) { return `${e instanceof PatchError && e instanceof Error} ${e.message}`; }"
        "}); }",
        text,
    )
    for (_, op, message), got in zip(BAD, out, strict=True):
        assert got.startswith("true ") and message in got, (op, got)


def test_keys_that_are_special_in_javascript(page: Page, server: Server) -> None:
    """Keys such as ``__proto__`` and ``constructor`` are plain keys: set, replaced and removed
    as own properties, never touching an object's prototype."""
    old = {"__proto__": {"x": 1}, "constructor": 1, "a": [0]}
    new = {"__proto__": {"x": 2, "y": [1]}, "a": [0, {"__proto__": None}]}
    text = json.dumps([old, diff(old, new, compact=False)])
    page.goto(server.base + "/")
    out = page.evaluate(
        f"async text => {{ {PRELUDE}"
        "const [old, ops] = JSON.parse(text); const out = applied(old, ops);"
        "return [JSON.stringify(out), Object.getPrototypeOf(out) === Object.prototype,"
        " Object.getPrototypeOf(out.a[1]) === Object.prototype]; }",
        text,
    )
    assert same_json(json.loads(out[0]), new)
    assert out[1:] == [True, True]
