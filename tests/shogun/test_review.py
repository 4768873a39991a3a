"""Rules points found in review: named province-card bids, the two-step pile pick, when planned
cards are turned, the set-up log, the tower in determinize, and scenario gaps."""

from __future__ import annotations

import json

import pytest

import sengoku
from sengoku.core import Rng, render
from sengoku.games.shogun import planning, views, winter
from sengoku.games.shogun.actions import (
    BLANK,
    PROVINCE_BID,
    Armies,
    Bid,
    Draft,
    March,
    Plan,
    TakeTop,
)
from sengoku.games.shogun.data import ACTION_TITLES
from sengoku.games.shogun.messages import COLOURS
from sengoku.games.shogun.state import A_BB, DRAFT, PLAN, S_ATTACK, TARGET, THEATRE, WINTER
from sengoku.games.shogun.tower import MODELS, Tower

from .helpers import BA_A, GAME, D, I, act, empty_state, own, script, text
from .helpers import run_season as run

PEASANT = 4


def _plan_all(m: sengoku.Match, seat: int, bid: str | None = None) -> None:
    """Plan ``seat``'s ten spaces (four blanks, then his first cards), then bid ``bid``; one
    chest card and his last province cards stay free for the bid."""
    s = m._state
    while s.plan_n[seat] < 10:
        blank = Plan(s.plan_n[seat], BLANK)
        m.act(seat, blank if s.plan_n[seat] < 4 else m.legal_actions(seat)[0])
    m.act(seat, bid if bid is not None else m.legal_actions(seat)[0])


# ---------------------------------------------------------------- province-card bids


def test_province_card_bid_names_an_unplaced_card() -> None:
    """shogun.md §4.3: the bid space holds one specific unused province card: there is one
    legal bid per province card not placed on an action space, and none for placed ones."""
    m = sengoku.new_match("shogun", 4, seed=7)
    s = m._state
    hand = list(s.hand[0])
    for space in range(5):
        m.act(0, Plan(space, BLANK))
    for space in range(5, 10):
        m.act(0, Plan(space, hand[space - 5]))
    bids = [a for a in m.legal_actions(0) if isinstance(a, Bid) and a.value == PROVINCE_BID]
    assert [b.province for b in bids] == hand[5:]
    assert Bid(0) not in m.legal_actions(0)  # all five chest cards are blanks
    assert str(bids[0]) == f"bid province card {D.names[hand[5]]}"
    assert m.parse_action(0, f"Bid Province Card {D.names[hand[5]]}") == bids[0]


def test_province_card_bid_is_revealed_with_the_bids() -> None:
    """shogun.md §4.3, §4.5: the province card on the bid space is revealed with the bids (view
    and log), so everyone learns that province has no action this season."""
    m = sengoku.new_match("shogun", 3, seed=2)
    s = m._state
    card = s.hand[0][-1]
    name = D.names[card]
    _plan_all(m, 0, f"bid province card {name}")
    assert m.view(0)["bid_cards"][0] == card
    assert m.view(1)["bid_cards"][0] == -1 and m.view(1)["bids"][0] is None
    assert not any(name in line for line in m.log(1) if "bid" in line)
    _plan_all(m, 1)
    _plan_all(m, 2)
    assert m.view(1)["bid_cards"][0] == card and m.view(None)["bids"][0] == PROVINCE_BID
    line = next(x for x in m.log(None) if x.startswith("bids: "))
    assert f"Red the province card {name}" in line


