"""The full data tables checked against literals transcribed from the rules reference.

The literals below were transcribed once from ``shared/rules/shogun.md`` §14.1, §14.2, §14.3 and
§14.6 (and verified against that file by a parsing script); the tests do not read any file outside
the repository. Every province, every edge and every line-up row is compared.
"""

from __future__ import annotations

import pytest

import sengoku
from sengoku.games.shogun.data import load_data

D = load_data()

#: shogun.md §14.1, transcribed: (name, kanji, sun region, moon region, tax, rice, slots,
#: removed with 3 players), in the table's order.
PROVINCES = [
    ("Mutsu", "陸奥", "brown", "brown", 4, 3, 2, True),
    ("Echigo", "越後", "brown", "brown", 5, 3, 2, True),
    ("Shimotsuke", "下野", "brown", "brown", 6, 2, 3, False),
    ("Hitachi", "常陸", "brown", "yellow", 3, 4, 1, False),
    ("Kozuke", "上野", "brown", "brown", 3, 4, 2, False),
    ("Shinano", "信濃", "brown", "red", 6, 2, 3, False),
    ("Etchu", "越中", "brown", "brown", 7, 3, 3, False),
    ("Kaga", "加賀", "brown", "brown", 4, 5, 3, False),
    ("Noto", "能登", "brown", "brown", 5, 2, 2, False),
    ("Awa-Boso", "安房", "yellow", "yellow", 3, 4, 2, True),
    ("Kazusa", "上総", "yellow", "yellow", 5, 3, 3, True),
    ("Shimosa", "下総", "yellow", "yellow", 5, 5, 1, False),
    ("Musashi", "武蔵", "yellow", "yellow", 6, 3, 2, False),
    ("Sagami", "相模", "yellow", "yellow", 3, 4, 3, False),
    ("Kai", "甲斐", "yellow", "red", 5, 3, 1, False),
    ("Suruga", "駿河", "yellow", "yellow", 7, 3, 2, False),
    ("Izu", "伊豆", "yellow", "yellow", 6, 2, 3, False),
    ("Totomi", "遠江", "yellow", "yellow", 6, 2, 2, False),
    ("Mikawa", "三河", "red", "red", 6, 3, 1, False),
    ("Owari", "尾張", "red", "purple", 6, 2, 2, False),
    ("Mino", "美濃", "red", "red", 3, 5, 1, False),
    ("Hida", "飛騨", "red", "red", 4, 2, 2, False),
    ("Echizen", "越前", "red", "brown", 4, 4, 2, False),
    ("Omi", "近江", "red", "red", 3, 2, 3, False),
    ("Wakasa", "若狭", "red", "brown", 6, 2, 2, False),
    ("Tamba", "丹波", "red", "red", 7, 2, 1, False),
    ("Harima", "播磨", "red", "red", 4, 4, 2, False),
    ("Shima", "志摩", "purple", "purple", 4, 3, 1, False),
    ("Ise", "伊勢", "purple", "purple", 5, 3, 2, False),
    ("Kii", "紀伊", "purple", "purple", 5, 4, 2, False),
    ("Yamato", "大和", "purple", "purple", 5, 4, 2, False),
    ("Settsu", "摂津", "purple", "purple", 7, 3, 1, False),
    ("Sanuki", "讃岐", "purple", "green", 6, 2, 1, True),
    ("Awa-Shikoku", "阿波", "purple", "purple", 4, 2, 2, False),
    ("Tosa", "土佐", "purple", "purple", 6, 3, 2, True),
    ("Iyo", "伊予", "purple", "purple", 3, 4, 3, False),
    ("Tajima", "但馬", "green", "green", 4, 4, 1, False),
    ("Hoki", "伯耆", "green", "green", 6, 5, 2, False),
    ("Mimasaka", "美作", "green", "red", 7, 3, 1, False),
    ("Bizen", "備前", "green", "green", 4, 2, 1, False),
    ("Bitchu", "備中", "green", "green", 5, 3, 2, False),
    ("Bingo", "備後", "green", "green", 3, 4, 2, False),
    ("Izumo", "出雲", "green", "green", 3, 3, 3, True),
    ("Iwami", "石見", "green", "green", 7, 2, 1, True),
    ("Aki", "安芸", "green", "green", 4, 3, 2, False),
]

