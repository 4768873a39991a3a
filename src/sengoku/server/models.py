"""The server's tables (SQLAlchemy 2). Alembic migrations in ``migrations/`` create them.

A match is its set-up (game, players, options, seed) plus its accepted actions in order:
exactly a Sengoku record, so any match can be rebuilt by replaying it. Seat tokens, the host
token and session ids are stored only as SHA-256 digests, passwords only as argon2id hashes.

Players (migration 0004): an account may hold seats; a match that is still an open table
(``status = "open"``) waits for people to take its open seats; a rated match moves its
players' ratings (one row per account and game) and leaves a history row per player.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time in UTC (what every timestamp column holds)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of the server's tables."""


class MatchRow(Base):
    """One match: its set-up, how far it has got, and its outcome once finished."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)  # JSON object
    seed: Mapped[int] = mapped_column(BigInteger)
    # open | running | finished | abandoned (ended without an outcome)
    status: Mapped[str] = mapped_column(String(16), index=True)
    length: Mapped[int] = mapped_column(Integer, default=0)  # accepted actions so far
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON, once finished
    turn_clock: Mapped[float | None] = mapped_column(Float, nullable=True)  # seconds
    host_digest: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # chat and rematch (migration 0002_chat)
    spectator_chat: Mapped[bool] = mapped_column(default=False, server_default=false())
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next match
    # undo (migration 0003_undo): the host's option, and how many actions were taken back
    allow_undo: Mapped[bool] = mapped_column(default=True, server_default=true())
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    # players (migration 0004_players): the account that opened the table, whether the
    # match is rated, and whether its ratings were applied (once, when it ended)
    host_account: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    rating_applied: Mapped[bool] = mapped_column(default=False, server_default=false())
    # the advisor (migration 0005_advisor): the host's hint option
    allow_hints: Mapped[bool] = mapped_column(default=True, server_default=true())
    # ownership (migration 0007_owners): the server process that serves the running match
    # (``server_processes.id``), with several processes on PostgreSQL (docs/architecture.md)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ProcessRow(Base):
    """A server process that owns matches (several processes on PostgreSQL): its id (one per
    start), its name (what the reverse proxy routes by), its address, and until when its lease
    holds; it renews the lease while it lives (``owners.py``)."""

    __tablename__ = "server_processes"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), index=True)
    address: Mapped[str] = mapped_column(String(255))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeatRow(Base):
    """One seat of a match: a person (with a token) or a bot (with a level)."""

    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_digest: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # the account the seat belongs to (migration 0004_players); kind "open": nobody sits yet
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )


class ActionRow(Base):
    """One accepted action; ``(match_id, number)`` is unique, which serialises a match's
    actions even across server processes."""

    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0, 1, 2, ...
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    by_bot: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # the process that stored it (``server_processes.id``; migration 0007_owners), with several
    # processes: a match's actions show who owned it when, and that owners never overlapped
    process: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ChatRow(Base):
    """One chat message of a match, from a seat or (``seat`` null) a spectator."""

    __tablename__ = "chat"
    __table_args__ = (Index("ix_chat_match_id", "match_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # text: what a person wrote; hint: the note that the seat asked for a hint (0005_advisor)
    kind: Mapped[str] = mapped_column(String(8), default="text", server_default="text")


class ReviewRow(Base):
    """The review of a finished match (migration 0005_advisor): ``pending`` until a worker
    takes it, ``running``, then ``done`` with its JSON (or ``failed``)."""

    __tablename__ = "reviews"
    __table_args__ = (Index("ix_reviews_status", "status", "created_at"),)

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(8))
    iterations: Mapped[int] = mapped_column(Integer)
    data: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountRow(Base):
    """A player's account (``kind="person"``), or a bot level that rated matches rate
    (``kind="bot"``, named ``bot:<level>``, no password: nobody signs in as it)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))  # as the player typed it
    name_key: Mapped[str] = mapped_column(String(32), unique=True)  # casefolded: one per name
    display_name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8), default="person")  # person | bot
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    language: Mapped[str] = mapped_column(String(8), default="en")
    locked: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A signed-in browser: the digest of its session id, its CSRF token, and when it was
    made and last used (it ends after an idle time and after a longest time)."""

    __tablename__ = "sessions"

    id_digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingRow(Base):
    """An account's rating in one game (OpenSkill, Plackett-Luce): ``mu`` and ``sigma``."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingChangeRow(Base):
    """What one rated match did to one player's rating: before and after, and the place."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_account", "account_id", "game", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    game: Mapped[str] = mapped_column(String(64))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
