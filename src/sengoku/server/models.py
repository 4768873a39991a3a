"""The server's tables (SQLAlchemy 2). Alembic migrations in ``migrations/`` create them.

A match is its set-up (game, players, options, seed) plus its accepted actions in order:
exactly a Sengoku record, so any match can be rebuilt by replaying it. Seat tokens and the
host token are stored only as SHA-256 digests.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
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
    status: Mapped[str] = mapped_column(String(16), index=True)  # running | finished
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


class SeatRow(Base):
    """One seat of a match: a person (with a token) or a bot (with a level)."""

    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_digest: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)


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
