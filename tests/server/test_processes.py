"""Several server processes on one PostgreSQL database behind HAProxy: each running match is
owned by one process, clients reach it through the proxy, and when an owner dies another
takes its matches within 5 seconds with nothing acknowledged lost (docs/deploy.md)."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed

from sengoku.core import Match

from .harness import (
    Client,
    PostgresCluster,
    Proxy,
    Server,
    free_port,
    play_out_at_random,
    play_to_end,
)


class Group:
    """``count`` server processes (``s1`` …) on one new database, HAProxy in front."""

    def __init__(self, postgres: PostgresCluster, count: int) -> None:
        self.url = postgres.new_database()
        self.servers = [Server(self.url, name=f"s{i + 1}") for i in range(count)]
        self.proxy = Proxy(self.servers)

    def owners(self) -> dict[str, str]:
        """Each running match's owner's name (``None`` for none)."""
        with psycopg.connect(self.url) as conn:
            rows = conn.execute(
                "SELECT m.id, p.name FROM matches m LEFT JOIN server_processes p "
                "ON p.id = m.owner WHERE m.status = 'running'"
            ).fetchall()
        return dict(rows)

    def owner_alive(self, match_id: str) -> tuple[str, bool]:
        """The match's owner's name, and whether its lease holds."""
        with psycopg.connect(self.url) as conn:
            row = conn.execute(
                "SELECT p.name, p.expires_at > now() FROM matches m "
                "JOIN server_processes p ON p.id = m.owner WHERE m.id = %s",
                (match_id,),
            ).fetchone()
        assert row is not None
        return str(row[0]), bool(row[1])

    def length(self, match_id: str) -> int:
        """The stored actions of the match."""
        with psycopg.connect(self.url) as conn:
            row = conn.execute(
                "SELECT m.length, count(a.number), max(a.number) FROM matches m LEFT JOIN "
                "actions a ON a.match_id = m.id WHERE m.id = %s GROUP BY m.length",
                (match_id,),
            ).fetchone()
        assert row is not None
        length, count, last = row
        assert count == length and (last is None or last == length - 1)  # no gap, no twice
        return int(length)

    def storers(self, match_id: str) -> list[str]:
        """The processes that stored the match's actions, in turn (each once): an earlier
        one never comes back, or two processes owned the match at once."""
        with psycopg.connect(self.url) as conn:
            rows = conn.execute(
                "SELECT process FROM actions WHERE match_id = %s ORDER BY number", (match_id,)
            ).fetchall()
        turns: list[str] = []
        for (process,) in rows:
            if not turns or turns[-1] != process:
                assert process not in turns, f"{process} stored again after {turns}"
                turns.append(process)
        return turns

    def server(self, name: str) -> Server:
        """The process called ``name``."""
        return next(s for s in self.servers if s.name == name)

    def stop(self) -> None:
        """Stop everything; no process may have logged a traceback."""
        self.proxy.stop()
        for server in self.servers:
            server.stop()
        for server in self.servers:
            assert "Traceback" not in server.output(), server.output()[-3000:]


@pytest.fixture
def group(postgres: PostgresCluster, request: pytest.FixtureRequest) -> Iterator[Group]:
    """A group of ``request.param`` processes (default 2)."""
    made = Group(postgres, getattr(request, "param", 2))
    yield made
    made.stop()


def _play_some(clients: list[Client], moves: int, rng: random.Random) -> dict[int, dict[str, Any]]:
    """Play ``moves`` accepted actions, each by the client whose seat may act; return each
    client's latest welcome or update after the last."""
    for client in clients:
        client.until(lambda m: m["type"] == "welcome")
    done = 0
    while done < moves:
        for client in clients:
            client.drain(0.05)
            latest = client.latest
            assert latest is not None and latest["outcome"] is None
            if latest["legal"]:
                notation = rng.choice(latest["legal"])["notation"]
                answer = client.act(notation, ref=f"m{done}", expect=latest["number"])
                if answer["type"] == "accepted":
                    done += 1
    for client in clients:
        client.drain(0.3)
    return {i: dict(c.latest or {}) for i, c in enumerate(clients)}


