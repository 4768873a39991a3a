"""Setup, draft, views and whole-game invariants (shogun.md §2, §13, §14.6, §19)."""

from __future__ import annotations

import json

import pytest

import sengoku
from sengoku.core import OptionError, Rng
from sengoku.games.shogun import actions, messages, state
from sengoku.games.shogun.actions import Draft, TakeTop
from sengoku.games.shogun.state import DRAFT

from .helpers import GAME, D, I

SUN_REMOVED = {
    I[n] for n in ("Mutsu", "Echigo", "Awa-Boso", "Kazusa", "Sanuki", "Tosa", "Izumo", "Iwami")
}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_standard_lineup_and_starting_chests(players: int) -> None:
    """shogun.md §2.2-2.3, §13, §14.6: the standard line-up puts stacks 5,4,4,3,3,2,... on the
    table's provinces (seat 0 = player A); chests 18/15/12; the rest is neutral."""
    m = sengoku.new_match("shogun", players, seed=1)
    s = m._state
    assert s.money == [{3: 18, 4: 15, 5: 12}[players]] * players
    for seat, row in enumerate(D.lineups[players]):
        for prov, stack in zip(row, D.stacks[players], strict=True):
            assert s.owner[prov] == seat and s.armies[prov] == stack
    owned = sum(1 for o in s.owner if o >= 0)
    assert owned == players * (12 - players)
    assert (
        sum(1 for p in range(45) if s.owner[p] < 0 and s.board.in_play[p])
        == {3: 10, 4: 13, 5: 10}[players]
    )
    assert s.rice == [0] * players and s.vp == [0] * players


def test_draft_picks_and_refill() -> None:
    """shogun.md §2.4: in turn each player takes a face-up card or the top of the pile and puts
    one of his stacks there; a taken face-up card is replaced (and the new one logged)."""
    m = sengoku.new_match("shogun", 4, seed=3, options={"setup": "draft"})
    s = m._state
    assert s.phase == DRAFT and len(s.draft_up) == 2
    seat = m.to_act()[0]
    legal = m.legal_actions(seat)
    up = list(s.draft_up)
    drafts = [a for a in legal if isinstance(a, Draft)]
    assert TakeTop() in legal and len(drafts) == len(legal) - 1
    assert {a.province for a in drafts} == set(up)
    assert {a.stack for a in drafts} == {5, 4, 3, 2}
    assert m.log(None)[0] == (
        f"draft: {messages.COLOURS[seat]} picks first; face-up cards "
        f"{D.names[up[0]]} and {D.names[up[1]]}"
    )
    m.act(seat, Draft(up[0], 5))
    assert s.owner[up[0]] == seat and s.armies[up[0]] == 5
    assert len(s.draft_up) == 2 and up[0] not in s.draft_up and up[1] in s.draft_up
    new = next(p for p in s.draft_up if p != up[1])
    assert m.log(None)[-1].endswith(f"; {D.names[new]} is turned up")
    nxt = m.to_act()[0]
    assert nxt == (seat + 1) % 4
    m.act(nxt, TakeTop())
    m.act(nxt, m.legal_actions(nxt)[1])
    assert sum(1 for o in s.owner if o == nxt) == 1
    # play the draft out: everyone places all 8 stacks, then the first spring begins
    while s.phase == DRAFT:
        who = m.to_act()[0]
        m.act(who, m.legal_actions(who)[0])
    for p in range(4):
        assert sorted(a for q, a in enumerate(s.armies) if s.owner[q] == p) == sorted(D.stacks[4])
    assert m.to_act() == [0, 1, 2, 3]


def test_draft_same_two_cards_are_replaced() -> None:
    """shogun.md §2.4 ([FR][IMR] M): a player who faces the same two face-up cards as on his
    previous pick sees them go under the pile and two new ones turned up."""
    m = sengoku.new_match("shogun", 3, seed=5, options={"setup": "draft"})
    s = m._state
    first = m.to_act()[0]
    m.act(first, TakeTop())
    m.act(first, Draft(s.draft_drawn, 5))
    seen = sorted(s.draft_up)
    assert s.last_seen[first] == seen
    for _ in range(2):  # the other two take from the pile, so the face-up cards do not change
        who = m.to_act()[0]
        m.act(who, TakeTop())
        m.act(who, Draft(s.draft_drawn, 5))
    assert m.to_act()[0] == first
    assert sorted(s.draft_up) != seen and sorted(s.deck_bottom[-2:]) == seen
    assert any("go under the pile" in line for line in m.log())


def test_three_player_removed_provinces_are_never_used() -> None:
    """shogun.md §2.1, §13: with 3 players no army may enter the 8 marked provinces; their cards
    are out of the draft pile; random games never touch them."""
    for options in ({}, {"setup": "draft"}, {"board": "moon", "setup": "draft"}):
        m = sengoku.new_match("shogun", 3, seed=7, options=options)
        s = m._state
        if s.phase == DRAFT:
            assert not (set(s.deck_top) | set(s.draft_up)) & SUN_REMOVED
        chooser = Rng(2)
        while m.to_act():
            seat = m.to_act()[0]
            legal = m.legal_actions(seat)
            for a in legal:
                assert getattr(a, "target", -1) not in SUN_REMOVED
                assert getattr(a, "province", -1) not in SUN_REMOVED
            m.act(seat, chooser.choice(legal))
            assert all(s.owner[p] == -1 and s.armies[p] == 0 for p in SUN_REMOVED)


