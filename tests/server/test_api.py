"""The server through real HTTP and WebSocket connections, on SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

import sengoku
from sengoku.core import Match, message_to_json

from .conftest import BACKENDS, backend_server
from .harness import Client, Server, play_to_end


@pytest.fixture(scope="module", params=[*BACKENDS, "proxied"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One server per backend, and (``proxied``) two PostgreSQL processes behind HAProxy
    reached through it: the secrecy and bad-input tests hold through the proxy too."""
    yield from backend_server(request, tmp_path_factory)


def wire_log(match: Match, seat: int | None, since: int = 0) -> list[Any]:
    """The log lines ``seat`` may read as the server sends them (messages as JSON)."""
    return [message_to_json(e) for e in match.log_entries(seat, since)]


def _record(server: Server, match_id: str) -> dict[str, Any]:
    body = server.get(f"/api/matches/{match_id}/record").json()
    assert body["finished"], body
    return dict(body["record"])


def _number(server: Server, match_id: str) -> int:
    return int(server.get(f"/api/matches/{match_id}").json()["actions"])


def test_health_games_and_openapi(server: Server) -> None:
    health = server.get("/api/health").json()
    assert health["status"] == "ok"
    assert health["database"] in ("sqlite", "postgresql")
    games = {g["name"]: g for g in server.get("/api/games").json()}
    assert {"shitenno", "shogun"} <= set(games)
    assert games["shogun"]["player_counts"] == [3, 4, 5]
    board = next(o for o in games["shogun"]["options"] if o["name"] == "board")
    assert board["description"] and board["default"] is not None
    schema = server.get("/openapi.json").json()
    assert {"/api/matches", "/api/games", "/api/health", "/api/matches/{match_id}/record"} <= set(
        schema["paths"]
    )
    page = server.get("/")
    assert page.status_code == 200 and "Sengoku" in page.text


def test_a_match_with_a_person_and_bots_is_played_to_the_end(server: Server) -> None:
    made = server.create("shitenno", 4, ["human", "random", "easy", "random"])
    seat0 = made["seats"][0]
    assert seat0["join_url"].endswith(f"/play/{made['id']}#token={seat0['token']}")
    assert all("token" not in s for s in made["seats"][1:])
    client = server.client(made["id"], seat0["token"])
    rng = random.Random(3)
    # alternate the two forms of an action: notation, and the structured object
    forms = iter(lambda: rng.random() < 0.5, None)

    def choose(legal: list[dict[str, Any]]) -> Any:
        action = rng.choice(legal)
        return (
            action["notation"] if next(forms) else {"name": action["name"], "args": action["args"]}
        )

    final = play_to_end(client, choose)
    client.close()
    assert final["outcome"]["winners"]
    record = _record(server, made["id"])
    replayed = Match.from_record(record)  # verifies the stated outcome
    assert replayed.outcome() is not None
    assert replayed.outcome().to_json() == final["outcome"]  # type: ignore[union-attr]
    mine = [notation for seat, notation in record["actions"] if seat == 0]
    accepted = [m["action"] for m in client.received if m["type"] == "accepted"]
    assert mine == accepted
    # every update carried the seat's own view, exactly as the rules engine builds it
    listed = {m["id"]: m for m in server.get("/api/matches?status=finished").json()}
    assert listed[made["id"]]["outcome"] == final["outcome"]
    assert "seed" not in listed[made["id"]]
    public = server.get("/api/matches").text + server.get(f"/api/matches/{made['id']}").text
    for secret in (made["host_token"], seat0["token"]):
        assert secret not in public and hashlib.sha256(secret.encode()).hexdigest() not in public


