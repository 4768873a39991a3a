"""A match as this process serves it: :class:`LiveMatch` (the authoritative :class:`Match`,
its connections, bots in flight, turn clock, chat and undo points), each WebSocket client
(:class:`Connection`), and what the match shows at one position (:class:`Position`: each
seat's view, legal actions and log lines, made once and shared by every connection).
:class:`~.hub.Hub` changes them; nothing here touches the database."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec

from sengoku.core import Match, action_to_json, message_to_json

from .chat import CHAT_RECENT, ChatLimit
from .patch import diff_parts, parts
from .store import Seat, StoredMatch

__all__ = [
    "CLOSE_LAGGING",
    "CLOSE_MOVED",
    "CLOSE_REFUSED",
    "CLOSE_REVOKED",
    "CLOSE_UNKNOWN",
    "Connection",
    "LiveMatch",
    "Position",
    "SeatError",
    "StaleActionError",
    "UndoDisabledError",
    "UndoPoint",
    "legal_json",
    "moved_error",
]

_encode = msgspec.json.Encoder()


class StaleActionError(Exception):
    """The client acted on an older position than the match's current one."""


class UndoDisabledError(Exception):
    """The host created the match with undo turned off."""


class HintError(Exception):
    """A hint that cannot be given (``code``: why, for the client)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class SeatError(Exception):
    """The acting connection no longer plays its seat (``code``: why, for the client)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


#: WebSocket close codes: refused at hello, unknown match, seat given away, not reading.
CLOSE_REFUSED, CLOSE_UNKNOWN, CLOSE_REVOKED, CLOSE_LAGGING = 4400, 4404, 4401, 4408
#: another server process serves the match (now): connect again, at the name the
#: ``moved`` error gave (docs/deploy.md)
CLOSE_MOVED = 4307


