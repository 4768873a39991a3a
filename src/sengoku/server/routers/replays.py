"""A match's record and the replay of a finished one, step by step (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header
from starlette.concurrency import run_in_threadpool

from sengoku.core import message_to_json

from ..dependencies import ServicesDep, bearer, live_match, seat_of
from ..errors import ApiError

__all__ = ["router"]

router = APIRouter()


@router.get("/api/matches/{match_id}/record", tags=["matches"])
async def record(
    svc: ServicesDep, match_id: str, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The record of a finished match (replayable: seed and every action). While it runs:
    the public log and view, or a seat's own with ``Authorization: Bearer SEAT_TOKEN``."""
    live = await live_match(svc.hub, match_id)
    if live.match.outcome() is not None:
        return {"finished": True, "record": live.match.to_record()}
    seat = None
    if authorization is not None:
        seat = seat_of(live, bearer(authorization))
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


@router.get("/api/matches/{match_id}/replay/{number}", tags=["matches"])
async def replay(
    svc: ServicesDep, match_id: str, number: int, log_since: int = 0
) -> dict[str, Any]:
    """A finished match as it stood after its first ``number`` actions, as a spectator
    saw it: ``view``, the public ``log`` lines from ``log_since`` on, ``log_length``, the
    ``action`` just taken (seat and notation; ``null`` at 0) and ``total`` actions."""
    live = await live_match(svc.hub, match_id)
    if live.match.outcome() is None:
        raise ApiError(409, "not_finished", "a running match is replayed once it is over")
    history = live.match.history
    if not 0 <= number <= len(history) or log_since < 0:
        raise ApiError(422, "invalid_request", f"step {number} is not between 0 and {len(history)}")
    match = await run_in_threadpool(svc.replays.position, live.id, live.match, number)
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
