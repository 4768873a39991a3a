"""The 12 event cards: each card's season effect and its winter rice loss (shogun.md §7)."""

from __future__ import annotations

import pytest

from sengoku.core import Rng
from sengoku.games.shogun import messages, perform, planning, state, winter
from sengoku.games.shogun.actions import Armies, March
from sengoku.games.shogun.state import CASTLE, TEMPLE, THEATRE

from .helpers import (
    BA_A,
    GAME,
    R3_A,
    R5_A,
    RICE_A,
    TAX_A,
    THEATRE_A,
    D,
    I,
    act,
    empty_state,
    own,
    script,
    text,
)
from .helpers import run_season as run

KIND = {e.id: e.kind for e in D.events}


def _cards(kind: str) -> list[int]:
    return [e for e, k in KIND.items() if k == kind]


@pytest.mark.parametrize("event", _cards("theatre_calm"))
def test_theatre_event_removes_markers_when_building_a_theatre(event: int) -> None:
    """shogun.md §7 #1-2, §21.1 Q1: default: building a Nō theatre during the event removes all
    revolt markers of that province; option action_one removes one."""
    s = empty_state(4)
    omi = own(s, 0, "Omi", 2, markers=2)
    other = own(s, 1, "Mino", 2, bld=THEATRE, markers=1)
    run(s, {0: {THEATRE_A: omi}}, event=event)
    assert s.bld[omi] == THEATRE and s.markers[omi] == 0
    assert s.markers[other] == 1  # not on reveal: only the province where one is built
    s = empty_state(4, no_theatre_event="action_one")
    omi = own(s, 0, "Omi", 2, markers=2)
    run(s, {0: {THEATRE_A: omi}}, event=event)
    assert s.markers[omi] == 1


@pytest.mark.parametrize("event", _cards("theatre_calm"))
def test_theatre_event_on_reveal_option(event: int) -> None:
    """shogun.md §7 #1-2 reading (a), option no_theatre_event=on_reveal: when the event is
    drawn, every province with a Nō theatre loses its markers."""
    s = empty_state(4, no_theatre_event="on_reveal")
    mino = own(s, 1, "Mino", 2, bld=THEATRE, markers=2)
    omi = own(s, 0, "Omi", 2, markers=1)
    planning.start_season(s, Rng(0), [])
    s.year_events = [event]
    s.plan_n = [11] * 4
    s.bid = [0] * 4
    planning.end_planning(s, Rng(0), [])
    assert s.event == event and s.markers[mino] == 0 and s.markers[omi] == 1


@pytest.mark.parametrize("event", _cards("two_peasants"))
def test_two_peasants_defend_neutral_provinces(event: int) -> None:
    """shogun.md §7 #3: a neutral province is defended by 2 peasant cubes instead of 1."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    model = script(s, [3, 0, 0, 0, 2])
    run(s, {0: {BA_A: owari}}, event=event)
    act(s, 0, March(owari, I["Mikawa"], True))
    act(s, 0, Armies(3))
    assert model.seen[0] == [3, 0, 0, 0, 2]
    assert s.owner[I["Mikawa"]] == 0 and s.armies[I["Mikawa"]] == 1


@pytest.mark.parametrize("event", _cards("castle_defence"))
def test_castle_event_adds_a_defending_cube(event: int) -> None:
    """shogun.md §7 #4-5: the owner of an attacked province with a castle throws 1 extra cube
    from his supply; without a castle nothing changes."""
    for bld, thrown in ((CASTLE, 4), (TEMPLE, 3)):
        s = empty_state(4)
        ise = own(s, 0, "Ise", 4)
        omi = own(s, 1, "Omi", 3, bld=bld, markers=1)
        model = script(s, [0, 0, 0, 0, 0])
        run(s, {0: {BA_A: ise}}, event=event)
        act(s, 0, March(ise, omi, True))
        act(s, 0, Armies(3))
        assert model.seen[0][1] == thrown


@pytest.mark.parametrize("event", _cards("temple_peace"))
def test_temple_event_protects_provinces(event: int) -> None:
    """shogun.md §7 #6-7: provinces with a temple cannot be attacked (own ones can be entered)."""
    s = empty_state(4)
    ise = own(s, 0, "Ise", 4)
    own(s, 1, "Omi", 3, bld=TEMPLE)
    own(s, 0, "Owari", 1, bld=TEMPLE)
    run(s, {0: {BA_A: ise}}, event=event)
    targets = [str(a) for a in GAME.legal_actions(s, 0)]
    assert "attack Omi from Ise" not in targets and "move to Owari from Ise" in targets
    assert "attack Mino from Ise" in targets


