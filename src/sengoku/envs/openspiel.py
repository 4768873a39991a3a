"""OpenSpiel games for every registered game (needs ``pip install -e '.[openspiel]'``).

:func:`register` registers ``sengoku_<game>`` with pyspiel for each registered game, so that
OpenSpiel's algorithms and tools load them by name::

    >>> import pyspiel
    >>> from sengoku.envs import openspiel
    >>> openspiel.register()
    >>> game = pyspiel.load_game("sengoku_shitenno", {"players": 4})
    >>> game.num_players(), game.num_distinct_actions() == openspiel.vocabulary(game).__len__()
    (4, True)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()
    True

The OpenSpiel game:

* its parameters are ``players`` (default: the smallest count), ``options`` (the game's
  options as JSON text, default ``"{}"``) and ``seeds`` (how many match seeds the root may
  draw, default 2**16);
* the **root is a chance node** that draws the match's seed, uniformly from ``range(seeds)``,
  hidden from every player; the match's own seeded chance then does the rest (OpenSpiel sees
  the game as deterministic after the root, with all its chance in that hidden seed);
* it is **sequential with imperfect information**: a player's action is one token of the
  game's :class:`~sengoku.core.ActionSpace` (``num_distinct_actions`` is the vocabulary's
  size); a simultaneous secret choice is asked of one seat after another (a seat's view never
  holds another's pending secret, so nothing leaks);
* **observations** are the game's observation tensor followed by the player's spelling so
  far (or, for an observer of public information only, the spectator's view);
  **information states** are strings with perfect recall (see :mod:`sengoku.envs.common`);
  there is no information-state tensor;
* **returns** come at the end: 1 shared among the winners, 0 for the others
  (``CONSTANT_SUM``, utility sum 1).

For OpenSpiel's Python IS-MCTS bot, :func:`resampler` samples a state consistent with the
player's information state from the game's ``determinize``::

    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=100)
    bot.set_resampler(openspiel.resampler(seed=1))

OpenSpiel serializes a Python game's state as its history of ids plus a pickle of the state
object: ours holds the match's record (a state sampled for search, which has none, holds the
match itself), its chance state (:meth:`~sengoku.core.Rng.getstate`), checked when the record
is replayed, the spellings under way and the seats' history digests. Reading a pickle runs
code: deserialize only states you made.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sengoku.core import Rng, available_games, get_game, new_match

from . import MissingExtraError

try:
    import numpy as np
    import pyspiel
except ImportError as exc:
    raise MissingExtraError("OpenSpiel games", "openspiel", exc.name) from None
from sengoku.core.errors import SengokuError

from .common import TokenPlay

__all__ = ["SengokuGame", "SengokuState", "register", "resampler", "vocabulary"]

DEFAULT_SEEDS = 1 << 16
#: The most seeds the root may draw from (its chance outcomes are one list).
MAX_SEEDS = 1 << 20
#: An upper bound on a game's number of actions (tokens) that OpenSpiel asks every game for.
MAX_GAME_LENGTH = 100_000


def _game_type(name: str) -> pyspiel.GameType:
    rules = get_game(name)
    return pyspiel.GameType(
        short_name=f"sengoku_{name}",
        long_name=f"Sengoku {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(rules.player_counts),
        min_num_players=min(rules.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": min(rules.player_counts),
            "options": "{}",
            "seeds": DEFAULT_SEEDS,
        },
    )


@dataclass(frozen=True)
class _Config:
    """What a state needs of its game (shared by every copy of a state)."""

    name: str
    players: int
    options: dict[str, Any]
    seeds: int
    tokens: tuple[str, ...]
    observation_size: int

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self


class SengokuGame(pyspiel.Game):  # type: ignore[misc]
    """One Sengoku game for one player count and options, as an OpenSpiel game."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        game_type = _game_type(name)
        values = {**game_type.parameter_specification, **(params or {})}
        players = int(values["players"])
        try:
            options = json.loads(str(values["options"]))
        except json.JSONDecodeError as exc:
            raise ValueError(f"the options parameter is JSON text: {exc}") from None
        seeds = int(values["seeds"])
        if not 1 <= seeds <= MAX_SEEDS:
            raise ValueError(f"seeds must be in 1..{MAX_SEEDS}, not {seeds}")
        probe = TokenPlay(new_match(name, players, seed=0, options=options))
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.space.size,
            max_chance_outcomes=seeds,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, {**values, "players": players, "seeds": seeds})
        self.config = _Config(
            name, players, options, seeds, probe.space.tokens, probe.observation_size
        )

    def new_initial_state(self) -> SengokuState:
        """The root: a chance node that draws the match's seed."""
        return SengokuState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> SengokuObserver:
        """The observer OpenSpiel asks for observations and information states."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return SengokuObserver(self, iig_obs_type)


class SengokuState(pyspiel.State):  # type: ignore[misc]
    """A state of a :class:`SengokuGame`: before the seed is drawn, or a match being played."""

    def __init__(self, game: SengokuGame, play: TokenPlay | None = None) -> None:
        super().__init__(game)
        self._sengoku = game.config
        self.play = play

    def current_player(self) -> int:
        if self.play is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.play.current_seat()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.play is not None and player >= 0
        return self.play.legal_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_uniform(self._sengoku.seeds))

    def _apply_action(self, action: int) -> None:
        if self.play is None:
            config = self._sengoku
            match = new_match(config.name, config.players, seed=action, options=config.options)
            self.play = TokenPlay(match)
        else:
            self.play.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self._sengoku.tokens[action]

    def is_terminal(self) -> bool:
        return self.play is not None and self.play.match.outcome() is not None

    def returns(self) -> list[float]:
        if self.play is None:
            return [0.0] * self._sengoku.players
        return list(self.play.rewards())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SengokuState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler``
        (a callable giving floats in [0, 1)); see :func:`resampler`."""
        seed = int(probability_sampler() * (1 << 53))
        return _resampled(self, player_id, Rng(seed))

    def __str__(self) -> str:
        if self.play is None:
            return "the seed is not drawn yet"
        match = self.play.match
        pending = {s: self.play.pending(s) for s in range(match.players) if self.play.pending(s)}
        return json.dumps({"view": match.view(None), "pending": pending}, sort_keys=True)


