"""The HTTP and WebSocket API (FastAPI). The protocol is described in ``docs/protocol.md``."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import secrets
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from platformdirs import user_data_dir
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import sengoku
from sengoku.core import (
    IllegalActionError,
    OptionError,
    SengokuError,
    SetupError,
    UndoRefusedError,
    UnknownGameError,
    available_games,
    describe_options,
    get_game,
    message_to_json,
)

from .bots import BOT_LEVELS, make_pool
from .chat import ChatError, rematch_token
from .hub import (
    CLOSE_REFUSED,
    CLOSE_UNKNOWN,
    Connection,
    Hub,
    LiveMatch,
    SeatError,
    StaleActionError,
    UndoDisabledError,
)
from .replays import Replays
from .store import CHAT_CHANNEL, NOTIFY_CHANNEL, Seat, Store, digest

__all__ = ["ServerSettings", "create_app", "default_database_url"]

log = logging.getLogger("sengoku.server")
CLOSE_TOO_BIG = 1009  # the WebSocket close code for a message too big to process
WEB = Path(sengoku.__file__).parent / "web"


def default_database_url(explicit: str | None = None) -> str:
    """The database to use: ``explicit``, else ``SENGOKU_DB``, else the embedded default,
    an SQLite file in the user's data directory."""
    if explicit:
        return explicit
    fallback = f"sqlite:///{Path(user_data_dir('sengoku', appauthor=False)) / 'sengoku.db'}"
    return os.environ.get("SENGOKU_DB") or fallback


@dataclass(frozen=True)
class ServerSettings:
    """How a server runs; every limit a client can meet is here.

    Attributes:
        database_url: ``sqlite:///PATH`` (default: the user's data directory) or
            ``postgresql://USER@HOST/DB``.
        bot_workers: processes bots think in (default: the number of cores).
        bot_processes: ``False`` runs bots in threads (for tests and tiny machines).
        max_message_bytes: the largest WebSocket message or HTTP body accepted.
        max_frame_bytes: a WebSocket frame larger than this gets ``too_large`` and the
            connection closes (1009); the transport refuses frames over ``transport_frame_bytes``.
        messages_per_second, message_burst: each connection's rate limit (a token bucket).
        matches_per_minute: how many matches one address may create per minute.
        hello_timeout: seconds a new WebSocket has to say who it is.
        max_connections, connections_per_address: the most WebSockets open at once, in all
            and from one address.
        spectators_per_match: the most spectators one match takes at once.
        connections_per_seat: the most connections one seat of a match takes at once (so
            spectators never crowd out the players).
        public_url: the server's address as people reach it (``https://games.example.org``),
            for links; empty: taken from each request's ``Host`` header.
        trusted_proxies: addresses (or networks) of reverse proxies whose
            ``X-Forwarded-For`` is believed: a client's address is then the right-most
            untrusted one there. Empty: the peer's address, and the header is ignored.
        clock_level: the bot that plays a person's overdue turn when a turn clock is set.
        idle_seconds: a running match with no connection, no bot to move and no turn clock
            running leaves memory after this long (0: never); the next request replays it.
        finished_cache: how many finished matches nobody watches stay in memory (the most
            recently asked for), so their records and replays need no replay from the database.
    """

    database_url: str = ""
    bot_workers: int = 0
    bot_processes: bool = True
    max_message_bytes: int = 64 * 1024
    max_frame_bytes: int = 1 << 20
    transport_frame_bytes: int = 16 << 20
    messages_per_second: float = 20.0
    message_burst: int = 40
    matches_per_minute: int = 30
    hello_timeout: float = 10.0
    spectators_per_match: int = 256
    max_connections: int = 10_000
    connections_per_address: int = 256
    connections_per_seat: int = 8
    clock_level: str = "easy"
    public_url: str = ""
    trusted_proxies: tuple[str, ...] = ()
    idle_seconds: float = 600.0
    finished_cache: int = 256


