"""Real servers for the server tests: a PostgreSQL cluster, ``sengoku serve`` processes and
WebSocket clients. Everything goes over real sockets on loopback."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for version in sorted(Path("/usr/lib/postgresql").glob("*"), reverse=True):
        candidate = version / "bin" / name
        if candidate.exists():
            return str(candidate)
    raise RuntimeError(f"PostgreSQL's {name} is not installed (.ci/run installs it)")


class PostgresCluster:
    """A throw-away PostgreSQL server on a free port (run as ``postgres`` when we are root);
    ``fsync`` off by default, as nothing is kept (the load benchmark can turn it on)."""

    def __init__(self, fsync: bool = False) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="sengoku-pg-"))
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self._run(
            _pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8"
        )
        self._run(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.dir / "log.txt"),
            "-w",
            "-o",
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
            f"-c fsync={'on' if fsync else 'off'} -c max_connections=200",
            "start",
        )

    def _run(self, *args: str) -> None:
        command = list(args)
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        """The URL of one database of the cluster."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """Create an empty database; returns its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and delete its files."""
        with contextlib.suppress(Exception):
            self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


#: Every test comes from one address: room for the accounts a test module makes and signs in
#: with (the tests of the limits themselves leave these out).
ROOMY_ACCOUNTS = ("--sign-ups-per-hour", "1000", "--sign-ins-per-minute", "1000")
#: No reviews of finished matches (each costs minutes of CPU), unless a test asks for them.
NO_REVIEWS = ("--review-iterations", "0")


class Server:
    """``sengoku serve`` in a process of its own, on a free port."""

    def __init__(
        self,
        db_url: str,
        bot_workers: int = 1,
        extra: Sequence[str] = ("--messages-per-second", "200", *ROOMY_ACCOUNTS, *NO_REVIEWS),
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        name: str | None = None,
    ) -> None:
        """``cwd`` and ``env``: the process's directory and environment (default: ours), e.g.
        another checkout and a ``PYTHONPATH`` naming its ``src``; ``name``: the process's
        name behind a proxy (``--process-name``)."""
        self.db_url = db_url
        self.name = name
        self.bot_workers = bot_workers
        self.extra = list(extra)
        self.cwd = cwd
        self.env = None if env is None else dict(env)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkstemp(prefix="sengoku-server-", suffix=".log")[1])
        self.start()

    @property
    def base(self) -> str:
        """The server's HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        """The server's WebSocket address."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the process and wait until it answers."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "sengoku",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db_url,
                    "--bot-workers",
                    str(self.bot_workers),
                    *(("--process-name", self.name) if self.name else ()),
                    *self.extra,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=self.cwd,
                env=self.env,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL the server and everything it started (no chance to clean up)."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """Stop the server gently (SIGTERM), or kill it."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        """What the server printed."""
        return self.log.read_text(errors="replace")

    # -- HTTP ----------------------------------------------------------------------------

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        """GET a path of the server."""
        return httpx.get(self.base + path, timeout=30, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        """POST to a path of the server."""
        return httpx.post(self.base + path, timeout=30, **kwargs)

    def create(
        self, game: str, players: int, seats: list[str] | None = None, **extra: Any
    ) -> dict[str, Any]:
        """Create a match; ``seats`` lists ``"human"`` or a bot level per seat."""
        body: dict[str, Any] = {"game": game, "players": players, **extra}
        if seats is not None:
            body["seats"] = [
                {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats
            ]
        response = self.post("/api/matches", json=body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    def client(self, match_id: str, token: str | None = None, log_since: int = 0) -> Client:
        """A WebSocket client of the match (a seat with ``token``, else a spectator)."""
        return Client(self.ws_base + f"/ws/matches/{match_id}", token, log_since)


class Client:
    """One WebSocket connection; keeps every message it received."""

    def __init__(
        self,
        url: str,
        token: str | None,
        log_since: int = 0,
        hello: bool = True,
        headers: Mapping[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self._stack = contextlib.ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(
                url,
                max_size=None,
                max_queue=None,
                open_timeout=30,
                additional_headers=dict(headers or {}),
            )
        )
        self.received: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None  # the newest welcome/update
        self.unread: list[dict[str, Any]] = []  # received already, given by recv first
        if hello:
            self.send({"type": "hello", "token": token, "log_since": log_since, **(extra or {})})

    def recv(self, timeout: float = 60) -> dict[str, Any]:
        """The next message."""
        message: dict[str, Any] = (
            self.unread.pop(0) if self.unread else json.loads(self.ws.recv(timeout=timeout))
        )
        self.received.append(message)
        if message["type"] in ("welcome", "update"):
            self.latest = message
        return message

    def until(
        self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 60
    ) -> dict[str, Any]:
        """Read messages until one satisfies ``wanted``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message came")
            message = self.recv(left)
            if wanted(message):
                return message

    def send(self, message: dict[str, Any] | str) -> None:
        """Send a JSON message (or raw text)."""
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def act(self, action: Any, ref: str = "r", expect: int | None = None) -> dict[str, Any]:
        """Send an action and return the ``accepted`` or ``error`` answer to it."""
        message: dict[str, Any] = {"type": "act", "action": action, "ref": ref}
        if expect is not None:
            message["expect"] = expect
        self.send(message)
        return self.until(lambda m: m["type"] in ("accepted", "error") and m.get("ref") == ref)

    def drain(self, quiet: float = 0.3) -> None:
        """Read until nothing has come for ``quiet`` seconds."""
        with contextlib.suppress(TimeoutError):
            while True:
                self.recv(quiet)

    def close(self) -> None:
        """Close the connection."""
        with contextlib.suppress(Exception):
            self._stack.close()


