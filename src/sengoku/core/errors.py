"""The exceptions Sengoku raises.

Every error a caller can cause is a :class:`SengokuError`, and each carries a message a
person can act on. The ones caused by bad input are also :class:`ValueError` (or
:class:`LookupError` for unknown names), so generic handlers keep working.
"""

from __future__ import annotations

from typing import Any


class SengokuError(Exception):
    """Base class of every error Sengoku raises on purpose."""


class UnknownGameError(SengokuError, LookupError):
    """A game name that is not registered."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        listing = ", ".join(known) if known else "none registered"
        super().__init__(f"unknown game {name!r}; available games: {listing}")

    def __str__(self) -> str:  # LookupError would otherwise quote the message
        return str(self.args[0])


class OptionError(SengokuError, ValueError):
    """An unknown option, an option of the wrong type, or an illegal value."""


class SetupError(SengokuError, ValueError):
    """A match cannot be set up as asked (for example an unsupported player count)."""


class IllegalActionError(SengokuError, ValueError):
    """An action that is malformed, not legal now, or sent by a seat that may not act.

    The match is never changed by an action that raises this error.

    Attributes:
        seat: the seat that tried to act.
        action: what it sent (an action object or its text).
        reason: why it was refused, in words a player understands.
    """

    def __init__(self, seat: int | None, action: Any, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(reason)


class RecordError(SengokuError, ValueError):
    """A match record that is malformed or does not replay."""


class UndoRefusedError(SengokuError):
    """A seat asked to take back its latest action, and it must stand.

    The match is never changed by an undo that raises this error (see
    :meth:`~sengoku.core.match.Match.undo`).

    Attributes:
        seat: the seat that asked.
        code: why, as one of the machine codes of :class:`~sengoku.core.match.UndoReason`
            (``"nothing_to_undo"``, ``"game_over"``, ``"chance"``, ``"revealed"``,
            ``"others_acted"``).
        reason: why, in words a player understands.
    """

    def __init__(self, seat: int | None, code: str, reason: str) -> None:
        self.seat = seat
        self.code = code
        self.reason = reason
        super().__init__(reason)
