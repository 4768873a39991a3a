"""The server under attack: hostile input and too many clients get documented errors, and
the connection (or the server) goes on as before. Rules-free: any match will do."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from .harness import Client, Server

DEEP = "[" * 20000 + "]" * 20000  # under the size limit, too deep for a recursive parser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One SQLite server for this module's tests."""
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'sengoku.db'}"
    srv = Server(url, bot_workers=1)
    yield srv
    srv.stop()
    assert "Traceback" not in srv.output(), srv.output()[-4000:]


def _server(tmp_path: Path, *extra: str) -> Server:
    return Server(f"sqlite:///{tmp_path / 'sengoku.db'}", bot_workers=1, extra=extra)


def test_deeply_nested_json_is_bad_json_and_the_connection_goes_on(server: Server) -> None:
    made = server.create("shitenno", 3, ["human"] * 3)
    client = server.client(made["id"], made["seats"][0]["token"])
    client.until(lambda m: m["type"] == "welcome")
    client.send(DEEP)
    assert client.until(lambda m: m["type"] == "error")["code"] == "bad_json"
    client.send({"type": "ping", "ref": 1})
    assert client.until(lambda m: m["type"] == "pong")["ref"] == 1
    client.close()
    hello = Client(server.ws_base + f"/ws/matches/{made['id']}", None, hello=False)
    hello.send(DEEP)
    assert hello.recv()["code"] == "bad_hello"
    hello.close()


def test_an_unreadable_http_body_is_invalid_request(server: Server) -> None:
    headers = {"content-type": "application/json"}
    for body in (b'{"game": "\xff\xfe"}', DEEP.encode()):
        response = server.post("/api/matches", content=body, headers=headers)
        assert response.status_code == 422, response.text
        assert response.json()["error"]["code"] == "invalid_request"


def test_a_frame_over_a_mebibyte_gets_too_large_then_a_clean_close(server: Server) -> None:
    made = server.create("shitenno", 3, ["human"] * 3)
    client = server.client(made["id"], made["seats"][0]["token"])
    client.until(lambda m: m["type"] == "welcome")
    client.send("x" * (2 << 20))
    assert client.until(lambda m: m["type"] == "error")["code"] == "too_large"
    with pytest.raises(ConnectionClosed):
        client.recv(10)
    assert client.ws.close_code == 1009
    client.close()


def test_spectators_never_crowd_out_the_players(tmp_path: Path) -> None:
    srv = _server(tmp_path, "--spectators-per-match", "3", "--connections-per-seat", "2")
    try:
        made = srv.create("shitenno", 3, ["human"] * 3)
        token = made["seats"][0]["token"]
        watchers = [srv.client(made["id"]) for _ in range(3)]
        for w in watchers:
            w.until(lambda m: m["type"] == "welcome")
        late = srv.client(made["id"])
        assert late.recv()["code"] == "too_many_spectators"
        seats = [srv.client(made["id"], token) for _ in range(2)]
        for s in seats:
            assert s.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
        third = srv.client(made["id"], token)
        assert third.recv()["code"] == "too_many_connections"
        other = srv.client(made["id"], made["seats"][1]["token"])
        assert other.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"
        for c in (*watchers, late, *seats, third, other):
            c.close()
    finally:
        srv.stop()
    assert "Traceback" not in srv.output()


def _welcomed(client: Client) -> bool:
    return client.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "welcome"


def test_connections_are_limited_in_all_and_per_address(tmp_path: Path) -> None:
    srv = _server(tmp_path, "--connections-per-address", "2", "--max-connections", "3")
    try:
        made = srv.create("shitenno", 3, ["human"] * 3)
        first = [srv.client(made["id"]) for _ in range(2)]
        assert all(_welcomed(c) for c in first)
        third = Client(srv.ws_base + f"/ws/matches/{made['id']}", None, hello=False)
        assert third.recv()["code"] == "too_many_connections"  # refused before any hello
        first[0].close()
        time.sleep(0.3)
        again = srv.client(made["id"])  # a closed connection frees its place
        assert _welcomed(again)
        for c in (*first, third, again):
            c.close()
    finally:
        srv.stop()
    srv = _server(tmp_path, "--connections-per-address", "5", "--max-connections", "2")
    try:
        made = srv.create("shitenno", 3, ["human"] * 3)
        first = [srv.client(made["id"]) for _ in range(2)]
        assert all(_welcomed(c) for c in first)
        third = Client(srv.ws_base + f"/ws/matches/{made['id']}", None, hello=False)
        assert third.recv()["code"] == "server_full"
        for c in (*first, third):
            c.close()
    finally:
        srv.stop()
    assert "Traceback" not in srv.output()


