"""Accounts over real HTTP: sign up, sign in and out, sessions, CSRF, rate limits, the host's
command line, and seats that belong to an account (docs/protocol.md, "Accounts").

Security findings each have a test here that fails without their fix: the CSRF check, the
new session id at sign-in, the rate limits, the one answer for an unknown name and a wrong
password, the check of ``Origin`` before a seat opens by cookie.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sengoku.server.accounts import HASHER

from .harness import Client, Person, Server, play_to_end

Make = Callable[[Server], Person]


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server on SQLite for this module's tests that need no second backend."""
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'sengoku.db'}", bot_workers=1)
    yield srv
    srv.stop()
    assert "Traceback" not in srv.output(), srv.output()[-4000:]


def cookie_of(response_headers: list[str]) -> dict[str, str]:
    """The attributes of a Set-Cookie header, lower-cased names."""
    parts = [p.strip() for p in response_headers[0].split(";")]
    name, value = parts[0].split("=", 1)
    return {"name": name, "value": value, **{p.split("=")[0].lower(): p for p in parts[1:]}}


def test_sign_up_sign_in_sign_out_and_change_the_password(server: Server, person: Make) -> None:
    """The account's life: made and signed in at once, in an HttpOnly SameSite=Lax cookie (not
    Secure over plain http); signed out, signed in again; the password changed with the
    current one, which ends the other browsers' sessions."""
    ann = person(server)
    made = ann.sign_up("ann", display_name="Ann of Edo", language="ja")
    assert made.status_code == 201, made.text
    assert made.json()["account"] == {
        "name": "ann",
        "display_name": "Ann of Edo",
        "language": "ja",
        "created_at": made.json()["account"]["created_at"],
    }
    cookie = cookie_of(made.headers.get_list("set-cookie"))
    assert cookie["name"] == "sengoku_session" and len(cookie["value"]) >= 43
    assert "httponly" in cookie and cookie["samesite"].lower() == "samesite=lax"
    assert "secure" not in cookie and cookie["path"] == "Path=/"
    assert made.headers["cache-control"] == "no-store"
    assert ann.get("/api/account").json()["account"]["name"] == "ann"
    assert ann.sign_up("ANN").json()["error"]["code"] == "name_taken"  # one name, any case

    other = person(server)
    assert other.sign_in("Ann").status_code == 200  # names sign in in any case
    assert ann.post("/api/account/sign-out").json() == {"account": None, "csrf": None}
    assert ann.get("/api/account").json()["account"] is None
    assert ann.sign_in("ann").status_code == 200

    wrong = ann.post(
        "/api/account/password", json={"current": "nope-nope", "new": "brand new pass"}
    )
    assert wrong.status_code == 403
    short = ann.post("/api/account/password", json={"current": Person.PASSWORD, "new": "short"})
    assert short.json()["error"]["code"] == "bad_password"
    before = ann.session_id
    changed = ann.post(
        "/api/account/password", json={"current": Person.PASSWORD, "new": "brand new pass"}
    )
    assert changed.status_code == 200, changed.text
    ann.csrf = changed.json()["csrf"]
    assert ann.session_id != before and ann.get("/api/account").json()["account"]
    assert other.get("/api/account").json()["account"] is None  # its session ended
    assert other.sign_in("ann").status_code == 401
    assert other.sign_in("ann", "brand new pass").status_code == 200
    renamed = ann.request(
        "PATCH", "/api/account", json={"display_name": " Ann \u202e ", "language": "nl"}
    )
    assert (
        renamed.json()["account"]["display_name"] == "Ann"
        and renamed.json()["account"]["language"] == "nl"
    )


def test_the_cookie_is_secure_behind_https(tmp_path: Path, person: Make) -> None:
    """A server whose public address is https sets the session cookie ``Secure``."""
    srv = Server(
        f"sqlite:///{tmp_path / 's.db'}", extra=["--public-url", "https://games.example.org"]
    )
    try:
        made = person(srv).sign_up("ann")
        assert "secure" in cookie_of(made.headers.get_list("set-cookie"))
    finally:
        srv.stop()