def test_determinize_leaves_the_bid_card_out_of_the_plan() -> None:
    """shogun.md §4.3: a revealed province-card bid is not on any action space, so sampled
    plans never put it there (determinize and vary_secrets)."""
    m = sengoku.new_match("shogun", 3, seed=2)
    s = m._state
    card = s.hand[0][-1]
    while s.plan_n[0] < 10:  # provinces first, then blanks: every card but the bid is used
        legal = m.legal_actions(0)
        m.act(0, next((a for a in legal if a.card not in (card,)), legal[0]))  # type: ignore[union-attr]
    m.act(0, f"bid province card {D.names[card]}")
    _plan_all(m, 1)
    _plan_all(m, 2)
    assert s.bids_revealed
    for k in range(30):
        d = GAME.determinize(m.view(1), Rng(k))
        assert card not in d.plan[0]
        assert all(x >= BLANK for x in d.plan[0])  # every space covered
        assert len({x for x in d.plan[0] if x >= 0}) == len([x for x in d.plan[0] if x >= 0])
        v = GAME.vary_secrets(s, 1, Rng(k))
        assert card not in v.plan[0]


# ---------------------------------------------------------------- draft from the pile


def test_draft_top_card_pick_is_two_steps() -> None:
    """shogun.md §2.4: a pile pick first takes the top card (revealed to all and logged), then
    the player chooses which stack to move onto that province."""
    m = sengoku.new_match("shogun", 4, seed=3, options={"setup": "draft"})
    s = m._state
    seat = m.to_act()[0]
    other = (seat + 1) % 4
    m.act(seat, "take top card")
    drawn = s.draft_drawn
    assert drawn >= 0 and s.owner[drawn] == -1
    assert m.to_act() == [seat]
    assert m.legal_actions(seat) == [Draft(drawn, st) for st in (5, 4, 3, 2)]
    assert m.view(other)["draft_drawn"] == drawn and m.view(None)["draft_drawn"] == drawn
    assert m.log(other)[-1] == f"{COLOURS[seat]} takes the pile's top card: {D.names[drawn]}"
    up = list(s.draft_up)
    m.act(seat, f"draft {D.names[drawn]} with 3")
    assert s.owner[drawn] == seat and s.armies[drawn] == 3 and s.draft_drawn == -1
    assert s.draft_up == up and s.stacks_left[seat].count(3) == 1
    assert m.to_act() == [other] and TakeTop() in m.legal_actions(other)


# ---------------------------------------------------------------- revealing planned cards


def _two_attacks(**options: str):  # type: ignore[no-untyped-def]
    s = empty_state(4, **options)
    owari = own(s, 0, "Owari", 4)
    ise = own(s, 1, "Ise", 4)
    script(s, [2, 0, 0, 0, 1])
    log = run(s, {0: {BA_A: owari}, 1: {BA_A: ise}}, order=[BA_A, *range(BA_A), A_BB])
    return s, log, owari, ise


def test_cards_are_turned_in_turn_by_default() -> None:
    """shogun.md §4.6 (silent; our proposal reveal_action_cards=in_turn): when Red chooses his
    Battle/Move target, Blue's card for the same action is still face down; it is turned when
    Blue's turn comes."""
    s, log, owari, ise = _two_attacks()
    assert s.phase == TARGET and s.pending[0] == 0
    assert "battle/move A: Red Owari" in log and not any("Blue" in x for x in log)
    for seat in (0, 2, None):
        assert GAME.view(s, seat)["plans"][1][BA_A] is None
    act(s, 0, March(owari, I["Mikawa"], True))
    log = act(s, 0, Armies(3))
    assert "battle/move A: Blue Ise" in log
    assert GAME.view(s, 2)["plans"][1][BA_A] == ise


def test_cards_are_turned_all_at_once_with_the_option() -> None:
    """shogun.md §4.6, option reveal_action_cards=all_at_once: all players' cards for an action
    are turned when the action starts."""
    s, log, _, ise = _two_attacks(reveal_action_cards="all_at_once")
    assert s.phase == TARGET and s.pending[0] == 0
    assert "battle/move A: Red Owari, Blue Ise, Yellow blank, Purple blank" in log
    assert GAME.view(s, 2)["plans"][1][BA_A] == ise


