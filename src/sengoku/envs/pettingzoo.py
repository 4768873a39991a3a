"""PettingZoo environments for every registered game (needs ``pip install -e '.[pettingzoo]'``).

:func:`env` gives an AEC environment (agents take turns), :func:`parallel_env` a parallel one
(every seat that may act takes a step at once, as in Shogun's planning or Rising Sun's bids).
Both play the game one action token at a time (see :mod:`sengoku.envs.common`):

* agents are ``player_0`` … ``player_{n-1}``, the match's seats;
* an agent's action space is ``Discrete(size)`` over the game's token vocabulary;
* an observation is a float32 array in [0, 1]: the game's observation tensor of the agent's
  view followed by its spelling so far;
* the **action mask**, an int8 array with 1 for each id the agent may take now (none while it
  may not act, and in the AEC environment none but the selected agent's: those share one
  read-only array of 0s), is in the agent's
  info as ``"action_mask"`` (the default, ``action_mask="info"``), or with
  ``action_mask="observation"`` the observation is ``{"observation": ..., "action_mask":
  ...}`` as in PettingZoo's classic games;
* the reward comes at the end: 1 shared among the winners, 0 for the others; every agent
  terminates together when the game ends, none is ever truncated;
* ``state()`` is the public state (the game's tensor of the spectator's view), in
  ``state_space``, for centralized critics.

``reset(seed=s)`` plays the match seeded ``s``, the one ``sengoku.new_match(game, players,
seed=s, options=options)`` gives; a later ``reset()`` without a seed goes on with ``s + 1``.
The game's options are fixed when the environment is made; ``reset``'s ``options`` (which
PettingZoo's tests pass) are not used.

An action that the mask does not allow raises ``ValueError`` and changes nothing, unless the
environment was made with ``illegal_action="lose"``: then the game ends at once, the agent
that sent it gets -1 and the others 0 (the convention of PettingZoo's classic games).

**Secret simultaneous choices in the parallel environment.** When several seats choose at
once, a *round* begins: every one of them spells its action, one id per step, and the actions
are carried out together, in seat order, when the round ends. A round lasts as many steps as
the longest spelling any of its seats could choose (a seat that is done waits with an empty
mask), so neither the result nor the length of one seat's spelling shows to another before
all have chosen. A decision of one seat alone is carried out as soon as it is spelled.

>>> from sengoku.envs.pettingzoo import env
>>> e = env("shitenno", players=2)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = int(info["action_mask"].nonzero()[0][0])
...     e.step(action)
>>> sorted(e.rewards) == [] and e.agents == []
True
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from typing import Any, Literal

from sengoku.core import EncodingError, fresh_seed, get_game, new_match

from . import MissingExtraError

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as exc:
    raise MissingExtraError("PettingZoo environments", "pettingzoo", exc.name) from None

from .common import TokenPlay

__all__ = ["SengokuAECEnv", "SengokuParallelEnv", "env", "parallel_env"]

IllegalAction = Literal["raise", "lose"]
MaskPlace = Literal["info", "observation"]


class _Table:
    """What both environments share: the game, its spaces, the seeds and the play."""

    def __init__(
        self,
        game: str,
        players: int | None,
        options: Mapping[str, Any] | None,
        skip_forced: bool,
        illegal_action: IllegalAction,
        action_mask: MaskPlace,
    ) -> None:
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action is 'raise' or 'lose', not {illegal_action!r}")
        if action_mask not in ("info", "observation"):
            raise ValueError(f"action_mask is 'info' or 'observation', not {action_mask!r}")
        self.mask_in_observation = action_mask == "observation"
        rules = get_game(game)
        self.game = rules.name
        self.players = rules.player_counts[0] if players is None else players
        self.options = dict(options or {})
        self.skip_forced = skip_forced
        self.illegal_action = illegal_action
        probe = TokenPlay(
            new_match(self.game, self.players, seed=0, options=self.options), recall=False
        )
        self.size = probe.space.size
        self.no_ids = np.zeros(self.size, dtype=np.int8)
        self.no_ids.flags.writeable = False
        self.agents = [f"player_{seat}" for seat in range(self.players)]
        box = gymnasium.spaces.Box(0.0, 1.0, (probe.observation_size,), dtype=np.float32)
        state_size = probe.observation_size - probe.space.size  # the view's tensor alone
        self.state_space = gymnasium.spaces.Box(0.0, 1.0, (state_size,), dtype=np.float32)
        mask = gymnasium.spaces.Box(0, 1, (self.size,), dtype=np.int8)
        observation: gymnasium.spaces.Space[Any] = (
            gymnasium.spaces.Dict({"observation": box, "action_mask": mask})
            if self.mask_in_observation
            else box
        )
        # one space object per agent, the same at every call (PettingZoo seeds them)
        self.observation_spaces = dict.fromkeys(self.agents, observation)
        self.action_spaces = {agent: gymnasium.spaces.Discrete(self.size) for agent in self.agents}
        self.next_seed: int | None = None
        self.play = probe

    def new_play(self, seed: int | None) -> TokenPlay:
        if seed is None:
            seed = fresh_seed() if self.next_seed is None else self.next_seed
        self.next_seed = seed + 1
        match = new_match(self.game, self.players, seed=seed, options=self.options)
        self.play = TokenPlay(match, self.skip_forced, recall=False)
        return self.play

    def mask(self, seat: int, asked: bool) -> np.ndarray:
        """The seat's mask; one shared read-only array of 0s for a seat not asked."""
        if not asked:
            return self.no_ids
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.play.legal_ids(seat)] = 1
        return mask

    def observe(self, seat: int, asked: bool) -> Any:
        observation = np.empty(self.play.observation_size, dtype=np.float32)
        self.play.observation_into(seat, observation)
        if self.mask_in_observation:
            return {"observation": observation, "action_mask": self.mask(seat, asked)}
        return observation

    def infos(self, asked: set[int]) -> dict[str, dict[str, Any]]:
        if self.mask_in_observation:
            return {agent: {} for agent in self.agents}
        return {
            agent: {"action_mask": self.mask(seat, seat in asked)}
            for seat, agent in enumerate(self.agents)
        }

    def check(self, seat: int, action: Any) -> int | None:
        """The id ``action`` stands for, or ``None`` for an illegal one in "lose" mode."""
        try:
            token = -1 if isinstance(action, bool) else operator.index(action)
        except TypeError:
            token = -1
        if token in self.play.legal_ids(seat):
            return token
        if self.illegal_action == "lose":
            return None
        raise ValueError(
            f"{action!r} is not an id player_{seat} may take now; "
            f"the mask allows {self.play.legal_ids(seat)}"
        )

    def state(self) -> np.ndarray:
        """The public state: the game's tensor of the spectator's view."""
        state: np.ndarray = self.play.view_array(None).copy()
        return state

    def render(self) -> str:
        view = self.play.match.view(None)
        text = self.play.game.render_text(view)
        return text if text is not None else json.dumps(view, indent=1)


