"""The lobby and its matches: the games offered, creating and listing matches, a match's
set-up, handing a seat to a bot, and rematches (docs/protocol.md, "HTTP")."""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from sengoku.core import OptionError, SetupError, UnknownGameError, available_games, get_game

from ..accounts import SignedIn
from ..bots import BOT_LEVELS
from ..chat import rematch_token
from ..dependencies import (
    PlayerDep,
    ServicesDep,
    bearer,
    check_level,
    describe_game,
    is_host,
    live_match,
    need_player,
    seat_of,
    stored_match,
)
from ..errors import ApiError
from ..hub import Hub, MatchSetup
from ..limits import client_address, public_base
from ..live import LiveMatch
from ..store import Seat, digest

__all__ = ["NewMatch", "SeatChange", "SeatSpec", "router"]

router = APIRouter()


class SeatSpec(BaseModel):
    """A seat of a new match: a person (``human``), a bot of some level, or a seat left
    ``open`` for whoever takes it from the lobby (an open table; needs an account)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot", "open"] = "human"
    bot: str | None = Field(default=None, description=f"the bot's level: {', '.join(BOT_LEVELS)}")
    name: str | None = Field(default=None, max_length=40)
    mine: bool = Field(
        default=False,
        description="a person's seat that belongs to the signed-in player who creates the match",
    )


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
    undo: bool | None = Field(
        default=None,
        description="whether a player may take back their latest action while it showed "
        "nothing hidden and nobody has acted on it (docs/protocol.md); default: on, "
        "off in a rated match",
    )
    rated: bool = Field(
        default=False,
        description="whether the match moves its players' ratings: every seat an account "
        "(yours, or open for accounts) or a bot, undo and hints off",
    )
    hints: bool | None = Field(
        default=None,
        description="whether a player may ask the advisor for a hint (its three best actions "
        "from the player's own view; everyone is told); default: on, off in a rated match",
    )


class SeatChange(BaseModel):
    """``POST /api/matches/{id}/seats/{seat}``: hand a seat to a bot or back to a person."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    bot: str | None = None
    new_token: bool = False


@router.get("/api/games", tags=["games"])
async def games() -> list[dict[str, Any]]:
    """Every game with its player counts and options (defaults, ranges and docs)."""
    return [describe_game(name) for name in available_games()]


@router.get("/api/games/{name}", tags=["games"])
async def game_data(name: str) -> dict[str, Any]:
    """One game as in ``/api/games``, plus ``data``: its public facts for drawing it
    (names, tables, the board's graph)."""
    if name not in available_games():
        raise ApiError(404, "unknown_game", f"there is no game {name[:40]!r}")
    return {**describe_game(name), "data": get_game(name).client_data()}


@router.post("/api/matches", status_code=201, tags=["matches"])
async def create_match(
    svc: ServicesDep, body: NewMatch, request: Request, player: PlayerDep
) -> dict[str, Any]:
    """Start a match, or open a table (some seats ``open``); returns its id, the host
    token, one secret join link per person."""
    client = client_address(request, svc.settings.trusted_proxies)
    if not svc.creations.take(client):
        raise ApiError(429, "rate_limited", "too many new matches from this address; wait a minute")
    specs = body.seats or [SeatSpec() for _ in range(body.players)]
    if len(specs) != body.players:
        raise ApiError(
            422,
            "invalid_request",
            f"{body.players} players need {body.players} seats, not {len(specs)}",
        )
    _check_seats(specs, body, player)
    seats, tokens = [], {}
    for number, spec in enumerate(specs):
        if spec.kind == "bot":
            level = check_level(spec.bot or "normal")
            seats.append(Seat(number, "bot", level, spec.name))
        elif spec.kind == "open":
            seats.append(Seat(number, "open", None, None))
        else:
            token = tokens[number] = secrets.token_urlsafe(24)
            if spec.mine and player is not None:
                me = player.account
                seats.append(Seat(number, "human", None, me.display_name, digest(token), me.id))
            else:
                seats.append(Seat(number, "human", None, spec.name, digest(token)))
    host = secrets.token_urlsafe(24)
    undo = body.undo if body.undo is not None else not body.rated
    table = any(seat.kind == "open" for seat in seats)
    setup = MatchSetup(
        body.game,
        body.players,
        body.options,
        body.seed,
        seats,
        body.turn_clock,
        digest(host),
        body.spectator_chat,
        undo,
        body.rated,
        body.hints if body.hints is not None else not body.rated,
    )
    try:
        if table:
            assert player is not None  # _check_seats: a table needs an account
            hosted = await run_in_threadpool(svc.tables.hosted, player.account.id)
            if hosted >= svc.settings.open_tables_per_player:
                raise ApiError(
                    429,
                    "too_many_tables",
                    f"you host {hosted} open tables already; start or cancel one first",
                )
            match_id = (await svc.hub.open_table(setup, player.account.id)).id
        else:
            match_id = (await svc.hub.create(setup)).id
    except UnknownGameError as exc:
        raise ApiError(404, "unknown_game", str(exc)) from None
    except (SetupError, OptionError) as exc:
        raise ApiError(422, "invalid_setup", str(exc)) from None
    base = public_base(request, svc.settings)
    return {
        "id": match_id,
        "status": "open" if table else "running",
        "host_token": host,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "mine": s.account_id is not None,
                **(
                    {
                        "token": tokens[s.seat],
                        "join_url": f"{base}/play/{match_id}#token={tokens[s.seat]}",
                    }
                    if s.seat in tokens
                    else {}
                ),
            }
            for s in seats
        ],
        "spectate_url": f"{base}/play/{match_id}",
        "websocket": f"/ws/matches/{match_id}",
    }


