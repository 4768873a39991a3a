"""Shogun's rules data: provinces, adjacency, line-ups, events, special cards and tables.

Every fact lives in ``data/*.json`` with a ``source`` note pointing at ``shared/rules/shogun.md``.
The files are decoded into typed structs (``msgspec`` checks the types) and then checked for
what must add up: 45 provinces, 9 per region on each side, symmetric and connected adjacency
(also with the three-player provinces removed), line-ups without repeats, 12 events, 5 special
cards, a winter table without gaps. Any mistake raises :class:`DataError` on first load.

>>> d = load_data()
>>> len(d.provinces), d.provinces[d.index["Owari"]].tax
(45, 6)
>>> board = d.board("sun", 3)
>>> board.in_play[d.index["Mutsu"]], len(board.neighbours[d.index["Shinano"]])  # no Echigo
(False, 8)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources

import msgspec

SIDES = ("sun", "moon")
ACTIONS = (
    "castle",
    "temple",
    "theatre",
    "rice",
    "tax",
    "recruit5",
    "recruit3",
    "recruit1",
    "battle_a",
    "battle_b",
)
ACTION_TITLES = (
    "build castle",
    "build temple",
    "build Nō theatre",
    "collect rice",
    "collect taxes",
    "recruit 5",
    "recruit 3",
    "recruit 1 / move",
    "battle/move A",
    "battle/move B",
)
#: Short names used in the planning notation ("plan tax: Owari").
ACTION_SHORT = (
    "castle",
    "temple",
    "theatre",
    "rice",
    "tax",
    "recruit 5",
    "recruit 3",
    "recruit 1",
    "battle A",
    "battle B",
)
BUILDINGS = ("castle", "temple", "theatre")


class DataError(ValueError):
    """The packaged rules data is inconsistent."""


class Province(msgspec.Struct, frozen=True):
    name: str
    kanji: str
    tax: int
    rice: int
    slots: int
    sun_region: str
    moon_region: str


class ProvinceFile(msgspec.Struct, frozen=True):
    source: str
    regions: list[str]
    provinces: list[Province]


class AdjacencyFile(msgspec.Struct, frozen=True):
    source: str
    land: list[tuple[str, str]]
    sun_sea: list[tuple[str, str]]
    sun_three_player_removed: list[str]
    moon_sea_default: list[tuple[str, str]]
    moon_three_player_removed_default: list[str]


class MoonLandFile(msgspec.Struct, frozen=True):
    source: str
    certainty: str
    land: list[tuple[str, str]]


class MoonLineupFile(msgspec.Struct, frozen=True):
    source: str
    certainty: str
    lineups: dict[str, list[list[str]]]


class LineupFile(msgspec.Struct, frozen=True):
    source: str
    stacks: dict[str, list[int]]
    lineups: dict[str, list[list[str]]]


class Event(msgspec.Struct, frozen=True):
    id: int
    kind: str
    winter_rice_loss: int
    effect: str


class EventFile(msgspec.Struct, frozen=True):
    source: str
    events: list[Event]


class SpecialCard(msgspec.Struct, frozen=True):
    id: int
    kind: str
    label: str
    effect: str


class SpecialFile(msgspec.Struct, frozen=True):
    source: str
    cards: list[SpecialCard]


class Recruit(msgspec.Struct, frozen=True):
    cost: int
    armies: int


class WinterRow(msgspec.Struct, frozen=True):
    short_min: int
    short_max: int
    provinces: int
    peasants: int


class Priming(msgspec.Struct, frozen=True):
    per_player: int
    peasants: int


class TablesFile(msgspec.Struct, frozen=True):
    source: str
    cubes_per_colour: int
    peasant_cubes: int
    revolt_markers: int
    buildings: dict[str, int]
    building_costs: dict[str, int]
    majority_points: dict[str, int]
    starting_chests: dict[str, int]
    tower_priming: Priming
    recruit: dict[str, Recruit]
    winter_revolts: list[WinterRow]


EVENT_KINDS = (
    "theatre_calm",
    "two_peasants",
    "castle_defence",
    "temple_peace",
    "tax_max_5",
    "tax_min_6",
    "rice_min_4",
    "rice_max_3",
    "recruit_shortage",
)
SPECIAL_KINDS = ("plus_chest", "plus_rice", "six_armies", "attack_cube", "defence_cube")


class Board:
    """One board side for one player count, compiled for fast play (province ids 0..44)."""

    __slots__ = ("in_play", "neighbours", "region", "removed", "sea", "side")

    def __init__(
        self,
        data: ShogunData,
        side: str,
        players: int,
        sea: Sequence[tuple[str, str]],
        removed: Sequence[str],
        land: Sequence[tuple[int, int]],
    ) -> None:
        idx = data.index
        n = len(data.provinces)
        self.side = side
        self.region: tuple[int, ...] = tuple(
            data.regions.index(p.sun_region if side == "sun" else p.moon_region)
            for p in data.provinces
        )
        self.removed: tuple[int, ...] = (
            tuple(sorted(idx[r] for r in removed)) if players == 3 else ()
        )
        self.in_play: tuple[bool, ...] = tuple(i not in self.removed for i in range(n))
        adj: list[set[int]] = [set() for _ in range(n)]
        for a, b in [*land, *((idx[x], idx[y]) for x, y in sea)]:
            adj[a].add(b)
            adj[b].add(a)
        self.sea: tuple[tuple[int, int], ...] = tuple(
            (min(idx[x], idx[y]), max(idx[x], idx[y])) for x, y in sea
        )
        # removed provinces can never be entered: drop them from every neighbour list
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(j for j in adj[i] if self.in_play[j])) if self.in_play[i] else ()
            for i in range(n)
        )
        check_connected(self.neighbours, [i for i in range(n) if self.in_play[i]], side)


def check_connected(neighbours: Sequence[Sequence[int]], nodes: list[int], what: str) -> None:
    """Raise :class:`DataError` unless ``nodes`` form one connected graph."""
    if not nodes:
        raise DataError(f"{what}: no provinces in play")
    seen = {nodes[0]}
    todo = [nodes[0]]
    while todo:
        for j in neighbours[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) != len(nodes):
        raise DataError(f"{what}: the province graph is not connected")


class ShogunData:
    """All packaged data, validated."""

    def __init__(
        self,
        provinces: ProvinceFile,
        adjacency: AdjacencyFile,
        moon_land: MoonLandFile,
        lineups: LineupFile,
        moon_lineups: MoonLineupFile,
        events: EventFile,
        specials: SpecialFile,
        tables: TablesFile,
    ) -> None:
        self.regions: list[str] = provinces.regions
        self.provinces: list[Province] = provinces.provinces
        self.names: tuple[str, ...] = tuple(p.name for p in self.provinces)
        self.index: dict[str, int] = {p.name: i for i, p in enumerate(self.provinces)}
        self.adjacency = adjacency
        self.lineup_file = lineups
        self.events: list[Event] = events.events
        self.specials: list[SpecialCard] = specials.cards
        self.tables = tables
        self.land: list[tuple[int, int]] = [
            (self.index.get(a, -1), self.index.get(b, -1)) for a, b in adjacency.land
        ]
        #: the moon side's land edges (``moon_land.json``: §14.4's proposal, M)
        self.moon_land_file = moon_land
        self.moon_land: list[tuple[int, int]] = [
            (self.index.get(a, -1), self.index.get(b, -1)) for a, b in moon_land.land
        ]
        self.moon_lineup_file = moon_lineups
        self.validate()
        self.tax: tuple[int, ...] = tuple(p.tax for p in self.provinces)
        self.rice: tuple[int, ...] = tuple(p.rice for p in self.provinces)
        self.slots: tuple[int, ...] = tuple(p.slots for p in self.provinces)
        self.stacks: dict[int, tuple[int, ...]] = {
            int(k): tuple(v) for k, v in lineups.stacks.items()
        }
        self.lineups: dict[int, tuple[tuple[int, ...], ...]] = {
            int(k): tuple(tuple(self.index[n] for n in row) for row in v)
            for k, v in lineups.lineups.items()
        }
        #: the moon side's own line-ups (``moon_lineups.json``: not in the reference, L)
        self.moon_lineups: dict[int, tuple[tuple[int, ...], ...]] = {
            int(k): tuple(tuple(self.index[n] for n in row) for row in v)
            for k, v in moon_lineups.lineups.items()
        }
        self.winter: tuple[tuple[int, int, int, int], ...] = tuple(
            (r.short_min, r.short_max, r.provinces, r.peasants) for r in tables.winter_revolts
        )
        self.event_kind: tuple[str, ...] = tuple(e.kind for e in self.events)
        self.event_loss: tuple[int, ...] = tuple(e.winter_rice_loss for e in self.events)

    # -- validation ----------------------------------------------------------------

    def validate(self) -> None:
        """Check counts and cross-references; raise :class:`DataError` on any mistake."""
        fail = DataError
        if len(self.provinces) != 45 or len(self.index) != 45:
            raise fail("there must be 45 provinces with distinct names")
        if sorted(self.regions) != sorted(set(self.regions)) or len(self.regions) != 5:
            raise fail("there must be 5 distinct regions")
        for side in SIDES:
            for r in self.regions:
                members = [
                    p
                    for p in self.provinces
                    if (p.sun_region if side == "sun" else p.moon_region) == r
                ]
                if len(members) != 9:
                    raise fail(f"{side} side: region {r} has {len(members)} provinces, not 9")
        for p in self.provinces:
            if not (1 <= p.slots <= 3 and p.tax > 0 and p.rice > 0):
                raise fail(f"{p.name}: bad values")
        if sum(p.tax for p in self.provinces) != 220 or sum(p.rice for p in self.provinces) != 140:
            raise fail("tax and rice totals must be 220 and 140 (rules §14.1)")
        if sum(p.slots for p in self.provinces) != 87:
            raise fail("building slots must total 87 (rules §1)")
        a = self.adjacency
        seen: set[frozenset[str]] = set()
        for x, y in [*a.land, *a.sun_sea, *a.moon_sea_default, *self.moon_land_file.land]:
            if x not in self.index or y not in self.index or x == y:
                raise fail(f"bad edge {x}-{y}")
        for edges in (a.land, self.moon_land_file.land):
            seen.clear()
            for x, y in edges:
                e = frozenset((x, y))
                if e in seen:
                    raise fail(f"edge {x}-{y} listed twice")
                seen.add(e)
        if len(a.land) != 91 or len(a.sun_sea) != 6:
            raise fail("the sun side has 91 land edges and 6 sea routes (rules §14.2)")
        for removed in (a.sun_three_player_removed, a.moon_three_player_removed_default):
            if len(set(removed)) != 8 or any(r not in self.index for r in removed):
                raise fail("8 distinct three-player provinces are removed per side (rules §1)")
        if len(self.events) != 12 or [e.id for e in self.events] != list(range(12)):
            raise fail("there must be 12 event cards")
        if sorted(e.winter_rice_loss for e in self.events) != [0, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7]:
            raise fail("winter rice losses must be 0,1,2,2,3,3,3,4,4,5,6,7 (rules §7)")
        if any(e.kind not in EVENT_KINDS for e in self.events):
            raise fail("unknown event kind")
        if [c.kind for c in self.specials] != list(SPECIAL_KINDS):
            raise fail("the 5 special cards must be " + ", ".join(SPECIAL_KINDS))
        t = self.tables
        if t.buildings != {"castle": 28, "temple": 26, "theatre": 26}:
            raise fail("building supply must be 28 castles, 26 temples, 26 Nō theatres")
        if sorted(t.building_costs) != sorted(BUILDINGS) or sorted(t.majority_points) != sorted(
            BUILDINGS
        ):
            raise fail("building tables must name castle, temple, theatre")
        if sorted(t.recruit) != ["recruit1", "recruit3", "recruit5"]:
            raise fail("recruit table must name recruit5, recruit3, recruit1")
        expected = 1
        for row in t.winter_revolts:
            if row.short_min != expected or row.short_max < row.short_min:
                raise fail("the winter revolt table must cover shortages 1, 2, ... without gaps")
            expected = row.short_max + 1
        lf = self.lineup_file
        for table, removed in (
            (lf.lineups, a.sun_three_player_removed),
            (self.moon_lineup_file.lineups, a.moon_three_player_removed_default),
        ):
            for count in ("3", "4", "5"):
                stacks = lf.stacks[count]
                rows = table[count]
                if len(rows) != int(count) or any(len(r) != len(stacks) for r in rows):
                    raise fail(
                        f"{count}-player line-up must have a row per player, a name per stack"
                    )
                flat = [n for r in rows for n in r]
                if len(set(flat)) != len(flat) or any(n not in self.index for n in flat):
                    raise fail(f"{count}-player line-up repeats or misspells a province")
                if count == "3" and set(flat) & set(removed):
                    raise fail("the 3-player line-up uses a removed province")
                if count not in t.starting_chests:
                    raise fail("starting chests missing")
        for side in SIDES:
            for players in (3, 4, 5):
                self.board(side, players)
                self.board(side, players, land=self.moon_land)

    # -- boards --------------------------------------------------------------------

    def board(
        self,
        side: str,
        players: int,
        sea: Sequence[tuple[str, str]] | None = None,
        removed: Sequence[str] | None = None,
        land: Sequence[tuple[int, int]] | None = None,
    ) -> Board:
        """The compiled board for a side and player count (moon defaults from the data file;
        the land edges of ``adjacency.json`` unless ``land`` is given)."""
        if side == "sun":
            sea = self.adjacency.sun_sea if sea is None else sea
            removed = self.adjacency.sun_three_player_removed if removed is None else removed
        else:
            sea = self.adjacency.moon_sea_default if sea is None else sea
            removed = (
                self.adjacency.moon_three_player_removed_default if removed is None else removed
            )
        routes = tuple((a, b) for a, b in sea)
        edges = tuple(self.land if land is None else land)
        return _board(self, side, players, routes, tuple(removed), edges)


@functools.lru_cache(maxsize=64)
def _board(
    data: ShogunData,
    side: str,
    players: int,
    sea: tuple[tuple[str, str], ...],
    removed: tuple[str, ...],
    land: tuple[tuple[int, int], ...],
) -> Board:
    return Board(data, side, players, sea, removed, land)


def _read(name: str) -> bytes:
    return resources.files("sengoku.games.shogun").joinpath("data", name).read_bytes()


@functools.cache
def load_data() -> ShogunData:
    """Load and validate all packaged data (cached)."""
    try:
        return ShogunData(
            msgspec.json.decode(_read("provinces.json"), type=ProvinceFile),
            msgspec.json.decode(_read("adjacency.json"), type=AdjacencyFile),
            msgspec.json.decode(_read("moon_land.json"), type=MoonLandFile),
            msgspec.json.decode(_read("lineups.json"), type=LineupFile),
            msgspec.json.decode(_read("moon_lineups.json"), type=MoonLineupFile),
            msgspec.json.decode(_read("events.json"), type=EventFile),
            msgspec.json.decode(_read("special_cards.json"), type=SpecialFile),
            msgspec.json.decode(_read("tables.json"), type=TablesFile),
        )
    except msgspec.ValidationError as exc:
        raise DataError(f"Shogun data file is malformed: {exc}") from None
