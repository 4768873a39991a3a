"""What the routers share: the server's :class:`Services` (settings, database, live matches,
accounts, limits), reached by every route through FastAPI's dependency ``ServicesDep``; the
signed-in player (``PlayerDep``, with the CSRF check of every state change made with the
session cookie); and the small checks several routers make (a match by id, a seat by its
token, a bot level)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from sengoku.core import describe_options, get_game

from .accounts import Accounts, SignedIn, SignInLimits
from .bots import BOT_LEVELS
from .errors import ApiError
from .hub import Hub
from .limits import SocketCount, WindowLimit
from .live import LiveMatch
from .ratings import Ratings
from .replays import Replays
from .reviews import Reviews
from .settings import ServerSettings
from .store import Store, StoredMatch, digest
from .tables import Tables

__all__ = [
    "SESSION_COOKIE",
    "PlayerDep",
    "Services",
    "ServicesDep",
    "bearer",
    "check_level",
    "describe_game",
    "is_host",
    "live_match",
    "need_player",
    "same_origin",
    "seat_of",
    "services",
    "signed_in",
    "stored_match",
]

#: The cookie that holds a signed-in browser's session id (HttpOnly, SameSite=Lax).
SESSION_COOKIE = "sengoku_session"
#: Methods that change nothing: they need no CSRF token.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(eq=False)
class Services:
    """One server process's parts, made by :func:`~.app.create_app`; the hub is made when
    the application starts (it needs the event loop)."""

    settings: ServerSettings
    store: Store
    accounts: Accounts
    sign_ins: SignInLimits
    sign_ups: WindowLimit
    tables: Tables
    ratings: Ratings
    reviews: Reviews
    creations: WindowLimit
    sockets: SocketCount
    replays: Replays = field(default_factory=Replays)
    started: Hub | None = None

    @property
    def hub(self) -> Hub:
        """The live matches of this process (once the application has started)."""
        if self.started is None:
            raise RuntimeError("the server has not started")
        return self.started


def services(conn: HTTPConnection) -> Services:
    """The dependency: the server's services, for an HTTP request or a WebSocket."""
    found: Services = conn.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]


def same_origin(conn: HTTPConnection, settings: ServerSettings) -> bool:
    """Whether the request's ``Origin`` (if it says one) is this server: the host of
    ``public_url`` when set, else the ``Host`` the request was sent to. A browser sends
    ``Origin`` with every cross-site request that changes something, and with every
    WebSocket."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    ours = urlsplit(settings.public_url).netloc if settings.public_url else conn.headers.get("host")
    return bool(ours) and urlsplit(origin).netloc == ours


async def signed_in(request: Request, svc: ServicesDep) -> SignedIn | None:
    """The dependency: the player signed in with this request's session cookie (``None``:
    nobody). A request that changes something (not GET) with a live session must carry the
    session's CSRF token in ``X-CSRF-Token`` and come from this server's pages, else it is
    refused (``csrf``, 403) before it changes anything."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    found = await run_in_threadpool(svc.accounts.session, cookie)
    if found is None or request.method in SAFE_METHODS:
        return found
    token = request.headers.get("x-csrf-token", "")
    if not secrets.compare_digest(token.encode(), found.csrf.encode()):
        raise ApiError(403, "csrf", "this change needs the session's CSRF token (X-CSRF-Token)")
    if not same_origin(request, svc.settings):
        raise ApiError(403, "csrf", "this change comes from another site")
    return found


PlayerDep = Annotated[SignedIn | None, Depends(signed_in)]


def need_player(player: SignedIn | None) -> SignedIn:
    """``player``, or ``sign_in_required`` (401)."""
    if player is None:
        raise ApiError(401, "sign_in_required", "sign in first")
    return player


def describe_game(name: str) -> dict[str, Any]:
    """A game as ``/api/games`` lists it: its name, title, player counts, options and whether
    it has a tutorial (``/learn/<name>``)."""
    game = get_game(name)
    return {
        "name": name,
        "title": game.title,
        "player_counts": list(game.player_counts),
        "options": [o.to_json() for o in describe_options(game.options_type)],
        "tutorial": game.tutorial() is not None,
    }


def check_level(level: str) -> str:
    """``level`` if it is a bot level the server offers; else ``invalid_request``."""
    if level not in BOT_LEVELS:
        raise ApiError(
            422, "invalid_request", f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}"
        )
    return level


def plausible_id(match_id: str) -> bool:
    """Whether ``match_id`` could name a match (1-32 letters, digits, ``-`` or ``_``, as the
    server makes them): anything else is unknown without asking the database, which
    PostgreSQL would refuse for a NUL character."""
    return (
        0 < len(match_id) <= 32
        and match_id.isascii()
        and match_id.replace("-", "").replace("_", "").isalnum()
    )


async def live_match(hub: Hub, match_id: str) -> LiveMatch:
    """The match with that id, loaded if need be; else ``unknown_match`` (404)."""
    live = await hub.get(match_id) if plausible_id(match_id) else None
    if live is None:
        raise ApiError(404, "unknown_match", f"there is no match {match_id[:40]!r}")
    return live


async def stored_match(store: Store, match_id: str, what: str = "match") -> StoredMatch:
    """The match (or open table) with that id as stored, not loaded; else ``unknown_match``
    (404)."""
    found = await run_in_threadpool(store.get, match_id) if plausible_id(match_id) else None
    if found is None:
        raise ApiError(404, "unknown_match", f"there is no {what} {match_id[:40]!r}")
    return found


def seat_of(live: LiveMatch, token: str) -> int | None:
    """The seat of ``live`` that ``token`` opens, if any."""
    wanted = digest(token)
    for seat in live.seats:
        if seat.token_digest is not None and secrets.compare_digest(seat.token_digest, wanted):
            return seat.seat
    return None


def is_host(match: StoredMatch, player: SignedIn | None, token: str) -> bool:
    """Whether the caller hosts ``match``: signed in as the account that opened it, or with
    its host token (``Bearer``)."""
    if player is not None and player.account.id == match.host_account:
        return True
    return bool(token) and secrets.compare_digest(digest(token), match.host_digest)


def bearer(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header ('' without one)."""
    return (authorization or "").removeprefix("Bearer ").strip()