#: shogun.md §14.2, transcribed: the 91 land edges of the sun side.
LAND = [
    ("Aki", "Bingo"),
    ("Aki", "Iwami"),
    ("Awa-Boso", "Kazusa"),
    ("Awa-Shikoku", "Iyo"),
    ("Awa-Shikoku", "Sanuki"),
    ("Awa-Shikoku", "Tosa"),
    ("Bingo", "Bitchu"),
    ("Bingo", "Hoki"),
    ("Bingo", "Iwami"),
    ("Bingo", "Izumo"),
    ("Bitchu", "Bizen"),
    ("Bitchu", "Hoki"),
    ("Bitchu", "Mimasaka"),
    ("Bizen", "Harima"),
    ("Bizen", "Mimasaka"),
    ("Echigo", "Etchu"),
    ("Echigo", "Kozuke"),
    ("Echigo", "Mutsu"),
    ("Echigo", "Shinano"),
    ("Echizen", "Hida"),
    ("Echizen", "Kaga"),
    ("Echizen", "Mino"),
    ("Echizen", "Omi"),
    ("Echizen", "Wakasa"),
    ("Etchu", "Hida"),
    ("Etchu", "Kaga"),
    ("Etchu", "Noto"),
    ("Etchu", "Shinano"),
    ("Harima", "Hoki"),
    ("Harima", "Mimasaka"),
    ("Harima", "Settsu"),
    ("Harima", "Tajima"),
    ("Harima", "Tamba"),
    ("Hida", "Kaga"),
    ("Hida", "Mino"),
    ("Hida", "Shinano"),
    ("Hitachi", "Mutsu"),
    ("Hitachi", "Shimosa"),
    ("Hitachi", "Shimotsuke"),
    ("Hoki", "Izumo"),
    ("Hoki", "Mimasaka"),
    ("Hoki", "Tajima"),
    ("Ise", "Kii"),
    ("Ise", "Mino"),
    ("Ise", "Omi"),
    ("Ise", "Owari"),
    ("Ise", "Shima"),
    ("Ise", "Yamato"),
    ("Iwami", "Izumo"),
    ("Iyo", "Sanuki"),
    ("Iyo", "Tosa"),
    ("Izu", "Sagami"),
    ("Izu", "Suruga"),
    ("Kaga", "Noto"),
    ("Kai", "Musashi"),
    ("Kai", "Sagami"),
    ("Kai", "Shinano"),
    ("Kai", "Suruga"),
    ("Kai", "Totomi"),
    ("Kazusa", "Shimosa"),
    ("Kii", "Settsu"),
    ("Kii", "Yamato"),
    ("Kozuke", "Musashi"),
    ("Kozuke", "Mutsu"),
    ("Kozuke", "Shimosa"),
    ("Kozuke", "Shimotsuke"),
    ("Kozuke", "Shinano"),
    ("Mikawa", "Mino"),
    ("Mikawa", "Owari"),
    ("Mikawa", "Shinano"),
    ("Mikawa", "Totomi"),
    ("Mino", "Omi"),
    ("Mino", "Owari"),
    ("Mino", "Shinano"),
    ("Musashi", "Sagami"),
    ("Musashi", "Shimosa"),
    ("Musashi", "Shinano"),
    ("Mutsu", "Shimotsuke"),
    ("Omi", "Settsu"),
    ("Omi", "Tamba"),
    ("Omi", "Wakasa"),
    ("Omi", "Yamato"),
    ("Sagami", "Suruga"),
    ("Settsu", "Tamba"),
    ("Settsu", "Yamato"),
    ("Shimosa", "Shimotsuke"),
    ("Shinano", "Totomi"),
    ("Suruga", "Totomi"),
    ("Tajima", "Tamba"),
    ("Tajima", "Wakasa"),
    ("Tamba", "Wakasa"),
]