def drive(
    clients: list[Client],
    choose: Any,
    stop: Any = lambda seat, message: False,
) -> int:
    """Play a match of human seats one action at a time, in seat order; every client reads
    the one update each action brings before the next action, so runs are repeatable.
    Returns the number of actions accepted; stops at the end or when ``stop(seat, message)``.
    """
    for c in clients:
        if c.latest is None:
            c.until(lambda m: m["type"] == "welcome")
    while True:
        latest = [c.latest for c in clients]
        assert all(m is not None for m in latest)
        number = latest[0]["number"]  # type: ignore[index]
        assert all(m["number"] == number for m in latest)  # type: ignore[index]
        if latest[0]["outcome"] is not None:  # type: ignore[index]
            return int(number)
        seat = next(i for i, m in enumerate(latest) if m["legal"])  # type: ignore[index]
        if stop(seat, latest[seat]):
            return int(number)
        answer = clients[seat].act(
            choose(seat, latest[seat]["legal"]), ref=f"n{number}", expect=number
        )  # type: ignore[index]
        assert answer["type"] == "accepted", answer
        for c in clients:
            if c.latest["number"] != number + 1:  # type: ignore[index]
                c.until(lambda m, n=number + 1: m["type"] == "update" and m["number"] == n)


def _updates(client: Client) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in m.items() if k not in ("presence", "match")}
        for m in client.received
        if m["type"] in ("welcome", "update")
    ]


def test_each_seat_gets_exactly_its_own_view_on_the_wire(server: Server) -> None:
    """What a seat receives is its own view and its own log lines, never more: replaying the
    match locally gives the very views and logs seat 1 and a spectator were sent."""
    made = server.create("shitenno", 3, ["human"] * 3, seed=11)
    clients = [server.client(made["id"], s["token"]) for s in made["seats"]]
    watcher = server.client(made["id"])
    rng = random.Random(5)
    drive(clients, lambda seat, legal: rng.choice(legal)["notation"])
    watcher.until(lambda m: m.get("outcome") is not None)
    local = sengoku.new_match("shitenno", 3, seed=11)
    record = _record(server, made["id"])
    for client, seat in ((clients[1], 1), (watcher, None)):
        lines: list[Any] = []
        updates = {m["number"]: m for m in _updates(client)}
        replay = sengoku.new_match("shitenno", 3, seed=11)
        for number in range(len(record["actions"]) + 1):
            if number in updates:
                assert updates[number]["view"] == replay.view(seat)
                lines += updates[number]["log"]
                assert lines == wire_log(replay, seat)
                assert updates[number]["legal"] == [] or seat is not None
            if number < len(record["actions"]):
                replay.act(*record["actions"][number])
    assert local.view(1) != replay.view(1)  # the match really moved on
    for c in [*clients, watcher]:
        c.close()


def test_a_seat_never_receives_another_seats_secret_plan(server: Server) -> None:
    """shogun.md §8: plans are secret. Two matches with the same seed in which Red plans
    differently send Blue (and spectators) byte-for-byte the same messages until the reveal."""
    runs = []
    for variant in (0, -1):
        made = server.create("shogun", 4, ["human"] * 4, seed=77)
        clients = [server.client(made["id"], s["token"]) for s in made["seats"]]
        watcher = server.client(made["id"])

        def choose(seat: int, legal: list[dict[str, Any]], variant: int = variant) -> str:
            return str(legal[variant if seat == 0 else 0]["notation"])

        number = drive(clients, choose, stop=lambda seat, message: seat == 2)
        watcher.until(lambda m, n=number: m.get("number") == n)
        runs.append((_updates(clients[0]), _updates(clients[1]), _updates(watcher)))
        for c in [*clients, watcher]:
            c.close()
    (red_a, blue_a, watch_a), (red_b, blue_b, watch_b) = runs
    assert len(blue_a) > 12  # Red's and Blue's whole plans were made
    assert red_a != red_b  # Red did plan differently (and sees its own plan)
    assert blue_a == blue_b
    assert watch_a == watch_b