@functools.cache
def _uniform(seeds: int) -> tuple[tuple[int, float], ...]:
    """The root's chance outcomes: every seed alike (made once per number of seeds)."""
    return tuple((seed, 1.0 / seeds) for seed in range(seeds))


def _resampled(state: SengokuState, player: int, rng: Rng) -> SengokuState:
    if state.play is None:
        raise SengokuError("the seed is not drawn yet: there is nothing to resample")
    return SengokuState(state.get_game(), state.play.resample(player, rng))


def resampler(seed: int = 0) -> Callable[[SengokuState, int], SengokuState]:
    """A resampler for OpenSpiel's IS-MCTS bot: ``bot.set_resampler(resampler(seed))``.

    Each call ``(state, player)`` draws, with the game's ``determinize`` over ``player``'s
    view, a state in which ``player`` sees and knows exactly what it does in ``state`` (the
    same view, spelling so far and information state); the rest (other hands, face-down
    decks, future chance) is sampled from an :class:`~sengoku.core.Rng` seeded ``seed``. The
    sampled state has no history of its own.
    """
    rng = Rng(seed)

    def resample(state: SengokuState, player: int) -> SengokuState:
        return _resampled(state, player, rng.spawn())

    return resample


class SengokuObserver:
    """Observations (tensor and string) or perfect-recall information states of a state.

    What it shows follows the :class:`pyspiel.IIGObservationType` asked for: the player's
    own view (private information of a single player, the default), or the public view only
    (no private information: a spectator's view, the same for every player). Information
    states (perfect recall) exist for a single player's own view only, as strings.
    """

    def __init__(self, game: SengokuGame, iig_obs_type: Any) -> None:
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        public = True
        self.perfect_recall = False
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            public = iig_obs_type.public_info
            self.perfect_recall = iig_obs_type.perfect_recall
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not public:
            raise ValueError(
                f"Sengoku observes a player's own view or the public view, not {iig_obs_type}"
            )
        if self.perfect_recall and private != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("perfect recall is a player's own information state")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        size = 0 if self.perfect_recall else game.config.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SengokuState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        if self.perfect_recall:
            return
        if state.play is None:
            self.tensor.fill(0.0)
        else:
            state.play.observation_into(None if self.public_only else player, self.tensor)

    def string_from(self, state: SengokuState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as text."""
        if state.play is None:
            return "the seed is not drawn yet"
        if self.perfect_recall:
            return state.play.information_state(player)
        return state.play.observation_string(None if self.public_only else player)


def vocabulary(game: SengokuGame) -> tuple[str, ...]:
    """The token names of ``game``'s action ids, in id order."""
    return game.config.tokens


def register() -> None:
    """Register ``sengoku_<game>`` with pyspiel for every registered game (again: no change)."""
    known = set(pyspiel.registered_names())
    for name in available_games():
        short = f"sengoku_{name}"
        if short in known:
            continue

        game_class = type(
            f"Sengoku_{name}_Game",
            (SengokuGame,),
            {"__init__": _init_for(name), "__module__": __name__},
        )
        globals()[game_class.__name__] = game_class  # so that pickle finds it
        pyspiel.register_game(_game_type(name), game_class)


def _init_for(name: str) -> Callable[..., None]:
    def init(self: SengokuGame, params: dict[str, Any] | None = None) -> None:
        SengokuGame.__init__(self, name, params)

    return init