def _check_seats(specs: list[SeatSpec], body: NewMatch, player: SignedIn | None) -> None:
    """Refuse a set of seats that cannot be: a seat of one's own or an open table without an
    account, two seats of one's own, a rated match with a seat for a link or with undo."""
    for number, spec in enumerate(specs):
        if spec.kind != "bot" and spec.bot is not None:
            raise ApiError(422, "invalid_request", f"seat {number} is no bot and has no bot level")
        if spec.mine and spec.kind != "human":
            raise ApiError(422, "invalid_request", f"seat {number} is yours, so it is a person's")
    mine = sum(spec.mine for spec in specs)
    table = any(spec.kind == "open" for spec in specs)
    if player is None and (mine or table or body.rated):
        what = "a rated match" if body.rated else "an open table" if table else "a seat of yours"
        raise ApiError(401, "sign_in_required", f"{what} needs an account: sign in first")
    if mine > 1:
        raise ApiError(422, "invalid_request", "one seat at most is yours")
    if body.rated:
        if body.undo:
            raise ApiError(422, "invalid_request", "a rated match has undo off")
        if body.hints:
            raise ApiError(422, "invalid_request", "a rated match has hints off")
        links = [n + 1 for n, spec in enumerate(specs) if spec.kind == "human" and not spec.mine]
        if links:
            raise ApiError(
                422,
                "invalid_request",
                f"a rated match seats accounts and bots only: seat {links[0]} would be a "
                "link; leave it open, or give it to a bot",
            )
        if all(spec.kind == "bot" for spec in specs):
            raise ApiError(422, "invalid_request", "a rated match needs a player with an account")


@router.get("/api/matches", tags=["matches"])
async def list_matches(
    svc: ServicesDep,
    status: Literal["running", "finished", "abandoned", "all"] = "all",
    limit: int = 100,
) -> list[dict[str, Any]]:
    """Running, finished and abandoned matches, newest first (no secrets); the open tables
    are at ``/api/tables``."""
    limit = max(1, min(limit, 500))
    rows = await run_in_threadpool(svc.store.matches, None if status == "all" else status, limit)
    out = []
    for row in rows:
        item = row.public()
        live = svc.hub.live.get(row.id)
        item["presence"] = live.presence() if live else None
        out.append(item)
    return out


@router.get("/api/matches/{match_id}", tags=["matches"])
async def get_match(svc: ServicesDep, match_id: str) -> dict[str, Any]:
    """One match: its set-up, seats, who is connected, whose turn it is; an open table
    (``status: "open"``) with its seats as they are taken."""
    try:
        live = await live_match(svc.hub, match_id)
    except ApiError:
        table = await stored_match(svc.store, match_id)  # not served: an open table, or none
        if table.status != "open":
            raise
        return {**table.public(), "presence": None, "to_act": []}
    item = live.stored.public()
    item["actions"] = live.number
    item["presence"] = live.presence()
    item["to_act"] = [] if live.abandoned else live.match.to_act()
    return item


