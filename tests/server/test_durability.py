"""Nothing accepted is lost: a killed server comes back where it was; migrations build the
schema the code expects (several processes on one database: test_processes.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from sengoku.core import Match, new_match
from sengoku.server.models import Base
from sengoku.server.store import Seat, Store

from .harness import Server, play_to_end

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


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrations_build_the_schema_and_keep_matches(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """Alembic brings an empty database to the models' schema; migrating again (as every
    start of the server does) keeps the matches stored."""
    store = Store(new_database(backend))
    assert store.revision() is None
    store.migrate()
    assert store.revision() == "0007_owners"
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
    for match_id, game, options in [
        ("old", "rising_sun", {"season_set": "random"}),
        ("set", "rising_sun", {"season_set": "teapot"}),
        ("sh", "shitenno", {"season_set": "random"}),
    ]:  # in the schema of 0005, which the models of today do not describe
        with store.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO matches (id, game, players, options, seed, status, length, "
                    "host_digest, created_at, updated_at, spectator_chat, allow_undo, undos, "
                    "rated, rating_applied, allow_hints) VALUES (:id, :game, 3, :options, :seed, "
                    "'running', 0, :host, :now, :now, false, true, 0, false, false, true)"
                ),
                {
                    "id": match_id,
                    "game": game,
                    "options": json.dumps(options),
                    "seed": seed,
                    "host": "0" * 64,
                    "now": datetime.now(UTC),
                },
            )
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
