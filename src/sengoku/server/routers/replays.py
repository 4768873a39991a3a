"""A match's record and the replay of a finished one, step by step (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from starlette.concurrency import run_in_threadpool

from sengoku.core import message_to_json

from ..dependencies import ServicesDep, bearer, live_match, seat_of
from ..errors import ApiError
from ..limits import client_address
from ..live import LiveMatch

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


@router.get("/api/matches/{match_id}/review", tags=["matches"])
async def review(svc: ServicesDep, match_id: str) -> dict[str, Any]:
    """The advisor's review of a finished match: ``status`` (``none``: not asked for,
    ``pending``, ``running``, ``done``, ``failed``) and, once done, ``review``: every decision
    judged, and per seat its win chance across the match, its turning points (with the
    actions as messages) and a summary (docs/protocol.md)."""
    live = await _finished(svc, match_id)
    found = await svc.reviews.status(live.id)
    if found is None:
        return {"status": "none"}
    status, data = found
    if data is None:
        return {"status": status}
    await run_in_threadpool(_add_messages, svc, live, data)
    return {"status": status, "review": data}


@router.post("/api/matches/{match_id}/review", status_code=202, tags=["matches"])
async def ask_review(svc: ServicesDep, match_id: str, request: Request) -> dict[str, Any]:
    """Ask for the review of a finished match (once; a match a person played in is reviewed
    when it ends without asking). Answers with its status."""
    live = await _finished(svc, match_id)
    if not svc.reviews.iterations:
        raise ApiError(503, "reviews_off", "this server makes no reviews")
    if not svc.creations.take(client_address(request, svc.settings.trusted_proxies)):
        raise ApiError(429, "rate_limited", "too many requests from this address; wait a minute")
    await svc.reviews.ask(live.id)
    found = await svc.reviews.status(live.id)
    return {"status": found[0] if found else "none"}


async def _finished(svc: ServicesDep, match_id: str) -> LiveMatch:
    live = await live_match(svc.hub, match_id)
    if live.match.outcome() is None:
        raise ApiError(409, "not_finished", "a match is reviewed once it is over")
    return live


def _add_messages(svc: Any, live: LiveMatch, data: dict[str, Any]) -> None:
    """Give each turning point its actions as messages, for the reader's language."""
    game = live.match.game
    for seat in data.get("seats", ()):
        for point in seat["turning_points"]:
            position = svc.replays.position(live.id, live.match, point["number"])
            for key in ("played", "preferred"):
                try:
                    action = position.parse_action(seat["seat"], point[key])
                except Exception:  # a review of another version of the rules
                    continue
                point[key + "_message"] = message_to_json(game.action_message(action))
