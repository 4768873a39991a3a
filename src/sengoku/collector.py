"""Python's cyclic garbage collector, set for a process that plays many games.

A game server or a simulation makes many short-lived containers per action (actions, log
lines, views, patches), nearly all freed by reference counting, while it holds much
long-lived data (the games' tables, live matches). With Python's default thresholds (700, 10,
10) the collector runs every 700 new containers and re-examines the whole heap about every
70,000: at 100 server matches it took a fifth of the server's CPU, its full passes holding up
every match for about 0.2 s, and a tenth of a compiled build's random play
(docs/performance.md). :func:`tune_collector` freezes what exists out of its passes
(:func:`gc.freeze`) and makes them rarer (:data:`COLLECTOR_THRESHOLDS`); reference cycles are
still collected. ``sengoku serve`` and the simulation's worker processes call it; ``sengoku
simulate`` and ``tournament`` play their games inside :func:`collector_tuned`, which puts the
collector back as it was afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Python's cyclic garbage collector's thresholds, as :func:`tune_collector` sets them.
COLLECTOR_THRESHOLDS = (20_000, 20, 20)


def tune_collector() -> None:
    """Set this process's garbage collector for playing many games (see the module).

    >>> before = gc.get_threshold()
    >>> tune_collector()
    >>> gc.get_threshold() == COLLECTOR_THRESHOLDS
    True
    >>> gc.unfreeze(); gc.set_threshold(*before)
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


@contextmanager
def collector_tuned() -> Iterator[None]:
    """:func:`tune_collector` for the ``with`` block only, for a command run inside a longer
    process: afterwards the thresholds are as before and nothing is left frozen.

    >>> before = gc.get_threshold()
    >>> with collector_tuned():
    ...     gc.get_threshold() == COLLECTOR_THRESHOLDS
    True
    >>> gc.get_threshold() == before
    True
    """
    before = gc.get_threshold()
    tune_collector()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
