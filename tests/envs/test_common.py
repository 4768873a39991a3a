"""Playing a match token by token (sengoku.envs.common), as both research adapters do."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import sengoku
from sengoku.core import Decision, EncodingError, Rng, get_game
from sengoku.envs.common import SPELLING_SCALE, TokenPlay

CASES = [(name, n) for name in sengoku.available_games() for n in get_game(name).player_counts]


def random_tokens(play: TokenPlay, rng: Rng, steps: int | None = None) -> None:
    """Take random legal ids for the current seat until the end (or for ``steps`` ids)."""
    taken = 0
    while play.match.outcome() is None and (steps is None or taken < steps):
        seat = play.current_seat()
        assert seat is not None
        play.step(rng.choice(play.legal_ids(seat)))
        taken += 1


def halfway(name: str, players: int, seed: int) -> TokenPlay:
    """A match of random ids stopped halfway through (by its number of ids)."""
    full = TokenPlay(sengoku.new_match(name, players, seed=seed))
    length = 0
    rng = Rng(seed)
    while full.match.outcome() is None:
        random_tokens(full, rng, steps=1)
        length += 1
    play = TokenPlay(sengoku.new_match(name, players, seed=seed))
    random_tokens(play, Rng(seed), steps=length // 2)
    return play


@pytest.mark.parametrize(("name", "players"), CASES)
def test_token_play_is_the_match_played_action_by_action(name: str, players: int) -> None:
    """A game played id by id is a legal game: its record replays to the same outcome, every
    step offers ids only to the current seat, and each finished spelling is the encoding of
    the action the match carried out."""
    play = TokenPlay(sengoku.new_match(name, players, seed=5))
    rng = Rng(5)
    while play.match.outcome() is None:
        seat = play.current_seat()
        assert seat is not None
        ids = play.legal_ids(seat)
        assert ids and all(0 <= i < play.space.size for i in ids)
        assert sum(play.action_mask(seat)) == len(ids)
        for other in range(players):
            if other != seat and other not in play.match.to_act():
                assert play.legal_ids(other) == []
        before = play.match.clone()
        spelled = [*play.pending(seat), rng.choice(ids)]
        action = play.step(spelled[-1], seat)
        if action is not None:
            assert play.space.encode(before, seat, action)[: len(spelled)] == tuple(spelled)
            assert play.match.history[-1] == (seat, action)
    record = play.match.to_record()
    assert sengoku.Match.from_record(record).outcome() == play.match.outcome()
    assert sum(play.rewards()) == pytest.approx(1.0)


def test_a_wrong_id_is_refused_and_changes_nothing() -> None:
    """An id the mask does not allow (or a bool, text, None) raises EncodingError, and the
    spelling, the observation and the match stay as they were; a numpy integer is an id."""
    play = TokenPlay(sengoku.new_match("auction", 3, seed=1))
    seat = play.current_seat()
    assert seat == 0
    before = (play.observation(seat), play.information_state(seat), play.match.to_record())
    wrong = next(i for i in range(play.space.size) if i not in play.legal_ids(seat))
    for bad in (wrong, -1, play.space.size, "0", None):
        with pytest.raises(EncodingError):
            play.step(bad)  # type: ignore[arg-type]
    with pytest.raises(EncodingError, match="may not act"):
        play.step(play.legal_ids(0)[0], seat=play.match.players)
    with pytest.raises(EncodingError):
        play.step(True)  # type: ignore[arg-type]
    assert (play.observation(seat), play.information_state(seat), play.match.to_record()) == (
        before
    )
    assert play.step(np.int64(play.legal_ids(seat)[0])) is None  # "bid", then the coins
    assert play.pending(seat) == [play.space.id("bid")]


def test_the_observation_carries_the_spelling_so_far() -> None:
    """After the first id of a two-id spelling (the test game's bid) the seat's observation
    counts that id, and only the seat in the middle of the spelling is asked next."""
    play = TokenPlay(sengoku.new_match("auction", 3, seed=1))
    bid = play.space.id("bid")
    game_part = len(play.observation(0)) - play.space.size
    assert play.observation(0)[game_part + bid] == 0.0
    assert play.step(bid, seat=1) is None  # seat 1 starts its secret bid
    assert play.current_seat() == 1 and play.pending(1) == [bid]
    assert play.observation(1)[game_part + bid] == 1 / SPELLING_SCALE
    assert play.observation(0)[game_part + bid] == 0.0
    assert play.legal_ids(1) == [play.space.id(f"coins {n}") for n in range(5)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_clones_and_pickles_are_independent_and_faithful(name: str, players: int) -> None:
    """A clone or a pickled copy taken in the middle of a spelling shows every seat the same
    observation, information state and ids, plays on to the same end, and acting on it never
    changes the original."""
    play = halfway(name, players, 2)
    while not play.pending(play.current_seat() or 0) and play.match.outcome() is None:
        random_tokens(play, Rng(len(play.match.history)), steps=1)
    seats = range(players)

    def snapshot(p: TokenPlay) -> tuple[object, ...]:
        return tuple(
            (p.observation(s), p.information_state(s), p.legal_ids(s), p.pending(s)) for s in seats
        )

    before = snapshot(play)
    for twin in (play.clone(), pickle.loads(pickle.dumps(play))):
        assert snapshot(twin) == before
        random_tokens(twin, Rng(9))
        assert snapshot(play) == before
    first, second = play.clone(), pickle.loads(pickle.dumps(play))
    random_tokens(first, Rng(3))
    random_tokens(second, Rng(3))
    assert first.match.to_record() == second.match.to_record()


def test_an_information_state_hides_other_seats_secrets_and_recalls_everything() -> None:
    """While seat 1's secret bid is pending, seat 0's information state is the same whatever
    seat 1 bid; and it changes with each of seat 0's own actions (perfect recall), even where
    its view alone would come back to what it was."""
    base = TokenPlay(sengoku.new_match("auction", 3, seed=4))
    states = []
    for coins in (0, 3):
        play = base.clone()
        play.step(play.space.id("bid"), seat=1)
        play.step(play.space.id(f"coins {coins}"), seat=1)
        states.append(play.information_state(0))
    assert states[0] == states[1]
    # every finished action of the seat left its mark: no information state repeats
    play = TokenPlay(sengoku.new_match("auction", 3, seed=4))
    seen = {play.information_state(0)}
    rng = Rng(1)
    while play.match.outcome() is None:
        seat = play.current_seat()
        assert seat is not None
        done = play.step(rng.choice(play.legal_ids(seat)), seat)
        if done is not None and seat == 0:
            state = play.information_state(0)
            assert state not in seen
            seen.add(state)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_resample_keeps_what_the_seat_knows(name: str, players: int) -> None:
    """A resampled copy shows the current seat the same view, spelling, ids and information
    state, and plays on to an end; in the test game, whose other hands are hidden, the draws
    differ in what the seat cannot see."""
    play = halfway(name, players, 6)
    seat = play.current_seat()
    assert seat is not None
    views = set()
    for draw in range(4):
        twin = play.resample(seat, Rng(draw))
        assert twin.match.view(seat) == play.match.view(seat)
        assert twin.information_state(seat) == play.information_state(seat)
        assert twin.legal_ids(seat) == play.legal_ids(seat)
        assert twin.pending(seat) == play.pending(seat)
        views.add(str([twin.match.view(s) for s in range(players) if s != seat]))
        random_tokens(twin, Rng(draw))
        assert twin.match.outcome() is not None
    if name == "auction":
        assert len(views) > 1, "no draw changed another seat's hidden hand"


def test_a_decision_replays_a_prefix_and_refuses_a_finished_or_foreign_one() -> None:
    """Decision.replay stands where another decision stood; a prefix off the tree is refused."""
    match = sengoku.new_match("auction", 2, seed=1)
    space = TokenPlay(match).space
    decision = Decision(space, match, 0)
    decision.choose(space.id("bid"))
    twin = Decision(space, match, 0)
    twin.replay(decision.prefix)
    assert twin.legal_ids() == decision.legal_ids()
    with pytest.raises(EncodingError):
        twin.replay([space.id("bid"), space.id("coins 1")])
    with pytest.raises(EncodingError):
        twin.replay([space.id("pass")])


def test_a_whole_action_goes_in_as_its_ids_would() -> None:
    """TokenPlay.carry_out of a whole legal action leaves the same match and histories as
    stepping its ids; an illegal action or one over a pending spelling is refused."""
    play = TokenPlay(sengoku.new_match("auction", 3, seed=1))
    twin = play.clone()
    action = play.match.legal_actions(0)[2]
    play.carry_out(0, action)
    for token in twin.space.encode(twin.match, 0, action):
        twin.step(token, 0)
    assert play.match.to_record() == twin.match.to_record()
    assert play.information_state(0) == twin.information_state(0)
    with pytest.raises(EncodingError, match="not a legal action"):
        play.carry_out(0, action)
    play.step(play.space.id("bid"), 1)
    with pytest.raises(EncodingError, match="middle of a spelling"):
        play.carry_out(1, play.match.legal_actions(1)[0])
