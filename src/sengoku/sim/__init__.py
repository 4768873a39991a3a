"""Running matches between agents: one at a time, or many over a pool of processes."""

from .runner import (
    GameResult,
    Summary,
    agent_seeds,
    play_match,
    play_randomly,
    run_games,
    summarize,
)

__all__ = [
    "GameResult",
    "Summary",
    "agent_seeds",
    "play_match",
    "play_randomly",
    "run_games",
    "summarize",
]
