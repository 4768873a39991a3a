"""Ratings: each account's skill per game, moved by every rated match it finishes.

A match is rated when its host asked for it, every seat is an account or a bot of a fixed
level, and undo is off (``routers/matches.py`` checks this when the match is made; a seat
that changes hands later makes it unrated). When it ends, :meth:`Ratings.apply` rates it
once (guarded by ``matches.rating_applied``, so two processes or a restart never rate it
twice), with OpenSkill's Plackett-Luce model and the outcome's places, exactly as
``openskill.models.PlackettLuce().rate(teams, ranks=...)`` computes it, each seat a team of
one. A bot level is rated too, as the account ``bot:<level>``; when one level plays several
seats of a match, its first seat's result moves its rating (the others play with the same
rating but do not move it). Each player's ``rating_changes`` row keeps before and after.

The leaderboard orders by the ordinal ``mu - 3 sigma``: a skill the player very likely has
at least, so that a newcomer with one lucky win does not top it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from .chat import iso_time
from .models import AccountRow, MatchRow, RatingChangeRow, RatingRow, SeatRow, utcnow
from .store import Store

__all__ = ["MODEL", "Rating", "Ratings", "ordinal"]

log = logging.getLogger("sengoku.server")
#: The model every rating is computed with (openskill's defaults: mu 25, sigma 25/3).
MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The leaderboard's order: ``mu - 3 sigma``.

    >>> round(ordinal(25.0, 25 / 3), 9)
    0.0
    """
    return mu - 3 * sigma


@dataclass(frozen=True)
class Rating:
    """An account's rating in one game."""

    game: str
    mu: float
    sigma: float
    games: int

    def to_json(self) -> dict[str, Any]:
        """The rating as the API gives it."""
        return {
            "game": self.game,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": ordinal(self.mu, self.sigma),
            "games": self.games,
        }


