"""Winter: rice, hunger revolts and the table, scoring, clean-up, game end (shogun.md §10-12)."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.core import Rng, parse_options, render
from sengoku.games.shogun import options, state, winter
from sengoku.games.shogun.actions import Revolt
from sengoku.games.shogun.state import CASTLE, TEMPLE, THEATRE, WINTER

from .helpers import GAME, I, act, empty_state, own, script, text

PEASANT = 4


@pytest.mark.parametrize(
    ("short", "provinces", "peasants"),
    [(1, 1, 1), (2, 1, 2), (3, 2, 2), (4, 2, 2), (5, 2, 3), (6, 2, 3), (7, 3, 3), (12, 3, 3)],
)
def test_winter_revolt_table(short: int, provinces: int, peasants: int) -> None:
    """shogun.md §10.3, §20 (its summary of the table): 1 -> 1/1, 2 -> 1/2, 3-4 -> 2/2,
    5-6 -> 2/3, 7+ -> 3/3."""
    assert winter.winter_row(short) == (provinces, peasants)


def _winter(s, loss_card: int = 7, seed: int = 0) -> list[str]:  # type: ignore[no-untyped-def]
    """Start winter with the given fourth card (7 = 'tax max 5', loss 0)."""
    others = [e for e in range(12) if e != loss_card][:3]
    s.year_events = sorted([loss_card, *others])
    s.season_events = others
    s.events_left = [e for e in range(12) if e not in s.year_events]
    s.season = 3
    s.autumn_order = list(range(s.players))
    log: list = []
    winter.start_winter(s, Rng(seed), log)
    return [text(e) for e in log]


def test_hunger_revolt_in_a_random_province() -> None:
    """shogun.md §10.2: a player short of rice suffers revolts in provinces drawn at random;
    peasants = table bonus + markers there; he defends with all his armies there."""
    s = empty_state(4, years=1)
    provs = [own(s, 0, n, 3) for n in ("Owari", "Mino", "Omi")]
    s.markers[I["Mino"]] = 1
    s.rice[0] = 1  # short 2: one province, 2 extra peasants
    model = script(s, [3, 0, 0, 0, 0])
    log = _winter(s)
    (revolting,) = [p for p in provs if f"hunger revolts in {state.D.names[p]} " in " ".join(log)]
    assert model.seen[0][0] == 3
    assert model.seen[0][PEASANT] == 2 + (1 if revolting == I["Mino"] else 0)
    drawn = set()
    for seed in range(30):
        s2 = empty_state(4, years=1)
        for n in ("Owari", "Mino", "Omi"):
            own(s2, 0, n, 3)
        s2.rice[0] = 1
        script(s2, [3, 0, 0, 0, 0])
        text = " ".join(_winter(s2, seed=seed))
        drawn |= {n for n in ("Owari", "Mino", "Omi") if f"hunger revolts in {n} " in text}
    assert drawn == {"Owari", "Mino", "Omi"}


def test_player_chooses_the_order_of_his_revolts() -> None:
    """shogun.md §10.2: with several revolts the player chooses the order; a lost revolt
    devastates the province."""
    s = empty_state(4)
    for n in ("Owari", "Mino", "Omi", "Ise"):
        own(s, 0, n, 2)
    s.rice[0] = 1  # short 3: two provinces, 2 extra peasants each
    model = script(s, [0, 0, 0, 0, 1], [2, 0, 0, 0, 1])
    _winter(s)
    assert s.phase == WINTER and GAME.to_act(s) == [0]
    options = GAME.legal_actions(s, 0)
    assert len(options) == 2 and all(isinstance(a, Revolt) for a in options)
    first, second = options[1].province, options[0].province  # type: ignore[union-attr]
    act(s, 0, Revolt(first))
    assert s.owner[first] == -1  # 0 own cubes out vs 1 peasant: devastated
    assert s.owner[second] == 0 and s.armies[second] == 1
    assert len(model.seen) == 2


def test_players_revolt_in_autumn_turn_order() -> None:
    """shogun.md §10.2: players are handled in the turn order of the preceding autumn."""
    s = empty_state(4, years=1)
    own(s, 0, "Owari", 2)
    own(s, 2, "Omi", 2)
    script(s, [0, 0, 2, 0, 0], [2, 0, 0, 0, 0])
    others = [0, 1, 2]
    s.year_events = [0, 1, 2, 7]
    s.season_events = others
    s.season = 3
    s.autumn_order = [2, 1, 0, 3]
    log: list = []
    winter.start_winter(s, Rng(0), log)
    texts = [text(e) for e in log]
    yellow = next(i for i, t in enumerate(texts) if t.startswith("Yellow is 1 rice short"))
    red = next(i for i, t in enumerate(texts) if t.startswith("Red is 1 rice short"))
    assert yellow < red


def test_winter_scoring_with_a_majority_tie() -> None:
    """shogun.md §11.3, §20 (scoring 1/1/3-2-1 with tie -1): 1 VP per province and per
    building; per region most castles 3, temples 2, Nō theatres 1; players tied for most get 1
    less each."""
    s = empty_state(4)
    # red region (sun): Owari, Mino, Omi, Echizen ...
    own(s, 0, "Owari", 1, bld=CASTLE | TEMPLE)
    own(s, 1, "Omi", 1, bld=CASTLE | THEATRE)
    own(s, 1, "Mino", 1, bld=TEMPLE)
    own(s, 2, "Hida", 1)
    own(s, 2, "Kaga", 1, bld=THEATRE)  # brown region: alone with a theatre
    pts, lines = winter.score_year(s)
    # castles in red: Red 1, Blue 1 -> tie, 2 each; temples: Red 1, Blue 1 -> 1 each;
    # theatres in red: Blue 1 -> 1; brown theatres: Yellow -> 1
    assert pts == [1 + 2 + 2 + 1, 2 + 3 + 2 + 1 + 1, 2 + 1 + 1, 0]
    assert render(lines[0], GAME.catalog) == "Red 6 (1 province, 2 buildings, 3 for majorities)"


def test_scoring_uses_the_boards_regions() -> None:
    """shogun.md §14.1: on the moon side Owari is purple, so its castle competes there."""
    for board, red_pts in (("sun", 1 + 1 + 2), ("moon", 1 + 1 + 3)):
        s = empty_state(4, board=board)
        own(s, 0, "Owari", 1, bld=CASTLE)
        own(s, 1, "Mino", 1, bld=CASTLE)
        assert winter.score_year(s)[0][0] == red_pts


def test_winter_cleanup_and_next_year() -> None:
    """shogun.md §11.4, §3: markers removed, VP kept, rice reset, 4 new events drawn."""
    s = empty_state(4, years=2)
    kaga = own(s, 0, "Kaga", 2, markers=3)
    s.rice[0] = 5
    _winter(s)
    assert s.markers[kaga] == 0 and s.markers_left == 42
    assert s.vp[0] == 1 and s.year == 2 and s.rice == [0, 0, 0, 0]
    assert len(s.year_events) == 4 and len(s.events_left) == 4
    assert not set(s.year_events) & {0, 1, 2, 7}


@pytest.mark.parametrize("years", [1, 2, 3])
def test_years_option_sets_the_number_of_winters(years: int) -> None:
    """shogun.md §3, §17, §18 (game length: a digital-edition setting, default 2): the game
    ends after the last winter."""
    m = sengoku.new_match("shogun", 4, seed=years, options={"years": years})
    chooser = Rng(1)
    while m.to_act():
        seat = m.to_act()[0]
        m.act(seat, chooser.choice(m.legal_actions(seat)))
    assert sum(1 for line in m.log() if line.startswith("scoring, year")) == years
    assert m.outcome() is not None and list(m.outcome().scores) == m._state.vp  # type: ignore[union-attr]
    assert options.ShogunOptions().years == 2


def test_final_tie_break() -> None:
    """shogun.md §12, §18 (BGA's tie-break), §21.1 Q3: equal VP -> most war chests (default);
    'shared' leaves a tie;
    'buildings' compares castles, temples, theatres."""
    s = empty_state(4)
    s.phase = state.OVER
    s.final_scores = [30, 30, 10, 30]
    s.money = [3, 9, 0, 3]
    out = GAME.outcome(s)
    assert out is not None and out.winners == (1,) and out.ranks == (2, 1, 4, 2)
    s.options = parse_options(options.ShogunOptions, {"tie_break": "shared"})
    assert GAME.outcome(s).winners == (0, 1, 3)  # type: ignore[union-attr]
    s.options = parse_options(options.ShogunOptions, {"tie_break": "buildings"})
    own(s, 3, "Omi", 1, bld=CASTLE)
    assert GAME.outcome(s).winners == (3,)  # type: ignore[union-attr]
