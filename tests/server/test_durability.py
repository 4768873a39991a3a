"""Nothing accepted is lost: a killed server comes back where it was; two server processes
on one PostgreSQL database serve one match; migrations build the schema the code expects."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from sengoku.core import Match, new_match
from sengoku.server.models import Base
from sengoku.server.store import Seat, Store

from .harness import PostgresCluster, Server, play_to_end

BACKENDS = ["sqlite", "postgresql"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_killed_server_restarts_and_the_match_goes_on(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """Every accepted action was committed before anyone heard of it: after SIGKILL and a
    restart on the same database the seat sees exactly what it saw, bots play on, and the
    match ends with every action before the kill in its record."""
    server = Server(new_database(backend))
    try:
        made = server.create("shitenno", 4, ["human", "random", "random", "random"], seed=8)
        token = made["seats"][0]["token"]
        me = server.client(made["id"], token)
        me.until(lambda m: m["type"] == "welcome")
        rng = random.Random(8)
        accepted: list[str] = []
        while len(accepted) < 12:
            latest = me.latest
            assert latest is not None and latest["outcome"] is None
            if latest["legal"]:
                answer = me.act(rng.choice(latest["legal"])["notation"], expect=latest["number"])
                if answer["type"] == "accepted":
                    accepted.append(answer["action"])
            else:
                me.until(lambda m: m["type"] == "update")
        me.drain(0.3)
        before = me.latest
        assert before is not None and before["legal"]  # our turn: nothing else can move
        log_seen = sum(len(m.get("log", [])) for m in me.received)
        server.kill()
        me.close()
        server.start()  # same port, same database
        again = server.client(made["id"], token, log_since=before["log_length"])
        welcome = again.until(lambda m: m["type"] == "welcome")
        assert welcome["number"] == before["number"]
        assert welcome["view"] == before["view"]
        assert welcome["legal"] == before["legal"]
        assert welcome["log"] == []  # it asked for the lines after those it had seen
        final = play_to_end(again, lambda legal: rng.choice(legal)["notation"])
        assert final["outcome"] is not None
        record = server.get(f"/api/matches/{made['id']}/record").json()["record"]
        mine = [n for seat, n in record["actions"] if seat == 0]
        assert mine[: len(accepted)] == accepted
        assert Match.from_record(record).outcome() is not None
        assert log_seen > 0
        again.close()
    finally:
        server.stop()


def test_two_server_processes_on_one_postgresql_serve_one_match(
    postgres: PostgresCluster,
) -> None:
    """Scale-out: actions to one match are serialised through the database, and each
    process tells its own clients of actions the other stored (LISTEN/NOTIFY)."""
    url = postgres.new_database()
    first, second = Server(url), Server(url)
    try:
        made = first.create("shitenno", 4, ["human", "human", "random", "random"], seed=31)
        red = first.client(made["id"], made["seats"][0]["token"])
        blue = second.client(made["id"], made["seats"][1]["token"])
        finals: dict[str, dict[str, Any]] = {}
        errors: list[BaseException] = []

        def run(name: str, client: Any, seed: int) -> None:
            rng = random.Random(seed)
            try:
                finals[name] = play_to_end(client, lambda legal: rng.choice(legal)["notation"])
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [
            threading.Thread(target=run, args=("red", red, 1)),
            threading.Thread(target=run, args=("blue", blue, 2)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert not errors, errors
        assert finals["red"]["outcome"] == finals["blue"]["outcome"] is not None
        assert finals["red"]["number"] == finals["blue"]["number"]
        one = first.get(f"/api/matches/{made['id']}/record").json()["record"]
        two = second.get(f"/api/matches/{made['id']}/record").json()["record"]
        assert one == two
        assert Match.from_record(one).outcome() is not None
        assert {seat for seat, _ in one["actions"]} == {0, 1, 2, 3}
        red.close()
        blue.close()
    finally:
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.output(), server.output()[-3000:]


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrations_build_the_schema_and_keep_matches(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """Alembic brings an empty database to the models' schema; migrating again (as every
    start of the server does) keeps the matches stored."""
    store = Store(new_database(backend))
    assert store.revision() is None
    store.migrate()
    assert store.revision() == "0006_rising_sun_sets"
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    store.create(
        "m1", "shitenno", 3, {}, 5, "0" * 64, [Seat(0, "human", None, "Ann", "1" * 64)], None
    )
    assert store.append("m1", 0, 0, "add troop Bu to the lot", False, None)
    assert not store.append("m1", 0, 1, "add troop Sa to the lot", False, None)  # taken
    store.migrate()
    kept = store.get("m1")
    assert kept is not None and kept.length == 1 and kept.seats[0].name == "Ann"
    assert store.actions("m1") == [(0, "add troop Bu to the lot")]
    store.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_stored_rising_sun_matches_keep_their_random_set(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """rising_sun.md §17.4: a random Set now leaves Tower out unless random_set_tower is
    set; migration 0006 names the option in the Rising Sun matches stored before with
    season_set=random, so a match whose Set was Tower replays as it was played. Others are
    left as they were."""
    store = Store(new_database(backend))
    store.migrate("0005_advisor")
    seed = next(  # a match that drew Tower when all four Sets were drawn
        s
        for s in range(100)
        if new_match(
            "rising_sun", 3, seed=s, options={"season_set": "random", "random_set_tower": True}
        ).view(0)["season_set"]
        == "tower"
    )
    seat = [Seat(0, "human", None, "Ann", "1" * 64)]
    store.create("old", "rising_sun", 3, {"season_set": "random"}, seed, "0" * 64, seat, None)
    store.create("set", "rising_sun", 3, {"season_set": "teapot"}, seed, "0" * 64, seat, None)
    store.create("sh", "shitenno", 3, {"season_set": "random"}, seed, "0" * 64, seat, None)
    store.migrate()
    old = store.get("old")
    assert old is not None and old.options == {"season_set": "random", "random_set_tower": True}
    assert (
        new_match("rising_sun", 3, seed=seed, options=old.options).view(0)["season_set"] == "tower"
    )
    assert [store.get(m).options for m in ("set", "sh")] == [
        {"season_set": "teapot"},
        {"season_set": "random"},
    ]
    store.dispose()
