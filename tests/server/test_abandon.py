"""Abandoned matches: the host ends a running match that will not go on, and one nobody
moves in for the server's ``--abandon-idle-days`` ends by itself; either way it takes no more
moves, has no outcome and leaves the lobby's running list (docs/protocol.md, "Abandoning a
match")."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from sengoku.server.store import Seat, Store

from .conftest import BACKENDS, backend_server
from .harness import Person, PostgresCluster, Proxy, Server

Make = Callable[[Server], Person]


def listed(server: Server, status: str) -> set[str]:
    return {m["id"] for m in server.get(f"/api/matches?status={status}").json()}


def abandon(server: Server, match_id: str, token: str | None) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return server.post(f"/api/matches/{match_id}/abandon", headers=headers)


def test_the_host_abandons_a_running_match_and_everyone_is_told(server: Server) -> None:
    """Only the host's key abandons a match; its players and spectators get an update that
    says so, with no choices; a move after it is refused and changes nothing; the lobby
    lists it as abandoned, no longer as running; a second abandon is refused."""
    made = server.create("shitenno", 3, ["human", "human", "human"])
    match_id, seat_tokens = made["id"], [s["token"] for s in made["seats"]]
    acting = server.get(f"/api/matches/{match_id}").json()["to_act"][0]
    first = server.client(match_id, seat_tokens[acting])
    watcher = server.client(match_id)
    welcome = first.until(lambda m: m["type"] == "welcome")
    assert welcome["legal"] and "abandoned" not in welcome
    assert match_id in listed(server, "running")

    for token in (None, seat_tokens[0], "not-a-key"):
        refused = abandon(server, match_id, token)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    done = abandon(server, match_id, made["host_token"])
    assert done.status_code == 200, done.text
    assert done.json() == {"match": match_id, "status": "abandoned"}

    for client in (first, watcher):
        told = client.until(lambda m: m["type"] == "update" and m.get("abandoned") is True)
        assert told["legal"] == [] and told["outcome"] is None and told["thinking"] == []
    choice = {k: v for k, v in welcome["legal"][0].items() if k != "message"}
    answer = first.act(choice, ref="late", expect=welcome["number"])
    assert answer["type"] == "error" and answer["code"] == "match_abandoned", answer
    stored = server.get(f"/api/matches/{match_id}").json()
    assert stored["status"] == "abandoned" and stored["actions"] == welcome["number"]
    assert stored["to_act"] == [] and stored["outcome"] is None
    assert match_id not in listed(server, "running")
    assert match_id in listed(server, "abandoned") and match_id in listed(server, "all")
    again = abandon(server, match_id, made["host_token"])
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_running"

    later = server.client(match_id, seat_tokens[(acting + 1) % 3])
    hello = later.until(lambda m: m["type"] == "welcome")
    assert hello["abandoned"] is True and hello["legal"] == []
    for client in (first, watcher, later):
        client.close()


def test_an_abandoned_match_stops_its_bots(server: Server) -> None:
    """The bots of an abandoned match stop: no move is stored after it."""
    made = server.create("shogun", 5, ["random"] * 5)
    assert abandon(server, made["id"], made["host_token"]).status_code == 200
    stopped = server.get(f"/api/matches/{made['id']}").json()
    time.sleep(1.0)
    after = server.get(f"/api/matches/{made['id']}").json()
    assert stopped["status"] == after["status"] == "abandoned"
    assert after["actions"] == stopped["actions"] and after["outcome"] is None


def test_a_rated_match_is_not_its_hosts_to_abandon(server: Server, person: Make) -> None:
    """The host of a rated match cannot end it (that would dodge a loss): it ends by play,
    or after the server's idle days; its players' ratings do not move."""
    host = person(server)
    host.sign_up(f"abandon_{server.db_url[:6]}")
    seats = [{"kind": "human", "mine": True}, {"kind": "bot", "bot": "random"}]
    made = host.post(
        "/api/matches",
        json={"game": "shitenno", "players": 3, "seats": [*seats, seats[1]], "rated": True},
    )
    assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    refused = abandon(server, match_id, made.json()["host_token"])
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "rated"
    assert server.get(f"/api/matches/{match_id}").json()["status"] == "running"


@pytest.fixture(scope="module", params=BACKENDS)
def hasty(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A server that abandons matches nobody moved in for two seconds."""
    days = 2 / 86400
    yield from backend_server(
        request, tmp_path_factory, extra=["--abandon-idle-days", str(days), "--no-ws-compression"]
    )


