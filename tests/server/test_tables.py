"""Open tables over real HTTP: opened with seats left open, listed in the lobby, seats taken
and left, started by the host (with bots in the seats still open) or cancelled
(docs/protocol.md, "Open tables")."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx

from .harness import Person, Server, play_to_end

Make = Callable[[Server], Person]


def open_table(host: Person, game: str = "shitenno", players: int = 3, **extra: Any) -> Any:
    """A table: the host's own seat, then open seats."""
    seats = [{"kind": "human", "mine": True}] + [{"kind": "open"}] * (players - 1)
    made = host.post(
        "/api/matches", json={"game": game, "players": players, "seats": seats, **extra}
    )
    assert made.status_code == 201, made.text
    return made.json()


def test_a_table_fills_from_the_lobby_and_its_host_starts_it(server: Server, person: Make) -> None:
    """The lobby lists a table with who sits where; people take its open seats (a guest
    without an account gets a link), may leave again; only the host starts it, with bots in
    the seat still open; then it is a running match that its players play by account or
    link, and it leaves the list."""
    host, bob = person(server), person(server)
    host.sign_up(f"host_{server.db_url[:6]}")
    bob.sign_up(f"bob_{server.db_url[:6]}")
    made = open_table(host, players=4, turn_clock=600)
    assert made["status"] == "open"
    table = next(t for t in server.get("/api/tables").json() if t["id"] == made["id"])
    assert [s["kind"] for s in table["seats"]] == ["human", "open", "open", "open"]
    assert table["host"] == host.get("/api/account").json()["account"]["name"]
    assert table["turn_clock"] == 600 and table["rated"] is False
    assert server.get(f"/api/matches/{made['id']}").json()["status"] == "open"
    assert made["id"] not in {m["id"] for m in server.get("/api/matches").json()}

    taken = bob.post(f"/api/tables/{made['id']}/seats/1")
    assert taken.status_code == 200, taken.text
    assert bob.post(f"/api/tables/{made['id']}/seats/2").json()["error"]["code"] == (
        "already_seated"
    )
    guest = server.post(f"/api/tables/{made['id']}/seats/2", json={"name": "Guest <b>"}).json()
    assert guest["join_url"].endswith(f"#token={guest['token']}")
    assert server.post(f"/api/tables/{made['id']}/seats/2").json()["error"]["code"] == (
        "seat_taken"
    )
    seats = server.get(f"/api/matches/{made['id']}").json()["seats"]
    assert [(s["kind"], s["name"]) for s in seats][1:] == [
        ("human", bob.get("/api/account").json()["account"]["display_name"]),
        ("human", "Guest <b>"),
        ("open", None),
    ]
    # the guest stands up with their link's key; a stranger cannot open another's seat
    assert httpx.delete(f"{server.base}/api/tables/{made['id']}/seats/1").status_code == 403
    left = httpx.delete(
        f"{server.base}/api/tables/{made['id']}/seats/2",
        headers={"authorization": f"Bearer {guest['token']}"},
    )
    assert left.json()["kind"] == "open"

    start = f"/api/tables/{made['id']}/start"
    assert bob.post(start, json={"fill": "random"}).json()["error"]["code"] == "not_host"
    assert host.post(start, json={}).json()["error"]["code"] == "seats_open"
    assert host.post(start, json={"fill": "grandmaster"}).status_code == 422
    started = host.post(start, json={"fill": "random"})
    assert started.json() == {"match": made["id"], "status": "running"}, started.text
    assert host.post(start, json={"fill": "random"}).json()["error"]["code"] == "not_open"
    assert made["id"] not in {t["id"] for t in server.get("/api/tables").json()}
    info = server.get(f"/api/matches/{made['id']}").json()
    assert [(s["kind"], s["bot"]) for s in info["seats"]][2:] == [("bot", "random")] * 2

    clients = [host.ws_client(made["id"]), server.client(made["id"], taken.json()["token"])]
    finals = []
    threads = [
        threading.Thread(
            target=lambda c=c: finals.append(play_to_end(c, lambda legal: legal[0]["notation"]))
        )
        for c in clients
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    for client in clients:
        client.close()
    assert len(finals) == 2 and all(f["outcome"] for f in finals)
    assert server.get(f"/api/matches/{made['id']}").json()["status"] == "finished"


def test_two_people_clicking_one_seat_get_one_seat(server: Server, person: Make) -> None:
    """Eight people take the same open seat at once: exactly one gets it."""
    host = person(server)
    host.sign_up(f"race_{server.db_url[:6]}")
    made = open_table(host, players=2)
    answers: list[int] = []

    def take() -> None:
        answers.append(server.post(f"/api/tables/{made['id']}/seats/1").status_code)

    threads = [threading.Thread(target=take) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == [200] + [409] * 7


def test_a_host_holds_a_few_open_tables_and_may_cancel_them(server: Server, person: Make) -> None:
    """At most three open tables per account (the server's setting): a fourth is refused
    until one is started or cancelled; a cancelled table is gone; only its host cancels."""
    host, other = person(server), person(server)
    host.sign_up(f"many_{server.db_url[:6]}")
    other.sign_up(f"other_{server.db_url[:6]}")
    tables = [open_table(host, players=2) for _ in range(3)]
    fourth = host.post(
        "/api/matches",
        json={"game": "shitenno", "players": 2, "seats": [{"kind": "open"}, {"kind": "open"}]},
    )
    assert fourth.status_code == 429 and fourth.json()["error"]["code"] == "too_many_tables"
    gone = tables[0]["id"]
    assert other.request("DELETE", f"/api/tables/{gone}").json()["error"]["code"] == "not_host"
    by_key = httpx.delete(
        f"{server.base}/api/tables/{gone}",
        headers={"authorization": f"Bearer {tables[0]['host_token']}"},
    )
    assert by_key.json() == {"match": gone, "status": "cancelled"}
    assert server.get(f"/api/matches/{gone}").status_code == 404
    assert server.post(f"/api/tables/{gone}/seats/1").status_code == 404
    assert open_table(host, players=2)["status"] == "open"
    for table in tables[1:]:
        host.request("DELETE", f"/api/tables/{table['id']}")


def test_a_rated_table_seats_accounts_only(server: Server, person: Make) -> None:
    """A guest without an account cannot sit at a rated table; an account can."""
    host, bob = person(server), person(server)
    host.sign_up(f"rhost_{server.db_url[:6]}")
    bob.sign_up(f"rbob_{server.db_url[:6]}")
    made = open_table(host, players=2, rated=True)
    guest = server.post(f"/api/tables/{made['id']}/seats/1")
    assert guest.json()["error"]["code"] == "sign_in_required"
    assert bob.post(f"/api/tables/{made['id']}/seats/1").status_code == 200
    assert host.post(f"/api/tables/{made['id']}/start").json()["status"] == "running"