def test_a_change_without_the_csrf_token_is_refused_and_changes_nothing(
    sqlite_server: Server, person: Make
) -> None:
    """Every change made with the session cookie carries the session's CSRF token: without
    it, with another session's, or from another site's page, it is refused (403 ``csrf``)
    and nothing changes. Reading needs no token."""
    server = sqlite_server
    ann, bob = person(server), person(server)
    ann.sign_up("csrf_ann", display_name="Ann")
    bob.sign_up("csrf_bob")
    attempts = [
        {"csrf": False},
        {"headers": {"x-csrf-token": bob.csrf or ""}},
        {"headers": {"x-csrf-token": ""}},
        {"headers": {"x-csrf-token": (ann.csrf or "") + "x"}},
        {"headers": {"Origin": "https://evil.example"}},
    ]
    tables_before = server.get("/api/tables").json()
    for attempt in attempts:
        changed = ann.request("PATCH", "/api/account", json={"display_name": "Mallory"}, **attempt)
        assert changed.status_code == 403 and changed.json()["error"]["code"] == "csrf", attempt
        table = ann.post(
            "/api/matches",
            json={
                "game": "shitenno",
                "players": 2,
                "seats": [{"kind": "human", "mine": True}, {"kind": "open"}],
            },
            **attempt,
        )
        assert table.status_code == 403, attempt
        out = ann.post("/api/account/sign-out", **attempt)
        assert out.status_code == 403, attempt
    assert ann.get("/api/account").json()["account"]["display_name"] == "Ann"
    assert server.get("/api/tables").json() == tables_before
    good = ann.request("PATCH", "/api/account", json={"display_name": "Ann II"})
    assert good.json()["account"]["display_name"] == "Ann II"
    # a change with a cookie that opens no session is anonymous: no token needed, none used
    stranger = person(server)
    stranger.plant("not-a-session")
    assert stranger.post("/api/account/sign-out").status_code == 200


def test_the_session_id_changes_at_sign_in(sqlite_server: Server, person: Make) -> None:
    """Sign-in makes a new session id: an id planted before (session fixation) or held before
    opens nothing afterwards, and the new one does."""
    server = sqlite_server
    ann = person(server)
    ann.sign_up("fixed_ann")
    first = ann.session_id
    again = ann.sign_in("fixed_ann")
    assert again.status_code == 200
    second = ann.session_id
    assert first and second and first != second
    stale = person(server)
    stale.plant(first)
    assert stale.get("/api/account").json()["account"] is None  # the old session ended
    planted = person(server)
    planted.plant("planted-by-someone-else-0123456789abcdef")
    assert planted.sign_in("fixed_ann").status_code == 200
    assert planted.session_id not in (None, "planted-by-someone-else-0123456789abcdef")


def test_repeated_wrong_passwords_are_slowed_and_unknown_names_answer_alike(
    tmp_path: Path, person: Make
) -> None:
    """An unknown name and a wrong password get the same answer; after five failures for a
    name, even the right password is refused for a while (429 with Retry-After), for an
    unknown name alike; one address gets at most ten tries a minute."""
    srv = Server(f"sqlite:///{tmp_path / 's.db'}", extra=[])  # the limits by default
    try:
        ann = person(srv)
        ann.sign_up("slow_ann")
        visitor = person(srv)
        wrong = visitor.sign_in("slow_ann", "wrong password")
        unknown = visitor.sign_in("nobody_here", "wrong password")
        assert (
            (wrong.status_code, wrong.json())
            == (unknown.status_code, unknown.json())
            == (
                401,
                {
                    "error": {
                        "code": "bad_credentials",
                        "message": "the name or the password is wrong",
                    }
                },
            )
        )
        for _ in range(4):
            assert visitor.sign_in("slow_ann", "wrong password").status_code == 401
            assert visitor.sign_in("nobody_here", "wrong password").status_code == 401
        for name in ("slow_ann", "nobody_here"):
            refused = visitor.sign_in(name)
            assert refused.status_code == 429, refused.text
            assert int(refused.headers["retry-after"]) > 0
        elsewhere = person(srv)  # the same address: its per-address limit is spent too
        answers = [elsewhere.sign_in("other_name", "x" * 8).status_code for _ in range(3)]
        assert answers[-1] == 429
    finally:
        srv.stop()


