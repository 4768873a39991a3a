"""Many games stepped together: a Gymnasium vector environment (``pip install -e '.[pettingzoo]'``).

:class:`SengokuVectorEnv` plays ``num_envs`` matches of one game in one process, seats taking
turns as in the AEC environment (:mod:`sengoku.envs.pettingzoo`), and steps them all with one
call. It follows Gymnasium's vector API (``reset``, ``step``, batched spaces, infos as dicts
of arrays, ``autoreset_mode`` ``SAME_STEP``), where a turn-based game of several players
needs more than one agent's reward:

* ``observations``: ``(num_envs, size)`` float32, in each game the observation of the seat
  whose id comes next (the AEC environment's ``observe`` of the selected agent);
* ``infos["action_mask"]``: ``(num_envs, ids)`` int8, that seat's mask;
  ``infos["seat"]``: ``(num_envs,)`` int64, that seat;
* ``step(actions)`` takes one id per game, for that seat;
* ``rewards``: ``(num_envs, players)`` float32, each seat's reward from the step (0 until a
  game ends; then 1 shared among its winners), as OpenSpiel's ``rl_environment`` gives them;
* ``terminations``: ``(num_envs,)`` bool, a game that ended in this step; ``truncations`` is
  all ``False`` (games end by their rules);
* a game that ends starts again in the same step (``SAME_STEP``): the observation returned
  for it is its next match's first; ``infos["final_seat"]`` says, for those games, which seat
  took the last id (-1 for the others).

Games are seeded ``seed + i`` for game ``i`` at ``reset(seed=seed)``, and the ``k``-th match
after it in that slot ``seed + i + k * num_envs``: no two slots ever play the same match.
An id that a game's mask does not allow raises ``ValueError`` and no game moves.

>>> from sengoku.envs.vector import SengokuVectorEnv
>>> envs = SengokuVectorEnv("shitenno", num_envs=4, players=3)
>>> observations, infos = envs.reset(seed=7)
>>> observations.shape, infos["action_mask"].shape, infos["seat"].tolist()
((4, 429), (4, 47), [0, 1, 1, 1])
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> ended = 0
>>> while ended < 4:
...     ids = [rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]]
...     observations, rewards, terminations, truncations, infos = envs.step(ids)
...     ended += int(terminations.sum())
>>> rewards.shape
(4, 3)

:class:`RayVectorEnv` spreads such games over Ray actors (processes, and machines of a Ray
cluster), each stepping its share with a :class:`SengokuVectorEnv`, and returns the same
arrays (needs the ``ray`` extra as well).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sengoku.core import fresh_seed

from . import MissingExtraError

try:
    import gymnasium
    import numpy as np
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:
    raise MissingExtraError("vector environments", "pettingzoo", exc.name) from None

from .pettingzoo import _Table

__all__ = ["RayVectorEnv", "SengokuVectorEnv"]


class SengokuVectorEnv(VectorEnv):
    """``num_envs`` matches of ``game`` stepped together in this process; see the module docs.

    Args:
        game: a registered game's name.
        num_envs: how many matches at once.
        players: the player count (default: the game's smallest).
        options: the game's options, for every match.
        skip_forced: follow spellings by themselves where only one id can come next.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        skip_forced: bool = True,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        self.tables = [
            _Table(game, players, options, skip_forced, "raise", "info") for _ in range(num_envs)
        ]
        first = self.tables[0]
        self.num_envs = num_envs
        self.game, self.players = first.game, first.players
        self.single_observation_space = first.observation_spaces[first.agents[0]]
        self.single_action_space = gymnasium.spaces.Discrete(first.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seeds = [0] * num_envs
        size = first.play.observation_size
        self._observations = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, first.size), dtype=np.int8)
        self._seats = np.zeros(num_envs, dtype=np.int64)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New matches in every slot: seeded ``seed + i`` (a list: one seed per slot; none:
        unpredictable ones). ``options`` are not used (the game's are fixed when made)."""
        if seed is None:
            seed = fresh_seed()
        seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else seed
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} games")
        for i in range(self.num_envs):
            self._seeds[i] = int(seeds[i])
            self._start(i)
        return self._observations.copy(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One id for each game's seat to act; see the module docs for what comes back."""
        ids = _checked(actions, self._masks, self._seats)
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        terminations = np.zeros(self.num_envs, dtype=bool)
        final_seat = np.full(self.num_envs, -1, dtype=np.int64)
        for i, table in enumerate(self.tables):
            play, seat = table.play, int(self._seats[i])
            play.step(int(ids[i]), seat)
            if play.match.outcome() is not None:
                rewards[i] = play.rewards()
                terminations[i] = True
                final_seat[i] = seat
                self._start(i)
            else:
                self._observe(i)
        infos = self._infos()
        infos["final_seat"] = final_seat
        truncations = np.zeros(self.num_envs, dtype=bool)
        return self._observations.copy(), rewards, terminations, truncations, infos

    def _start(self, i: int) -> None:
        """A new match in slot ``i``, with its next seed."""
        table = self.tables[i]
        table.new_play(self._seeds[i])
        self._seeds[i] += self.num_envs
        self._observe(i)

    def _observe(self, i: int) -> None:
        """Slot ``i``'s seat to act, its observation and mask, into the batch."""
        table = self.tables[i]
        seat = table.play.current_seat()
        assert seat is not None  # a match that goes on has a seat to act
        self._seats[i] = seat
        self._observations[i] = table.observe(seat, True)
        self._masks[i] = table.mask(seat, True)

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "seat": self._seats.copy()}

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to free: the matches live in memory."""


class RayVectorEnv(VectorEnv):
    """``num_envs`` matches stepped by ``workers`` Ray actors, each with a
    :class:`SengokuVectorEnv` of its share; the same arrays as one, in slot order.

    Args:
        game, num_envs, players, options, skip_forced: as :class:`SengokuVectorEnv`.
        workers: how many actors (processes); slots are split among them as evenly as can be.
        address: a Ray cluster to join (default: the one running, or a local one).

    Seeds go as in one :class:`SengokuVectorEnv` of ``num_envs`` slots would seed them at
    ``reset``; the matches after them in a slot differ (each actor counts its own slots).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_envs: int,
        workers: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        skip_forced: bool = True,
        address: str | None = None,
    ) -> None:
        try:
            import ray
        except ImportError as exc:
            raise MissingExtraError("Ray vector environments", "ray", exc.name) from None
        if not 1 <= workers <= num_envs:
            raise ValueError(f"workers is from 1 to num_envs ({num_envs}), not {workers}")
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        self._ray = ray
        shares = [num_envs // workers + (k < num_envs % workers) for k in range(workers)]
        remote = ray.remote(SengokuVectorEnv)
        self._actors: list[Any] = [
            remote.remote(game, share, players, options, skip_forced) for share in shares
        ]
        self._shares = shares
        self._masks = np.zeros((num_envs, 0), dtype=np.int8)  # nothing allowed before reset
        self._seats = np.zeros(num_envs, dtype=np.int64)
        local = SengokuVectorEnv(game, 1, players, options, skip_forced)
        self.num_envs = num_envs
        self.game, self.players = local.game, local.players
        self.single_observation_space = local.single_observation_space
        self.single_action_space = local.single_action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New matches in every slot, seeded as :meth:`SengokuVectorEnv.reset` seeds them."""
        if seed is None:
            seed = fresh_seed()
        calls, start = [], seed
        for actor, share in zip(self._actors, self._shares, strict=True):
            calls.append(actor.reset.remote(seed=list(range(start, start + share))))
            start += share
        parts = self._ray.get(calls)
        infos = self._keep(_joined([p[1] for p in parts]))
        return np.concatenate([p[0] for p in parts]), infos

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """As :meth:`SengokuVectorEnv.step`, the games stepped by their actors at once."""
        ids = _checked(actions, self._masks, self._seats)  # before any actor moves
        calls, start = [], 0
        for actor, share in zip(self._actors, self._shares, strict=True):
            calls.append(actor.step.remote(ids[start : start + share]))
            start += share
        parts = self._ray.get(calls)
        observations, rewards, terminations, truncations = (
            np.concatenate([p[k] for p in parts]) for k in range(4)
        )
        infos = self._keep(_joined([p[4] for p in parts]))
        return observations, rewards, terminations, truncations, infos

    def _keep(self, infos: dict[str, Any]) -> dict[str, Any]:
        """Keep the masks and seats, to check the next actions here."""
        self._masks, self._seats = infos["action_mask"], infos["seat"]
        return infos

    def close_extras(self, **kwargs: Any) -> None:
        """End the actors."""
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors = []


def _checked(actions: Any, masks: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``actions`` as one id per game, each one its mask allows (else ``ValueError``)."""
    ids = np.asarray(actions).reshape(-1)
    if ids.shape[0] != masks.shape[0]:
        raise ValueError(f"{ids.shape[0]} actions for {masks.shape[0]} games")
    if not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"actions are integer ids, not {ids.dtype}")
    wrong = [i for i, a in enumerate(ids.tolist()) if not (0 <= a < masks.shape[1] and masks[i, a])]
    if wrong:
        listed = ", ".join(f"{i} (id {ids[i]}, seat {seats[i]})" for i in wrong)
        raise ValueError(f"ids the masks do not allow, in games {listed}")
    return ids


def _joined(infos: list[dict[str, Any]]) -> dict[str, Any]:
    return {key: np.concatenate([info[key] for info in infos]) for key in infos[0]}