def test_action_cards_five_face_up_then_one_more_after_each_action() -> None:
    """shogun.md §4.1: five action cards are face up; after each action is carried out by all,
    the next card is turned, so the view shows min(10, 5 + actions done) cards."""
    m = sengoku.new_match("shogun", 3, seed=4)
    s = m._state
    rng = Rng(4)
    seasons = 0
    while s.year == 1 and s.season < 3:
        v = m.view(None)
        if s.phase == PLAN:
            assert len(v["action_order"]) == 5 and s.action_idx == 0
        else:
            assert len(v["action_order"]) == min(10, 5 + s.action_idx)
        seat = m.to_act()[0]
        m.act(seat, rng.choice(m.legal_actions(seat)))
    log = m.log(None)
    seasons = sum(1 for x in log if ": first actions " in x)
    assert seasons == 3
    assert sum(1 for x in log if x.startswith("the next action card is")) == 15


def test_view_never_holds_unturned_action_cards_or_the_event_order() -> None:
    """shogun.md §4.1, §4.4: neither the face-down action cards nor the order in which the
    year's events will be drawn are anywhere in a view (they are not even in the state)."""
    m = sengoku.new_match("shogun", 4, seed=9)
    s = m._state
    rng = Rng(9)
    while m.outcome() is None:
        for seat in (None, 0, 1):
            v = m.view(seat)
            assert v["action_order"] == s.action_order
            assert len(v["action_order"]) <= 5 + s.action_idx
            assert sorted(set(v["action_order"])) == sorted(v["action_order"])
            assert v["year_events"] == sorted(v["year_events"])
            drawn = v["season_events"]
            assert len(drawn) <= s.season + (1 if s.event >= 0 or s.phase == WINTER else 0)
            if s.phase == PLAN:
                assert v["event"] == -1
        seat = m.to_act()[0]
        m.act(seat, rng.choice(m.legal_actions(seat)))


def test_private_planning_lines_stay_private() -> None:
    """shogun.md §4.3: plans and bids are secret: Red's planning lines are in Red's log only."""
    m = sengoku.new_match("shogun", 4, seed=1)
    m.act(0, "plan castle: Kaga")
    _plan_all(m, 0, "bid 2")
    assert "Red plans castle: Kaga" in m.log(0) and "Red bids 2" in m.log(0)
    for seat in (1, 2, 3, None):
        assert not any(x.startswith(("Red plans", "Red bids")) for x in m.log(seat))


# ---------------------------------------------------------------- set-up log


def test_initial_log_of_a_standard_game() -> None:
    """shogun.md §2.5, §3, §4.1-4.2: the set-up lines are kept: line-up, priming, the year's
    events, the first spring's face-up action cards and special cards."""
    m = sengoku.new_match("shogun", 4, seed=5)
    s = m._state
    log = m.log(None)
    assert log[0] == "the armies stand in the standard line-up (rules §14.6)"
    assert log[1] == "the tower is primed with 7 cubes per player and 10 peasants"
    assert log[2].startswith("year 1 begins; this year's events: ")
    assert log[3] == (
        "year 1, spring: first actions "
        + ", ".join(ACTION_TITLES[a] for a in s.action_order)
        + "; special cards by position: "
        + ", ".join(D.specials[c].label for c in s.specials)
    )
    assert m.log(2)[:4] == log[:4]
    assert [e.seats for e in GAME.initial_log(s)] == [None] * 4


def test_initial_log_shows_the_priming_result_with_show_tower() -> None:
    """shogun.md §2.5, option show_tower: the priming result is logged only when the tower's
    counts are public."""
    m = sengoku.new_match("shogun", 3, seed=5, options={"show_tower": True})
    s = m._state
    out = [7 - n for n in s.tower.contents()[:3]] + [10 - s.tower.contents()[3]]
    assert m.log(None)[1].endswith(
        f"; out came Red {out[0]}, Blue {out[1]}, Yellow {out[2]}, peasants {out[3]}"
    )


