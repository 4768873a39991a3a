"""Options for points the rules leave open (issue 22): each setting changes the game exactly
where its rule applies and nowhere else (shogun.md §2.4, §6, §9.3, §14.4, §14.6, §21)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import sengoku
from sengoku.core import OptionError
from sengoku.games.shogun import data as data_mod
from sengoku.games.shogun import setup
from sengoku.games.shogun.actions import Armies, Draft, March, TakeTop
from sengoku.games.shogun.data import ShogunData
from sengoku.games.shogun.state import D

from .helpers import BA_A, GAME, RICE_A, TAX_A, act, empty_state, own, script
from .helpers import run_season as run

PEASANT = 4  # owner index of the green cubes with 4 players


def _data(moon_land: list[tuple[str, str]] | None = None, moon_lineups: Any = None) -> ShogunData:
    """The packaged data with the moon data sets replaced (a correction as a data change)."""

    def read(name: str, typ: type) -> Any:
        return msgspec.json.decode(data_mod._read(name), type=typ)

    land = read("moon_land.json", data_mod.MoonLandFile)
    lineups = read("moon_lineups.json", data_mod.MoonLineupFile)
    return ShogunData(
        read("provinces.json", data_mod.ProvinceFile),
        read("adjacency.json", data_mod.AdjacencyFile),
        land if moon_land is None else msgspec.structs.replace(land, land=moon_land),
        read("lineups.json", data_mod.LineupFile),
        lineups if moon_lineups is None else msgspec.structs.replace(lineups, lineups=moon_lineups),
        read("events.json", data_mod.EventFile),
        read("special_cards.json", data_mod.SpecialFile),
        read("tables.json", data_mod.TablesFile),
    )


def _neighbours(**options: Any) -> list[set[str]]:
    s = empty_state(4, **options)
    return [{D.names[q] for q in s.board.neighbours[p]} for p in range(len(D.names))]


def _differs(a: list[Any], b: list[Any]) -> set[str]:
    return {D.names[p] for p in range(len(a)) if a[p] != b[p]}


# ---------------------------------------------------------------- moon_land_adjacency


def test_moon_land_data_set_is_the_proposal_of_the_reference() -> None:
    """shogun.md §14.4, §21.1 Q2: no moon board was found; the proposal (M) is the sun side's
    land adjacency. The moon data set holds exactly that, so both settings give the same
    board today, and on the sun side the option changes nothing."""
    assert sorted(map(sorted, D.moon_land_file.land)) == sorted(map(sorted, D.adjacency.land))
    assert D.moon_land_file.certainty == "M"
    sun_edges = _neighbours(board="moon")
    assert _neighbours(board="moon", moon_land_adjacency="moon") == sun_edges
    assert _neighbours(moon_land_adjacency="moon") == _neighbours()


def test_moon_land_option_reads_the_moon_data_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """shogun.md §14.4: with a corrected moon data set (here: Kai touching Mikawa instead of
    Totomi), moon_land_adjacency=moon changes the moon board exactly at those provinces, and a
    Battle/Move from Kai offers exactly the changed targets; sun (the default) ignores it."""
    land = [e for e in D.moon_land_file.land if sorted(e) != ["Kai", "Totomi"]]
    monkeypatch.setattr(setup, "D", _data(moon_land=[*land, ("Kai", "Mikawa")]))
    sun = _neighbours(board="moon")
    moon = _neighbours(board="moon", moon_land_adjacency="moon")
    assert _differs(sun, moon) == {"Kai", "Totomi", "Mikawa"}
    kai = D.index["Kai"]
    assert sun[kai] - moon[kai] == {"Totomi"} and moon[kai] - sun[kai] == {"Mikawa"}
    assert _neighbours(moon_land_adjacency="moon") == _neighbours()  # the sun side: no change

    targets = {}
    for option in ("sun", "moon"):
        s = empty_state(4, board="moon", moon_land_adjacency=option)
        own(s, 0, "Kai", 3)
        run(s, {0: {BA_A: kai}})
        targets[option] = {D.names[a.target] for a in GAME.legal_actions(s, 0)}
    assert targets["sun"] - targets["moon"] == {"Totomi"}
    assert targets["moon"] - targets["sun"] == {"Mikawa"}


def test_a_moon_data_set_that_cuts_the_board_is_refused() -> None:
    """shogun.md §14.2 (a connected graph) holds for the moon data set too."""
    with pytest.raises(data_mod.DataError):
        _data(moon_land=[e for e in D.moon_land_file.land if "Noto" not in e])


# ---------------------------------------------------------------- moon_lineup and player C


def _owners(players: int, **options: Any) -> list[int]:
    return list(sengoku.new_match("shogun", players, seed=3, options=options).state.owner)


def test_moon_lineup_data_set_is_the_sun_table_today() -> None:
    """shogun.md §14.6: the supplement's table is given for the sun side only; using it on the
    moon side is our reading (L). The moon data set is that table, so both settings agree."""
    assert D.moon_lineup_file.certainty == "L"
    assert D.moon_lineups == D.lineups
    for players in (3, 4, 5):
        assert _owners(players, board="moon", moon_lineup="moon") == _owners(players, board="moon")


def test_moon_lineup_option_reads_the_moon_data_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """shogun.md §14.6: with a corrected moon table (here Blue's 5-stack and Green's 4-stack
    swapping Kozuke and Musashi, 4 players), moon_lineup=moon changes the starting provinces
    exactly there, on the moon side only."""
    table = msgspec.to_builtins(D.moon_lineup_file.lineups)
    assert table["4"][1][0] == "Kozuke" and table["4"][3][1] == "Musashi"
    table["4"][1][0], table["4"][3][1] = "Musashi", "Kozuke"  # Blue's 5, Green's 4 swapped
    monkeypatch.setattr(setup, "D", _data(moon_lineups=table))
    base = _owners(4, board="moon")
    moon = _owners(4, board="moon", moon_lineup="moon")
    assert _differs(base, moon) == {"Kozuke", "Musashi"}
    assert moon[D.index["Musashi"]] == 1 and moon[D.index["Kozuke"]] == 3
    assert _owners(4, moon_lineup="moon") == _owners(4)  # the sun side: no change


def test_five_player_c_replaces_player_c_only() -> None:
    """shogun.md §14.6, §21.1 Q8: player C's row of the 5-player table is a setting (M); a
    different row changes Yellow's (seat 2) starting provinces and nothing else."""
    assert setup.lineup_for(5, GAME.options_type())[2] == D.lineups[5][2]
    row = "Kai, Musashi, Suruga, Settsu, Tajima, Bitchu, Iwami"
    a = sengoku.new_match("shogun", 5, seed=3).state
    b = sengoku.new_match("shogun", 5, seed=3, options={"five_player_c": row}).state
    old = {D.names[p] for p in D.lineups[5][2]}
    assert _differs(a.owner, b.owner) == old | set(row.split(", "))
    names = row.split(", ")
    assert [b.armies[D.index[n]] for n in names] == list(D.stacks[5])
    assert all(b.owner[D.index[n]] == 2 for n in names)
    assert all(a.owner[D.index[n]] == 2 and b.owner[D.index[n]] == -1 for n in old)
    assert a.supply == b.supply and a.money == b.money
    for players in (3, 4):  # the row is for five players only
        assert _owners(players, five_player_c=row) == _owners(players)


