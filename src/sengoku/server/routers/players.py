"""Players in public: profiles, each game's leaderboard, and what a rated match did to its
players' ratings (docs/protocol.md, "Players and ratings")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from sengoku.core import available_games

from ..dependencies import ServicesDep, stored_match
from ..errors import ApiError

__all__ = ["router"]

router = APIRouter(tags=["players"])


@router.get("/api/players/{name}")
async def profile(svc: ServicesDep, name: str, matches: int = 50) -> dict[str, Any]:
    """A player's profile: display name, ratings per game with their history (oldest
    first), and finished matches (newest first) with their seat, place and score."""
    account = await run_in_threadpool(svc.accounts.find, name)
    if account is None:
        raise ApiError(404, "unknown_player", f"there is no player {name[:40]!r}")
    ratings = await run_in_threadpool(svc.ratings.of, account.id)
    history = await run_in_threadpool(svc.ratings.history, account.id)
    rows = await run_in_threadpool(
        svc.store.matches, "finished", max(1, min(matches, 200)), account.id
    )
    finished = []
    for row in rows:
        item = row.public()
        seat = next(s.seat for s in row.seats if s.account_id == account.id)
        outcome = row.outcome or {}
        item.update(
            seat=seat,
            rank=outcome["ranks"][seat] if "ranks" in outcome else None,
            score=outcome["scores"][seat] if "scores" in outcome else None,
        )
        finished.append(item)
    return {
        "name": account.name,
        "display_name": account.display_name,
        "kind": account.kind,
        "created_at": account.created_at,
        "ratings": [r.to_json() for r in ratings],
        "history": history,
        "matches": finished,
    }


@router.get("/api/ratings/{game}")
async def leaderboard(svc: ServicesDep, game: str, limit: int = 100) -> dict[str, Any]:
    """The game's leaderboard: rated players (and bot levels), best ``mu - 3 sigma`` first."""
    if game not in available_games():
        raise ApiError(404, "unknown_game", f"there is no game {game[:40]!r}")
    rows = await run_in_threadpool(svc.ratings.leaderboard, game, max(1, min(limit, 500)))
    return {"game": game, "players": rows}


@router.get("/api/matches/{match_id}/ratings", tags=["matches"])
async def rating_changes(svc: ServicesDep, match_id: str) -> dict[str, Any]:
    """What a rated match did to each seat's rating (``changes`` is empty until it is
    rated; ``rated`` is false for a match that moves no rating)."""
    stored = await stored_match(svc.store, match_id)
    changes = await run_in_threadpool(svc.ratings.changes, match_id)
    return {"match": match_id, "rated": stored.rated, "changes": changes}
