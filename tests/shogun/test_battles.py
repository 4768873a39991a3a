"""Battles with the cube tower and collect-triggered revolts (shogun.md §9, §10.1)."""

from __future__ import annotations

from sengoku.games.shogun import state
from sengoku.games.shogun.actions import Armies, March
from sengoku.games.shogun.state import CANCELLED, CASTLE, TEMPLE, THEATRE

from .helpers import BA_A, BB_A, GAME, RICE_A, TAX_A, act, empty_state, own, script
from .helpers import run_season as run

PEASANT = 4  # owner index of the green cubes with 4 players


def _attack(s, seat, src, dst, n, **kw):  # type: ignore[no-untyped-def]
    run(s, {seat: {BA_A: src}}, **kw)
    act(s, seat, March(src, dst, s.owner[dst] != seat))
    if s.armies[src] > 2:
        return act(s, seat, Armies(n))
    return []


def test_peasants_help_a_defender_without_revolt_marker() -> None:
    """shogun.md §9.3: without a revolt marker, emerged peasants fight for the defender and
    absorb losses first; the winner keeps his emerged cubes minus the loser's."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 6)
    mino = own(s, 1, "Mino", 3)
    s.tower.set_contents([0, 0, 0, 0, 2])
    s.supply[PEASANT] = 18
    model = script(s, [3, 2, 0, 0, 2])
    log = _attack(s, 0, owari, mino, 5)
    assert model.seen[0] == [5, 3, 0, 0, 0]  # all defending armies are thrown
    assert s.owner[mino] == 1 and s.armies[mino] == 1  # 4 vs 3: peasants absorb 2, Blue loses 1
    assert s.armies[owari] == 1
    assert s.supply[PEASANT] == 20 and s.tower.tray == [0] * 5
    assert s.supply[0] == 62 - 6 + 3 and s.supply[1] == 62 - 3 + 1
    assert any("tower: Red 3, Blue 2, peasants 2; Blue holds Mino with 1" in line for line in log)


def test_peasants_stay_in_the_tray_when_the_province_has_a_marker() -> None:
    """shogun.md §9.3: with a revolt marker, emerged peasants count for nobody and wait in the
    tray; the attacker who wins takes the province with (his emerged - defender's emerged)."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 6)
    mino = own(s, 1, "Mino", 3, markers=1)
    s.tower.set_contents([0, 0, 0, 0, 2])
    s.supply[PEASANT] = 18
    script(s, [3, 2, 0, 0, 2])
    log = _attack(s, 0, owari, mino, 5)
    assert s.owner[mino] == 0 and s.armies[mino] == 1
    assert s.tower.tray[PEASANT] == 2 and s.supply[PEASANT] == 18
    assert s.markers[mino] == 1  # markers stay with the province
    assert any(line.endswith("Red takes Mino with 1") for line in log)


def test_battle_against_a_neutral_province() -> None:
    """shogun.md §9.2-9.3: a neutral province is defended by 1 peasant; the attacker needs
    strictly more emerged cubes and takes it with the difference."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    mikawa = 18
    model = script(s, [3, 0, 0, 0, 1])
    _attack(s, 0, owari, mikawa, 3)
    assert model.seen[0] == [3, 0, 0, 0, 1]
    assert s.owner[mikawa] == 0 and s.armies[mikawa] == 2
    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    script(s, [1, 0, 0, 0, 1])
    log = _attack(s, 0, owari, mikawa, 3)
    assert s.owner[mikawa] == -1 and s.armies[mikawa] == 0
    assert s.supply[0] == 62 - 4 + 1  # the emerged cube goes back; two stuck in the tower
    assert s.tower.contents()[0] == 2
    assert any(line.endswith("Mikawa stays neutral") for line in log)


def test_tie_devastates_the_province() -> None:
    """shogun.md §9.3: a tie removes both parties' cubes to supply and devastates the province:
    buildings and revolt markers removed, neutral, card back to the pile."""
    s = empty_state(4)
    ise = own(s, 0, "Ise", 5)
    omi = own(s, 1, "Omi", 2, bld=CASTLE | THEATRE, markers=1)
    s.bsupply = [27, 26, 25]
    script(s, [2, 2, 0, 0, 0])
    log = _attack(s, 0, ise, omi, 4)
    assert s.owner[omi] == -1 and s.armies[omi] == 0 and s.bld[omi] == 0 and s.markers[omi] == 0
    assert s.bsupply == [28, 26, 26] and s.markers_left == 42
    assert s.supply[0] == 62 - 5 + 2 and s.supply[1] == 62 - 2 + 2
    assert omi not in s.hand[1]
    assert any("a tie, Omi is devastated" in line for line in log)


def test_defender_winning_only_with_peasants_is_a_tie() -> None:
    """shogun.md §9.3: if no defending cube emerged, a win by peasants alone counts as a tie."""
    s = empty_state(4)
    ise = own(s, 0, "Ise", 5)
    omi = own(s, 1, "Omi", 2)
    s.tower.set_contents([0, 0, 0, 0, 2])
    s.supply[PEASANT] = 18
    script(s, [1, 0, 0, 0, 2])
    log = _attack(s, 0, ise, omi, 4)
    assert s.owner[omi] == -1
    assert any("only peasants beat the attack: a tie" in line for line in log)


def test_conquest_keeps_buildings_and_cancels_the_losers_pending_action() -> None:
    """shogun.md §9.3: the winner takes the province with its buildings and its card; the
    loser's not-yet-executed action there is cancelled (publicly)."""
    s = empty_state(4)
    ise = own(s, 0, "Ise", 6)
    omi = own(s, 1, "Omi", 1, bld=CASTLE | TEMPLE)
    script(s, [3, 0, 0, 0, 0])
    order = [BA_A, TAX_A, BB_A, *[a for a in range(10) if a not in (BA_A, TAX_A, BB_A)]]
    run(s, {0: {BA_A: ise, BB_A: ise}, 1: {TAX_A: omi}}, order=order)
    act(s, 0, March(ise, omi, True))
    log = act(s, 0, Armies(4))
    # Red's Battle/Move B now waits for a decision; Blue's tax in Omi was cancelled
    assert s.status[1][TAX_A] == CANCELLED
    assert "collect taxes: Blue Omi (cancelled)" in log
    view = GAME.view(s, 2)
    assert view["plans"][1][TAX_A] == omi  # the cancelled card is public
    assert s.owner[omi] == 0 and s.bld[omi] == CASTLE | TEMPLE and s.armies[omi] == 3
    assert s.money[1] == 15  # the tax never happened


def test_a_battle_move_whose_source_was_lost_is_not_carried_out() -> None:
    """shogun.md §9.4 (all-or-nothing, M): Blue planned Battle/Move B from Omi; Red conquers
    Omi with Battle/Move A first, so Blue's card is cancelled and Blue never marches."""
    s = empty_state(4)
    ise = own(s, 0, "Ise", 6)
    omi = own(s, 1, "Omi", 4)
    script(s, [5, 1, 0, 0, 0])
    order = [BA_A, BB_A, *[a for a in range(10) if a not in (BA_A, BB_A)]]
    run(s, {0: {BA_A: ise}, 1: {BB_A: omi}}, order=order)
    act(s, 0, March(ise, omi, True))
    log = act(s, 0, Armies(5))
    assert s.owner[omi] == 0 and "battle/move B: Blue Omi (cancelled)" in log
    assert not any(line.startswith("Blue attacks") for line in log)
    assert s.phase == state.PLAN and s.season == 1  # no decision for Blue: the season ended


def test_stuck_cubes_reappear_for_their_owner() -> None:
    """shogun.md §9.4 (H), §9.2: cubes stuck in the tower stay their owner's; when they fall out
    in a later battle of his they fight for him."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    mino = own(s, 1, "Mino", 1)
    s.tower.set_contents([0, 2, 0, 0, 0])  # two of Blue's cubes stuck from an earlier throw
    s.supply[1] -= 2
    model = script(s, [2, 3, 0, 0, 0])
    log = _attack(s, 0, owari, mino, 3)
    assert model.seen[0] == [3, 1, 0, 0, 0]  # Blue threw its one army ...
    assert s.tower.contents() == [1, 0, 0, 0, 0]  # ... and both stuck cubes fell out with it
    assert s.owner[mino] == 1 and s.armies[mino] == 1  # 3 against 2: Blue holds with 1
    assert s.supply[1] == 62 - 1 - 2 + 2  # the 2 lost go back to Blue's supply
    assert log[0].endswith("tower: Red 2, Blue 3, peasants 0; Blue holds Mino with 1")


def test_cubes_of_others_wait_in_the_tray() -> None:
    """shogun.md §9.2: emerged cubes of players not in the battle stay in the tray and are
    thrown again with the next battle, where they count if their owner fights."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    s.tower.set_contents([0, 0, 2, 0, 0])
    model = script(s, [3, 0, 1, 0, 1], [0, 0, 2, 0, 0])
    _attack(s, 0, owari, 18, 3)
    assert s.tower.tray == [0, 0, 1, 0, 0]
    # the next battle: Yellow attacks neutral Shima with 2; the tray's Yellow cube is thrown too
    # and, having come out again, counts for Yellow: 2 emerged against 0 peasants
    ise = own(s, 2, "Ise", 3)
    shima = state.D.index["Shima"]
    log = _attack(s, 2, ise, shima, 2)
    assert model.seen[1] == [0, 0, 3, 0, 1] and s.tower.tray == [0] * 5
    assert s.owner[shima] == 2 and s.armies[shima] == 2
    assert any(line.endswith("Yellow takes Shima with 2") for line in log)


def test_revolt_when_collecting_in_a_marked_province() -> None:
    """shogun.md §10.1, §21.1 Q5: collecting where a marker lies starts a revolt with as many
    peasants as markers already there; crushed: one more marker, armies = own - peasants."""
    s = empty_state(4)
    kaga = own(s, 0, "Kaga", 3, markers=1)
    model = script(s, [3, 0, 0, 0, 1])
    run(s, {0: {RICE_A: kaga}})
    assert s.rice[0] == 5  # the rice comes first
    assert model.seen[0] == [3, 0, 0, 0, 1]
    assert s.owner[kaga] == 0 and s.armies[kaga] == 2 and s.markers[kaga] == 2


def test_successful_revolt_devastates() -> None:
    """shogun.md §10.1: peasants emerged >= the owner's emerged: the province is devastated."""
    s = empty_state(4)
    kaga = own(s, 0, "Kaga", 3, bld=THEATRE, markers=2)
    model = script(s, [1, 0, 0, 0, 1])
    log = run(s, {0: {TAX_A: kaga}})
    assert model.seen[0][PEASANT] == 2
    assert s.owner[kaga] == -1 and s.bld[kaga] == 0 and s.markers[kaga] == 0
    assert s.money[0] == 19
    assert any("the peasants win, Kaga is devastated" in line for line in log)


def test_revolt_peasants_option_after() -> None:
    """shogun.md §10.1 ([IMR] variant, option collect_revolt_peasants=after): the new marker is
    added first and counted, and another one is added when the revolt is crushed."""
    s = empty_state(4, collect_revolt_peasants="after")
    kaga = own(s, 0, "Kaga", 4, markers=1)
    model = script(s, [4, 0, 0, 0, 0])
    run(s, {0: {RICE_A: kaga}})
    assert model.seen[0][PEASANT] == 2 and s.markers[kaga] == 3


def test_defence_card_does_not_help_in_revolts() -> None:
    """shogun.md §6, §21.1 Q6: the +1 defence card is for Battle/Move attacks only (default);
    option defence_card_in_revolts adds the cube."""
    for flag, thrown in ((False, 3), (True, 4)):
        s = empty_state(4, defence_card_in_revolts=flag)
        kaga = own(s, 0, "Kaga", 3, markers=1)
        model = script(s, [3, 0, 0, 0, 0])
        run(s, {0: {RICE_A: kaga}}, specials={0: 4})
        assert model.seen[0][0] == thrown


def test_peasant_allies_options() -> None:
    """shogun.md §9.3 (option peasant_allies): Wallenstein's 'at most one marker' lets peasants
    help with one marker; 'never' keeps them out of every player battle."""
    for mode, markers, holds in (("at_most_one_marker", 1, True), ("never", 0, False)):
        s = empty_state(4, peasant_allies=mode)
        owari = own(s, 0, "Owari", 6)
        mino = own(s, 1, "Mino", 3, markers=markers)
        s.tower.set_contents([0, 0, 0, 0, 2])
        s.supply[PEASANT] = 18
        script(s, [3, 2, 0, 0, 2])
        _attack(s, 0, owari, mino, 5)
        assert (s.owner[mino] == 1) is holds


def test_castle_event_in_revolts_option() -> None:
    """shogun.md §21.1 Q6: the castle event's cube is not thrown in revolts (default); option
    castle_event_in_revolts adds it."""
    for flag, thrown in ((False, 3), (True, 4)):
        s = empty_state(4, castle_event_in_revolts=flag)
        kaga = own(s, 0, "Kaga", 3, bld=CASTLE, markers=1)
        model = script(s, [3, 0, 0, 0, 0])
        run(s, {0: {RICE_A: kaga}}, event=3)
        assert model.seen[0][0] == thrown