def test_a_match_nobody_moves_in_is_abandoned_after_the_idle_days(hasty: Server) -> None:
    """``--abandon-idle-days``: a running match without a move for that long is abandoned,
    and a client watching it is told (that a match which moved stays running is the store's
    test below: here a bot's first move could come late on a busy machine)."""
    idle = hasty.create("shitenno", 3, ["human"] * 3)
    watcher = hasty.client(idle["id"])
    watcher.until(lambda m: m["type"] == "welcome")
    told = watcher.until(lambda m: m.get("abandoned") is True, timeout=15)
    assert told["legal"] == []
    assert hasty.get(f"/api/matches/{idle['id']}").json()["status"] == "abandoned"
    watcher.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_action_is_stored_once_a_match_is_abandoned(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """The claim of an action is guarded by the match's status, so a move in flight in
    another process when the match was abandoned is refused, not stored; only running
    matches idle since the cut-off are abandoned."""
    store = Store(new_database(backend))
    store.migrate()
    for name in ("old", "new"):
        store.create(name, "shitenno", 3, {}, 1, "0" * 64, [Seat(0, "human", None, None)], None)
    assert store.append("old", 0, 0, "first", False, None)
    assert store.abandon_idle(datetime.now(UTC) - timedelta(hours=1)) == []
    cut = datetime.now(UTC)
    time.sleep(0.05)
    assert store.append("new", 0, 0, "first", False, None)
    assert store.abandon_idle(cut) == ["old"]
    assert not store.append("old", 1, 0, "second", False, None)
    assert store.actions("old") == [(0, "first")]
    assert not store.abandon("old")
    assert store.abandon("new") and not store.append("new", 1, 0, "second", False, None)
    gone = store.get("new")
    assert gone is not None and gone.status == "abandoned" and gone.outcome is None
    store.dispose()


def test_an_abandon_sent_to_another_process_reaches_the_owner(postgres: PostgresCluster) -> None:
    """Two processes behind the proxy: an abandon sent to the process that does not own the
    match is redirected to the owner (``307``, ``?at=NAME``), whose clients are told and
    whose moves are refused."""
    url = postgres.new_database()
    first, second = Server(url, name="s1"), Server(url, name="s2")
    proxy = Proxy([first, second])
    try:
        made = first.create("shitenno", 3, ["human"] * 3)
        acting = first.get(f"/api/matches/{made['id']}").json()["to_act"][0]
        player = proxy.client(made["id"], made["seats"][acting]["token"])
        welcome = player.until(lambda m: m["type"] == "welcome")
        sent = abandon(second, made["id"], made["host_token"])
        assert sent.status_code == 307
        assert sent.headers["location"] == f"/api/matches/{made['id']}/abandon?at=s1"
        headers = {"authorization": f"Bearer {made['host_token']}"}
        assert proxy.post(sent.headers["location"], headers=headers).status_code == 200
        told = player.until(lambda m: m.get("abandoned") is True)
        assert told["legal"] == []
        choice = {k: v for k, v in welcome["legal"][0].items() if k != "message"}
        answer = player.act(choice, ref="late", expect=welcome["number"])
        assert answer["code"] == "match_abandoned", answer
        assert proxy.get(f"/api/matches/{made['id']}").json()["actions"] == welcome["number"]
        player.close()
    finally:
        proxy.stop()
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.output(), server.output()[-3000:]
