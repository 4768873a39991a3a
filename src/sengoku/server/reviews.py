"""Reviews of finished matches, made in the background (:mod:`sengoku.ai.advisor`).

When a match with a person at the table ends, its review is asked for (a ``reviews`` row,
``pending``). One task per server process takes the waiting reviews one at a time (a guarded
statement, so two processes never take the same one), judges every decision in its own pool
of worker processes (apart from the bots', so a review never slows a bot's move) and stores
the JSON. A review a stopped process left ``running`` is taken again after half an hour; one
left waiting is made after the next start. The review depends only on the record and the
budget, so it is the same whichever process makes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from starlette.concurrency import run_in_threadpool

from sengoku.ai.advisor import review

from .hub import replay_stored
from .store import Store

__all__ = ["Reviews"]

log = logging.getLogger("sengoku.server")


class Reviews:
    """The reviews of one server process: asks for them and makes them.

    Args:
        store: the database.
        new_pool: makes the executor the decisions are judged in.
        iterations: the search's budget per decision (0: no reviews are made).
    """

    def __init__(self, store: Store, new_pool: Callable[[], Executor], iterations: int) -> None:
        self.store = store
        self.new_pool = new_pool
        self.iterations = iterations
        self._pool: Executor | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def start(self) -> None:
        """Start making reviews (the waiting ones first)."""
        if self.iterations and self._task is None:
            self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop: a review being made is left ``running``, to be taken again later. The
        workers' pool goes first, so that the thread waiting on it ends at once."""
        self._closing = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._pool = None

    async def ask(self, match_id: str) -> bool:
        """Ask for the review of the finished match ``match_id`` (once); whether this asked."""
        if not self.iterations:
            return False
        asked = await run_in_threadpool(self.store.queue_review, match_id, self.iterations)
        self._wake.set()
        return asked

    def ended(self, match: Any) -> None:
        """A match this process ended (a :class:`~.live.LiveMatch`): ask for its review if
        a person played in it (a match of bots alone is reviewed when someone asks)."""
        if any(seat.kind != "bot" for seat in match.stored.seats):
            task = asyncio.get_running_loop().create_task(self.ask(match.id))
            task.add_done_callback(_log_failure)

    async def status(self, match_id: str) -> tuple[str, dict[str, Any] | None] | None:
        """``(status, review JSON once done)``, or ``None`` if none was asked for."""
        found = await run_in_threadpool(self.store.review, match_id)
        if found is None:
            return None
        status, data = found
        return status, json.loads(data) if data else None

    async def _run(self) -> None:
        while True:
            taken = await run_in_threadpool(self.store.take_review)
            if taken is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), 60.0)
                continue
            match_id, iterations = taken
            try:
                data = await run_in_threadpool(self._make, match_id, iterations)
            except asyncio.CancelledError:
                raise
            except Exception:
                if self._closing:  # the pool was shut down under it: taken again later
                    return
                log.exception("the review of match %s failed", match_id)
                data = None
            await run_in_threadpool(self.store.finish_review, match_id, data)

    def _make(self, match_id: str, iterations: int) -> str:
        """The review's JSON (in a thread; the decisions are judged in the pool)."""
        stored = self.store.get(match_id)
        if stored is None or stored.status != "finished":
            raise LookupError(f"match {match_id} is not a finished match")
        match = replay_stored(stored, self.store.actions(match_id))
        if self._closing:
            raise RuntimeError("the server is stopping")
        if self._pool is None:
            self._pool = self.new_pool()
        pool = self._pool
        result = review(match, iterations, mapper=lambda f, tasks: pool.map(f, tasks, chunksize=4))
        return json.dumps(result.to_json())


def _log_failure(task: asyncio.Task[bool]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("asking for a review failed: %s", task.exception())
