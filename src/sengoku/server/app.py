"""The server application: :func:`create_app` assembles the routers (``routers/``), the
middleware and the error handlers, and starts and stops the live matches with the
application. The protocol is described in ``docs/protocol.md``."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import signal
from collections.abc import AsyncIterator

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

import sengoku
from sengoku.ai.advisor import HINT_SEARCHES
from sengoku.collector import tune_collector

from .accounts import Accounts, SignInLimits
from .bots import make_pool
from .dependencies import Services
from .errors import install_handlers
from .hub import Hub
from .limits import BodyLimit, SecurityHeaders, SocketCount, WindowLimit
from .listen import listen
from .owners import Owners, default_name
from .ratings import Ratings
from .reviews import Reviews
from .routers import accounts, health, matches, pages, play, players, replays, tables, tutorials
from .settings import ServerSettings, default_database_url
from .store import Store
from .tables import Tables

__all__ = ["ServerSettings", "create_app", "default_database_url", "exit_on_signal", "run"]

log = logging.getLogger("sengoku.server")


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """Build the server application (the database is migrated when it starts)."""
    settings = settings or ServerSettings()
    for proxy in settings.trusted_proxies:  # a typo fails at start, not on every request
        ipaddress.ip_network(proxy, strict=False)
    store = Store(default_database_url(settings.database_url))
    svc = Services(
        settings,
        store,
        Accounts(store, settings.session_idle_seconds, settings.session_max_seconds),
        SignInLimits(settings.sign_ins_per_minute, settings.failed_sign_ins),
        WindowLimit(settings.sign_ups_per_hour, 3600.0),
        Tables(store),
        Ratings(store),
        Reviews(
            store,
            lambda: make_pool(settings.review_workers, settings.bot_processes),
            settings.review_iterations,
        ),
        creations=WindowLimit(settings.matches_per_minute),
        sockets=SocketCount(settings.max_connections, settings.connections_per_address),
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(store.migrate)
        owners = None
        if store.is_postgres:  # every running match is served by one process (owners.py)
            name = settings.process_name or default_name(settings.process_address)
            owners = Owners(store, name, settings.process_address, settings.owner_lease)
            await run_in_threadpool(owners.register)
        workers = settings.bot_workers or os.cpu_count() or 1
        hub = svc.started = Hub(
            store,
            lambda: make_pool(workers, settings.bot_processes),
            settings.clock_level,
            settings.idle_seconds,
            settings.finished_cache,
            svc.ratings.apply,
            svc.reviews.ended,
            min(workers, HINT_SEARCHES),
            owners,
        )
        listener = asyncio.create_task(listen(store, hub)) if store.is_postgres else None
        rated = await run_in_threadpool(svc.ratings.apply_pending)
        if rated:
            log.info("rated %d matches that ended before the last stop", rated)
        reloaded = await hub.load_running()
        hub.expire_idle(settings.abandon_idle_days)
        if owners is not None:
            owners.start(hub.adopt, hub.drop_running)  # its share of the matches nobody serves
            log.info("sengoku %s: process %s (%s)", sengoku.__version__, owners.id, owners.address)
        else:
            log.info("sengoku %s: %d unfinished matches going on", sengoku.__version__, reloaded)
        svc.reviews.start()
        try:
            yield
        finally:
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listener
            await svc.reviews.close()
            await hub.close()
            if owners is not None:  # after the last write: the others take over at once
                await owners.stop()
            store.dispose()

    app = FastAPI(
        title="Sengoku",
        version=sengoku.__version__,
        summary="Play Shogun, Shitenno and Rising Sun with friends and bots: every rule enforced.",
        lifespan=lifespan,
    )
    app.state.services = svc
    app.add_middleware(BodyLimit, limit=settings.max_message_bytes)
    app.add_middleware(SecurityHeaders)
    install_handlers(app)
    for module in (health, accounts, matches, tables, players, replays, tutorials, play, pages):
        app.include_router(module.router)
    app.mount("/web", StaticFiles(directory=pages.WEB), name="web")
    return app


def run(
    application: FastAPI,
    settings: ServerSettings,
    host: str,
    port: int,
    ws_compression: bool = True,
    log_level: str = "info",
) -> None:
    """Serve ``application`` in this process (uvicorn) until SIGTERM or Ctrl+C: what
    ``sengoku serve`` runs, and each process of ``serve --processes``. The garbage collector
    is set for many games (:func:`~sengoku.collector.tune_collector`)."""
    import uvicorn

    tune_collector()
    # uvicorn stops gracefully on SIGTERM, then raises the signal again to end the process,
    # which skips the exit handlers; ending by SystemExit runs them, and they release what
    # the bot workers' pool holds (no leaked semaphores), as after Ctrl+C
    signal.signal(signal.SIGTERM, exit_on_signal)
    uvicorn.run(
        application,
        host=host,
        port=port,
        ws_max_size=settings.transport_frame_bytes,
        proxy_headers=False,  # the server reads X-Forwarded-For itself (--trusted-proxy)
        ws_per_message_deflate=ws_compression,
        log_level=log_level,
    )


def exit_on_signal(signum: int, _frame: object) -> None:
    """End the process by ``SystemExit`` (so its exit handlers run) on a signal."""
    raise SystemExit(128 + signum)