@pytest.mark.parametrize(
    "row",
    [
        "Kai, Musashi, Suruga, Settsu, Tajima, Bitchu",  # six
        "Kai, Musashi, Suruga, Settsu, Tajima, Bitchu, Sagami",  # Sagami is player A's
        "Kai, Musashi, Suruga, Settsu, Tajima, Bitchu, Bitchu",
        "Kai, Musashi, Suruga, Settsu, Tajima, Bitchu, Edo",
    ],
)
def test_five_player_c_must_be_seven_free_provinces(row: str) -> None:
    """shogun.md §14.6 (no province used twice): a bad row C is refused at set-up."""
    with pytest.raises(OptionError, match="five_player_c"):
        sengoku.new_match("shogun", 4, seed=1, options={"five_player_c": row})


# ---------------------------------------------------------------- draft_same_two_cards


def _draft_to_the_refresh(same_two_cards: bool) -> sengoku.Match:
    """The first picker takes from the pile, then the two others do: he faces the same two
    face-up cards again (shogun.md §2.4)."""
    options = {"setup": "draft", "draft_same_two_cards": same_two_cards}
    m = sengoku.new_match("shogun", 3, seed=5, options=options)
    s = m.state
    for _ in range(3):
        who = m.to_act()[0]
        m.act(who, TakeTop())
        m.act(who, Draft(s.draft_drawn, 5))
    return m


