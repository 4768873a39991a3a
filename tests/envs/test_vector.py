"""The vector environments: N games stepped together play exactly as N AEC environments, with
the same seeds and ids; a game that ends starts again in the same step with its slot's next
seed; a bad id moves no game; Ray's actors give the same arrays as one process."""

from __future__ import annotations

import numpy as np
import pytest

from sengoku.envs.pettingzoo import env
from sengoku.envs.vector import RayVectorEnv, SengokuVectorEnv


def _aec(game: str, players: int, seed: int) -> object:
    e = env(game, players)
    e.reset(seed=seed)
    return e


def _selected(e: object) -> tuple[int, np.ndarray, np.ndarray]:
    """The AEC environment's selected seat, its observation and its mask."""
    agent = e.agent_selection  # type: ignore[attr-defined]
    seat = e.possible_agents.index(agent)  # type: ignore[attr-defined]
    return seat, e.observe(agent), e.infos[agent]["action_mask"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "players"), [("shitenno", 2), ("rising_sun", 3), ("shogun", 3)])
def test_a_vector_of_games_plays_as_the_aec_environments(game: str, players: int) -> None:
    """Every step, each slot's observation, mask and seat are the AEC environment's for the
    same seed and ids; at a game's end the slot's rewards are the AEC rewards, it terminates,
    and its next observation is the first of the match seeded ``seed + i + num_envs``."""
    n, seed = 2, 40
    envs = SengokuVectorEnv(game, num_envs=n, players=players)
    assert envs.single_observation_space.shape == envs.observation_space.shape[1:]
    observations, infos = envs.reset(seed=seed)
    aecs = [_aec(game, players, seed + i) for i in range(n)]
    rng = np.random.default_rng(1)
    finished = [False] * n
    while not all(finished):
        assert envs.observation_space.contains(observations)
        for i, e in enumerate(aecs):
            seat, observation, mask = _selected(e)
            assert infos["seat"][i] == seat
            np.testing.assert_array_equal(observations[i], observation)
            np.testing.assert_array_equal(infos["action_mask"][i], mask)
        ids = [int(rng.choice(np.flatnonzero(mask))) for mask in infos["action_mask"]]
        observations, rewards, terminations, truncations, infos = envs.step(ids)
        assert not truncations.any()
        for i, e in enumerate(aecs):
            e.step(ids[i])  # type: ignore[attr-defined]
            ended = all(e.terminations.values())  # type: ignore[attr-defined]
            assert terminations[i] == ended
            if ended:
                expected = [e.rewards[a] for a in e.possible_agents]  # type: ignore[attr-defined]
                assert rewards[i].tolist() == expected and sum(expected) == pytest.approx(1)
                assert infos["final_seat"][i] >= 0
                finished[i] = True
                aecs[i] = _aec(game, players, seed + i + n)  # the slot's next match
            else:
                assert not rewards[i].any() and infos["final_seat"][i] == -1


def test_an_id_a_mask_does_not_allow_moves_no_game() -> None:
    """One bad id among good ones: ``ValueError`` naming the game, and every game is where it
    was (the same arrays after as before, and the good ids still play)."""
    envs = SengokuVectorEnv("shitenno", num_envs=3, players=3)
    _, infos = envs.reset(seed=5)
    good = [int(np.flatnonzero(mask)[0]) for mask in infos["action_mask"]]
    bad = list(good)
    bad[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=r"in games 1 \(id"):
        envs.step(bad)
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        envs.step(good[:2])
    with pytest.raises(ValueError, match="integer ids"):
        envs.step([0.5, 1.0, 2.0])
    twin = SengokuVectorEnv("shitenno", num_envs=3, players=3)
    twin.reset(seed=5)
    after = envs.step(good)
    same = twin.step(good)
    for a, b in zip(after[:4], same[:4], strict=True):
        np.testing.assert_array_equal(a, b)


def test_ray_actors_step_the_games_as_one_process(ray_cluster: str) -> None:
    """Five slots over two actors (3 and 2): the reset and 40 steps give the arrays one
    process gives for the same seed and ids, and a bad id is refused before any actor moves."""
    remote = RayVectorEnv("shitenno", num_envs=5, workers=2, players=2)
    local = SengokuVectorEnv("shitenno", num_envs=5, players=2)
    got, want = remote.reset(seed=3), local.reset(seed=3)
    rng = np.random.default_rng(2)
    for _ in range(40):
        for key in ("action_mask", "seat"):
            np.testing.assert_array_equal(got[-1][key], want[-1][key])
        np.testing.assert_array_equal(got[0], want[0])
        ids = [int(rng.choice(np.flatnonzero(mask))) for mask in want[-1]["action_mask"]]
        got, want = remote.step(ids), local.step(ids)
        for a, b in zip(got[:4], want[:4], strict=True):
            np.testing.assert_array_equal(a, b)
    bad = [int(np.flatnonzero(mask == 0)[0]) for mask in want[-1]["action_mask"]]
    with pytest.raises(ValueError, match="ids the masks do not allow"):
        remote.step(bad)
    remote.close()
