"""The OpenSpiel games pass OpenSpiel's own random simulation test, and its IS-MCTS plays them."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import sengoku
from sengoku.core import get_game
from sengoku.envs import openspiel

openspiel.register()
CASES = [(name, n) for name in sengoku.available_games() for n in get_game(name).player_counts]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_sim_test_passes_with_and_without_serialization(name: str, players: int) -> None:
    """pyspiel.random_sim_test plays random games through the whole OpenSpiel API (legal
    actions, chance, observations, information states, clones, returns), once with every
    state serialized and read back."""
    game = pyspiel.load_game(f"sengoku_{name}", {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_loads_with_options_and_reports_its_spaces() -> None:
    """Parameters reach the match (players, options as JSON, seeds); the root is a hidden
    chance node over the seeds; ids name the game's tokens; bad parameters are refused."""
    game = pyspiel.load_game(
        "sengoku_shitenno", {"players": 3, "options": '{"open_hands": true}', "seeds": 10}
    )
    assert game.max_chance_outcomes() == 10
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == [0.1] * 10
    state.apply_action(7)
    assert state.play is not None
    assert state.play.match.seed == 7 and state.play.match.options.open_hands is True
    tokens = openspiel.vocabulary(game)
    assert len(tokens) == game.num_distinct_actions()
    player = state.current_player()
    first = state.legal_actions()[0]
    assert state.action_to_string(player, first) == tokens[first]
    assert len(state.observation_tensor(player)) == game.observation_tensor_size()
    assert "history" in state.information_state_string(player)
    with pytest.raises(Exception, match="unknown option"):
        pyspiel.load_game("sengoku_shitenno", {"options": '{"no_such_option": 1}'})
    with pytest.raises(Exception, match="JSON"):
        pyspiel.load_game("sengoku_shitenno", {"options": "{not json"})
    openspiel.register()  # again: nothing changes
    assert pyspiel.load_game("sengoku_shitenno").num_players() == 2


def test_a_state_pickles_with_its_history() -> None:
    """A state pickled in the middle of a game reads back to the same history, observations
    and information states, and plays on the same."""
    game = pyspiel.load_game("sengoku_shitenno", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(3)
    rng = np.random.default_rng(0)
    for _ in range(50):
        state.apply_action(int(rng.choice(state.legal_actions())))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    for player in range(2):
        assert copy.information_state_string(player) == state.information_state_string(player)
        assert copy.observation_tensor(player) == state.observation_tensor(player)
    assert copy.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", sengoku.available_games())
def test_openspiel_ismcts_plays_through_the_determinize_resampler(name: str) -> None:
    """OpenSpiel's Python IS-MCTS bot plays a seat with our resampler (every sampled root
    must show the bot its own information state, which the bot asserts), and the game
    reaches its end."""
    players = get_game(name).player_counts[0]
    game = pyspiel.load_game(f"sengoku_{name}", {"players": players})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(1)
    )
    bot.set_resampler(openspiel.resampler(seed=1))
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.default_rng(2)
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0 and searched < 12:
            action = bot.step(state)
            searched += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(int(action))
    assert sum(state.returns()) == pytest.approx(1.0)
    assert searched > 0


def test_resample_from_infostate_works_without_a_resampler() -> None:
    """The state's own resample_from_infostate (what IS-MCTS calls by default) keeps the
    player's information state; at the root, before the seed, it is refused."""
    game = pyspiel.load_game("sengoku_shitenno", {"players": 2})
    state = game.new_initial_state()
    with pytest.raises(sengoku.SengokuError):
        openspiel.resampler()(state, 0)
    state.apply_action(1)
    player = state.current_player()
    sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sampled.information_state_string(player) == state.information_state_string(player)
    assert sampled.legal_actions() == state.legal_actions()


def test_observers_give_the_public_view_or_the_players_own() -> None:
    """An observer of public information only shows every player the same thing (the
    spectator's view, no hand); the default observer shows each player its own view; asking
    for every player's private information, or a public information state, is refused."""
    game = pyspiel.load_game("sengoku_shitenno", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(2)
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    assert public.string_from(state, 0) == public.string_from(state, 1)
    public.set_from(state, 0)
    first = public.tensor.copy()
    public.set_from(state, 1)
    assert (first == public.tensor).all()
    assert '"hand":null' in public.string_from(state, 0)
    own = make_observation(game)
    assert own.string_from(state, 0) != own.string_from(state, 1)
    for private, recall in (
        (pyspiel.PrivateInfoType.ALL_PLAYERS, False),
        (pyspiel.PrivateInfoType.NONE, True),
    ):
        with pytest.raises(ValueError):
            make_observation(
                game,
                pyspiel.IIGObservationType(
                    perfect_recall=recall, public_info=True, private_info=private
                ),
            )


def test_a_resampled_state_serializes_too() -> None:
    """A state sampled for search (no seed, no record) pickles as itself and reads back with
    the same information state and ids; a root with too many seeds is refused."""
    game = pyspiel.load_game("sengoku_shogun", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(3)
    for _ in range(30):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    sampled = openspiel.resampler(seed=2)(state, player)
    copy = pickle.loads(pickle.dumps(sampled))
    assert copy.information_state_string(player) == sampled.information_state_string(player)
    assert copy.legal_actions() == sampled.legal_actions()
    with pytest.raises(Exception, match="seeds"):
        pyspiel.load_game("sengoku_shogun", {"seeds": openspiel.MAX_SEEDS + 1})
