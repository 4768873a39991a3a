"""Running matches between agents: one at a time, over a pool of processes or on Ray;
results files, statistics and tournaments (see docs/research.md)."""

from .backends import Backend, LocalBackend, RayBackend, open_backend
from .results import ResultRow, ResultsWriter, read_results, write_results
from .runner import (
    Chunk,
    GameResult,
    Summary,
    agent_seeds,
    play_chunk,
    play_match,
    play_randomly,
    run_games,
    summarize,
)
from .tournament import Ratings, pairings, run_tournament

__all__ = [
    "Backend",
    "Chunk",
    "GameResult",
    "LocalBackend",
    "Ratings",
    "RayBackend",
    "ResultRow",
    "ResultsWriter",
    "Summary",
    "agent_seeds",
    "open_backend",
    "pairings",
    "play_chunk",
    "play_match",
    "play_randomly",
    "read_results",
    "run_games",
    "run_tournament",
    "summarize",
    "write_results",
]
