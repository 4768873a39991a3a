"""Game-agnostic agents. They see a seat's view and its legal actions, never the true state.

>>> agent = make_agent("random", seed=3)
>>> agent.choose(None, ["bid 0", "bid 1", "bid 2"])
'bid 0'
"""

from .agents import (
    AGENT_SPECS,
    LEVELS,
    Agent,
    AgentSpecError,
    HeuristicAgent,
    RandomAgent,
    make_agent,
)

__all__ = [
    "AGENT_SPECS",
    "LEVELS",
    "Agent",
    "AgentSpecError",
    "HeuristicAgent",
    "RandomAgent",
    "make_agent",
]
