"""The PettingZoo environments pass PettingZoo's own tests on every game and player count."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import sengoku
from sengoku.core import get_game
from sengoku.envs.pettingzoo import SengokuParallelEnv, env, parallel_env

CASES = [(name, n) for name in sengoku.available_games() for n in get_game(name).player_counts]
#: What PettingZoo's tests say of any environment whose observation is a dict (they let only
#: their own classic games have one), and nothing else.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def warned(call: object, *args: object, **kwargs: object) -> set[str]:
    """Run one of PettingZoo's tests and return the texts of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(*args, **kwargs)  # type: ignore[operator]
    return {str(w.message) for w in caught}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(name: str, players: int) -> None:
    """PettingZoo's api_test and seed_test pass without a single warning (masks in the infos),
    and with the masks in dict observations give only the warnings about dict observations."""
    assert warned(api_test, env(name, players), num_cycles=1000) == set()
    assert warned(seed_test, lambda: env(name, players), num_cycles=300) == set()
    masked = warned(api_test, env(name, players, action_mask="observation"), num_cycles=1000)
    assert masked <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_parallel_tests_pass(name: str, players: int) -> None:
    """PettingZoo's parallel_api_test plays whole games with the masks in the observations;
    parallel_seed_test (which sends unmasked random ids) finds the same game twice when an
    illegal id ends the game."""
    masked = warned(
        parallel_api_test, parallel_env(name, players, action_mask="observation"), num_cycles=5000
    )
    assert masked <= DICT_OBSERVATION_WARNINGS
    lose = warned(
        parallel_seed_test, lambda: parallel_env(name, players, illegal_action="lose"), 50
    )
    assert lose == set()


