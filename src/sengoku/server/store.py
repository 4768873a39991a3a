"""Durable storage of matches: SQLAlchemy 2 on SQLite (the default) or PostgreSQL.

Everything here is synchronous and runs in worker threads of the server. The one rule that
keeps matches consistent, even with several server processes on one PostgreSQL database:
an action is stored by :meth:`Store.append`, which advances ``matches.length`` from the
number the caller expects, in the same transaction that inserts the action. If another
process got there first, nothing is written and the caller catches up and tries again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from .models import AccountRow, ActionRow, ChatRow, MatchRow, ReviewRow, SeatRow, utcnow

__all__ = [
    "CHAT_CHANNEL",
    "NOTIFY_CHANNEL",
    "Append",
    "MissingDriverError",
    "Seat",
    "Store",
    "StoredMatch",
    "digest",
    "sqlalchemy_url",
]

#: The PostgreSQL channel on which a process tells the others that a match changed.
NOTIFY_CHANNEL = "sengoku_match"
#: The channel on which a process passes a chat message to the others (the message as JSON).
CHAT_CHANNEL = "sengoku_chat"
_MIGRATION_LOCK = 0x5E_6040  # a PostgreSQL advisory lock id: one migrating process at a time


def digest(token: str) -> str:
    """The SHA-256 hex digest stored in place of a secret token."""
    return hashlib.sha256(token.encode()).hexdigest()


class MissingDriverError(ImportError):
    """A database URL whose driver is not installed (PostgreSQL needs ``sengoku[postgres]``)."""


def require_psycopg() -> None:
    """Check that psycopg, the PostgreSQL driver, can be imported; say what to install if not.

    Only a ``postgresql://`` database needs it: the SQLite default installs and runs without it.
    """
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise MissingDriverError(
            "a postgresql:// database needs the PostgreSQL driver (psycopg), which is not "
            "installed: pip install -e '.[postgres]'",
            name="psycopg",
        ) from exc


def sqlalchemy_url(url: str) -> str:
    """The SQLAlchemy form of a database URL: ``postgresql://`` uses the psycopg 3 driver.

    >>> sqlalchemy_url("postgresql://u@localhost/db")
    'postgresql+psycopg://u@localhost/db'
    >>> sqlalchemy_url("sqlite:///tmp/x.db")
    'sqlite:///tmp/x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass(frozen=True)
class Append:
    """An action to store (:meth:`Store.append_all`): action ``number`` of a match, by
    ``seat``; ``outcome`` once it ends the match; ``undos``: how many actions the match must
    have taken back (``None``: any number)."""

    match_id: str
    number: int
    seat: int
    notation: str
    by_bot: bool
    outcome: dict[str, Any] | None = None
    undos: int | None = None


@dataclass(frozen=True)
class Seat:
    """A seat as stored: a person (``human``), a bot (``bot`` is its level) or, at an open
    table, nobody yet (``open``); a person's seat may belong to an account (``account_id``,
    and its name ``account``). Never its token."""

    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_digest: str | None = None
    account_id: int | None = None
    account: str | None = None

    def public(self) -> dict[str, Any]:
        """What anyone may see of the seat (never its token)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "account": self.account,
        }


@dataclass(frozen=True)
class StoredMatch:
    """A match row with its seats (and, when loaded for replay, its actions)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    length: int
    outcome: dict[str, Any] | None
    turn_clock: float | None
    host_digest: str
    created_at: str
    updated_at: str
    seats: tuple[Seat, ...]
    spectator_chat: bool = False  # the host lets spectators write in the chat
    rematch: str | None = None  # the id of this match's rematch, once one was made
    allow_undo: bool = True
    undos: int = 0
    rated: bool = False
    host_account: int | None = None  # the account that opened the table
    host: str | None = None  # its name
    allow_hints: bool = False  # the host lets the players ask the advisor

    def public(self) -> dict[str, Any]:
        """What anyone may see of the match (no tokens, no seed)."""
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "status": self.status,
            "actions": self.length,
            "outcome": self.outcome,
            "turn_clock": self.turn_clock,
            "undo": self.allow_undo,
            "hints": self.allow_hints,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "seats": [s.public() for s in self.seats],
            "spectator_chat": self.spectator_chat,
            "rematch": self.rematch,
            "rated": self.rated,
            "host": self.host,
        }


