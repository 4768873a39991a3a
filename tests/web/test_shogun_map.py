"""The browser's Shogun map (``src/sengoku/web/games/shogun/map.json``) against the game's data.

The map is drawn from real province outlines by ``tools/shogun_map.py``; these tests check that the
committed file is what the tool draws and that the drawing shows the game's graph.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from sengoku.games.shogun.options import ShogunOptions

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "sengoku" / "web" / "games" / "shogun"
DATA = ROOT / "src" / "sengoku" / "games" / "shogun" / "data"

Point = tuple[float, float]

MAP: dict[str, Any] = json.loads((WEB / "map.json").read_text(encoding="utf-8"))
ADJACENCY: dict[str, Any] = json.loads((DATA / "adjacency.json").read_text(encoding="utf-8"))
PROVINCES: list[dict[str, Any]] = json.loads((DATA / "provinces.json").read_text(encoding="utf-8"))[
    "provinces"
]
LAND = {frozenset(pair) for pair in ADJACENCY["land"]}
TOKEN = re.compile(r"[A-Za-z]|-?\d+(?:\.\d+)?")


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("shogun_map", ROOT / "tools" / "shogun_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_path(d: str) -> list[tuple[list[Point], bool]]:
    """The subpaths of SVG path data made of absolute M, L and Z: (points, closed)."""
    tokens = TOKEN.findall(d)
    assert "".join(tokens) == re.sub(r"[\s,]", "", d), f"unexpected text in {d!r}"
    subpaths: list[tuple[list[Point], bool]] = []
    i = 0
    while i < len(tokens):
        command = tokens[i]
        assert command in ("M", "L", "Z"), f"command {command!r} in {d!r}"
        if command == "Z":
            assert subpaths and not subpaths[-1][1], f"stray Z in {d!r}"
            subpaths[-1] = (subpaths[-1][0], True)
            i += 1
            continue
        point = (float(tokens[i + 1]), float(tokens[i + 2]))
        if command == "M":
            subpaths.append(([point], False))
        else:
            assert subpaths and not subpaths[-1][1], f"L outside a subpath in {d!r}"
            subpaths[-1][0].append(point)
        i += 3
    return subpaths


def ring(d: str) -> list[Point]:
    """The one closed ring of a province path."""
    (points, closed), *rest = parse_path(d)
    assert closed and not rest, f"not one closed ring: {d[:40]}..."
    return points


def edges(points: list[Point]) -> set[frozenset[Point]]:
    return {frozenset((points[i], points[(i + 1) % len(points)])) for i in range(len(points))}


def inside(p: Point, points: list[Point]) -> bool:
    result = False
    for i, a in enumerate(points):
        b = points[(i + 1) % len(points)]
        if (a[1] > p[1]) != (b[1] > p[1]) and p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (
            b[1] - a[1]
        ):
            result = not result
    return result


RINGS = {p["name"]: ring(p["path"]) for p in MAP["provinces"]}
EDGES = {name: edges(points) for name, points in RINGS.items()}
CONNECTED = {frozenset(c["pair"]) for c in MAP["connectors"]}
BARRIERS = {frozenset(b["pair"]) for b in MAP["barriers"]}


def _pairs(routes: list[dict[str, Any]]) -> set[frozenset[str]]:
    return {frozenset(r["pair"]) for r in routes}


def test_map_json_is_what_the_tool_draws() -> None:
    """shogun.md §14.1, §14.2: map.json is reproducible from geo.json and the package data."""
    tool = _tool()
    geo = json.loads((WEB / "geo.json").read_text(encoding="utf-8"))
    built = tool.build_map(geo, ADJACENCY, PROVINCES)
    assert built == MAP
    assert tool.format_map(built) == (WEB / "map.json").read_text(encoding="utf-8")


def test_provinces_in_game_order_closed_with_labels_inside() -> None:
    """shogun.md §14.1: the 45 provinces, in the game's order, each one closed outline."""
    assert [p["name"] for p in MAP["provinces"]] == [p["name"] for p in PROVINCES]
    assert len(MAP["provinces"]) == 45
    _, _, width, height = MAP["viewBox"]
    for province in MAP["provinces"]:
        points = RINGS[province["name"]]
        assert len(points) >= 3 and len(set(points)) == len(points), province["name"]
        assert all(0 <= x <= width and 0 <= y <= height for x, y in points), province["name"]
        label = (province["label"][0], province["label"][1])
        assert inside(label, points), f"{province['name']}: label {label} outside"
        for other, other_points in RINGS.items():
            if other != province["name"]:
                assert not inside(label, other_points), f"{province['name']}'s label in {other}"
    for background in MAP["background"]:
        assert all(closed for _, closed in parse_path(background["path"])), background["name"]