class ApiError(Exception):
    """An error a client gets as ``{"error": {"code", "message"}}`` with an HTTP status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


# -- request bodies -------------------------------------------------------------------------


class SeatSpec(BaseModel):
    """A seat of a new match: a person (``human``) or a bot of some level."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, description=f"the bot's level: {', '.join(BOT_LEVELS)}")
    name: str | None = Field(default=None, max_length=40)


class NewMatch(BaseModel):
    """``POST /api/matches``: what to play and who sits where."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(default=None, description="default: all human")
    seed: int | None = Field(default=None, ge=0, lt=2**53, description="for reproducible play")
    turn_clock: float | None = Field(
        default=None,
        ge=1,
        le=7 * 24 * 3600,
        description="seconds a person has per decision before a bot plays it",
    )
    spectator_chat: bool = Field(default=False, description="whether spectators may chat too")
    undo: bool = Field(
        default=True,
        description="whether a player may take back their latest action while it showed "
        "nothing hidden and nobody has acted on it (docs/protocol.md)",
    )


class SeatChange(BaseModel):
    """``POST /api/matches/{id}/seats/{seat}``: hand a seat to a bot or back to a person."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    bot: str | None = None
    new_token: bool = False


# -- limits ---------------------------------------------------------------------------------


class BodyLimit:
    """ASGI middleware: an HTTP body larger than ``limit`` bytes gets 413, whether it says its
    length or comes in chunks (it is read, up to the limit, before the app sees it)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit)(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await _too_large(self.limit)(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


# The web UI is ES modules and a style sheet from /web, talking to /api and /ws of the same
# server; seat colours are set in style attributes (hence 'unsafe-inline' for styles only).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware: every HTTP response says ``nosniff``, may not be framed and sends
    no referrer to other sites (the pages add a Content-Security-Policy, :func:`_page`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _page() -> FileResponse:
    """The web UI's one HTML page, under its Content-Security-Policy."""
    return FileResponse(
        WEB / "index.html", headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY}
    )


def _too_large(limit: int) -> JSONResponse:
    return _error(413, "too_large", f"the body is larger than {limit} bytes")


class TokenBucket:
    """A rate limit: ``rate`` events a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token; ``False`` when none is left."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class WindowLimit:
    """At most ``count`` events per key in any 60 seconds; keys idle for a minute are
    forgotten (once a minute), so memory stays bounded by the keys of the last two minutes."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.events: dict[str, deque[float]] = defaultdict(deque)
        self.swept = time.monotonic()

    def take(self, key: str) -> bool:
        """Record an event for ``key``; ``False`` when over the limit."""
        now = time.monotonic()
        if now - self.swept >= 60:
            self._forget_idle(now)
        events = self.events[key]
        while events and events[0] < now - 60:
            events.popleft()
        if len(events) >= self.count:
            return False
        events.append(now)
        return True

    def _forget_idle(self, now: float) -> None:
        """Drop every key with no event in the last 60 seconds."""
        self.swept = now
        for key in [k for k, events in self.events.items() if not events or events[-1] < now - 60]:
            del self.events[key]


class SocketCount:
    """The WebSockets open now, in all and per address, against their limits."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> tuple[str, str] | None:
        """Count a new socket from ``address``; the error code and reason if it is refused."""
        if sum(self.open.values()) >= self.total:
            return ("server_full", "the server has all the connections it can take; try later")
        if self.open.get(address, 0) >= self.per_address:
            return ("too_many_connections", "this address has all the connections it may have")
        self.open[address] = self.open.get(address, 0) + 1
        return None

    def leave(self, address: str) -> None:
        """A socket counted by :meth:`enter` has closed."""
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


def _public_base(request: Request, settings: ServerSettings) -> str:
    """Where links point: ``public_url`` when set, else what the request's Host header says."""
    return (settings.public_url or str(request.base_url)).rstrip("/")


def _address(client: HTTPConnection, trusted: tuple[str, ...] = ()) -> str:
    """The address a request or WebSocket comes from, for limits: the peer's, unless the
    peer is a trusted proxy; then the right-most untrusted one of ``X-Forwarded-For``."""
    peer = client.client.host if client.client else "?"
    if not _is_trusted(peer, trusted):
        return peer
    forwarded = ",".join(client.headers.getlist("x-forwarded-for"))
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop[:64]
    return hops[0][:64] if hops else peer