def test_lotus_face_down_mandate_never_travels_to_the_others(server: Server) -> None:
    """rising_sun.md §2.3, §12: Lotus keeps its Mandate face down. Two matches with the same
    seed in which Lotus keeps different tiles (and announces the same Mandate) send Koi and a
    spectator byte-for-byte the same messages, up to the next draw of a tile Lotus put back."""
    runs = []
    for variant in (0, -1):
        made = server.create(
            "rising_sun", 3, ["human"] * 3, seed=5, options={"clans": "fixed", "gifts": False}
        )
        clients = [server.client(made["id"], s["token"]) for s in made["seats"]]
        watcher = server.client(made["id"])

        def choose(seat: int, legal: list[dict[str, Any]], variant: int = variant) -> str:
            notations = [str(a["notation"]) for a in legal]
            if seat == 1 and notations[0].startswith("keep"):
                return notations[variant]
            if notations[0].startswith("announce"):
                return "announce Harvest"
            return (
                notations[-1] if notations[-1] in ("no alliance", "end recruit") else notations[0]
            )

        def stop(seat: int, message: dict[str, Any]) -> bool:
            return seat == 2 and str(message["legal"][0]["notation"]).startswith("keep")

        number = drive(clients, choose, stop=stop)
        watcher.until(lambda m, n=number: m.get("number") == n)
        runs.append((_updates(clients[0]), _updates(clients[1]), _updates(watcher)))
        for c in [*clients, watcher]:
            c.close()
    (koi_a, lotus_a, watch_a), (koi_b, lotus_b, watch_b) = runs
    assert lotus_a != lotus_b  # Lotus kept different tiles, and sees which
    assert "rising_sun.log.announces_harvest" in json.dumps(watch_a)  # the log is messages
    assert koi_a == koi_b
    assert watch_a == watch_b


