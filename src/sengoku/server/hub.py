"""Live matches: the in-memory authority of each match, its connections, bots and clock.

One :class:`LiveMatch` per match this process serves. Every change to a match happens under
its ``asyncio.Lock``, one action at a time in arrival order, and follows the same path:

1. resolve the action against the match as it stands (notation or structured form);
2. try it on a clone (an illegal action changes nothing);
3. commit it to the database (:meth:`Store.append`); if another process committed first,
   catch up from the database and start again;
4. only then replace the match, tell every connection (each its own view and new log
   lines), start bots for the seats that are theirs to play, and restart the turn clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool

from sengoku.core import IllegalActionError, Match, action_to_json, message_to_json
from sengoku.core.match import RECORD_FORMAT, RECORD_VERSION

from .bots import bot_seed, decide
from .store import Seat, Store, StoredMatch, digest

__all__ = ["Connection", "Hub", "LiveMatch", "StaleActionError"]

log = logging.getLogger("sengoku.server")
_encode = msgspec.json.Encoder()


class StaleActionError(Exception):
    """The client acted on an older position than the match's current one."""


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
    lagging: bool = False  # its outbox overflowed: the client does not read; it is closed
    shutting: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the task that writes queued messages in order."""
        self.writer = asyncio.create_task(self._write())

    def push(self, message: Mapping[str, Any]) -> bool:
        """Queue a message; ``False`` (and the connection should close) when it lags too far."""
        if self.shutting is not None:
            return False
        try:
            self.outbox.put_nowait(_encode.encode(message).decode())
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
    # For ``expect``: each seat's legal actions as last broadcast, and since which action.
    legal_seen: dict[int, list[Any]] = field(default_factory=dict)
    legal_since: dict[int, int] = field(default_factory=dict)
    thinking_told: list[int] = field(default_factory=list)  # as last sent to the clients

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

    def message(self, conn: Connection, kind: str) -> dict[str, Any]:
        """The ``welcome`` or ``update`` message for one connection (advances its log)."""
        m = self.match
        seat = conn.seat
        outcome = m.outcome()
        legal = m.legal_actions(seat) if seat is not None and seat in m.to_act() else []
        message = {
            "type": kind,
            "match": self.id,
            "seat": seat,
            "number": self.number,
            "view": m.view(seat),
            "log": [message_to_json(e) for e in m.log_entries(seat, since=conn.log_pos)],
            "log_length": m.log_length,
            "legal": [action_to_json(a) for a in legal],
            "seats": [s.public() for s in self.seats],
            "presence": self.presence(),
            "outcome": outcome.to_json() if outcome else None,
            "thinking": sorted(self.thinking),
            "clock": self.clock_info(),
        }
        conn.log_pos = m.log_length
        return message

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


class Hub:
    """Every live match of this server process."""

    def __init__(
        self,
        store: Store,
        new_pool: Callable[[], Executor],
        clock_level: str = "easy",
    ) -> None:
        self.store = store
        self.new_pool = new_pool
        self.pool = new_pool()
        self.clock_level = clock_level
        self.live: dict[str, LiveMatch] = {}
        self._loading = asyncio.Lock()
        self.closing = False

    # -- loading -------------------------------------------------------------------------

    async def get(self, match_id: str) -> LiveMatch | None:
        """The live match, loaded from the database by replaying its actions if needed."""
        live = self.live.get(match_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.live.get(match_id)
            if live is None:
                stored = await run_in_threadpool(self.store.get, match_id)
                if stored is None:
                    return None
                actions = await run_in_threadpool(self.store.actions, match_id)
                match = await run_in_threadpool(_replay, stored, actions)
                live = self._go_live(LiveMatch(stored, match))
        if self.store.is_postgres:  # a notification may have come while it loaded
            async with live.lock:
                await self._catch_up(live)
        return live

    async def load_running(self) -> int:
        """Load every unfinished match (on start) and let its bots and clock go on."""
        ids = await run_in_threadpool(self.store.running_ids)
        for match_id in ids:
            try:
                await self.get(match_id)
            except Exception:
                log.exception("match %s could not be reloaded", match_id)
        return len(ids)

    async def create(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None,
        seed: int | None,
        seats: list[Seat],
        turn_clock: float | None,
        host_digest: str,
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
        )
        stored = await run_in_threadpool(self.store.get, match_id)
        assert stored is not None
        return self._go_live(LiveMatch(stored, match))

    def _go_live(self, live: LiveMatch) -> LiveMatch:
        """Serve a match: tell its clients, start its bots and its turn clock."""
        self.live[live.id] = live
        self._after_change(live, None)
        live.tasks.add(asyncio.create_task(self._clock_loop(live)))
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
                stored = await run_in_threadpool(
                    self.store.append,
                    live.id,
                    live.number,
                    seat,
                    notation,
                    by_bot,
                    outcome.to_json() if outcome else None,
                )
                if stored:
                    live.match = trial
                    if outcome is not None:
                        live.stored = await run_in_threadpool(self._refresh, live.id)
                    self._after_change(live, seat)
                    return notation
                await self._catch_up(live)  # another process stored an action first
            raise StaleActionError("the match is too busy; try again")

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
        live = self.live.get(match_id)
        if live is None:
            return
        async with live.lock:
            stored = await run_in_threadpool(self._refresh, live.id)
            if stored.seats != live.stored.seats:
                self._seats_changed(live, stored)
            live.stored = stored
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

    def connect(self, live: LiveMatch, conn: Connection, log_since: int) -> None:
        """Register a connection and send it the welcome (view, log from ``log_since``)."""
        conn.log_pos = max(0, min(log_since, live.match.log_length))
        conn.start()
        live.connections.add(conn)
        conn.push(live.message(conn, "welcome"))
        self._presence(live)

    async def disconnect(self, live: LiveMatch, conn: Connection) -> None:
        """Forget a connection (and tell the others who is still here). A finished match
        nobody watches leaves memory; the database still has it."""
        live.connections.discard(conn)
        await conn.close()
        self._presence(live)
        if not live.connections and live.match.outcome() is not None:
            self._evict(live)

    def _evict(self, live: LiveMatch) -> None:
        if self.live.get(live.id) is live:
            del self.live[live.id]
        for task in list(live.tasks):
            if task is not asyncio.current_task():
                task.cancel()

    def _presence(self, live: LiveMatch) -> None:
        message = {"type": "presence", "match": live.id, "presence": live.presence()}
        for conn in list(live.connections):
            if not conn.push(message):
                live.connections.discard(conn)

    # -- internals -----------------------------------------------------------------------------

    def _refresh(self, match_id: str) -> StoredMatch:
        stored = self.store.get(match_id)
        assert stored is not None
        return stored

    async def _catch_up(self, live: LiveMatch) -> None:
        actions = await run_in_threadpool(self.store.actions, live.id, live.number)
        if not actions:
            return
        for seat, notation in actions:
            live.match.act(seat, notation)
        if live.match.outcome() is not None:
            live.stored = await run_in_threadpool(self._refresh, live.id)
        self._after_change(live, None)

    def _after_change(self, live: LiveMatch, actor: int | None) -> None:
        to_act = set(live.match.to_act())
        for seat in range(live.match.players):
            legal = live.match.legal_actions(seat) if seat in to_act else []
            if legal != live.legal_seen.get(seat):
                live.legal_seen[seat] = legal
                live.legal_since[seat] = live.number
        _restart_clocks(live, actor, to_act)  # before the updates, which carry the deadlines
        for conn in list(live.connections):
            if not conn.push(live.message(conn, "update")):
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
        if self.closing or live.match.outcome() is not None:
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
            view = live.match.view(seat)
            legal = live.match.legal_actions(seat)
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
                    if clock and seat in live.waiting_since:
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
