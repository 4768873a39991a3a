"""Play over a WebSocket: one client of a match, a seat (with its token) or a spectator
(docs/protocol.md, "WebSocket")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from sengoku.core import IllegalActionError, SengokuError, UndoRefusedError

from ..chat import ChatError
from ..dependencies import (
    SESSION_COOKIE,
    Services,
    ServicesDep,
    live_match,
    same_origin,
    seat_of,
)
from ..errors import ApiError
from ..hub import Hub
from ..limits import TokenBucket, client_address
from ..live import (
    CLOSE_MOVED,
    CLOSE_REFUSED,
    CLOSE_UNKNOWN,
    Connection,
    HintError,
    LiveMatch,
    SeatError,
    StaleActionError,
    UndoDisabledError,
    moved_error,
)
from ..owners import MovedError
from ..settings import ServerSettings

__all__ = ["router"]

log = logging.getLogger("sengoku.server")
CLOSE_TOO_BIG = 1009  # the WebSocket close code for a message too big to process

router = APIRouter()


@router.websocket("/ws/matches/{match_id}")
async def play(svc: ServicesDep, ws: WebSocket, match_id: str) -> None:
    """One client of a match; see docs/protocol.md for the messages."""
    await ws.accept()
    address = client_address(ws, svc.settings.trusted_proxies)
    refusal = svc.sockets.enter(address)
    if refusal is not None:
        await _refuse(ws, *refusal, CLOSE_REFUSED)
        return
    try:
        await _serve_client(svc, ws, match_id)
    finally:
        svc.sockets.leave(address)


async def _serve_client(svc: Services, ws: WebSocket, match_id: str) -> None:
    try:
        hello = await asyncio.wait_for(_receive(ws), svc.settings.hello_timeout)
    except TimeoutError:
        hello = None
    if not isinstance(hello, str):
        hint = 'say hello first: {"type": "hello", "token": ...}'
        await _refuse(ws, "no_hello", hint, CLOSE_REFUSED)
        return
    greeting = _parse(hello, svc.settings.max_message_bytes)
    if isinstance(greeting, tuple) or greeting.get("type") != "hello":
        reason = greeting[1] if isinstance(greeting, tuple) else "the first message must be a hello"
        await _refuse(ws, "bad_hello", reason, CLOSE_REFUSED)
        return
    try:
        live = await live_match(svc.hub, match_id)
    except ApiError as exc:
        await _refuse(ws, exc.code, exc.message, CLOSE_UNKNOWN)
        return
    except MovedError as exc:  # connect again at the process that serves it (docs/deploy.md)
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(moved_error(exc.name)))
            await ws.close(code=CLOSE_MOVED)
        return
    seat, token_digest, account = None, None, None
    token = greeting.get("token")
    if token is not None:
        seat = seat_of(live, token) if isinstance(token, str) else None
        if seat is None:
            await _refuse(ws, "bad_token", "that token opens no seat of this match", CLOSE_REFUSED)
            return
        token_digest = live.seats[seat].token_digest
    elif greeting.get("account") is True:
        found = await _account_seat(svc, ws, live)
        if isinstance(found, tuple):
            await _refuse(ws, *found, CLOSE_REFUSED)
            return
        seat, account = found, live.seats[found].account_id
    full = _no_room(live, seat, svc.settings)
    if full is not None:
        await _refuse(ws, *full, CLOSE_REFUSED)
        return
    since = greeting.get("log_since", 0)
    conn = Connection(seat, ws.send_text, lambda code: ws.close(code), token_digest)
    conn.account = account
    conn.undo_hints = greeting.get("undo_hints") is True
    conn.patches = greeting.get("patches") is True
    svc.hub.connect(
        live,
        conn,
        since if isinstance(since, int) and not isinstance(since, bool) else 0,
        _undos_seen(greeting),
    )
    bucket = TokenBucket(svc.settings.messages_per_second, svc.settings.message_burst)
    try:
        while not (conn.revoked or conn.lagging):
            text = await _receive(ws)
            if text is None:  # the client went away
                break
            if not bucket.take():
                conn.push(_ws_error("rate_limited", "too many messages; slow down", _ref_of(text)))
                continue
            if len(text) > svc.settings.max_frame_bytes:
                await _close_too_large(ws, conn, svc.settings.max_frame_bytes)
                break
            if isinstance(text, bytes):
                conn.push(_ws_error("bad_message", "send JSON text messages"))
                continue
            message = _parse(text, svc.settings.max_message_bytes)
            if isinstance(message, tuple):
                conn.push(_ws_error(*message))
                continue
            try:
                await _handle(svc.hub, live, conn, message)
            except MovedError:  # the match is another process's now: the client was told,
                if conn.shutting is not None:  # and its socket closes with 4307
                    await conn.shutting
                break
            except Exception:
                log.exception("internal error on a message to match %s", live.id)
                conn.push(_ws_error("internal", "the server failed; the error has been logged"))
    finally:
        await svc.hub.disconnect(live, conn)
        with contextlib.suppress(Exception):
            await ws.close()


async def _account_seat(svc: Services, ws: WebSocket, live: LiveMatch) -> int | tuple[str, str]:
    """The seat of ``live`` that belongs to the account signed in with the WebSocket's session
    cookie; else the error code and reason. The page must be one of ours (``Origin``), so
    that no other site can open a player's seat with their cookie."""
    if not same_origin(ws, svc.settings):
        return ("bad_origin", "a seat opens by account only from this server's pages")
    player = await run_in_threadpool(svc.accounts.session, ws.cookies.get(SESSION_COOKIE, ""))
    if player is None:
        return ("sign_in_required", "sign in to open your seat")
    for seat in live.seats:
        if seat.account_id == player.account.id and seat.kind == "human":
            return seat.seat
    return ("not_seated", "your account holds no seat of this match")


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
    if kind == "hint":
        await _handle_hint(hub, live, conn, ref)
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


async def _handle_hint(hub: Hub, live: LiveMatch, conn: Connection, ref: Any) -> None:
    """``{"type": "hint"}``: the advisor's three best actions for the seat now
    (docs/protocol.md); answered in the background, so the connection goes on meanwhile."""
    if conn.seat is None:
        conn.push(_ws_error("spectator", "a hint is for a player", ref))
        return
    seat = conn.seat

    async def answer() -> None:
        try:
            advice = await hub.hint(live, seat, conn)
        except (HintError, SeatError) as exc:
            conn.push(_ws_error(exc.code, str(exc), ref))
        else:
            conn.push({"type": "hint", "ref": ref, **advice})

    task = asyncio.create_task(answer())
    live.tasks.add(task)
    task.add_done_callback(live.tasks.discard)


def _undos_seen(hello: dict[str, Any]) -> int | None:
    """The count of undos the client's log was built on, if its hello says one."""
    undos = hello.get("undos")
    return undos if isinstance(undos, int) and not isinstance(undos, bool) else None
