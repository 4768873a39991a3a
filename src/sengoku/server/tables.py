"""Open tables: matches set up with seats left open, listed in the lobby until their host
starts them.

A table is a stored match with ``status = "open"`` and no actions; an open seat has
``kind = "open"``. People take seats (a signed-in player's seat belongs to their account),
may leave them again, and the host starts the match once every seat is taken, or fills the
rest with bots; then it is a running match like any other. Every change is one guarded
statement (``WHERE status = 'open'``, ``WHERE kind = 'open'``), so two people who click the
same seat at once get one seat and one refusal, across processes too.
"""

from __future__ import annotations

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from .errors import ApiError
from .models import MatchRow, SeatRow, utcnow
from .store import Store

__all__ = ["Tables"]


class Tables:
    """The open tables of a server's database (synchronous; called in worker threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def hosted(self, account_id: int) -> int:
        """How many open tables the account hosts now."""
        with self.store.reading() as session:
            query = select(func.count()).where(
                MatchRow.host_account == account_id, MatchRow.status == "open"
            )
            return int(session.scalar(query) or 0)

    def take(
        self,
        match_id: str,
        seat: int,
        token_digest: str,
        name: str | None,
        account_id: int | None,
    ) -> None:
        """Sit down at an open seat: a person with that token (and account, if signed in).
        Raises ``seat_taken`` (409) if someone was quicker, ``already_seated`` (409) if the
        account sits at the table already, ``not_open`` (409) if the table has started."""
        with self.store.writing() as session:
            self._open(session, match_id)
            if account_id is not None:
                seated = session.scalar(
                    select(func.count()).where(
                        SeatRow.match_id == match_id, SeatRow.account_id == account_id
                    )
                )
                if seated:
                    raise ApiError(409, "already_seated", "you already sit at this table")
            taken = session.execute(
                update(SeatRow)
                .where(SeatRow.match_id == match_id, SeatRow.seat == seat, SeatRow.kind == "open")
                .values(kind="human", name=name, token_digest=token_digest, account_id=account_id)
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                raise ApiError(409, "seat_taken", f"seat {seat} is not open")
            self._touched(session, match_id)

    def leave(self, match_id: str, seat: int) -> None:
        """Open a taken seat again (its person stood up)."""
        with self.store.writing() as session:
            self._open(session, match_id)
            session.execute(
                update(SeatRow)
                .where(SeatRow.match_id == match_id, SeatRow.seat == seat)
                .values(kind="open", bot=None, name=None, token_digest=None, account_id=None)
            )
            self._touched(session, match_id)

    def start(self, match_id: str, fill: str | None) -> None:
        """Start the table: the open seats go to bots of level ``fill``; without ``fill``
        every seat must be taken (``seats_open``, 409)."""
        with self.store.writing() as session:
            self._open(session, match_id)
            if fill is None:
                left = session.scalars(
                    select(SeatRow.seat).where(SeatRow.match_id == match_id, SeatRow.kind == "open")
                ).all()
                if left:
                    seats = ", ".join(str(s + 1) for s in left)
                    raise ApiError(
                        409, "seats_open", f"seats {seats} are open: wait, or fill them with bots"
                    )
            session.execute(
                update(SeatRow)
                .where(SeatRow.match_id == match_id, SeatRow.kind == "open")
                .values(kind="bot", bot=fill)
            )
            started = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.status == "open")
                .values(status="running", updated_at=utcnow())
            )
            if started.rowcount != 1:  # type: ignore[attr-defined]
                raise ApiError(409, "not_open", "this table has started or is gone")
            self.store.notify(session, match_id)

    def cancel(self, match_id: str) -> None:
        """Take a table off the lobby for good (its host changed their mind)."""
        with self.store.writing() as session:
            self._open(session, match_id)
            session.execute(delete(SeatRow).where(SeatRow.match_id == match_id))
            session.execute(delete(MatchRow).where(MatchRow.id == match_id))

    @staticmethod
    def _open(session: Session, match_id: str) -> None:
        status = session.scalar(
            select(MatchRow.status).where(MatchRow.id == match_id).with_for_update()
        )
        if status is None:
            raise ApiError(404, "unknown_match", f"there is no table {match_id[:40]!r}")
        if status != "open":
            raise ApiError(409, "not_open", "this table has started")

    @staticmethod
    def _touched(session: Session, match_id: str) -> None:
        session.execute(update(MatchRow).where(MatchRow.id == match_id).values(updated_at=utcnow()))