def test_no_password_hash_or_session_id_ever_appears_in_an_answer_or_a_log_line(
    tmp_path: Path, person: Make
) -> None:
    """Whatever two people do (sign up, in, out, change passwords and names, open and take
    seats at a table, look at profiles, tables and matches), no answer's body or header, and
    no line the server logs, holds anyone's password, password hash, session id or CSRF
    token, but for the one cookie a browser is given for its own session."""
    db = tmp_path / "s.db"
    srv = Server(f"sqlite:///{db}")
    answers: list[str] = []
    cookies_seen: list[str] = []

    def seen(response: object) -> None:
        import httpx

        assert isinstance(response, httpx.Response)
        headers = [(k, v) for k, v in response.headers.multi_items() if k != "set-cookie"]
        answers.append(response.text + json.dumps(headers))
        cookies_seen.extend(response.headers.get_list("set-cookie"))

    try:
        ann, bob = person(srv), person(srv)
        for person in (ann, bob):
            person.http.event_hooks["response"] = [lambda r: (r.read(), seen(r))]
        passwords = ["ann's secret pass", "bob's secret pass", "ann's next pass"]
        ann.sign_up("leak_ann", passwords[0])
        bob.sign_up("leak_bob", passwords[1])
        sessions = [ann.session_id, bob.session_id]
        made = ann.post(
            "/api/matches",
            json={
                "game": "shitenno",
                "players": 2,
                "seats": [{"kind": "human", "mine": True}, {"kind": "open"}],
            },
        ).json()
        bob.get("/api/tables")
        bob.post(f"/api/tables/{made['id']}/seats/1")
        ann.post(f"/api/tables/{made['id']}/start")
        changed = ann.post(
            "/api/account/password", json={"current": passwords[0], "new": passwords[2]}
        )
        ann.csrf = changed.json()["csrf"]
        sessions.append(ann.session_id)
        bob.sign_in("leak_bob", "not bob's password")
        bob.sign_in("leak_ann", passwords[0])  # the old one
        bob.post("/api/account/sign-out")
        bob.sign_in("leak_bob", passwords[1])
        sessions.append(bob.session_id)
        for path in (
            "/api/account",
            "/api/account/matches",
            "/api/players/leak_ann",
            "/api/matches",
        ):
            ann.get(path)
        ann.get(f"/api/matches/{made['id']}")
        import sqlite3

        with sqlite3.connect(db) as conn:
            hashes = [h for (h,) in conn.execute("SELECT password_hash FROM accounts")]
        assert all(h.startswith("$argon2id$") for h in hashes) and len(hashes) == 2
        csrf_tokens = [ann.csrf, bob.csrf]
        secrets_ = [
            *passwords,
            *hashes,
            *(s for s in sessions if s),
            *(c for c in csrf_tokens if c),
        ]
        srv.stop()
        log = srv.output()
        for secret in secrets_:
            assert secret not in log
        for secret in [*passwords, *hashes]:
            assert not any(secret in a for a in answers)
        for session_id in sessions:
            assert session_id and not any(session_id in a for a in answers)
        # the session ids travel only in their own Set-Cookie headers, one each
        for session_id in sessions:
            assert sum(session_id in c for c in cookies_seen) == 1
    finally:
        srv.stop()


def test_argon2id_parameters_are_at_least_owasps() -> None:
    """OWASP's Password Storage Cheat Sheet: argon2id with at least 19 MiB, 2 passes, 1 lane."""
    params = HASHER.hash("x").split("$")
    assert params[1] == "argon2id"
    settings = dict(p.split("=") for p in params[3].split(","))
    assert int(settings["m"]) >= 19456 and int(settings["t"]) >= 2 and int(settings["p"]) >= 1


def test_the_host_locks_an_account_and_resets_a_password_from_the_command_line(
    tmp_path: Path, person: Make
) -> None:
    """``sengoku accounts``: a locked account cannot sign in and its sessions end; a reset
    password works (and the old one no longer does); an unknown name is a clear error."""
    db = f"sqlite:///{tmp_path / 's.db'}"
    srv = Server(db)

    def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "sengoku", "accounts", *args, "--db", db]
        return subprocess.run(command, capture_output=True, text=True, input=stdin, timeout=60)

    try:
        ann = person(srv)
        ann.sign_up("cli_ann")
        listed = cli("list")
        assert listed.returncode == 0 and "cli_ann" in listed.stdout
        assert cli("lock", "cli_ann").returncode == 0
        assert ann.get("/api/account").json()["account"] is None
        locked = person(srv).sign_in("cli_ann")
        assert locked.json()["error"]["code"] == "account_locked"
        assert person(srv).sign_in("cli_ann", "not the password").status_code == 401
        assert cli("unlock", "cli_ann").returncode == 0
        reset = cli("reset-password", "cli_ann")
        assert reset.returncode == 0, reset.stderr
        new = reset.stdout.strip().rsplit(" ", 1)[1]
        assert person(srv).sign_in("cli_ann").status_code == 401
        assert person(srv).sign_in("cli_ann", new).status_code == 200
        assert (
            cli("reset-password", "cli_ann", "--password-stdin", stdin="typed by host\n").returncode
            == 0
        )
        assert person(srv).sign_in("cli_ann", "typed by host").status_code == 200
        missing = cli("lock", "nobody_at_all")
        assert missing.returncode == 2 and "no player" in missing.stderr
        short = cli("reset-password", "cli_ann", "--password-stdin", stdin="short\n")
        assert short.returncode == 2 and "8 to 128" in short.stderr
    finally:
        srv.stop()


