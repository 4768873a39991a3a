"""Group commit: the actions of many matches stored in one transaction.

Each live match has one action in flight at most (its lock), but a busy server has many
matches. :class:`GroupCommit` lets their actions share commits: an action that arrives while
a commit is in flight waits for it and goes into the next one, with every other action that
arrived meanwhile. One commit (one fsync on SQLite, one WAL flush on PostgreSQL) then makes a
whole group durable, and each caller hears whether its own action was stored only after
that commit: nobody is told of an action before it would survive a crash.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from starlette.concurrency import run_in_threadpool

from .store import Append

__all__ = ["GroupCommit"]


class GroupCommit:
    """Batches :class:`Append` requests into one call of ``write`` at a time.

    ``write`` (``Store.append_all``) runs in a worker thread and answers, for each action in
    order, whether it was stored; if it raises, every action of that group gets the error.
    ``most`` caps a group (a very large transaction holds the database longer).

    Three actions that arrive together share one commit:

    >>> calls = []
    >>> def write(group):
    ...     calls.append(len(group))
    ...     return [True] * len(group)
    >>> commit = GroupCommit(write)
    >>> async def three():
    ...     return await asyncio.gather(*(commit.append(Append("m%d" % i, 0, 0, "x", False))
    ...                                   for i in range(3)))
    >>> asyncio.run(three()), calls
    ([True, True, True], [3])
    """

    def __init__(self, write: Callable[[Sequence[Append]], list[bool]], most: int = 512) -> None:
        self.write = write
        self.most = most
        self._waiting: list[tuple[Append, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: how many commits and how many actions so far (for the figures)
        self.commits = 0
        self.actions = 0

    async def append(self, action: Append) -> bool:
        """Store ``action`` with the next group; ``True`` once committed, ``False`` if the
        match had moved on (another process stored or took back an action first)."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((action, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_groups())
        # A caller cancelled meanwhile cancels only its wait: its action is still written
        # with the group, and the match catches up from the database on its next action.
        return await future

    async def _write_groups(self) -> None:
        while self._waiting:
            group, self._waiting = self._waiting[: self.most], self._waiting[self.most :]
            try:
                answers = await run_in_threadpool(self.write, [a for a, _ in group])
            except BaseException as exc:  # every caller of this group hears of the failure
                for _, future in group:
                    if not future.done():
                        future.set_exception(exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            self.commits += 1
            self.actions += len(group)
            for (_, future), stored in zip(group, answers, strict=True):
                if not future.done():
                    future.set_result(stored)