def test_the_rate_limit_table_forgets_idle_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    from sengoku.server import limits

    now = [1000.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: now[0])
    limit = limits.WindowLimit(2)
    for n in range(1000):
        assert limit.take(f"10.0.{n // 256}.{n % 256}")
    assert limit.take("10.0.0.0") and not limit.take("10.0.0.0")
    now[0] += 61
    assert limit.take("192.0.2.1")  # the first event after a minute sweeps the table
    assert set(limit.events) == {"192.0.2.1"}
    assert limit.take("10.0.0.0")  # a forgotten address starts afresh


def test_links_use_the_public_url_when_set(server: Server, tmp_path: Path) -> None:
    body = {"game": "shitenno", "players": 3}
    forged = server.post("/api/matches", json=body, headers={"Host": "evil.example"}).json()
    assert forged["spectate_url"].startswith("http://evil.example/play/")  # the default
    srv = _server(tmp_path, "--public-url", "https://games.example.org/")
    try:
        made = srv.post("/api/matches", json=body, headers={"Host": "evil.example"}).json()
        assert made["spectate_url"] == f"https://games.example.org/play/{made['id']}"
        token = made["seats"][0]["token"]
        assert made["seats"][0]["join_url"] == (
            f"https://games.example.org/play/{made['id']}#token={token}"
        )
        changed = srv.post(
            f"/api/matches/{made['id']}/seats/1",
            json={"kind": "human", "new_token": True},
            headers={"Authorization": f"Bearer {made['host_token']}", "Host": "evil.example"},
        ).json()
        assert changed["join_url"].startswith("https://games.example.org/play/")
    finally:
        srv.stop()


def _made(srv: Server, forwarded: str) -> int:
    body = {"game": "shitenno", "players": 3}
    return srv.post("/api/matches", json=body, headers={"X-Forwarded-For": forwarded}).status_code


def test_x_forwarded_for_counts_only_behind_a_trusted_proxy(tmp_path: Path) -> None:
    srv = _server(tmp_path, "--matches-per-minute", "1", "--trusted-proxy", "127.0.0.0/8")
    try:
        assert _made(srv, "198.51.100.1") == 201
        assert _made(srv, "198.51.100.1") == 429
        assert _made(srv, "198.51.100.2") == 201
        # a client cannot hide behind a forged left-most entry: the proxy appends its peer
        assert _made(srv, "203.0.113.9, 198.51.100.1") == 429
        assert _made(srv, "198.51.100.3, 127.0.0.5") == 201  # trusted hops are skipped
    finally:
        srv.stop()
    srv = _server(tmp_path, "--matches-per-minute", "1")
    try:
        assert _made(srv, "198.51.100.1") == 201
        assert _made(srv, "198.51.100.2") == 429  # not trusted: the header is ignored
    finally:
        srv.stop()


def test_pages_carry_a_strict_content_security_policy(server: Server) -> None:
    for path in ("/", "/play/abc", "/replay/abc"):
        page = server.get(path)
        policy = page.headers["content-security-policy"]
        assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-eval" not in policy and "default-src 'self'" in policy
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["x-frame-options"] == "DENY"
        assert "<script>" not in page.text and "<style" not in page.text  # nothing inline
    api = server.get("/api/health")
    assert api.headers["x-content-type-options"] == "nosniff"
    assert server.get("/web/app.js").headers["x-content-type-options"] == "nosniff"
