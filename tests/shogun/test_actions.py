"""The 10 actions, their costs, the all-or-nothing rule, building limits, special cards."""

from __future__ import annotations

import pytest

from sengoku.games.shogun.actions import Armies, March
from sengoku.games.shogun.state import CASTLE, TARGET, TEMPLE, THEATRE

from .helpers import (
    BA_A,
    CASTLE_A,
    GAME,
    R1_A,
    R3_A,
    R5_A,
    RICE_A,
    TAX_A,
    TEMPLE_A,
    THEATRE_A,
    act,
    empty_state,
    own,
)
from .helpers import run_season as run


@pytest.mark.parametrize(
    ("action", "bit", "cost"),
    [(CASTLE_A, CASTLE, 3), (TEMPLE_A, TEMPLE, 2), (THEATRE_A, THEATRE, 1)],
)
def test_build_actions(action: int, bit: int, cost: int) -> None:
    """shogun.md §5: castle 3 chests, temple 2, Nō theatre 1; the tile goes into the province."""
    s = empty_state(4)
    p = own(s, 0, "Omi", 2)
    log = run(s, {0: {action: p}})
    assert s.bld[p] == bit and s.money[0] == 15 - cost
    assert s.bsupply[action] == (28, 26, 26)[action] - 1
    assert any("builds" in line and "Omi" in line for line in log)


def test_building_limits() -> None:
    """shogun.md §5: a building only on a free slot, at most one of each type per province,
    and only while tiles are left."""
    s = empty_state(4)
    mino = own(s, 0, "Mino", 2, bld=TEMPLE)  # 1 slot, taken
    owari = own(s, 1, "Owari", 2, bld=THEATRE)  # 2 slots, theatre already there
    omi = own(s, 2, "Omi", 2)
    s.bsupply[CASTLE_A] = 0
    log = run(s, {0: {CASTLE_A: mino}, 1: {THEATRE_A: owari}, 2: {CASTLE_A: omi}})
    assert s.bld[mino] == TEMPLE and s.bld[owari] == THEATRE and s.bld[omi] == 0
    assert s.money[:3] == [15, 15, 15]
    assert "Red cannot build a castle in Mino: Mino has no free building slot" in log
    assert "Blue cannot build a Nō theatre in Owari: Owari already has a Nō theatre" in log
    assert "Yellow cannot build a castle in Omi: no castle tiles are left" in log


def test_all_or_nothing_without_money() -> None:
    """shogun.md §4.6: a player who cannot carry out an action (or part of it) does nothing."""
    s = empty_state(4)
    p = own(s, 0, "Omi", 2)
    s.money[0] = 2
    run(s, {0: {CASTLE_A: p, R5_A: p}})
    assert s.bld[p] == 0 and s.armies[p] == 2 and s.money[0] == 2


def test_collect_rice_and_taxes_add_a_marker() -> None:
    """shogun.md §5, §10.1: collecting gives the province's value and puts a revolt marker
    there; no revolt the first time."""
    s = empty_state(4)
    kaga = own(s, 0, "Kaga", 2)  # tax 4, rice 5
    noto = own(s, 0, "Noto", 2)  # tax 5, rice 2
    etchu = own(s, 1, "Etchu", 2)  # tax 7, rice 3
    log = run(s, {0: {RICE_A: kaga, TAX_A: noto}, 1: {TAX_A: etchu}})
    assert s.rice[0] == 5 and s.money[0] == 20 and s.money[1] == 22
    assert s.markers[kaga] == s.markers[noto] == s.markers[etchu] == 1
    assert s.armies[kaga] == 2 and not any("revolt" in line for line in log)


@pytest.mark.parametrize(("action", "armies", "cost"), [(R5_A, 5, 3), (R3_A, 3, 2), (R1_A, 1, 1)])
def test_recruit_actions(action: int, armies: int, cost: int) -> None:
    """shogun.md §5: recruit 5 for 3 chests, 3 for 2, 1 for 1, from the supply."""
    s = empty_state(4)
    p = own(s, 0, "Omi", 2)
    supply = s.supply[0]
    run(s, {0: {action: p}})
    assert s.armies[p] == 2 + armies and s.money[0] == 15 - cost
    assert s.supply[0] == supply - armies


def test_recruit_short_supply_is_cancelled_or_partial() -> None:
    """shogun.md §21.1 Q4: too few cubes in supply cancels the recruit (default); option
    short_recruit = place_remaining places what is left."""
    s = empty_state(4)
    p = own(s, 0, "Omi", 2)
    s.supply[0] = 4
    run(s, {0: {R5_A: p}})
    assert s.armies[p] == 2 and s.money[0] == 15 and s.supply[0] == 4
    s = empty_state(4, short_recruit="place_remaining")
    p = own(s, 0, "Omi", 2)
    s.supply[0] = 4
    run(s, {0: {R5_A: p}})
    assert s.armies[p] == 6 and s.money[0] == 12 and s.supply[0] == 0


