"""Shitenno's components as data: loaded from ``data/*.json``, typed and checked on load.

Every file names the source of each fact (``shared/rules/shitenno.md`` and the sources it
cites). :func:`load` decodes the files into frozen ``msgspec`` structs and checks that the
counts add up (34 troop cards, 24 koku cards worth 40 koku, 24 bonus tiles, 8 provinces of
4 spaces, ...); a broken file fails at import with a :class:`DataError` that says what is wrong.

>>> DATA.provinces[7].name, DATA.provinces[7].values
('Kanto', (5, 6, 8, 11))
>>> sum(k.count for k in DATA.koku.cards), sum(k.value * k.count for k in DATA.koku.cards)
(24, 40)
"""

from __future__ import annotations

from importlib import resources
from itertools import combinations_with_replacement
from typing import Final

import msgspec

__all__ = [
    "DATA",
    "KIND_CODES",
    "KIND_UNITS",
    "TROOP_CODES",
    "TROOP_NAMES",
    "DataError",
    "GameData",
    "kind_of_code",
    "load",
]


class DataError(ValueError):
    """A data file that is malformed or whose counts do not add up."""


class Province(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One province of the board (shitenno.md §3)."""

    name: str
    display: str
    troop: str
    troops_needed: int
    values: tuple[int, ...]
    majority_bonus: int
    source: str


class ProvinceFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    spaces_per_province: int
    bonus_tiles_per_province: int
    provinces: tuple[Province, ...]


class TroopType(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A troop type with its two-letter notation code (shitenno.md §2.1)."""

    name: str
    code: str
    colour: str
    source: str


class TroopFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    types: tuple[TroopType, ...]
    singles_per_type: int
    singles_source: str
    doubles: tuple[str, ...]
    doubles_source: str
    total_cards: int
    total_source: str


class KokuCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    value: int
    count: int
    source: str


class KokuFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    cards: tuple[KokuCard, ...]
    total_cards: int
    total_koku: int


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A bonus-tile effect (shitenno.md §2.4, §9.2 G6)."""

    name: str
    display: str
    count: int
    meaning: str
    source: str


class BonusFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    effects: tuple[Effect, ...]
    total_tiles: int


class Title(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A title and its power (shitenno.md §2.5), highest rank first in the file."""

    name: str
    seals: int
    placement_bonus: int
    power: str
    source: str


class TitleFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    titles: tuple[Title, ...]


class SetupFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    players: tuple[int, ...]
    colours: tuple[str, ...]
    colours_source: str
    generals: tuple[str, ...]
    generals_source: str
    kamons_box_per_player: int
    kamons_box_source: str
    kamons_per_player: dict[str, int]
    kamons_per_player_source: str
    start_hand_troops: int
    start_hand_source: str
    tairo_draw_troops_per_player: int
    tairo_draw_koku_per_player: int
    tairo_draw_source: str
    placements_per_turn: int
    placements_source: str
    koku_points: int
    koku_points_source: str
    golden_weight: int
    golden_weight_source: str


class GameData(msgspec.Struct, frozen=True):
    """All of Shitenno's data, checked."""

    provinces: tuple[Province, ...]
    spaces_per_province: int
    bonus_tiles_per_province: int
    troops: TroopFile
    koku: KokuFile
    bonus: BonusFile
    titles: tuple[Title, ...]
    setup: SetupFile


def _read(name: str, kind: type[msgspec.Struct]) -> msgspec.Struct:
    raw = resources.files("sengoku.games.shitenno").joinpath("data", name).read_bytes()
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.DecodeError as exc:  # ValidationError is a DecodeError
        raise DataError(f"data/{name}: {exc}") from None


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise DataError(message)


#: The four troop types in data order; index = troop type number.
TROOP_NAMES: tuple[str, ...] = ("Bushi", "Samurai", "Shinobi", "Sohei")
#: Their two-letter codes, used in notation (``Sa``, ``BuSh``).
TROOP_CODES: tuple[str, ...] = ("Bu", "Sa", "Sh", "So")
#: Every possible troop-card kind: the 4 singles (kind = type), then the 10 unordered pairs.
KIND_UNITS: tuple[tuple[int, ...], ...] = tuple(
    [(t,) for t in range(4)] + list(combinations_with_replacement(range(4), 2))
)
#: The notation of each kind: ``Sa`` for a single Samurai, ``BuSh`` for a Bushi+Shinobi double.
KIND_CODES: tuple[str, ...] = tuple("".join(TROOP_CODES[t] for t in u) for u in KIND_UNITS)


def kind_of_code(code: str) -> int:
    """The kind number of a card code such as ``"SaSh"`` (any order of the halves).

    >>> kind_of_code("ShSa") == kind_of_code("SaSh")
    True
    """
    if len(code) not in (2, 4):
        raise ValueError(f"not a troop card code: {code!r}")
    units = []
    for i in range(0, len(code), 2):
        part = code[i : i + 2].capitalize()
        if part not in TROOP_CODES:
            raise ValueError(f"not a troop card code: {code!r}")
        units.append(TROOP_CODES.index(part))
    return KIND_UNITS.index(tuple(sorted(units)))


def load() -> GameData:
    """Read and check every data file; raise :class:`DataError` if anything is off."""
    pf = _read("provinces.json", ProvinceFile)
    tf = _read("troops.json", TroopFile)
    kf = _read("koku.json", KokuFile)
    bf = _read("bonus_tiles.json", BonusFile)
    hf = _read("titles.json", TitleFile)
    sf = _read("setup.json", SetupFile)
    assert isinstance(pf, ProvinceFile) and isinstance(tf, TroopFile)
    assert isinstance(kf, KokuFile) and isinstance(bf, BonusFile)
    assert isinstance(hf, TitleFile) and isinstance(sf, SetupFile)

    _check(
        tuple(t.name for t in tf.types) == TROOP_NAMES,
        f"troops.json: types must be {', '.join(TROOP_NAMES)} in that order",
    )
    _check(
        tuple(t.code for t in tf.types) == TROOP_CODES,
        f"troops.json: codes must be {', '.join(TROOP_CODES)}",
    )
    for code in tf.doubles:
        try:
            kind = kind_of_code(code)
        except ValueError as exc:
            raise DataError(f"troops.json: {exc}") from None
        _check(len(KIND_UNITS[kind]) == 2, f"troops.json: {code} is not a double card")
    _check(len(tf.doubles) == 10, "troops.json: there are 10 double troop cards")
    _check(
        4 * tf.singles_per_type + len(tf.doubles) == tf.total_cards == 34,
        "troops.json: singles and doubles must add up to 34 troop cards",
    )

    _check(sorted(k.value for k in kf.cards) == [1, 2, 3], "koku.json: values are 1, 2, 3")
    _check(
        sum(k.count for k in kf.cards) == kf.total_cards == 24, "koku.json: there are 24 koku cards"
    )
    _check(
        sum(k.value * k.count for k in kf.cards) == kf.total_koku == 40,
        "koku.json: the koku cards are worth 40 koku in all",
    )

    _check(
        tuple(e.name for e in bf.effects) == ("exchange", "plus_one", "draw"),
        "bonus_tiles.json: the effects are exchange, plus_one, draw",
    )
    _check(
        sum(e.count for e in bf.effects) == bf.total_tiles == 24,
        "bonus_tiles.json: there are 24 bonus tiles",
    )

    provinces = pf.provinces
    _check(len(provinces) == 8, "provinces.json: the board has 8 provinces")
    _check(len({p.name for p in provinces}) == 8, "provinces.json: names must be distinct")
    _check(pf.spaces_per_province == 4, "provinces.json: each province has 4 spaces")
    _check(
        pf.bonus_tiles_per_province * len(provinces) == bf.total_tiles,
        "provinces.json: the bonus tiles per province must use all 24 tiles",
    )
    _check(
        pf.bonus_tiles_per_province < pf.spaces_per_province,
        "provinces.json: the last space has no bonus tile",
    )
    for p in provinces:
        _check(p.troop in TROOP_NAMES, f"provinces.json: {p.name}: unknown troop {p.troop}")
        _check(p.troops_needed in (3, 4), f"provinces.json: {p.name} needs 3 or 4 troops")
        _check(
            len(p.values) == pf.spaces_per_province and list(p.values) == sorted(p.values),
            f"provinces.json: {p.name}: 4 space values, left to right, rising",
        )
        _check(p.majority_bonus > 0, f"provinces.json: {p.name}: a positive majority bonus")
        _check(p.name.isascii() and p.name.isalpha(), f"provinces.json: {p.name}: ASCII name")
    for troop in TROOP_NAMES:  # one 3-troop and one 4-troop province per type (§3)
        needs = sorted(p.troops_needed for p in provinces if p.troop == troop)
        _check(needs == [3, 4], f"provinces.json: {troop} needs one 3- and one 4-troop province")

    titles = hf.titles
    _check(
        tuple(t.name for t in titles) == ("Daimyo", "Shomyo", "Sensei", "Hatamoto"),
        "titles.json: Daimyo, Shomyo, Sensei, Hatamoto, highest first",
    )
    _check([t.seals for t in titles] == [4, 3, 2, 1], "titles.json: seals 4, 3, 2, 1")

    _check(sf.players == (2, 3, 4), "setup.json: 2 to 4 players")
    _check(len(sf.colours) == 4 and len(set(sf.colours)) == 4, "setup.json: 4 colours")
    spaces = len(provinces) * pf.spaces_per_province
    for n in sf.players:
        k = sf.kamons_per_player.get(str(n))
        _check(
            k is not None and 0 < k <= sf.kamons_box_per_player and n * k <= spaces,
            f"setup.json: kamons for {n} players must be 1..12 and fit on the board",
        )
    return GameData(
        provinces, pf.spaces_per_province, pf.bonus_tiles_per_province, tf, kf, bf, titles, sf
    )


#: The checked data, loaded once at import.
DATA: Final[GameData] = load()
