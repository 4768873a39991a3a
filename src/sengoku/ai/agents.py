"""The agent protocol and the agents every game can use."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from sengoku.core import Rng, SengokuError


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


#: Agent specs the CLI and the simulator accept, each with a factory taking a seed.
AGENT_SPECS: dict[str, Callable[[int], Agent]] = {"random": RandomAgent}


def make_agent(spec: str, seed: int) -> Agent:
    """Build the agent that ``spec`` names (for example ``"random"``), seeded with ``seed``."""
    factory = AGENT_SPECS.get(spec.strip().lower())
    if factory is None:
        known = ", ".join(sorted(AGENT_SPECS))
        raise AgentSpecError(f"unknown agent {spec!r}; known agents: {known}")
    return factory(seed)
