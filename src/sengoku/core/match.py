"""The authority over one game: state, seeded chance, validation, views and the record."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import IllegalActionError, RecordError, SetupError
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
        """An independent copy (state, chance, record and log): acting on it never changes this."""
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
        twin._legal = {}
        return twin

    # -- playing -------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        """The seats that may act now: several in a secret simultaneous choice, none at the end."""
        return self.game.to_act(self._state)

    def legal_actions(self, seat: int) -> list[Any]:
        """Every legal action of ``seat`` now; ``[]`` when it may not act."""
        self._check_seat(seat)
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = (
                self.game.legal_actions(self._state, seat) if seat in self.to_act() else []
            )
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
        self._legal_or_raise(seat, text)
        return self.game.parse_action(self._state, seat, text)

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, then its :class:`Outcome`."""
        return self.game.outcome(self._state)

    # -- information -----------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """All that ``seat`` may know as JSON-ready data; ``None`` gives a spectator's view."""
        if seat is not None:
            self._check_seat(seat)
        view = {
            "game": self.game.name,
            "players": self.players,
            "options": dict(self._options_json),
            "seat": seat,
            "to_act": self.to_act(),
        }
        view.update(self.game.view(self._state, seat))
        return view

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

    # -- internals -------------------------------------------------------------------------

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(
                None, None, f"there is no seat {seat!r} in this {self.players}-player match"
            )

    def _legal_or_raise(self, seat: int, action: Any) -> list[Any]:
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
    try:
        game = get_game(view["game"])
        seat = view["seat"]
        players = view["players"]
        options = parse_options(game.options_type, view["options"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a seat's view from Match.view: missing {exc}") from None
    if seat is None:
        raise ValueError("a spectator's view cannot be determinized; use a seat's view")
    state = game.determinize(dict(view), rng)
    return Match(game, players, options, None, state, rng.spawn())