@router.post("/api/matches/{match_id}/seats/{seat}", tags=["matches"])
async def change_seat(
    svc: ServicesDep,
    match_id: str,
    seat: int,
    body: SeatChange,
    request: Request,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The host hands a seat to a bot (an absent player) or back to a person."""
    live = await live_match(svc.hub, match_id)
    token = bearer(authorization)
    if not token or not secrets.compare_digest(digest(token), live.stored.host_digest):
        raise ApiError(403, "not_host", "only the match's host (with the host token) may do that")
    if not 0 <= seat < live.stored.players:
        raise ApiError(404, "unknown_seat", f"there is no seat {seat} in this match")
    level = check_level(body.bot or "normal") if body.kind == "bot" else None
    if body.kind == "human" and body.bot is not None:
        raise ApiError(422, "invalid_request", "a human seat has no bot level")
    new = await svc.hub.hand_over(live, seat, body.kind, level, body.new_token)
    base = f"{public_base(request, svc.settings)}/play/{live.id}"
    return {
        "seat": seat,
        "kind": body.kind,
        "bot": level,
        **({"token": new, "join_url": f"{base}#token={new}"} if new else {}),
    }


@router.post("/api/matches/{match_id}/abandon", tags=["matches"])
async def abandon_match(
    svc: ServicesDep,
    match_id: str,
    player: PlayerDep,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The host ends a running match that will not go on: it takes no more moves, has no
    outcome and leaves the lobby's running list; its connections are told. A rated match
    is not the host's to end (it is abandoned only after the server's idle days)."""
    live = await live_match(svc.hub, match_id)
    if not is_host(live.stored, player, bearer(authorization)):
        raise ApiError(403, "not_host", "only the match's host may abandon it")
    if live.stored.rated:
        raise ApiError(409, "rated", "a rated match ends by play; only the idle time ends it early")
    if not await svc.hub.abandon(live):
        raise ApiError(409, "not_running", "this match is over already")
    return {"match": live.id, "status": "abandoned"}


@router.post("/api/matches/{match_id}/seats/{seat}/claim", tags=["matches", "accounts"])
async def claim_seat(
    svc: ServicesDep,
    match_id: str,
    seat: int,
    player: PlayerDep,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The signed-in player makes a seat they hold the link of (its token, as ``Bearer``)
    their account's: it is listed among their matches and opens in any browser they sign in
    on. Refused if the seat belongs to another account, or the account holds another seat of
    the match."""
    me = need_player(player).account
    live = await live_match(svc.hub, match_id)
    token = bearer(authorization)
    if not token or seat_of(live, token) != seat:
        raise ApiError(403, "bad_token", "that token opens no such seat of this match")
    answer = await svc.hub.tie_seat(live, seat, me.id)
    if answer == "taken":
        raise ApiError(409, "seat_taken", "this seat belongs to another account")
    if answer == "seated":
        raise ApiError(409, "already_seated", "your account holds another seat of this match")
    return {"seat": seat, "account": me.name}


# -- rematch -------------------------------------------------------------------------------


@router.post("/api/matches/{match_id}/rematch", tags=["matches"])
async def make_rematch(
    svc: ServicesDep,
    match_id: str,
    request: Request,
    response: Response,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """A finished match's rematch, made on the first request (``201``) and the same one
    after (``200``), with the key of a seat of it or of the host: it answers each seat
    with that seat's own new link, and the host with the new host key."""
    live = await live_match(svc.hub, match_id)
    token = bearer(authorization)
    seat = _rematch_role(live, token)
    if live.match.outcome() is None:
        raise ApiError(409, "not_finished", "a rematch is made once the match is over")
    if live.stored.rematch is None:
        client = client_address(request, svc.settings.trusted_proxies)
        if not svc.creations.take(client):
            raise ApiError(
                429, "rate_limited", "too many new matches from this address; wait a minute"
            )
    new, made = await svc.hub.rematch(live)
    response.status_code = 201 if made else 200
    return await _rematch_answer(svc.hub, new, token, seat, public_base(request, svc.settings))


@router.get("/api/matches/{match_id}/rematch", tags=["matches"])
async def find_rematch(
    svc: ServicesDep,
    match_id: str,
    request: Request,
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Where a match's rematch is: with a seat's key of this match, that seat's own new
    link; with the host key, the new host key; without a key, the spectators' link."""
    live = await live_match(svc.hub, match_id)
    token = bearer(authorization)
    seat = _rematch_role(live, token) if token else None
    if live.stored.rematch is None:
        raise ApiError(404, "no_rematch", "this match has no rematch (yet)")
    new = await live_match(svc.hub, live.stored.rematch)
    return await _rematch_answer(svc.hub, new, token, seat, public_base(request, svc.settings))


def _rematch_role(live: LiveMatch, token: str) -> int | None:
    """The seat whose key ``token`` is, ``None`` for the host's key; else ``bad_token``."""
    if token and secrets.compare_digest(digest(token), live.stored.host_digest):
        return None
    seat = seat_of(live, token) if token else None
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
