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
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool

from sengoku.ai.advisor import search_seeds
from sengoku.core import IllegalActionError, Match, UndoRefusedError, action_to_json
from sengoku.core.match import RECORD_FORMAT, RECORD_VERSION

from .bots import bot_seed, decide, hint_answer, hint_prior, hint_search
from .chat import CHAT_RECENT, SPECTATOR_NAME, ChatError, chat_message, check_text
from .commit import GroupCommit
from .live import (
    CLOSE_MOVED,
    CLOSE_REVOKED,
    Connection,
    HintError,
    LiveMatch,
    SeatError,
    StaleActionError,
    UndoDisabledError,
    moved_error,
)
from .models import utcnow
from .owners import MovedError, Owners
from .store import Append, Seat, Store, StoredMatch, digest

__all__ = ["Hub", "MatchSetup"]

log = logging.getLogger("sengoku.server")
_encode = msgspec.json.Encoder()


@dataclass(frozen=True)
class MatchSetup:
    """What a new match is: game, players, options, seed (``None``: a fresh secret one),
    seats, turn clock (seconds, or ``None``), the digest of the host's key, and the host's
    choices: spectators may chat, undo allowed, rated, hints allowed."""

    game: str
    players: int
    options: Mapping[str, Any] | None
    seed: int | None
    seats: list[Seat]
    turn_clock: float | None
    host_digest: str
    spectator_chat: bool = False
    allow_undo: bool = True
    rated: bool = False
    allow_hints: bool = False