#: shogun.md §14.2, transcribed: the 6 sea routes (dashed lines) of the sun side.
SEA = [
    ("Aki", "Iyo"),
    ("Awa-Boso", "Izu"),
    ("Awa-Shikoku", "Kii"),
    ("Harima", "Sanuki"),
    ("Izu", "Shima"),
    ("Kaga", "Tajima"),
]

#: shogun.md §14.2, transcribed: the neighbour table (land neighbours, sea neighbours, degree).
NEIGHBOURS = {
    "Mutsu": (["Echigo", "Hitachi", "Kozuke", "Shimotsuke"], [], 4),
    "Echigo": (["Etchu", "Kozuke", "Mutsu", "Shinano"], [], 4),
    "Shimotsuke": (["Hitachi", "Kozuke", "Mutsu", "Shimosa"], [], 4),
    "Hitachi": (["Mutsu", "Shimosa", "Shimotsuke"], [], 3),
    "Kozuke": (["Echigo", "Musashi", "Mutsu", "Shimosa", "Shimotsuke", "Shinano"], [], 6),
    "Shinano": (
        ["Echigo", "Etchu", "Hida", "Kai", "Kozuke", "Mikawa", "Mino", "Musashi", "Totomi"],
        [],
        9,
    ),
    "Etchu": (["Echigo", "Hida", "Kaga", "Noto", "Shinano"], [], 5),
    "Kaga": (["Echizen", "Etchu", "Hida", "Noto"], ["Tajima"], 5),
    "Noto": (["Etchu", "Kaga"], [], 2),
    "Awa-Boso": (["Kazusa"], ["Izu"], 2),
    "Kazusa": (["Awa-Boso", "Shimosa"], [], 2),
    "Shimosa": (["Hitachi", "Kazusa", "Kozuke", "Musashi", "Shimotsuke"], [], 5),
    "Musashi": (["Kai", "Kozuke", "Sagami", "Shimosa", "Shinano"], [], 5),
    "Sagami": (["Izu", "Kai", "Musashi", "Suruga"], [], 4),
    "Kai": (["Musashi", "Sagami", "Shinano", "Suruga", "Totomi"], [], 5),
    "Suruga": (["Izu", "Kai", "Sagami", "Totomi"], [], 4),
    "Izu": (["Sagami", "Suruga"], ["Awa-Boso", "Shima"], 4),
    "Totomi": (["Kai", "Mikawa", "Shinano", "Suruga"], [], 4),
    "Mikawa": (["Mino", "Owari", "Shinano", "Totomi"], [], 4),
    "Owari": (["Ise", "Mikawa", "Mino"], [], 3),
    "Mino": (["Echizen", "Hida", "Ise", "Mikawa", "Omi", "Owari", "Shinano"], [], 7),
    "Hida": (["Echizen", "Etchu", "Kaga", "Mino", "Shinano"], [], 5),
    "Echizen": (["Hida", "Kaga", "Mino", "Omi", "Wakasa"], [], 5),
    "Omi": (["Echizen", "Ise", "Mino", "Settsu", "Tamba", "Wakasa", "Yamato"], [], 7),
    "Wakasa": (["Echizen", "Omi", "Tajima", "Tamba"], [], 4),
    "Tamba": (["Harima", "Omi", "Settsu", "Tajima", "Wakasa"], [], 5),
    "Harima": (["Bizen", "Hoki", "Mimasaka", "Settsu", "Tajima", "Tamba"], ["Sanuki"], 7),
    "Shima": (["Ise"], ["Izu"], 2),
    "Ise": (["Kii", "Mino", "Omi", "Owari", "Shima", "Yamato"], [], 6),
    "Kii": (["Ise", "Settsu", "Yamato"], ["Awa-Shikoku"], 4),
    "Yamato": (["Ise", "Kii", "Omi", "Settsu"], [], 4),
    "Settsu": (["Harima", "Kii", "Omi", "Tamba", "Yamato"], [], 5),
    "Sanuki": (["Awa-Shikoku", "Iyo"], ["Harima"], 3),
    "Awa-Shikoku": (["Iyo", "Sanuki", "Tosa"], ["Kii"], 4),
    "Tosa": (["Awa-Shikoku", "Iyo"], [], 2),
    "Iyo": (["Awa-Shikoku", "Sanuki", "Tosa"], ["Aki"], 4),
    "Tajima": (["Harima", "Hoki", "Tamba", "Wakasa"], ["Kaga"], 5),
    "Hoki": (["Bingo", "Bitchu", "Harima", "Izumo", "Mimasaka", "Tajima"], [], 6),
    "Mimasaka": (["Bitchu", "Bizen", "Harima", "Hoki"], [], 4),
    "Bizen": (["Bitchu", "Harima", "Mimasaka"], [], 3),
    "Bitchu": (["Bingo", "Bizen", "Hoki", "Mimasaka"], [], 4),
    "Bingo": (["Aki", "Bitchu", "Hoki", "Iwami", "Izumo"], [], 5),
    "Izumo": (["Bingo", "Hoki", "Iwami"], [], 3),
    "Iwami": (["Aki", "Bingo", "Izumo"], [], 3),
    "Aki": (["Bingo", "Iwami"], ["Iyo"], 3),
}

