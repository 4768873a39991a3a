"""The single-seat Gymnasium environment, and the learning example at a tiny scale."""

from __future__ import annotations

import numpy as np
import pytest

import sengoku
from sengoku.envs.solo import SengokuSoloEnv


def _first_ids(env: SengokuSoloEnv, seed: int) -> tuple[list[np.ndarray], float]:
    """A whole match with the learner taking its first allowed id each step: the
    observations it saw and its reward, checking what each step promises on the way."""
    observation, info = env.reset(seed=seed)
    seen, reward, done = [observation], 0.0, False
    while not done:
        assert env.observation_space.contains(observation)
        assert info["seat"] == env.seat == env.play.current_seat()
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        assert reward == 0.0
        observation, reward, done, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        assert not truncated
        seen.append(observation)
    outcome = env.play.match.outcome()
    assert outcome is not None and reward == outcome.rewards()[env.seat]
    assert not env.action_masks().any()
    return seen, reward


@pytest.mark.parametrize(("game", "players"), [("shitenno", 3), ("shogun", 3), ("rising_sun", 3)])
def test_the_learner_sees_only_its_own_turns_to_the_end(game: str, players: int) -> None:
    """Every step returns on the learner's turn (simultaneous choices included: Shogun's
    plans, Rising Sun's bids) with its mask; the reward is its share of the outcome."""
    env = SengokuSoloEnv(game, players, opponents="random")
    _first_ids(env, seed=4)
    assert env.seat == 4 % players


def test_seats_rotate_with_the_seed_or_stay() -> None:
    """``seat="rotate"``: seat ``seed % players``; an int keeps it; seeds go on by one."""
    env = SengokuSoloEnv("shitenno", 3)
    seats = []
    env.reset(seed=10)
    for _ in range(3):
        seats.append(env.seat)
        env.reset()
    assert seats == [1, 2, 0] and env.play.match.seed == 13
    fixed = SengokuSoloEnv("shitenno", 3, seat=2)
    fixed.reset(seed=10)
    assert fixed.seat == 2


def test_the_same_seed_plays_the_same_match() -> None:
    """The match and the opponents' agents are seeded from ``reset``'s seed."""
    first = _first_ids(SengokuSoloEnv("shitenno", 2, opponents="heuristic"), seed=8)
    again = _first_ids(SengokuSoloEnv("shitenno", 2, opponents="heuristic"), seed=8)
    assert len(first[0]) == len(again[0]) and first[1] == again[1]
    for a, b in zip(first[0], again[0], strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_match_is_the_one_new_match_gives() -> None:
    """The solo match is ``sengoku.new_match`` with the same seed: its record replays from
    that match, action by action, to the same end."""
    env = SengokuSoloEnv("shitenno", 2)
    _first_ids(env, seed=6)
    record = env.play.match.to_record()
    assert record["seed"] == 6 and record["outcome"] is not None
    replayed = sengoku.Match.from_record(record)
    assert replayed.view(None) == env.play.match.view(None)
    assert replayed.outcome() == env.play.match.outcome()


def test_an_id_the_mask_does_not_allow_changes_nothing() -> None:
    """A wrong id, a float or a boolean: ``ValueError``, the match where it was."""
    env = SengokuSoloEnv("shitenno", 2)
    env.reset(seed=2)
    before = env.play.match.view(None)
    wrong = int(np.flatnonzero(~env.action_masks())[0])
    for bad in (wrong, 1.5, True, -1):
        with pytest.raises(ValueError, match="not an id"):
            env.step(bad)  # type: ignore[arg-type]
    assert env.play.match.view(None) == before
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_bad_settings_are_refused_when_made() -> None:
    with pytest.raises(ValueError, match="2 opponents for the 1 other seats"):
        SengokuSoloEnv("shitenno", 2, opponents=["random", "random"])
    with pytest.raises(ValueError, match="unknown agent"):
        SengokuSoloEnv("shitenno", 2, opponents="genius")
    with pytest.raises(ValueError, match="seat is 'rotate' or a seat from 0 to 1"):
        SengokuSoloEnv("shitenno", 2, seat=2)


def test_the_learning_example_runs_at_a_tiny_scale(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/research.md, "Learning an agent": MaskablePPO trains on Shitenno and is measured
    (its ids always legal, or the environment would raise), at a tiny scale."""
    from examples import learn

    learn.main(["--steps", "128", "--games", "3", "--n-steps", "64"])
    out = capsys.readouterr().out
    assert "shitenno, 2 players, against random, 3 matches" in out
    scores = [float(line.split()[2]) for line in out.splitlines() if " score " in line]
    assert len(scores) == 2 and all(0.0 <= s <= 1.0 for s in scores)
