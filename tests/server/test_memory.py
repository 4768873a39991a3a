"""Bounded memory: a match loads once however many ask for it at once, and never holds up
another's load; finished matches are replayed once and kept in a bounded cache, and their
replays step on by one action; idle running matches leave memory and come back exactly as
they were. Most tests drive a :class:`Hub` in this process, so they can count the work."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import sengoku.server.hub as hub_module
from sengoku.core import Match
from sengoku.server import ServerSettings, create_app
from sengoku.server.bots import make_pool
from sengoku.server.hub import Hub, MatchSetup
from sengoku.server.live import Connection, LiveMatch, Position
from sengoku.server.replays import Replays
from sengoku.server.store import Seat, Store, StoredMatch, digest

from .harness import Server

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """An empty SQLite database."""
    made = Store(f"sqlite:///{tmp_path / 'sengoku.db'}")
    made.migrate()
    yield made
    made.dispose()


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the matches the hub replayed from the database, one per replay."""
    seen: list[str] = []
    real = hub_module.replay_stored

    def counted(stored: StoredMatch, actions: list[tuple[int, str]]) -> Match:
        seen.append(stored.id)
        return real(stored, actions)

    monkeypatch.setattr(hub_module, "replay_stored", counted)
    return seen


class Acts:
    """How many times ``Match.act`` ran since ``count`` was last set to 0."""

    count = 0


@pytest.fixture
def acts(monkeypatch: pytest.MonkeyPatch) -> Acts:
    """Counts every ``Match.act`` from now on (in any thread)."""
    counter = Acts()
    real = Match.act

    def counted(self: Match, seat: int, action: Any) -> None:
        counter.count += 1
        real(self, seat, action)

    monkeypatch.setattr(Match, "act", counted)
    return counter


def new_hub(store: Store, idle_seconds: float = 600, finished_cache: int = 256) -> Hub:
    """A hub as a server process has one (bots in a thread)."""
    return Hub(store, lambda: make_pool(1, False), "easy", idle_seconds, finished_cache)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a scenario in an event loop of its own."""
    asyncio.run(scenario())


async def new_match(
    hub: Hub,
    kinds: tuple[str, ...] = ("human", "human", "human"),
    seed: int = 3,
    turn_clock: float | None = None,
) -> LiveMatch:
    """A Shitenno match; ``kinds`` is ``"human"`` or a bot level per seat."""
    seats = [
        Seat(n, "human", None, None, digest(f"t{n}"))
        if kind == "human"
        else Seat(n, "bot", kind, None)
        for n, kind in enumerate(kinds)
    ]
    return await hub.create(
        MatchSetup("shitenno", len(kinds), None, seed, seats, turn_clock, digest("h"))
    )


async def play(hub: Hub, live: LiveMatch, actions: int | None = None, seed: int = 0) -> None:
    """Let the people of ``live`` act at random, ``actions`` times or to the end."""
    rng = random.Random(seed)
    while live.match.outcome() is None and (actions is None or actions > 0):
        seat = live.match.to_act()[0]
        await hub.submit(live, seat, rng.choice(live.match.legal_actions(seat)))
        actions = None if actions is None else actions - 1


def seen_by_all(live: LiveMatch) -> list[dict[str, Any]]:
    """What a client of each seat, and a spectator, would be welcomed with (as JSON), but
    for who is connected: views, logs, legal actions, undo count and undo hints."""
    seen = []
    for seat in [*range(live.match.players), None]:
        conn = Connection(seat, _ignore)
        conn.undo_hints = True
        message = json.loads(live.message(conn, "welcome"))
        message.pop("presence")
        seen.append(message)
    return seen


async def _ignore(_text: str) -> None:
    pass


# -- loading ---------------------------------------------------------------------------------


def test_concurrent_requests_for_one_match_share_one_load(
    store: Store, replays: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten requests at once for a match not in memory replay it once and get the same match;
    a load that fails fails for every request waiting on it, and is not remembered: the next
    request loads again."""

    async def scenario() -> None:
        live = await new_match(new_hub(store))
        fresh = new_hub(store)  # as after a restart: nothing in memory
        got = await asyncio.gather(*(fresh.get(live.id) for _ in range(10)))
        assert replays == [live.id]  # create made it without a replay; then one load
        assert all(g is got[0] for g in got) and got[0] is not None

        failing = new_hub(store)
        real = store.actions
        calls = 0

        def broken(match_id: str, since: int = 0) -> list[tuple[int, str]]:
            nonlocal calls
            calls += 1
            if calls == 1:
                time.sleep(0.2)  # the others come while it loads
                raise OSError("the database went away")
            return real(match_id, since)

        monkeypatch.setattr(store, "actions", broken)
        results = await asyncio.gather(
            *(failing.get(live.id) for _ in range(5)), return_exceptions=True
        )
        assert all(isinstance(r, OSError) for r in results), results
        assert calls == 1
        assert await failing.get(live.id) is not None
        assert calls == 2

    run(scenario)


