"""Taking back a seat's latest action (``Match.undo``), by Board Game Arena's policy, in
every game: allowed, and each reason it is refused, decided by the engine alone."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import sengoku
from sengoku import Match, RecordError, Rng, UndoRefusedError
from sengoku.core import UndoReason, determinize

Chooser = Callable[[Match], "tuple[int, Any] | None"]


def state_of(match: Match) -> str:
    """Everything anyone can see of a match, and its record, as one comparable text."""
    seats = [None, *range(match.players)]
    return json.dumps(
        {
            "record": match.to_record(),
            "views": [match.view(s) for s in seats],
            "logs": [match.log(s) for s in seats],
            "legal": [[str(a) for a in match.legal_actions(s)] for s in range(match.players)],
        },
        sort_keys=True,
    )


def play_until(match: Match, done: Callable[[Match], bool], seed: int = 7) -> Match:
    """Play random legal actions until ``done(match)`` holds."""
    chooser = Rng(seed)
    for _ in range(5000):
        if done(match):
            return match
        assert match.outcome() is None, "the game ended first"
        seat = chooser.choice(match.to_act())
        match.act(seat, chooser.choice(match.legal_actions(seat)))
    raise AssertionError("never got there")


def refused(match: Match, seat: int) -> UndoRefusedError:
    """The error an undo of ``seat`` raises; the match is left exactly as it was."""
    before = state_of(match)
    with pytest.raises(UndoRefusedError) as info:
        match.undo(seat)
    assert state_of(match) == before
    refusal = match.undo_refusal(seat)
    assert refusal is not None and refusal.code == info.value.code
    assert info.value.reason == refusal.message and info.value.seat == seat
    return info.value


def undone_is_replay(match: Match, seat: int) -> tuple[int, Any]:
    """Undo ``seat``'s latest action and check the match is the replay of the record
    without it."""
    record = match.to_record()
    index, action = match.undo(seat)
    assert record["actions"][index] == [seat, str(action)]
    expected = {**record, "actions": record["actions"][:index] + record["actions"][index + 1 :]}
    assert match.to_record() == expected
    assert state_of(match) == state_of(Match.from_record(expected))
    return index, action


# -- the reasons that need no game ----------------------------------------------------------


def test_nothing_to_undo_before_the_seat_has_acted() -> None:
    match = sengoku.new_match("shitenno", 4, seed=0)
    error = refused(match, 1)
    assert error.code == "nothing_to_undo" == UndoReason.NOTHING_TO_UNDO.value
    assert "Blue has no action to take back" in error.reason


def test_game_over_every_action_stands() -> None:
    match = play_until(sengoku.new_match("shitenno", 3, seed=2), lambda m: m.outcome() is not None)
    for seat in range(3):
        assert refused(match, seat).code == "game_over"


def test_an_undo_of_an_unknown_seat_is_an_illegal_action() -> None:
    match = sengoku.new_match("shitenno", 3, seed=2)
    with pytest.raises(sengoku.IllegalActionError, match="no seat 3"):
        match.undo_refusal(3)


def test_a_match_sampled_for_search_has_no_record_to_replay() -> None:
    match = sengoku.new_match("shogun", 4, seed=3)
    match.act(0, match.legal_actions(0)[0])
    sampled = determinize(match.view(1), Rng(1))
    sampled.act(1, sampled.legal_actions(1)[0])
    with pytest.raises(RecordError, match="no record"):
        sampled.undo(1)


# -- Shitenno -------------------------------------------------------------------------------


def control_turn(match: Match) -> bool:
    """An odd year, a seat that may choose a province whose stack still holds bonus tiles."""
    if match.view(None)["phase"] != "control":
        return False
    seat = match.to_act()[0]
    provinces = match.view(None)["provinces"]
    return any(
        type(a).__name__ == "Target" and provinces[a.province]["stack"] > 1
        for a in match.legal_actions(seat)
    )


def test_shitenno_a_placement_is_taken_back_until_it_is_paid() -> None:
    """shitenno.md §4.4: a placement chooses a province (2), then pays (3). The choice shows
    nothing hidden and is taken back; the payment takes the top bonus tile of the province's
    stack, whose bonus face (and the troop face of the tile under it) nobody had seen (§3.1):
    it stands."""
    match = play_until(sengoku.new_match("shitenno", 4, seed=0), control_turn)
    seat = match.to_act()[0]
    provinces = match.view(None)["provinces"]
    target = next(
        a
        for a in match.legal_actions(seat)
        if type(a).__name__ == "Target" and provinces[a.province]["stack"] > 1
    )
    position = state_of(match)
    match.act(seat, target)
    assert match.view(None)["phase"] == "pay"
    assert match.undo_refusal(seat) is None
    index, action = undone_is_replay(match, seat)
    assert action == target and index == len(match.history)
    assert state_of(match) == position  # the board and the choices are back as before
    match.act(seat, target)
    match.act(seat, match.legal_actions(seat)[0])  # pay: take the province's top bonus tile
    error = refused(match, seat)
    assert error.code == "revealed"
    assert "showed" in error.reason and "what was hidden" in error.reason


def test_shitenno_an_offer_stands_once_the_player_offered_it_answered() -> None:
    """shitenno.md §4.3: the Tairo offers a lot to a player, who accepts or refuses it. The
    offer is taken back while it waits for the answer; once answered, it stands."""
    match = play_until(
        sengoku.new_match("shitenno", 4, seed=0),
        lambda m: any(type(a).__name__ == "Offer" for a in m.legal_actions(m.to_act()[0])),
    )
    tairo = match.to_act()[0]
    offer = next(a for a in match.legal_actions(tairo) if type(a).__name__ == "Offer")
    match.act(tairo, offer)
    assert match.undo_refusal(tairo) is None
    answering = match.to_act()[0]
    assert answering != tairo
    match.act(answering, "refuse lot")
    error = refused(match, tairo)
    assert error.code == "others_acted"
    assert sengoku.get_game("shitenno").seat_name(answering) in error.reason


# -- Shogun ---------------------------------------------------------------------------------


def plan_steps(match: Match, seat: int, count: int) -> None:
    """``count`` steps of ``seat``'s secret plan: always its first legal choice."""
    for _ in range(count):
        match.act(seat, match.legal_actions(seat)[0])


