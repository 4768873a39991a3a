"""The authority over one game: state, seeded chance, validation, views and the record."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .errors import IllegalActionError, RecordError, SetupError, UndoRefusedError
from .game import Game, LogEntry
from .messages import Message, render
from .options import GameOptions, options_to_json, parse_options
from .outcome import Outcome
from .registry import get_game
from .rng import Rng, fresh_seed

RECORD_FORMAT = "sengoku.record"
RECORD_VERSION = 1
#: Keys that :meth:`Match.view` adds to every game's view.
VIEW_KEYS = ("game", "players", "options", "seat", "to_act")
#: How many times :meth:`Match.undo_refusal` redraws what each seat cannot see.
UNDO_SAMPLES = 3


class UndoReason(enum.Enum):
    """Why a seat's latest action must stand (:meth:`Match.undo_refusal`)."""

    NOTHING_TO_UNDO = "nothing_to_undo"  #: the seat has no action standing
    GAME_OVER = "game_over"  #: the match has an outcome
    CHANCE = "chance"  #: the action drew chance (a shuffle, a draw, a roll)
    REVEALED = "revealed"  #: the action showed a seat something that was hidden from it
    OTHERS_ACTED = "others_acted"  #: another seat has acted on what the action showed


class UndoRefusal(NamedTuple):
    """Why an undo is refused: the machine code and the reason in words."""

    reason: UndoReason
    message: str

    @property
    def code(self) -> str:
        """The reason's machine code (``"others_acted"``)."""
        return self.reason.value

    def error(self, seat: int) -> UndoRefusedError:
        """The error :meth:`Match.undo` raises for this refusal."""
        return UndoRefusedError(seat, self.code, self.message)


