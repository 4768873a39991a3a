"""Limits on what a client may send, and the headers every answer carries: ASGI middleware
(:class:`BodyLimit`, :class:`SecurityHeaders`), rate limits (:class:`TokenBucket`,
:class:`WindowLimit`), the count of open WebSockets (:class:`SocketCount`), and the address a
request comes from (:func:`client_address`, which believes only trusted proxies)."""

from __future__ import annotations

import ipaddress
import time
from collections import defaultdict, deque

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_response
from .settings import ServerSettings

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "BodyLimit",
    "SecurityHeaders",
    "SocketCount",
    "TokenBucket",
    "WindowLimit",
    "client_address",
    "is_trusted",
    "public_base",
]


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


def _too_large(limit: int) -> JSONResponse:
    return error_response(413, "too_large", f"the body is larger than {limit} bytes")


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
    """At most ``count`` events per key in any ``window`` seconds; keys with no event in the
    last ``window`` seconds are forgotten (at most once a ``window``), so memory stays
    bounded by the keys of the last two windows."""

    def __init__(self, count: int, window: float = 60.0) -> None:
        self.count, self.window = count, window
        self.events: dict[str, deque[float]] = defaultdict(deque)
        self.swept = time.monotonic()

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may have another event (0: now)."""
        now = time.monotonic()
        if now - self.swept >= self.window:
            self._forget_idle(now)
        events = self.events.get(key)
        if events is None:
            return 0.0
        while events and events[0] < now - self.window:
            events.popleft()
        return events[0] + self.window - now if len(events) >= self.count else 0.0

    def add(self, key: str) -> None:
        """Record an event for ``key`` (whatever the limit)."""
        self.events[key].append(time.monotonic())

    def take(self, key: str) -> bool:
        """Record an event for ``key``; ``False`` (recording nothing) when over the limit."""
        if self.wait(key) > 0:
            return False
        self.add(key)
        return True

    def forget(self, key: str) -> None:
        """Drop the events of ``key``."""
        self.events.pop(key, None)

    def _forget_idle(self, now: float) -> None:
        """Drop every key with no event in the last ``window`` seconds."""
        self.swept = now
        edge = now - self.window
        for key in [k for k, events in self.events.items() if not events or events[-1] < edge]:
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


def public_base(request: Request, settings: ServerSettings) -> str:
    """Where links point: ``public_url`` when set, else what the request's Host header says."""
    return (settings.public_url or str(request.base_url)).rstrip("/")


def client_address(client: HTTPConnection, trusted: tuple[str, ...] = ()) -> str:
    """The address a request or WebSocket comes from, for limits: the peer's, unless the
    peer is a trusted proxy; then the right-most untrusted one of ``X-Forwarded-For``."""
    peer = client.client.host if client.client else "?"
    if not is_trusted(peer, trusted):
        return peer
    forwarded = ",".join(client.headers.getlist("x-forwarded-for"))
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop, trusted):
            return hop[:64]
    return hops[0][:64] if hops else peer


def is_trusted(address: str, trusted: tuple[str, ...]) -> bool:
    """Whether ``address`` is one of the ``trusted`` proxies (addresses or networks)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(net, strict=False) for net in trusted)