def test_a_signed_in_players_seats_follow_them_to_any_browser(
    sqlite_server: Server, person: Make
) -> None:
    """A seat of one's own (``mine``) is listed under the account's matches in any browser
    and opens there by the account, from this server's pages only (``Origin``); a seat link
    opened while signed in becomes the account's only when the player claims it; another
    account cannot claim it, nor can one account hold two seats of a match."""
    server = sqlite_server
    ann = person(server)
    ann.sign_up("seat_ann")
    made = ann.post(
        "/api/matches",
        json={
            "game": "shitenno",
            "players": 3,
            "seed": 0,  # seat 0 begins
            "seats": [{"kind": "human", "mine": True}, {"kind": "human"}, {"kind": "human"}],
        },
    ).json()
    assert [s["mine"] for s in made["seats"]] == [True, False, False]
    laptop = person(server)
    laptop.sign_in("seat_ann")
    mine = laptop.get("/api/account/matches").json()
    assert [(m["id"], m["seat"], m["your_turn"]) for m in mine] == [(made["id"], 0, True)]
    assert mine[0]["seats"][0]["account"] == "seat_ann"
    client = laptop.ws_client(made["id"])
    welcome = client.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] == 0 and welcome["legal"]
    assert client.act(welcome["legal"][0]["notation"])["type"] == "accepted"  # by the account
    client.close()
    # a page of another site opens a WebSocket with the player's cookie: refused
    cookie = "; ".join(f"{k}={v}" for k, v in laptop.http.cookies.items())
    other_site = Client(
        server.ws_base + f"/ws/matches/{made['id']}",
        None,
        hello=False,
        headers={"Cookie": cookie, "Origin": "https://evil.example"},
    )
    other_site.send({"type": "hello", "account": True})
    assert other_site.recv()["code"] == "bad_origin"
    other_site.close()
    anonymous = person(server).ws_client(made["id"])
    assert anonymous.recv()["code"] == "sign_in_required"
    anonymous.close()

    # seat 1 was made as a link; its player signs in and claims it
    link = made["seats"][1]["token"]
    bob, carol = person(server), person(server)
    bob.sign_up("seat_bob")
    carol.sign_up("seat_carol")
    claim = f"/api/matches/{made['id']}/seats/1/claim"
    auth = {"authorization": f"Bearer {link}"}
    assert bob.post(claim).status_code == 403  # without the seat's key
    assert bob.post(claim, headers={**auth}, csrf=False).status_code == 403  # CSRF
    assert bob.get("/api/account/matches").json() == []  # not before it is claimed
    claimed = bob.post(claim, headers=auth)
    assert claimed.json() == {"seat": 1, "account": "seat_bob"}, claimed.text
    assert carol.post(claim, headers=auth).json()["error"]["code"] == "seat_taken"
    own = {"authorization": f"Bearer {made['seats'][0]['token']}"}
    assert ann.post(f"/api/matches/{made['id']}/seats/0/claim", headers=own).status_code == 200
    second = {"authorization": f"Bearer {made['seats'][2]['token']}"}
    twice = ann.post(f"/api/matches/{made['id']}/seats/2/claim", headers=second)
    assert twice.json()["error"]["code"] == "already_seated"
    assert [m["seat"] for m in bob.get("/api/account/matches").json()] == [1]
    seats = server.get(f"/api/matches/{made['id']}").json()["seats"]
    assert [s["account"] for s in seats] == ["seat_ann", "seat_bob", None]
    # the host gives seat 1 a new link: it is no longer the account's
    host = {"authorization": f"Bearer {made['host_token']}"}
    server.post(
        f"/api/matches/{made['id']}/seats/1",
        json={"kind": "human", "new_token": True},
        headers=host,
    )
    assert bob.get("/api/account/matches").json() == []


