"""The advisor through the real server, on SQLite and on PostgreSQL (docs/protocol.md, "Hints"
and "Reviews"): a seat asks for a hint and everyone is told; a finished match is reviewed in
the background; what may not be asked is refused with a clear error and changes nothing."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import BACKENDS, backend_server
from .harness import ROOMY_ACCOUNTS, Client, Person, Server, play_to_end

#: Reviews at a tiny budget, so that a test waits seconds, not minutes.
FLAGS = ("--messages-per-second", "200", *ROOMY_ACCOUNTS, "--review-iterations", "4")
#: A short Shitenno match to review (6 Kamons per general, not 10): a review judges every
#: decision, so its cost follows the match's length.
SHORT = {"kamons_3_players": 6}


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One server per backend whose reviews are quick."""
    yield from backend_server(request, tmp_path_factory, extra=FLAGS)


def hint(client: Client, ref: str = "h") -> dict[str, Any]:
    client.send({"type": "hint", "ref": ref})
    return client.until(lambda m: m["type"] in ("hint", "error") and m.get("ref") == ref)


def hint_note(client: Client) -> dict[str, Any]:
    """The chat's note that a seat asked for a hint (read already, or still to come)."""
    wanted = lambda m: m["type"] == "chat" and m.get("kind") == "hint"  # noqa: E731
    return next((m for m in client.received if wanted(m)), None) or client.until(wanted)


def my_turn(client: Client) -> dict[str, Any]:
    while client.latest is None or not client.latest["legal"]:
        client.until(lambda m: m["type"] in ("welcome", "update"))
    return client.latest


def mover(clients: list[Client]) -> int:
    """Which of the seats' clients (all people) may act first."""
    for client in clients:
        if client.latest is None:
            client.until(lambda m: m["type"] == "welcome")
    return next(n for n, c in enumerate(clients) if c.latest and c.latest["legal"])


def test_a_hint_gives_three_legal_options_and_everyone_is_told(server: Server) -> None:
    """The seat whose turn it is gets the advisor's best options (at most three, each a legal
    action with its chance to win and reasons) for the position it is in; the other seat
    and a spectator read in the chat that it asked; nothing else changes."""
    made = server.create("shitenno", 3, ["human", "human", "human"], seed=3)
    seats = [server.client(made["id"], s["token"]) for s in made["seats"][:2]]
    third = server.client(made["id"], made["seats"][2]["token"])
    first = mover([*seats, third])
    me, other = ([*seats, third][first], seats[1 - first] if first < 2 else seats[0])
    watcher = server.client(made["id"])
    try:
        latest = my_turn(me)
        answer = hint(me)
        assert answer["type"] == "hint", answer
        assert answer["number"] == latest["number"]
        legal = {a["notation"] for a in latest["legal"]}
        assert 1 <= len(answer["options"]) <= min(3, len(legal))
        for option in answer["options"]:
            assert option["action"]["notation"] in legal
            assert 0 <= option["win"] <= 1
            assert option["action"]["message"]["key"]
        for client in (me, other, watcher):
            note = hint_note(client)
            assert note["seat"] == first and note["text"] == ""
        record = server.get(f"/api/matches/{made['id']}").json()
        assert record["actions"] == latest["number"] and record["hints"] is True
        # asked again in the same position: the same answer, no new search, nobody told again
        again = hint(me, "again")
        assert {k: v for k, v in again.items() if k != "ref"} == {
            k: v for k, v in answer.items() if k != "ref"
        }
        # the note is kept: a new connection reads it in the welcome's chat
        late = server.client(made["id"])
        welcome = late.until(lambda m: m["type"] == "welcome")
        assert [c.get("kind") for c in welcome["chat"]] == ["hint"]
        late.close()
    finally:
        for client in (*seats, third, watcher):
            client.close()


