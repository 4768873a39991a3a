"""One seat learns, Sengoku's agents play the others: a Gymnasium environment for
single-agent learning libraries (``pip install -e '.[pettingzoo]'``; for Stable-Baselines3's
masked PPO, ``pip install -e '.[learning]'``).

:class:`SengokuSoloEnv` is the match seen from one seat, the *learner*: each ``step`` takes one
id of the learner's spelling (as in the PettingZoo environments, :mod:`sengoku.envs.common`),
and whenever another seat is to act, the agent that plays it (``random``, ``heuristic`` or any
spec :func:`~sengoku.ai.agents.make_agent` knows) chooses a whole action from its own view,
before the step returns. So the learner sees only its own turns:

* the observation is the learner's (float32 in [0, 1], the game's tensor of its view then its
  spelling so far), in ``Box(0, 1, (size,))``;
* the action is ``Discrete(ids)``; :meth:`~SengokuSoloEnv.action_masks` gives the ids allowed
  now as a bool array (the method sb3-contrib's ``MaskablePPO`` calls), and the info holds
  the same as an int8 ``"action_mask"``;
* the reward comes at the end: the learner's share of the win (1 shared among the winners),
  0 before; the episode then terminates, and is never truncated;
* ``seat="rotate"`` (the default) gives the learner seat ``seed % players`` of the match
  seeded ``seed``, so that a policy learns every seat; an ``int`` keeps one seat;
* ``reset(seed=s)`` plays ``sengoku.new_match(game, players, seed=s, options=options)``; the
  opponents' agents are seeded from ``s`` and their seat; a later ``reset()`` without a seed
  goes on with ``s + 1``.

An id that the mask does not allow raises ``ValueError`` and changes nothing.

>>> from sengoku.envs.solo import SengokuSoloEnv
>>> env = SengokuSoloEnv("shitenno", players=2, opponents="random")
>>> observation, info = env.reset(seed=3)
>>> env.seat, observation.dtype, observation.shape == env.observation_space.shape
(1, dtype('float32'), True)
>>> done = False
>>> while not done:
...     action = int(env.action_masks().nonzero()[0][0])
...     observation, reward, done, truncated, info = env.step(action)
>>> reward in (0.0, 0.5, 1.0), env.play.match.outcome() is not None
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from sengoku.ai.agents import Agent, make_agent

from . import MissingExtraError

try:
    import gymnasium
    import numpy as np
except ImportError as exc:
    raise MissingExtraError("single-seat environments", "pettingzoo", exc.name) from None

from .common import TokenPlay
from .pettingzoo import _Table

__all__ = ["SengokuSoloEnv"]


class SengokuSoloEnv(gymnasium.Env[np.ndarray, np.int64]):
    """A match seen from one learning seat, the others played by agents; see the module docs.

    Args:
        game: a registered game's name.
        players: the player count (default: the game's smallest).
        opponents: the agent spec of every other seat (one for all of them, or one per other
            seat in seat order), as the CLI's ``--agent``.
        seat: the learner's seat, or ``"rotate"``: seat ``seed % players`` of each match.
        options: the game's options, for every match.
        skip_forced: follow spellings by themselves where only one id can come next.
        render_mode: ``None`` or ``"ansi"`` (``render()`` gives the spectator's view as text).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int | Literal["rotate"] = "rotate",
        options: Mapping[str, Any] | None = None,
        skip_forced: bool = True,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._table = _Table(game, players, options, skip_forced, "raise", "info")
        count = self._table.players
        if seat != "rotate" and not (isinstance(seat, int) and 0 <= seat < count):
            raise ValueError(f"seat is 'rotate' or a seat from 0 to {count - 1}, not {seat!r}")
        specs = [opponents] * (count - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != count - 1:
            raise ValueError(f"{len(specs)} opponents for the {count - 1} other seats")
        for spec in specs:
            make_agent(spec, 0)  # an unknown spec fails here, not at the first reset
        self._specs = specs
        self._seat_rule = seat
        self.seat = 0 if seat == "rotate" else seat
        self._agents: dict[int, Agent] = {}
        self.observation_space = self._table.observation_spaces[self._table.agents[0]]
        self.action_space = gymnasium.spaces.Discrete(self._table.size)
        self._mask = np.zeros(self._table.size, dtype=np.int8)

    @property
    def play(self) -> TokenPlay:
        """The match being played, token by token."""
        return self._table.play

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new match (see the module docs for seeds and seats); ``options`` are not used,
        the game's are fixed when the environment is made."""
        super().reset(seed=seed)
        play = self._table.new_play(seed)
        match_seed = play.match.seed
        assert match_seed is not None  # new_play seeds every match
        players = self._table.players
        self.seat = match_seed % players if self._seat_rule == "rotate" else self._seat_rule
        others = [s for s in range(players) if s != self.seat]
        self._agents = {
            s: make_agent(spec, match_seed * players + s)
            for s, spec in zip(others, self._specs, strict=True)
        }
        self._opponents_play()
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take the learner's id ``action``, then let the opponents act until it is the
        learner's turn again or the game is over."""
        if self.play.match.outcome() is not None:
            raise ValueError("the game is over; call reset()")
        token = self._table.check(self.seat, action)
        assert token is not None  # "raise" mode: a wrong id has raised
        self.play.step(token, self.seat)
        self._opponents_play()
        over = self.play.match.outcome() is not None
        reward = self.play.rewards()[self.seat] if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The ids the learner may take now, as bools (none once the game is over)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='ansi'")
            return None
        return self._table.render()

    def _opponents_play(self) -> None:
        """Whole actions of the other seats until the learner is to act or the game is over."""
        play = self._table.play
        match = play.match
        while (seat := play.current_seat()) is not None and seat != self.seat:
            agent = self._agents[seat]
            view = match.view(seat) if agent.needs_view else None
            play.carry_out(seat, agent.choose(view, match.legal_actions(seat)))

    def _observe(self) -> np.ndarray:
        asked = self.play.current_seat() is not None  # the learner's turn, or the end
        self._mask = self._table.mask(self.seat, asked)
        observation: np.ndarray = self._table.observe(self.seat, asked)
        return observation

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "seat": self.seat}
