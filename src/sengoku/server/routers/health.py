"""Whether the server answers: ``GET /api/health``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

import sengoku

from ..dependencies import ServicesDep

__all__ = ["router"]

router = APIRouter()


@router.get("/api/health", tags=["server"])
async def health(svc: ServicesDep) -> dict[str, Any]:
    """Whether the server and its database answer, and how many matches it holds."""
    count = await run_in_threadpool(svc.store.count)
    return {
        "status": "ok",
        "version": sengoku.__version__,
        "database": "postgresql" if svc.store.is_postgres else "sqlite",
        "matches": count,
        "live": len(svc.hub.live),
        "cached": len(svc.hub.finished),
    }


@router.get("/api/health/process", tags=["server"])
async def process(svc: ServicesDep) -> dict[str, Any]:
    """Whether this process answers, without asking the database: what a reverse proxy's
    health check asks every half second (docs/deploy.md)."""
    owners = svc.hub.owners
    return {"status": "ok", "process": owners.name if owners is not None else None}
