"""A fuzz of the account and table endpoints: whatever bad input comes (malformed JSON, wrong
types, bad names and passwords, wrong keys and tokens, seats that are not there, a missing
or foreign CSRF token), the answer is a clear error (a 4xx status and
``{"error": {"code", "message"}}``) and nothing stored changes."""

from __future__ import annotations

import sqlite3
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import psycopg
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sengoku.server.accounts import check_name

from .harness import Person, Proxied, Server

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
#: names that are no account name: too short or long, other characters, not text
BAD_NAMES = st.one_of(
    st.text(max_size=2),
    st.text(min_size=25, max_size=40),
    st.text(min_size=3, max_size=20).filter(lambda n: not _valid_name(n)),
    st.integers(),
    st.none(),
    st.lists(st.text(max_size=3), max_size=2),
)
BAD_PASSWORDS = st.one_of(
    st.text(max_size=7), st.text(min_size=129, max_size=200), st.integers(), st.none()
)
BAD_DISPLAY = st.one_of(
    st.just(""),
    st.text(alphabet="\x00\x01\n\t \u202e", min_size=1, max_size=5),
    # too long even once cleaned as chat text is (controls and format characters go)
    st.text(alphabet=string.ascii_letters + string.digits + "漢字", min_size=41, max_size=60),
    st.integers(),
    st.lists(st.integers(), max_size=2),
)
SEATS = st.one_of(st.integers(min_value=-3, max_value=9), st.text(max_size=6), st.just(2**70)).map(
    lambda seat: quote(str(seat), safe="")
)
EXTRA = st.dictionaries(st.sampled_from(["admin", "id", "kind", "account_id"]), JSON, max_size=1)


def _valid_name(name: str) -> bool:
    try:
        check_name(name)
    except Exception:
        return False
    return True


@pytest.fixture(scope="module", params=["sqlite", "proxied"])
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """A server with two accounts and a full table that has not started: one process on
    SQLite, or (``proxied``) two PostgreSQL processes behind HAProxy, reached through it."""
    extra = ["--messages-per-second", "200"]
    server: Any
    if request.param == "sqlite":
        db: Any = tmp_path_factory.mktemp("fuzz") / "sengoku.db"
        server = Server(f"sqlite:///{db}", extra=extra)
    else:
        db = request.getfixturevalue("postgres").new_database()
        server = Proxied(db, extra=extra)
    host, guest = Person(server), Person(server)
    host.sign_up("fuzz_host")
    guest.sign_up("fuzz_guest")
    seats = [{"kind": "human", "mine": True}, {"kind": "open"}]
    table = host.post("/api/matches", json={"game": "shitenno", "players": 2, "seats": seats})
    taken = guest.post(f"/api/tables/{table.json()['id']}/seats/1")
    assert taken.status_code == 200, taken.text
    yield {
        "server": server,
        "db": db,
        "host": host,
        "guest": guest,
        "table": table.json()["id"],
        "host_token": table.json()["host_token"],
        "seat_token": taken.json()["token"],
    }
    host.close()
    guest.close()
    server.stop()
    assert "Traceback" not in server.output(), server.output()[-4000:]


def snapshot(db: Path | str) -> list[Any]:
    """Everything stored about accounts, sessions, tables and seats (an SQLite file, or a
    PostgreSQL URL)."""
    tables = ("accounts", "sessions", "matches", "seats", "ratings", "actions")
    if isinstance(db, str):
        with psycopg.connect(db) as pg:
            return [pg.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables]
    with sqlite3.connect(db) as conn:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables]