@pytest.mark.parametrize(
    ("kind", "province", "action", "value"),
    [
        ("tax_max_5", "Etchu", TAX_A, 5),  # tax 7
        ("tax_min_6", "Mino", TAX_A, 6),  # tax 3
        ("rice_min_4", "Owari", RICE_A, 4),  # rice 2
        ("rice_max_3", "Kaga", RICE_A, 3),  # rice 5
    ],
)
def test_collect_events(kind: str, province: str, action: int, value: int) -> None:
    """shogun.md §7 #8-11: taxes at most 5 / at least 6; rice at least 4 / at most 3; the
    special card's +1 is added after the event's limit (shogun.md §6, [FR][IMR])."""
    (event,) = _cards(kind)
    for special, bonus in ((None, 0), (0 if action == TAX_A else 1, 1)):
        s = empty_state(4)
        p = own(s, 0, province, 2)
        run(
            s, {0: {action: p}}, event=event, specials={0: special} if special is not None else None
        )
        got = s.money[0] - 15 if action == TAX_A else s.rice[0]
        assert got == value + bonus


def test_recruit_shortage_event() -> None:
    """shogun.md §7 #12, §21.2: Recruit 5 gives only 3 armies, Recruit 3 only 2 (same costs);
    the 6-armies card gives 6 (default) or 3 + 1 (option six_armies_card=plus_one)."""
    (event,) = _cards("recruit_shortage")
    s = empty_state(4)
    a = own(s, 0, "Omi", 1)
    b = own(s, 1, "Mino", 1)
    run(s, {0: {R5_A: a}, 1: {R3_A: b}}, event=event)
    assert (s.armies[a], s.armies[b], s.money[0], s.money[1]) == (4, 3, 12, 13)
    for option, armies in (("six", 6), ("plus_one", 4)):
        s = empty_state(4, six_armies_card=option)
        a = own(s, 0, "Omi", 1)
        run(s, {0: {R5_A: a}}, event=event, specials={0: 2})
        assert s.armies[a] == 1 + armies


@pytest.mark.parametrize("event", range(12))
def test_each_cards_winter_rice_loss(event: int) -> None:
    """shogun.md §7, §11.1: the year's fourth card costs every player its rice number in winter
    (never below 0)."""
    s = empty_state(4, years=1)
    others = [e for e in range(12) if e != event][:3]
    s.year_events = sorted([event, *others])
    s.season_events = list(others)
    s.rice = [7, 0, 3, 18]
    s.season = 3
    log: list = []
    winter.start_winter(s, Rng(0), log)
    loss = D.events[event].winter_rice_loss
    assert loss == [5, 7, 3, 2, 6, 3, 4, 0, 2, 3, 4, 1][event]
    assert s.rice == [max(0, r - loss) for r in (7, 0, 3, 18)]
    assert s.season_events[-1] == event
    assert text(log[0]).startswith(
        f"winter of year 1: the last event card costs everyone {loss} rice"
    )


def test_event_is_drawn_from_the_years_four_after_planning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """shogun.md §3, §4.4, §11: four events per year, one drawn at random each season after the
    plans are made; the fourth (the one not drawn) is the winter card whose loss is applied."""
    import sengoku

    at_winter: list[list[int]] = []
    run_winter = winter.run_winter

    start_winter = winter.start_winter

    def spy_start(s, rng, log):  # type: ignore[no-untyped-def]
        if not at_winter:
            at_winter.append(list(s.rice))  # rice before the loss
        start_winter(s, rng, log)

    def spy_run(s, rng, log):  # type: ignore[no-untyped-def]
        if len(at_winter) == 1:
            at_winter.append(list(s.season_events))  # the season events after the loss
        run_winter(s, rng, log)

    monkeypatch.setattr(perform, "start_winter", spy_start)
    monkeypatch.setattr(winter, "run_winter", spy_run)

    m = sengoku.new_match("shogun", 3, seed=12)
    s = m._state
    year_events = list(s.year_events)
    assert len(year_events) == 4 and s.event == -1
    seen = []
    while s.year == 1:
        seat = m.to_act()[0]
        if s.phase == state.PLAN:
            assert s.event == -1  # not drawn while plans are made
        before = s.event
        m.act(seat, m.legal_actions(seat)[0])
        if s.event >= 0 and s.event != before:
            seen.append(s.event)
    assert len(seen) == len(set(seen)) == 3 and set(seen) < set(year_events)
    assert set(year_events).isdisjoint(s.events_left) and len(s.events_left) == 4
    (fourth,) = set(year_events) - set(seen)
    assert at_winter[1] == [*seen, fourth]  # the fourth card is the winter card
    loss = D.event_loss[fourth]
    line = next(x for x in m.log(None) if x.startswith("winter of year 1"))
    assert line.startswith(f"winter of year 1: the last event card costs everyone {loss} rice")
    assert line.endswith(
        ", ".join(f"{messages.COLOURS[p]} {max(0, r - loss)}" for p, r in enumerate(at_winter[0]))
    )