def test_matches_spread_over_the_processes_and_play_through_the_proxy(group: Group) -> None:
    """Matches made through the proxy are owned by every process in turn, each by one; a
    match is played to its end through the proxy (the WebSocket follows ``moved`` to the
    owner, HTTP follows the redirect), and its record replays to the outcome."""
    made = [group.proxy.create("shitenno", 2, ["human", "random"], seed=s) for s in range(4)]
    owners = group.owners()
    assert {owners[m["id"]] for m in made} == {"s1", "s2"}
    owner = owners[made[0]["id"]]
    other = next(s for s in group.servers if s.name != owner)
    # a running match's request at another process: redirected to its owner, never served
    moved = other.get(f"/api/matches/{made[0]['id']}/record?x=1")  # not followed
    assert moved.status_code == 307
    assert moved.headers["location"] == f"/api/matches/{made[0]['id']}/record?x=1&at={owner}"
    asked_there = other.get(f"/api/matches/{made[0]['id']}/record?at={owner}")
    assert asked_there.status_code == 503  # the proxy could not reach it: no loop
    assert asked_there.json()["error"]["code"] == "moved"
    me = group.proxy.client(made[0]["id"], made[0]["seats"][0]["token"])
    rng = random.Random(3)
    final = play_to_end(me, lambda legal: rng.choice(legal)["notation"])
    assert final["outcome"] is not None
    response = group.proxy.get(f"/api/matches/{made[0]['id']}/record")
    assert response.status_code == 200
    record = response.json()["record"]
    assert len(record["actions"]) == final["number"] == group.length(made[0]["id"])
    assert Match.from_record(record).outcome() is not None
    me.close()


@pytest.mark.parametrize("group", [3], indirect=True)
def test_an_owner_killed_mid_game_loses_nothing_and_another_takes_over(group: Group) -> None:
    """SIGKILL the owner of two matches: within 5 s another process serves them. Each seat's
    new welcome is the position it saw before the kill (every acknowledged action kept, the
    match replayed), bots and turn clocks go on, and the match never has two owners."""
    proxy = group.proxy
    people = proxy.create("shitenno", 2, ["human", "human"], seed=5)
    owner, _ = group.owner_alive(people["id"])
    clocked = None  # a match of the same owner where a turn clock and a bot move
    for seed in range(12):
        made = proxy.create("shitenno", 2, ["human", "random"], seed=seed, turn_clock=1)
        if group.owner_alive(made["id"])[0] == owner:
            clocked = made
            break
    assert clocked is not None
    seats = [proxy.client(people["id"], s["token"]) for s in people["seats"]]
    before = _play_some(seats, 8, random.Random(5))
    deadline = time.monotonic() + 20  # the clock plays on (its bot thinks first)
    while group.length(clocked["id"]) == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    clocked_before = group.length(clocked["id"])
    assert clocked_before > 0
    group.server(owner).kill()
    killed = time.monotonic()
    for client in seats:
        client.close()
    again = [proxy.client(people["id"], s["token"]) for s in people["seats"]]
    welcomes = [c.until(lambda m: m["type"] == "welcome") for c in again]
    taken = time.monotonic() - killed
    assert taken < 5, f"the match was served again after {taken:.1f} s"
    for seat, welcome in enumerate(welcomes):
        assert welcome["number"] == before[seat]["number"] == group.length(people["id"])
        assert welcome["view"] == before[seat]["view"]
    new_owner, alive = group.owner_alive(people["id"])
    assert new_owner != owner and alive
    deadline = killed + 20  # the lease, a turn of the clock, its bot thinking (on a busy CI)
    while group.length(clocked["id"]) <= clocked_before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert group.length(clocked["id"]) > clocked_before, "the clock and the bot stopped"
    assert group.owner_alive(clocked["id"])[0] != owner
    play_out_at_random(*again)  # the rest of the match, on the new owner
    record = proxy.get(f"/api/matches/{people['id']}/record").json()["record"]
    assert Match.from_record(record).outcome() is not None
    for made in (people, clocked):  # the killed owner first, then one other
        turns = group.storers(made["id"])
        assert len(turns) == 2 and turns[0].startswith(f"{owner}.")
    for client in again:
        client.close()
    group.servers.remove(group.server(owner))  # killed: its log may end anywhere


def test_a_clean_stop_hands_the_matches_over_at_once(group: Group) -> None:
    """SIGTERM: the stopping process ends its lease and tells the others, which serve its
    matches without waiting for the lease to run out."""
    made = group.proxy.create("shitenno", 2, ["human", "human"], seed=9)
    owner, _ = group.owner_alive(made["id"])
    token = made["seats"][0]["token"]
    first = group.proxy.client(made["id"], token)
    seen = first.until(lambda m: m["type"] == "welcome")
    group.server(owner).stop()
    stopped = time.monotonic()
    again = group.proxy.client(made["id"], token)
    welcome = again.until(lambda m: m["type"] == "welcome")
    assert time.monotonic() - stopped < 2.5  # less than the 3 s lease
    assert welcome["view"] == seen["view"]
    assert group.owner_alive(made["id"])[0] != owner
    first.close()
    again.close()


