"""The Match authority on the test game: validation, errors, records, clones, determinize."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sengoku
from sengoku import IllegalActionError, Match, RecordError, Rng, SetupError
from sengoku.sim import play_randomly
from tests.toygame import Bid, Play


def started(seed: int = 5, players: int = 3, **options: object) -> Match:
    return sengoku.new_match("auction", players, seed=seed, options=options)


def test_new_match_starts_with_everyone_bidding() -> None:
    match = started()
    assert match.to_act() == [0, 1, 2]
    assert match.legal_actions(0) == [Bid(n) for n in range(5)]
    assert match.outcome() is None
    assert match.view(1)["seat"] == 1 and match.view(1)["to_act"] == [0, 1, 2]


def test_a_fresh_seed_is_drawn_and_recorded_when_none_is_given() -> None:
    match = sengoku.new_match("auction", 2)
    assert isinstance(match.seed, int) and 0 <= match.seed < 2**53
    assert match.to_record()["seed"] == match.seed


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(SetupError, match="seed"):
        sengoku.new_match("auction", 2, seed=seed)  # type: ignore[arg-type]


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(sengoku.UnknownGameError) as info:
        sengoku.new_match("chess", 2)
    assert "unknown game 'chess'" in str(info.value) and "auction" in str(info.value)
    assert isinstance(info.value, LookupError)


def test_player_count_outside_the_game_is_refused_with_the_allowed_counts() -> None:
    with pytest.raises(SetupError, match="played by 2, 3, 4 players, not 5"):
        sengoku.new_match("auction", 5)


def test_act_accepts_notation_text_case_and_spacing_free() -> None:
    match = started()
    match.act(0, "  BID   2 ")
    assert match.view(0)["my_bid"] == 2
    assert match.to_act() == [1, 2]


def test_a_seat_that_already_chose_cannot_choose_again() -> None:
    match = started()
    match.act(0, Bid(1))
    with pytest.raises(IllegalActionError, match="not Red's turn; waiting for Blue, Green"):
        match.act(0, Bid(2))


def test_an_equal_tuple_of_another_action_kind_is_not_accepted() -> None:
    """Play(3) compares equal to Bid(3) as a tuple; the match must not apply it as a bid."""
    match = started()
    assert Play(3) == Bid(3)
    with pytest.raises(IllegalActionError, match="'play 3' is not a legal action for Red"):
        match.act(0, Play(3))
    assert match.to_act() == [0, 1, 2]


def test_illegal_amount_names_the_legal_actions_when_given_as_text() -> None:
    match = started()
    with pytest.raises(IllegalActionError) as info:
        match.act(1, "bid 9")
    assert info.value.seat == 1 and info.value.action == "bid 9"
    assert "legal actions: bid 0; bid 1; bid 2; bid 3; bid 4" in info.value.reason


def test_acting_after_the_end_says_the_game_is_over() -> None:
    match = finished_match()
    with pytest.raises(IllegalActionError, match="the game is over"):
        match.act(0, "bid 0")
    assert match.to_act() == [] and match.legal_actions(0) == []


def finished_match(seed: int = 5) -> Match:
    return play_randomly(started(seed), Rng(seed))


def test_act_all_applies_a_whole_sequence_or_nothing() -> None:
    match = started(players=2)
    match.act(1, "bid 0")
    before = json.dumps(match.to_record())
    with pytest.raises(IllegalActionError):
        match.act_all(0, ["bid 4", "play 99"])
    assert json.dumps(match.to_record()) == before
    match.act_all(0, ["bid 4", "pass"])
    assert [str(a) for _, a in match.history] == ["bid 0", "bid 4", "pass"]


def test_log_lines_are_shown_only_to_the_seats_allowed_to_read_them() -> None:
    match = started(players=2, tie_break="lowest_seat", hand=0)
    match.act(0, "bid 2")
    assert match.log(0) == ["Red bids 2"]
    assert match.log(1) == [] and match.log(None) == []
    match.act(1, "bid 1")
    drawn = match.view(0)["hand"]
    public = "bids [2, 1]: Red wins with 2 and draws a card"
    assert match.log(None) == [public]
    assert match.log(1) == ["Blue bids 1", public]
    assert match.log(0)[:2] == ["Red bids 2", public]
    assert match.log(0)[2].startswith("Red draws ") and int(match.log(0)[2].split()[-1]) in drawn
    assert match.log(0, since=2) == match.log(0)[1:]


def test_the_set_up_has_its_own_log_lines() -> None:
    """Each seat reads the line of its own starting hand and no other."""
    match = started(players=3)
    for seat in range(3):
        (line,) = match.log(seat)
        colour = ("Red", "Blue", "Green")[seat]
        assert line == f"{colour} is dealt {match.view(seat)['hand'][0]}"
    assert match.log(None) == []
    assert match.clone().log(1) == match.log(1)


def test_record_replays_and_checks_the_stated_outcome() -> None:
    match = finished_match()
    record = match.to_record()
    assert Match.from_record(record).outcome() == match.outcome()
    tampered = json.loads(json.dumps(record))
    tampered["outcome"]["scores"][0] += 100
    with pytest.raises(RecordError, match="the record says"):
        Match.from_record(tampered)
    assert Match.from_record(tampered, verify=False).outcome() == match.outcome()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="chess-pgn"), "not a version-1 Sengoku record"),
        (lambda r: r.pop("seed"), "has no 'seed'"),
        (lambda r: r.update(game="chess"), "cannot be set up: unknown game"),
        (lambda r: r.update(players=9), "cannot be set up"),
        (lambda r: r.update(options={"rounds": "many"}), "cannot be set up: option 'rounds'"),
        (lambda r: r.update(actions="bid 1"), "'actions' must be a list"),
        (lambda r: r["actions"].__setitem__(0, ["0", "bid 1"]), "action 1 must be"),
        (lambda r: r["actions"].__setitem__(0, [0, "bid 99"]), r"action 1 \('bid 99' by seat 0\)"),
    ],
)
def test_malformed_records_are_refused_with_the_reason(change, message) -> None:  # type: ignore[no-untyped-def]
    record = finished_match().to_record()
    change(record)
    with pytest.raises(RecordError, match=message):
        Match.from_record(record)


def test_a_record_is_not_a_mapping() -> None:
    with pytest.raises(RecordError, match="a JSON object"):
        Match.from_record([1, 2])  # type: ignore[arg-type]


def test_clone_keeps_the_future_chance() -> None:
    """The clone carries the RNG: the same actions draw the same cards on both."""
    match = started(seed=11, players=2)
    twin = match.clone()
    for m in (match, twin):
        m.act(0, "bid 1")
        m.act(1, "bid 1")
    assert match.view(0) == twin.view(0) and match.view(1) == twin.view(1)
    assert match.log(0) == twin.log(0)


def test_determinize_hides_the_true_chance_and_secrets() -> None:
    """Two samples of the same view differ in what the seat cannot know, never in what it can."""
    match = started(seed=3, players=4)
    match.act(1, "bid 3")
    view = match.view(0)
    samples = [sengoku.determinize(view, Rng(k)) for k in range(20)]
    assert all(s.view(0) == view for s in samples)
    hands = {json.dumps([s.view(p)["hand"] for p in (1, 2, 3)]) for s in samples}
    assert len(hands) > 1
    bids = {s.view(1)["my_bid"] for s in samples}
    assert len(bids) > 1
    with pytest.raises(RecordError, match="sampled for search"):
        samples[0].to_record()


def test_determinize_needs_a_seat_view() -> None:
    match = started()
    with pytest.raises(ValueError, match="spectator"):
        sengoku.determinize(match.view(None), Rng(1))
    with pytest.raises(ValueError, match="not a seat's view"):
        sengoku.determinize({"seat": 0}, Rng(1))


def test_view_of_a_seat_that_does_not_exist_is_an_error() -> None:
    with pytest.raises(IllegalActionError, match="no seat 3 in this 3-player match"):
        started().view(3)


junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(seat=junk | st.integers(min_value=-2, max_value=5), action=junk)
def test_any_junk_is_refused_with_a_reason_and_changes_nothing(
    seat: object, action: object
) -> None:
    """Bad input anywhere gets an IllegalActionError (never another exception) and no change."""
    match = started(seed=2)
    match.act(1, "bid 2")
    before = (json.dumps(match.to_record()), json.dumps([match.view(s) for s in range(3)]))
    try:
        match.act(seat, action)  # type: ignore[arg-type]
    except IllegalActionError as error:
        assert error.reason
        assert (
            json.dumps(match.to_record()),
            json.dumps([match.view(s) for s in range(3)]),
        ) == before
    else:  # only a real legal action of a seat that may act gets through
        assert seat in (0, 2) and str(action) in {f"bid {n}" for n in range(5)}


def test_views_are_fresh_objects_that_callers_may_change() -> None:
    match = started()
    view = match.view(0)
    view["options"]["rounds"] = 99
    view["coins"][0] = 99
    assert match.view(0)["options"]["rounds"] == 3 and match.view(0)["coins"][0] == 4
    assert match.to_record()["options"]["rounds"] == 3
