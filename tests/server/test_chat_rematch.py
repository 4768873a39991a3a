"""Chat and rematch through real servers, on SQLite and on PostgreSQL (docs/protocol.md)."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from sengoku.server.store import Store

from .harness import Client, PostgresCluster, Proxy, Server, play_out_at_random

BACKENDS = ["sqlite", "postgresql"]
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def _create(server: Server, **body: Any) -> dict[str, Any]:
    response = server.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _two_people(server: Server, **extra: Any) -> dict[str, Any]:
    """A 2-player Shitenno match of two people, Aki (Red) and an unnamed Blue."""
    return _create(
        server,
        game="shitenno",
        players=2,
        seats=[{"kind": "human", "name": "Aki"}, {"kind": "human"}],
        **extra,
    )


def _chat(client: Client, text: Any, ref: str = "c") -> dict[str, Any]:
    """Send a chat message; return the answer to it (its own copy, or an error)."""
    client.send({"type": "chat", "text": text, "ref": ref})
    return client.until(lambda m: m["type"] in ("chat", "error") and m.get("ref") == ref)


def _next_chat(client: Client) -> dict[str, Any]:
    return client.until(lambda m: m["type"] == "chat", timeout=20)


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


# -- chat -------------------------------------------------------------------------------------


def test_chat_reaches_both_seats_and_the_spectators_as_sent(server: Server) -> None:
    made = _two_people(server)
    red = server.client(made["id"], made["seats"][0]["token"])
    blue = server.client(made["id"], made["seats"][1]["token"])
    watcher = server.client(made["id"])
    for client in (red, blue, watcher):
        welcome = client.until(lambda m: m["type"] == "welcome")
        assert welcome["chat"] == []
    text = '<img src=x onerror="alert(1)"> &amp; <b>hi</b>'
    mine = _chat(red, text, ref="r1")
    assert mine["ref"] == "r1"
    assert mine["seat"] == 0 and mine["name"] == "Aki" and mine["text"] == text
    assert ISO.match(mine["at"]), mine["at"]
    for client in (blue, watcher):
        got = _next_chat(client)
        assert got == {"type": "chat", "seat": 0, "name": "Aki", "text": text, "at": mine["at"]}
    answer = _chat(blue, "  good luck\n ")
    assert answer["seat"] == 1 and answer["name"] == "Blue" and answer["text"] == "good luck"
    assert _next_chat(red)["text"] == "good luck"
    assert _next_chat(watcher)["text"] == "good luck"
    # the host did not let spectators write: refused, and nobody hears of it
    refused = _chat(watcher, "hello from the stands", ref="w")
    assert refused["type"] == "error" and refused["code"] == "chat_forbidden", refused
    # chat does not count as a move, and a new client gets the recent messages
    later = server.client(made["id"])
    welcome = later.until(lambda m: m["type"] == "welcome")
    assert welcome["number"] == 0
    assert [(c["seat"], c["name"], c["text"]) for c in welcome["chat"]] == [
        (0, "Aki", text),
        (1, "Blue", "good luck"),
    ]
    red.drain(0.3)
    assert not any(m.get("text") == "hello from the stands" for m in red.received)
    for client in (red, blue, watcher, later):
        client.close()


def test_chat_limits_have_clear_errors(server: Server) -> None:
    made = _two_people(server)
    red = server.client(made["id"], made["seats"][0]["token"])
    red.until(lambda m: m["type"] == "welcome")
    for text, code in [
        ("", "chat_empty"),
        (" \n\t ", "chat_empty"),
        ("\x00\x07\u202e", "chat_empty"),
        ("x" * 501, "chat_too_long"),
        (42, "bad_message"),
        (None, "bad_message"),
    ]:
        answer = _chat(red, text, ref="bad")
        assert answer["type"] == "error" and answer["code"] == code, (text, answer)
        assert answer["message"]
    long = _chat(red, "y" * 500, ref="long")
    assert long["type"] == "chat" and len(long["text"]) == 500
    clean = _chat(red, "a\x00b\u202ec\r\nd\x1b", ref="clean")
    assert clean["text"] == "abc d"
    for n in range(3):
        assert _chat(red, f"m{n}", ref=f"m{n}")["type"] == "chat"
    # five in ten seconds (refused messages do not count); the sixth is refused
    flood = _chat(red, "one more", ref="flood")
    assert flood["type"] == "error" and flood["code"] == "chat_rate", flood
    assert "5 chat messages every 10 seconds" in flood["message"]
    # the others' limits are their own
    blue = server.client(made["id"], made["seats"][1]["token"])
    blue.until(lambda m: m["type"] == "welcome")
    assert _chat(blue, "my turn to talk")["type"] == "chat"
    stored = blue.latest
    assert stored is not None
    assert [c["text"] for c in stored["chat"]] == ["y" * 500, "abc d", "m0", "m1", "m2"]
    red.close()
    blue.close()


def test_spectators_chat_when_the_host_allows_it(server: Server) -> None:
    made = _two_people(server, spectator_chat=True)
    assert server.get(f"/api/matches/{made['id']}").json()["spectator_chat"] is True
    red = server.client(made["id"], made["seats"][0]["token"])
    watcher = server.client(made["id"])
    red.until(lambda m: m["type"] == "welcome")
    watcher.until(lambda m: m["type"] == "welcome")
    mine = _chat(watcher, "nice move")
    assert mine["seat"] is None and mine["name"] == "Spectator"
    got = _next_chat(red)
    assert got["seat"] is None and got["name"] == "Spectator" and got["text"] == "nice move"
    red.close()
    watcher.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_chat_is_kept_across_a_restart(backend: str, new_database: Callable[[str], str]) -> None:
    server = Server(new_database(backend))
    try:
        made = _two_people(server)
        red = server.client(made["id"], made["seats"][0]["token"])
        red.until(lambda m: m["type"] == "welcome")
        for n in range(3):
            assert _chat(red, f"line {n}", ref=str(n))["type"] == "chat"
        server.kill()
        red.close()
        server.start()
        again = server.client(made["id"], made["seats"][1]["token"])
        welcome = again.until(lambda m: m["type"] == "welcome")
        assert [c["text"] for c in welcome["chat"]] == ["line 0", "line 1", "line 2"]
        assert all(c["seat"] == 0 and c["name"] == "Aki" for c in welcome["chat"])
        again.close()
    finally:
        server.stop()


def test_the_welcome_has_the_last_fifty_messages(server: Server) -> None:
    made = _two_people(server)
    clients = [server.client(made["id"], made["seats"][s]["token"]) for s in (0, 1)]
    for client in clients:
        client.until(lambda m: m["type"] == "welcome")
    # eleven connections of the seats, each within its own rate
    for first in range(0, 55, 5):
        talker = server.client(made["id"], made["seats"][first // 5 % 2]["token"])
        for n in range(first, first + 5):
            assert _chat(talker, f"#{n}", ref=str(n))["type"] == "chat"
        talker.close()
    late = server.client(made["id"])
    welcome = late.until(lambda m: m["type"] == "welcome")
    assert [c["text"] for c in welcome["chat"]] == [f"#{n}" for n in range(5, 55)]
    for client in (*clients, late):
        client.close()


def test_chat_reaches_the_clients_of_another_process(postgres: PostgresCluster) -> None:
    """Two processes behind the proxy: both seats reach the match's owner, which passes
    chat between them and keeps the recent messages."""
    url = postgres.new_database()
    first, second = Server(url, name="s1"), Server(url, name="s2")
    proxy = Proxy([first, second])
    try:
        made = _two_people(first)
        red = proxy.client(made["id"], made["seats"][0]["token"])
        blue = proxy.client(made["id"], made["seats"][1]["token"])
        red.until(lambda m: m["type"] == "welcome")
        blue.until(lambda m: m["type"] == "welcome")
        _chat(red, "across processes")
        got = _next_chat(blue)
        assert got["seat"] == 0 and got["text"] == "across processes"
        _chat(blue, "and back")
        assert _next_chat(red)["text"] == "and back"
        later = proxy.client(made["id"])  # the owner keeps the recent messages
        welcome = later.until(lambda m: m["type"] == "welcome")
        assert [c["text"] for c in welcome["chat"]] == ["across processes", "and back"]
        for client in (red, blue, later):
            client.close()
    finally:
        proxy.stop()
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.output(), server.output()[-3000:]


# -- rematch ----------------------------------------------------------------------------------


def _tokens_in(value: Any) -> str:
    return json.dumps(value)


def test_a_rematch_has_the_same_seats_and_options_and_every_client_is_told(
    server: Server,
) -> None:
    made = _create(
        server,
        game="shitenno",
        players=3,
        options={"end_after_odd_year": True, "open_hands": True},
        seats=[
            {"kind": "human", "name": "Aki"},
            {"kind": "human", "name": "Bo"},
            {"kind": "bot", "bot": "random", "name": "Robo"},
        ],
        turn_clock=600,
        spectator_chat=True,
    )
    match_id, host = made["id"], made["host_token"]
    old = [made["seats"][s]["token"] for s in (0, 1)]
    red, blue = server.client(match_id, old[0]), server.client(match_id, old[1])
    watcher = server.client(match_id)
    for client in (red, blue, watcher):
        client.until(lambda m: m["type"] == "welcome")

    # refused before the end, and without a key of the match
    early = server.post(f"/api/matches/{match_id}/rematch", headers=_bearer(old[0]))
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
    for headers in ({}, _bearer("not-a-key")):
        refused = server.post(f"/api/matches/{match_id}/rematch", headers=headers)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token"
    assert server.get(f"/api/matches/{match_id}/rematch").json()["error"]["code"] == "no_rematch"

    play_out_at_random(red, blue)
    watcher.until(lambda m: m["type"] == "update" and m["outcome"] is not None)

    # both players ask at once: one rematch, each gets only their own new link
    answers: dict[int, httpx.Response] = {}

    def ask(seat: int) -> None:
        answers[seat] = server.post(f"/api/matches/{match_id}/rematch", headers=_bearer(old[seat]))

    threads = [threading.Thread(target=ask, args=(s,)) for s in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(a.status_code for a in answers.values()) == [200, 201], answers
    mine, theirs = answers[0].json(), answers[1].json()
    new_id = mine["match"]
    assert theirs["match"] == new_id != match_id
    assert mine["seat"] == 0 and theirs["seat"] == 1
    assert mine["join_url"] == f"{server.base}/play/{new_id}#token={mine['token']}"
    assert mine["spectate_url"] == f"{server.base}/play/{new_id}"
    assert "host_token" not in mine
    new_tokens = {mine["token"], theirs["token"]}
    assert len(new_tokens) == 2 and not new_tokens & {*old, host}
    assert theirs["token"] not in answers[0].text and mine["token"] not in answers[1].text

    # every client of the old match is told where the rematch is, and nothing more
    for client in (red, blue, watcher):
        told = client.until(lambda m: m["type"] == "rematch", timeout=20)
        assert told == {"type": "rematch", "match": new_id}
    hidden = ((red, {theirs["token"]}), (blue, {mine["token"]}), (watcher, new_tokens))
    for client, others in hidden:
        client.drain(0.3)
        seen = _tokens_in(client.received)
        assert not any(token in seen for token in others)
    late = server.client(match_id)
    late.until(lambda m: m["type"] == "welcome")
    assert late.until(lambda m: m["type"] == "rematch") == {"type": "rematch", "match": new_id}
    assert server.get(f"/api/matches/{match_id}").json()["rematch"] == new_id

    # the same game, players, options, seats, clock and chat setting; a new seed
    before = server.get(f"/api/matches/{match_id}").json()
    after = server.get(f"/api/matches/{new_id}").json()
    for key in ("game", "players", "options", "seats", "turn_clock", "spectator_chat"):
        assert after[key] == before[key], key
    assert after["status"] == "running" and after["rematch"] is None
    assert after["options"]["end_after_odd_year"] is True
    store = Store(server.db_url)
    try:
        old_stored, new_stored = store.get(match_id), store.get(new_id)
        assert old_stored is not None and new_stored is not None
        assert new_stored.seed != old_stored.seed
    finally:
        store.dispose()

    # asking again gives the same link; the host gets the new host key, a spectator no key
    again = server.post(f"/api/matches/{match_id}/rematch", headers=_bearer(old[0]))
    assert again.status_code == 200 and again.json() == mine
    assert server.get(f"/api/matches/{match_id}/rematch", headers=_bearer(old[1])).json() == theirs
    hosting = server.post(f"/api/matches/{match_id}/rematch", headers=_bearer(host)).json()
    assert hosting["seat"] is None and hosting["match"] == new_id
    assert "token" not in hosting and "join_url" not in hosting
    assert not new_tokens & set(_tokens_in(hosting).split('"'))
    public = server.get(f"/api/matches/{match_id}/rematch").json()
    assert public == {
        "match": new_id,
        "seat": None,
        "spectate_url": mine["spectate_url"],
        "websocket": f"/ws/matches/{new_id}",
    }
    changed = server.post(
        f"/api/matches/{new_id}/seats/2",
        json={"kind": "bot", "bot": "easy"},
        headers=_bearer(hosting["host_token"]),
    )
    assert changed.status_code == 200, changed.text
    not_host = server.post(
        f"/api/matches/{new_id}/seats/2",
        json={"kind": "bot", "bot": "easy"},
        headers=_bearer(host),
    )
    assert not_host.status_code == 403

    # each new key opens its own seat of the rematch; the old keys open none
    for token, seat in ((mine["token"], 0), (theirs["token"], 1)):
        client = server.client(new_id, token)
        assert client.until(lambda m: m["type"] in ("welcome", "error"))["seat"] == seat
        client.close()
    for token in old:
        client = server.client(new_id, token)
        refused_ws = client.until(lambda m: m["type"] in ("welcome", "error"))
        assert refused_ws["type"] == "error" and refused_ws["code"] == "bad_token"
        client.close()
    for client in (red, blue, watcher, late):
        client.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_database_of_the_first_schema_is_upgraded_for_chat(
    backend: str, new_database: Callable[[str], str]
) -> None:
    """A match stored before chat existed keeps everything, with no spectator chat, no
    rematch and no messages."""
    store = Store(new_database(backend))
    store.migrate("0001")
    with store.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO matches (id, game, players, options, seed, status, length,"
                " host_digest, created_at, updated_at) VALUES ('old', 'shitenno', 2, '{}', 3,"
                " 'running', 0, :h, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"h": "0" * 64},
        )
    store.migrate()
    kept = store.get("old")
    assert kept is not None and kept.seed == 3
    assert kept.spectator_chat is False and kept.rematch is None
    assert store.chat("old", 50) == []
    store.dispose()