def test_initial_log_of_a_draft_game() -> None:
    """shogun.md §2.4-2.5: a draft game's log starts with the first picker and the two face-up
    cards; priming and the first spring follow when the draft ends."""
    m = sengoku.new_match("shogun", 3, seed=6, options={"board": "moon", "setup": "draft"})
    s = m._state
    up = " and ".join(D.names[p] for p in s.draft_up)
    first = COLOURS[m.to_act()[0]]
    assert m.log(None) == [f"draft: {first} picks first; face-up cards {up}"]
    while s.phase == DRAFT:
        seat = m.to_act()[0]
        m.act(seat, m.legal_actions(seat)[0])
    assert any(x.startswith("the tower is primed") for x in m.log(None))
    assert any(x.startswith("year 1, spring: first actions") for x in m.log(None))


# ---------------------------------------------------------------- tower in determinize


def test_determinize_samples_the_tower_from_the_model() -> None:
    """shogun.md §2.5, §15: the hidden tower split is drawn by re-running the priming throw with
    the configured model: at most 7 per colour and 10 peasants before any battle, with the
    model's mean retention, and the sample agrees with the view."""
    m = sengoku.new_match("shogun", 4, seed=5)
    view = m.view(1)
    inside = [0] * 5
    n = 300
    for k in range(n):
        d = GAME.determinize(view, Rng(k))
        c = d.tower.contents()
        assert all(0 <= x <= 7 for x in c[:4]) and 0 <= c[4] <= 10
        for o in range(5):
            inside[o] += c[o]
        got = GAME.view(d, 1)
        got.update({k2: view[k2] for k2 in ("game", "players", "options", "seat", "to_act")})
        assert json.dumps(got, sort_keys=True) == json.dumps(view, sort_keys=True)
    assert abs(sum(inside[:4]) / (4 * n) - 7 / 3) < 0.3  # sbw keeps 1/3 of the priming cubes
    assert abs(inside[4] / n - 10 / 3) < 0.4


def test_determinize_tower_follows_the_public_flow() -> None:
    """shogun.md §9.2, §15: cubes thrown and cubes coming out are seen, so the sampled tower
    holds (priming result) + (cubes in - cubes out since) for every colour."""
    s = empty_state(3)
    own(s, 0, "Owari", 6)
    s.tower.set_contents([3, 0, 0, 0])
    s.supply[0] -= 3
    out = s.tower.throw([5, 0, 0, 1], Rng(1))
    s.supply[0] -= 5 - out[0]
    s.supply[3] -= 1 - out[3]
    flow = [5 - out[0], 0, 0, 1 - out[3]]
    assert s.tower.flow == flow
    reserve = [s.supply[o] + s.tower.contents()[o] for o in range(4)]
    for k in range(50):
        t = s.clone()
        views.sample_tower(t, reserve, Rng(k))
        c = t.tower.contents()
        for o in range(4):
            assert flow[o] <= c[o] <= (7 if o < 3 else 10) + flow[o]
            assert t.supply[o] + c[o] == reserve[o]


# ---------------------------------------------------------------- scenario gaps


