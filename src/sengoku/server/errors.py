"""How the HTTP API answers an error: ``{"error": {"code", "message"}}`` with a status.

:class:`ApiError` is raised by a route; :func:`install_handlers` turns it, FastAPI's own
errors (an unreadable or invalid body, an unknown path) and anything unexpected into that
one shape, so a client never meets another.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .owners import MovedError

__all__ = ["ApiError", "error_response", "install_handlers"]

log = logging.getLogger("sengoku.server")


class ApiError(Exception):
    """An error a client gets as ``{"error": {"code", "message"}}`` with an HTTP status."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The error's answer."""
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


def install_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` in the one shape."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message, exc.headers)

    @app.exception_handler(MovedError)
    async def moved(request: Request, exc: MovedError) -> JSONResponse | RedirectResponse:
        """Another process serves the match: ask again there (``?at=NAME``, which the proxy
        routes by; a ``307`` keeps the method and the body). If the request came with that
        name already, the proxy could not reach that process: try again in a moment (the
        others take its matches once its lease runs out)."""
        if exc.name is None or request.query_params.get("at") == exc.name:
            message = "the match's server process cannot be reached now; try again in a moment"
            return error_response(503, "moved", message, {"Retry-After": "1"})
        there = request.url.include_query_params(at=exc.name)
        return RedirectResponse(f"{there.path}?{there.query}", 307)  # the same scheme and host

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # FastAPI could not read the body (bad UTF-8, too deep)
            return error_response(422, "invalid_request", "the body is not JSON this server reads")
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return error_response(exc.status_code, code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        return error_response(422, "invalid_request", problems or "the request is not valid")

    @app.exception_handler(Exception)
    async def internal(_request: Request, exc: Exception) -> JSONResponse:
        log.error("internal error", exc_info=exc)
        return error_response(500, "internal", "the server failed; the error has been logged")