class Store:
    """The database of one server process (thread-safe; one engine, short transactions)."""

    def __init__(self, url: str) -> None:
        self.url = sqlalchemy_url(url)
        parsed = make_url(self.url)
        self.is_postgres = parsed.get_backend_name() == "postgresql"
        if self.is_postgres:
            require_psycopg()
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(
            self.url,
            pool_pre_ping=True,
            connect_args={"check_same_thread": False, "timeout": 30}
            if not self.is_postgres
            else {},
        )
        if not self.is_postgres:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: names this process in its notifications, so it can skip its own
        self.origin = secrets.token_hex(8)
        #: with several processes (PostgreSQL), this process's id as an owner of matches
        #: (``owners.Owners``): the matches it creates are its own, and it stores actions
        #: only for matches it owns; ``None``: one process, no ownership
        self.owner_id: str | None = None
        # SQLite takes one writer at a time; PostgreSQL's row locks need no help.
        self._write: contextlib.AbstractContextManager[Any] = (
            contextlib.nullcontext() if self.is_postgres else threading.Lock()
        )

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """A transaction that writes, committed when the block ends (rolled back if it
        raises); on SQLite one writer at a time."""
        with self._write, self._sessions.begin() as session:
            yield session

    @contextlib.contextmanager
    def reading(self) -> Iterator[Session]:
        """A session to read with."""
        with self._sessions() as session:
            yield session

    # -- schema ------------------------------------------------------------------------------

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to ``revision`` (Alembic; the newest by default); safe with
        several processes."""
        config = Config()
        config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.engine.begin() as conn:
            if self.is_postgres:
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
            config.attributes["connection"] = conn
            command.upgrade(config, revision)

    def revision(self) -> str | None:
        """The schema's Alembic revision (``None`` before the first migration)."""
        with self.engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return None
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- matches -----------------------------------------------------------------------------

    def create(
        self,
        match_id: str,
        game: str,
        players: int,
        options: dict[str, Any],
        seed: int,
        host_digest: str,
        seats: Sequence[Seat],
        turn_clock: float | None,
        spectator_chat: bool = False,
        allow_undo: bool = True,
        *,
        status: str = "running",
        host_account: int | None = None,
        rated: bool = False,
        allow_hints: bool = False,
    ) -> None:
        """Store a new match with its seats (``allow_undo``, ``allow_hints``: the host's
        options; ``status="open"``: an open table, whose open seats wait for people)."""
        with self.writing() as session:
            _add_match(
                session,
                match_id,
                game,
                players,
                options,
                seed,
                host_digest,
                seats,
                turn_clock,
                spectator_chat,
                allow_undo,
                status=status,
                host_account=host_account,
                rated=rated,
                allow_hints=allow_hints,
                owner=self.owner_id,
            )

    def get(self, match_id: str) -> StoredMatch | None:
        """The match with that id, or ``None``."""
        with self.reading() as session:
            row = session.get(MatchRow, match_id)
            return None if row is None else self._stored(session, row)

    def matches(
        self,
        status: str | None = None,
        limit: int = 100,
        account: int | None = None,
        tables: bool = False,
    ) -> list[StoredMatch]:
        """Matches, newest first; ``status`` is ``open`` (the tables), ``running``,
        ``finished``, ``abandoned`` or ``None`` (all but the open tables, and those too with
        ``tables``); ``account``: only those in which that account holds a seat."""
        with self.reading() as session:
            query = select(MatchRow).order_by(MatchRow.updated_at.desc()).limit(limit)
            if status is not None:
                query = query.where(MatchRow.status == status)
            elif not tables:
                query = query.where(MatchRow.status != "open")
            if account is not None:
                seated = select(SeatRow.match_id).where(SeatRow.account_id == account)
                query = query.where(MatchRow.id.in_(seated))
            return [self._stored(session, row) for row in session.scalars(query)]

    def running_ids(self) -> list[str]:
        """The ids of every unfinished match."""
        with self.reading() as session:
            return list(session.scalars(select(MatchRow.id).where(MatchRow.status == "running")))

    def actions(self, match_id: str, since: int = 0) -> list[tuple[int, str]]:
        """The stored actions from number ``since`` on, as ``(seat, notation)``."""
        with self.reading() as session:
            rows = session.execute(
                select(ActionRow.seat, ActionRow.notation)
                .where(ActionRow.match_id == match_id, ActionRow.number >= since)
                .order_by(ActionRow.number)
            )
            return [(seat, notation) for seat, notation in rows]

    def append(
        self,
        match_id: str,
        number: int,
        seat: int,
        notation: str,
        by_bot: bool,
        outcome: dict[str, Any] | None,
        undos: int | None = None,
    ) -> bool:
        """Store action ``number`` of the match, if it is still the next one.

        Returns ``False``, writing nothing, when the match already has ``number`` actions or
        more (another process stored one first), or (given ``undos``) when it has taken back
        another number of actions than that (another process took one back). With
        ``outcome`` the match is finished. The commit happens before this returns, and
        before anyone is told of the action. One action of :meth:`append_all`.
        """
        return self.append_all([Append(match_id, number, seat, notation, by_bot, outcome, undos)])[
            0
        ]

    def append_all(self, appends: Sequence[Append]) -> list[bool]:
        """Store several actions, each of another match, in one transaction: one commit (one
        fsync) for all of them. Each is stored or refused on its own, as by :meth:`append`;
        the answer is in the order given. Nothing is stored if the transaction fails.

        The matches' rows are locked in the order of their ids, so two processes that commit
        groups at once (PostgreSQL) never wait for each other in a cycle.
        """
        now = utcnow()
        claimed: dict[int, bool] = {}
        rows: list[dict[str, Any]] = []
        order = sorted(range(len(appends)), key=lambda i: appends[i].match_id)
        with self._write, self.engine.begin() as conn:
            for i in order:
                a = appends[i]
                params: dict[str, Any] = {"m": a.match_id, "n": a.number, "n1": a.number + 1}
                params.update(now=now, u=a.undos)  # no column's name: it would be SET too
                if a.outcome is not None:
                    params["o"] = json.dumps(a.outcome)
                if self.owner_id is not None:
                    params["me"] = self.owner_id
                owned = self.owner_id is not None
                claim = _CLAIMS[a.outcome is not None, a.undos is not None, owned]
                claimed[i] = conn.execute(claim, params).rowcount == 1
                if claimed[i]:
                    rows.append(
                        {
                            "match_id": a.match_id,
                            "number": a.number,
                            "seat": a.seat,
                            "notation": a.notation,
                            "by_bot": a.by_bot,
                            "created_at": now,
                            "process": self.owner_id,
                        }
                    )
            if rows:
                conn.execute(insert(ActionRow), rows)
                if self.is_postgres:
                    for row in rows:
                        self.notify(conn, row["match_id"])
        return [claimed[i] for i in range(len(appends))]

    # -- undo ------------------------------------------------------------------------------

    def take_back(self, match_id: str, number: int, index: int, undos: int) -> bool:
        """Remove action ``index`` of a match that has ``number`` actions and has taken back
        ``undos`` so far: the later actions move down one number, all in one transaction.

        Returns ``False``, writing nothing, when the match has moved on meanwhile (another
        process stored or took back an action first). The commit happens before this
        returns, and before anyone is told of the undo.
        """
        now = utcnow()
        with self.writing() as session:
            claimed = session.execute(
                update(MatchRow)
                .where(
                    MatchRow.id == match_id,
                    MatchRow.length == number,
                    MatchRow.undos == undos,
                    MatchRow.status == "running",
                    *([MatchRow.owner == self.owner_id] if self.owner_id is not None else []),
                )
                .values(length=number - 1, undos=undos + 1, updated_at=now)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            later = session.execute(
                select(
                    ActionRow.number,
                    ActionRow.seat,
                    ActionRow.notation,
                    ActionRow.by_bot,
                    ActionRow.created_at,
                    ActionRow.process,
                )
                .where(ActionRow.match_id == match_id, ActionRow.number > index)
                .order_by(ActionRow.number)
            ).all()
            # delete, then insert the later ones one number down: renumbering in place
            # would collide with the primary key on the way
            session.execute(
                delete(ActionRow).where(ActionRow.match_id == match_id, ActionRow.number >= index)
            )
            if later:
                session.execute(
                    insert(ActionRow),
                    [
                        {
                            "match_id": match_id,
                            "number": row.number - 1,
                            "seat": row.seat,
                            "notation": row.notation,
                            "by_bot": row.by_bot,
                            "created_at": row.created_at,
                            "process": row.process,
                        }
                        for row in later
                    ],
                )
            if self.is_postgres:
                self.notify(session, match_id)
        return True

    def abandon(self, match_id: str) -> bool:
        """End a running match without an outcome (``status = "abandoned"``): its host gave
        it up. ``False``, writing nothing, if it is not running (finished meanwhile, or
        abandoned already). Claims of later actions fail from then on (:func:`_claim`)."""
        with self.writing() as session:
            done = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.status == "running")
                .values(status="abandoned", updated_at=utcnow())
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                return False
            self.notify(session, match_id)
            return True

    def abandon_idle(self, before: datetime) -> list[str]:
        """Abandon every running match without a move (or other change) since ``before``;
        returns their ids. Each is one guarded statement, so a match that moved meanwhile
        stays running."""
        with self.reading() as session:
            query = select(MatchRow.id).where(
                MatchRow.status == "running", MatchRow.updated_at < before
            )
            idle = session.scalars(query).all()
        gone = []
        for match_id in idle:
            with self.writing() as session:
                done = session.execute(
                    update(MatchRow)
                    .where(
                        MatchRow.id == match_id,
                        MatchRow.status == "running",
                        MatchRow.updated_at < before,
                    )
                    .values(status="abandoned", updated_at=utcnow())
                )
                if done.rowcount == 1:  # type: ignore[attr-defined]
                    self.notify(session, match_id)
                    gone.append(match_id)
        return gone

    def progress(self, match_id: str) -> tuple[int, int]:
        """How many actions the match has stored, and how many it has taken back."""
        with self.reading() as session:
            row = session.execute(
                select(MatchRow.length, MatchRow.undos).where(MatchRow.id == match_id)
            ).one()
            return int(row[0]), int(row[1])

    def set_seat(
        self, match_id: str, seat: int, kind: str, bot: str | None, token_digest: str | None
    ) -> None:
        """Hand a seat to a bot (``kind="bot"``) or back to a person; a ``token_digest``
        replaces the seat's token, and the seat no longer belongs to its account. A rated
        match whose seat changes hands is rated no more."""
        with self.writing() as session:
            row = session.get(SeatRow, (match_id, seat))
            if row is None:
                raise LookupError(f"match {match_id} has no seat {seat}")
            row.kind, row.bot = kind, bot
            if token_digest is not None:
                row.token_digest = token_digest
                row.account_id = None
            session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id)
                .values(updated_at=utcnow(), rated=False)
            )
            if self.is_postgres:
                self.notify(session, match_id)

    def count(self) -> int:
        """How many matches are stored."""
        with self.reading() as session:
            return int(session.scalar(select(func.count()).select_from(MatchRow)) or 0)

    # -- chat and rematch ----------------------------------------------------------------------

    def add_chat(
        self,
        match_id: str,
        seat: int | None,
        name: str,
        body: str,
        at: Any,
        payload: dict[str, Any],
        kind: str = "text",
    ) -> None:
        """Store a chat message (``kind="hint"``: the note that ``seat`` asked for a hint);
        with PostgreSQL, ``payload`` (the message as clients get it) goes to the other
        processes when it commits. The match's actions are not locked."""
        with self.writing() as session:
            session.add(
                ChatRow(
                    match_id=match_id, seat=seat, name=name, text=body, created_at=at, kind=kind
                )
            )
            if self.is_postgres:
                note = json.dumps({"origin": self.origin, "match": match_id, "chat": payload})
                session.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHAT_CHANNEL, "p": note})

    def chat(self, match_id: str, limit: int) -> list[tuple[int | None, str, str, Any, str]]:
        """The match's last ``limit`` chat messages, oldest first:
        ``(seat, name, text, at, kind)``."""
        with self.reading() as session:
            rows = session.execute(
                select(ChatRow.seat, ChatRow.name, ChatRow.text, ChatRow.created_at, ChatRow.kind)
                .where(ChatRow.match_id == match_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return [(seat, name, body, at, kind) for seat, name, body, at, kind in reversed(rows)]

    # -- reviews ---------------------------------------------------------------------------

    def queue_review(self, match_id: str, iterations: int) -> bool:
        """Ask for a review of the finished match ``match_id``, unless one was asked for
        already; whether this call asked."""
        with self.writing() as session:
            if session.get(ReviewRow, match_id) is not None:
                return False
            now = utcnow()
            session.add(
                ReviewRow(
                    match_id=match_id,
                    status="pending",
                    iterations=iterations,
                    created_at=now,
                    updated_at=now,
                )
            )
        return True

    def take_review(self, stale_after: float = 1800.0) -> tuple[str, int] | None:
        """Take the oldest waiting review (or one whose maker stopped ``stale_after``
        seconds ago without finishing): ``(match_id, iterations)``, now ``running``; one
        guarded statement, so two processes never take the same."""
        with self.writing() as session:
            stale = utcnow() - timedelta(seconds=stale_after)
            rows = session.execute(
                select(ReviewRow.match_id, ReviewRow.iterations, ReviewRow.status)
                .where(
                    (ReviewRow.status == "pending")
                    | ((ReviewRow.status == "running") & (ReviewRow.updated_at < stale))
                )
                .order_by(ReviewRow.created_at)
                .limit(4)
            ).all()
            for match_id, iterations, status in rows:
                taken = session.execute(
                    update(ReviewRow)
                    .where(ReviewRow.match_id == match_id, ReviewRow.status == status)
                    .values(status="running", updated_at=utcnow())
                )
                if taken.rowcount == 1:  # type: ignore[attr-defined]
                    return str(match_id), int(iterations)
        return None

    def finish_review(self, match_id: str, data: str | None) -> None:
        """Store a review's JSON (``None``: it failed)."""
        with self.writing() as session:
            session.execute(
                update(ReviewRow)
                .where(ReviewRow.match_id == match_id)
                .values(
                    status="done" if data is not None else "failed", data=data, updated_at=utcnow()
                )
            )

    def review(self, match_id: str) -> tuple[str, str | None] | None:
        """A match's review: ``(status, JSON or None)``, or ``None`` if none was asked for."""
        with self.reading() as session:
            row = session.execute(
                select(ReviewRow.status, ReviewRow.data).where(ReviewRow.match_id == match_id)
            ).first()
            return None if row is None else (str(row[0]), row[1])

    def create_rematch(
        self,
        old_id: str,
        match_id: str,
        players: int,
        options: dict[str, Any],
        seed: int,
        host_digest: str,
        seats: Sequence[Seat],
    ) -> str:
        """Store ``match_id`` as the rematch of ``old_id`` (its game, turn clock and chat
        setting), unless the old match has one already; returns the rematch's id either way.

        Claiming the old match's ``rematch`` and storing the new match are one transaction,
        so two requests (even in two processes) make one rematch.
        """
        with self.writing() as session:
            claimed = session.execute(
                update(MatchRow)
                .where(MatchRow.id == old_id, MatchRow.rematch.is_(None))
                .values(rematch=match_id, updated_at=utcnow())
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                existing = session.scalar(select(MatchRow.rematch).where(MatchRow.id == old_id))
                if existing is None:
                    raise LookupError(f"there is no match {old_id}")
                return str(existing)
            old = session.get(MatchRow, old_id)
            assert old is not None
            _add_match(
                session,
                match_id,
                old.game,
                players,
                options,
                seed,
                host_digest,
                seats,
                old.turn_clock,
                old.spectator_chat,
                old.allow_undo,
                rated=old.rated,
                allow_hints=old.allow_hints,
                owner=self.owner_id,
            )
            if self.is_postgres:
                self.notify(session, old_id)
        return match_id

    def claim(self, match_id: str, seat: int | None, token_digest: str) -> bool:
        """Give a seat (``None``: the host) the token ``token_digest``, if it has none yet or
        already that one. ``False``: it has another (the host gave the seat to someone)."""
        with self.writing() as session:
            if seat is None:
                claimed = session.execute(
                    update(MatchRow)
                    .where(MatchRow.id == match_id, MatchRow.host_digest.in_(("", token_digest)))
                    .values(host_digest=token_digest)
                )
            else:
                claimed = session.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.match_id == match_id,
                        SeatRow.seat == seat,
                        (SeatRow.token_digest.is_(None)) | (SeatRow.token_digest == token_digest),
                    )
                    .values(token_digest=token_digest)
                )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            if self.is_postgres:
                self.notify(session, match_id)
        return True

    def tie_seat(self, match_id: str, seat: int, account_id: int) -> str:
        """Let a seat belong to an account (its player signed in and confirmed). Returns
        ``"tied"`` (or it was already), ``"taken"`` (it belongs to another account) or
        ``"seated"`` (the account holds another seat of the match)."""
        with self.writing() as session:
            others = session.scalar(
                select(func.count()).where(
                    SeatRow.match_id == match_id,
                    SeatRow.account_id == account_id,
                    SeatRow.seat != seat,
                )
            )
            if others:
                return "seated"
            tied = session.execute(
                update(SeatRow)
                .where(
                    SeatRow.match_id == match_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    (SeatRow.account_id.is_(None)) | (SeatRow.account_id == account_id),
                )
                .values(account_id=account_id)
            )
            if tied.rowcount != 1:  # type: ignore[attr-defined]
                return "taken"
            self.notify(session, match_id)
        return "tied"

    # -- internals ---------------------------------------------------------------------------

    def notify(self, session: Session | Connection, match_id: str) -> None:
        """PostgreSQL: tell the other server processes, when ``session`` commits, that the
        match changed (on SQLite, with one process, nothing)."""
        if not self.is_postgres:
            return
        # Delivered to every listening process when the transaction commits.
        payload = f"{match_id} {self.origin}"
        session.execute(text("SELECT pg_notify(:c, :p)"), {"c": NOTIFY_CHANNEL, "p": payload})

    @staticmethod
    def _stored(session: Session, row: MatchRow) -> StoredMatch:
        seats = session.execute(
            select(SeatRow, AccountRow.name)
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.match_id == row.id)
            .order_by(SeatRow.seat)
        ).all()
        host = (
            session.scalar(select(AccountRow.name).where(AccountRow.id == row.host_account))
            if row.host_account is not None
            else None
        )
        return StoredMatch(
            id=row.id,
            game=row.game,
            players=row.players,
            options=json.loads(row.options),
            seed=row.seed,
            status=row.status,
            length=row.length,
            outcome=json.loads(row.outcome) if row.outcome else None,
            turn_clock=row.turn_clock,
            host_digest=row.host_digest,
            created_at=_iso(row.created_at),
            updated_at=_iso(row.updated_at),
            seats=tuple(
                Seat(s.seat, s.kind, s.bot, s.name, s.token_digest, s.account_id, account)
                for s, account in seats
            ),
            spectator_chat=bool(row.spectator_chat),
            rematch=row.rematch,
            allow_undo=bool(row.allow_undo),
            undos=int(row.undos or 0),
            rated=bool(row.rated),
            host_account=row.host_account,
            host=host,
            allow_hints=bool(row.allow_hints),
        )