def test_borders_and_connectors_are_the_land_adjacency() -> None:
    """shogun.md §14.2: two provinces share a drawn border or a connector iff land-adjacent."""
    names = [p["name"] for p in PROVINCES]
    for a, b in itertools.combinations(names, 2):
        pair = frozenset((a, b))
        shown = bool(EDGES[a] & EDGES[b]) or pair in CONNECTED
        shown_as_adjacent = shown and pair not in BARRIERS
        assert shown_as_adjacent == (pair in LAND), (
            f"{a}-{b}: drawn {shown}, barrier {pair in BARRIERS}"
        )
    assert len(LAND) == 91
    for connector in MAP["connectors"]:
        assert len(connector["line"]) == 4
        a, b = connector["pair"]
        assert not EDGES[a] & EDGES[b], f"{a}-{b} share a border and have a connector"


def test_no_contact_between_provinces_that_are_not_adjacent() -> None:
    """shogun.md §14.2: non-adjacent provinces touch (border or corner) only along a barrier."""
    for a, b in itertools.combinations(RINGS, 2):
        pair = frozenset((a, b))
        if pair in LAND:
            continue
        touching = set(RINGS[a]) & set(RINGS[b])
        if pair in BARRIERS:
            barrier = next(x for x in MAP["barriers"] if frozenset(x["pair"]) == pair)
            drawn = {p for points, _ in parse_path(barrier["path"]) for p in points}
            assert touching <= drawn, f"{a}-{b} touch outside their barrier"
        else:
            assert not touching, f"{a} and {b} are not adjacent but touch at {sorted(touching)}"
    for barrier in MAP["barriers"]:
        assert frozenset(barrier["pair"]) not in LAND, f"barrier between adjacent {barrier['pair']}"


def _route_ends(d: str) -> tuple[Point, Point, Point]:
    tokens = TOKEN.findall(d)
    assert tokens[0] == "M" and tokens[3] == "Q" and len(tokens) == 8, d
    n = [float(t) for t in tokens[1:3] + tokens[4:8]]
    return (n[0], n[1]), (n[2], n[3]), (n[4], n[5])


def _check_routes(routes: list[dict[str, Any]]) -> None:
    land = [RINGS[name] for name in RINGS] + [ring(b["path"]) for b in MAP["background"]]
    for route in routes:
        a, b = route["pair"]
        start, control, end = _route_ends(route["path"])
        # Each end is on its own province's outline, and the curve in between is over water.
        assert start in RINGS[a] and end in RINGS[b], route
        for i in range(1, 20):
            t = i / 20
            u = 1 - t
            p = (
                u * u * start[0] + 2 * u * t * control[0] + t * t * end[0],
                u * u * start[1] + 2 * u * t * control[1] + t * t * end[1],
            )
            assert not any(inside(p, points) for points in land), f"{a}-{b} crosses land"
        assert math.dist(start, end) > 5


def test_sun_sea_routes() -> None:
    """shogun.md §14.2: the sun side's 6 sea routes, each drawn over water."""
    assert _pairs(MAP["sea"]["sun"]) == {frozenset(p) for p in ADJACENCY["sun_sea"]}
    assert len(MAP["sea"]["sun"]) == 6
    _check_routes(MAP["sea"]["sun"])


def test_moon_sea_routes_are_the_option_default() -> None:
    """shogun.md §14.4: the moon side's sea routes are the moon_sea_routes option's default."""
    default = ShogunOptions().moon_sea_routes
    pairs = {frozenset(r.strip().split("/")) for r in default.split(",")}
    assert _pairs(MAP["sea"]["moon"]) == pairs
    assert len(MAP["sea"]["moon"]) == len(pairs)
    _check_routes(MAP["sea"]["moon"])