def test_draft_same_two_cards_option() -> None:
    """shogun.md §2.4 ([FR][IMR] M): on, the two cards a player saw at his previous pick go
    under the pile and two new ones are turned; off, he picks from the same two. Nothing else
    differs: the views differ only in the face-up cards and the pile."""
    on, off = _draft_to_the_refresh(True), _draft_to_the_refresh(False)
    first = on.to_act()[0]
    seen = on.state.last_seen[first]
    assert sorted(off.state.draft_up) == seen and off.state.deck_bottom == []
    assert sorted(on.state.draft_up) != seen and sorted(on.state.deck_bottom) == seen
    differ = {k for k, v in on.view(None).items() if off.view(None)[k] != v}
    assert differ == {"draft_up", "deck_top", "deck_bottom", "options"}
    assert on.log(None)[:-1] == off.log(None)
    assert "go under the pile" in on.log(None)[-1]


# ---------------------------------------------------------------- special_bonus_after_event_limit


@pytest.mark.parametrize(
    ("kind", "province", "action", "plain", "after", "before"),
    [
        ("tax_max_5", "Etchu", TAX_A, 5, 6, 5),  # tax 7
        ("tax_min_6", "Mino", TAX_A, 6, 7, 6),  # tax 3
        ("rice_min_4", "Owari", RICE_A, 4, 5, 4),  # rice 2
        ("rice_max_3", "Kaga", RICE_A, 3, 4, 3),  # rice 5
        ("tax_max_5", "Mino", TAX_A, 3, 4, 4),  # tax 3: the limit does not bite
        ("rice_max_3", "Owari", RICE_A, 2, 3, 3),  # rice 2 + 1 = 3: at the limit either way
    ],
)
def test_special_bonus_before_or_after_the_event_limit(
    kind: str, province: str, action: int, plain: int, after: int, before: int
) -> None:
    """shogun.md §6, §21.3 ([FR]: special cards apply after the event; L): the +1 chest / +1
    rice card adds its 1 after the event's limit (default) or before it (option off); the
    settings differ only where the limit cuts the value with the bonus, and not at all for a
    player without the card or in a season without a limit."""
    (event,) = [e.id for e in D.events if e.kind == kind]
    card = 0 if action == TAX_A else 1

    def collect(option: bool, ev: int, specials: dict[int, int] | None) -> int:
        s = empty_state(4, special_bonus_after_event_limit=option)
        p = own(s, 0, province, 2)
        run(s, {0: {action: p}}, event=ev, specials=specials)
        return s.money[0] - 15 if action == TAX_A else s.rice[0]

    assert collect(True, event, {0: card}) == after
    assert collect(False, event, {0: card}) == before
    assert collect(True, event, None) == collect(False, event, None) == plain
    value = D.tax[D.index[province]] if action == TAX_A else D.rice[D.index[province]]
    assert collect(True, -1, {0: card}) == collect(False, -1, {0: card}) == value + 1


# ---------------------------------------------------------------- conquest_keeps_revolt_markers


def _conquest(keep: bool, out: list[int]) -> tuple[Any, list[str]]:
    s = empty_state(4, conquest_keeps_revolt_markers=keep)
    owari = own(s, 0, "Owari", 6)
    own(s, 1, "Mino", 3, markers=2)
    script(s, out)
    run(s, {0: {BA_A: owari}})
    act(s, 0, March(owari, D.index["Mino"], True))
    return s, act(s, 0, Armies(5))


@pytest.mark.parametrize(
    ("out", "result"),
    [([3, 1, 0, 0, 0], "taken"), ([1, 2, 0, 0, 0], "held"), ([2, 2, 0, 0, 0], "tie")],
)
def test_conquest_keeps_revolt_markers_option(out: list[int], result: str) -> None:
    """shogun.md §9.3 (silent on markers), §10.1 (markers stay until winter or devastation,
    [SBW] H): by default a conquered province keeps its markers; off, they go back to the
    supply when it is taken. A province held or devastated is the same under both settings."""
    (keep, kept_log), (drop, drop_log) = _conquest(True, out), _conquest(False, out)
    mino = D.index["Mino"]
    assert keep.battles[-1]["result"] == drop.battles[-1]["result"] == result
    leave = "the revolt markers leave Mino"
    assert not any(leave in line for line in kept_log)
    assert any(leave in line for line in drop_log) == (result == "taken")
    if result == "taken":
        assert keep.markers[mino] == 2 and drop.markers[mino] == 0
        assert drop.markers_left == keep.markers_left + 2
        keep.markers[mino], keep.markers_left = 0, drop.markers_left
    for name in ("owner", "armies", "bld", "markers", "markers_left", "supply", "money"):
        assert getattr(keep, name) == getattr(drop, name), name
