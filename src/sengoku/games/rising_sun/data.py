"""Rising Sun's rules data: provinces, borders and routes, clans, Kami, Season cards, constants.

Every fact lives in ``data/*.json`` with its source (a section of ``shared/rules/rising_sun.md``)
and its certainty. The files are decoded into typed structs (``msgspec`` checks the types) and
checked for what must add up: 8 distinct provinces, edges between known provinces, each pair at
most once, a connected map, Hokkaido reached by Shipping Routes only; 5 clans with ranks 1-5 and
home provinces on the map; 7 Kami; a Mandate deck of at least 10 tiles; 7 Core cards and 5 cards
of each Set per Season; monsters with a Force. Any mistake raises :class:`DataError` on first load.

>>> d = load_data()
>>> d.province_names[d.index["Kyoto"]], d.provinces[d.index["Kyoto"]].reward.vp
('Kyoto', 4)
>>> sorted(d.province_names[q] for q in d.board(False).neighbours[d.index["Kansai"]])
['Hokkaido', 'Kyoto', 'Kyushu', 'Nagato', 'Shikoku']
>>> len(d.cards), [c.name for c in d.cards if c.set == "core" and c.season == 0][:3]
(81, ['Komainu', 'Oni of Skulls', 'Path of the Lion'])
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import msgspec

SETS = ("archway", "horseman", "teapot", "tower")
SEASON_KEYS = ("spring", "summer", "autumn")
CARD_TYPES = ("enhancement", "virtue", "monster", "war", "winter")


class DataError(ValueError):
    """The packaged rules data is inconsistent."""


class Reward(msgspec.Struct, frozen=True):
    vp: int
    coins: int
    ronin: int


class Province(msgspec.Struct, frozen=True):
    name: str
    kanji: str
    reward: Reward
    war_slots: int
    certainty: str
    source: str


class Edge(msgspec.Struct, frozen=True):
    a: str
    b: str
    kind: str
    verified: bool
    certainty: str
    source: str
    option: str = ""


class BoardFile(msgspec.Struct, frozen=True):
    source: str
    provinces: list[Province]
    edges: list[Edge]


class Clan(msgspec.Struct, frozen=True):
    name: str
    rank: int
    home: str
    income: int
    ability: str
    ability_name: str
    home_certainty: str
    income_certainty: str
    source: str


class ClanFile(msgspec.Struct, frozen=True):
    source: str
    clans: list[Clan]


class Kami(msgspec.Struct, frozen=True):
    name: str
    ability: str
    params: dict[str, int]
    certainty: str
    source: str


class KamiFile(msgspec.Struct, frozen=True):
    source: str
    kami: list[Kami]


class CardEntry(msgspec.Struct, frozen=True):
    id: str
    name: str
    set: str
    season: str
    cost: int
    type: str
    copies: int
    effect: str
    params: dict[str, int]
    certainty: str
    source: str
    force: int = 0
    oni: bool = False
    counts_as: list[str] = []


class CardFile(msgspec.Struct, frozen=True):
    source: str
    types: list[str]
    sets: dict[str, SetInfo]
    cards: list[CardEntry]


class Card(msgspec.Struct, frozen=True):
    """One physical Season card (each copy is its own card, with its own index; copies share
    their ``id``: set, Season and name, as ``"teapot.summer.way_of_the_merchant"``)."""

    index: int
    id: str
    name: str
    set: str
    season: int
    cost: int
    type: str
    effect: str
    params: dict[str, int]
    force: int
    oni: bool
    counts_as_shinto: bool
    counts_as_daimyo: bool


class Noted(msgspec.Struct, frozen=True):
    certainty: str
    source: str


class SetInfo(Noted, frozen=True):
    """A Set of Season cards: whether the retail base box is known to hold it (§17.4)."""

    in_base_box: bool


class Figures(Noted, frozen=True):
    daimyo: int
    shinto: int
    bushi: int
    strongholds: int


class Start(Noted, frozen=True):
    daimyo: int
    bushi: int
    strongholds: int


class Shrines(Noted, frozen=True):
    count: int


class Track(Noted, frozen=True):
    turns: str


class Mandates(Noted, frozen=True):
    names: list[str]
    deck: dict[str, int]
    draw: int


class Coins(Noted, frozen=True):
    coins: int


class Supply(Noted, frozen=True):
    """The Coins and Ronin tokens in the box (the common pile's size with ``box_supply``)."""

    coins: int
    ronin: int


class WarTokens(Noted, frozen=True):
    per_season: list[str]
    extra_over_players: int
    vp_by_season: list[int]


class SetBonus(Noted, frozen=True):
    steps: list[tuple[int, int]]


class Names(Noted, frozen=True):
    names: list[str]
    short: list[str] = []


class GameFile(msgspec.Struct, frozen=True):
    source: str
    figures: Figures
    start: Start
    shrines: Shrines
    political_track: Track
    mandates: Mandates
    stronghold_cost: Coins
    war_tokens: WarTokens
    set_bonus: SetBonus
    hostage_return: Coins
    supply: Supply
    advantages: Names
    seasons: Names


class Board(msgspec.Struct, frozen=True):
    """The map compiled for one setting: neighbours per province and which pairs are routes."""

    neighbours: tuple[tuple[int, ...], ...]
    route: frozenset[tuple[int, int]]

    def is_route(self, a: int, b: int) -> bool:
        """Whether ``a``-``b`` is a Shipping Route (rather than a land border)."""
        return (a, b) in self.route


class RisingSunData(msgspec.Struct, frozen=True):
    provinces: list[Province]
    province_names: tuple[str, ...]
    index: dict[str, int]
    edges: list[Edge]
    clans: list[Clan]
    clan_index: dict[str, int]
    kami: list[Kami]
    kami_index: dict[str, int]
    cards: list[Card]
    card_entries: list[CardEntry]
    sets: dict[str, SetInfo]
    game: GameFile
    sources: dict[str, str]
    boards: tuple[Board, Board]

    def board(self, nagato_kyushu: bool) -> Board:
        """The map with or without the optional Nagato-Kyushu route (option
        ``extra_route_nagato_kyushu``)."""
        return self.boards[nagato_kyushu]

    def cards_of(self, season_set: str, season: int) -> list[int]:
        """The card indices of one Season's deck: Core plus ``season_set`` (rules §4.1, §9)."""
        return [c.index for c in self.cards if c.season == season and c.set in ("core", season_set)]


def _read(name: str) -> bytes:
    return resources.files("sengoku.games.rising_sun").joinpath("data").joinpath(name).read_bytes()


@functools.cache
def load_data() -> RisingSunData:
    """Load and check the packaged data (once per process)."""
    try:
        board = msgspec.json.decode(_read("board.json"), type=BoardFile)
        clans = msgspec.json.decode(_read("clans.json"), type=ClanFile)
        kami = msgspec.json.decode(_read("kami.json"), type=KamiFile)
        cards = msgspec.json.decode(_read("cards.json"), type=CardFile)
        game = msgspec.json.decode(_read("game.json"), type=GameFile)
    except msgspec.ValidationError as exc:
        raise DataError(f"Rising Sun data: {exc}") from None
    names = tuple(p.name for p in board.provinces)
    index = {n: i for i, n in enumerate(names)}
    expanded: list[Card] = []
    for entry in cards.cards:
        if entry.season not in SEASON_KEYS:
            raise DataError(f"card {entry.name}: unknown season {entry.season!r}")
        for _ in range(entry.copies):
            expanded.append(
                Card(
                    index=len(expanded),
                    id=entry.id,
                    name=entry.name,
                    set=entry.set,
                    season=SEASON_KEYS.index(entry.season),
                    cost=entry.cost,
                    type=entry.type,
                    effect=entry.effect,
                    params=dict(entry.params),
                    force=entry.force,
                    oni=entry.oni,
                    counts_as_shinto="shinto" in entry.counts_as,
                    counts_as_daimyo="daimyo" in entry.counts_as,
                )
            )
    data = RisingSunData(
        provinces=board.provinces,
        province_names=names,
        index=index,
        edges=board.edges,
        clans=sorted(clans.clans, key=lambda c: c.rank),
        clan_index={c.name: i for i, c in enumerate(sorted(clans.clans, key=lambda c: c.rank))},
        kami=kami.kami,
        kami_index={k.name: i for i, k in enumerate(kami.kami)},
        cards=expanded,
        card_entries=cards.cards,
        sets=cards.sets,
        game=game,
        sources={
            "board": board.source,
            "clans": clans.source,
            "kami": kami.source,
            "cards": cards.source,
            "game": game.source,
        },
        boards=(_board(board, index, False), _board(board, index, True)),
    )
    _check(data, cards)
    return data


def _check(d: RisingSunData, cards: CardFile) -> None:
    names = d.province_names
    if len(names) != 8 or len(set(names)) != 8:
        raise DataError(f"Rising Sun has 8 distinct provinces, the data has {names}")
    for p in d.provinces:
        if p.war_slots != 1:
            raise DataError(f"{p.name}: each province has exactly one War Number slot (§16.1.4)")
        if min(p.reward.vp, p.reward.coins, p.reward.ronin) < 0:
            raise DataError(f"{p.name}: a negative Harvest reward")
    seen: set[frozenset[str]] = set()
    for e in d.edges:
        if e.a not in d.index or e.b not in d.index or e.a == e.b:
            raise DataError(f"edge {e.a}-{e.b}: not two different provinces")
        if e.kind not in ("border", "route"):
            raise DataError(f"edge {e.a}-{e.b}: kind is border or route, not {e.kind!r}")
        pair = frozenset((e.a, e.b))
        if pair in seen:
            raise DataError(f"edge {e.a}-{e.b} is listed twice")
        seen.add(pair)
        if e.option not in ("", "extra_route_nagato_kyushu"):
            raise DataError(f"edge {e.a}-{e.b}: unknown option {e.option!r}")
    for extra in (False, True):
        board = d.board(extra)
        reached = {0}
        frontier = [0]
        while frontier:
            for q in board.neighbours[frontier.pop()]:
                if q not in reached:
                    reached.add(q)
                    frontier.append(q)
        if len(reached) != 8:
            raise DataError("the map is not connected")
        for a, nbrs in enumerate(board.neighbours):
            for b in nbrs:
                if a not in board.neighbours[b]:
                    raise DataError("the map's neighbours are not symmetric")
    hokkaido = d.index["Hokkaido"]
    if any(e.kind == "border" and hokkaido in (d.index[e.a], d.index[e.b]) for e in d.edges):
        raise DataError("Hokkaido is reached by Shipping Routes only (§16.1.2)")
    ranks = [c.rank for c in d.clans]
    if ranks != [1, 2, 3, 4, 5]:
        raise DataError(f"the 5 base clans have Honor ranks 1-5, not {ranks}")
    for c in d.clans:
        if c.home not in d.index:
            raise DataError(f"clan {c.name}: unknown home province {c.home!r}")
        if c.income < 0:
            raise DataError(f"clan {c.name}: negative income")
    if len(d.kami) != 7 or len(d.kami_index) != 7:
        raise DataError("the base game has 7 distinct Kami (§16.3.1)")
    g = d.game
    if g.shrines.count != 4:
        raise DataError("4 Shrines are in play (§1)")
    if g.political_track.turns.count("M") != 7 or g.political_track.turns.count("K") != 3:
        raise DataError("the Political track has 7 Mandate and 3 Kami Turns (§1)")
    if not g.political_track.turns.endswith("K"):
        raise DataError("the Political Phase ends with a Kami Turn (§6.3)")
    if sorted(g.mandates.deck) != sorted(g.mandates.names) or len(g.mandates.names) != 5:
        raise DataError("the Mandate deck names each of the 5 Mandates")
    turns = g.political_track.turns.count("M")
    if sum(g.mandates.deck.values()) < g.mandates.draw + (turns - 1):
        raise DataError("the Mandate deck is too small for 7 Mandate Turns drawing 4 each")
    if sorted(g.war_tokens.per_season) != sorted(names) or len(g.war_tokens.vp_by_season) != 3:
        raise DataError("one War Province token per province and season (§15.4), VP for 3 seasons")
    steps = [lo for lo, _ in g.set_bonus.steps]
    if steps != sorted(steps) or not all(1 <= lo <= 8 for lo in steps):
        raise DataError("the set bonus steps are increasing numbers of provinces")
    if len(g.advantages.names) != 4 or len(g.advantages.short) != 4:
        raise DataError("a Battle has 4 War Advantages (§8.3)")
    if cards.types != list(CARD_TYPES):
        raise DataError(f"card types are {CARD_TYPES}")
    ids = [entry.id for entry in cards.cards]
    if len(set(ids)) != len(ids):
        raise DataError("every card entry has its own id")
    for entry in cards.cards:
        if not entry.id.startswith(f"{entry.set}.{entry.season}."):
            raise DataError(f"card {entry.name}: its id {entry.id!r} starts with set and Season")
        if entry.type not in CARD_TYPES:
            raise DataError(f"card {entry.name}: unknown type {entry.type!r}")
        if entry.set not in ("core", *SETS):
            raise DataError(f"card {entry.name}: unknown set {entry.set!r}")
        if entry.cost < 0 or entry.copies < 1:
            raise DataError(f"card {entry.name}: bad cost or copies")
        if (entry.type == "monster") != (entry.force > 0):
            raise DataError(f"card {entry.name}: monsters, and only monsters, have a Force")
        if not set(entry.counts_as) <= {"shinto", "daimyo"}:
            raise DataError(f"card {entry.name}: counts as a Shinto or a Daimyo only")
    if set(cards.sets) != set(SETS):
        raise DataError(f"cards.json describes the Sets {sorted(cards.sets)}, not {sorted(SETS)}")
    for season in range(3):
        core = [c for c in d.cards if c.set == "core" and c.season == season]
        if len(core) != 7:
            raise DataError(f"the Core set has 7 cards per Season, not {len(core)}")
        for name in SETS:
            got = [c for c in d.cards if c.set == name and c.season == season]
            if len(got) != 5:
                raise DataError(f"the {name} set has 5 cards per Season, not {len(got)}")
    for name in ("core", *SETS):
        monsters = [c.name for c in d.cards if c.set == name and c.type == "monster"]
        if len(monsters) != len(set(monsters)):
            raise DataError(f"set {name}: each Monster exists once per set (§15.5)")


def _board(board: BoardFile, index: dict[str, int], nagato_kyushu: bool) -> Board:
    nbrs: list[list[int]] = [[] for _ in board.provinces]
    route: set[tuple[int, int]] = set()
    for e in board.edges:
        if e.option and not nagato_kyushu:
            continue
        if e.a not in index or e.b not in index:
            raise DataError(f"edge {e.a}-{e.b}: unknown province")
        a, b = index[e.a], index[e.b]
        nbrs[a].append(b)
        nbrs[b].append(a)
        if e.kind == "route":
            route |= {(a, b), (b, a)}
    return Board(tuple(tuple(sorted(n)) for n in nbrs), frozenset(route))


def describe_edges(d: RisingSunData) -> list[dict[str, Any]]:
    """The edges as JSON data (for clients and docs)."""
    return [msgspec.to_builtins(e) for e in d.edges]