def _is_trusted(address: str, trusted: tuple[str, ...]) -> bool:
    """Whether ``address`` is one of the ``trusted`` proxies (addresses or networks)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(net, strict=False) for net in trusted)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


# -- the application ------------------------------------------------------------------------


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """Build the server application (the database is migrated when it starts)."""
    settings = settings or ServerSettings()
    for proxy in settings.trusted_proxies:  # a typo fails at start, not on every request
        ipaddress.ip_network(proxy, strict=False)
    url = default_database_url(settings.database_url)
    store = Store(url)
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(store.migrate)
        workers = settings.bot_workers or os.cpu_count() or 1
        hub = state["hub"] = Hub(
            store,
            lambda: make_pool(workers, settings.bot_processes),
            settings.clock_level,
            settings.idle_seconds,
            settings.finished_cache,
        )
        listener = asyncio.create_task(_listen(store, hub)) if store.is_postgres else None
        reloaded = await hub.load_running()
        log.info("sengoku %s: %d unfinished matches going on", sengoku.__version__, reloaded)
        try:
            yield
        finally:
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listener
            await hub.close()
            store.dispose()

    app = FastAPI(
        title="Sengoku",
        version=sengoku.__version__,
        summary="Play Shogun and Shitenno with friends and bots: every rule enforced.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, limit=settings.max_message_bytes)
    app.add_middleware(SecurityHeaders)
    creations = WindowLimit(settings.matches_per_minute)
    replays = Replays()
    sockets = SocketCount(settings.max_connections, settings.connections_per_address)

    def hub() -> Hub:
        return state["hub"]  # type: ignore[no-any-return]

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # FastAPI could not read the body (bad UTF-8, too deep)
            return _error(422, "invalid_request", "the body is not JSON this server reads")
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        return _error(422, "invalid_request", problems or "the request is not valid")

    @app.exception_handler(Exception)
    async def internal(_request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error", exc_info=exc)
        return _error(500, "internal", "the server failed; the error has been logged")

    # -- HTTP --------------------------------------------------------------------------------

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Whether the server and its database answer, and how many matches it holds."""
        count = await run_in_threadpool(store.count)
        return {
            "status": "ok",
            "version": sengoku.__version__,
            "database": "postgresql" if store.is_postgres else "sqlite",
            "matches": count,
            "live": len(hub().live),
            "cached": len(hub().finished),
        }

    @app.get("/api/games", tags=["games"])
    async def games() -> list[dict[str, Any]]:
        """Every game with its player counts and options (defaults, ranges and docs)."""
        return [_describe_game(name) for name in available_games()]

    @app.get("/api/games/{name}", tags=["games"])
    async def game_data(name: str) -> dict[str, Any]:
        """One game as in ``/api/games``, plus ``data``: its public facts for drawing it
        (names, tables, the board's graph)."""
        if name not in available_games():
            raise ApiError(404, "unknown_game", f"there is no game {name[:40]!r}")
        return {**_describe_game(name), "data": get_game(name).client_data()}

    @app.post("/api/matches", status_code=201, tags=["matches"])
    async def create_match(body: NewMatch, request: Request) -> dict[str, Any]:
        """Start a match; returns its id, the host token, one secret join link per person."""
        client = _address(request, settings.trusted_proxies)
        if not creations.take(client):
            raise ApiError(
                429, "rate_limited", "too many new matches from this address; wait a minute"
            )
        specs = body.seats or [SeatSpec() for _ in range(body.players)]
        if len(specs) != body.players:
            raise ApiError(
                422,
                "invalid_request",
                f"{body.players} players need {body.players} seats, not {len(specs)}",
            )
        seats, tokens = [], {}
        for number, spec in enumerate(specs):
            if spec.kind == "bot":
                level = _level(spec.bot or "normal")
                seats.append(Seat(number, "bot", level, spec.name))
            else:
                if spec.bot is not None:
                    raise ApiError(
                        422, "invalid_request", f"seat {number} is human and has no bot level"
                    )
                token = tokens[number] = secrets.token_urlsafe(24)
                seats.append(Seat(number, "human", None, spec.name, digest(token)))
        host = secrets.token_urlsafe(24)
        try:
            live = await hub().create(
                body.game,
                body.players,
                body.options,
                body.seed,
                seats,
                body.turn_clock,
                digest(host),
                spectator_chat=body.spectator_chat,
                allow_undo=body.undo,
            )
        except UnknownGameError as exc:
            raise ApiError(404, "unknown_game", str(exc)) from None
        except (SetupError, OptionError) as exc:
            raise ApiError(422, "invalid_setup", str(exc)) from None
        base = _public_base(request, settings)
        return {
            "id": live.id,
            "host_token": host,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    **(
                        {
                            "token": tokens[s.seat],
                            "join_url": f"{base}/play/{live.id}#token={tokens[s.seat]}",
                        }
                        if s.seat in tokens
                        else {}
                    ),
                }
                for s in seats
            ],
            "spectate_url": f"{base}/play/{live.id}",
            "websocket": f"/ws/matches/{live.id}",
        }

    @app.get("/api/matches", tags=["matches"])
    async def list_matches(
        status: Literal["running", "finished", "all"] = "all", limit: int = 100
    ) -> list[dict[str, Any]]:
        """Open, running and finished matches, newest first (no secrets)."""
        limit = max(1, min(limit, 500))
        rows = await run_in_threadpool(store.matches, None if status == "all" else status, limit)
        out = []
        for row in rows:
            item = row.public()
            live = hub().live.get(row.id)
            item["presence"] = live.presence() if live else None
            out.append(item)
        return out

    @app.get("/api/matches/{match_id}", tags=["matches"])
    async def get_match(match_id: str) -> dict[str, Any]:
        """One match: its set-up, seats, who is connected, whose turn it is."""
        live = await _live(hub(), match_id)
        item = live.stored.public()
        item["actions"] = live.number
        item["presence"] = live.presence()
        item["to_act"] = live.match.to_act()
        return item

    @app.get("/api/matches/{match_id}/record", tags=["matches"])
    async def record(
        match_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The record of a finished match (replayable: seed and every action). While it runs:
        the public log and view, or a seat's own with ``Authorization: Bearer SEAT_TOKEN``."""
        live = await _live(hub(), match_id)
        if live.match.outcome() is not None:
            return {"finished": True, "record": live.match.to_record()}
        seat = None
        if authorization is not None:
            seat = _seat_of(live, _bearer(authorization))
            if seat is None:
                raise ApiError(403, "bad_token", "that token opens no seat of this match")
        return {
            "finished": False,
            "game": live.stored.game,
            "players": live.stored.players,
            "options": live.stored.options,
            "seat": seat,
            "actions": live.number,
            "log": [message_to_json(e) for e in live.match.log_entries(seat)],
            "view": live.match.view(seat),
        }

    @app.get("/api/matches/{match_id}/replay/{number}", tags=["matches"])
    async def replay(match_id: str, number: int, log_since: int = 0) -> dict[str, Any]:
        """A finished match as it stood after its first ``number`` actions, as a spectator
        saw it: ``view``, the public ``log`` lines from ``log_since`` on, ``log_length``, the
        ``action`` just taken (seat and notation; ``null`` at 0) and ``total`` actions."""
        live = await _live(hub(), match_id)
        if live.match.outcome() is None:
            raise ApiError(409, "not_finished", "a running match is replayed once it is over")
        history = live.match.history
        if not 0 <= number <= len(history) or log_since < 0:
            raise ApiError(
                422, "invalid_request", f"step {number} is not between 0 and {len(history)}"
            )
        match = await run_in_threadpool(replays.position, live.id, live.match, number)
        last = history[number - 1] if number else None
        return {
            "number": number,
            "total": len(history),
            "action": None
            if last is None
            else {
                "seat": last[0],
                "notation": str(last[1]),
                "message": message_to_json(live.match.game.action_message(last[1])),
            },
            "view": match.view(None),
            "log": [message_to_json(e) for e in match.log_entries(None, since=log_since)],
            "log_length": match.log_length,
            "outcome": outcome.to_json() if (outcome := match.outcome()) else None,
        }

    @app.post("/api/matches/{match_id}/seats/{seat}", tags=["matches"])
    async def change_seat(
        match_id: str,
        seat: int,
        body: SeatChange,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The host hands a seat to a bot (an absent player) or back to a person."""
        live = await _live(hub(), match_id)
        token = _bearer(authorization)
        if not token or not secrets.compare_digest(digest(token), live.stored.host_digest):
            raise ApiError(
                403, "not_host", "only the match's host (with the host token) may do that"
            )
        if not 0 <= seat < live.stored.players:
            raise ApiError(404, "unknown_seat", f"there is no seat {seat} in this match")
        level = _level(body.bot or "normal") if body.kind == "bot" else None
        if body.kind == "human" and body.bot is not None:
            raise ApiError(422, "invalid_request", "a human seat has no bot level")
        new = await hub().hand_over(live, seat, body.kind, level, body.new_token)
        base = f"{_public_base(request, settings)}/play/{live.id}"
        return {
            "seat": seat,
            "kind": body.kind,
            "bot": level,
            **({"token": new, "join_url": f"{base}#token={new}"} if new else {}),
        }

    # -- rematch -------------------------------------------------------------------------------

    @app.post("/api/matches/{match_id}/rematch", tags=["matches"])
    async def make_rematch(
        match_id: str,
        request: Request,
        response: Response,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """A finished match's rematch, made on the first request (``201``) and the same one
        after (``200``), with the key of a seat of it or of the host: it answers each seat
        with that seat's own new link, and the host with the new host key."""
        live = await _live(hub(), match_id)
        token = _bearer(authorization)
        seat = _rematch_role(live, token)
        if live.match.outcome() is None:
            raise ApiError(409, "not_finished", "a rematch is made once the match is over")
        if live.stored.rematch is None:
            client = _address(request, settings.trusted_proxies)
            if not creations.take(client):
                raise ApiError(
                    429, "rate_limited", "too many new matches from this address; wait a minute"
                )
        new, made = await hub().rematch(live)
        response.status_code = 201 if made else 200
        return await _rematch_answer(hub(), new, token, seat, _public_base(request, settings))

    @app.get("/api/matches/{match_id}/rematch", tags=["matches"])
    async def find_rematch(
        match_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Where a match's rematch is: with a seat's key of this match, that seat's own new
        link; with the host key, the new host key; without a key, the spectators' link."""
        live = await _live(hub(), match_id)
        token = _bearer(authorization)
        seat = _rematch_role(live, token) if token else None
        if live.stored.rematch is None:
            raise ApiError(404, "no_rematch", "this match has no rematch (yet)")
        new = await _live(hub(), live.stored.rematch)
        return await _rematch_answer(hub(), new, token, seat, _public_base(request, settings))

    # -- WebSocket -----------------------------------------------------------------------------

    @app.websocket("/ws/matches/{match_id}")
    async def play(ws: WebSocket, match_id: str) -> None:
        """One client of a match; see docs/protocol.md for the messages."""
        await ws.accept()
        address = _address(ws, settings.trusted_proxies)
        refusal = sockets.enter(address)
        if refusal is not None:
            await _refuse(ws, *refusal, CLOSE_REFUSED)
            return
        try:
            await serve_client(ws, match_id)
        finally:
            sockets.leave(address)

    async def serve_client(ws: WebSocket, match_id: str) -> None:
        try:
            hello = await asyncio.wait_for(_receive(ws), settings.hello_timeout)
        except TimeoutError:
            hello = None
        if not isinstance(hello, str):
            hint = 'say hello first: {"type": "hello", "token": ...}'
            await _refuse(ws, "no_hello", hint, CLOSE_REFUSED)
            return
        greeting = _parse(hello, settings.max_message_bytes)
        if isinstance(greeting, tuple) or greeting.get("type") != "hello":
            reason = (
                greeting[1] if isinstance(greeting, tuple) else "the first message must be a hello"
            )
            await _refuse(ws, "bad_hello", reason, CLOSE_REFUSED)
            return
        try:
            live = await _live(hub(), match_id)
        except ApiError as exc:
            await _refuse(ws, exc.code, exc.message, CLOSE_UNKNOWN)
            return
        seat, token_digest = None, None
        token = greeting.get("token")
        if token is not None:
            seat = _seat_of(live, token) if isinstance(token, str) else None
            if seat is None:
                await _refuse(
                    ws, "bad_token", "that token opens no seat of this match", CLOSE_REFUSED
                )
                return
            token_digest = live.seats[seat].token_digest
        full = _no_room(live, seat, settings)
        if full is not None:
            await _refuse(ws, *full, CLOSE_REFUSED)
            return
        since = greeting.get("log_since", 0)
        conn = Connection(seat, ws.send_text, lambda code: ws.close(code), token_digest)
        conn.undo_hints = greeting.get("undo_hints") is True
        conn.patches = greeting.get("patches") is True
        hub().connect(
            live,
            conn,
            since if isinstance(since, int) and not isinstance(since, bool) else 0,
            _undos_seen(greeting),
        )
        bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
        try:
            while not (conn.revoked or conn.lagging):
                text = await _receive(ws)
                if text is None:  # the client went away
                    break
                if not bucket.take():
                    conn.push(
                        _ws_error("rate_limited", "too many messages; slow down", _ref_of(text))
                    )
                    continue
                if len(text) > settings.max_frame_bytes:
                    await _close_too_large(ws, conn, settings.max_frame_bytes)
                    break
                if isinstance(text, bytes):
                    conn.push(_ws_error("bad_message", "send JSON text messages"))
                    continue
                message = _parse(text, settings.max_message_bytes)
                if isinstance(message, tuple):
                    conn.push(_ws_error(*message))
                    continue
                try:
                    await _handle(hub(), live, conn, message)
                except Exception:
                    log.exception("internal error on a message to match %s", live.id)
                    conn.push(_ws_error("internal", "the server failed; the error has been logged"))
        finally:
            await hub().disconnect(live, conn)
            with contextlib.suppress(Exception):
                await ws.close()

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return _page()

    @app.get("/play/{match_id}", include_in_schema=False)
    async def play_page(match_id: str) -> FileResponse:
        return _page()

    @app.get("/replay/{match_id}", include_in_schema=False)
    async def replay_page(match_id: str) -> FileResponse:
        return _page()

    app.mount("/web", StaticFiles(directory=WEB), name="web")

    return app


# -- helpers ---------------------------------------------------------------------------------


def _describe_game(name: str) -> dict[str, Any]:
    game = get_game(name)
    return {
        "name": name,
        "title": game.title,
        "player_counts": list(game.player_counts),
        "options": [o.to_json() for o in describe_options(game.options_type)],
    }


def _level(level: str) -> str:
    if level not in BOT_LEVELS:
        raise ApiError(
            422, "invalid_request", f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}"
        )
    return level


async def _live(hub: Hub, match_id: str) -> LiveMatch:
    live = await hub.get(match_id) if len(match_id) <= 32 else None
    if live is None:
        raise ApiError(404, "unknown_match", f"there is no match {match_id[:40]!r}")
    return live


def _seat_of(live: LiveMatch, token: str) -> int | None:
    wanted = digest(token)
    for seat in live.seats:
        if seat.token_digest is not None and secrets.compare_digest(seat.token_digest, wanted):
            return seat.seat
    return None


def _rematch_role(live: LiveMatch, token: str) -> int | None:
    """The seat whose key ``token`` is, ``None`` for the host's key; else ``bad_token``."""
    if token and secrets.compare_digest(digest(token), live.stored.host_digest):
        return None
    seat = _seat_of(live, token) if token else None
    if seat is None:
        raise ApiError(
            403, "bad_token", "that key opens no seat of this match, nor is it the host key"
        )
    return seat


async def _rematch_answer(
    hub: Hub, new: LiveMatch, token: str, seat: int | None, base_url: str
) -> dict[str, Any]:
    """The rematch as one seat (or the host, or a spectator without ``token``) may see it:
    only that seat's own new key. Claims the key for the seat on the way."""
    base = f"{base_url.rstrip('/')}/play/{new.id}"
    answer: dict[str, Any] = {
        "match": new.id,
        "seat": seat,
        "spectate_url": base,
        "websocket": f"/ws/matches/{new.id}",
    }
    if not token:
        return answer
    key = rematch_token(token, new.id, seat)
    if not await hub.claim(new, seat, digest(key)):
        raise ApiError(
            409, "seat_taken", "the host has given this seat of the rematch to someone else"
        )
    if seat is None:
        answer["host_token"] = key
    else:
        answer.update(token=key, join_url=f"{base}#token={key}")
    return answer


def _parse(text: str, limit: int) -> dict[str, Any] | tuple[str, str]:
    """A client's JSON object, or the error code and reason why it is not one."""
    if len(text.encode()) > limit:
        return ("too_large", f"the message is larger than {limit} bytes")
    try:
        message = json.loads(text)
    except ValueError as exc:
        return ("bad_json", f"not JSON: {exc}")
    except RecursionError:
        return ("bad_json", "not JSON this server reads: nested too deeply")
    if not isinstance(message, dict):
        return ("bad_json", "a message is a JSON object")
    return message


def _no_room(live: LiveMatch, seat: int | None, settings: ServerSettings) -> tuple[str, str] | None:
    """Why the match takes no more connections for ``seat`` (``None``: a spectator), if so."""
    same = sum(c.seat == seat for c in live.connections)
    if seat is None and same >= settings.spectators_per_match:
        return ("too_many_spectators", "this match has all the spectators it can take")
    if seat is not None and same >= settings.connections_per_seat:
        return ("too_many_connections", "this seat has all the connections it can take")
    return None


def _bearer(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header ('' without one)."""
    return (authorization or "").removeprefix("Bearer ").strip()


def _ws_error(code: str, message: str, ref: Any = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "ref": ref}


async def _refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(_ws_error(code, message)))
        await ws.close(code=close_code)


async def _close_too_large(ws: WebSocket, conn: Connection, limit: int) -> None:
    """A frame too large to keep the connection for: say so, then close with 1009."""
    conn.push(_ws_error("too_large", f"a frame over {limit} bytes; the connection closes"))
    await conn.close()
    with contextlib.suppress(Exception):
        await ws.close(code=CLOSE_TOO_BIG)


async def _receive(ws: WebSocket) -> str | bytes | None:
    """The next frame's text (or bytes), or ``None`` once the client has gone."""
    try:
        message = await ws.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


def _ref_of(text: str | bytes) -> Any:
    """The ``ref`` of a message, if it is a small JSON object that has a valid one."""
    if isinstance(text, bytes) or len(text) > 4096:
        return None
    try:
        ref = json.loads(text).get("ref")
    except (ValueError, AttributeError, RecursionError):
        return None
    return ref if isinstance(ref, str | int) and len(str(ref)) <= 64 else None


async def _handle(hub: Hub, live: LiveMatch, conn: Connection, message: dict[str, Any]) -> None:
    kind = message.get("type")
    ref = message.get("ref")
    if ref is not None and (not isinstance(ref, str | int) or len(str(ref)) > 64):
        conn.push(_ws_error("bad_message", "ref is a short string or a number"))
        return
    if kind == "ping":
        conn.push({"type": "pong", "ref": ref})
        return
    if kind == "chat":
        try:
            await hub.chat(live, conn, message.get("text"), ref)
        except ChatError as exc:
            conn.push(_ws_error(exc.code, str(exc), ref))
        return
    if kind == "undo":
        await _handle_undo(hub, live, conn, ref)
        return
    if kind == "sync":  # the client lost track: the whole view and log again
        conn.push(live.message(conn, "update", reset=True))
        return
    if kind != "act":
        conn.push(_ws_error("bad_message", f"unknown message type {str(kind)[:40]!r}", ref))
        return
    if conn.seat is None:
        conn.push(_ws_error("spectator", "spectators cannot act", ref))
        return
    action = message.get("action")
    expect = message.get("expect")
    if not isinstance(action, str | dict) or (
        expect is not None and (isinstance(expect, bool) or not isinstance(expect, int))
    ):
        conn.push(
            _ws_error(
                "bad_message",
                "act needs an action (notation or object) and an optional integer expect",
                ref,
            )
        )
        return
    try:
        notation = await hub.submit(live, conn.seat, action, expect=expect, conn=conn)
    except SeatError as exc:
        conn.push(_ws_error(exc.code, str(exc), ref))
    except IllegalActionError as exc:
        conn.push(_ws_error("illegal_action", exc.reason, ref))
    except StaleActionError as exc:
        conn.push(_ws_error("stale", str(exc), ref))
    except SengokuError as exc:
        conn.push(_ws_error("illegal_action", str(exc), ref))
    else:
        conn.push({"type": "accepted", "ref": ref, "action": notation})


async def _handle_undo(hub: Hub, live: LiveMatch, conn: Connection, ref: Any) -> None:
    """``{"type": "undo"}``: take back the seat's latest action (docs/protocol.md)."""
    if conn.seat is None:
        conn.push(_ws_error("spectator", "spectators cannot act", ref))
        return
    try:
        notation = await hub.undo(live, conn.seat, conn)
    except SeatError as exc:
        conn.push(_ws_error(exc.code, str(exc), ref))
    except UndoDisabledError as exc:
        conn.push(_ws_error("undo_disabled", str(exc), ref))
    except UndoRefusedError as exc:
        conn.push({**_ws_error("undo_refused", exc.reason, ref), "reason": exc.code})
    except StaleActionError as exc:
        conn.push(_ws_error("stale", str(exc), ref))
    else:
        conn.push({"type": "undone", "ref": ref, "action": notation, "number": live.number})


def _undos_seen(hello: dict[str, Any]) -> int | None:
    """The count of undos the client's log was built on, if its hello says one."""
    undos = hello.get("undos")
    return undos if isinstance(undos, int) and not isinstance(undos, bool) else None


async def _listen(store: Store, hub: Hub) -> None:
    """PostgreSQL: hear of actions other server processes stored, and catch up.

    Each match catches up in a task of its own, so a busy match holds up no other; several
    notifications for a match that is already catching up make one more catch-up, not many.
    """
    import psycopg

    conninfo = store.url.replace("postgresql+psycopg://", "postgresql://", 1)
    running: dict[str, asyncio.Task[None]] = {}
    again: set[str] = set()

    async def catch_up(match_id: str) -> None:
        try:
            while True:
                again.discard(match_id)
                try:
                    await hub.on_notify(match_id)
                except Exception:
                    log.exception("could not catch up on match %s", match_id)
                if match_id not in again:
                    return
        finally:
            running.pop(match_id, None)

    def notified(match_id: str) -> None:
        if match_id in running:
            again.add(match_id)
        else:
            running[match_id] = asyncio.create_task(catch_up(match_id))

    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                await conn.execute(f"LISTEN {CHAT_CHANNEL}")
                for match_id in [*hub.live, *hub.finished]:  # missed while not listening
                    notified(match_id)
                async for note in conn.notifies():
                    if note.channel == CHAT_CHANNEL:
                        _chat_noted(hub, store, note.payload)
                        continue
                    match_id, _, origin = note.payload.partition(" ")
                    if origin != store.origin:  # our own commits need no catching up
                        notified(match_id)
        except asyncio.CancelledError:
            for task in running.values():
                task.cancel()
            raise
        except Exception:
            log.exception("lost the PostgreSQL notification connection; reconnecting")
            await asyncio.sleep(1)


def _chat_noted(hub: Hub, store: Store, payload: str) -> None:
    """A chat message another process stored: pass it to our clients of its match."""
    try:
        note = json.loads(payload)
        if note["origin"] != store.origin:
            hub.on_chat_notify(str(note["match"]), dict(note["chat"]))
    except (ValueError, KeyError, TypeError):
        log.exception("a chat notification could not be read")