class Ratings:
    """The ratings of a server's database (synchronous; called in worker threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def apply(self, match_id: str) -> bool:
        """Rate a finished rated match, once; ``False`` if it is not rated, not finished, or
        was rated already. Two processes that rate two matches of one new player at once
        may both make its first rating row: the later one starts again."""
        for attempt in range(3):
            try:
                return self._apply(match_id)
            except IntegrityError:
                if attempt == 2:
                    raise
        return False

    def _apply(self, match_id: str) -> bool:
        with self.store.writing() as session:
            claimed = session.execute(
                update(MatchRow)
                .where(
                    MatchRow.id == match_id,
                    MatchRow.status == "finished",
                    MatchRow.rated.is_(True),
                    MatchRow.rating_applied.is_(False),
                )
                .values(rating_applied=True)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False
            match = session.get(MatchRow, match_id)
            assert match is not None and match.outcome is not None
            ranks = list(json.loads(match.outcome)["ranks"])
            seats = session.scalars(
                select(SeatRow).where(SeatRow.match_id == match_id).order_by(SeatRow.seat)
            ).all()
            subjects: list[int] = []
            for seat in seats:
                if seat.kind == "bot" and seat.bot:
                    subjects.append(_bot_account(session, seat.bot))
                elif seat.account_id is not None:
                    subjects.append(seat.account_id)
                else:  # a seat without an account: this match cannot be rated
                    log.warning("match %s is rated but seat %d has no account", match_id, seat.seat)
                    return True
            held = {
                row.account_id: row
                for row in session.scalars(
                    select(RatingRow)
                    .where(RatingRow.game == match.game, RatingRow.account_id.in_(subjects))
                    .with_for_update()
                )
            }
            before = [
                MODEL.rating(held[a].mu, held[a].sigma) if a in held else MODEL.rating()
                for a in subjects
            ]
            after = MODEL.rate([[r] for r in before], ranks=ranks)
            now = utcnow()
            moved: set[int] = set()
            for seat, account, old, [new] in zip(seats, subjects, before, after, strict=True):
                session.add(
                    RatingChangeRow(
                        account_id=account,
                        game=match.game,
                        match_id=match_id,
                        seat=seat.seat,
                        rank=ranks[seat.seat],
                        mu_before=float(old.mu),
                        sigma_before=float(old.sigma),
                        mu=float(new.mu),
                        sigma=float(new.sigma),
                        created_at=now,
                    )
                )
                if account in moved:
                    continue
                moved.add(account)
                row = held.get(account)
                if row is None:
                    row = held[account] = RatingRow(account_id=account, game=match.game, games=0)
                    session.add(row)
                row.mu, row.sigma = float(new.mu), float(new.sigma)
                row.games += 1
                row.updated_at = now
        return True

    def apply_pending(self) -> int:
        """Rate every finished rated match not rated yet (one that ended just before a crash
        or a restart); returns how many."""
        with self.store.reading() as session:
            pending = session.scalars(
                select(MatchRow.id).where(
                    MatchRow.status == "finished",
                    MatchRow.rated.is_(True),
                    MatchRow.rating_applied.is_(False),
                )
            ).all()
        return sum(self.apply(match_id) for match_id in pending)

    def of(self, account_id: int) -> list[Rating]:
        """The account's rating in each game it has played rated."""
        with self.store.reading() as session:
            rows = session.scalars(
                select(RatingRow).where(RatingRow.account_id == account_id).order_by(RatingRow.game)
            )
            return [Rating(r.game, r.mu, r.sigma, r.games) for r in rows]

    def history(self, account_id: int, limit: int = 200) -> dict[str, list[dict[str, Any]]]:
        """Per game, the account's rating after each of its latest ``limit`` rated matches,
        oldest first."""
        with self.store.reading() as session:
            rows = session.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.account_id == account_id)
                .order_by(RatingChangeRow.id.desc())
                .limit(limit)
            ).all()
        out: dict[str, list[dict[str, Any]]] = {}
        for row in reversed(rows):
            out.setdefault(row.game, []).append(
                {
                    "match": row.match_id,
                    "seat": row.seat,
                    "rank": row.rank,
                    "mu_before": row.mu_before,
                    "sigma_before": row.sigma_before,
                    "mu": row.mu,
                    "sigma": row.sigma,
                    "at": iso_time(row.created_at),
                }
            )
        return out

    def changes(self, match_id: str) -> list[dict[str, Any]]:
        """What a rated match did to each seat's rating (empty before it was rated)."""
        with self.store.reading() as session:
            rows = session.execute(
                select(RatingChangeRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == RatingChangeRow.account_id)
                .where(RatingChangeRow.match_id == match_id)
                .order_by(RatingChangeRow.seat)
            ).all()
        return [
            {
                "seat": row.seat,
                "player": name,
                "rank": row.rank,
                "mu_before": row.mu_before,
                "sigma_before": row.sigma_before,
                "mu": row.mu,
                "sigma": row.sigma,
            }
            for row, name in rows
        ]

    def leaderboard(self, game: str, limit: int = 100) -> list[dict[str, Any]]:
        """The game's rated players, best ordinal first."""
        with self.store.reading() as session:
            rows = session.execute(
                select(RatingRow, AccountRow)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, AccountRow.locked.is_(False))
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), AccountRow.id)
                .limit(limit)
            ).all()
        return [
            {
                "place": place,
                "name": account.name,
                "display_name": account.display_name,
                "kind": account.kind,
                **Rating(game, rating.mu, rating.sigma, rating.games).to_json(),
            }
            for place, (rating, account) in enumerate(rows, start=1)
        ]


def _bot_account(session: Any, level: str) -> int:
    """The account a bot level is rated as (``bot:<level>``), made when first needed."""
    name = f"bot:{level}"
    found = session.scalar(select(AccountRow.id).where(AccountRow.name_key == name))
    if found is not None:
        return int(found)
    row = AccountRow(
        name=name,
        name_key=name,
        display_name=name,
        kind="bot",
        password_hash=None,
        language="en",
        locked=False,
        created_at=utcnow(),
    )
    session.add(row)
    session.flush()
    return int(row.id)
