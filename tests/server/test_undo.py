"""Undo through the real server, on SQLite and on PostgreSQL: ``{"type": "undo"}`` takes back
the seat's latest action when the engine allows it, else says why (docs/protocol.md)."""

from __future__ import annotations

import random
from typing import Any

from sengoku.core import Match, message_to_json

from .harness import Client, PostgresCluster, Proxy, Server

HINTS = {"undo_hints": True}


def hinted(server: Server, match_id: str, token: str | None, undos: int | None = None) -> Client:
    """A client that asks for undo hints (as the browser does)."""
    client = Client(server.ws_base + f"/ws/matches/{match_id}", token, hello=False)
    hello: dict[str, Any] = {"type": "hello", "token": token, "undo_hints": True}
    if undos is not None:
        hello["undos"] = undos
    client.send(hello)
    client.until(lambda m: m["type"] == "welcome")
    return client


def undo(client: Client, ref: str = "u") -> dict[str, Any]:
    """Ask to take back the seat's latest action; the ``undone`` or ``error`` answer."""
    client.send({"type": "undo", "ref": ref})
    return client.until(lambda m: m["type"] in ("undone", "error") and m.get("ref") == ref)


def act(client: Client, notation: str) -> dict[str, Any]:
    """Act and return the update that the action brought (it comes before ``accepted``)."""
    assert client.latest is not None
    answer = client.act(notation, ref=f"a{client.latest['number']}", expect=client.latest["number"])
    assert answer["type"] == "accepted", answer
    assert client.latest is not None
    return client.latest


def refused(client: Client, reason: str) -> dict[str, Any]:
    answer = undo(client, ref=f"r-{reason}")
    assert answer["type"] == "error" and answer["code"] == "undo_refused", answer
    assert answer["reason"] == reason and answer["message"], answer
    return answer


def full_log(client: Client) -> list[Any]:
    """The log as the client holds it: lines appended, replaced by a ``reset``."""
    lines: list[Any] = []
    for message in client.received:
        if message["type"] in ("welcome", "update"):
            if message.get("reset"):
                lines = []
            lines += message["log"]
    return lines