def test_shogun_a_plan_step_is_taken_back_while_the_others_still_plan() -> None:
    """shogun.md §4 step 3: everyone plans at once, in secret. A step taken back before the
    plans are revealed changes nothing anyone else has seen or done; the others' steps
    since then stand."""
    match = sengoku.new_match("shogun", 4, seed=3)
    plan_steps(match, 0, 3)
    plan_steps(match, 1, 2)
    plan_steps(match, 2, 1)
    assert match.view(0)["plan_n"] == [3, 2, 1, 0]
    others = [match.view(s) for s in (1, 2, 3)]
    plan = match.view(0)["plans"][0]
    index, action = undone_is_replay(match, 0)
    assert index == 2 and match.view(0)["plan_n"] == [2, 2, 1, 0]
    # what the others see only lost seat 0's count of steps
    for seat, old in zip((1, 2, 3), others, strict=True):
        assert {**match.view(seat), "plan_n": old["plan_n"]} == old
    match.act(0, action)  # and the same step again is the same plan
    assert match.view(0)["plans"][0] == plan and match.view(0)["plan_n"] == [3, 2, 1, 0]


def test_shogun_plan_steps_stand_once_the_plans_are_revealed() -> None:
    """shogun.md §4 steps 3-5: when the last player completes the last plan, the bids are
    revealed and an event is drawn at random. That completing step drew chance; every
    earlier plan stands too, since the others acted after it and the reveal showed it."""
    match = sengoku.new_match("shogun", 4, seed=3)
    for seat in range(4):
        plan_steps(match, seat, 11)
    assert match.view(0)["phase"] != "plan"
    assert refused(match, 3).code == "chance"
    for seat in range(3):
        error = refused(match, seat)
        assert error.code == "others_acted"


def test_shogun_the_answer_is_the_same_with_the_position_kept_before_the_action() -> None:
    """``before`` spares the replay and changes no answer; a copy of another position is
    ignored."""
    match = sengoku.new_match("shogun", 4, seed=3)
    plan_steps(match, 1, 2)
    kept = match.clone()
    plan_steps(match, 0, 1)
    plan_steps(match, 2, 1)
    assert match.undo_refusal(0, before=kept) is None
    assert match.undo_refusal(0, before=match) is None  # not the position before: ignored
    with_kept = match.clone()
    with_kept.undo(0, before=kept)
    assert state_of(with_kept) == state_of(undone_copy(match, 0))
    plan_steps(kept, 3, 1)  # the kept copy is never changed by the undo
    assert kept.view(3)["plan_n"] == [0, 2, 0, 1]


def undone_copy(match: Match, seat: int) -> Match:
    twin = match.clone()
    twin.undo(seat)
    return twin


# -- the test game: hidden deck and chance --------------------------------------------------


def test_auction_a_secret_bid_is_taken_back_until_the_last_bid_reveals_them() -> None:
    """The test game (tests/toygame.py): bids are secret until the last one; the last bid
    shows everyone the bids and the winner the top card of the shuffled deck (with
    ``tie_break=lowest_seat`` no chance is drawn: the deck was shuffled at the start)."""
    match = sengoku.new_match("auction", 3, seed=5, options={"tie_break": "lowest_seat"})
    match.act(0, "bid 2")
    match.act(1, "bid 1")
    assert match.undo_refusal(0) is None
    undone_is_replay(match, 0)
    assert match.to_act() == [0, 2]
    match.act(0, "bid 3")
    match.act(2, "bid 0")
    error = refused(match, 2)
    assert error.code == "revealed"
    assert refused(match, 0).code == "others_acted"


def test_auction_a_tie_broken_at_random_is_chance() -> None:
    """With ``tie_break=random`` the last bid draws the winner of a tie at random."""
    match = sengoku.new_match("auction", 2, seed=5)
    match.act(0, "bid 1")
    match.act(1, "bid 1")
    error = refused(match, 1)
    assert error.code == "chance" and "drew chance" in error.reason


def test_undo_again_takes_back_the_action_before() -> None:
    """After an undo, the seat's latest action standing is the one before it."""
    match = sengoku.new_match("shogun", 4, seed=3)
    plan_steps(match, 0, 3)
    undone_is_replay(match, 0)
    undone_is_replay(match, 0)
    undone_is_replay(match, 0)
    assert match.history == [] and refused(match, 0).code == "nothing_to_undo"


def test_quick_check_skips_the_redrawn_secrets() -> None:
    """``reveal_checks=False`` answers without redrawing secrets (the undo itself checks)."""
    match = sengoku.new_match("auction", 3, seed=5, options={"tie_break": "lowest_seat"})
    for seat in range(3):
        match.act(seat, "bid 1")
    assert match.undo_refusal(2, reveal_checks=False) is None
    assert refused(match, 2).code == "revealed"
