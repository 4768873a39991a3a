"""The tutorials: each game's scripted match, step by step (docs/protocol.md, "Tutorials").

A tutorial needs no match on the server and no seat: its script is fixed, so each step's
position is the same for everyone, made once and kept (:func:`_position`).
"""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from sengoku.core import available_games, get_game, message_to_json
from sengoku.core.tutorial import Tutorial

from ..errors import ApiError
from ..live import legal_json

__all__ = ["router"]

router = APIRouter()


def _tutorial(game: str) -> Tutorial:
    tutorial = get_game(game).tutorial() if game in available_games() else None
    if tutorial is None:
        raise ApiError(404, "unknown_tutorial", f"there is no tutorial for {game[:40]!r}")
    return tutorial


@router.get("/api/tutorials/{game}", tags=["games"])
async def tutorial(game: str) -> dict[str, Any]:
    """A game's tutorial: its players, the learner's seat, its steps (``id``, ``at``: the
    moves played before it shows, ``do``: whether it asks the learner for the next move,
    ``anchor``: the part of the page it speaks of) and their texts in every language."""
    return _tutorial(game).to_json()


@router.get("/api/tutorials/{game}/steps/{index}", tags=["games"])
async def step(game: str, index: int) -> dict[str, Any]:
    """Step ``index`` of a game's tutorial: the match as the learner's seat sees it then
    (``view``, its whole ``log``, ``legal``: its choices when the step asks for a move, and
    ``expected``: the moves it asks for, in order: the learner's moves from here to the next
    step), as in a WebSocket update (docs/protocol.md)."""
    tutorial = _tutorial(game)
    if not 0 <= index < len(tutorial.steps):
        raise ApiError(
            422, "invalid_request", f"step {index} is not between 0 and {len(tutorial.steps) - 1}"
        )
    return await run_in_threadpool(_position, game, index)


@functools.lru_cache(maxsize=256)
def _position(game: str, index: int) -> dict[str, Any]:
    tutorial = _tutorial(game)
    step = tutorial.steps[index]
    match = tutorial.match(step.at)
    seat = tutorial.seat
    view = match.view(seat)
    legal = [legal_json(match, a) for a in match.legal_actions(seat)] if step.do else []
    log = [message_to_json(e) for e in match.log_entries(seat)]
    log_length = match.log_length
    outcome = match.outcome()
    expected: list[dict[str, Any]] = []
    if step.do:  # the learner's moves from here to the next step, as its page sends them
        later = tutorial.steps[index + 1 :]
        end = later[0].at if later else len(tutorial.moves)
        for mover, notation in tutorial.moves[step.at : end]:
            if mover != seat:
                break
            action = match.parse_action(seat, notation)
            expected.append(legal_json(match, action))
            match.act(seat, action)
    return {
        "step": index,
        "number": step.at,
        "view": view,
        "legal": legal,
        "expected": expected,
        "log": log,
        "log_length": log_length,
        "outcome": None if outcome is None else outcome.to_json(),
    }