def test_a_rated_match_moves_ratings_exactly_as_openskill_computes_them(
    server: Server, person: Make
) -> None:
    """A rated Shitenno match between an account and two bots of fixed levels: when it ends,
    each seat's rating moves exactly as openskill's Plackett-Luce model computes it from the
    ratings before and the places; a second rated match starts from the first's ratings.
    The profile lists the match with its place, and the leaderboard orders by mu - 3 sigma."""
    from openskill.models import PlackettLuce

    ann = person(server)
    ann.sign_up(f"rated_{server.db_url.split(':')[0]}")
    name = ann.get("/api/account").json()["account"]["name"]
    model = PlackettLuce()
    for round_ in range(2):
        made = ann.post(
            "/api/matches",
            json={
                "game": "shitenno",
                "players": 3,
                "rated": True,
                "seats": [
                    {"kind": "human", "mine": True},
                    {"kind": "bot", "bot": "random"},
                    {"kind": "bot", "bot": "heuristic"},
                ],
            },
        ).json()
        info = server.get(f"/api/matches/{made['id']}").json()
        assert info["rated"] is True and info["undo"] is False
        client = server.client(made["id"], made["seats"][0]["token"])
        final = play_to_end(client, lambda legal: legal[0]["notation"])
        client.close()
        ranks = final["outcome"]["ranks"]
        changes = server.get(f"/api/matches/{made['id']}/ratings").json()
        assert changes["rated"] and [c["seat"] for c in changes["changes"]] == [0, 1, 2]
        before = [model.rating(c["mu_before"], c["sigma_before"]) for c in changes["changes"]]
        if round_ == 0:
            assert before[0].mu == 25.0 and before[0].sigma == 25 / 3
        expected = model.rate([[r] for r in before], ranks=ranks)
        for change, [after] in zip(changes["changes"], expected, strict=True):
            assert (change["mu"], change["sigma"]) == (after.mu, after.sigma)
        profile = server.get(f"/api/players/{name}").json()
        rating = next(r for r in profile["ratings"] if r["game"] == "shitenno")
        assert (rating["mu"], rating["sigma"], rating["games"]) == (
            expected[0][0].mu,
            expected[0][0].sigma,
            round_ + 1,
        )
        assert profile["matches"][0]["id"] == made["id"]
        assert profile["matches"][0]["rank"] == ranks[0]
        assert len(profile["history"]["shitenno"]) == round_ + 1
    board = server.get("/api/ratings/shitenno").json()["players"]
    ordinals = [p["ordinal"] for p in board]
    assert ordinals == sorted(ordinals, reverse=True)
    assert {"bot:random", "bot:heuristic", name} <= {p["name"] for p in board}


def test_rated_matches_and_open_tables_take_only_what_they_can(
    sqlite_server: Server, person: Make
) -> None:
    """A rated match and an open table need an account; a rated match has undo off and no
    seat for a link; one seat at most is one's own."""
    server = sqlite_server
    seats = [{"kind": "human", "mine": True}, {"kind": "open"}]
    anonymous = server.post("/api/matches", json={"game": "shitenno", "players": 2, "seats": seats})
    assert anonymous.status_code == 401
    ann = person(server)
    ann.sign_up("rules_ann")

    def refused(body: dict[str, object]) -> str:
        answer = ann.post("/api/matches", json={"game": "shitenno", "players": 2, **body})
        assert answer.status_code in (401, 422), answer.text
        return str(answer.json()["error"]["message"])

    assert "undo off" in refused({"rated": True, "undo": True, "seats": seats})
    assert "link" in refused(
        {"rated": True, "seats": [{"kind": "human", "mine": True}, {"kind": "human"}]}
    )
    assert "one seat" in refused({"seats": [{"kind": "human", "mine": True}] * 2})
    assert "person" in refused({"seats": [{"kind": "open", "mine": True}, {"kind": "open"}]})
    assert "bot level" in refused({"seats": [{"kind": "open", "bot": "easy"}, {"kind": "open"}]})
    assert "player" in refused(
        {
            "rated": True,
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        }
    )
