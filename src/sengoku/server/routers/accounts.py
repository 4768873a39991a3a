"""Accounts over HTTP: sign up, sign in, sign out, change the password, the account's
settings and its matches (docs/protocol.md, "Accounts"). :mod:`sengoku.server.accounts`
does the work; this router sets and clears the session cookie."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..accounts import PASSWORD_MAX, SignedIn
from ..dependencies import SESSION_COOKIE, PlayerDep, Services, ServicesDep, need_player
from ..errors import ApiError
from ..limits import client_address, is_trusted

__all__ = ["router"]

router = APIRouter(tags=["accounts"])

#: No answer about an account may be kept by a cache on the way.
NO_STORE = {"Cache-Control": "no-store"}


class SignUp(BaseModel):
    """``POST /api/account/sign-up``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64, description="3 to 24 letters, digits, _ or -")
    password: str = Field(max_length=PASSWORD_MAX * 4, description="8 to 128 characters")
    display_name: str | None = Field(default=None, max_length=200)
    language: Literal["en", "ja", "zh", "nl"] = "en"


class SignIn(BaseModel):
    """``POST /api/account/sign-in``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64)
    password: str = Field(max_length=PASSWORD_MAX * 4)


class NewPassword(BaseModel):
    """``POST /api/account/password``: the current password and the new one."""

    model_config = ConfigDict(extra="forbid")
    current: str = Field(max_length=PASSWORD_MAX * 4)
    new: str = Field(max_length=PASSWORD_MAX * 4)


class AccountChange(BaseModel):
    """``PATCH /api/account``: what to change."""

    model_config = ConfigDict(extra="forbid")
    display_name: str | None = Field(default=None, max_length=200)
    language: Literal["en", "ja", "zh", "nl"] | None = None


def _answer(response: Response, signed: SignedIn | None) -> dict[str, Any]:
    response.headers.update(NO_STORE)
    return {
        "account": signed.account.to_json() if signed else None,
        "csrf": signed.csrf if signed else None,
    }


def _secure(request: Request, svc: Services) -> bool:
    """Whether the browser reached us over https (the cookie is then ``Secure``): the
    public URL says so, or the request, or a trusted proxy's ``X-Forwarded-Proto``."""
    if svc.settings.public_url.startswith("https://") or request.url.scheme == "https":
        return True
    peer = request.client.host if request.client else ""
    proto = request.headers.get("x-forwarded-proto", "")
    return is_trusted(peer, svc.settings.trusted_proxies) and proto.strip() == "https"


def _set_cookie(request: Request, response: Response, svc: Services, session_id: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        session_id,
        max_age=int(svc.settings.session_max_seconds),
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(request, svc),
    )


def _clear_cookie(request: Request, response: Response, svc: Services) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request, svc)
    )


@router.get("/api/account")
async def account(response: Response, player: PlayerDep) -> dict[str, Any]:
    """The signed-in account (``null``: nobody) and the session's CSRF token, which every
    change made with the session cookie carries in ``X-CSRF-Token``."""
    return _answer(response, player)


@router.post("/api/account/sign-up", status_code=201)
async def sign_up(
    body: SignUp, request: Request, response: Response, svc: ServicesDep, player: PlayerDep
) -> dict[str, Any]:
    """Make an account and sign in with it (a new session; any earlier one of this browser
    ends)."""
    if not svc.sign_ups.take(client_address(request, svc.settings.trusted_proxies)):
        raise ApiError(429, "rate_limited", "too many new accounts from this address; wait")
    signed, session_id = await run_in_threadpool(
        svc.accounts.sign_up, body.name, body.password, body.display_name, body.language
    )
    if player is not None:
        await run_in_threadpool(svc.accounts.sign_out, request.cookies[SESSION_COOKIE])
    _set_cookie(request, response, svc, session_id)
    return _answer(response, signed)


@router.post("/api/account/sign-in")
async def sign_in(
    body: SignIn, request: Request, response: Response, svc: ServicesDep, player: PlayerDep
) -> dict[str, Any]:
    """Sign in: a new session id in the cookie (any earlier one of this browser ends). An
    unknown name and a wrong password get the same answer; repeated failures get 429."""
    wait = svc.sign_ins.check(client_address(request, svc.settings.trusted_proxies), body.name)
    if wait is not None:
        raise ApiError(
            429,
            "rate_limited",
            f"too many sign-ins; wait {wait} s",
            headers={"Retry-After": str(wait)},
        )
    replacing = request.cookies.get(SESSION_COOKIE) if player is not None else None
    try:
        signed, session_id = await run_in_threadpool(
            svc.accounts.sign_in, body.name, body.password, replacing
        )
    except ApiError as error:
        if error.code == "bad_credentials":
            svc.sign_ins.failed(body.name)
        raise
    svc.sign_ins.succeeded(body.name)
    _set_cookie(request, response, svc, session_id)
    return _answer(response, signed)


@router.post("/api/account/sign-out")
async def sign_out(
    request: Request, response: Response, svc: ServicesDep, player: PlayerDep
) -> dict[str, Any]:
    """End this browser's session."""
    if player is not None:
        await run_in_threadpool(svc.accounts.sign_out, request.cookies[SESSION_COOKIE])
    _clear_cookie(request, response, svc)
    return _answer(response, None)


@router.post("/api/account/password")
async def change_password(
    body: NewPassword, request: Request, response: Response, svc: ServicesDep, player: PlayerDep
) -> dict[str, Any]:
    """Change the password (the current one is asked for): every session of the account
    ends, and this browser gets a new one."""
    signed, session_id = await run_in_threadpool(
        svc.accounts.change_password, need_player(player), body.current, body.new
    )
    _set_cookie(request, response, svc, session_id)
    return _answer(response, signed)


@router.patch("/api/account")
async def change_account(
    body: AccountChange, response: Response, svc: ServicesDep, player: PlayerDep
) -> dict[str, Any]:
    """Change the display name or the language."""
    signed = need_player(player)
    changed = await run_in_threadpool(
        svc.accounts.update, signed.account.id, body.display_name, body.language
    )
    return _answer(response, SignedIn(changed, signed.session_digest, signed.csrf))


@router.get("/api/account/matches")
async def my_matches(
    response: Response,
    svc: ServicesDep,
    player: PlayerDep,
    status: Literal["open", "running", "finished", "abandoned", "all"] = "all",
    limit: int = 50,
) -> list[dict[str, Any]]:
    """The matches and open tables in which the signed-in player holds a seat, newest first:
    each with ``seat`` (theirs) and, for a running match this process serves, ``your_turn``."""
    me = need_player(player).account.id
    response.headers.update(NO_STORE)
    limit = max(1, min(limit, 200))
    wanted = None if status == "all" else status
    rows = await run_in_threadpool(svc.store.matches, wanted, limit, me, status == "all")
    out = []
    for row in rows:
        item = row.public()
        item["seat"] = next(s.seat for s in row.seats if s.account_id == me)
        live = svc.hub.live.get(row.id)
        item["your_turn"] = (
            live is not None and not live.abandoned and item["seat"] in live.match.to_act()
        )
        out.append(item)
    return out
