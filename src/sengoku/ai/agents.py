"""The agent protocol and the agents every game can use."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from sengoku.core import Rng, SengokuError, determinize, get_game


class AgentSpecError(SengokuError, ValueError):
    """An agent spec that names no known agent or has bad parameters."""


class Agent(ABC):
    """Chooses the actions of one seat, seeing only what a person in that seat would see.

    The runner calls :meth:`choose` with the seat's view (``Match.view(seat)``) and its legal
    actions, and plays the action returned. An agent draws its own chance from its seeded
    :class:`Rng`, so the same seed and the same views give the same choices.

    Attributes:
        needs_view: ``False`` for agents that ignore the view; the runner may then pass
            ``None`` and save building it.
    """

    needs_view: ClassVar[bool] = True

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, view: dict[str, Any] | None, legal: Sequence[Any]) -> Any:
        """Return one of ``legal``."""


class RandomAgent(Agent):
    """Plays a uniformly random legal action: the baseline every other agent must beat."""

    needs_view = False

    def choose(self, view: dict[str, Any] | None, legal: Sequence[Any]) -> Any:
        """Return a uniformly random element of ``legal``."""
        return self.rng.choice(legal)


class HeuristicAgent(Agent):
    """Plays the game's heuristic (:meth:`~sengoku.core.Game.policy`) on a state sampled
    from its view; a uniformly random action where the game has no opinion.

    Args:
        seed: the agent's seed.
        noise: the share of decisions taken at random instead (for an easier opponent).
    """

    def __init__(self, seed: int, noise: float = 0.0) -> None:
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a share between 0 and 1, not {noise}")
        self.noise = noise

    def choose(self, view: dict[str, Any] | None, legal: Sequence[Any]) -> Any:
        """Return the game heuristic's choice among ``legal``."""
        if len(legal) == 1:
            return legal[0]
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(legal)
        assert view is not None, "the heuristic agent needs the seat's view"
        return heuristic_choice(view, legal, self.rng)


def heuristic_choice(view: dict[str, Any], legal: Sequence[Any], rng: Rng) -> Any:
    """The game heuristic's choice among ``legal`` on a state sampled from ``view`` with
    ``rng``; a random one of ``legal`` where the game has no opinion."""
    game = get_game(view["game"])
    sample = determinize(view, rng)
    choice = game.policy(sample.state, view["seat"], list(legal), rng)
    return rng.choice(legal) if choice is None else choice


def _ismcts(seed: int, **settings: Any) -> Agent:
    from .ismcts import ISMCTSAgent  # here, since ismcts imports this module

    return ISMCTSAgent(seed, **settings)


#: The share of the other seats' playout moves the levels' searches take at random, per game:
#: in Shitenno half won a little more against random players (58.5 against 56 of 64 games on
#: the same seeds), in Shogun none won more against heuristic players (14 against 9 of 32);
#: small samples, see docs/ai.md.
OPPONENT_NOISE = {"shitenno": 0.5, "*": 0.0}

#: The decisions, per game and by the view's ``phase``, that the levels' searches leave to
#: the heuristic: in Shitenno the answer to an offered lot, whose worth turns on how the
#: others will build and answer the lots still to come, which the playouts' model of them
#: gets wrong; measured against random players, the search's answers there cost 2 to 5
#: points of win chance each time it overruled the heuristic (two runs, docs/ai.md).
#: Rising Sun has no trusted phase and no opponent noise: its `hard` beat three heuristics in
#: 11 of 16 games as it is (docs/ai.md).
TRUSTED_PHASES: dict[str, tuple[str, ...]] = {"shitenno": ("offer",)}

#: The search both ISMCTS levels run: rollouts of the heuristic cut after 60 actions, with
#: the guards of docs/ai.md (opponent noise, trust in the heuristic, a share of the points).
_SEARCH: dict[str, Any] = {
    "agent": "ismcts",
    "playout": "heuristic",
    "depth": 60,
    "deep_widening": 0.0,
    "opponent_noise": OPPONENT_NOISE,
    "overrule_z": 1.0,
    "trusted_phases": TRUSTED_PHASES,
    "score_weight": 0.3,
}

#: The difficulty levels: what each is, for people choosing an opponent and for docs/ai.md.
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"agent": "heuristic", "noise": 0.3},
    "normal": {**_SEARCH, "iterations": 60, "time_limit": 1.0},
    "hard": {**_SEARCH, "iterations": 200, "time_limit": 1.8},
}

#: Agent specs the CLI and the simulator accept, each with a factory taking a seed; besides
#: these, ``ismcts:ITERATIONS`` names a search agent with that many iterations per decision.
AGENT_SPECS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "easy": lambda seed: HeuristicAgent(seed, noise=LEVELS["easy"]["noise"]),
    "normal": lambda seed: _ismcts(seed, **_settings("normal")),
    "hard": lambda seed: _ismcts(seed, **_settings("hard")),
}


def _settings(level: str) -> dict[str, Any]:
    return {k: v for k, v in LEVELS[level].items() if k != "agent"}


def make_agent(spec: str, seed: int) -> Agent:
    """Build the agent that ``spec`` names, seeded with ``seed``.

    Specs: ``random``, ``heuristic``, ``ismcts:ITERATIONS`` (heuristic playouts), and the
    levels ``easy``, ``normal`` and ``hard``.
    """
    name, _, arg = spec.strip().lower().partition(":")
    if name == "ismcts":
        if not arg.isdigit() or int(arg) < 1:
            raise AgentSpecError(
                f"ismcts needs a positive number of iterations, as in ismcts:200, not {spec!r}"
            )
        return _ismcts(seed, iterations=int(arg), playout="heuristic")
    factory = AGENT_SPECS.get(name) if not arg else None
    if factory is None:
        known = ", ".join([*sorted(AGENT_SPECS), "ismcts:ITERATIONS"])
        raise AgentSpecError(f"unknown agent {spec!r}; known agents: {known}")
    return factory(seed)