@st.composite
def bad_requests(draw: st.DrawFn, table: str) -> tuple[str, str, Any, str]:
    """(method, path, body, who): a request no server should carry out. ``who`` is
    ``guest`` (signed in, with the CSRF token), ``guest-no-csrf``, ``guest-foreign-csrf``
    or ``anonymous``; ``body`` is JSON, or bytes sent as they are."""
    ids = st.one_of(
        st.just(table), st.text(min_size=1, max_size=40).filter(lambda s: s not in (".", ".."))
    ).map(lambda text: quote(text, safe=""))
    kind = draw(
        st.sampled_from(
            [
                "sign-up-name",
                "sign-up-password",
                "sign-up-extra",
                "sign-in",
                "password",
                "patch",
                "take",
                "leave",
                "start",
                "cancel",
                "claim",
                "raw",
                "csrf",
            ]
        )
    )
    who = "guest"
    if kind == "sign-up-name":
        body = {
            "name": draw(BAD_NAMES | st.sampled_from(["fuzz_host", "FUZZ_GUEST"])),
            "password": "long enough pass",
        }
        return "POST", "/api/account/sign-up", body, "anonymous"
    if kind == "sign-up-password":
        return (
            "POST",
            "/api/account/sign-up",
            {"name": "fresh_name", "password": draw(BAD_PASSWORDS)},
            "anonymous",
        )
    if kind == "sign-up-extra":
        extra = draw(
            st.dictionaries(
                st.sampled_from(["admin", "kind", "language"]), JSON, min_size=1, max_size=2
            )
        )
        assume(extra.get("language") not in ("en", "ja", "zh", "nl"))
        return (
            "POST",
            "/api/account/sign-up",
            {"name": "fresh_name", "password": "long enough pass", **extra},
            "anonymous",
        )
    if kind == "sign-in":
        password = draw(JSON)
        assume(password != Person.PASSWORD)
        body = {
            "name": draw(st.sampled_from(["fuzz_host", "fuzz_guest"]) | BAD_NAMES),
            "password": password,
        }
        return "POST", "/api/account/sign-in", body, draw(st.sampled_from(["anonymous", "guest"]))
    if kind == "password":
        current = draw(JSON)
        assume(current != Person.PASSWORD)
        return "POST", "/api/account/password", {"current": current, "new": draw(JSON)}, who
    if kind == "patch":
        body = draw(
            st.fixed_dictionaries(
                {}, optional={"display_name": BAD_DISPLAY, "language": JSON}
            ).filter(lambda b: b and b.get("language", 0) not in (None, "en", "ja", "zh", "nl"))
        )
        return "PATCH", "/api/account", {**body, **draw(EXTRA)}, who
    if kind == "take":
        body = draw(st.none() | st.fixed_dictionaries({"name": JSON}) | JSON)
        return (
            "POST",
            f"/api/tables/{draw(ids)}/seats/{draw(SEATS)}",
            body,
            draw(st.sampled_from(["anonymous", "guest"])),
        )
    if kind == "leave":
        return (
            "DELETE",
            f"/api/tables/{draw(ids)}/seats/{draw(st.sampled_from([0, 5]) | SEATS)}",
            None,
            "anonymous",
        )
    if kind in ("start", "cancel"):
        path = f"/api/tables/{draw(ids)}" + ("/start" if kind == "start" else "")
        body = draw(st.none() | st.fixed_dictionaries({"fill": JSON}))
        return (
            ("POST" if kind == "start" else "DELETE"),
            path,
            body,
            draw(st.sampled_from(["anonymous", "guest"])),
        )
    if kind == "claim":
        return "POST", f"/api/matches/{draw(ids)}/seats/{draw(SEATS)}/claim", None, who
    if kind == "raw":
        path = draw(
            st.sampled_from(
                [
                    "/api/account/sign-up",
                    "/api/account/sign-in",
                    "/api/account",
                    f"/api/tables/{table}/seats/1",
                ]
            )
        )
        raw = draw(st.binary(max_size=40) | st.just(b'{"name": "x"') | st.just(b"[1, 2]"))
        method = "PATCH" if path == "/api/account" else "POST"
        return method, path, raw, draw(st.sampled_from(["anonymous", "guest"]))
    # a change with the session cookie but without its CSRF token, or with another's
    path, method, body = draw(
        st.sampled_from(
            [
                ("/api/account", "PATCH", {"display_name": "Changed"}),
                ("/api/account/sign-out", "POST", None),
                (
                    "/api/account/password",
                    "POST",
                    {"current": Person.PASSWORD, "new": "long enough 2"},
                ),
                (f"/api/tables/{table}", "DELETE", None),
                (f"/api/tables/{table}/seats/1", "DELETE", None),
            ]
        )
    )
    return method, path, body, draw(st.sampled_from(["guest-no-csrf", "guest-foreign-csrf"]))


def test_bad_account_and_table_requests_get_clear_errors_and_change_nothing(
    world: dict[str, Any],
) -> None:
    server, guest, host = world["server"], world["guest"], world["host"]
    before = snapshot(world["db"])

    @settings(
        max_examples=250,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(bad_requests(world["table"]))
    def check(request: tuple[str, str, Any, str]) -> None:
        method, path, body, who = request
        headers: dict[str, str] = {}
        if isinstance(body, bytes):
            kwargs: dict[str, Any] = {
                "content": body,
                "headers": {"content-type": "application/json"},
            }
        else:
            kwargs = {"json": body} if body is not None else {}
        if who == "anonymous":
            answer = httpx.request(method, server.base + path, timeout=30, **kwargs)
        else:
            if who == "guest-no-csrf":
                headers["x-csrf-token"] = ""
            elif who == "guest-foreign-csrf":
                headers["x-csrf-token"] = host.csrf or ""
            kwargs["headers"] = {**kwargs.get("headers", {}), **headers}
            answer = guest.request(method, path, csrf=who == "guest", **kwargs)
        assert 400 <= answer.status_code < 500, (request, answer.status_code, answer.text)
        error = answer.json()["error"]
        assert isinstance(error["code"], str) and error["code"]
        assert isinstance(error["message"], str) and error["message"]
        assert snapshot(world["db"]) == before, (request, answer.text)

    check()
