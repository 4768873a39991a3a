"""Open tables over HTTP: the lobby's list, taking and leaving a seat, and the host's start
and cancel (docs/protocol.md, "Open tables"). A table is made by ``POST /api/matches`` with
a seat of kind ``open``; :mod:`sengoku.server.tables` keeps each change one guarded
statement."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..accounts import SignedIn
from ..chat import clean_text
from ..dependencies import (
    PlayerDep,
    Services,
    ServicesDep,
    bearer,
    check_level,
    is_host,
    live_match,
    stored_match,
)
from ..errors import ApiError
from ..limits import public_base
from ..store import StoredMatch, digest

__all__ = ["router"]

router = APIRouter(tags=["tables"])


class TakeSeat(BaseModel):
    """``POST /api/tables/{id}/seats/{seat}``: the name shown for a person without an
    account (a signed-in player is shown by their display name)."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=40)


class Start(BaseModel):
    """``POST /api/tables/{id}/start``: the bot level that takes the seats still open
    (``null``: every seat must be taken)."""

    model_config = ConfigDict(extra="forbid")
    fill: str | None = None


@router.get("/api/tables")
async def open_tables(
    svc: ServicesDep, game: str | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    """The open tables, newest first: game, players, options, clock, who sits where (and
    which seats are open), the host, whether rated."""
    rows = await run_in_threadpool(svc.store.matches, "open", max(1, min(limit, 500)))
    return [row.public() for row in rows if game is None or row.game == game]


@router.post("/api/tables/{match_id}/seats/{seat}")
async def take_seat(
    svc: ServicesDep,
    match_id: str,
    seat: int,
    request: Request,
    player: PlayerDep,
    body: TakeSeat | None = None,
) -> dict[str, Any]:
    """Take an open seat: a signed-in player's seat belongs to their account; anyone gets
    the seat's secret link (a rated table seats accounts only)."""
    table = await _table(svc, match_id)
    if not 0 <= seat < table.players:
        raise ApiError(404, "unknown_seat", f"there is no seat {seat} at this table")
    if player is None and table.rated:
        raise ApiError(401, "sign_in_required", "a rated table seats accounts: sign in first")
    name = player.account.display_name if player else clean_text((body.name if body else "") or "")
    token = secrets.token_urlsafe(24)
    await run_in_threadpool(
        svc.tables.take,
        match_id,
        seat,
        digest(token),
        name or None,
        player.account.id if player else None,
    )
    base = f"{public_base(request, svc.settings)}/play/{match_id}"
    return {"match": match_id, "seat": seat, "token": token, "join_url": f"{base}#token={token}"}


@router.delete("/api/tables/{match_id}/seats/{seat}")
async def leave_seat(
    svc: ServicesDep,
    match_id: str,
    seat: int,
    player: PlayerDep,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Stand up from a seat before the match starts: with the seat's token (``Bearer``),
    or signed in as the account it belongs to; the host may open any seat again."""
    table = await _table(svc, match_id)
    held = next((s for s in table.seats if s.seat == seat and s.kind == "human"), None)
    if held is None:
        raise ApiError(409, "seat_not_taken", f"nobody sits at seat {seat}")
    token = bearer(authorization)
    mine = (player is not None and held.account_id == player.account.id) or (
        bool(token)
        and held.token_digest is not None
        and secrets.compare_digest(digest(token), held.token_digest)
    )
    if not mine and not is_host(table, player, token):
        raise ApiError(403, "not_your_seat", "only its player or the host may open this seat")
    await run_in_threadpool(svc.tables.leave, match_id, seat)
    return {"match": match_id, "seat": seat, "kind": "open"}


@router.post("/api/tables/{match_id}/start")
async def start_table(
    svc: ServicesDep,
    match_id: str,
    player: PlayerDep,
    body: Start | None = None,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The host starts the match: the open seats go to bots of level ``fill``, or, without
    it, every seat must be taken."""
    table = await _table(svc, match_id)
    _need_host(table, player, bearer(authorization))
    fill = check_level(body.fill) if body is not None and body.fill is not None else None
    await run_in_threadpool(svc.tables.start, match_id, fill)
    live = await live_match(svc.hub, match_id)  # served from now on: bots, clock
    return {"match": match_id, "status": live.stored.status}


@router.delete("/api/tables/{match_id}")
async def cancel_table(
    svc: ServicesDep,
    match_id: str,
    player: PlayerDep,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The host takes the table off the lobby (before it starts)."""
    table = await _table(svc, match_id)
    _need_host(table, player, bearer(authorization))
    await run_in_threadpool(svc.tables.cancel, match_id)
    return {"match": match_id, "status": "cancelled"}


async def _table(svc: Services, match_id: str) -> StoredMatch:
    table = await stored_match(svc.store, match_id, "table")
    if table.status != "open":
        raise ApiError(409, "not_open", "this table has started")
    return table


def _need_host(table: StoredMatch, player: SignedIn | None, token: str) -> None:
    if not is_host(table, player, token):
        raise ApiError(403, "not_host", "only the table's host may do that")
