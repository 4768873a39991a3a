"""PostgreSQL's notifications: with several server processes on one database, each hears of
the actions, seat changes and chat messages the others stored, and catches up."""

from __future__ import annotations

import asyncio
import json
import logging

from .hub import Hub
from .owners import OWNERS_CHANNEL
from .store import CHAT_CHANNEL, NOTIFY_CHANNEL, Store

__all__ = ["listen"]

log = logging.getLogger("sengoku.server")


async def listen(store: Store, hub: Hub) -> None:
    """PostgreSQL: hear of actions other server processes stored, and catch up.

    Each match catches up in a task of its own, so a busy match holds up no other; several
    notifications for a match that is already catching up make one more catch-up, not many.
    """
    import psycopg

    conninfo = store.url.replace("postgresql+psycopg://", "postgresql://", 1)
    running: dict[str, asyncio.Task[None]] = {}
    again: set[str] = set()

    async def catch_up(match_id: str) -> None:
        try:
            while True:
                again.discard(match_id)
                try:
                    await hub.on_notify(match_id)
                except Exception:
                    log.exception("could not catch up on match %s", match_id)
                if match_id not in again:
                    return
        finally:
            running.pop(match_id, None)

    def notified(match_id: str) -> None:
        if match_id in running:
            again.add(match_id)
        else:
            running[match_id] = asyncio.create_task(catch_up(match_id))

    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                await conn.execute(f"LISTEN {CHAT_CHANNEL}")
                await conn.execute(f"LISTEN {OWNERS_CHANNEL}")
                for match_id in [*hub.live, *hub.finished]:  # missed while not listening
                    notified(match_id)
                async for note in conn.notifies():
                    if note.channel == OWNERS_CHANNEL:  # a process left: take its matches
                        if hub.owners is not None:
                            hub.owners.woken.set()
                        continue
                    if note.channel == CHAT_CHANNEL:
                        chat_noted(hub, store, note.payload)
                        continue
                    match_id, _, origin = note.payload.partition(" ")
                    if origin != store.origin:  # our own commits need no catching up
                        notified(match_id)
        except asyncio.CancelledError:
            for task in running.values():
                task.cancel()
            raise
        except Exception:
            log.exception("lost the PostgreSQL notification connection; reconnecting")
            await asyncio.sleep(1)


def chat_noted(hub: Hub, store: Store, payload: str) -> None:
    """A chat message another process stored: pass it to our clients of its match."""
    try:
        note = json.loads(payload)
        if note["origin"] != store.origin:
            hub.on_chat_notify(str(note["match"]), dict(note["chat"]))
    except (ValueError, KeyError, TypeError):
        log.exception("a chat notification could not be read")