#: shogun.md §14.6, transcribed: the standard line-ups, one row per player (A, B, ...),
#: provinces in the order of the stacks 5,4,4,3,3,2,2,2,2.
LINEUPS = {
    3: [
        ["Suruga", "Mino", "Tamba", "Musashi", "Harima", "Izu", "Owari", "Sagami", "Tajima"],
        [
            "Yamato",
            "Echizen",
            "Shimotsuke",
            "Shimosa",
            "Ise",
            "Hitachi",
            "Awa-Shikoku",
            "Kaga",
            "Kii",
        ],
        ["Bizen", "Omi", "Hida", "Etchu", "Hoki", "Bitchu", "Bingo", "Settsu", "Shinano"],
    ],
    4: [
        ["Yamato", "Awa-Shikoku", "Kaga", "Omi", "Tamba", "Kii", "Settsu", "Noto"],
        ["Kozuke", "Hida", "Ise", "Echizen", "Shinano", "Etchu", "Shimotsuke", "Shima"],
        ["Mimasaka", "Wakasa", "Awa-Boso", "Harima", "Bitchu", "Hoki", "Tajima", "Kazusa"],
        ["Kai", "Musashi", "Mino", "Mikawa", "Bingo", "Aki", "Totomi", "Sagami"],
    ],
    5: [
        ["Sagami", "Mimasaka", "Harima", "Kazusa", "Izu", "Awa-Boso", "Bizen"],
        ["Shimotsuke", "Echizen", "Tamba", "Shimosa", "Kozuke", "Hitachi", "Wakasa"],
        ["Mino", "Hida", "Iyo", "Owari", "Totomi", "Mikawa", "Tosa"],
        ["Hoki", "Shinano", "Bingo", "Echigo", "Aki", "Izumo", "Etchu"],
        ["Yamato", "Kaga", "Kii", "Shima", "Omi", "Ise", "Noto"],
    ],
}


def test_every_province_row_matches_the_table() -> None:
    """shogun.md §14.1: name, kanji, both regions, tax, rice and building slots of all 45
    provinces, in the table's order."""
    assert [p.name for p in D.provinces] == [row[0] for row in PROVINCES]
    for p, row in zip(D.provinces, PROVINCES, strict=True):
        assert (p.name, p.kanji, p.sun_region, p.moon_region, p.tax, p.rice, p.slots) == row[:7]