def of_kind(legal: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [a for a in legal if a["name"] == name]


def test_shitenno_a_placement_is_taken_back_and_the_record_replays(server: Server) -> None:
    """shitenno.md §4.4: choosing the province is taken back, and the board and the choices
    are as before; the payment takes a face-down bonus tile and stands (``revealed``); at
    the end ``game_over``. The record, without the undone action, replays to the outcome."""
    made = server.create("shitenno", 4, ["human", "random", "random", "random"], seed=0)
    me = hinted(server, made["id"], made["seats"][0]["token"])
    assert me.latest is not None and me.latest["undos"] == 0 and me.latest["undo"] is False
    assert refused(me, "nothing_to_undo")["message"] == "Red has no action to take back"
    rng = random.Random(5)
    undone = paid = False
    while True:
        latest = me.latest
        assert latest is not None
        if latest["outcome"] is not None:
            break
        if not latest["legal"]:
            me.until(lambda m: m["type"] in ("welcome", "update"))
            continue
        targets = [
            a
            for a in of_kind(latest["legal"], "Target")
            if latest["view"]["provinces"][a["args"]["province"]]["stack"] > 1
        ]
        if targets and not undone:
            before, seen = latest, full_log(me)
            after = act(me, targets[0]["notation"])
            assert after["undo"] is True and after["view"]["phase"] == "pay"
            answer = undo(me)
            assert answer == {
                "type": "undone",
                "ref": "u",
                "action": targets[0]["notation"],
                "number": before["number"],
            }
            back = me.latest
            assert back is not None and back["reset"] is True and back["undos"] == 1
            assert back["number"] == before["number"]
            assert back["view"] == before["view"] and back["legal"] == before["legal"]
            assert back["log_length"] == before["log_length"]
            assert back["log"] == seen == full_log(me)  # the whole log again, without it
            undone = True
            continue
        if targets and not paid:
            act(me, targets[0]["notation"])
            assert me.latest is not None
            paying = act(me, me.latest["legal"][0]["notation"])
            assert paying["undo"] is False  # the hint already knows
            assert "what was hidden" in refused(me, "revealed")["message"]
            paid = True
            continue
        answer = me.act(rng.choice(latest["legal"])["notation"], ref="x", expect=latest["number"])
        assert answer["type"] == "accepted" or answer["code"] == "stale", answer
    assert undone and paid
    refused(me, "game_over")
    record = server.get(f"/api/matches/{made['id']}/record").json()["record"]
    replayed = Match.from_record(record)
    assert replayed.outcome() is not None and replayed.outcome().to_json() == latest["outcome"]  # type: ignore[union-attr]
    accepted = [m["action"] for m in me.received if m["type"] == "accepted"]
    mine = [n for seat, n in record["actions"] if seat == 0]
    assert len(mine) == len(accepted) - 1  # the undone choice is not in the record
    assert server.get(f"/api/matches/{made['id']}").json()["actions"] == len(record["actions"])
    assert [message_to_json(e) for e in replayed.log_entries(0)] == full_log(me)
    me.close()


def test_shogun_a_plan_step_is_taken_back_and_the_other_seat_sees_it(server: Server) -> None:
    """shogun.md §4 step 3: a secret plan step is taken back while the others plan; the other
    person's page goes back to the position without it (the whole log again). Once every
    plan is in and revealed, the last step drew chance (the season's event) and the others'
    stand (``others_acted``)."""
    made = server.create("shogun", 4, ["human"] * 4, seed=5)
    clients = [hinted(server, made["id"], s["token"]) for s in made["seats"]]
    red, blue = clients[0], clients[1]
    act(red, red.latest["legal"][0]["notation"])  # type: ignore[index]
    step = act(blue, blue.latest["legal"][0]["notation"])  # type: ignore[index]
    assert step["view"]["plan_n"] == [1, 1, 0, 0]
    assert red.until(lambda m: m["type"] == "update" and m["number"] == 2)["undo"] is True
    assert undo(red)["type"] == "undone"
    seen = blue.until(lambda m: m["type"] == "update" and m.get("reset"))
    assert seen["number"] == 1 and seen["view"]["plan_n"] == [0, 1, 0, 0]
    assert seen["legal"] == step["legal"]  # Blue's own choices did not change
    assert len(seen["log"]) == seen["log_length"]  # Red's private line is gone
    assert red.latest is not None and red.latest["undo"] is False  # nothing left to take back
    refused(red, "nothing_to_undo")
    for client in clients:
        while client.latest is not None and client.latest["legal"]:
            if client.latest["view"]["phase"] != "plan":
                break
            act(client, client.latest["legal"][0]["notation"])
    assert refused(clients[3], "chance")["message"].endswith(
        "drew chance (a shuffle, a draw, a roll): it stands"
    )
    for client in clients[:3]:
        refused(client, "others_acted")
    assert server.get(f"/api/matches/{made['id']}").json()["actions"] == 44
    for client in clients:
        client.close()


def test_the_host_may_turn_undo_off_and_spectators_cannot_undo(server: Server) -> None:
    made = server.create("shitenno", 4, ["human"] * 4, seed=0, undo=False)
    assert server.get(f"/api/matches/{made['id']}").json()["undo"] is False
    me = hinted(server, made["id"], made["seats"][0]["token"])
    act(me, me.latest["legal"][0]["notation"])  # type: ignore[index]
    assert me.latest is not None and me.latest["undo"] is False
    answer = undo(me)
    assert answer["type"] == "error" and answer["code"] == "undo_disabled"
    watcher = server.client(made["id"])
    watcher.until(lambda m: m["type"] == "welcome")
    assert undo(watcher)["code"] == "spectator"
    assert server.get(f"/api/matches/{made['id']}").json()["actions"] == 1
    on = server.create("shitenno", 4, ["human"] * 4, seed=0)
    assert server.get(f"/api/matches/{on['id']}").json()["undo"] is True  # the default
    me.close()
    watcher.close()


def test_an_undo_is_durable_and_a_client_that_missed_it_gets_the_whole_log(
    server: Server,
) -> None:
    """The undo was committed before anyone heard of it: after a kill and a restart the match
    is the one without the action. A client that reconnects with the count of undos it saw
    gets the lines it has not seen; one that saw fewer undos gets the whole log again."""
    made = server.create("shitenno", 4, ["human"] * 4, seed=0)
    token = made["seats"][0]["token"]
    me = hinted(server, made["id"], token)
    for _ in range(3):
        act(me, me.latest["legal"][0]["notation"])  # type: ignore[index]
    assert undo(me)["type"] == "undone"
    kept = me.latest
    assert kept is not None and kept["number"] == 2 and kept["undos"] == 1
    server.kill()
    me.close()
    server.start()
    again = hinted(server, made["id"], token, undos=1)
    welcome = again.latest
    assert welcome is not None and welcome["type"] == "welcome"
    assert welcome["number"] == 2 and welcome["view"] == kept["view"]
    assert "reset" not in welcome and welcome["undo"] is True
    late = Client(server.ws_base + f"/ws/matches/{made['id']}", token, hello=False)
    late.send({"type": "hello", "token": token, "log_since": 5, "undos": 0})
    stale = late.until(lambda m: m["type"] == "welcome")
    assert stale["reset"] is True and stale["log"] == full_log(again)
    assert "undo" not in stale  # it did not ask for hints
    assert undo(again)["type"] == "undone"
    assert server.get(f"/api/matches/{made['id']}").json()["actions"] == 1
    again.close()
    late.close()


def test_two_processes_on_one_postgresql_undo_through_the_proxy(postgres: PostgresCluster) -> None:
    """Two processes behind the proxy: the clients of a match reach its owner, an undo gives
    the others the whole position again, and the next action is stored after the shorter
    history."""
    url = postgres.new_database()
    first, second = Server(url, name="s1"), Server(url, name="s2")
    proxy = Proxy([first, second])
    try:
        made = first.create("shogun", 4, ["human"] * 4, seed=5)

        def hinted_there(seat: int) -> Client:  # through the proxy, at the match's owner
            client = proxy.client(made["id"], made["seats"][seat]["token"], extra=HINTS)
            client.until(lambda m: m["type"] == "welcome")
            return client

        red, blue = hinted_there(0), hinted_there(1)
        act(red, red.latest["legal"][0]["notation"])  # type: ignore[index]
        blue.until(lambda m: m["type"] == "update" and m["number"] == 1)
        act(blue, blue.latest["legal"][0]["notation"])  # type: ignore[index]
        red.until(lambda m: m["type"] == "update" and m["number"] == 2)
        assert undo(red)["type"] == "undone"
        seen = blue.until(lambda m: m["type"] == "update" and m.get("reset"))
        assert seen["number"] == 1 and seen["undos"] == 1
        assert seen["view"]["plan_n"] == [0, 1, 0, 0]
        act(blue, blue.latest["legal"][0]["notation"])  # type: ignore[index]
        mine = red.until(lambda m: m["type"] == "update" and m["number"] == 2)
        assert mine["view"]["plan_n"] == [0, 2, 0, 0]
        assert undo(blue)["type"] == "undone"  # Blue's second step, taken back on the other
        red.until(lambda m: m["type"] == "update" and m.get("reset") and m["undos"] == 2)
        red.close()
        blue.close()
    finally:
        proxy.stop()
        first.stop()
        second.stop()
    for server in (first, second):
        assert "Traceback" not in server.output(), server.output()[-3000:]
