"""Live matches: the in-memory authority of each match, its connections, bots and clock.

One :class:`LiveMatch` per match this process serves. Every change to a match happens under
its ``asyncio.Lock``, one action at a time in arrival order, and follows the same path:

1. resolve the action against the match as it stands (notation or structured form);
2. try it on a clone (an illegal action changes nothing);
3. commit it to the database (:meth:`Store.append_all`, with the actions of other matches
   that arrive meanwhile: :class:`GroupCommit`); if another process committed first, catch
   up from the database and start again;
4. only then replace the match, tell every connection (each its own view and new log
   lines), start bots for the seats that are theirs to play, and restart the turn clock.

An undo (:meth:`Hub.undo`) takes the same path: the engine takes the action back on a clone
(``Match.undo``, which may refuse), the database loses it (:meth:`Store.take_back`), and
only then is everyone told, with the whole log again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool

from sengoku.core import (
    IllegalActionError,
    Match,
    UndoRefusedError,
    action_to_json,
    message_to_json,
)
from sengoku.core.match import RECORD_FORMAT, RECORD_VERSION

from .bots import bot_seed, decide
from .chat import CHAT_RECENT, SPECTATOR_NAME, ChatError, ChatLimit, chat_message, check_text
from .commit import GroupCommit
from .models import utcnow
from .patch import diff_parts, parts
from .store import Append, Seat, Store, StoredMatch, digest

__all__ = ["Connection", "Hub", "LiveMatch", "StaleActionError", "UndoDisabledError"]

log = logging.getLogger("sengoku.server")
_encode = msgspec.json.Encoder()


class StaleActionError(Exception):
    """The client acted on an older position than the match's current one."""


class UndoDisabledError(Exception):
    """The host created the match with undo turned off."""


class SeatError(Exception):
    """The acting connection no longer plays its seat (``code``: why, for the client)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


#: WebSocket close codes: refused at hello, unknown match, seat given away, not reading.
CLOSE_REFUSED, CLOSE_UNKNOWN, CLOSE_REVOKED, CLOSE_LAGGING = 4400, 4404, 4401, 4408


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a match: a seat (with its token) or a spectator (``None``)."""

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
                "legal": position.legal(seat),
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
        if not self.stored.allow_undo or not human or m.outcome() is not None:
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
            self._legal[seat] = [_legal_json(self.match, a) for a in acting]
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


def _legal_json(match: Match, action: Any) -> dict[str, Any]:
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