def moved_error(at: str | None) -> dict[str, Any]:
    """The ``moved`` error a client gets before its socket closes with :data:`CLOSE_MOVED`:
    ``at`` names the process that serves the match (``None``: not known yet)."""
    return {
        "type": "error",
        "code": "moved",
        "message": "another server process serves this match; connect again",
        "ref": None,
        "at": at,
    }


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a match: a seat (opened with its token, or by the account it
    belongs to) or a spectator (``None``)."""

    seat: int | None
    send: Callable[[str], Awaitable[None]]
    closer: Callable[[int], Awaitable[None]] | None = None  # closes the socket with a code
    token_digest: str | None = None  # the digest of the token the seat was opened with
    log_pos: int = 0  # the global log index this client has been sent up to
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(1024))
    writer: asyncio.Task[None] | None = None
    revoked: bool = False  # the seat was given a new token: this connection may not act
    undo_hints: bool = False  # the client asked to be told whether its undo would go through
    lagging: bool = False  # its outbox overflowed: the client does not read; it is closed
    shutting: asyncio.Task[None] | None = None
    chat_limit: ChatLimit = field(default_factory=ChatLimit)  # its chat messages' rate
    patches: bool = False  # the client takes updates as differences from the last view
    sent_from: Position | None = None  # the position whose view it was last sent (what its
    # next patch applies to)
    account: int | None = None  # the account the seat was opened by (not its token)

    def holds(self, seat: Seat) -> bool:
        """Whether this connection still plays ``seat``: the seat still belongs to the account
        it was opened by, or still has the token it was opened with."""
        if self.account is not None:
            return seat.account_id == self.account
        return self.token_digest == seat.token_digest

    def start(self) -> None:
        """Start the task that writes queued messages in order."""
        self.writer = asyncio.create_task(self._write())

    def push(self, message: Mapping[str, Any] | str) -> bool:
        """Queue a message (or its JSON text); ``False`` (and the connection should close)
        when it lags too far."""
        if self.shutting is not None:
            return False
        try:
            text = message if isinstance(message, str) else _encode.encode(message).decode()
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.lagging = True
            self.shut(CLOSE_LAGGING)
            return False
        return True

    def shut(self, code: int) -> None:
        """Send what is queued, then close the socket with ``code`` (once)."""
        if self.shutting is None:
            self.shutting = asyncio.create_task(self._shut(code))

    async def _shut(self, code: int) -> None:
        await self.close()
        if self.closer is not None:
            with contextlib.suppress(Exception):
                await self.closer(code)

    async def close(self) -> None:
        """Let the writer finish what is queued, then stop it."""
        if self.writer is not None:
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer, 5)
            self.writer.cancel()

    async def _write(self) -> None:
        while (text := await self.outbox.get()) is not None:
            try:
                await self.send(text)
            except Exception:
                return


@dataclass(eq=False)
class LiveMatch:
    """A match being served: the authoritative :class:`Match` and who is watching it."""

    stored: StoredMatch
    match: Match
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    thinking: set[int] = field(default_factory=set)  # bot seats with a decision in flight
    hinting: set[int] = field(default_factory=set)  # seats whose hint is being worked out
    hints: dict[int, dict[str, Any]] = field(default_factory=dict)  # each seat's latest hint
    waiting_since: dict[int, float] = field(default_factory=dict)  # turn clock per seat
    clock: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    touched: float = field(default_factory=time.monotonic)  # last handed out, or left
    # For ``expect``: each seat's legal actions as last broadcast, and since which action.
    legal_seen: dict[int, list[Any]] = field(default_factory=dict)
    legal_since: dict[int, int] = field(default_factory=dict)
    # The latest chat messages (for the welcome); chat has a lock of its own, not ``lock``.
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_RECENT))
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Undo: how many actions were taken back, and each hinted seat's latest action.
    undos: int = -1
    undo_points: dict[int, UndoPoint] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.undos < 0:
            self.undos = self.stored.undos

    thinking_told: list[int] = field(default_factory=list)  # as last sent to the clients
    _position: Position | None = None

    @property
    def id(self) -> str:
        """The match id."""
        return self.stored.id

    @property
    def number(self) -> int:
        """How many actions have been accepted."""
        return len(self.match.history)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats as stored."""
        return self.stored.seats

    @property
    def abandoned(self) -> bool:
        """Whether the match ended without an outcome: its host gave it up, or nobody moved
        in it for the server's ``abandon_idle_days``."""
        return self.stored.status == "abandoned"

    @property
    def over(self) -> bool:
        """Whether the match takes no more actions: finished, or abandoned."""
        return self.abandoned or self.match.outcome() is not None

    def presence(self) -> dict[str, Any]:
        """Who is connected to this process: each seat, and the number of spectators."""
        seats = {c.seat for c in self.connections if c.seat is not None}
        return {
            "seats": [s.seat in seats for s in self.seats],
            "spectators": sum(c.seat is None for c in self.connections),
        }

    def position(self) -> Position:
        """What the match shows as it stands now, each part worked out once (the views, the
        legal actions, the log lines) and shared by every connection."""
        p = self._position
        if p is None or p.match is not self.match or p.number != self.number:
            if p is not None:
                p.retire()
            p = self._position = Position(self.match, self.number)
        return p

    def message(
        self,
        conn: Connection,
        kind: str,
        reset: bool = False,
        shared: dict[Any, str] | None = None,
    ) -> str:
        """The ``welcome`` or ``update`` message for one connection, as JSON text (it
        advances the connection's log and view; ``reset``: the whole log and view again,
        after an undo). A client that asked for ``patches`` gets, in an update, the view as
        a JSON Patch on the last one it was sent, when that is shorter (docs/protocol.md).

        ``shared`` holds the texts made for the other connections of the same change: the
        connections of one seat in the same state (log and view sent so far, undo hint) get
        the same text, encoded once.
        """
        position = self.position()
        seat = conn.seat
        if reset:
            conn.log_pos = 0
        base = conn.sent_from if conn.patches and kind == "update" and not reset else None
        hint: bool | None = None
        if conn.undo_hints and seat is not None:
            self.refresh_hint(seat)
            hint = self.undo_hint(seat)
        key = (seat, conn.log_pos, hint, id(base), kind, reset)
        text = shared.get(key) if shared is not None else None
        if text is None:
            outcome = self.match.outcome()
            message: dict[str, Any] = {
                "type": kind,
                "match": self.id,
                "seat": seat,
                "number": self.number,
                "view": None,
                "log": position.log(seat, conn.log_pos),
                "log_length": self.match.log_length,
                "legal": [] if self.abandoned else position.legal(seat),
                "seats": [s.public() for s in self.seats],
                "presence": self.presence(),
                "outcome": outcome.to_json() if outcome else None,
                "thinking": sorted(self.thinking),
                "clock": self.clock_info(),
                "undos": self.undos,
            }
            patch = position.patch(seat, base) if base is not None else None
            if patch is not None and len(patch) < position.size(seat):
                del message["view"]
                message["patch"] = msgspec.Raw(patch)
            else:
                message["view"] = position.text(seat)
            if reset:
                message["reset"] = True
            if self.abandoned:
                message["abandoned"] = True
            if hint is not None:
                message["undo"] = hint
            text = _encode.encode(message).decode()
            if shared is not None:
                shared[key] = text
        conn.log_pos = self.match.log_length
        conn.sent_from = position
        return text

    def clock_info(self) -> dict[str, Any] | None:
        """The turn clock (``None`` without one): its ``seconds`` and, per seat, the time
        (ISO 8601, UTC) at which a bot decides for the person if they have not (or ``None``)."""
        limit = self.stored.turn_clock
        if not limit:
            return None
        now_wall, now = time.time(), time.monotonic()
        deadlines: list[str | None] = []
        for seat in range(len(self.seats)):
            since = self.waiting_since.get(seat)
            if since is None or not math.isfinite(since):
                deadlines.append(None)
                continue
            when = datetime.fromtimestamp(now_wall + since + limit - now, UTC)
            deadlines.append(when.isoformat(timespec="milliseconds").replace("+00:00", "Z"))
        return {"seconds": limit, "deadlines": deadlines}

    # -- undo hints ------------------------------------------------------------------------
    # A connection that says ``"undo_hints": true`` in its hello is told in each message
    # whether its seat's latest action can be taken back now. The check of the action
    # itself (chance, secrets shown) is made once, when the seat acts, on the match as it
    # stood just before (kept in ``undo_points``); later moves only get the quick check of
    # whether they built on it. ``Hub.undo`` decides for good.

    def undo_hint(self, seat: int) -> bool:
        """Whether ``seat``'s latest action can be taken back now, as far as checked."""
        point = self.undo_points.get(seat)
        return (
            point is not None
            and point.allowed
            and point.checked_at == self.number
            and self.seats[seat].kind == "human"
        )

    def hinted_seats(self) -> set[int]:
        """The seats with a connection that asked for undo hints."""
        return {c.seat for c in self.connections if c.undo_hints and c.seat is not None}

    def refresh_hints(
        self, seats: set[int], actor: int | None = None, before: Match | None = None
    ) -> None:
        """Bring the hints of ``seats`` up to date (in a worker thread: ``seats`` is taken
        in the event loop); ``before`` is the match just before ``actor``'s action (it
        spares a replay)."""
        for seat in seats:
            self.refresh_hint(seat, actor, before)

    def refresh_hint(
        self, seat: int, actor: int | None = None, before: Match | None = None
    ) -> None:
        """Bring ``seat``'s hint up to date."""
        m = self.match
        number = self.number
        point = self.undo_points.get(seat)
        if point is not None and point.checked_at == number:
            return
        human = self.seats[seat].kind == "human"
        if not self.stored.allow_undo or not human or self.over:
            self.undo_points.pop(seat, None)
            return
        history = m.history
        latest = next((i for i in range(number - 1, -1, -1) if history[i][0] == seat), -1)
        if latest < 0:
            self.undo_points.pop(seat, None)
            return
        if point is None or point.index != latest:
            base = before if seat == actor and latest == number - 1 else None
            base = base if base is not None else m.replayed(latest)
            point = UndoPoint(latest, base, m.undo_refusal(seat, base) is None, number)
        else:
            if point.allowed:
                quick = m.undo_refusal(seat, point.before, reveal_checks=False)
                point.allowed = quick is None
            point.checked_at = number
        self.undo_points[seat] = point