def test_several_processes_refuse_sqlite() -> None:
    """``sengoku serve --processes 2`` on SQLite fails at once with a clear message."""
    done = subprocess.run(
        [sys.executable, "-m", "sengoku", "serve", "--processes", "2", "--db", "sqlite:///x.db"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "PostgreSQL" in done.stderr and "--processes" in done.stderr


def test_serve_processes_starts_the_processes_and_the_proxy(postgres: PostgresCluster) -> None:
    """``sengoku serve --processes 2 --db postgresql://...``: one address (HAProxy) in front
    of two processes, which share the new matches; SIGTERM stops them all."""
    import httpx

    port = free_port()
    while any(_busy(p) for p in (port + 1, port + 2)):
        port = free_port()
    url = postgres.new_database()
    command = [sys.executable, "-m", "sengoku", "serve", "--processes", "2", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", url, "--bot-workers", "1", "--review-iterations", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        with httpx.Client(
            base_url=f"http://127.0.0.1:{port}", timeout=10, follow_redirects=True
        ) as http:
            deadline = time.monotonic() + 60
            names: set[str] = set()  # both processes answer through the proxy
            while names != {"s1", "s2"} and time.monotonic() < deadline:
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    names.add(http.get("/api/health/process").json()["process"])
                time.sleep(0.05)
            assert names == {"s1", "s2"}, names
            # new matches one after another: round robin sends them to each process in turn,
            # unless a process busy starting up fails a health check for a moment
            # (nothing else through the proxy between two of them)
            owners: list[str] = []
            made: list[str] = []
            with psycopg.connect(url, autocommit=True) as conn:
                while len(made) < 12 and not (len(set(owners)) == 2 and len(made) >= 4):
                    one = http.post(
                        "/api/matches", json={"game": "shitenno", "players": 2, "seed": len(made)}
                    )
                    assert one.status_code == 201, one.text
                    made.append(one.json()["id"])
                    row = conn.execute("SELECT owner FROM matches WHERE id = %s", (made[-1],))
                    owners.append(str(row.fetchone()[0]).split(".")[0])
            assert set(owners) == {"s1", "s2"}, owners
            for match_id in made:  # any process answers, or sends the client to the owner
                assert http.get(f"/api/matches/{match_id}/record").status_code == 200
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=60)
    assert process.returncode == 0, out[-3000:]
    assert b"Traceback" not in out, out[-3000:]


def _busy(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_a_process_that_lost_a_match_stores_nothing_more_in_it(group: Group) -> None:
    """Fencing: when the database says another process owns a match (as after this one
    stalled past its lease and was taken over), this process's next move in it is refused
    by the database, its client is told ``moved`` (close 4307) and nothing is stored."""
    made = group.proxy.create("shitenno", 2, ["human", "human"], seed=3)
    owner, _ = group.owner_alive(made["id"])
    seat = group.proxy.get(f"/api/matches/{made['id']}").json()["to_act"][0]
    client = group.proxy.client(made["id"], made["seats"][seat]["token"])
    welcome = client.until(lambda m: m["type"] == "welcome")
    with psycopg.connect(group.url) as conn:  # the other process took it over
        conn.execute(
            "UPDATE matches SET owner = (SELECT id FROM server_processes WHERE name <> %s "
            "AND expires_at > now() LIMIT 1) WHERE id = %s",
            (owner, made["id"]),
        )
    client.send({"type": "act", "action": welcome["legal"][0]["notation"], "ref": "late"})
    told = client.until(lambda m: m["type"] == "error")
    assert told["code"] == "moved"
    with pytest.raises(ConnectionClosed) as closed:
        client.recv(10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4307
    assert group.length(made["id"]) == 0
    again = group.proxy.client(made["id"], made["seats"][seat]["token"])  # at the new owner
    assert again.until(lambda m: m["type"] == "welcome")["number"] == 0
    assert group.owner_alive(made["id"])[0] != owner
    again.close()


def test_a_process_that_joins_takes_a_share_of_new_matches(group: Group) -> None:
    """While ``s2`` is down every new match is ``s1``'s; once it is back (the proxy's
    health check sees it), new matches go to both in turn."""
    late = group.server("s2")
    late.stop()
    alone = [group.proxy.create("shitenno", 2, ["human", "human"], seed=s) for s in range(3)]
    assert {group.owner_alive(m["id"])[0] for m in alone} == {"s1"}
    late.start()
    deadline = time.monotonic() + 20
    names: set[str] = set()
    while names != {"s1", "s2"} and time.monotonic() < deadline:  # the proxy sees it again
        with contextlib.suppress(ValueError):
            names.add(group.proxy.get("/api/health/process").json()["process"])
        time.sleep(0.1)
    joined = [group.proxy.create("shitenno", 2, ["human", "human"], seed=s) for s in range(4)]
    assert {group.owner_alive(m["id"])[0] for m in joined} == {"s1", "s2"}