def test_a_whole_aec_game_follows_the_match() -> None:
    """Played through the AEC API to the end, the environment's match has an outcome, every
    agent's final reward is the outcome's share, and reset(seed=s) gives the match seeded s."""
    e = env("shitenno", 3)
    e.reset(seed=11)
    assert e.play.match.seed == 11
    rng = np.random.default_rng(0)
    finals: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        seat = e.possible_agents.index(agent)  # the array is TokenPlay's observation
        assert observation.dtype == np.float32
        assert observation.tolist() == np.asarray(e.play.observation(seat), np.float32).tolist()
        if termination or truncation:
            finals[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    outcome = e.play.match.outcome()
    assert outcome is not None
    assert finals == {f"player_{s}": outcome.rewards()[s] for s in range(3)}
    e.reset()
    assert e.play.match.seed == 12


def test_only_the_selected_agent_has_a_mask_in_the_aec_environment() -> None:
    """During Shogun's planning several seats may act, but the AEC environment asks one agent
    at a time: every other agent's mask is empty."""
    e = env("shogun", 3)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    checked = 0
    for agent in e.agent_iter(3000):
        _, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        if len(e.play.match.to_act()) > 1:
            checked += 1
            for other in e.agents:
                assert e.infos[other]["action_mask"].any() == (other == agent)
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert checked > 10


@pytest.mark.parametrize(("name", "players"), [("shogun", 4), ("rising_sun", 3)])
def test_the_parallel_environment_is_deterministic_under_a_seed(name: str, players: int) -> None:
    """Two parallel environments reset with the same seed and sent the same masked random ids
    (a seeded generator each) give the same observations, masks and rewards at every step,
    to the end of the game."""
    runs = []
    for _ in range(2):
        par = parallel_env(name, players, action_mask="observation")
        observations, _ = par.reset(seed=5)
        rng = np.random.default_rng(8)
        trace = []
        while par.agents:
            actions = {
                a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                for a, o in observations.items()
                if o["action_mask"].any()
            }
            observations, rewards, *_ = par.step(actions)
            trace.append(
                (
                    sorted(actions.items()),
                    [o["observation"].sum() for o in observations.values()],
                    sorted(rewards.items()),
                )
            )
        runs.append(trace)
    assert runs[0] == runs[1] and len(runs[0]) > 100


def test_illegal_ids_raise_or_lose() -> None:
    """An id the mask does not allow raises ValueError and changes nothing; with
    illegal_action="lose" it ends the game with -1 for the sender."""
    e = env("shitenno", 2)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.infos[agent]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = e.observe(agent).copy()
    with pytest.raises(ValueError, match="not an id"):
        e.step(bad)
    assert (e.observe(agent) == before).all() and e.agent_selection == agent
    losing = env("shitenno", 2, illegal_action="lose")
    losing.reset(seed=1)
    agent = losing.agent_selection
    losing.step(bad)
    assert all(losing.terminations.values())
    assert losing.rewards[agent] == -1 and sum(losing.rewards.values()) == -1
    assert losing.infos[agent]["illegal_action"] is True
    with pytest.raises(ValueError, match="illegal_action"):
        env("shitenno", 2, illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(sengoku.OptionError):
        env("shitenno", 2, options={"no_such_option": 1})


def test_parallel_env_asks_every_seat_of_a_secret_choice_at_once() -> None:
    """In Shogun's planning every seat spells its plan at the same time: all agents have ids
    in their masks in the same step, and an agent that may act must send one."""
    par = parallel_env("shogun", 3, action_mask="observation")
    observations, _ = par.reset(seed=3)
    rng = np.random.default_rng(1)
    most = 0
    for _ in range(2000):
        masks = {a: o["action_mask"] for a, o in observations.items()}
        acting = [a for a, m in masks.items() if m.any()]
        most = max(most, len(acting))
        if most == 3:
            break
        actions = {a: int(rng.choice(np.flatnonzero(masks[a]))) for a in acting}
        observations, *_ = par.step(actions)
    assert most == 3
    with pytest.raises(ValueError, match="must send an id"):
        par.step({})


def test_render_shows_the_spectator_view() -> None:
    """render() in ansi mode returns the game's text (or JSON) of what a spectator sees."""
    e = env("shitenno", 2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text
    with pytest.raises(ValueError, match="render_mode"):
        env("shitenno", 2, render_mode="human")


def test_the_state_is_the_public_view_as_a_tensor() -> None:
    """state() is the game's tensor of the spectator's view, in state_space, in both
    environments; while a round of secret choices is spelled it does not change (no seat's
    pending choice shows in it)."""
    e = env("shitenno", 3)
    e.reset(seed=4)
    state = e.state()
    assert state.dtype == np.float32 and e.state_space.contains(state)
    game = get_game("shitenno")
    expected = game.observation_tensor(e.play.match.view(None))
    assert state.tolist() == pytest.approx(expected)
    par = parallel_env("rising_sun", 3, action_mask="observation")  # bids: rounds of 3 steps
    observations, _ = par.reset(seed=2)
    rng, checked = np.random.default_rng(5), 0
    while par.agents and checked < 10:
        before, in_round = par.state(), bool(par._round) and par._steps_left > 1
        assert par.state_space.contains(before)
        acting = [a for a, o in observations.items() if o["action_mask"].any()]
        choice = {
            a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in acting
        }
        observations, *_ = par.step(choice)
        if in_round:  # a step that does not end its round: nothing carried out yet
            assert np.array_equal(par.state(), before)
            checked += 1
    assert checked == 10


def _first_round(name: str, players: int) -> SengokuParallelEnv:
    """A parallel environment stopped where a simultaneous choice (a round) begins in which
    seat 0's ids can spell more than one action."""
    par = parallel_env(name, players, action_mask="observation")
    observations, _ = par.reset(seed=2)
    rng = np.random.default_rng(3)
    for _ in range(20_000):
        acting = [a for a, o in observations.items() if o["action_mask"].any()]
        wide = len(par.play.match.legal_actions(0)) > 1
        if len(acting) > 1 and "player_0" in acting and not par._chosen and wide:
            return par
        choice = {
            a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in acting
        }
        observations, *_ = par.step(choice)
    raise AssertionError(f"no simultaneous choice in {name}")


@pytest.mark.parametrize(("name", "players"), [("auction", 3), ("shogun", 3), ("rising_sun", 3)])
def test_a_round_shows_nobody_what_another_seat_chose_or_how_long_it_took(
    name: str, players: int
) -> None:
    """design.md, secret simultaneous choices: in a round of the parallel environment, seat 0
    spelling its first or its last legal action makes no difference to any other seat's
    observation or mask at any step of the round (the other seats sending the same ids),
    even where the two spellings differ in length; the actions are carried out together."""
    base = _first_round(name, players)
    runs = []
    for pick in (0, -1):
        par = copy.deepcopy(base)
        seen = []
        while True:
            asked = par._asked()
            if not par._round:
                break
            actions = {}
            for seat in asked:
                ids = par.play.legal_ids(seat)
                actions[f"player_{seat}"] = ids[pick] if seat == 0 else ids[0]
            observations, *_ = par.step(actions)
            seen.append(
                {
                    a: (o["observation"].tolist(), o["action_mask"].tolist())
                    for a, o in observations.items()
                    if a != "player_0"
                }
            )
        runs.append(seen)
    # during the round (all steps but the last, after which the actions are carried out)
    assert len(runs[0]) == len(runs[1])
    assert runs[0][:-1] == runs[1][:-1]
