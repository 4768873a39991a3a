"""What the rules reference says about its own sources and summaries, against our options and
data (shogun.md §0, §16, §21.4)."""

from __future__ import annotations

import re

import msgspec
import pytest

from sengoku.core import describe_options
from sengoku.games.shogun import data as data_mod
from sengoku.games.shogun.actions import Armies, March
from sengoku.games.shogun.options import ShogunOptions

from .helpers import BA_A, RICE_A, D, act, empty_state, own
from .helpers import run_season as run

#: the source tags of §0's table, and those §21 adds
SOURCE_TAGS = {
    *("S001", "CN-p2", "S004", "FR", "ES", "SBW", "IMR", "IMR-img", "PIX", "WOS", "BGDF"),
    *("EN", "MISC"),
    *("EN-p2", "DE-p2", "CN-p1", "TOPO", "SBW8", "SBW7", "SBW11", "SBW12", "WOS-img"),
    *("IMR-cards", "FR-p1"),
}
#: §0's certainty legend
CERTAINTY = re.compile(r"(?<![\w-])[HML](?![\w])")
SECTION = re.compile(r"§(\d+)(?:\.\d+)?")
TAG = re.compile(r"\[([A-Za-z0-9-]+)\]")
#: options that are not a reading of the rules (what a view shows)
DISPLAY = {"show_tower"}


def _described() -> list[tuple[str, str]]:
    return [(o.name, o.description or "") for o in describe_options(ShogunOptions)]


@pytest.mark.parametrize(("name", "text"), _described())
def test_every_option_names_its_source_and_a_certainty(name: str, text: str) -> None:
    """shogun.md §0: every rule carries a source and a certainty H, M or L; so does every
    option's description: a section of the reference (§0-§21), a certainty from the legend,
    and only source tags that §0 (or §21) lists."""
    assert set(TAG.findall(text)) <= SOURCE_TAGS, name
    if name in DISPLAY:
        assert "not a rules point" in text
        return
    sections = [int(n) for n in SECTION.findall(text)]
    assert sections and all(0 <= n <= 21 for n in sections), name
    assert CERTAINTY.search(text), name


@pytest.mark.parametrize(
    "name",
    [
        "provinces.json",
        "adjacency.json",
        "moon_land.json",
        "lineups.json",
        "moon_lineups.json",
        "events.json",
        "special_cards.json",
        "tables.json",
    ],
)
def test_every_data_file_names_its_source_and_a_certainty(name: str) -> None:
    """shogun.md §0: each data file's source note cites the reference's sections, §0's source
    tags only, and a certainty (in the note or in a ``certainty`` field)."""
    raw = msgspec.json.decode(data_mod._read(name))
    source = raw["source"]
    assert source.startswith("shared/rules/shogun.md §")
    assert set(TAG.findall(source)) <= SOURCE_TAGS
    certainty = raw.get("certainty", "")
    assert CERTAINTY.fullmatch(certainty) if certainty else CERTAINTY.search(source)


@pytest.mark.parametrize("kind", ["theatre_calm", "two_peasants"])
def test_the_peasant_event_is_not_on_the_theatre_cards(kind: str) -> None:
    """shogun.md §16 ([IMR] puts "+1 peasant when a neutral province is attacked" on the two
    Nô-theatre cards and gives the two-green-cubes card no effect), §7 #1-3: here the
    two-green-cubes card doubles a neutral province's peasant, the Nô-theatre cards do not."""
    for event in [e.id for e in D.events if e.kind == kind]:
        s = empty_state(4)
        owari = own(s, 0, "Owari", 4)
        run(s, {0: {BA_A: owari}}, event=event)
        act(s, 0, March(owari, D.index["Mino"], True))
        act(s, 0, Armies(3))
        fight = s.battles[-1]
        assert fight["defender"] is None  # neutral Mino
        assert fight["thrown"][4] - fight["tray"][4] == (2 if kind == "two_peasants" else 1)


def test_defaults_follow_the_summary_list() -> None:
    """shogun.md §21.4: each open question's default, as the summary lists it: Q1 Nô theatre
    bound to the action, all markers; Q2 moon land edges, sea routes and 3-player provinces
    the sun side's; Q3 most chests; Q4a over-bids forbidden; Q4b short supply cancels; Q5
    peasants = markers already there; Q6 neither the defence card nor the castle event in
    revolts; Q8 [IMR]'s 5-player row C; Q9 the SpielByWeb tower."""
    o = ShogunOptions()
    assert o.no_theatre_event.value == "action_all"  # Q1
    assert D.moon_land_file.land == D.adjacency.land  # Q2
    assert D.adjacency.moon_sea_default == D.adjacency.sun_sea
    assert D.adjacency.moon_three_player_removed_default == D.adjacency.sun_three_player_removed
    assert o.tie_break.value == "chests"  # Q3
    assert o.over_bid.value == "forbid"  # Q4a
    assert o.short_recruit.value == "cancel"  # Q4b
    assert o.collect_revolt_peasants.value == "before"  # Q5
    assert not o.defence_card_in_revolts and not o.castle_event_in_revolts  # Q6
    row = ["Mino", "Hida", "Iyo", "Owari", "Totomi", "Mikawa", "Tosa"]  # Q8: §14.6, player C
    assert o.five_player_c.split(", ") == row == [D.names[p] for p in D.lineups[5][2]]
    assert o.tower_model.value == "sbw"  # Q9


def test_rice_reaches_the_end_of_the_track_and_no_further() -> None:
    """shogun.md §21.4 Q7, §21.1 Q7: one Collect rice a season, at most rice 5 plus the +1 rice
    card: three seasons give at most 18, the end of the track."""
    s = empty_state(4, years=1)
    best = [own(s, 0, name, 2) for name in ("Kaga", "Shimosa", "Mino")]  # rice 5 each
    assert {D.rice[p] for p in best} == {5} and max(D.rice) == 5
    (rice_min_4,) = [e.id for e in D.events if e.kind == "rice_min_4"]  # cannot raise a 5
    for prov in best:  # spring, summer, autumn: one Collect rice each, in a new province
        s.season = 0  # (each season's end would start the next; winter never comes here)
        run(s, {0: {RICE_A: prov}}, specials={0: 1}, event=rice_min_4)
    assert s.rice[0] == 18 and s.markers[best[0]] == 1  # no revolt: each province collected once
