"""Group commit: actions of many matches that arrive together share one transaction, each is
stored or refused on its own, and nobody hears of an action before its commit."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence

import pytest

from sengoku.server.commit import GroupCommit
from sengoku.server.store import Append, Seat, Store
from tests.server.conftest import BACKENDS


def _store(url: str, matches: int) -> Store:
    store = Store(url)
    store.migrate()
    for i in range(matches):
        store.create(f"m{i}", "shitenno", 3, {}, i, "0" * 64, [Seat(0, "human", None, None)], None)
    return store


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_transaction_stores_each_action_or_refuses_it_alone(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """``append_all`` stores the actions that are still next and refuses, writing nothing for
    them, those whose match moved on or took an action back; the answers keep the order."""
    store = _store(new_database(backend), 3)
    assert store.append("m1", 0, 0, "first", False, None)
    answers = store.append_all(
        [
            Append("m2", 0, 0, "a", False),
            Append("m1", 0, 0, "b", False),  # m1 already has action 0
            Append("m0", 0, 0, "c", False, {"scores": [1]}),
            Append("m1", 1, 0, "d", False, None, undos=1),  # m1 took back none
        ]
    )
    assert answers == [True, False, True, False]
    assert store.actions("m0") == [(0, "c")] and store.actions("m2") == [(0, "a")]
    assert store.actions("m1") == [(0, "first")]
    finished = store.get("m0")
    assert finished is not None and finished.status == "finished" and finished.length == 1
    assert store.progress("m1") == (1, 0)
    store.dispose()


def test_actions_arriving_during_a_commit_go_into_the_next_one(
    new_database: Callable[[str], str],
) -> None:
    """While one commit is in flight, the actions that arrive wait and then share the next
    commit; each caller's answer comes only after the commit that holds its action."""
    store = _store(new_database("sqlite"), 20)
    release = threading.Event()
    groups: list[list[str]] = []

    def write(group: Sequence[Append]) -> list[bool]:
        if not groups:
            release.wait(10)  # hold the first commit until the others have arrived
        answers = store.append_all(group)
        groups.append([a.match_id for a in group])
        return answers

    async def run() -> list[bool]:
        commit = GroupCommit(write)
        first = asyncio.create_task(commit.append(Append("m0", 0, 0, "x", False)))
        await asyncio.sleep(0.05)  # the first commit is in flight now
        rest = [
            asyncio.create_task(commit.append(Append(f"m{i}", 0, 0, "x", False)))
            for i in range(1, 20)
        ]
        await asyncio.sleep(0.05)
        assert not first.done() and not any(t.done() for t in rest)  # nobody told yet
        release.set()
        answers = await asyncio.gather(first, *rest)
        assert (commit.commits, commit.actions) == (2, 20)
        return answers

    assert asyncio.run(run()) == [True] * 20
    assert groups == [["m0"], [f"m{i}" for i in range(1, 20)]]
    assert all(store.actions(f"m{i}") == [(0, "x")] for i in range(20))
    store.dispose()


def test_a_failed_commit_fails_every_action_of_its_group_and_not_the_next() -> None:
    """When the transaction fails, every caller of that group gets the error (their actions
    were not stored), and a later group is written as usual."""
    calls: list[int] = []

    def write(group: Sequence[Append]) -> list[bool]:
        calls.append(len(group))
        if len(calls) == 1:
            raise OSError("disk full")
        return [True] * len(group)

    async def run() -> tuple[list[object], bool]:
        commit = GroupCommit(write)
        failed = await asyncio.gather(
            *(commit.append(Append(f"m{i}", 0, 0, "x", False)) for i in range(3)),
            return_exceptions=True,
        )
        return failed, await commit.append(Append("m9", 0, 0, "x", False))

    failed, later = asyncio.run(run())
    assert [type(e) for e in failed] == [OSError] * 3 and later is True
    assert calls == [3, 1]