def test_attack_card_adds_a_cube_against_a_neutral_province() -> None:
    """shogun.md §6: the +1 attack card adds a cube from supply to a Battle/Move attack, also
    against a neutral province (one peasant defends)."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 4)
    mikawa = I["Mikawa"]
    model = script(s, [4, 0, 0, 0, 1])
    run(s, {0: {BA_A: owari}}, specials={0: S_ATTACK})
    act(s, 0, March(owari, mikawa, True))
    log = act(s, 0, Armies(3))
    assert model.seen[0] == [4, 0, 0, 0, 1]  # 3 armies + 1 for the card; 1 peasant
    assert s.owner[mikawa] == 0 and s.armies[mikawa] == 3
    assert any("with 3 (+1 attack card)" in x and x.endswith("takes Mikawa with 3") for x in log)


def test_theatre_majority_tie_scores_nothing() -> None:
    """shogun.md §11.3: tied players for a region's majority each get 1 less; for Nô theatres
    (1 point) a tie scores 0."""
    s = empty_state(4)
    own(s, 0, "Owari", 1, bld=THEATRE)
    own(s, 1, "Mino", 1, bld=THEATRE)  # both in the red region on the sun side
    own(s, 2, "Ise", 1, bld=THEATRE)  # alone in the purple region: 1 point
    pts, lines = winter.score_year(s)
    assert pts[:3] == [2, 2, 3]
    assert render(lines[0], GAME.catalog) == "Red 2 (1 province, 1 building, 0 for majorities)"


def test_hunger_revolts_at_the_largest_shortage() -> None:
    """shogun.md §10.2-10.3: the shortage is provinces - rice, so it never exceeds the provinces
    owned; at 7+ short three provinces revolt with 3 extra peasants each, and a player whose
    shortage equals all his provinces (no rice at all) revolts as the table says."""
    assert winter.winter_row(7) == winter.winter_row(40) == (3, 3)
    s = empty_state(3)
    names = ("Owari", "Mino", "Omi", "Ise", "Kii", "Yamato", "Mikawa", "Shima")
    for name in names:
        own(s, 0, name, 2)
    own(s, 1, "Kai", 1)  # one province, no rice: short 1 = all he owns
    script(s, [0, 0, 0, 3], [0, 0, 0, 3], [0, 0, 0, 3], [0, 0, 0, 1])
    s.year_events = [0, 1, 2, 3]
    s.season_events = [0, 1, 2]
    s.autumn_order = [0, 1, 2]
    log: list = []
    winter.start_winter(s, Rng(0), log)
    lines = [text(e) for e in log]
    assert any(x.startswith("Red is 8 rice short: hunger revolts in ") for x in lines)
    assert s.phase == WINTER and len(s.revolt_left) == 3 and s.revolt_bonus == 3
    while s.phase == WINTER:
        seat = GAME.to_act(s)[0]
        act(s, seat, GAME.legal_actions(s, seat)[0])
    assert sum(1 for o in s.owner if o == 0) == 5  # three devastated
    assert s.owner[I["Kai"]] == -1  # Blue's single province revolted (1 + 0 markers vs 1)


def test_defender_with_a_revolt_marker_wins_alone() -> None:
    """shogun.md §9.3: with a revolt marker no peasants fight for the defender; he still wins
    with more cubes of his own and keeps (his emerged - attacker's emerged)."""
    s = empty_state(4)
    owari = own(s, 0, "Owari", 6)
    mino = own(s, 1, "Mino", 4, markers=1)
    model = script(s, [2, 4, 0, 0, 0])
    run(s, {0: {BA_A: owari}})
    act(s, 0, March(owari, mino, True))
    log = act(s, 0, Armies(3))
    assert model.seen[0] == [3, 4, 0, 0, 0]  # no peasants thrown or emerged
    assert s.owner[mino] == 1 and s.armies[mino] == 2 and s.markers[mino] == 1
    assert any(x.endswith("tower: Red 2, Blue 4; Blue holds Mino with 2") for x in log)


def test_the_tower_model_can_be_swapped() -> None:
    """shogun.md §15: every model conserves cubes across priming and throws."""
    for model in MODELS.values():
        t = Tower(3, model)
        out = t.prime([7, 7, 7, 10], Rng(3))
        assert [a + b for a, b in zip(out, t.contents(), strict=True)] == [7, 7, 7, 10]
        assert t.flow == [0, 0, 0, 0]


@pytest.mark.parametrize("players", [3, 5])
def test_bids_ranked_with_named_province_cards(players: int) -> None:
    """shogun.md §4.5: a province-card bid ranks between chest 1 and chest 0 whatever its card."""
    assert planning.bid_rank(PROVINCE_BID) == 1
    m = sengoku.new_match("shogun", players, seed=players)
    for seat in range(players):
        card = m._state.hand[seat][-1]
        _plan_all(m, seat, f"bid province card {D.names[card]}" if seat == 1 else "bid 0")
    assert m._state.choosers[0] == 1
