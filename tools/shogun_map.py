"""Build the SVG geometry of the Shogun board from real province outlines.

Reads the CC0 province outlines (``src/sengoku/web/games/shogun/geo.json``, see the README next to
it) and the game's data (``src/sengoku/games/shogun/data/{adjacency,provinces}.json``) and writes
``src/sengoku/web/games/shogun/map.json``: one closed SVG path per board province in the game's
province order, a label point inside each, background land for the coastline, and the sea routes
of both board sides. The drawing is made to match the game's graph (``shogun.md`` §14.2):

* Tango (not on the board) is folded into Tajima, so Tajima borders Wakasa.
* Two borders are reshaped (``RESHAPES``): the Kozuke/Shimotsuke/Musashi/Shimosa near-quadripoint is
  flipped so Kozuke meets Shimosa and Shimotsuke no longer meets Musashi, and Suruga's upper Oi
  valley is given to Kai, so Kai meets Totomi and Shinano no longer meets Suruga.
* Any land edge still without a shared border gets a ``connectors`` line and any border between
  provinces that are not adjacent is listed in ``barriers`` (both empty with the reshapes above).

    python tools/shogun_map.py          # writes map.json
    python tools/shogun_map.py --check  # exits 1 if map.json is not what this script produces
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "sengoku" / "web" / "games" / "shogun"
GEO_PATH = WEB / "geo.json"
MAP_PATH = WEB / "map.json"
DATA = ROOT / "src" / "sengoku" / "games" / "shogun" / "data"
ADJACENCY_PATH = DATA / "adjacency.json"
PROVINCES_PATH = DATA / "provinces.json"

Point = tuple[float, float]
Ring = list[Point]

# --- Choices (see the README next to map.json) -------------------------------------------------

#: The map is cut off north of this latitude (degrees N): the board shows only the southern part
#: of Mutsu; Dewa, the background province beside it, is cut along the same line. Sado and the
#: whole of Echigo stay south of it.
NORTH_CUT = 38.6
#: Equirectangular projection: x = lon * cos(REF_LAT), y = -lat, REF_LAT about the middle of the
#: drawn latitudes.
REF_LAT = 35.7
#: Clockwise rotation of the drawing, degrees; 0 keeps north up.
ROTATE = 0.0
#: Width of the viewBox; the height follows from the drawing.
WIDTH = 1000.0
#: Empty border around the drawing, viewBox units.
MARGIN = 12.0
#: Sea routes run between coast points chosen to be near each other and, with this weight, near
#: the two provinces' labels (so a route ends in the body of its province, not in a corner).
SEA_LABEL_WEIGHT = 0.6
#: The background province folded into a board province, so that the board's Tajima-Wakasa edge
#: is a shared border.
FOLD = {"Tango": "Tajima"}
#: Border edits in [lon, lat]: (province, run of consecutive outline vertices, replacement run).
#: Every edit of one border is made on both sides so that the outlines keep tiling exactly.
RESHAPES: tuple[tuple[str, tuple[Point, ...], tuple[Point, ...]], ...] = (
    # Kanto: Kozuke, Shimotsuke, Musashi and Shimosa meet near the Watarase/Tone confluence, where
    # the outlines give Shimotsuke-Musashi a ~2 km border and keep Kozuke and Shimosa ~2 km apart.
    # The game has it the other way round (Kozuke-Shimosa adjacent, Shimotsuke-Musashi not): the
    # short edge A (139.67, 36.21) - B (139.69, 36.2) is replaced by a ~10 km Kozuke-Shimosa
    # border C (139.68, 36.25) - D (139.68, 36.16) across it; Shimotsuke keeps C, Musashi D.
    ("Kozuke", ((139.67, 36.21),), ((139.68, 36.16), (139.68, 36.25))),
    ("Shimosa", ((139.69, 36.2),), ((139.68, 36.25), (139.68, 36.16))),
    ("Shimotsuke", ((139.67, 36.21), (139.69, 36.2)), ((139.68, 36.25),)),
    ("Musashi", ((139.69, 36.2), (139.67, 36.21)), ((139.68, 36.16),)),
    # Suruga reaches north up the Oi river to Shinano between Kai and Totomi (which the game makes
    # adjacent, while Shinano and Suruga are not): that upper Oi valley goes to Kai, whose border
    # with Suruga becomes the chord from (138.25, 35.33) to (138.2, 35.22).
    (
        "Suruga",
        ((138.25, 35.33), (138.27, 35.52), (138.22, 35.64), (138.09, 35.34), (138.2, 35.22)),
        ((138.25, 35.33), (138.2, 35.22)),
    ),
    (
        "Kai",
        ((138.22, 35.64), (138.27, 35.52), (138.25, 35.33)),
        ((138.22, 35.64), (138.09, 35.34), (138.2, 35.22), (138.25, 35.33)),
    ),
)

ATTRIBUTION = "Province outlines derived from Ryoseikoku data (As Project), CC0 1.0"
SOURCE = (
    "Asukana/Ryoseikoku_20230626_TSV (1868 borders), commit "
    "2af72ac9e37ca0c2291a2115122d30917ff34fee, CC0 1.0; vectorised and simplified into geo.json; "
    "Tango folded into Tajima, two borders reshaped to match the game's graph and the map cut "
    f"at {NORTH_CUT} N by tools/shogun_map.py (see README.md)"
)


# --- Ring operations (in [lon, lat]) ---------------------------------------------------------


def _edges(ring: Ring) -> list[tuple[Point, Point]]:
    return [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]


def _signed_area(ring: Ring) -> float:
    return sum(p[0] * q[1] - q[0] * p[1] for p, q in _edges(ring)) / 2


def union(a: Ring, b: Ring) -> Ring:
    """The union of two counter-clockwise rings that share one run of border edges."""
    b_edges = set(_edges(b))
    shared = {(p, q) for p, q in _edges(a) if (q, p) in b_edges}
    if not shared:
        raise ValueError("the rings share no border edge")
    kept = [e for e in _edges(a) if e not in shared]
    kept += [(p, q) for p, q in _edges(b) if (q, p) not in shared]
    following: dict[Point, Point] = {}
    for p, q in kept:
        if p in following:
            raise ValueError(f"the rings touch twice at {p}")
        following[p] = q
    ring = [kept[0][0]]
    while following[ring[-1]] != ring[0]:
        ring.append(following[ring[-1]])
    if len(ring) != len(kept):
        raise ValueError("the union has a hole")
    return ring


def replace_run(ring: Ring, old: tuple[Point, ...], new: tuple[Point, ...]) -> Ring:
    """``ring`` with the consecutive vertices ``old`` replaced by ``new``."""
    n = len(ring)
    for i in range(n):
        if all(ring[(i + k) % n] == old[k] for k in range(len(old))):
            rest = [ring[(i + len(old) + k) % n] for k in range(n - len(old))]
            return rest + list(new)
    raise ValueError(f"run {old} not found")


def _cut_point(p: Point, q: Point, lat: float) -> Point:
    # The same border is cut identically from both sides: order the end points first.
    p, q = min(p, q), max(p, q)
    t = (lat - p[1]) / (q[1] - p[1])
    return (p[0] + t * (q[0] - p[0]), lat)


def cut_north(ring: Ring, lat: float) -> Ring:
    """The part of ``ring`` south of ``lat`` (Sutherland-Hodgman against one half-plane)."""
    out: Ring = []
    for p, q in _edges(ring):
        p_in, q_in = p[1] <= lat, q[1] <= lat
        if p_in:
            out.append(p)
        if p_in != q_in:
            out.append(_cut_point(p, q, lat))
    return out


# --- Projection and geometry in viewBox units ------------------------------------------------


def _round(v: float) -> float:
    r = round(v, 1)
    return 0.0 if r == 0 else r


class Projection:
    """Equirectangular at ``REF_LAT``, rotated ``ROTATE`` degrees clockwise, fitted to ``WIDTH``."""

    def __init__(self, rings: list[Ring]) -> None:
        self.cos_ref = math.cos(math.radians(REF_LAT))
        angle = math.radians(ROTATE)
        self.cos_a, self.sin_a = math.cos(angle), math.sin(angle)
        self.scale, self.dx, self.dy = 1.0, 0.0, 0.0
        pts = [self._raw(p) for ring in rings for p in ring]
        min_x, max_x = min(x for x, _ in pts), max(x for x, _ in pts)
        min_y, max_y = min(y for _, y in pts), max(y for _, y in pts)
        self.scale = (WIDTH - 2 * MARGIN) / (max_x - min_x)
        self.dx = MARGIN - min_x * self.scale
        self.dy = MARGIN - min_y * self.scale
        self.height = float(math.ceil((max_y - min_y) * self.scale + 2 * MARGIN))

    def _raw(self, p: Point) -> Point:
        x, y = p[0] * self.cos_ref, -p[1]
        return (x * self.cos_a - y * self.sin_a, x * self.sin_a + y * self.cos_a)

    def __call__(self, p: Point) -> Point:
        x, y = self._raw(p)
        return (_round(x * self.scale + self.dx), _round(y * self.scale + self.dy))

    def ring(self, ring: Ring) -> Ring:
        out: Ring = []
        for p in map(self, ring):
            if not out or p != out[-1]:
                out.append(p)
        if len(out) > 1 and out[0] == out[-1]:
            out.pop()
        return out


def _num(v: float) -> str:
    return f"{_round(v):.1f}".removesuffix(".0")


def path_data(ring: Ring) -> str:
    """SVG path data of a closed ring: ``M x y L x y ... Z``."""
    head, *rest = ring
    return (
        " ".join(
            [f"M {_num(head[0])} {_num(head[1])}"] + [f"L {_num(x)} {_num(y)}" for x, y in rest]
        )
        + " Z"
    )


def _segment_distance(p: Point, a: Point, b: Point) -> tuple[float, Point]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    c = (a[0] + t * dx, a[1] + t * dy)
    return math.dist(p, c), c


def inside(p: Point, ring: Ring) -> bool:
    """Even-odd point-in-polygon test."""
    result = False
    for a, b in _edges(ring):
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < x:
                result = not result
    return result


def _boundary_distance(p: Point, ring: Ring) -> float:
    return min(_segment_distance(p, a, b)[0] for a, b in _edges(ring))


def _signed_distance(p: Point, ring: Ring) -> float:
    d = _boundary_distance(p, ring)
    return d if inside(p, ring) else -d


def pole_of_inaccessibility(ring: Ring, precision: float = 0.5) -> Point:
    """The point inside ``ring`` farthest from its boundary (the "polylabel" algorithm)."""
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    min_x, min_y, max_x, max_y = min(xs), min(ys), max(xs), max(ys)
    size = max(max_x - min_x, max_y - min_y) / 2
    # Cells are (-potential, -distance, x, y, half size): the heap pops the most promising one.
    heap: list[tuple[float, float, float, float, float]] = []

    def push(x: float, y: float, h: float) -> None:
        d = _signed_distance((x, y), ring)
        heapq.heappush(heap, (-(d + h * math.sqrt(2)), -d, x, y, h))

    x = min_x + size
    while x < max_x + size:
        y = min_y + size
        while y < max_y + size:
            push(x, y, size)
            y += 2 * size
        x += 2 * size
    area_x = sum((a[0] + b[0]) * (a[0] * b[1] - b[0] * a[1]) for a, b in _edges(ring))
    area_y = sum((a[1] + b[1]) * (a[0] * b[1] - b[0] * a[1]) for a, b in _edges(ring))
    six_area = 6 * _signed_area(ring)
    best = (area_x / six_area, area_y / six_area)
    best_d = _signed_distance(best, ring)
    while heap:
        neg_potential, neg_d, x, y, h = heapq.heappop(heap)
        if -neg_d > best_d:
            best, best_d = (x, y), -neg_d
        if -neg_potential - best_d <= precision:
            continue
        for sx, sy in itertools.product((-1, 1), repeat=2):
            push(x + sx * h / 2, y + sy * h / 2, h / 2)
    return (_round(best[0]), _round(best[1]))


# --- Borders, connectors, barriers, sea routes -----------------------------------------------


def _undirected(ring: Ring) -> set[frozenset[Point]]:
    return {frozenset(e) for e in _edges(ring)}


def _chains(edges: set[frozenset[Point]]) -> list[list[Point]]:
    """The shared edges joined into polylines, in a fixed order."""
    todo = {tuple(sorted(e)) for e in edges}
    chains: list[list[Point]] = []
    while todo:
        a, b = min(todo)
        todo.remove((a, b))
        chain = [a, b]
        grown = True
        while grown:
            grown = False
            for e in sorted(todo):
                if chain[-1] in e:
                    chain.append(e[0] if e[1] == chain[-1] else e[1])
                elif chain[0] in e:
                    chain.insert(0, e[0] if e[1] == chain[0] else e[1])
                else:
                    continue
                todo.remove(e)
                grown = True
        chains.append(chain)
    return chains


def _closest(a: Ring, b: Ring) -> tuple[float, Point, Point]:
    best = (math.inf, a[0], b[0])
    for p in a:
        for s, t in _edges(b):
            d, c = _segment_distance(p, s, t)
            best = min(best, (d, p, c))
    for p in b:
        for s, t in _edges(a):
            d, c = _segment_distance(p, s, t)
            best = min(best, (d, c, p))
    return best


def _toward(p: Point, q: Point, distance: float) -> Point:
    d = math.dist(p, q)
    if d == 0:
        return p
    return (p[0] + (q[0] - p[0]) * distance / d, p[1] + (q[1] - p[1]) * distance / d)


def connector(a: Ring, b: Ring, label_a: Point, label_b: Point) -> list[float]:
    """A short line from inside ``a`` to inside ``b`` across the gap between them."""
    _, p, q = _closest(a, b)
    reach = 6.0
    p2, q2 = _toward(p, label_a, reach), _toward(q, label_b, reach)
    return [_round(p2[0]), _round(p2[1]), _round(q2[0]), _round(q2[1])]


def _bezier(p: Point, c: Point, q: Point, t: float) -> Point:
    u = 1 - t
    return (
        u * u * p[0] + 2 * u * t * c[0] + t * t * q[0],
        u * u * p[1] + 2 * u * t * c[1] + t * t * q[1],
    )


def sea_route(
    coast_a: set[Point], coast_b: set[Point], label_a: Point, label_b: Point, land: list[Ring]
) -> str:
    """A gentle quadratic curve over water from the coast of one province to the other's.

    The ends are coast points near each other, pulled towards the labels (``SEA_LABEL_WEIGHT``).
    """
    _, p, q = min(
        (math.dist(p, q) + SEA_LABEL_WEIGHT * (math.dist(p, label_a) + math.dist(q, label_b)), p, q)
        for p in sorted(coast_a)
        for q in sorted(coast_b)
    )
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    length = math.dist(p, q)
    normal = ((q[1] - p[1]) / length, (p[0] - q[0]) / length)
    # The least bend, to either side, that keeps the curve off the land (or touches it least).
    best: tuple[int, Point] | None = None
    for bend in (0.15, 0.25, 0.35, 0.45):
        for side in (1, -1):
            c = (
                mid[0] + side * bend * length * normal[0],
                mid[1] + side * bend * length * normal[1],
            )
            samples = [_bezier(p, c, q, i / 40) for i in range(3, 38)]
            on_land = sum(1 for s in samples if any(inside(s, ring) for ring in land))
            if best is None or on_land < best[0]:
                best = (on_land, c)
        if best is not None and best[0] == 0:
            break
    assert best is not None
    c = best[1]
    return f"M {_num(p[0])} {_num(p[1])} Q {_num(c[0])} {_num(c[1])} {_num(q[0])} {_num(q[1])}"


# --- The map ---------------------------------------------------------------------------------


def _check_tiling(rings: dict[str, Ring], orientation: int) -> None:
    """Each ring simple and turning the same way, no border drawn twice in the same direction."""
    seen: dict[tuple[Point, Point], str] = {}
    for name, ring in rings.items():
        if _signed_area(ring) * orientation <= 0 or len(set(ring)) != len(ring):
            raise ValueError(f"{name}: not a simple ring of the right orientation")
        for e in _edges(ring):
            if e in seen:
                raise ValueError(f"{name} and {seen[e]} overlap along {e}")
            seen[e] = name
        edges = _edges(ring)
        for (i, (a, b)), (j, (c, d)) in itertools.combinations(enumerate(edges), 2):
            if j - i > 1 and not (i == 0 and j == len(edges) - 1) and _cross(a, b, c, d):
                raise ValueError(f"{name}: the outline crosses itself at {a}-{b} / {c}-{d}")


def _cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0


def _pair(a: str, b: str) -> list[str]:
    return sorted((a, b))


def build_map(
    geo: dict[str, Any], adjacency: dict[str, Any], provinces: list[dict[str, Any]]
) -> dict[str, Any]:
    """The board geometry (see the module docstring) as a JSON-ready dict."""
    names = [p["name"] for p in provinces]
    board: dict[str, Ring] = {
        name: [(p[0], p[1]) for p in geo["provinces"][name]["outline"]] for name in names
    }
    others: dict[str, Ring] = {
        name: [(p[0], p[1]) for p in o["outline"]] for name, o in sorted(geo["others"].items())
    }
    for part, whole in FOLD.items():
        board[whole] = union(board[whole], others.pop(part))
    for name, old, new in RESHAPES:
        board[name] = replace_run(board[name], old, new)
    _check_tiling({**board, **others}, 1)
    board = {name: cut_north(ring, NORTH_CUT) for name, ring in board.items()}
    others = {name: cut_north(ring, NORTH_CUT) for name, ring in others.items()}
    others = {name: ring for name, ring in others.items() if len(ring) >= 3}

    project = Projection(list(board.values()) + list(others.values()))
    drawn = {name: project.ring(ring) for name, ring in board.items()}
    background = {name: project.ring(ring) for name, ring in others.items()}
    _check_tiling({**drawn, **background}, -1)  # y points down
    labels = {name: pole_of_inaccessibility(ring) for name, ring in drawn.items()}

    edge_sets = {name: _undirected(ring) for name, ring in drawn.items()}
    land = {frozenset(e) for e in adjacency["land"]}
    connectors: list[dict[str, Any]] = []
    barriers: list[dict[str, Any]] = []
    for a, b in itertools.combinations(names, 2):
        shared = edge_sets[a] & edge_sets[b]
        touching = shared or set(drawn[a]) & set(drawn[b])
        if frozenset((a, b)) in land and not shared:
            line = connector(drawn[a], drawn[b], labels[a], labels[b])
            connectors.append({"pair": _pair(a, b), "line": line})
        elif frozenset((a, b)) not in land and touching:
            if not shared:
                raise ValueError(f"{a} and {b} touch at a corner: move it (RESHAPES)")
            chains = _chains(shared)
            path = " ".join(
                " ".join(f"{'L' if i else 'M'} {_num(x)} {_num(y)}" for i, (x, y) in enumerate(c))
                for c in chains
            )
            barriers.append({"pair": _pair(a, b), "path": path})

    # The coast: edges of one outline only, less those along the northern cut.
    counts: dict[frozenset[Point], int] = {}
    for ring in list(drawn.values()) + list(background.values()):
        for e in _undirected(ring):
            counts[e] = counts.get(e, 0) + 1
    cut = {project(p) for ring in board.values() for p in ring if p[1] == NORTH_CUT}
    coast = {
        name: {p for e in edge_sets[name] if counts[e] == 1 and not e <= cut for p in e}
        for name in names
    }
    all_land = list(drawn.values()) + list(background.values())

    def routes(pairs: list[list[str]]) -> list[dict[str, Any]]:
        return [
            {
                "pair": _pair(a, b),
                "path": sea_route(coast[a], coast[b], labels[a], labels[b], all_land),
            }
            for a, b in sorted(_pair(a, b) for a, b in pairs)
        ]

    return {
        "attribution": ATTRIBUTION,
        "source": SOURCE,
        "viewBox": [0, 0, round(WIDTH), round(project.height)],
        "provinces": [
            {
                "name": name,
                "label": list(labels[name]),
                "area": round(abs(_signed_area(drawn[name]))),
                "path": path_data(drawn[name]),
            }
            for name in names
        ],
        "background": [
            {"name": name, "path": path_data(ring)} for name, ring in background.items()
        ],
        "connectors": sorted(connectors, key=lambda c: c["pair"]),
        "barriers": sorted(barriers, key=lambda c: c["pair"]),
        "sea": {"sun": routes(adjacency["sun_sea"]), "moon": routes(adjacency["moon_sea_default"])},
    }


def format_map(data: dict[str, Any]) -> str:
    """``data`` as JSON text: one line per province, background province, connector, route."""

    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    def block(items: list[Any], indent: str) -> str:
        if not items:
            return "[]"
        return "[\n" + ",\n".join(indent + "  " + one(i) for i in items) + "\n" + indent + "]"

    lines = []
    for key, value in data.items():
        if key == "sea":
            inner = ",\n".join(f"    {one(k)}: {block(v, '    ')}" for k, v in value.items())
            lines.append(f'  "sea": {{\n{inner}\n  }}')
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"  {one(key)}: {block(value, '  ')}")
        else:
            lines.append(f"  {one(key)}: {one(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load_inputs() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The copied outlines, the adjacency data and the province list of the package."""
    geo = json.loads(GEO_PATH.read_text(encoding="utf-8"))
    adjacency = json.loads(ADJACENCY_PATH.read_text(encoding="utf-8"))
    provinces = json.loads(PROVINCES_PATH.read_text(encoding="utf-8"))["provinces"]
    return geo, adjacency, provinces


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that map.json is current")
    args = parser.parse_args()
    text = format_map(build_map(*load_inputs()))
    if args.check:
        current = MAP_PATH.read_text(encoding="utf-8") if MAP_PATH.exists() else ""
        if current != text:
            print(f"{MAP_PATH.relative_to(ROOT)} is out of date", file=sys.stderr)
            return 1
        return 0
    MAP_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {MAP_PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