def play_to_end(
    client: Client, choose: Callable[[list[dict[str, Any]]], Any], timeout: float = 300
) -> dict[str, Any]:
    """Play the client's seat (``choose`` picks from the legal list) until the game ends;
    return the last update. Each action names the position it was chosen in (``expect``)."""
    deadline = time.monotonic() + timeout
    if client.latest is None:
        client.until(lambda m: m["type"] == "welcome")
    acted_at = -1
    while True:
        message = client.latest
        assert message is not None
        if message["outcome"] is not None:
            return message
        if time.monotonic() > deadline:
            raise TimeoutError("the game did not end in time")
        if message["legal"] and message["number"] != acted_at:
            acted_at = message["number"]
            answer = client.act(choose(message["legal"]), ref=f"a{acted_at}", expect=acted_at)
            assert answer["type"] == "accepted" or answer["code"] == "stale", answer
            continue
        client.until(
            lambda m: m["type"] in ("welcome", "update"), timeout=deadline - time.monotonic()
        )


def play_out_at_random(*clients: Client) -> None:
    """Play every client's seat at random until the match ends."""
    errors: list[BaseException] = []

    def run(client: Client, seed: int) -> None:
        rng = random.Random(seed)
        try:
            play_to_end(client, lambda legal: rng.choice(legal)["notation"])
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(c, n)) for n, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not errors, errors