class Position:
    """A match as it stands after ``number`` actions, as its clients are told of it: each
    seat's view (and its JSON), legal actions and log lines, each made once, when first
    asked for."""

    def __init__(self, match: Match, number: int) -> None:
        self.match = match
        self.number = number
        self._views: dict[int | None, Any] = {}
        self._texts: dict[int | None, msgspec.Raw] = {}
        self._parts: dict[int | None, dict[str, bytes]] = {}
        self._patches: dict[tuple[int | None, Position], bytes | None] = {}
        self._memo: dict[tuple[str, bytes, bytes], list[dict[str, Any]]] = {}
        self._shared: dict[int, tuple[Any, bytes]] = {}  # by id: a value and its JSON
        self._actions: dict[int, list[Any]] = {}
        self._legal: dict[int | None, list[dict[str, Any]]] = {}
        self._logs: dict[tuple[int | None, int], list[Any]] = {}

    def retire(self) -> None:
        """A later position took this one's place: it is only what connections were last
        sent (a patch's base), so it lets go of what it made for later use, and of the
        earlier positions its patches were made from (else every position of the match would
        stay in memory, each holding on to the one before)."""
        self._patches.clear()
        self._memo.clear()
        self._shared.clear()
        self._actions.clear()
        self._legal.clear()
        self._logs.clear()

    def prepare(self, seats: Iterable[int | None]) -> None:
        """Make the views of ``seats`` not made yet, together (:meth:`Match.views`: what the
        seats see alike is made once, and encoded once by :meth:`parts`)."""
        missing = [seat for seat in dict.fromkeys(seats) if seat not in self._views]
        if missing:
            self._views.update(zip(missing, self.match.views(missing), strict=True))

    def view(self, seat: int | None) -> Any:
        """The seat's view (``None``: a spectator's); never change it."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.match.view(seat)
        return view

    def text(self, seat: int | None) -> msgspec.Raw:
        """The seat's view as JSON."""
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = msgspec.Raw(_encode.encode(self.view(seat)))
        return text

    def parts(self, seat: int | None) -> dict[str, bytes]:
        """Each value of the seat's view as JSON, by key (:func:`~.patch.parts`); a dict or
        list that another seat's view shares (:meth:`prepare`) is encoded once."""
        found = self._parts.get(seat)
        if found is None:
            found = self._parts[seat] = parts(self.view(seat), self._shared)
        return found

    def size(self, seat: int | None) -> int:
        """The length of the seat's view as JSON (:meth:`text`), without encoding it whole."""
        text = self._texts.get(seat)
        if text is not None:
            return len(text)
        found = self.parts(seat)  # {"key":value,...}: braces, colons and commas
        return 1 + max(1, len(found)) + sum(_key_size(k) + 1 + len(v) for k, v in found.items())

    def patch(self, seat: int | None, base: Position) -> bytes | None:
        """The JSON Patch that turns the seat's view in ``base`` (an earlier position of the
        match, whose view was sent) into this one's, as JSON; ``None`` if ``base`` has none.
        What changed in a value that several seats see alike is worked out once."""
        key = (seat, base)
        if key not in self._patches:
            sent = base._views.get(seat)  # as it was made: base's match may have moved on
            self._patches[key] = (
                None
                if sent is None
                else _encode.encode(
                    diff_parts(
                        sent, base.parts(seat), self.view(seat), self.parts(seat), memo=self._memo
                    )
                )
            )
        return self._patches[key]

    def actions(self, seat: int) -> list[Any]:
        """The seat's legal actions (none when the match does not wait for it)."""
        if seat not in self._actions:
            m = self.match
            self._actions[seat] = m.legal_actions(seat) if seat in m.to_act() else []
        return self._actions[seat]

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal actions as the client gets them: each one's structured form and
        how a person reads it (a message, docs/protocol.md); none for a spectator."""
        if seat not in self._legal:
            acting = [] if seat is None else self.actions(seat)
            self._legal[seat] = [legal_json(self.match, a) for a in acting]
        return self._legal[seat]

    def log(self, seat: int | None, since: int) -> list[Any]:
        """The log lines that ``seat`` may read, from line ``since`` on."""
        key = (seat, since)
        if key not in self._logs:
            self._logs[key] = [message_to_json(e) for e in self.match.log_entries(seat, since)]
        return self._logs[key]


@functools.lru_cache(maxsize=4096)
def _key_size(key: str) -> int:
    """The length of a view's key as JSON (a game's views have few different keys)."""
    return len(_encode.encode(key))


def legal_json(match: Match, action: Any) -> dict[str, Any]:
    """A legal action as a client gets it: its structured form and its message."""
    described = action_to_json(action)
    described["message"] = message_to_json(match.game.action_message(action))
    return described


@dataclass(eq=False)
class UndoPoint:
    """A seat's latest action for its undo hint: its index, the match just before it, and
    whether the undo would go through when last checked (at ``checked_at`` actions)."""

    index: int
    before: Match
    allowed: bool
    checked_at: int
