"""Several server processes on one PostgreSQL database: each running match is owned by one.

Every process registers a row in ``server_processes`` (an id for this start, the *name* the
reverse proxy routes by, its address) with a **lease**: the row's ``expires_at``, which the
process renews every ``lease / 5`` seconds while it lives. ``matches.owner`` names the process
that serves a running match; only the owner loads it, runs its bots, clock, chat and undo,
and stores its actions: the statement that stores an action or takes one back also checks
that the match is still the process's own (``store.py``), so a process that lost a match
(its lease ran out while it stalled) can store nothing more in it. The database's one
``owner`` column per match is why no match ever has two owners.

* A process owns the matches it creates. A running match that is asked for and has no owner
  alive (none, or one whose lease ran out) becomes the asker's (:meth:`Owners.claim`); one
  owned by another living process is not loaded: the request gets :class:`MovedError`, naming
  the owner, and the client asks again at that name (``?at=NAME``, which the proxy routes to
  that process; docs/deploy.md).
* Every ``lease / 5`` seconds each process takes its share of the *orphans*, the running
  matches whose owner's lease ran out: those whose id hashes to its place among the
  processes alive, and any left over from its last look; it loads them, so their bots and
  clocks go on (:meth:`Owners.orphans`). A process killed with SIGKILL loses its matches to
  the others within ``lease + lease / 5`` seconds and the time to replay them.
* A process that stops cleanly ends its lease at once and tells the others
  (``NOTIFY sengoku_owners``): they take its matches at once.
* A process whose lease ran out before it could renew it (it stalled) drops every match it
  served, tells its clients to reconnect, and registers again as a new owner.

Leases are counted in the database's clock (``now()``), so the machines' clocks do not matter.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable

from sqlalchemy import text
from starlette.concurrency import run_in_threadpool

from .store import Store

__all__ = ["OWNERS_CHANNEL", "MovedError", "Owners", "default_name"]

log = logging.getLogger("sengoku.server")

#: PostgreSQL notifications that a process left: the others look for orphans at once.
OWNERS_CHANNEL = "sengoku_owners"

_END_LEASE = "UPDATE server_processes SET expires_at = now() - interval '1 second' WHERE "
_ALIVE = "SELECT 1 FROM server_processes p WHERE p.id = {owner} AND p.expires_at > now()"
_ME_ALIVE = "EXISTS (" + _ALIVE.format(owner=":me") + ")"
_ORPHAN = (
    "m.status = 'running' AND (m.owner IS NULL OR NOT EXISTS ("
    + _ALIVE.format(owner="m.owner")
    + "))"
)


class MovedError(Exception):
    """The match is served by another process, ``name`` (``None``: not known yet): ask there
    (``?at=NAME``)."""

    def __init__(self, match_id: str, name: str | None) -> None:
        super().__init__(f"match {match_id} is served by {name or 'another process'}")
        self.match_id = match_id
        self.name = name


class Owners:
    """This process as an owner of matches (see the module docs).

    Args:
        store: the database (PostgreSQL).
        name: what the reverse proxy routes this process by (``?at=NAME``); the processes
            behind one proxy have different names.
        address: where this process listens (``host:port``), for people reading the table.
        lease: seconds a process's matches stay its own after its last renewal.
    """

    def __init__(self, store: Store, name: str, address: str, lease: float = 3.0) -> None:
        if not store.is_postgres:
            raise ValueError("several server processes need PostgreSQL (--db postgresql://...)")
        if not name or len(name) > 40 or not name.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"a process name is 1-40 letters, digits, - or _, not {name!r}")
        self.store = store
        self.name = name
        self.address = address
        self.lease = lease
        self.id = ""
        self.woken = asyncio.Event()  # a process left: look for orphans now
        self._seen: set[str] = set()  # orphans seen at the last look, not this process's share
        self._tasks: list[asyncio.Task[None]] = []

    # -- the database (each in a worker thread) ----------------------------------------------

    def register(self) -> None:
        """Start a new lease under a new id; the store then writes as this owner. An earlier
        process of the same name is taken to be this one's past (restarted): its lease ends
        now, so its matches are served again at once."""
        self.id = f"{self.name}.{secrets.token_hex(6)}"
        with self.store.writing() as session:
            session.execute(
                text(_END_LEASE + "name = :name AND expires_at > now()"), {"name": self.name}
            )
            session.execute(
                text(
                    "INSERT INTO server_processes (id, name, address, started_at, expires_at) "
                    "VALUES (:me, :name, :address, now(), now() + make_interval(secs => :lease))"
                ),
                {"me": self.id, "name": self.name, "address": self.address, "lease": self.lease},
            )
        self.store.owner_id = self.id

    def renew(self) -> bool:
        """Renew the lease; ``False`` if it had run out (the matches may be others' now)."""
        with self.store.writing() as session:
            renewed = session.execute(
                text(
                    "UPDATE server_processes SET expires_at = now() + make_interval(secs => :lease)"
                    " WHERE id = :me AND expires_at > now()"
                ),
                {"me": self.id, "lease": self.lease},
            )
            return bool(renewed.rowcount == 1)  # type: ignore[attr-defined]

    def claim(self, match_id: str) -> str | None:
        """Make the match this process's own if it runs and no living process owns it.

        Returns ``None`` when this process may serve it (its own now, or not running: a
        finished match is only read), else the owner's name."""
        with self.store.writing() as session:
            taken = session.execute(
                text(
                    "UPDATE matches m SET owner = :me WHERE m.id = :m AND (m.owner = :me OR "
                    f"{_ORPHAN}) AND {_ME_ALIVE}"
                ),
                {"me": self.id, "m": match_id},
            )
            if taken.rowcount == 1:  # type: ignore[attr-defined]
                return None
            row = session.execute(
                text(
                    "SELECT m.status, m.owner, p.name FROM matches m "
                    "LEFT JOIN server_processes p ON p.id = m.owner WHERE m.id = :m"
                ),
                {"m": match_id},
            ).first()
        if row is None or row.status != "running":
            return None
        if row.owner == self.id:  # our own lease ran out: not ours to serve until renewed
            return self.name
        return str(row.name) if row.name is not None else None

    def owns(self, match_id: str) -> bool:
        """Whether the match is still this process's own."""
        with self.store.reading() as session:
            owner = session.execute(
                text("SELECT owner FROM matches WHERE id = :m"), {"m": match_id}
            ).scalar()
        return owner == self.id

    def orphans(self) -> list[str]:
        """Take this process's share of the running matches no living process owns (see the
        module docs); returns their ids."""
        with self.store.writing() as session:
            alive = [
                str(p)
                for p in session.execute(
                    text("SELECT id FROM server_processes WHERE expires_at > now() ORDER BY id")
                ).scalars()
            ]
            if self.id not in alive:
                return []
            found = session.execute(text(f"SELECT m.id FROM matches m WHERE {_ORPHAN}"))
            orphans = [str(m) for m in found.scalars()]
            if not orphans:
                self._seen = set()
                return []
            place, count = alive.index(self.id), len(alive)
            mine = [m for m in orphans if _share(m, count) == place or m in self._seen]
            self._seen = set(orphans) - set(mine)
            if not mine:
                return []
            taken = session.execute(
                text(
                    "UPDATE matches m SET owner = :me WHERE m.id IN (SELECT m.id FROM matches m "
                    f"WHERE m.id = ANY(:ids) AND {_ORPHAN} FOR UPDATE SKIP LOCKED) AND {_ME_ALIVE} "
                    "RETURNING m.id"
                ),
                {"me": self.id, "ids": mine},
            )
            return [str(m) for m in taken.scalars()]

    def leave(self) -> None:
        """End the lease now and tell the other processes, which take the matches at once."""
        if not self.id:
            return
        with self.store.writing() as session:
            session.execute(text(_END_LEASE + "id = :me"), {"me": self.id})
            session.execute(text("SELECT pg_notify(:c, :me)"), {"c": OWNERS_CHANNEL, "me": self.id})
            # processes gone for an hour that own no running match are forgotten
            session.execute(
                text(
                    "DELETE FROM server_processes p WHERE p.expires_at < now() - interval '1 hour'"
                    " AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.owner = p.id "
                    "AND m.status = 'running')"
                )
            )

    # -- the tasks ---------------------------------------------------------------------------

    def start(
        self, adopt: Callable[[str], Awaitable[None]], drop: Callable[[], Awaitable[None]]
    ) -> None:
        """Renew the lease and take orphans, each in a task of its own (a long take-over
        never holds up the renewal): ``adopt(match_id)`` serves a match taken over, ``drop()``
        stops serving every running match once the lease was lost (the hub's)."""
        self._tasks = [
            asyncio.create_task(self._keep_lease(drop)),
            asyncio.create_task(self._adopt(adopt)),
        ]

    async def _keep_lease(self, drop: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(self.lease / 5)
            try:
                if not await run_in_threadpool(self.renew):
                    log.warning("process %s lost its lease; serving anew as a new owner", self.id)
                    await drop()
                    await run_in_threadpool(self.register)
            except Exception:
                log.exception("could not renew the lease of process %s", self.id)

    async def _adopt(self, adopt: Callable[[str], Awaitable[None]]) -> None:
        while True:
            try:
                for match_id in await run_in_threadpool(self.orphans):
                    await adopt(match_id)
            except Exception:
                log.exception("could not take over orphaned matches")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), self.lease / 5)
            self.woken.clear()

    async def stop(self) -> None:
        """Stop the tasks and end the lease (the others take the matches at once)."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        try:
            await run_in_threadpool(self.leave)
        except Exception:
            log.exception("could not end the lease of process %s", self.id)


def default_name(address: str) -> str:
    """A process's name when none is given: this machine's name and the port it listens on
    (``host:port``), so that a process started again where it was takes its matches back at
    once; ``p`` and the process id without an address."""
    port = address.rpartition(":")[2]
    if not port.isdigit():
        return f"p{os.getpid()}"
    host = "".join(c if c.isalnum() or c == "-" else "-" for c in socket.gethostname())
    return f"{host[: 39 - len(port)]}-{port}"


def _share(match_id: str, processes: int) -> int:
    """The place (among the living processes, in id order) of the process whose share the
    orphaned match is: the same in every process."""
    return int.from_bytes(hashlib.blake2b(match_id.encode(), digest_size=8).digest()) % processes