def test_recruit_one_then_optional_move() -> None:
    """shogun.md §5, §21.1 Q4: pay 1, place 1, then may move any armies (at least one stays) to
    one adjacent own province, without battle."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 3)
    mino = own(s, 0, "Mino", 1)
    own(s, 1, "Ise", 2)  # an enemy neighbour is not offered
    run(s, {0: {R1_A: owari}})
    assert s.phase == TARGET and s.armies[owari] == 4 and s.money[0] == 14
    assert [str(a) for a in GAME.legal_actions(s, 0)] == [
        "stay in Owari",
        "move to Mino from Owari",
    ]
    act(s, 0, March(owari, mino, False))
    assert [str(a) for a in GAME.legal_actions(s, 0)] == ["with 1", "with 2", "with 3"]
    act(s, 0, Armies(3))
    assert s.armies[owari] == 1 and s.armies[mino] == 4


def test_recruit_one_without_money_does_not_move() -> None:
    """shogun.md §21.1 Q4: Recruit 1/move without paying is not allowed: no place, no move."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 3)
    own(s, 0, "Mino", 1)
    s.money[0] = 0
    run(s, {0: {R1_A: owari}})
    assert s.phase != TARGET and s.armies[owari] == 3


def test_battle_move_into_own_province() -> None:
    """shogun.md §5: Battle/Move into an own province is a move; at least one army stays."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 5)
    mino = own(s, 0, "Mino", 1)
    run(s, {0: {BA_A: owari}})
    opts = [str(a) for a in GAME.legal_actions(s, 0)]
    assert opts == [
        "attack Mikawa from Owari",
        "move to Mino from Owari",
        "attack Ise from Owari",
    ]
    act(s, 0, "move to Mino from Owari")
    assert [str(a) for a in GAME.legal_actions(s, 0)] == [f"with {n}" for n in range(1, 5)]
    act(s, 0, "with 4")
    assert s.armies[owari] == 1 and s.armies[mino] == 5


def test_battle_move_needs_two_armies_and_is_mandatory() -> None:
    """shogun.md §4.6, §5: a single army cannot march; a possible Battle/Move must be carried
    out (no 'stay' choice) unless option battle_move_optional is on."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 1)
    log = run(s, {0: {BA_A: owari}})
    assert "Red cannot march from Owari" in log
    s = empty_state(4)
    owari = own(s, 0, "Owari", 3)
    run(s, {0: {BA_A: owari}})
    assert "stay in Owari" not in [str(a) for a in GAME.legal_actions(s, 0)]
    s = empty_state(4, battle_move_optional=True)
    owari = own(s, 0, "Owari", 3)
    run(s, {0: {BA_A: owari}})
    act(s, 0, "stay in Owari")
    assert s.armies[owari] == 3


def test_actions_run_in_card_order_and_turn_order() -> None:
    """shogun.md §4.6: action cards in order; for each, every player in turn position order."""
    s = empty_state(4)
    p0 = own(s, 0, "Omi", 2)
    p1 = own(s, 1, "Etchu", 2)
    s.money[1] = 0
    order = [TAX_A, CASTLE_A, *[a for a in range(10) if a not in (TAX_A, CASTLE_A)]]
    log = run(s, {0: {TAX_A: p0}, 1: {CASTLE_A: p1, TAX_A: p1}}, order=order)
    assert s.bld[p1] == CASTLE  # taxes came first, so Blue could pay
    assert log.index("Red collects 3 chests in Omi") < log.index("Blue collects 7 chests in Etchu")


# ----------------------------------------------------------------- special cards


def test_special_plus_chest_and_plus_rice() -> None:
    """shogun.md §6: +1 chest on Collect taxes, +1 rice on Collect rice."""
    s = empty_state(4)
    a = own(s, 0, "Omi", 2)  # tax 3, rice 2
    b = own(s, 1, "Mino", 2)  # tax 3, rice 5
    run(s, {0: {TAX_A: a, RICE_A: a}, 1: {TAX_A: b, RICE_A: b}}, specials={0: 0, 1: 1})
    assert s.money[0] == 15 + 4 and s.rice[0] == 2
    assert s.money[1] == 15 + 3 and s.rice[1] == 6


def test_special_six_armies() -> None:
    """shogun.md §6: with the 6-armies card Recruit 5 gives 6 (still 3 chests)."""
    s = empty_state(4)
    p = own(s, 0, "Omi", 2)
    run(s, {0: {R5_A: p}}, specials={0: 2})
    assert s.armies[p] == 8 and s.money[0] == 12


def test_special_attack_and_defence_cubes() -> None:
    """shogun.md §6: +1 cube from supply when attacking with Battle/Move, +1 when attacked."""
    from .helpers import script

    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    mino = own(s, 1, "Mino", 3, markers=1)
    model = script(s, [0, 0, 0, 0, 0])
    run(s, {0: {BA_A: owari}}, specials={0: 3, 1: 4})
    act(s, 0, March(owari, mino, True))
    act(s, 0, Armies(2))
    assert model.seen[0][:2] == [3, 4]  # 2 + attack card; 3 + defence card
    assert s.supply[0] == 62 - 4 - 1 and s.supply[1] == 62 - 3 - 1
