"""The packaged rules data: every table of shogun.md, validated on load."""

from __future__ import annotations

import msgspec
import pytest

from sengoku.games.shogun import data as data_mod
from sengoku.games.shogun.data import DataError, ShogunData, load_data

D = load_data()
SUN_REMOVED = {"Mutsu", "Echigo", "Awa-Boso", "Kazusa", "Sanuki", "Tosa", "Izumo", "Iwami"}


def test_provinces_values_and_regions() -> None:
    """shogun.md §14.1: 45 provinces, 9 per region on each side, totals 220/140/87."""
    assert len(D.provinces) == 45
    p = D.provinces[D.index["Etchu"]]
    assert (p.tax, p.rice, p.slots, p.sun_region, p.moon_region) == (7, 3, 3, "brown", "brown")
    p = D.provinces[D.index["Owari"]]
    assert (p.tax, p.rice, p.slots, p.sun_region, p.moon_region) == (6, 2, 2, "red", "purple")
    assert sum(D.tax) == 220 and sum(D.rice) == 140 and sum(D.slots) == 87
    changes = {p.name for p in D.provinces if p.sun_region != p.moon_region}
    assert changes == {
        "Hitachi",
        "Shinano",
        "Kai",
        "Mimasaka",
        "Owari",
        "Sanuki",
        "Echizen",
        "Wakasa",
    }
    for side in ("sun", "moon"):
        board = D.board(side, 4)
        assert sorted(board.region.count(r) for r in range(5)) == [9] * 5


def test_adjacency_is_symmetric_connected_with_sea_routes() -> None:
    """shogun.md §14.2: 91 land edges + 6 sea routes, symmetric and connected."""
    board = D.board("sun", 4)
    edges = {(a, b) for a in range(45) for b in board.neighbours[a]}
    assert all((b, a) in edges for a, b in edges)
    assert len(edges) // 2 == 97
    assert D.index["Tajima"] in board.neighbours[D.index["Kaga"]]  # sea route
    assert D.index["Mikawa"] not in board.neighbours[D.index["Kai"]]  # the dropped IMR edge
    assert len(board.neighbours[D.index["Shinano"]]) == 9


def test_three_player_provinces_are_removed_and_unreachable() -> None:
    """shogun.md §2.1, §14.3: with 3 players the 8 marked provinces can never be entered."""
    for side in ("sun", "moon"):
        board = D.board(side, 3)
        removed = {D.names[p] for p in board.removed}
        assert removed == SUN_REMOVED
        for p in range(45):
            for q in board.neighbours[p]:
                assert D.names[q] not in SUN_REMOVED
        assert all(board.neighbours[D.index[n]] == () for n in SUN_REMOVED)
        # still connected without them (checked on load) and full with 4 players
        assert D.board(side, 4).removed == ()


def test_standard_lineups_match_the_table() -> None:
    """shogun.md §14.6 and §2.3: line-ups for 3/4/5 players with stacks 5,4,4,3,3,2,2,2,2."""
    assert D.stacks[3] == (5, 4, 4, 3, 3, 2, 2, 2, 2)
    assert D.stacks[4] == (5, 4, 4, 3, 3, 2, 2, 2)
    assert D.stacks[5] == (5, 4, 4, 3, 3, 2, 2)
    names = {k: [[D.names[p] for p in row] for row in v] for k, v in D.lineups.items()}
    assert names[3][0][:3] == ["Suruga", "Mino", "Tamba"]
    assert names[4][3] == ["Kai", "Musashi", "Mino", "Mikawa", "Bingo", "Aki", "Totomi", "Sagami"]
    assert names[5][2] == ["Mino", "Hida", "Iyo", "Owari", "Totomi", "Mikawa", "Tosa"]
    for n, rows in names.items():
        flat = [x for r in rows for x in r]
        assert len(flat) == len(set(flat)) == n * len(D.stacks[n])
    assert not {x for r in names[3] for x in r} & SUN_REMOVED


def test_events_specials_and_tables() -> None:
    """shogun.md §7, §6, §10.3, §1: 12 events with winter losses, 5 cards, revolt table."""
    assert [e.winter_rice_loss for e in D.events] == [5, 7, 3, 2, 6, 3, 4, 0, 2, 3, 4, 1]
    kinds = [e.kind for e in D.events]
    assert kinds.count("theatre_calm") == 2 and kinds.count("castle_defence") == 2
    assert kinds.count("temple_peace") == 2
    assert [c.kind for c in D.specials] == [
        "plus_chest",
        "plus_rice",
        "six_armies",
        "attack_cube",
        "defence_cube",
    ]
    assert D.winter == ((1, 1, 1, 1), (2, 2, 1, 2), (3, 4, 2, 2), (5, 6, 2, 3), (7, 1000, 3, 3))
    t = D.tables
    assert t.buildings == {"castle": 28, "temple": 26, "theatre": 26}
    assert t.starting_chests == {"3": 18, "4": 15, "5": 12}
    assert (t.cubes_per_colour, t.peasant_cubes, t.revolt_markers) == (62, 20, 42)


def _files() -> list[object]:
    def read(name: str, typ: type) -> object:
        return msgspec.json.decode(data_mod._read(name), type=typ)

    return [
        read("provinces.json", data_mod.ProvinceFile),
        read("adjacency.json", data_mod.AdjacencyFile),
        read("moon_land.json", data_mod.MoonLandFile),
        read("lineups.json", data_mod.LineupFile),
        read("moon_lineups.json", data_mod.MoonLineupFile),
        read("events.json", data_mod.EventFile),
        read("special_cards.json", data_mod.SpecialFile),
        read("tables.json", data_mod.TablesFile),
    ]


def test_mistakes_in_the_data_are_refused() -> None:
    """shogun.md §14 (data validation): a wrong count or a bad edge raises DataError."""
    files = _files()
    ShogunData(*files)  # type: ignore[arg-type]
    adj = files[1]
    broken = msgspec.structs.replace(adj, land=adj.land[:-1])  # type: ignore[type-var]
    with pytest.raises(DataError):
        ShogunData(files[0], broken, *files[2:])  # type: ignore[arg-type]
    bad_edge = msgspec.structs.replace(adj, land=[*adj.land[:-1], ("Owari", "Nowhere")])  # type: ignore[type-var]
    with pytest.raises(DataError):
        ShogunData(files[0], bad_edge, *files[2:])  # type: ignore[arg-type]
    ev = files[5]
    with pytest.raises(DataError):
        ShogunData(*files[:5], msgspec.structs.replace(ev, events=ev.events[:11]), *files[6:])  # type: ignore[type-var, arg-type]
    moon = files[2]
    for land in (
        [*moon.land, ("Owari", "Nowhere")],  # type: ignore[attr-defined]
        [*moon.land, moon.land[0]],  # type: ignore[attr-defined]
        [e for e in moon.land if "Noto" not in e],  # type: ignore[attr-defined]  # Noto cut off
    ):
        with pytest.raises(DataError):
            ShogunData(*files[:2], msgspec.structs.replace(moon, land=land), *files[3:])  # type: ignore[type-var, arg-type]
    lineups = files[4]
    five = lineups.lineups["5"]  # type: ignore[attr-defined]
    repeated = {**lineups.lineups, "5": [five[0], [five[0][0], *five[1][1:]], *five[2:]]}  # type: ignore[attr-defined]
    with pytest.raises(DataError):
        ShogunData(*files[:4], msgspec.structs.replace(lineups, lineups=repeated), *files[5:])  # type: ignore[type-var, arg-type]