class Hub:
    """Every live match of this server process."""

    def __init__(
        self,
        store: Store,
        new_pool: Callable[[], Executor],
        clock_level: str = "easy",
        idle_seconds: float = 600.0,
        finished_cache: int = 256,
    ) -> None:
        """``idle_seconds``: how long a running match nothing happens in stays in memory
        (0: for as long as the process runs); ``finished_cache``: how many finished matches
        nobody watches are kept, the most recently asked for."""
        self.store = store
        self.new_pool = new_pool
        self.pool = new_pool()
        self.commits = GroupCommit(store.append_all)
        self.clock_level = clock_level
        self.idle_seconds = idle_seconds
        self.finished_cache = finished_cache
        self.live: dict[str, LiveMatch] = {}  # served: running, or finished and watched
        self.finished: OrderedDict[str, LiveMatch] = OrderedDict()  # not served, oldest first
        self._loads: dict[str, asyncio.Task[LiveMatch | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.closing = False

    # -- loading -------------------------------------------------------------------------

    async def get(self, match_id: str) -> LiveMatch | None:
        """The match, loaded from the database by replaying its actions if it is not in
        memory. Every request for a match that is loading waits for that one load (and gets
        its error); other matches load meanwhile. A finished match comes from the cache of
        finished matches, and joins it once loaded; it is served again when a client
        connects (:meth:`connect`)."""
        live = self.live.get(match_id)
        if live is None and (live := self.finished.get(match_id)) is not None:
            self.finished.move_to_end(match_id)
        if live is None:
            loading = self._loads.get(match_id)
            if loading is None:
                loading = self._loads[match_id] = asyncio.create_task(self._load(match_id))
            live = await asyncio.shield(loading)
            if live is None:
                return None
        live.touched = time.monotonic()
        return live

    async def _load(self, match_id: str) -> LiveMatch | None:
        """Replay a match from the database (``None``: there is none) and serve it, or keep
        it with the finished ones; the caller registered this task in ``_loads``."""
        try:
            stored = await run_in_threadpool(self.store.get, match_id)
            if stored is None:
                return None
            actions = await run_in_threadpool(self.store.actions, match_id)
            match = await run_in_threadpool(_replay, stored, actions)
            chat = await run_in_threadpool(self._stored_chat, match_id)
            live = LiveMatch(stored, match, chat=chat)
            if match.outcome() is not None:
                self._keep(live)
                return live
            self._go_live(live)
            if self.store.is_postgres:  # a notification may have come while it loaded
                async with live.lock:
                    await self._catch_up(live)
            return live
        finally:
            del self._loads[match_id]

    async def load_running(self) -> int:
        """Load every unfinished match (on start) and let its bots and clock go on; those
        that only wait for a person without a turn clock leave memory again at once (the
        next request loads them). Returns how many stay."""
        ids = await run_in_threadpool(self.store.running_ids)
        for match_id in ids:
            try:
                live = await self.get(match_id)
            except Exception:
                log.exception("match %s could not be reloaded", match_id)
                continue
            if live is not None and self._idle(live):
                self._evict(live)
        return len(self.live)

    async def create(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None,
        seed: int | None,
        seats: list[Seat],
        turn_clock: float | None,
        host_digest: str,
        spectator_chat: bool = False,
        allow_undo: bool = True,
    ) -> LiveMatch:
        """Set up and store a new match (bad set-ups raise ``SetupError``/``OptionError``)."""
        match = Match.new(game, players, seed, options)
        match_id = secrets.token_urlsafe(9)
        assert match.seed is not None
        options_json = match.to_record()["options"]
        await run_in_threadpool(
            self.store.create,
            match_id,
            match.game.name,
            players,
            options_json,
            match.seed,
            host_digest,
            seats,
            turn_clock,
            spectator_chat,
            allow_undo,
        )
        stored = await run_in_threadpool(self.store.get, match_id)
        assert stored is not None
        return self._go_live(LiveMatch(stored, match))

    def _go_live(self, live: LiveMatch) -> LiveMatch:
        """Serve a match: tell its clients, start its bots and its turn clock."""
        self.live[live.id] = live
        self._after_change(live, None)
        live.tasks.add(asyncio.create_task(self._clock_loop(live)))
        if self._sweeper is None and self.idle_seconds > 0:
            self._sweeper = asyncio.create_task(self._sweep())
        return live

    # -- acting ----------------------------------------------------------------------------

    async def submit(
        self,
        live: LiveMatch,
        seat: int,
        action: Any,
        by_bot: bool = False,
        expect: int | None = None,
        conn: Connection | None = None,
        clock: bool = False,
    ) -> str:
        """Carry out ``action`` (notation, structured dict or action) for ``seat``.

        ``conn`` is the person's connection, ``by_bot`` a bot's move (``clock``: for a person
        whose turn clock ran out). Whether the actor still plays the seat is checked under
        the lock, so a move in flight when a seat changed hands is refused.

        Returns the accepted action's notation. Raises :class:`IllegalActionError`,
        :class:`StaleActionError` or :class:`SeatError`, changing nothing.
        """
        async with live.lock:
            _check_actor(live, seat, by_bot, conn, clock)
            # With several processes this one may be behind the database: before refusing
            # an action as illegal or stale, it catches up once.
            behind_checked = not self.store.is_postgres
            for _attempt in range(20):
                try:
                    if expect is not None and not (
                        live.legal_since.get(seat, 0) <= expect <= live.number
                    ):
                        raise StaleActionError(
                            f"your choices changed at action {live.legal_since.get(seat, 0)}; "
                            f"you chose at {expect}"
                        )
                    chosen = _resolve(live.match, seat, action)
                    trial = live.match.clone()
                    trial.act(seat, chosen)
                except (IllegalActionError, StaleActionError):
                    if behind_checked:
                        raise
                    behind_checked = True
                    await self._catch_up(live)
                    continue
                notation = str(trial.history[-1][1])
                outcome = trial.outcome()
                stored = await self.commits.append(
                    Append(
                        live.id,
                        live.number,
                        seat,
                        notation,
                        by_bot,
                        outcome.to_json() if outcome else None,
                        live.undos,
                    )
                )
                if stored:
                    before, live.match = live.match, trial
                    if outcome is not None:
                        live.stored = await run_in_threadpool(self._refresh, live.id)
                    elif hinted := live.hinted_seats():
                        await run_in_threadpool(live.refresh_hints, hinted, seat, before)
                    self._after_change(live, seat)
                    return notation
                await self._catch_up(live)  # another process stored an action first
            raise StaleActionError("the match is too busy; try again")

    async def undo(self, live: LiveMatch, seat: int, conn: Connection | None = None) -> str:
        """Take back ``seat``'s latest action (``Match.undo``); returns its notation.

        The stored actions lose it in one transaction (:meth:`Store.take_back`) before
        anyone is told; then every connection gets the whole position again (an update
        with ``reset``), bots whose turn it is act and the turn clock restarts. Raises
        :class:`UndoDisabledError`, :class:`UndoRefusedError` (with the engine's reason) or
        :class:`SeatError`, changing nothing.
        """
        async with live.lock:
            _check_actor(live, seat, False, conn, False)
            if not live.stored.allow_undo:
                raise UndoDisabledError("the host turned undo off for this match")
            behind_checked = not self.store.is_postgres
            for _attempt in range(20):
                trial = live.match.clone()
                point = live.undo_points.get(seat)
                try:
                    index, action = await run_in_threadpool(
                        trial.undo, seat, point.before if point else None
                    )
                except UndoRefusedError:
                    if behind_checked:
                        raise
                    behind_checked = True
                    await self._catch_up(live)
                    continue
                stored = await run_in_threadpool(
                    self.store.take_back, live.id, live.number, index, live.undos
                )
                if stored:
                    live.match = trial
                    live.undos += 1
                    self._history_rewritten(live, index)
                    if hinted := live.hinted_seats():
                        await run_in_threadpool(live.refresh_hints, hinted)
                    self._after_change(live, seat, reset=True)
                    return str(action)
                await self._catch_up(live)  # another process changed the match first
            raise StaleActionError("the match is too busy; try again")

    @staticmethod
    def _history_rewritten(live: LiveMatch, index: int = 0) -> None:
        """Forget what was worked out from the history that an undo of action ``index``
        changed: the undo points (their indices moved), and the choices seen for
        ``expect`` after it (the positions up to ``index`` are the same in both histories,
        so a choice made there still counts if the seat's choices are the same now)."""
        live.undo_points.clear()
        for seat in list(live.legal_since):
            if live.legal_since[seat] > index:
                del live.legal_since[seat]
                live.legal_seen.pop(seat, None)

    async def _reload(self, live: LiveMatch) -> None:
        """Another process took an action back: replay the match from the database."""
        stored = await run_in_threadpool(self._refresh, live.id)
        actions = await run_in_threadpool(self.store.actions, live.id)
        live.match = await run_in_threadpool(_replay, stored, actions)
        live.stored, live.undos = stored, stored.undos
        self._history_rewritten(live)  # where the history changed is not known here
        self._after_change(live, None, reset=True)

    async def hand_over(
        self, live: LiveMatch, seat: int, kind: str, bot: str | None, new_token: bool
    ) -> str | None:
        """Give a seat to a bot, or back to a person.

        Back to a person, the seat's old token opens it again, unless ``new_token`` (or the
        seat never had one): then a new token is returned and the old one stops working.
        """
        token = None
        if kind == "human" and (new_token or live.seats[seat].token_digest is None):
            token = secrets.token_urlsafe(24)
        async with live.lock:
            await run_in_threadpool(
                self.store.set_seat,
                live.id,
                seat,
                kind,
                bot,
                None if token is None else digest(token),
            )
            self._seats_changed(live, await run_in_threadpool(self._refresh, live.id))
        return token

    async def on_notify(self, match_id: str) -> None:
        """Another process changed the match: catch up and tell our connections."""
        live = self.live.get(match_id) or self.finished.get(match_id)
        if live is None:
            return
        live.touched = time.monotonic()
        async with live.lock:
            stored = await run_in_threadpool(self._refresh, live.id)
            rematch = stored.rematch != live.stored.rematch
            if stored.seats != live.stored.seats:
                self._seats_changed(live, stored)
            live.stored = stored
            if rematch:
                self._tell_rematch(live)
            await self._catch_up(live)

    def _seats_changed(self, live: LiveMatch, stored: StoredMatch) -> None:
        """New seats: connections whose token no longer opens their seat are revoked and
        closed; everyone gets an update."""
        live.stored = stored
        for conn in list(live.connections):
            if conn.seat is not None and conn.token_digest != stored.seats[conn.seat].token_digest:
                conn.revoked = True
                conn.push(
                    {
                        "type": "error",
                        "code": "seat_reassigned",
                        "message": "this seat was given to someone else",
                        "ref": None,
                    }
                )
                live.connections.discard(conn)
                conn.shut(CLOSE_REVOKED)
        self._after_change(live, None)

    # -- connections ------------------------------------------------------------------------

    def connect(
        self, live: LiveMatch, conn: Connection, log_since: int, undos: int | None = None
    ) -> None:
        """Register a connection and send it the welcome (view, log from ``log_since``;
        the whole log, with ``reset``, if the client saw another count of ``undos``)."""
        if live.id not in self.live:  # a finished match from the cache is served again
            self.finished.pop(live.id, None)
            self.live[live.id] = live
        conn.log_pos = max(0, min(log_since, live.match.log_length))
        reset = undos is not None and undos != live.undos
        conn.start()
        live.connections.add(conn)
        welcome = live.message(conn, "welcome", reset=reset)
        chat = _encode.encode(list(live.chat)).decode()
        conn.push(f'{welcome[:-1]},"chat":{chat}}}')  # the welcome's object, with the chat
        if live.stored.rematch is not None:
            conn.push({"type": "rematch", "match": live.stored.rematch})
        self._presence(live)

    async def disconnect(self, live: LiveMatch, conn: Connection) -> None:
        """Forget a connection (and tell the others who is still here). A finished match
        nobody watches is no longer served (it joins the cache of finished matches); a
        running one leaves memory once idle (:meth:`evict_idle`)."""
        live.connections.discard(conn)
        live.touched = time.monotonic()
        await conn.close()
        self._presence(live)
        if not live.connections and live.match.outcome() is not None:
            self._evict(live)

    def _evict(self, live: LiveMatch) -> None:
        """Stop serving a match: it leaves ``live`` and its tasks are cancelled; a finished
        one joins the cache of finished matches. The database has everything."""
        if self.live.get(live.id) is live:
            del self.live[live.id]
        for task in list(live.tasks):
            if task is not asyncio.current_task():
                task.cancel()
        if live.match.outcome() is not None:
            self._keep(live)

    def _keep(self, live: LiveMatch) -> None:
        """Cache a finished match nobody is served, forgetting the least recently asked for
        beyond ``finished_cache``."""
        self.finished[live.id] = live
        self.finished.move_to_end(live.id)
        while len(self.finished) > self.finished_cache:
            self.finished.popitem(last=False)

    def _idle(self, live: LiveMatch) -> bool:
        """Whether nothing goes on in a match: no connection, no bot deciding or due to, no
        turn clock running, nobody holding its lock."""
        return not (
            live.connections
            or live.thinking
            or live.lock.locked()
            or (live.stored.turn_clock and live.waiting_since)
            or any(live.seats[seat].kind == "bot" for seat in live.match.to_act())
        )

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Let go of the matches idle (:meth:`_idle`) for ``idle_seconds``, as seen at
        ``now`` (monotonic; default: now); returns their ids. The next :meth:`get` replays
        such a match from the database, as after a restart. Runs in the event loop without
        awaiting, so nothing can take a match's lock or hand it out meanwhile."""
        now = time.monotonic() if now is None else now
        gone = []
        for live in list(self.live.values()):
            if not self._idle(live):
                live.touched = now
            elif now - live.touched >= self.idle_seconds:
                self._evict(live)
                gone.append(live.id)
        return gone

    async def _sweep(self) -> None:
        """Every so often, let go of the idle matches."""
        while not self.closing:
            await asyncio.sleep(min(self.idle_seconds / 2, 30))
            try:
                if gone := self.evict_idle():
                    log.debug("%d idle matches left memory", len(gone))
            except Exception:
                log.exception("letting go of idle matches failed")

    def _presence(self, live: LiveMatch) -> None:
        message = {"type": "presence", "match": live.id, "presence": live.presence()}
        for conn in list(live.connections):
            if not conn.push(message):
                live.connections.discard(conn)

    # -- chat and rematch --------------------------------------------------------------------

    async def chat(self, live: LiveMatch, conn: Connection, text: Any, ref: Any = None) -> None:
        """Store a chat message from ``conn`` and send it to every client of the match (the
        sender's copy carries its ``ref``). Raises :class:`ChatError`, sending nothing.

        Chat does not take the match's lock: a message never waits for a move."""
        seat = conn.seat
        if seat is None and not live.stored.spectator_chat:
            raise ChatError("chat_forbidden", "in this match only the players may write")
        body = check_text(text)
        conn.chat_limit.check()
        conn.chat_limit.spend()
        if seat is None:
            name = SPECTATOR_NAME
        else:
            name = live.seats[seat].name or live.match.game.seat_name(seat)
        at = utcnow()
        message = chat_message(seat, name, body, at)
        async with live.chat_lock:  # stored in the order it is sent
            await run_in_threadpool(self.store.add_chat, live.id, seat, name, body, at, message)
            self._tell_chat(live, message, conn, ref)

    def on_chat_notify(self, match_id: str, message: dict[str, Any]) -> None:
        """Another process stored a chat message: tell our clients of the match."""
        live = self.live.get(match_id) or self.finished.get(match_id)
        if live is not None:
            self._tell_chat(live, message)

    def _tell_chat(
        self,
        live: LiveMatch,
        message: dict[str, Any],
        sender: Connection | None = None,
        ref: Any = None,
    ) -> None:
        live.chat.append(message)
        for conn in list(live.connections):
            mine = conn is sender and ref is not None
            if not conn.push({**message, "ref": ref} if mine else message):
                live.connections.discard(conn)

    def _stored_chat(self, match_id: str) -> deque[dict[str, Any]]:
        recent = self.store.chat(match_id, CHAT_RECENT)
        return deque((chat_message(*row) for row in recent), maxlen=CHAT_RECENT)

    async def rematch(self, live: LiveMatch) -> tuple[LiveMatch, bool]:
        """The rematch of a finished match, made now if it has none: the same game, options,
        seats (kinds, bot levels, names), turn clock and chat setting; a fresh seed. Its
        seats and host have no keys until they claim them (:meth:`claim`).

        Returns it and whether this call made it. Every client of the old match is told.
        """
        if live.stored.rematch is not None:
            found = await self.get(live.stored.rematch)
            assert found is not None
            return found, False
        stored = live.stored
        match = Match.new(stored.game, stored.players, None, stored.options)
        assert match.seed is not None
        match_id = secrets.token_urlsafe(9)
        seats = [Seat(s.seat, s.kind, s.bot, s.name, None) for s in stored.seats]
        made = await run_in_threadpool(
            self.store.create_rematch,
            live.id,
            match_id,
            stored.players,
            match.to_record()["options"],
            match.seed,
            "",
            seats,
        )
        if made == match_id:
            new = self._go_live(LiveMatch(await run_in_threadpool(self._refresh, made), match))
        else:  # another request made it first
            found = await self.get(made)
            assert found is not None
            new = found
        async with live.lock:
            told = live.stored.rematch is not None
            live.stored = await run_in_threadpool(self._refresh, live.id)
            if not told:
                self._tell_rematch(live)
        return new, made == match_id

    async def claim(self, live: LiveMatch, seat: int | None, token_digest: str) -> bool:
        """Give a rematch's seat (``None``: its host) the key with ``token_digest``, unless
        the seat already has another (``False``)."""
        held = live.stored.host_digest if seat is None else live.seats[seat].token_digest
        if held == token_digest:
            return True
        async with live.lock:
            claimed = await run_in_threadpool(self.store.claim, live.id, seat, token_digest)
            live.stored = await run_in_threadpool(self._refresh, live.id)
        return claimed

    def _tell_rematch(self, live: LiveMatch) -> None:
        message = {"type": "rematch", "match": live.stored.rematch}
        for conn in list(live.connections):
            if not conn.push(message):
                live.connections.discard(conn)

    # -- internals -----------------------------------------------------------------------------

    def _refresh(self, match_id: str) -> StoredMatch:
        stored = self.store.get(match_id)
        assert stored is not None
        return stored

    async def _catch_up(self, live: LiveMatch) -> None:
        length, undos = await run_in_threadpool(self.store.progress, live.id)
        if undos != live.undos or length < live.number:
            await self._reload(live)
            return
        actions = await run_in_threadpool(self.store.actions, live.id, live.number)
        if not actions:
            return
        for seat, notation in actions:
            live.match.act(seat, notation)
        if live.match.outcome() is not None:
            live.stored = await run_in_threadpool(self._refresh, live.id)
        self._after_change(live, None)

    def _after_change(self, live: LiveMatch, actor: int | None, reset: bool = False) -> None:
        to_act = set(live.match.to_act())
        position = live.position()
        for seat in range(live.match.players):
            legal = position.actions(seat)
            if legal != live.legal_seen.get(seat):
                live.legal_seen[seat] = legal
                live.legal_since[seat] = live.number
        _restart_clocks(live, actor, to_act)  # before the updates, which carry the deadlines
        position.prepare(c.seat for c in live.connections)
        shared: dict[Any, str] = {}
        for conn in list(live.connections):
            if not conn.push(live.message(conn, "update", reset=reset, shared=shared)):
                live.connections.discard(conn)
        if live.match.outcome() is not None and not live.connections:
            self._evict(live)
            return
        self._start_bots(live)

    def _start_bots(
        self, live: LiveMatch, seats: set[int] | None = None, level: str | None = None
    ) -> None:
        try:
            self._start_bot_tasks(live, seats, level)
        finally:
            self._tell_thinking(live)

    def _tell_thinking(self, live: LiveMatch) -> None:
        """Tell the clients which seats a bot is deciding for now, when that changed."""
        seats = sorted(live.thinking)
        if seats == live.thinking_told:
            return
        live.thinking_told = seats
        message = {"type": "thinking", "match": live.id, "seats": seats}
        for conn in list(live.connections):
            if not conn.push(message):
                live.connections.discard(conn)

    def _start_bot_tasks(self, live: LiveMatch, seats: set[int] | None, level: str | None) -> None:
        if self.closing or live.match.outcome() is not None or self.live.get(live.id) is not live:
            return
        for seat in live.match.to_act():
            info = live.seats[seat]
            chosen_level = level if seats is not None and seat in seats else info.bot
            if seat in live.thinking or chosen_level is None:
                continue
            if info.kind != "bot" and (seats is None or seat not in seats):
                continue
            live.thinking.add(seat)
            number = live.number
            view = live.match.view(seat)  # its own: a bot thread must not share the clients'
            legal = list(live.position().actions(seat))
            seed = bot_seed(live.stored.seed, seat, number)
            clock = info.kind != "bot"
            task = asyncio.create_task(
                self._bot_move(
                    live, seat, chosen_level, seed, view, legal, number if clock else None
                )
            )
            live.tasks.add(task)
            task.add_done_callback(live.tasks.discard)

    async def _bot_move(
        self,
        live: LiveMatch,
        seat: int,
        level: str,
        seed: int,
        view: dict[str, Any],
        legal: list[Any],
        expect: int | None,
    ) -> None:
        # A bot seat's move stays good while it is legal (in a secret simultaneous choice the
        # others' moves do not change what it knows); a turn-clock move for a person is only
        # made if the person's choices stayed the same, else the clock runs out again at once.
        clock = expect is not None
        undos = live.undos
        try:
            notation = await self._think(live, seat, level, seed, view, legal)
            if notation is None:
                return
            for attempt in range(5):
                try:
                    await self.submit(live, seat, notation, by_bot=True, expect=expect, clock=clock)
                except (IllegalActionError, StaleActionError, SeatError):
                    # The position moved on or the seat changed hands: a bot is asked again
                    # below; a person's overdue turn is due again at once.
                    if clock and seat in live.waiting_since and live.undos == undos:
                        live.waiting_since[seat] = float("-inf")
                        live.clock.set()
                    break
                except Exception:  # the database failed: try again a little later
                    if self.closing:
                        return
                    log.exception("storing a bot move of match %s failed", live.id)
                    await asyncio.sleep(0.5 * 2**attempt)
                else:
                    break
        finally:
            live.thinking.discard(seat)
        self._start_bots(live)

    async def _think(
        self,
        live: LiveMatch,
        seat: int,
        level: str,
        seed: int,
        view: dict[str, Any],
        legal: list[Any],
    ) -> str | None:
        """The bot's choice from a worker (``None`` when the server is closing)."""
        loop = asyncio.get_running_loop()
        for _attempt in range(2):
            pool = self.pool
            try:
                return await loop.run_in_executor(pool, decide, level, seed, view, legal)
            except BrokenExecutor:
                if self.closing:
                    return None
                if self.pool is pool:  # the first to notice replaces the pool
                    log.warning("a bot worker died; starting new workers")
                    pool.shutdown(wait=False, cancel_futures=True)
                    self.pool = self.new_pool()
            except Exception:
                if self.closing:
                    return None
                log.exception("bot %s for seat %d of %s failed", level, seat, live.id)
                break
        return str(legal[seed % len(legal)])  # a legal move rather than a stalled match

    async def _clock_loop(self, live: LiveMatch) -> None:
        """Hand an overdue human decision to a bot (the turn clock); one move at a time."""
        limit = live.stored.turn_clock
        if not limit:
            return
        while live.match.outcome() is None and not self.closing:
            try:
                await self._clock_tick(live, limit)
            except Exception:
                log.exception("the turn clock of match %s failed", live.id)
                await asyncio.sleep(1)

    async def _clock_tick(self, live: LiveMatch, limit: float) -> None:
        """Start a bot for each overdue person, or wait until the next is due or a change."""
        live.clock.clear()
        now = time.monotonic()
        due = {s: t + limit for s, t in live.waiting_since.items()}
        expired = {s for s, t in due.items() if t <= now}
        if expired:
            for seat in expired:
                live.waiting_since[seat] = now
            self._start_bots(live, seats=expired, level=self.clock_level)
            return
        timeout = min(due.values()) - now if due else None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(live.clock.wait(), timeout)

    async def close(self) -> None:
        """Stop every bot, clock and connection of this process, and the bots' workers."""
        self.closing = True
        self.pool.shutdown(wait=False, cancel_futures=True)
        lives = list(self.live.values())
        tasks = [t for live in lives for t in live.tasks]
        tasks += [*self._loads.values(), *([self._sweeper] if self._sweeper else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for live in lives:
            for conn in list(live.connections):
                await conn.close()


def _restart_clocks(live: LiveMatch, actor: int | None, to_act: set[int]) -> None:
    """The turn clock: each person the match waits for is waited for since they were first
    asked (or since their last move); seats no longer asked leave it."""
    now = time.monotonic()
    for seat in list(live.waiting_since):
        if seat not in to_act:
            del live.waiting_since[seat]
    for seat in to_act:
        if live.seats[seat].kind == "human" and (seat == actor or seat not in live.waiting_since):
            live.waiting_since[seat] = now
    live.clock.set()


def _check_actor(
    live: LiveMatch, seat: int, by_bot: bool, conn: Connection | None, clock: bool
) -> None:
    info = live.seats[seat]
    if conn is not None and (conn.revoked or conn.token_digest != info.token_digest):
        raise SeatError("seat_reassigned", "this seat was given to someone else")
    if by_bot and (info.kind == "bot") == clock:
        raise SeatError("seat_changed", "the seat changed hands while the bot thought")
    if not by_bot and info.kind == "bot":
        raise SeatError("seat_is_bot", "this seat is played by a bot now")


def _replay(stored: StoredMatch, actions: list[tuple[int, str]]) -> Match:
    record = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": stored.game,
        "players": stored.players,
        "options": stored.options,
        "seed": stored.seed,
        "actions": [[seat, notation] for seat, notation in actions],
        "outcome": stored.outcome,
    }
    return Match.from_record(record)


def _resolve(match: Match, seat: int, action: Any) -> Any:
    """The legal action that a client's notation or structured form names."""
    if isinstance(action, str):
        return match.parse_action(seat, action)
    if isinstance(action, Mapping):
        if isinstance(action.get("notation"), str) and "name" not in action:
            return match.parse_action(seat, action["notation"])
        legal = match.legal_actions(seat)
        if not legal:
            match.parse_action(seat, "")  # raises: not this seat's turn, or the game is over
        wanted = {"name": action.get("name"), "args": action.get("args", {})}
        for candidate in legal:
            form = action_to_json(candidate)
            if {"name": form["name"], "args": form["args"]} == wanted:
                return candidate
        raise IllegalActionError(
            seat, None, f"no legal action of {match.game.seat_name(seat)} is {_short(action)}"
        )
    return action


def _short(value: Any) -> str:
    text = _encode.encode(value).decode() if not isinstance(value, str) else value
    return text if len(text) <= 120 else text[:117] + "..."