def test_three_player_provinces_match_the_table() -> None:
    """shogun.md §14.3: the 8 provinces marked in §14.1 are removed with 3 players (sun side;
    the moon side's default is the same list, §21.1 Q2)."""
    marked = {row[0] for row in PROVINCES if row[7]}
    assert len(marked) == 8
    assert set(D.adjacency.sun_three_player_removed) == marked
    assert set(D.adjacency.moon_three_player_removed_default) == marked
    for side in ("sun", "moon"):
        board = D.board(side, 3)
        assert {D.names[p] for p in board.removed} == marked
        assert {D.names[p] for p in range(45) if not board.in_play[p]} == marked
        assert not D.board(side, 4).removed


def test_every_edge_matches_the_table() -> None:
    """shogun.md §14.2: the 91 land edges and 6 sea routes, edge by edge."""
    assert len(LAND) == 91 and len(SEA) == 6
    assert {frozenset(e) for e in D.adjacency.land} == {frozenset(e) for e in LAND}
    assert len(D.adjacency.land) == 91
    assert {frozenset(e) for e in D.adjacency.sun_sea} == {frozenset(e) for e in SEA}
    assert {frozenset(e) for e in D.adjacency.moon_sea_default} == {frozenset(e) for e in SEA}


@pytest.mark.parametrize("side", ["sun", "moon"])
def test_every_province_has_the_tabled_neighbours(side: str) -> None:
    """shogun.md §14.2, §14.4, §21.1 Q2: each province's neighbours on the compiled board (land
    plus sea, 4 players) equal the neighbour table, degree included; the moon side uses the
    same adjacency by default."""
    board = D.board(side, 4)
    assert set(NEIGHBOURS) == set(D.names)
    for name, (land, sea, degree) in NEIGHBOURS.items():
        got = {D.names[q] for q in board.neighbours[D.index[name]]}
        assert got == set(land) | set(sea), name
        assert len(got) == degree, name


def test_every_line_up_row_matches_the_table() -> None:
    """shogun.md §14.6: the standard line-ups for 3, 4 and 5 players, row by row, in the order
    of the stacks (§2.3)."""
    for n, rows in LINEUPS.items():
        assert [[D.names[p] for p in row] for row in D.lineups[n]] == rows
        assert list(D.stacks[n]) == [5, 4, 4, 3, 3, 2, 2, 2, 2][: 12 - n]


@pytest.mark.parametrize("board", ["sun", "moon"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_standard_setup_places_the_tabled_line_up(players: int, board: str) -> None:
    """shogun.md §14.6, §2.3, §18 (the digital edition's standard initial placement: automatic):
    a standard game starts with every row of the table on the board, nobody placing anything
    (the first decision is the spring's planning; the moon side uses the same sun-side table,
    L); all other provinces are neutral."""
    m = sengoku.new_match("shogun", players, seed=1, options={"board": board})
    s = m._state
    assert m.to_act() == list(range(players)) and m.view(0)["phase"] == "plan"
    placed = set()
    for seat, row in enumerate(LINEUPS[players]):
        for name, stack in zip(row, D.stacks[players], strict=True):
            p = D.index[name]
            assert (s.owner[p], s.armies[p]) == (seat, stack), name
            placed.add(p)
    assert all(s.owner[p] == -1 and s.armies[p] == 0 for p in range(45) if p not in placed)


def test_sun_graph_follows_the_historical_borders() -> None:
    """shogun.md §14.5: the sun graph follows real provincial borders: Shinano (Nagano) has 9
    neighbours, and Omi borders Yamato, Settsu and Ise because Yamashiro and Iga are merged
    into it and its neighbours; and the [IMR] edge Kai-Mikawa, its one asymmetric error
    (§14.2, §16), stays out since Kai does not touch Mikawa on the board."""
    board = D.board("sun", 4)
    neighbours = {D.names[p]: {D.names[q] for q in board.neighbours[p]} for p in range(45)}
    assert len(neighbours["Shinano"]) == 9
    assert {"Yamato", "Settsu", "Ise"} <= neighbours["Omi"]
    assert "Mikawa" not in neighbours["Kai"] and "Kai" not in neighbours["Mikawa"]