class _Shared:
    """The parts of both environments that are the same, their making included."""

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        skip_forced: bool = True,
        illegal_action: IllegalAction = "raise",
        action_mask: MaskPlace = "info",
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._table = _Table(game, players, options, skip_forced, illegal_action, action_mask)
        self.metadata = {"name": f"sengoku_{self._table.game}_v0", "render_modes": ["ansi"]}
        self.possible_agents = list(self._table.agents)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._table.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._table.action_spaces[agent]

    @property
    def state_space(self) -> gymnasium.spaces.Box:
        """The space of :meth:`state`."""
        return self._table.state_space

    def state(self) -> np.ndarray:
        """The public state, for a centralized critic: the game's observation tensor of the
        spectator's view (no seat's secrets), ``float32`` in ``state_space``."""
        return self._table.state()

    @property
    def play(self) -> TokenPlay:
        """The match being played, token by token."""
        return self._table.play

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        return self._table.render()

    def close(self) -> None:
        """Nothing to free: the match lives in memory."""


class SengokuAECEnv(_Shared, AECEnv[str, Any, int | None]):  # type: ignore[misc]
    """A Sengoku game as a PettingZoo AEC environment; see the module docs."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._table.new_play(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select()

    def _select(self) -> None:
        seat = self.play.current_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        self.infos = self._table.infos(set() if seat is None else {seat})

    def observe(self, agent: str) -> Any:
        seat = self.possible_agents.index(agent)
        return self._table.observe(seat, seat == self.play.current_seat())

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        token = self._table.check(seat, action)
        self._cumulative_rewards[agent] = 0.0
        if token is None:
            self._end([-1.0 if s == seat else 0.0 for s in range(len(self.agents))])
            self.infos = self._table.infos(set())
            self.infos[agent]["illegal_action"] = True
        else:
            self.play.step(token, seat)
            if self.play.match.outcome() is not None:
                self._end(list(self.play.rewards()))
            else:
                self.rewards = dict.fromkeys(self.agents, 0.0)
            self._select()
        self._accumulate_rewards()

    def _end(self, rewards: list[float]) -> None:
        self.rewards = {agent: rewards[s] for s, agent in enumerate(self.possible_agents)}
        self.terminations = dict.fromkeys(self.agents, True)


class SengokuParallelEnv(_Shared, ParallelEnv[str, Any, int | None]):  # type: ignore[misc]
    """A Sengoku game as a PettingZoo parallel environment; see the module docs.

    Each step every agent whose mask is not empty sends one id; the others' entries are not
    used and may be left out.
    """

    _round: list[int]  # the seats of a simultaneous choice under way
    _steps_left: int
    _chosen: dict[int, Any]  # their spelled actions, carried out at its end

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._table.new_play(seed)
        self.agents = list(self.possible_agents)
        self._round, self._steps_left, self._chosen = [], 0, {}
        asked = self._asked()
        return self._observations(asked), self._table.infos(asked)

    def _asked(self) -> set[int]:
        """The seats asked for an id in the coming step (starting a round if one is due)."""
        if not self._round:
            seats = self.play.acting_seats()
            if len(seats) > 1:
                match, space = self.play.match, self.play.space
                self._round = seats
                self._steps_left = max(
                    len(space.encode(match, s, a)) for s in seats for a in match.legal_actions(s)
                )
            return set(seats)
        return {s for s in self._round if s not in self._chosen}

    def _observations(self, asked: set[int]) -> dict[str, Any]:
        seats = enumerate(self.possible_agents)
        return {agent: self._table.observe(s, s in asked) for s, agent in seats}

    def step(
        self, actions: Mapping[str, int | None]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise EncodingError("the game is over; call reset()")
        asked = self._asked()
        tokens: dict[int, int | None] = {}
        for seat in sorted(asked):
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} may act now and must send an id")
            tokens[seat] = self._table.check(seat, actions[agent])
        offender = next((s for s, t in tokens.items() if t is None), None)
        if offender is None:
            self._advance(tokens)
            over = self.play.match.outcome() is not None
            rewards = list(self.play.rewards())
            asked = set() if over else self._asked()
            infos = self._table.infos(asked)
        else:
            over = True
            rewards = [-1.0 if s == offender else 0.0 for s in range(len(self.agents))]
            asked = set()
            infos = self._table.infos(asked)
            infos[self.possible_agents[offender]]["illegal_action"] = True
        observations = self._observations(asked)
        reward = {agent: rewards[s] for s, agent in enumerate(self.possible_agents)}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        return observations, reward, terminations, truncations, infos

    def _advance(self, tokens: dict[int, int | None]) -> None:
        """Take each asked seat's id; carry out what is spelled (a round's at its end)."""
        if not self._round:
            for seat, token in tokens.items():
                assert token is not None
                self.play.step(token, seat)
            return
        for seat, token in tokens.items():
            assert token is not None
            action = self.play.spell(token, seat)
            if action is not None:
                self._chosen[seat] = action
        self._steps_left -= 1
        if self._steps_left == 0:
            assert set(self._chosen) == set(self._round), "a spelling outlasted its round"
            for seat in self._round:
                self.play.carry_out(seat, self._chosen[seat])
            self._round, self._chosen = [], {}


def env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> SengokuAECEnv:
    """A PettingZoo AEC environment for ``game`` (see the module docs for ``kwargs``)."""
    return SengokuAECEnv(game, players, options, **kwargs)


def parallel_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> SengokuParallelEnv:
    """A PettingZoo parallel environment for ``game`` (see the module docs for ``kwargs``)."""
    return SengokuParallelEnv(game, players, options, **kwargs)