def test_a_hint_is_refused_when_it_may_not_be_given(server: Server) -> None:
    """A spectator, a seat whose turn it is not, a second hint while one is on its way, and a
    match whose host turned hints off: each gets its error code, and no note is written."""
    made = server.create("shitenno", 3, ["human", "human", "human"], seed=5)
    tokens = [s["token"] for s in made["seats"]]
    clients = [server.client(made["id"], t) for t in tokens]
    watcher = server.client(made["id"])
    try:
        acting = mover(clients)
        latest = clients[acting].latest
        assert latest is not None
        waiting = next(s for s in range(3) if s not in latest["view"]["to_act"])
        assert hint(clients[waiting], "w")["code"] == "not_your_turn"
        assert hint(watcher, "s")["code"] == "spectator"
        clients[acting].send({"type": "hint", "ref": "one"})
        second = hint(clients[acting], "two")
        assert second["code"] == "hint_pending", second
        first = clients[acting].until(lambda m: m.get("ref") == "one")
        assert first["type"] == "hint"
        off = server.create("shitenno", 3, ["human", "easy", "easy"], seed=5, hints=False)
        assert server.get(f"/api/matches/{off['id']}").json()["hints"] is False
        closed = server.client(off["id"], off["seats"][0]["token"])
        closed.until(lambda m: m["type"] == "welcome")
        assert hint(closed, "off")["code"] == "hints_disabled"
        closed.close()
    finally:
        for client in [*clients, watcher]:
            client.close()


def test_a_rated_match_has_no_hints(server: Server, person: Any) -> None:
    """Hints are off by default in a rated match, and asking for them there is refused."""
    someone: Person = person(server)
    assert someone.sign_up(f"rated{random.randrange(10**6)}").status_code == 201
    body = {
        "game": "shitenno",
        "players": 3,
        "rated": True,
        "seats": [{"kind": "human", "mine": True}, {"kind": "bot", "bot": "easy"}] * 1
        + [{"kind": "bot", "bot": "random"}],
    }
    made = someone.post("/api/matches", json=body)
    assert made.status_code == 201, made.text
    assert server.get(f"/api/matches/{made.json()['id']}").json()["hints"] is False
    refused = someone.post("/api/matches", json={**body, "hints": True})
    assert refused.status_code == 422 and "hints off" in refused.json()["error"]["message"]


def wait_for_review(server: Server, match_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer: dict[str, Any] = server.get(f"/api/matches/{match_id}/review").json()
        if answer["status"] in ("done", "failed"):
            return answer
        time.sleep(0.3)
    raise TimeoutError("no review came")


def test_a_finished_match_is_reviewed_in_the_background(server: Server) -> None:
    """When a match a person played in ends, its review is made without asking: every decision
    of every seat, and per seat its chart, turning points (with the actions as messages) and
    summary. A running match has none yet (409)."""
    made = server.create("shitenno", 3, ["human", "random", "random"], seed=8, options=SHORT)
    me = server.client(made["id"], made["seats"][0]["token"])
    try:
        early = server.get(f"/api/matches/{made['id']}/review")
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
        rng = random.Random(2)
        play_to_end(me, lambda legal: rng.choice(legal)["notation"])
    finally:
        me.close()
    answer = wait_for_review(server, made["id"])
    assert answer["status"] == "done", answer
    review = answer["review"]
    record = server.get(f"/api/matches/{made['id']}/record").json()["record"]
    assert review["game"] == "shitenno" and review["iterations"] == 4
    numbers = [d["number"] for d in review["decisions"]]
    assert numbers == sorted(numbers) and numbers[-1] < len(record["actions"])
    for d in review["decisions"]:
        assert record["actions"][d["number"]] == [d["seat"], d["played"]]
    assert {s["seat"] for s in review["seats"]} == {0, 1, 2}
    for seat in review["seats"]:
        assert seat["summary"]["decisions"] == sum(
            d["seat"] == seat["seat"] for d in review["decisions"]
        )
        assert len(seat["turning_points"]) == min(3, seat["summary"]["decisions"])
        for point in seat["turning_points"]:
            assert point["played_message"]["key"] and point["preferred_message"]["key"]
    # asked again, nothing new is made
    again = server.post(f"/api/matches/{made['id']}/review")
    assert again.status_code == 202 and again.json()["status"] == "done"


def test_a_match_of_bots_is_reviewed_when_asked(server: Server) -> None:
    """Nobody is waiting for the review of a match of bots alone: none is made until someone
    asks (POST), then it is made like any other."""
    made = server.create("shitenno", 3, ["random", "random", "random"], seed=4, options=SHORT)
    watcher = server.client(made["id"])
    try:
        watcher.until(lambda m: m["type"] in ("welcome", "update") and m["outcome"], timeout=120)
    finally:
        watcher.close()
    assert server.get(f"/api/matches/{made['id']}/review").json() == {"status": "none"}
    asked = server.post(f"/api/matches/{made['id']}/review")
    assert asked.status_code == 202 and asked.json()["status"] in ("pending", "running", "done")
    assert wait_for_review(server, made["id"])["status"] == "done"
    missing = server.get("/api/matches/no-such-match/review")
    assert missing.status_code == 404