class Match:
    """One game being played: the only object that changes a game's state.

    Create one with :func:`new_match` (or :meth:`from_record`). It validates every action,
    applies it with the match's own seeded :class:`Rng`, keeps the record and the log, and
    gives each seat its own view.
    """

    __slots__ = (
        "_history",
        "_legal",
        "_log",
        "_options_json",
        "_rng",
        "_state",
        "game",
        "options",
        "players",
        "seed",
    )

    game: Game[Any, Any]
    players: int
    options: GameOptions
    seed: int | None

    def __init__(
        self,
        game: Game[Any, Any],
        players: int,
        options: GameOptions,
        seed: int | None,
        state: Any,
        rng: Rng,
    ) -> None:
        """Wrap an existing state; use :func:`new_match` to start a game."""
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self._options_json = options_to_json(options)
        self._state = state
        self._rng = rng
        self._history: list[tuple[int, Any]] = []
        self._log: list[LogEntry] = []
        self._legal: dict[int, list[Any]] = {}

    # -- creating ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        game: str | Game[Any, Any],
        players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | GameOptions | None = None,
    ) -> Match:
        """Start a match; see :func:`new_match`."""
        rules = get_game(game) if isinstance(game, str) else game
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError(f"players must be an integer, not {players!r}")
        if players not in rules.player_counts:
            counts = ", ".join(map(str, rules.player_counts))
            raise SetupError(f"{rules.title} is played by {counts} players, not {players}")
        if seed is None:
            seed = fresh_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SetupError(f"a seed must be a non-negative integer, not {seed!r}")
        parsed = parse_options(rules.options_type, options)
        rng = Rng(seed)
        state = rules.setup(players, parsed, rng)
        match = cls(rules, players, parsed, seed, state, rng)
        match._log.extend(rules.initial_log(state))
        return match

    @classmethod
    def from_record(cls, record: Mapping[str, Any], verify: bool = True) -> Match:
        """Replay a record made by :meth:`to_record` into an identical match.

        With ``verify``, a record that states an outcome must end in that same outcome.
        Raises :class:`RecordError` for a malformed record or an action that does not replay.
        """
        if not isinstance(record, Mapping):
            raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
        if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
            raise RecordError(
                f"not a version-{RECORD_VERSION} Sengoku record "
                f"(format {record.get('format')!r}, version {record.get('version')!r})"
            )
        for key in ("game", "players", "seed", "options", "actions"):
            if key not in record:
                raise RecordError(f"the record has no {key!r}")
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("the record's 'actions' must be a list")
        try:
            match = cls.new(record["game"], record["players"], record["seed"], record["options"])
        except (SetupError, LookupError, ValueError) as exc:
            raise RecordError(f"the record cannot be set up: {exc}") from None
        for number, entry in enumerate(actions, 1):
            if (
                not isinstance(entry, list | tuple)
                or len(entry) != 2
                or not isinstance(entry[0], int)
                or not isinstance(entry[1], str)
            ):
                raise RecordError(f"action {number} must be [seat, notation], not {entry!r}")
            seat, text = entry
            try:
                match.act(seat, match.parse_action(seat, text))
            except IllegalActionError as exc:
                raise RecordError(
                    f"action {number} ({text!r} by seat {seat}) does not replay: {exc.reason}"
                ) from None
        expected = record.get("outcome")
        if verify and expected is not None:
            got = match.outcome()
            if got is None or got.to_json() != expected:
                raise RecordError(
                    f"the replay ends in {got.to_json() if got else 'no outcome'}, "
                    f"but the record says {expected}"
                )
        return match

    def clone(self) -> Match:
        """An independent copy (state, chance, record and log): acting on it never changes this.

        The copy starts with the legal actions this match has worked out for its position
        (the same position), so trying an action on a clone does not compute them again."""
        twin = Match.__new__(Match)
        twin.game = self.game
        twin.players = self.players
        twin.options = self.options
        twin.seed = self.seed
        twin._options_json = self._options_json
        twin._state = self.game.clone(self._state)
        twin._rng = self._rng.clone()
        twin._history = self._history.copy()
        twin._log = self._log.copy()
        twin._legal = dict(self._legal)  # the lists are never changed, only replaced
        return twin

    # -- playing -------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        """The seats that may act now: several in a secret simultaneous choice, none at the end."""
        return self.game.to_act(self._state)

    def legal_actions(self, seat: int) -> list[Any]:
        """Every legal action of ``seat`` now; ``[]`` when it may not act."""
        if type(seat) is not int or not 0 <= seat < self.players:  # bools and junk too
            self._check_seat(seat)
        legal = self._legal.get(seat)
        if legal is None:  # a seat that may not act has none (Game.legal_actions)
            legal = self._legal[seat] = self.game.legal_actions(self._state, seat)
        return list(legal)

    def act(self, seat: int, action: Any) -> None:
        """Carry out ``action`` (an action, or its notation as text) for ``seat``.

        Raises :class:`IllegalActionError`, changing nothing, if the seat may not act now or
        the action is not one of its legal actions.
        """
        if isinstance(action, str):
            action = self.parse_action(seat, action)
        legal = self._legal_or_raise(seat, action)
        chosen = self._find(legal, action)
        if chosen is None:
            try:
                reason = self.game.explain_illegal(self._state, seat, action)
            except (AttributeError, TypeError, ValueError, LookupError):
                reason = None  # junk the game's explanation cannot read
            raise IllegalActionError(
                seat,
                action,
                reason
                or f"{_describe(action)} is not a legal action for {self.game.seat_name(seat)} now",
            )
        entries = self.game.apply(self._state, seat, chosen, self._rng)
        self._history.append((seat, chosen))
        if entries:
            self._log.extend(entries)
        self._legal.clear()

    def act_all(self, seat: int, actions: Iterable[Any]) -> None:
        """Carry out several actions of one seat as a whole: all of them, or (on an error) none."""
        trial = self.clone()
        for action in actions:
            trial.act(seat, action)
        self._state, self._rng = trial._state, trial._rng
        self._history, self._log, self._legal = trial._history, trial._log, {}

    def parse_action(self, seat: int, text: str) -> Any:
        """Read ``text`` as the notation of one of ``seat``'s legal actions."""
        if not isinstance(text, str):
            raise IllegalActionError(seat, text, f"an action's notation is text, not {text!r}")
        legal = self._legal_or_raise(seat, text)
        for action in legal:  # the usual case, a notation as the server wrote it: no new work
            if str(action) == text:
                return action
        return self.game.parse_action(self._state, seat, text)

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, then its :class:`Outcome`."""
        return self.game.outcome(self._state)

    # -- information -----------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """All that ``seat`` may know as JSON-ready data; ``None`` gives a spectator's view."""
        return self.views([seat])[0]

    def views(self, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The :meth:`view` of each of ``seats`` (``None``: a spectator), made together: the
        views of one call may share the parts the seats see alike (the same objects), so read
        them and never change them (:meth:`Game.views`).

        >>> import sengoku
        >>> match = sengoku.new_match("shitenno", 3, seed=1)
        >>> spectator, first = match.views([None, 0])
        >>> spectator == match.view(None) and first == match.view(0)
        True
        >>> spectator["provinces"] is first["provinces"]
        True
        """
        for seat in seats:
            if seat is not None:
                self._check_seat(seat)
        options, to_act = dict(self._options_json), self.to_act()
        made = []
        for seat, own in zip(seats, self.game.views(self._state, seats), strict=True):
            view = {
                "game": self.game.name,
                "players": self.players,
                "options": options,
                "seat": seat,
                "to_act": to_act,
            }
            view.update(own)
            made.append(view)
        return made

    def log(self, seat: int | None = None, since: int = 0) -> list[str]:
        """The log lines ``seat`` may read (``None``: public lines), from global index ``since``,
        in English (the game's catalog)."""
        catalog = self.game.catalog
        return [
            m if isinstance(m, str) else render(m, catalog) for m in self.log_entries(seat, since)
        ]

    def log_entries(self, seat: int | None = None, since: int = 0) -> list[Message | str]:
        """Like :meth:`log`, the lines as messages (:mod:`sengoku.core.messages`), to be
        rendered in the reader's language."""
        return [e.message for e in self._log[since:] if e.visible_to(seat)]

    @property
    def state(self) -> Any:
        """The game state itself, for search on sampled matches and for tests.

        Clients and agents never get a true match, only views; do not change the state.
        """
        return self._state

    def rng_state(self) -> int:
        """The state of the match's chance (:meth:`Rng.getstate`): with the record, all that
        saving a match mid-game needs, and a check that a replay came out the same."""
        return self._rng.getstate()

    @property
    def log_length(self) -> int:
        """The number of lines in the whole log (for ``log(seat, since=...)``)."""
        return len(self._log)

    @property
    def history(self) -> list[tuple[int, Any]]:
        """The actions taken so far, as ``(seat, action)`` pairs."""
        return list(self._history)

    def to_record(self) -> dict[str, Any]:
        """The match as JSON-ready data: game, players, options, seed, actions and outcome."""
        if self.seed is None:
            raise RecordError("this match was sampled for search and has no seed to record")
        outcome = self.outcome()
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "players": self.players,
            "options": dict(self._options_json),
            "seed": self.seed,
            "actions": [[seat, str(action)] for seat, action in self._history],
            "outcome": outcome.to_json() if outcome else None,
        }

    # -- taking back -----------------------------------------------------------------------

    def undo_refusal(
        self, seat: int, before: Match | None = None, *, reveal_checks: bool = True
    ) -> UndoRefusal | None:
        """Why ``seat`` may not take back its latest action now, or ``None`` if it may.

        The policy of Board Game Arena, decided by the engine for every game from the
        protocol alone (:meth:`Game.vary_secrets`, :meth:`Game.view`, the seeded chance).
        Let *a* be the seat's latest action. It must stand when:

        - ``game_over``: the match has an outcome;
        - ``nothing_to_undo``: the seat has no action standing;
        - ``chance``: applying *a* drew on the match's chance (its :class:`Rng` moved);
        - ``revealed``: *a* showed some seat something hidden from it. For each seat, what
          is hidden from it is redrawn a few times (:data:`UNDO_SAMPLES`, with a fixed
          seed) and *a* applied there where it is legal; if that seat's view or log lines
          after *a* differ from the true ones, *a* depended on, and so showed, a secret:
          a card from a shuffled deck, another seat's secret choice, a secret of the
          actor's that *a* does not name. What *a* names itself (the cards a payment
          spends) is the actor's own choice, and taking it back is the point of undo;
        - ``others_acted``: other seats have acted since, and *a* cannot be moved to after
          their actions unchanged: one of them is not legal without *a*, or was offered
          other choices with *a* than without it; or with *a* moved to the end some seat
          would see another position than now, or *a* would draw chance or reveal a
          secret there (another seat's move after it revealed a simultaneous phase).
          A secret step of a simultaneous phase (a Shogun plan step) passes until the
          phase is revealed.

        Computed on demand by replaying the record (milliseconds): ``before``, this match
        as it stood just before *a* (a copy the caller kept, never changed here), spares
        the replay of the actions before it; a copy of another position is ignored.
        ``reveal_checks=False`` skips the redrawing of secrets, for a quick answer from a
        caller that already checked the action itself: :meth:`undo` may still refuse.

        >>> from sengoku import new_match
        >>> match = new_match("shitenno", 3, seed=1)
        >>> match.undo_refusal(0).code
        'nothing_to_undo'
        """
        return self._undo_plan(seat, before, reveal_checks)[0]

    def undo(self, seat: int, before: Match | None = None) -> tuple[int, Any]:
        """Take back ``seat``'s latest action; returns its index in the history and itself.

        The match becomes exactly the replay of its record without that action (same seed:
        the action drew no chance, so every later action replays as it was); the log loses
        the action's lines. Raises :class:`UndoRefusedError` (with the reason's code, see
        :meth:`undo_refusal`), changing nothing, when the action must stand.
        """
        refusal, without, index = self._undo_plan(seat, before)
        if refusal is not None:
            raise refusal.error(seat)
        assert without is not None
        action = self._history[index][1]
        self._state, self._rng = without._state, without._rng
        self._history, self._log, self._legal = without._history, without._log, {}
        return index, action

    def replayed(self, count: int) -> Match:
        """A new match replaying the first ``count`` actions of this one from its seed.

        Raises :class:`RecordError` for a match sampled for search (it has no seed).
        """
        if not 0 <= count <= len(self._history):
            raise ValueError(f"count must be between 0 and {len(self._history)}, not {count}")
        return self._replay(count)

    def _undo_plan(
        self, seat: int, before: Match | None, reveal_checks: bool = True
    ) -> tuple[UndoRefusal | None, Match | None, int]:
        """(refusal, the match without the action, the action's index)."""
        self._check_seat(seat)
        name = self.game.seat_name(seat)
        if self.outcome() is not None:
            over = UndoRefusal(UndoReason.GAME_OVER, "the game is over: its actions stand")
            return over, None, -1
        index = next(
            (i for i in range(len(self._history) - 1, -1, -1) if self._history[i][0] == seat), -1
        )
        if index < 0:
            message = f"{name} has no action to take back"
            return UndoRefusal(UndoReason.NOTHING_TO_UNDO, message), None, -1
        base = before if self._is_prefix(before, index) else self._replay(index)
        assert base is not None
        action = self._history[index][1]
        shown = f"{_describe(action)}"
        refusal = self._action_refusal(base, seat, action, index, reveal_checks)
        if refusal is not None:
            reason, other = refusal
            if reason is UndoReason.CHANCE:
                message = f"{shown} drew chance (a shuffle, a draw, a roll): it stands"
            else:
                message = f"{shown} showed {self.game.seat_name(other)} what was hidden: it stands"
            return UndoRefusal(reason, message), None, index
        without = base.clone()
        actor = self._later_refusal(without, seat, action, index, reveal_checks)
        if actor is not None:
            message = f"{self.game.seat_name(actor)} has acted since {shown}: it stands"
            return UndoRefusal(UndoReason.OTHERS_ACTED, message), None, index
        return None, without, index

    def _is_prefix(self, before: Match | None, index: int) -> bool:
        return (
            before is not None
            and before.game is self.game
            and before.players == self.players
            and before.seed == self.seed
            and before._options_json == self._options_json
            and before._history == self._history[:index]
        )

    def _replay(self, count: int) -> Match:
        """A new match replaying the first ``count`` actions. Their legality was checked
        when they were taken and the replay is exact, so it is not checked again."""
        if self.seed is None:
            raise RecordError("this match was sampled for search and has no record to replay")
        again = Match.new(self.game, self.players, self.seed, self.options)
        for seat, action in self._history[:count]:
            again._apply(seat, action)
        return again

    def _apply(self, seat: int, action: Any) -> list[LogEntry]:
        """Apply an action already known to be legal; returns its log lines."""
        entries = list(self.game.apply(self._state, seat, action, self._rng))
        self._history.append((seat, action))
        self._log.extend(entries)
        self._legal.clear()
        return entries

    def _action_refusal(
        self, base: Match, seat: int, action: Any, index: int, reveal_checks: bool = True
    ) -> tuple[UndoReason, int] | None:
        """Whether ``action`` by ``seat`` on ``base`` draws chance or shows a secret (and to
        which seat); ``base`` is left unchanged."""
        game = self.game
        after = base.clone()
        chance = after._rng.getstate()
        entries = after._apply(seat, action)
        if after._rng.getstate() != chance:
            return UndoReason.CHANCE, seat
        if not reveal_checks:
            return None
        salt = (self.seed or 0) + index * 1_000_003
        for other in range(self.players):
            seen = (
                game.view(after._state, other),
                game.to_act(after._state),
                [e.message for e in entries if e.visible_to(other)],
            )
            for sample in range(UNDO_SAMPLES):
                rng = Rng(salt + other * 1_009 + sample)
                varied = game.vary_secrets(base._state, other, rng)
                if other != seat and (
                    seat not in game.to_act(varied)
                    or self._find(game.legal_actions(varied, seat), action) is None
                ):
                    continue  # not legal in that world: what the action names is not news
                lines = game.apply(varied, seat, action, base._rng.clone())
                if (
                    game.view(varied, other),
                    game.to_act(varied),
                    [e.message for e in lines if e.visible_to(other)],
                ) != seen:
                    return UndoReason.REVEALED, other
        return None

    def _later_refusal(
        self, without: Match, seat: int, action: Any, index: int, reveal_checks: bool = True
    ) -> int | None:
        """Replay the actions after ``index`` on ``without`` (the match before it); the
        first later actor that acted on the action, or ``None`` (``without`` is then this
        match without the action)."""
        later = self._history[index + 1 :]
        if not later:
            return None
        game = self.game
        beside = without.clone()  # the true history, replayed beside it
        beside._apply(seat, action)
        for actor, step in later:
            if actor not in game.to_act(without._state):
                return actor
            offered = game.legal_actions(without._state, actor)
            if self._find(offered, step) is None or [str(a) for a in offered] != [
                str(a) for a in game.legal_actions(beside._state, actor)
            ]:
                return actor
            without._apply(actor, step)
            beside._apply(actor, step)
        first = later[0][0]
        # the action moved to the end: legal, harmless, and every seat sees what it sees now
        if seat not in game.to_act(without._state) or (
            self._find(game.legal_actions(without._state, seat), action) is None
        ):
            return first
        if self._action_refusal(without, seat, action, index, reveal_checks) is not None:
            return first
        moved = without.clone()
        moved._apply(seat, action)
        if any(moved.view(s) != self.view(s) for s in [None, *range(self.players)]):
            return first
        return None

    # -- internals -------------------------------------------------------------------------

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(
                None, None, f"there is no seat {seat!r} in this {self.players}-player match"
            )

    def _legal_or_raise(self, seat: int, action: Any) -> list[Any]:
        if type(seat) is not int or not 0 <= seat < self.players:  # bools and junk too
            self._check_seat(seat)
        legal = self._legal.get(seat)
        if legal is not None and legal:
            return legal
        waiting = self.to_act()
        if seat not in waiting:
            if not waiting:
                reason = "the game is over"
            else:
                names = ", ".join(self.game.seat_name(s) for s in waiting)
                reason = f"it is not {self.game.seat_name(seat)}'s turn; waiting for {names}"
            raise IllegalActionError(seat, action, reason)
        legal = self._legal[seat] = self.game.legal_actions(self._state, seat)
        return legal

    @staticmethod
    def _find(legal: list[Any], action: Any) -> Any:
        # Return the game's own legal object equal to ``action`` and of its type, so that a
        # tuple that merely compares equal is never applied in its place.
        try:
            candidate = legal[legal.index(action)]
        except ValueError:
            return None
        if type(candidate) is type(action):
            return candidate
        return next((c for c in legal if c == action and type(c) is type(action)), None)


def _describe(action: Any) -> str:
    text = str(action)
    return repr(text) if len(text) <= 80 else repr(text[:77] + "...")


def new_match(
    game: str,
    players: int,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Match:
    """Start a match of ``game`` for ``players`` seats.

    Args:
        game: a registered game name (see :func:`available_games`).
        players: the number of seats; seats are numbered from 0.
        seed: the seed of the match's chance; ``None`` draws a fresh one (kept in the record).
        options: the game's options by name; unknown names or bad values raise ``OptionError``.
    """
    return Match.new(game, players, seed, options)


def determinize(view: Mapping[str, Any], rng: Rng) -> Match:
    """A match sampled to agree with one seat's ``view``, for search by an agent.

    Its hidden parts are drawn from ``rng`` and so is its future chance, so it reveals
    nothing of the true match. It has no record.
    """
    return determinizer(view)(rng)


def determinizer(view: Mapping[str, Any]) -> Callable[[Rng], Match]:
    """:func:`determinize` for one ``view``, as a function of the ``rng`` to draw from, for
    a search that samples the same view many times (the game works out what does not depend
    on chance once: :meth:`Game.determinizer`). Checks the view now.

    >>> import sengoku
    >>> from sengoku.core import Rng
    >>> view = sengoku.new_match("shitenno", 3, seed=1).view(0)
    >>> sample = determinizer(view)
    >>> sample(Rng(5)).view(0) == determinize(view, Rng(5)).view(0) == view
    True
    """
    try:
        game = get_game(view["game"])
        seat = view["seat"]
        players = view["players"]
        options = parse_options(game.options_type, view["options"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a seat's view from Match.view: missing {exc}") from None
    if seat is None:
        raise ValueError("a spectator's view cannot be determinized; use a seat's view")
    state_of = game.determinizer(dict(view))

    def sample(rng: Rng) -> Match:
        state = state_of(rng)
        return Match(game, players, options, None, state, rng.spawn())

    return sample
