"""Bot seats: agents think in a pool of worker processes, so no match waits for another.

A decision is a pure function of the seat's view, its legal actions, the level and a seed
derived from the match's seed and the action's number, so a bot's play is reproducible and
two server processes that both think for one seat reach the same move (the database keeps
only the first).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from sengoku.ai import make_agent
from sengoku.ai.advisor import (
    HINT_ITERATIONS,
    HINT_TIME_LIMIT,
    Exploration,
    advise_from,
    explore,
    usual_choice,
)
from sengoku.core import Rng, available_games, register, registry_targets

__all__ = [
    "BOT_LEVELS",
    "bot_seed",
    "decide",
    "hint_answer",
    "hint_prior",
    "hint_search",
    "make_pool",
]

#: The agent specs a seat may be handed to: the difficulty levels and the two baselines.
BOT_LEVELS = ("easy", "normal", "hard", "heuristic", "random")


def bot_seed(match_seed: int, seat: int, number: int) -> int:
    """The seed of the bot deciding action ``number`` of a match for ``seat``.

    >>> bot_seed(7, 1, 10) == bot_seed(7, 1, 10) != bot_seed(7, 2, 10)
    True
    """
    return Rng(match_seed ^ 0xB075_EA75 ^ (number << 8) ^ seat).randbelow(2**53)


def decide(level: str, seed: int, view: dict[str, Any], legal: Sequence[Any]) -> str:
    """The notation of the action the bot at ``level`` chooses (runs in a worker)."""
    agent = make_agent(level, seed)
    return str(agent.choose(view, list(legal)))


def hint_prior(seed: int, view: dict[str, Any], legal: Sequence[Any]) -> Any:
    """The move a hint's searches are anchored to (:func:`~sengoku.ai.advisor.usual_choice`)."""
    return usual_choice(view, legal, seed)


def hint_search(seed: int, view: dict[str, Any], legal: Sequence[Any], prior: Any) -> Exploration:
    """One of a hint's searches (runs in a worker; several run at once): ``hard``'s search
    within :data:`~sengoku.ai.advisor.HINT_TIME_LIMIT`."""
    return explore(view, list(legal), seed, prior, HINT_ITERATIONS, HINT_TIME_LIMIT)


def hint_answer(
    seed: int, view: dict[str, Any], legal: Sequence[Any], found: Sequence[Exploration]
) -> dict[str, Any]:
    """The hint from its searches' findings, as the wire has it (runs in a worker)."""
    merged = found[0]
    for other in found[1:]:
        merged.merge(other)
    return advise_from(view, list(legal), merged, seed).to_json()


def _init_worker(targets: dict[str, str], server: int) -> None:
    _leave_with(server)
    known = set(available_games())
    for name, target in targets.items():
        if name not in known:
            register(name, target)


def _leave_with(parent: int) -> None:
    """End this worker when the server process that started it (``parent``, its pid as the
    server saw it) is gone, even killed with SIGKILL, which leaves no time to shut the pool
    down, or gone before this worker finished starting: a watching thread."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="sengoku-parent-watch", daemon=True).start()


def make_pool(workers: int, processes: bool = True) -> Executor:
    """The executor bots think in: ``workers`` processes (or threads, for tests)."""
    if not processes:
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sengoku-bot")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(registry_targets(), os.getpid()),
    )
