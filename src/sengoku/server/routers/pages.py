"""The web UI's one HTML page, under every address the UI shows (the lobby, a match or an
open table, a replay, a tutorial, the account, a player's profile, the leaderboards), with its
Content-Security-Policy; the scripts and styles are under ``/web``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

import sengoku

from ..limits import CONTENT_SECURITY_POLICY

__all__ = ["WEB", "router"]

WEB = Path(sengoku.__file__).parent / "web"

router = APIRouter(include_in_schema=False)


def page() -> FileResponse:
    """The web UI's one HTML page, under its Content-Security-Policy."""
    return FileResponse(
        WEB / "index.html", headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY}
    )


@router.get("/")
async def index() -> FileResponse:
    return page()


@router.get("/play/{match_id}")
async def play_page(match_id: str) -> FileResponse:
    return page()


@router.get("/learn/{game}")
async def learn_page(game: str) -> FileResponse:
    return page()


@router.get("/replay/{match_id}")
async def replay_page(match_id: str) -> FileResponse:
    return page()


@router.get("/account")
async def account_page() -> FileResponse:
    return page()


@router.get("/player/{name}")
async def player_page(name: str) -> FileResponse:
    return page()


@router.get("/ratings")
async def ratings_page() -> FileResponse:
    return page()
