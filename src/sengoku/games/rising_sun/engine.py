"""The agenda engine: tasks run in order until one needs a decision.

A *task* is a tuple of ints, ``(code, *args)``; its handler (registered with :func:`task`)
changes the state, may push more tasks, and may leave a decision in ``state.pending``. A
*decision* kind (registered with :func:`decision`) says which actions are legal and how one is
carried out; carrying it out clears ``pending`` and usually pushes the task that asks again.
The rules modules (``setup``, ``tea``, ``mandates``, ``kami``, ``war``, ``winter``) register
their tasks and decisions here; :mod:`.rules` imports them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sengoku.core import LogEntry, Rng

from .state import State

Log = list[LogEntry]
TaskHandler = Callable[..., None]

#: task code -> handler(state, rng, log, *args)
HANDLERS: dict[int, TaskHandler] = {}


@dataclass(frozen=True)
class Decision:
    """How one kind of pending decision is offered and carried out."""

    legal: Callable[[State, int], list[Any]]
    apply: Callable[[State, Rng, Log, int, Any], None]


DECISIONS: dict[int, Decision] = {}


def task(code: int) -> Callable[[TaskHandler], TaskHandler]:
    """Register the handler of task ``code``."""

    def register(fn: TaskHandler) -> TaskHandler:
        if code in HANDLERS:
            raise ValueError(f"task {code} is registered twice")
        HANDLERS[code] = fn
        return fn

    return register


def decision(
    kind: int,
) -> Callable[[Callable[[State, int], list[Any]]], Callable[[State, int], list[Any]]]:
    """Register the legal-action function of decision ``kind``; its apply function is set
    with :func:`applies`."""

    def register(fn: Callable[[State, int], list[Any]]) -> Callable[[State, int], list[Any]]:
        DECISIONS[kind] = Decision(fn, _unset)
        return fn

    return register


def applies(
    kind: int,
) -> Callable[
    [Callable[[State, Rng, Log, int, Any], None]], Callable[[State, Rng, Log, int, Any], None]
]:
    """Register the function that carries out an action of decision ``kind``."""

    def register(
        fn: Callable[[State, Rng, Log, int, Any], None],
    ) -> Callable[[State, Rng, Log, int, Any], None]:
        DECISIONS[kind] = Decision(DECISIONS[kind].legal, fn)
        return fn

    return register


def _unset(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    raise AssertionError("a decision without an apply function")


#: The log a search's playout passes (:meth:`.rules.RisingSun.apply_quietly`): nobody reads
#: its lines, so the busiest handlers skip making them (``if log is not QUIET``), and what the
#: others add is dropped after each action.
QUIET: Log = []


def push(s: State, *tasks: tuple[int, ...]) -> None:
    """Put ``tasks`` on top of the agenda so that they run next, in the order given."""
    s.agenda.extend(reversed(tasks))


def ask(s: State, *pending: int) -> None:
    """Leave a decision for the engine's caller."""
    s.pending = tuple(pending)


def ask_with(s: State, found: Any, *pending: int) -> None:
    """:func:`ask`, keeping what the asking task ``found`` out for the decision's legal
    actions (read back with :func:`found_for`) until the next action."""
    s.pending = tuple(pending)
    s.asked = (s.pending, found)


def found_for(s: State) -> Any | None:
    """What the task that asked the pending decision kept for it (:func:`ask_with`), or
    ``None``: the legal actions work it out again."""
    asked = s.asked
    if asked is not None and asked[0] is s.pending:
        return asked[1]
    return None


def run(s: State, rng: Rng, log: Log) -> None:
    """Run tasks until a decision is pending or the agenda is empty (the game is over)."""
    agenda = s.agenda
    pop = agenda.pop
    handlers = HANDLERS
    while s.pending is None and agenda:
        task = pop()
        handlers[task[0]](s, rng, log, *task[1:])