class Person:
    """One person's browser, as the server sees it: an HTTP client that keeps its cookies,
    and the CSRF token of its session, sent with every change (``X-CSRF-Token``)."""

    PASSWORD = "a long enough pass"

    def __init__(self, server: Server) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=30)
        self.csrf: str | None = None

    def sign_up(self, name: str, password: str = PASSWORD, **extra: Any) -> httpx.Response:
        """Make an account and sign in with it (keeps the CSRF token)."""
        body = {"name": name, "password": password, **extra}
        return self._signed(self.post("/api/account/sign-up", json=body))

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        """Sign in (keeps the new CSRF token)."""
        body = {"name": name, "password": password}
        return self._signed(self.post("/api/account/sign-in", json=body))

    def _signed(self, response: httpx.Response) -> httpx.Response:
        if response.is_success:
            self.csrf = response.json()["csrf"]
        return response

    def plant(self, session_id: str) -> None:
        """Put a session id in this browser's cookie, as the server would."""
        self.http.cookies.set("sengoku_session", session_id, domain="127.0.0.1")

    @property
    def session_id(self) -> str | None:
        """The session id in this browser's cookie (``None``: none)."""
        return self.http.cookies.get("sengoku_session")

    def request(self, method: str, path: str, csrf: bool = True, **kwargs: Any) -> httpx.Response:
        """A request with this browser's cookies (and, for a change, the CSRF token)."""
        headers = dict(kwargs.pop("headers", {}))
        if csrf and self.csrf and method not in ("GET", "HEAD"):
            headers.setdefault("x-csrf-token", self.csrf)
        return self.http.request(method, path, headers=headers, **kwargs)

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        """GET with this browser's cookies."""
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        """POST with this browser's cookies and CSRF token."""
        return self.request("POST", path, **kwargs)

    def ws_client(self, match_id: str, hello: dict[str, Any] | None = None) -> Client:
        """A WebSocket client of the match that carries this browser's cookies and says
        ``hello`` (default: open the account's seat)."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        headers = {"Cookie": cookie, "Origin": self.server.base}
        client = Client(
            self.server.ws_base + f"/ws/matches/{match_id}", None, hello=False, headers=headers
        )
        client.send({"type": "hello", "account": True} if hello is None else hello)
        return client

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()


class Proxy:
    """HAProxy in front of server processes, with the configuration ``sengoku serve
    --processes`` writes (each server needs a ``name``); clients follow ``moved``."""

    def __init__(self, servers: Sequence[Server], unbalanced: Sequence[str] = ()) -> None:
        """``unbalanced``: names of processes that get only the requests that name them
        (``?at=NAME``; HAProxy's ``weight 0``), so a test knows where the others go."""
        from sengoku.server.proxy import haproxy_config

        self.servers = list(servers)
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="sengoku-haproxy-"))
        members = [(str(s.name), f"127.0.0.1:{s.port}") for s in self.servers]
        text = haproxy_config(f"127.0.0.1:{self.port}", members)
        for name, address in members:
            if name in unbalanced:
                text = text.replace(f"{name} {address} check", f"{name} {address} weight 0 check")
        config = self.dir / "haproxy.cfg"
        config.write_text(text)
        self.log = self.dir / "log.txt"
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [shutil.which("haproxy") or "haproxy", "-db", "-f", str(config)],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.http = httpx.Client(base_url=self.base, timeout=30, follow_redirects=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if self.http.get("/api/health").status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"HAProxy did not start: {self.log.read_text()[-2000:]}")

    @property
    def base(self) -> str:
        """The proxy's HTTP address, the one address clients know."""
        return f"http://127.0.0.1:{self.port}"

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        """GET through the proxy (following redirects to a match's owner)."""
        return self.http.get(path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        """POST through the proxy (following redirects to a match's owner)."""
        return self.http.post(path, **kwargs)

    create = Server.create

    def client(
        self,
        match_id: str,
        token: str | None = None,
        log_since: int = 0,
        tries: int = 40,
        extra: Mapping[str, Any] | None = None,
    ) -> Client:
        """A WebSocket client of the match through the proxy, following ``moved`` answers to
        the process that serves it (``?at=NAME``) as the page does; its first message (the
        welcome) is left for it to read; ``extra``: more fields of its hello."""
        at: str | None = None
        for attempt in range(tries):
            query = f"?at={at}" if at else ""
            url = f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}{query}"
            try:
                client = Client(url, token, log_since, extra=extra)
            except Exception:  # the proxy found no process to take it: again in a moment
                time.sleep(0.2)
                continue
            try:
                first = client.recv(30)
            except Exception:  # closed before a word (the process stopped): again
                client.close()
                time.sleep(0.2)
                continue
            if first["type"] == "error" and first["code"] == "moved":
                client.close()
                at = first["at"]
                time.sleep(0 if attempt == 0 else 0.2)
                continue
            client.unread.append(first)
            client.received.pop()
            client.latest = None
            return client
        raise RuntimeError(f"match {match_id} could not be reached through the proxy")

    def stop(self) -> None:
        """Stop HAProxy and delete its files."""
        self.http.close()
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Proxied(Proxy):
    """Two server processes (``s1``, ``s2``) on one PostgreSQL database behind HAProxy, used
    by the tests as one server: every request and WebSocket goes through the proxy, which
    reaches each match's owner (WebSockets follow ``moved``, HTTP follows the redirect)."""

    def __init__(self, db_url: str, **options: Any) -> None:
        super().__init__([Server(db_url, name=f"s{i}", **options) for i in (1, 2)])

    @property
    def ws_base(self) -> str:
        """The proxy's WebSocket address."""
        return f"ws://127.0.0.1:{self.port}"

    def output(self) -> str:
        """What the processes printed."""
        return "\n".join(server.output() for server in self.servers)

    def stop(self) -> None:
        """Stop the proxy and the processes."""
        super().stop()
        for server in self.servers:
            server.stop()