def _check_invariants(s: state.State) -> None:
    n = s.players
    tower = s.tower.contents()
    for p in range(n):
        board = sum(a for q, a in enumerate(s.armies) if s.owner[q] == p)
        assert s.supply[p] + tower[p] + s.tower.tray[p] + board == 62
        assert 0 <= s.rice[p] <= 18 and s.money[p] >= 0
    assert s.supply[n] + tower[n] + s.tower.tray[n] == 20
    for q in range(45):
        if s.owner[q] >= 0:
            assert s.armies[q] >= 1
        else:
            assert s.armies[q] == 0 and s.bld[q] == 0 and s.markers[q] == 0
        assert state.popcount(s.bld[q]) <= D.slots[q]
    built = [sum(1 for q in range(45) if s.bld[q] & bit) for bit in (1, 2, 4)]
    assert [a + b for a, b in zip(built, s.bsupply, strict=True)] == [28, 26, 26]
    assert sum(s.markers) + s.markers_left == 42


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"setup": "draft", "board": "moon", "tower_model": "wos"}])
def test_invariants_hold_through_random_games(players: int, options: dict) -> None:  # type: ignore[type-arg]
    """shogun.md §1, §21.1 Q7: cubes (62 per colour, 20 peasants), tiles (28/26/26) and markers
    (42) are conserved; rice never exceeds 18; owned provinces hold armies, neutral ones none."""
    for seed in range(3):
        m = sengoku.new_match("shogun", players, seed=seed, options=options)
        chooser = Rng(seed + 100)
        while m.to_act():
            seat = chooser.choice(m.to_act())
            m.act(seat, chooser.choice(m.legal_actions(seat)))
            _check_invariants(m._state)


def test_tower_contents_are_hidden_unless_the_option_shows_them() -> None:
    """Issue 4 point 6, shogun.md §15: the view shows supply + tower per colour, not the split;
    option show_tower shows both."""
    m = sengoku.new_match("shogun", 4, seed=1)
    v = m.view(0)
    assert "tower" not in v and "supply" not in v and len(v["reserve"]) == 5
    s = m._state
    assert v["reserve"][0] == s.supply[0] + s.tower.contents()[0]
    m = sengoku.new_match("shogun", 4, seed=1, options={"show_tower": True})
    v = m.view(None)
    assert v["tower"] == m._state.tower.contents() and v["supply"] == m._state.supply


def test_determinize_rebuilds_the_seats_view() -> None:
    """shogun.md §4.3 (hidden plans): a sampled state shows the seat the same view, and other
    seats' unrevealed plans are redrawn."""
    m = sengoku.new_match("shogun", 4, seed=9)
    for seat in range(4):
        for _ in range(6):
            m.act(seat, m.legal_actions(seat)[0])
    view = json.loads(json.dumps(m.view(0)))
    differ = False
    for k in range(10):
        sample = sengoku.determinize(view, Rng(k))
        assert sample.view(0) == view
        differ |= sample._state.plan[1] != m._state.plan[1]
    assert differ


def test_notation_and_text_rendering() -> None:
    """shogun.md §4.3, §5 (notation): actions read back case-insensitively; the text view."""
    m = sengoku.new_match("shogun", 3, seed=2)
    a = m.parse_action(0, "PLAN CASTLE:   blank")
    assert str(a) == "plan castle: blank"
    text = GAME.render_text(m.view(0))
    assert text is not None and "Red:" in text and "year 1" in text


def test_moon_options_are_validated() -> None:
    """shogun.md §14.3-14.4, §21.1 Q2: moon sea routes and 3-player provinces are options;
    unknown provinces, or removing a line-up province, are refused."""
    with pytest.raises(OptionError, match="moon_sea_routes"):
        sengoku.new_match(
            "shogun", 4, seed=1, options={"board": "moon", "moon_sea_routes": "Aki/Atlantis"}
        )
    with pytest.raises(OptionError, match="moon_three_player_removed"):
        sengoku.new_match(
            "shogun",
            3,
            seed=1,
            options={"board": "moon", "moon_three_player_removed": "Mino, Mutsu"},
        )
    m = sengoku.new_match(
        "shogun",
        3,
        seed=1,
        options={
            "board": "moon",
            "setup": "draft",
            "moon_three_player_removed": "Mino, Mutsu",
            "moon_sea_routes": "Aki/Iyo, Awa-Boso/Izu, Awa-Shikoku/Kii, Harima/Sanuki, Izu/Shima",
        },
    )
    s = m._state
    assert set(s.board.removed) == {I["Mino"], I["Mutsu"]}
    assert I["Tajima"] not in s.board.neighbours[I["Kaga"]]


def test_explain_illegal() -> None:
    """shogun.md §4.3: refusals say why (planning out of order, bids above one's chests)."""
    m = sengoku.new_match("shogun", 3, seed=2)
    with pytest.raises(sengoku.IllegalActionError, match="plan the spaces in order"):
        m.act(0, actions.Plan(3, actions.BLANK))
    s = m._state
    s.money[0] = 2
    for _ in range(10):
        m.act(0, next(a for a in m.legal_actions(0) if isinstance(a, actions.Plan)))
    assert s.plan_n[0] == 10  # at the bid step
    assert actions.Bid(2) in m.legal_actions(0) and actions.Bid(3) not in m.legal_actions(0)
    with pytest.raises(sengoku.IllegalActionError, match="a bid of 3 is more than Red's chests"):
        m.act(0, actions.Bid(3))
    assert GAME.explain_illegal(s, 0, actions.Bid(4)) == "a bid of 4 is more than Red's chests"