def test_a_slow_load_does_not_hold_up_another_match(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one match's replay is stuck, another match loads and is served."""

    async def scenario() -> None:
        first_hub = new_hub(store)
        slow, quick = await new_match(first_hub, seed=1), await new_match(first_hub, seed=2)
        entered, release = threading.Event(), threading.Event()
        real = hub_module.replay_stored

        def stuck(stored: StoredMatch, actions: list[tuple[int, str]]) -> Match:
            if stored.id == slow.id:
                entered.set()
                release.wait(60)
            return real(stored, actions)

        monkeypatch.setattr(hub_module, "replay_stored", stuck)
        hub = new_hub(store)
        waiting = asyncio.create_task(hub.get(slow.id))
        assert await asyncio.to_thread(entered.wait, 30)
        try:
            other = await asyncio.wait_for(hub.get(quick.id), 30)
            assert other is not None and other.id in hub.live
            assert not waiting.done()
        finally:
            release.set()
        assert (await waiting) is not None

    run(scenario)


# -- finished matches ------------------------------------------------------------------------


def test_finished_matches_are_replayed_once_and_the_cache_is_bounded(
    store: Store, replays: list[str]
) -> None:
    """A finished match nobody watches is replayed from the database once, then served from
    the cache, which holds the ``finished_cache`` matches asked for most recently; a match
    that fell out is replayed again. A cached match runs no tasks (bots, clock); a client that
    connects is served it, and it goes back to the cache when the last client leaves."""

    async def scenario() -> None:
        player = new_hub(store)
        ids = []
        for seed in (1, 2, 3):
            live = await new_match(player, seed=seed)
            await play(player, live, seed=seed)
            ids.append(live.id)
        assert set(player.finished) == set(ids) and not player.live  # ended with nobody there

        hub = new_hub(store, finished_cache=2)
        first = await hub.get(ids[0])
        for _ in range(5):
            assert await hub.get(ids[0]) is first
        assert replays == [ids[0]]
        await hub.get(ids[1])
        await hub.get(ids[2])
        assert list(hub.finished) == ids[1:] and not hub.live
        assert all(not live.tasks for live in hub.finished.values())
        again = await hub.get(ids[0])
        assert again is not None and again is not first
        assert replays == [*ids, ids[0]] and list(hub.finished) == [ids[2], ids[0]]

        conn = Connection(None, _ignore)
        hub.connect(again, conn, 0)
        assert hub.live == {again.id: again} and again.id not in hub.finished
        welcome = conn.outbox.get_nowait()
        assert welcome is not None and json.loads(welcome)["outcome"] is not None
        assert await hub.get(again.id) is again
        await hub.disconnect(again, conn)
        assert not hub.live and list(hub.finished)[-1] == again.id
        assert not again.tasks and replays == [*ids, ids[0]]

    run(scenario)


def test_stepping_through_a_replay_takes_each_action_once(
    tmp_path: Path, replays: list[str], acts: Acts
) -> None:
    """Over HTTP, a finished match is replayed from the database once for its info, its
    record and every step of its replay; stepping through it from the first action to the
    last takes each action once in all (not once per step it is part of)."""
    url = f"sqlite:///{tmp_path / 'sengoku.db'}"
    settings = ServerSettings(database_url=url, bot_workers=1, bot_processes=False)

    async def scenario() -> None:
        async with serving(settings) as client:
            body = {"game": "shitenno", "players": 3, "seed": 4}
            body["seats"] = [{"kind": "bot", "bot": "random"}] * 3
            made = (await client.post("/api/matches", json=body)).json()
            path = f"/api/matches/{made['id']}"
            deadline = time.monotonic() + 120
            while (await client.get(path)).json()["status"] != "finished":
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
        async with serving(settings) as client:  # a restart: nothing in memory
            acts.count = 0
            total = (await client.get(path)).json()["actions"]
            assert acts.count == total and replays == [made["id"]]
            record = (await client.get(f"{path}/record")).json()["record"]
            final = Match.from_record(record)
            acts.count = 0
            for step in range(total + 1):
                got = (await client.get(f"{path}/replay/{step}")).json()
                assert got["number"] == step
            assert acts.count == total
            assert got["view"] == json.loads(json.dumps(final.view(None)))
            assert (await client.get("/api/health")).json()["cached"] == 1
        assert replays == [made["id"]]

    run(scenario)


@contextlib.asynccontextmanager
async def serving(settings: ServerSettings) -> AsyncIterator[httpx.AsyncClient]:
    """The server application in this process, started, with an HTTP client of it."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://sengoku") as client:
            yield client


def test_replay_positions_step_back_and_jump_cheaply_and_stay_bounded(acts: Acts) -> None:
    """Every position a replay asks for is the match after that many actions; stepping back
    takes at most ``every`` actions a step, stepping on one; positions are kept for the
    ``matches`` matches replayed most recently only."""
    final = Match.new("shitenno", 3, seed=5)
    rng = random.Random(5)
    while final.outcome() is None:
        seat = final.to_act()[0]
        final.act(seat, rng.choice(final.legal_actions(seat)))
    total = len(final.history)
    acts.count = 0
    kept = Replays(matches=2, every=8)
    assert kept.position("a", final, total).view(None) == final.view(None)
    assert acts.count == total
    for step in range(total, -1, -1):
        acts.count = 0
        position = kept.position("a", final, step)
        assert acts.count < 8
        assert position.history == final.history[:step]
    for step in rng.sample(range(total + 1), 20):
        position = kept.position("a", final, step)
        expected = final.replayed(step)
        assert (position.view(None), position.log(None)) == (expected.view(None), expected.log())
    kept.position("b", final, 3)
    kept.position("c", final, 3)
    acts.count = 0
    kept.position("a", final, total)  # fell out: from the start again
    assert acts.count == total


# -- idle running matches --------------------------------------------------------------------


def test_an_idle_match_leaves_memory_and_comes_back_the_same(
    store: Store, replays: list[str]
) -> None:
    """A running match nobody is connected to, with no bot to move and no turn clock, leaves
    memory once idle for ``idle_seconds``; the next request replays it from the database,
    and every seat and spectator sees exactly what they saw: view, log, legal actions, the
    count of undos and whether their undo would go through."""

    async def scenario() -> None:
        hub = new_hub(store, idle_seconds=0.2)
        live = await new_match(hub, seed=6)
        await play(hub, live, actions=7, seed=6)
        seat = live.match.history[-1][0]
        await hub.undo(live, seat)
        await play(hub, live, actions=2, seed=7)
        assert live.undos == 1
        before = seen_by_all(live)
        deadline = time.monotonic() + 30
        while live.id in hub.live:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert not live.tasks or all(t.done() for t in live.tasks)
        back = await hub.get(live.id)
        assert back is not None and back is not live and hub.live == {live.id: back}
        assert replays == [live.id]
        assert seen_by_all(back) == before
        await play(hub, back, actions=3, seed=8)  # and play goes on
        assert back.number == live.number + 3

    run(scenario)


def test_matches_with_something_going_on_stay_in_memory(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However long idle, a match stays while a client is connected, a bot is to move (even
    one still thinking), a turn clock runs, or someone holds its lock; a match whose bot seats
    are not to move leaves. On start, only the matches with a bot to move or a turn clock
    running are kept."""

    async def never(*_args: Any) -> str | None:
        await asyncio.Event().wait()
        return None

    async def scenario() -> None:
        hub = new_hub(store, idle_seconds=0)  # no sweeper: evict_idle is called here
        monkeypatch.setattr(hub, "_think", never)
        bots = await new_match(hub, ("easy", "easy", "easy"), seed=1)
        clocked = await new_match(hub, seed=2, turn_clock=3600)
        watched = await new_match(hub, seed=3)
        locked = await new_match(hub, seed=4)
        idle = await new_match(hub, ("easy", "human", "human"), seed=5)
        assert bots.thinking and idle.match.to_act() == [2]
        conn = Connection(0, _ignore, token_digest=digest("t0"))
        hub.connect(watched, conn, 0)
        later = time.monotonic() + 10**6
        async with locked.lock:
            assert hub.evict_idle(later) == [idle.id]
        assert set(hub.live) == {bots.id, clocked.id, watched.id, locked.id}
        await hub.disconnect(watched, conn)
        assert hub.evict_idle(later + 10**6) == [watched.id, locked.id]
        await hub.close()

        restarted = new_hub(store, idle_seconds=0)
        monkeypatch.setattr(restarted, "_think", never)
        assert await restarted.load_running() == 2
        assert set(restarted.live) == {bots.id, clocked.id}
        await restarted.close()

    run(scenario)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_served_match_left_idle_comes_back_to_its_clients(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """``sengoku serve --idle-seconds``: a match everyone left is let go of (``live`` in
    ``/api/health`` drops); a seat that connects again is welcomed with exactly what it saw,
    and plays on."""
    server = Server(new_database(backend), extra=["--idle-seconds", "0.5"])
    try:
        made = server.create("shitenno", 3, ["human", "human", "human"], seed=9)
        tokens = [s["token"] for s in made["seats"]]
        clients = [server.client(made["id"], t) for t in tokens]
        for client in clients:
            client.until(lambda m: m["type"] == "welcome")
        for number in range(1, 6):
            seat = next(n for n, c in enumerate(clients) if c.latest and c.latest["legal"])
            latest = clients[seat].latest
            assert latest is not None
            answer = clients[seat].act(latest["legal"][0]["notation"], expect=latest["number"])
            assert answer["type"] == "accepted"
            for client in clients:
                if client.latest is None or client.latest["number"] < number:
                    client.until(lambda m: m["type"] == "update" and m["number"] == number)  # noqa: B023
        before = clients[0].latest
        for client in clients:
            client.close()
        deadline = time.monotonic() + 30
        while server.get("/api/health").json()["live"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        back = server.client(made["id"], tokens[0])
        welcome = back.until(lambda m: m["type"] == "welcome")
        assert before is not None
        for key in ("view", "legal", "number", "log_length", "undos", "seats", "outcome"):
            assert welcome[key] == before[key], key
        assert server.get(f"/api/matches/{made['id']}").json()["actions"] == 5
        back.close()
    finally:
        server.stop()
    assert "Traceback" not in server.output(), server.output()[-3000:]


def test_a_match_keeps_only_its_latest_positions(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However long a match runs, its server keeps the position it shows and the one its
    clients were last sent (what their next patch applies to), not every earlier one."""
    made: list[weakref.ref[Position]] = []
    real_init = Position.__init__

    def tracked(self: Position, match: Match, number: int) -> None:
        real_init(self, match, number)
        made.append(weakref.ref(self))

    monkeypatch.setattr(Position, "__init__", tracked)

    async def scenario() -> int:
        hub = Hub(store, lambda: make_pool(1, False), "easy")
        seats = [Seat(n, "human", None, None, digest(f"t{n}")) for n in range(3)]
        live = await hub.create(MatchSetup("shitenno", 3, None, 5, seats, None, digest("h")))
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        for seat in (0, 1, None):
            conn = Connection(seat, send, token_digest=None if seat is None else digest(f"t{seat}"))
            conn.patches = True
            hub.connect(live, conn, 0)
        for _ in range(40):
            actor = live.match.to_act()[0]
            await hub.submit(live, actor, live.match.legal_actions(actor)[0])
        await asyncio.sleep(0.05)  # the writers send what is queued
        assert any('"patch"' in text for text in sent)  # the patches were made
        gc.collect()
        alive = sum(ref() is not None for ref in made)
        assert len(made) > 40
        await hub.close()
        return alive

    assert asyncio.run(scenario()) <= 2