class Hub:
    """Every live match of this server process."""

    def __init__(
        self,
        store: Store,
        new_pool: Callable[[], Executor],
        clock_level: str = "easy",
        idle_seconds: float = 600.0,
        finished_cache: int = 256,
        on_finish: Callable[[str], object] | None = None,
        on_end: Callable[[LiveMatch], object] | None = None,
        hint_searches: int = 1,
        owners: Owners | None = None,
    ) -> None:
        """``idle_seconds``: how long a running match nothing happens in stays in memory
        (0: for as long as the process runs); ``finished_cache``: how many finished matches
        nobody watches are kept, the most recently asked for; ``on_finish``: called (in a
        worker thread) with the id of each rated match this process ends, before anyone is
        told of its end (the ratings); ``on_end``: called (in the event loop) with every
        match this process ends, after that (a review is asked for); ``hint_searches``: how
        many searches a hint runs at once in the bot workers; ``owners``: with several
        processes, this one's ownership of matches (it serves only those it owns)."""
        self.store = store
        self.owners = owners
        self.on_finish = on_finish
        self.on_end = on_end
        self.hint_searches = hint_searches
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
        self._expirer: asyncio.Task[None] | None = None
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
            if self.owners is not None:  # serve only our own; read it after claiming it
                owner = await run_in_threadpool(self.owners.claim, match_id)
                if owner is not None:
                    raise MovedError(match_id, owner)
            stored = await run_in_threadpool(self.store.get, match_id)
            if stored is None or stored.status == "open":  # a table is served once started
                return None
            actions = await run_in_threadpool(self.store.actions, match_id)
            match = await run_in_threadpool(replay_stored, stored, actions)
            chat = await run_in_threadpool(self._stored_chat, match_id)
            live = LiveMatch(stored, match, chat=chat)
            if live.over:
                self._keep(live)
                return live
            self._go_live(live)
            if self.store.is_postgres and self.owners is None:  # a notification may have come
                async with live.lock:
                    await self._catch_up(live)
            return live
        finally:
            del self._loads[match_id]

    async def load_running(self) -> int:
        """Load every unfinished match (on start) and let its bots and clock go on; those
        that only wait for a person without a turn clock leave memory again at once (the
        next request loads them). Returns how many stay. With several processes, each takes
        its share of them as orphans instead (:class:`~.owners.Owners`)."""
        if self.owners is not None:
            return 0
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

    async def adopt(self, match_id: str) -> None:
        """Serve a match this process took over (:class:`~.owners.Owners`): its bots and
        clock go on; one that only waits for a person leaves memory again, still ours."""
        try:
            live = await self.get(match_id)
        except MovedError:  # another process took it meanwhile
            return
        except Exception:
            log.exception("match %s could not be taken over", match_id)
            return
        if live is not None and self._idle(live):
            self._evict(live)

    async def drop_running(self) -> None:
        """This process lost its lease: stop serving every running match (the others take
        them); their clients are told to connect again (:meth:`_lost`)."""
        for live in [live for live in self.live.values() if not live.over]:
            self._lost(live, None)

    def _lost(self, live: LiveMatch, owner: str | None) -> None:
        """Another process owns the match now: its clients get ``moved`` (naming ``owner``
        when known) and are closed, so they connect again through the proxy; the match
        leaves memory."""
        message = moved_error(owner)
        for conn in list(live.connections):
            conn.push(message)
            conn.shut(CLOSE_MOVED)
        live.connections.clear()
        self._evict(live)

    async def _still_ours(self, live: LiveMatch) -> None:
        """After a refused write: raise :class:`~.owners.MovedError` (and stop serving the match)
        if it is no longer this process's own."""
        if self.owners is not None and not await run_in_threadpool(self.owners.owns, live.id):
            self._lost(live, None)
            raise MovedError(live.id, None)

    async def create(self, setup: MatchSetup) -> LiveMatch:
        """Set up and store a new match, and serve it (bad set-ups raise ``SetupError`` or
        ``OptionError``)."""
        match, stored = await self._store_new(setup)
        return self._go_live(LiveMatch(stored, match))

    async def open_table(self, setup: MatchSetup, host_account: int) -> StoredMatch:
        """Set up and store an open table (some seats ``open``): it is not served until its
        host starts it (:class:`~.tables.Tables`), then :meth:`get` loads it."""
        _match, stored = await self._store_new(setup, status="open", host_account=host_account)
        return stored

    async def _store_new(self, setup: MatchSetup, **extra: Any) -> tuple[Match, StoredMatch]:
        match = Match.new(setup.game, setup.players, setup.seed, setup.options)
        match_id = secrets.token_urlsafe(9)
        assert match.seed is not None
        await run_in_threadpool(
            functools.partial(
                self.store.create,
                match_id,
                match.game.name,
                setup.players,
                match.to_record()["options"],
                match.seed,
                setup.host_digest,
                setup.seats,
                setup.turn_clock,
                setup.spectator_chat,
                setup.allow_undo,
                rated=setup.rated,
                allow_hints=setup.allow_hints,
                **extra,
            )
        )
        stored = await run_in_threadpool(self.store.get, match_id)
        assert stored is not None
        return match, stored

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
            behind_checked = not self.store.is_postgres or self.owners is not None
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
                        await self._finished(live)
                    elif hinted := live.hinted_seats():
                        await run_in_threadpool(live.refresh_hints, hinted, seat, before)
                    self._after_change(live, seat)
                    return notation
                # Another process stored an action first, or abandoned the match, or (with
                # owners) it is no longer ours.
                await self._still_ours(live)
                if (fresh := await run_in_threadpool(self._refresh, live.id)).status == "abandoned":
                    self._abandoned(live, fresh)
                    _check_actor(live, seat, by_bot, conn, clock)
                await self._catch_up(live)
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
            behind_checked = not self.store.is_postgres or self.owners is not None
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
                await self._still_ours(live)
                await self._catch_up(live)  # another process changed the match first
            raise StaleActionError("the match is too busy; try again")

    async def _finished(self, live: LiveMatch) -> None:
        """This process ended a match: a rated one is rated now (its end is stored already;
        if rating fails, the next start rates it), then its review is asked for."""
        if self.on_finish is not None and live.stored.rated:
            try:
                await run_in_threadpool(self.on_finish, live.id)
            except Exception:
                log.exception("rating match %s failed; it is rated at the next start", live.id)
        if self.on_end is not None:
            try:
                self.on_end(live)
            except Exception:
                log.exception("asking for the review of match %s failed", live.id)

    # -- hints ---------------------------------------------------------------------------

    async def hint(
        self, live: LiveMatch, seat: int, conn: Connection | None = None
    ) -> dict[str, Any]:
        """The advisor's three best actions for ``seat`` now, from its view only (``hard``'s
        search in a bot worker, within 2 s), with the number of the position it is for.

        One hint at a time per seat, and one search per position: asked again in the same
        position, the seat gets the same answer (and nobody is told again). Everyone in the
        match is told in the chat that the seat asked. Raises :class:`HintError` or
        :class:`SeatError`, changing nothing.
        """
        if not live.stored.allow_hints:
            raise HintError("hints_disabled", "the host turned hints off for this match")
        _check_actor(live, seat, False, conn, False)
        if seat not in live.match.to_act():
            raise HintError(
                "not_your_turn", "a hint is for a decision of yours; wait for your turn"
            )
        if seat in live.hinting:
            raise HintError("hint_pending", "a hint for this seat is on its way; one at a time")
        given = live.hints.get(seat)
        if given is not None and given["number"] == live.number and live.undos == given["undos"]:
            cached: dict[str, Any] = given["answer"]
            return cached
        live.hinting.add(seat)
        try:
            number, undos = live.number, live.undos
            view = live.match.view(seat)  # its own copy, for the worker
            legal = list(live.position().actions(seat))
            seed = bot_seed(live.stored.seed ^ 0x4_1B7, seat, number)
            pool = self.pool
            try:
                prior = await run_in_threadpool(hint_prior, seed, view, legal)
                found = await asyncio.gather(
                    *(
                        in_pool(pool, hint_search, s, view, legal, prior)
                        for s in search_seeds(seed, self.hint_searches)
                    )
                )
                advice = await in_pool(pool, hint_answer, seed, view, legal, found)
            except BrokenExecutor:
                raise HintError("unavailable", "the advisor is restarting; ask again") from None
            except Exception:
                log.exception("a hint for seat %d of %s failed", seat, live.id)
                raise HintError("unavailable", "the advisor failed; ask again") from None
            await self._note_hint(live, seat)
            answer = {"number": number, **advice}
            live.hints[seat] = {"number": number, "undos": undos, "answer": answer}
            return answer
        finally:
            live.hinting.discard(seat)

    async def _note_hint(self, live: LiveMatch, seat: int) -> None:
        """Tell everyone in the match, in the chat, that ``seat`` asked for a hint."""
        name = live.seats[seat].name or live.match.game.seat_name(seat)
        at = utcnow()
        message = chat_message(seat, name, "", at, "hint")
        async with live.chat_lock:
            await run_in_threadpool(
                self.store.add_chat, live.id, seat, name, "", at, message, "hint"
            )
            self._tell_chat(live, message)

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
        live.match = await run_in_threadpool(replay_stored, stored, actions)
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

    # -- abandoning -----------------------------------------------------------------------

    async def abandon(self, live: LiveMatch) -> bool:
        """End a running match without an outcome (its host gave it up): stored first, then
        its bots and turn clock stop and every connection gets an update that says so, with
        no choices. ``False``, changing nothing, if it was not running any more."""
        async with live.lock:
            if not await run_in_threadpool(self.store.abandon, live.id):
                return False
            self._abandoned(live, await run_in_threadpool(self._refresh, live.id))
        return True

    async def abandon_idle(self, days: float, now: datetime | None = None) -> list[str]:
        """Abandon every running match nobody has moved in for ``days`` (as seen at ``now``);
        those this process serves stop as with :meth:`abandon`. Returns their ids."""
        before = (now or datetime.now(UTC)) - timedelta(days=days)
        gone = await run_in_threadpool(self.store.abandon_idle, before)
        for match_id in gone:
            await self.on_notify(match_id)
        return gone

    async def _expire(self, days: float) -> None:
        """Every hour (or sooner for a short ``days``), abandon the idle matches."""
        while not self.closing:
            try:
                if gone := await self.abandon_idle(days):
                    log.info("%d matches idle for %g days were abandoned", len(gone), days)
            except Exception:
                log.exception("abandoning idle matches failed")
            await asyncio.sleep(min(3600.0, days * 86400 / 4))

    def expire_idle(self, days: float) -> None:
        """Start abandoning the matches nobody moves in for ``days`` (0: never), now and
        every hour; :meth:`close` stops it."""
        if days > 0 and self._expirer is None:
            self._expirer = asyncio.create_task(self._expire(days))

    def _abandoned(self, live: LiveMatch, stored: StoredMatch) -> None:
        """The match was abandoned (here or by another process): stop its bots and clock,
        tell its connections; nobody watching, it leaves ``live``."""
        live.stored = stored
        for task in list(live.tasks):
            if task is not asyncio.current_task():
                task.cancel()
        live.thinking.clear()
        live.waiting_since.clear()
        self._after_change(live, None)

    async def on_notify(self, match_id: str) -> None:
        """Another process changed the match: catch up and tell our connections."""
        live = self.live.get(match_id) or self.finished.get(match_id)
        if live is None:
            return
        live.touched = time.monotonic()
        async with live.lock:
            stored = await run_in_threadpool(self._refresh, live.id)
            if stored.status == "abandoned" and not live.abandoned:
                self._abandoned(live, stored)
                return
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
            if conn.seat is not None and not conn.holds(stored.seats[conn.seat]):
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
        if not live.connections and live.over:
            self._evict(live)

    def _evict(self, live: LiveMatch) -> None:
        """Stop serving a match: it leaves ``live`` and its tasks are cancelled; a finished
        one joins the cache of finished matches. The database has everything."""
        if self.live.get(live.id) is live:
            del self.live[live.id]
        for task in list(live.tasks):
            if task is not asyncio.current_task():
                task.cancel()
        if live.over:
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
        seats = [Seat(s.seat, s.kind, s.bot, s.name, None, s.account_id) for s in stored.seats]
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

    async def tie_seat(self, live: LiveMatch, seat: int, account_id: int) -> str:
        """Let ``seat`` belong to an account (:meth:`Store.tie_seat`); everyone is told."""
        async with live.lock:
            answer = await run_in_threadpool(self.store.tie_seat, live.id, seat, account_id)
            if answer == "tied":
                self._seats_changed(live, await run_in_threadpool(self._refresh, live.id))
        return answer

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
        to_act = set() if live.abandoned else set(live.match.to_act())
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
        if live.over and not live.connections:
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
        if self.closing or live.over or self.live.get(live.id) is not live:
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
                except MovedError:  # another process serves the match now: it plays on
                    return
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
        for _attempt in range(2):
            pool = self.pool
            try:
                chosen: str = await in_pool(pool, decide, level, seed, view, legal)
                return chosen
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
        while not live.over and not self.closing:
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
        tasks += [*self._loads.values()]
        tasks += [task for task in (self._sweeper, self._expirer) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for live in lives:
            for conn in list(live.connections):
                await conn.close()


async def in_pool(pool: Executor, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker of ``pool``. Cancelling the caller (a match that ended or
    left memory) leaves the work to finish and drops its answer: a work item cancelled
    while it waits in the pool's queue trips ``ProcessPoolExecutor`` when the pool is shut
    down (Python 3.11 sets an exception on the cancelled future)."""
    work = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
    work.add_done_callback(_forget)
    return await asyncio.shield(work)


def _forget(work: asyncio.Future[Any]) -> None:
    """Read a dropped work's exception, so that it is not reported as never retrieved."""
    if not work.cancelled():
        work.exception()


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
    if live.abandoned:
        raise SeatError("match_abandoned", "this match was abandoned; it takes no more moves")
    info = live.seats[seat]
    if conn is not None and (conn.revoked or not conn.holds(info)):
        raise SeatError("seat_reassigned", "this seat was given to someone else")
    if by_bot and (info.kind == "bot") == clock:
        raise SeatError("seat_changed", "the seat changed hands while the bot thought")
    if not by_bot and info.kind == "bot":
        raise SeatError("seat_is_bot", "this seat is played by a bot now")


def replay_stored(stored: StoredMatch, actions: list[tuple[int, str]]) -> Match:
    """The stored match ``stored`` with its ``actions``, replayed from its record."""
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
        name, args = action.get("name"), action.get("args", {})
        forms = [(c, action_to_json(c)) for c in legal]
        named = [(c, form["args"]) for c, form in forms if form["name"] == name]
        for candidate, legal_args in named:
            if _same_json(legal_args, args):
                return candidate
        for _, legal_args in named:  # equal in Python (true == 1, 3.0 == 3), not in JSON
            if legal_args == args:
                raise IllegalActionError(seat, None, _wrong_type(legal_args, args))
        raise IllegalActionError(
            seat, None, f"no legal action of {match.game.seat_name(seat)} is {_short(action)}"
        )
    return action


def _same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same value of the same type (``true`` is not ``1``
    and ``3.0`` is not ``3``, though Python finds them equal).

    >>> _same_json({"n": [1, 2]}, {"n": [1, 2]}), _same_json({"n": 1}, {"n": True})
    (True, False)
    """
    if isinstance(a, Mapping):
        return (
            isinstance(b, Mapping)
            and a.keys() == b.keys()
            and all(_same_json(a[k], b[k]) for k in a)
        )
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same_json, a, b))
    return type(a) is type(b) and a == b


_JSON_KINDS = {
    bool: "a boolean",
    int: "an integer",
    float: "a number with a fraction",
    str: "a string",
}


def _wrong_type(legal: Any, got: Any, path: str = "") -> str:
    """What differs in type between a legal action's arguments and ``got``, which equals
    them in Python: the first argument (a dotted path) of another JSON type."""
    if isinstance(legal, Mapping):
        for key in legal:
            if not _same_json(legal[key], got[key]):
                return _wrong_type(legal[key], got[key], f"{path}.{key}" if path else key)
    if isinstance(legal, list):
        for i, (a, b) in enumerate(zip(legal, got, strict=True)):
            if not _same_json(a, b):
                return _wrong_type(a, b, f"{path}.{i}")
    kind = _JSON_KINDS.get(type(legal), type(legal).__name__)
    return (
        f"argument {path!r} must be {kind} ({_short(legal)}), "
        f"not {_JSON_KINDS.get(type(got), type(got).__name__)} ({_short(got)})"
    )


def _short(value: Any) -> str:
    text = _encode.encode(value).decode() if not isinstance(value, str) else value
    return text if len(text) <= 120 else text[:117] + "..."