def _claim(finishing: bool, guard_undos: bool, owned: bool) -> Any:
    """The statement that claims action ``:n`` of match ``:m`` (``matches.length`` from
    ``:n`` to ``:n1``, at ``:now``; finishing it with the outcome ``:o``), only if it is
    still the next one (and the match has taken back ``:u`` actions, and it is still owned
    by ``:me``: a process that lost a match stores nothing more in it). Built once: the
    statement is the same for every action."""
    where = [
        MatchRow.id == bindparam("m"),
        MatchRow.length == bindparam("n"),
        MatchRow.status == "running",  # not abandoned meanwhile
    ]
    if guard_undos:
        where.append(MatchRow.undos == bindparam("u"))
    if owned:
        where.append(MatchRow.owner == bindparam("me"))
    values: dict[str, Any] = {"length": bindparam("n1"), "updated_at": bindparam("now")}
    if finishing:
        values.update(status="finished", outcome=bindparam("o"))
    return update(MatchRow).where(*where).values(**values)


_CLAIMS = {
    (f, u, o): _claim(f, u, o) for f in (False, True) for u in (False, True) for o in (False, True)
}


def _add_match(
    session: Session,
    match_id: str,
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    host_digest: str,
    seats: Sequence[Seat],
    turn_clock: float | None,
    spectator_chat: bool,
    allow_undo: bool,
    *,
    status: str = "running",
    host_account: int | None = None,
    rated: bool = False,
    allow_hints: bool = False,
    owner: str | None = None,
) -> None:
    now = utcnow()
    session.add(
        MatchRow(
            id=match_id,
            game=game,
            players=players,
            options=json.dumps(options),
            seed=seed,
            status=status,
            length=0,
            outcome=None,
            turn_clock=turn_clock,
            host_digest=host_digest,
            created_at=now,
            updated_at=now,
            spectator_chat=spectator_chat,
            allow_undo=allow_undo,
            undos=0,
            host_account=host_account,
            rated=rated,
            rating_applied=False,
            allow_hints=allow_hints,
            # unset without owners, as in a database of an older revision (a migration test)
            **({"owner": owner} if owner is not None else {}),
        )
    )
    session.flush()
    for s in seats:
        session.add(
            SeatRow(
                match_id=match_id,
                seat=s.seat,
                kind=s.kind,
                bot=s.bot,
                token_digest=s.token_digest,
                name=s.name,
                account_id=s.account_id,
            )
        )


def _iso(moment: Any) -> str:
    return str(moment.isoformat()) if moment is not None else ""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # The WAL journal lets readers go on while a writer commits; every commit is durable.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