def test_bad_input_gets_clear_errors_and_changes_nothing(server: Server) -> None:
    made = server.create("shitenno", 3, ["human"] * 3, seed=3)
    match_id = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    # HTTP
    unknown = server.get("/api/matches/nosuchmatch")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_match"
    bad_game = server.post("/api/matches", json={"game": "chess", "players": 2})
    assert bad_game.status_code == 404 and "chess" in bad_game.json()["error"]["message"]
    bad_option = server.post(
        "/api/matches", json={"game": "shogun", "players": 4, "options": {"years": 99}}
    )
    assert bad_option.status_code == 422 and "years" in bad_option.json()["error"]["message"]
    bad_count = server.post("/api/matches", json={"game": "shogun", "players": 2})
    assert bad_count.status_code == 422 and bad_count.json()["error"]["code"] == "invalid_setup"
    bad_seats = server.post(
        "/api/matches",
        json={"game": "shogun", "players": 4, "seats": [{"kind": "bot", "bot": "godlike"}] * 4},
    )
    assert bad_seats.status_code == 422 and "godlike" in bad_seats.json()["error"]["message"]
    malformed = server.post(
        "/api/matches", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert malformed.status_code == 422 and malformed.json()["error"]["code"] == "invalid_request"
    huge = server.post(
        "/api/matches", content=b"x" * 200_000, headers={"content-type": "application/json"}
    )
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"
    wrong_host = server.post(
        f"/api/matches/{match_id}/seats/1",
        json={"kind": "bot", "bot": "easy"},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert wrong_host.status_code == 403 and wrong_host.json()["error"]["code"] == "not_host"
    peek = server.get(f"/api/matches/{match_id}/record", headers={"Authorization": "Bearer nope"})
    assert peek.status_code == 403
    for response in (unknown, bad_game, bad_option, bad_count, malformed, huge, wrong_host, peek):
        assert "Traceback" not in response.text
    # WebSocket: unknown match, wrong token, no hello
    nowhere = server.client("nosuchmatch", tokens[0])
    assert nowhere.recv()["code"] == "unknown_match"
    thief = server.client(match_id, "not-a-token")
    assert thief.recv()["code"] == "bad_token"
    rude = Client(server.ws_base + f"/ws/matches/{match_id}", None, hello=False)
    rude.send("hello?")
    assert rude.recv()["code"] == "bad_hello"
    # a seat: malformed JSON, oversized, binary, unknown type, illegal, out of turn, stale
    seat = next(i for i in range(3) if server.client(match_id, tokens[i]).recv()["legal"])
    me = server.client(match_id, tokens[seat])
    other = server.client(match_id, tokens[(seat + 1) % 3])
    watcher = server.client(match_id)
    for c in (me, other, watcher):
        c.until(lambda m: m["type"] == "welcome")
    before = me.latest["view"]  # type: ignore[index]
    number = _number(server, match_id)
    me.send("{oops")
    assert me.until(lambda m: m["type"] == "error")["code"] == "bad_json"
    me.send(json.dumps({"type": "act", "action": "x" * 100_000}))
    assert me.until(lambda m: m["type"] == "error")["code"] == "too_large"
    me.ws.send(b"\x00\x01")
    assert me.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    me.send({"type": "dance"})
    assert me.until(lambda m: m["type"] == "error")["code"] == "bad_message"
    illegal = me.act("take over the world")
    assert illegal["code"] == "illegal_action" and illegal["message"]
    structured = me.act({"name": "AddTroop", "args": {"kind": 99, "op": "add troop"}})
    assert structured["code"] == "illegal_action"
    wrong_turn = other.act(me.latest["legal"][0]["notation"])  # type: ignore[index]
    assert wrong_turn["code"] == "illegal_action" and "turn" in wrong_turn["message"]
    stale = me.act(me.latest["legal"][0]["notation"], expect=number + 5)  # type: ignore[index]
    assert stale["code"] == "stale"
    assert watcher.act("anything")["code"] == "spectator"
    assert me.act(1234)["code"] == "bad_message"
    # nothing changed, and the connection still works
    assert _number(server, match_id) == number
    assert server.client(match_id, tokens[seat]).recv()["view"] == before
    ok = me.act(me.latest["legal"][0]["notation"], expect=number)  # type: ignore[index]
    assert ok["type"] == "accepted"
    assert _number(server, match_id) == number + 1
    for c in (me, other, watcher):
        c.close()


def test_rate_limit(server: Server) -> None:
    made = server.create("shitenno", 3, ["human"] * 3)
    client = server.client(made["id"], made["seats"][0]["token"])
    for i in range(800):  # the test server allows 200 a second, 400 at once
        client.send({"type": "ping", "ref": i})
    answers = [client.until(lambda m: m["type"] in ("pong", "error")) for _ in range(800)]
    limited = [a for a in answers if a["type"] == "error"]
    assert limited and all(a["code"] == "rate_limited" for a in limited)
    assert len(answers) - len(limited) >= 400  # the burst got through
    assert {a["ref"] for a in answers} == set(range(800))  # every message was answered
    for _ in range(300):  # junk counts against the limit too
        client.send("{junk")
    junk = [client.until(lambda m: m["type"] == "error") for _ in range(300)]
    assert {a["code"] for a in junk} == {"rate_limited", "bad_json"}
    client.close()


def test_many_clients_submitting_at_once(server: Server) -> None:
    """Actions to one match are applied one at a time: of many identical submissions, one
    is accepted; in a simultaneous choice (shogun.md §8) every seat's action is kept."""
    made = server.create("shogun", 4, ["human"] * 4, seed=9)
    tokens = [s["token"] for s in made["seats"]]
    crowd = [server.client(made["id"], tokens[i % 4]) for i in range(16)]
    for c in crowd:
        c.until(lambda m: m["type"] == "welcome")
    answers: list[dict[str, Any]] = []
    lock = threading.Lock()

    def submit(c: Client, ref: str) -> None:
        legal = c.latest["legal"]  # type: ignore[index]
        answer = c.act(legal[0]["notation"], ref=ref)
        with lock:
            answers.append(answer)

    for round_ in range(3):
        threads = [
            threading.Thread(target=submit, args=(c, f"{round_}-{i}")) for i, c in enumerate(crowd)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for c in crowd:
            c.drain(0.05)
    accepted = [a for a in answers if a["type"] == "accepted"]
    assert len(answers) == 48
    assert all(a["type"] == "accepted" or a["code"] in ("illegal_action", "stale") for a in answers)
    number = _number(server, made["id"])
    assert number == len(accepted) >= 12  # each of the 4 seats at least once per round
    views = {c.latest["number"] for c in crowd}  # type: ignore[index]
    assert views == {number}
    for c in crowd:
        c.close()


def test_the_host_hands_seats_to_bots_and_back(server: Server) -> None:
    made = server.create("shitenno", 3, ["human"] * 3, seed=21)
    host = {"Authorization": f"Bearer {made['host_token']}"}
    match_id = made["id"]
    for seat in (1, 2):
        r = server.post(
            f"/api/matches/{match_id}/seats/{seat}",
            json={"kind": "bot", "bot": "random"},
            headers=host,
        )
        assert r.status_code == 200 and r.json()["bot"] == "random"
    old = made["seats"][0]["token"]
    back = server.post(
        f"/api/matches/{match_id}/seats/0", json={"kind": "human", "new_token": True}, headers=host
    ).json()
    assert back["token"] != old
    refused = server.client(match_id, old)
    assert refused.recv()["code"] == "bad_token"
    me = server.client(match_id, back["token"])
    final = play_to_end(me, lambda legal: legal[0]["notation"])
    assert final["outcome"] is not None
    assert [s["kind"] for s in final["seats"]] == ["human", "bot", "bot"]
    record = _record(server, match_id)
    assert {seat for seat, _ in record["actions"]} == {0, 1, 2}
    me.close()


def test_turn_clock_lets_a_bot_play_an_overdue_turn(server: Server) -> None:
    made = server.create("shitenno", 3, ["human"] * 3, seed=4, turn_clock=1)
    watcher = server.client(made["id"])
    first = watcher.until(lambda m: m["type"] == "welcome")
    started = time.monotonic()
    update = watcher.until(lambda m: m["type"] == "update", timeout=30)
    assert update["number"] == first["number"] + 1
    assert time.monotonic() - started >= 0.8
    watcher.close()


def test_presence_is_shown_to_all(server: Server) -> None:
    made = server.create("shitenno", 3, ["human"] * 3)
    a = server.client(made["id"], made["seats"][0]["token"])
    assert a.until(lambda m: m["type"] == "welcome")["presence"]["seats"] == [True, False, False]
    b = server.client(made["id"], made["seats"][2]["token"])
    b.until(lambda m: m["type"] == "welcome")
    seen = a.until(lambda m: m["type"] == "presence" and m["presence"]["seats"][2])
    assert seen["presence"]["seats"] == [True, False, True]
    b.close()
    gone = a.until(lambda m: m["type"] == "presence" and not m["presence"]["seats"][2])
    assert gone["presence"]["spectators"] == 0
    a.close()


def test_a_thinking_bot_does_not_hold_up_other_matches(server: Server) -> None:
    """Bots think in worker processes: while a hard bot ponders its first move in one match,
    people in another match play on (their moves are accepted before the bot's comes), and
    a move a bot was thinking about when its seat changed hands is refused.

    Nothing here depends on how long the bot thinks: the order of arrivals is compared."""
    slow = server.create("shitenno", 4, ["hard"] * 4, seed=2)
    watcher = server.client(slow["id"])
    assert watcher.until(lambda m: m["type"] == "welcome")["number"] == 0
    bot_moved = threading.Event()
    stop_watching = threading.Event()

    def watch() -> None:
        while not stop_watching.is_set():
            try:
                message = watcher.recv(0.1)
            except TimeoutError:
                continue
            if message["type"] == "update" and message["number"] > 0:
                bot_moved.set()

    reader = threading.Thread(target=watch)
    reader.start()
    busy = server.create("shitenno", 3, ["human"] * 3, seed=2)
    clients = [server.client(busy["id"], s["token"]) for s in busy["seats"]]
    rng = random.Random(2)
    before_the_bot: list[bool] = []

    def choose(seat: int, legal: list[dict[str, Any]]) -> str:
        before_the_bot.append(not bot_moved.is_set())
        return str(rng.choice(legal)["notation"])

    played = drive(clients, choose, stop=_after(10))
    assert played == 10
    assert before_the_bot[1]  # the first move was answered while the bot still thought
    host = {"Authorization": f"Bearer {slow['host_token']}"}
    for seat in range(4):  # stop the bots: hand the seats to people
        server.post(f"/api/matches/{slow['id']}/seats/{seat}", json={"kind": "human"}, headers=host)
    handed = _number(server, slow["id"])
    time.sleep(3.0)  # the move a bot was still thinking about is refused: its seat changed
    stop_watching.set()
    reader.join()
    assert _number(server, slow["id"]) == handed
    for c in [*clients, watcher]:
        c.close()


def _after(count: int) -> Any:
    played = iter(range(count + 1))
    return lambda seat, message: next(played) == count


def test_expect_refuses_only_choices_that_changed(server: Server) -> None:
    """shogun.md §8: in the secret simultaneous planning, another seat's plan step leaves
    Red's choices as they were, so Red's action chosen before it still counts; an action
    chosen before Red's own choices changed is refused as stale."""
    made = server.create("shogun", 4, ["human"] * 4, seed=5)
    red, blue = (server.client(made["id"], s["token"]) for s in made["seats"][:2])
    start = red.until(lambda m: m["type"] == "welcome")
    blue.until(lambda m: m["type"] == "welcome")
    assert blue.act(blue.latest["legal"][0]["notation"], expect=0)["type"] == "accepted"  # type: ignore[index]
    red.until(lambda m: m["type"] == "update" and m["number"] == 1)
    first = red.act(start["legal"][0]["notation"], ref="old", expect=0)
    assert first["type"] == "accepted"
    again = red.act(start["legal"][1]["notation"], ref="older", expect=0)
    assert again["type"] == "error" and again["code"] == "stale"
    assert _number(server, made["id"]) == 2
    red.close()
    blue.close()


def test_a_reassigned_seats_open_connection_is_closed_and_told_nothing_more(
    server: Server,
) -> None:
    """The host gives seat 1 to someone new: the old holder's open connection gets
    ``seat_reassigned``, is closed, and never receives the new holder's view."""
    made = server.create("shitenno", 3, ["human"] * 3, seed=6)
    host = {"Authorization": f"Bearer {made['host_token']}"}
    old = server.client(made["id"], made["seats"][1]["token"])
    old.until(lambda m: m["type"] == "welcome")
    new = server.post(
        f"/api/matches/{made['id']}/seats/1",
        json={"kind": "human", "new_token": True},
        headers=host,
    ).json()
    assert new["join_url"].startswith("http") and new["join_url"].endswith(new["token"])
    told = old.until(lambda m: m["type"] == "error")
    assert told["code"] == "seat_reassigned"
    with pytest.raises(ConnectionClosed):
        old.recv(10)
    assert old.ws.close_code == 4401
    newcomer = server.client(made["id"], new["token"])
    assert newcomer.until(lambda m: m["type"] == "welcome")["seat"] == 1
    # the game goes on; nothing more reached the old connection
    others = [server.client(made["id"], s["token"]) for s in (made["seats"][0], made["seats"][2])]
    rng = random.Random(1)
    drive(
        [others[0], newcomer, others[1]],
        lambda seat, legal: rng.choice(legal)["notation"],
        stop=_after(5),
    )
    assert [m["type"] for m in old.received if m["type"] == "update"] == []
    for c in [newcomer, *others]:
        c.close()


def test_running_record_withholds_secrets(server: Server) -> None:
    """shitenno.md §2: hands are secret. While a match runs, its record shows the public log
    and view, or one seat's own with that seat's token, never the seed or the actions."""
    made = server.create("shitenno", 3, ["human"] * 3, seed=12)
    public = server.get(f"/api/matches/{made['id']}/record").json()
    assert public["finished"] is False and public["seat"] is None
    assert "seed" not in public and "record" not in public
    local = sengoku.new_match("shitenno", 3, seed=12)
    assert public["view"] == local.view(None) and public["log"] == wire_log(local, None)
    token = made["seats"][2]["token"]
    own = server.get(
        f"/api/matches/{made['id']}/record", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert own["seat"] == 2 and own["view"] == local.view(2) != public["view"]


def test_a_client_vanishing_mid_action_harms_nothing(server: Server) -> None:
    """A client that sends an action and drops at once leaves a server that still serves
    everyone (the action is applied or not, never half)."""
    made = server.create("shogun", 4, ["human"] * 4, seed=13)
    for _ in range(10):
        ghost = server.client(made["id"], made["seats"][0]["token"])
        ghost.send({"type": "act", "action": "nonsense", "ref": 1})
        ghost.ws.socket.close()  # no closing handshake
    assert server.get("/api/health").json()["status"] == "ok"
    me = server.client(made["id"], made["seats"][0]["token"])
    welcome = me.until(lambda m: m["type"] == "welcome")
    assert me.act(welcome["legal"][0]["notation"])["type"] == "accepted"
    me.close()


def test_http_errors_are_json(server: Server) -> None:
    missing = server.get("/api/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    wrong = httpx.delete(server.base + "/api/games")
    assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"x" * 1000

    chunked = server.post(
        "/api/matches", content=chunks(), headers={"content-type": "application/json"}
    )
    assert chunked.status_code == 413 and chunked.json()["error"]["code"] == "too_large"
    assert server.post(f"/api/matches/{'x' * 40}/seats/0", json={"kind": "bot"}).status_code == 404


def test_a_games_data_for_drawing_it(server: Server) -> None:
    """The page draws a game from ``/api/games/<name>``: its options and its client data."""
    shogun = server.get("/api/games/shogun").json()
    assert shogun["title"] == "Shogun"
    assert shogun["data"] == json.loads(json.dumps(sengoku.get_game("shogun").client_data()))
    assert len(shogun["data"]["provinces"]) == 45
    assert "source" not in json.dumps(shogun["data"])
    shitenno = server.get("/api/games/shitenno").json()
    assert [p["name"] for p in shitenno["data"]["provinces"]][:2] == ["Chugoku", "Chubu"]
    missing = server.get("/api/games/chess")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "unknown_game"


def test_a_finished_match_is_replayed_step_by_step(server: Server) -> None:
    """Each step of a replay is the spectator's view after that many actions; a running match
    is not replayed, a step out of range is refused."""
    waiting = server.create("shogun", 3, ["human", "random", "random"])
    running = server.get(f"/api/matches/{waiting['id']}/replay/0")
    assert running.status_code == 409
    assert running.json()["error"]["code"] == "not_finished"
    made = server.create("shogun", 3, ["random", "random", "random"], options={"years": 1})
    deadline = time.monotonic() + 60
    while server.get(f"/api/matches/{made['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    record = _record(server, made["id"])
    match = Match.new("shogun", 3, record["seed"], record["options"])
    total = len(record["actions"])
    for step in (0, 1, 37, total):
        while len(match.history) < step:
            seat, notation = record["actions"][len(match.history)]
            match.act(seat, notation)
        body = server.get(f"/api/matches/{made['id']}/replay/{step}?log_since=2").json()
        assert body["number"] == step and body["total"] == total
        assert body["view"] == json.loads(json.dumps(match.view(None)))
        assert body["log"] == wire_log(match, None, since=2)
        assert body["log_length"] == match.log_length
        assert body["action"] == (
            None
            if step == 0
            else {
                "seat": record["actions"][step - 1][0],
                "notation": record["actions"][step - 1][1],
                "message": message_to_json(match.game.action_message(match.history[-1][1])),
            }
        )
    assert body["outcome"] == record["outcome"]
    bad = server.get(f"/api/matches/{made['id']}/replay/{total + 1}")
    assert bad.status_code == 422
    assert bad.json()["error"]["code"] == "invalid_request"


def test_an_id_no_server_makes_is_unknown_without_asking_the_database(server: Server) -> None:
    """A match or table id with a NUL character (which PostgreSQL refuses in text) or other
    characters the server never puts in an id is an unknown match (404), not a failure."""
    for path in ("/api/matches/a%00b", "/api/matches/a%20b/record", "/api/tables/%00/start"):
        method = server.post if path.endswith("start") else server.get
        answer = method(path)
        assert answer.status_code == 404, (path, answer.text)
        assert answer.json()["error"]["code"] == "unknown_match"
