"""The protocol every game implements.

A game is a stateless rules object: a subclass of :class:`Game` that creates, inspects and
changes *state* objects of its own. :class:`~sengoku.core.match.Match` (the authority) owns
the state, the seeded :class:`~sengoku.core.rng.Rng` and the record, validates every action
against :meth:`Game.legal_actions` before :meth:`Game.apply` sees it, and builds every
seat's view with :meth:`Game.view`. A game does no I/O.

Actions are small immutable, hashable values (a ``NamedTuple`` is ideal) whose ``str()`` is
their *notation*: short text a person can read in a log and type at a prompt. Among one
seat's legal actions at one moment, no two actions share a notation, so a record can store
notation and replay it exactly.

See ``docs/adding-a-game.md`` for a walk through a complete game.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

import msgspec

from .errors import IllegalActionError
from .messages import Message, _make
from .options import GameOptions
from .outcome import Outcome
from .rng import Rng

if TYPE_CHECKING:
    from .encoding import TensorParts
    from .tutorial import Tutorial

#: An action: any hashable value whose ``str()`` is its notation.
Action = Hashable
S = TypeVar("S")
A = TypeVar("A", bound=Hashable)

_SPACE = re.compile(r"\s+")


def normalize_notation(text: str) -> str:
    """The form in which two notations are compared: trimmed, single spaces, case-folded.

    >>> normalize_notation("  Offer  Lot 2 ")
    'offer lot 2'
    """
    return _SPACE.sub(" ", text.strip()).casefold()


def action_to_json(action: Any) -> dict[str, Any]:
    """An action as structured JSON data: its notation, its kind and its fields.

    Clients may send this form (or just the notation) to act; see ``docs/protocol.md``.

    >>> class Bid(NamedTuple):
    ...     amount: int
    ...     def __str__(self) -> str:
    ...         return f"bid {self.amount}"
    >>> action_to_json(Bid(3))
    {'notation': 'bid 3', 'name': 'Bid', 'args': {'amount': 3}}
    """
    fields = action._asdict() if hasattr(action, "_asdict") else {}
    args = msgspec.json.decode(msgspec.json.encode(fields))
    return {"notation": str(action), "name": type(action).__name__, "args": args}


def without_sources(value: Any) -> Any:
    """A copy of JSON-like data without its ``source`` notes (keys ending in ``source``).

    >>> without_sources({"name": "Owari", "source": "§14.1", "tags": [{"a_source": 1, "b": 2}]})
    {'name': 'Owari', 'tags': [{'b': 2}]}
    """
    if isinstance(value, dict):
        return {k: without_sources(v) for k, v in value.items() if not k.endswith("source")}
    if isinstance(value, list | tuple):
        return [without_sources(v) for v in value]
    return value


class LogEntry(NamedTuple):
    """One line of a match's log.

    ``message`` is a :class:`~sengoku.core.messages.Message` (a catalog key and its
    arguments, rendered in the reader's language) or, for a game without a catalog, plain
    text. ``seats`` is ``None`` for a line everyone may read, or the seats that may read it
    (for example only the seat that drew a secret card).
    """

    message: Message | str
    seats: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may read this line."""
        return self.seats is None or (seat is not None and seat in self.seats)


def public(message: Message | str) -> LogEntry:
    """A log line everyone may read."""
    return _make(LogEntry, (message, None))  # LogEntry(message), made faster


def private(message: Message | str, *seats: int) -> LogEntry:
    """A log line only ``seats`` may read."""
    return _make(LogEntry, (message, frozenset(seats)))


class Gauge(NamedTuple):
    """One term of a seat's position as the game's own evaluation counts it: what an
    advisor names as the reason for a move ("Kyoto: +4 VP").

    ``key`` tells the same term apart in two positions; ``label`` is a message whose ``{d}``
    placeholder the advisor fills with a change of ``value`` (``"{p}: {d} VP"``).
    ``weight`` turns ``value`` into points of :meth:`Game.estimate`: the weighted gauges
    of a seat add up to its estimate, and a gauge of weight 0 is a fact shown beside them
    (a Force margin).
    """

    key: str
    label: Message
    value: float
    weight: float = 1.0


class Game(ABC, Generic[S, A]):
    """The rules of one game, as a stateless object.

    Subclasses set the class attributes and implement the abstract methods; everything a
    client uses goes through :class:`~sengoku.core.match.Match`.

    Class attributes:
        name: the registry name, lower case (``"shitenno"``).
        title: the name people know (``"Shitenno"``).
        player_counts: the numbers of players the game supports.
        options_type: the :class:`GameOptions` subclass that declares the game's options.
        option_sets: the option sets the conformance suite plays besides the defaults;
            name every set of options that changes how the game runs.
        catalog: the English templates and terms of the game's messages (its log lines
            and action descriptions, see :mod:`sengoku.core.messages`), by key; the
            translations are catalogs with the same keys.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options_type: ClassVar[type[GameOptions]] = GameOptions
    option_sets: ClassVar[tuple[dict[str, Any], ...]] = ()
    catalog: ClassVar[Mapping[str, str]] = {}

    # -- creating and copying states -------------------------------------------------

    @abstractmethod
    def setup(self, players: int, options: Any, rng: Rng) -> S:
        """Return the initial state for ``players`` seats (0-based) and validated ``options``."""

    def initial_log(self, state: S) -> Sequence[LogEntry]:
        """The log lines of the set-up (for example each seat's secret starting hand)."""
        return ()

    @abstractmethod
    def clone(self, state: S) -> S:
        """Return an independent copy of ``state``; it must be cheap (no ``deepcopy``)."""

    # -- playing ---------------------------------------------------------------------

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """The seats that may act now, in seat order; ``[]`` once the game is over.

        Several seats during a simultaneous secret choice: each submits in any order and
        nothing is revealed until the last one has.
        """

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]:
        """Every legal action of ``seat`` now, in a stable order (empty if it may not act)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A, rng: Rng) -> Sequence[LogEntry]:
        """Carry out a legal action in place and return the log lines it produced.

        The match has already checked that ``seat`` may act and that ``action`` is legal;
        ``apply`` must not fail for such an action. Draw chance only from ``rng``.
        """

    def apply_quietly(self, state: S, seat: int, action: A, rng: Rng) -> None:
        """:meth:`apply` for a search's playout, which throws the log away: a game may skip
        making its log lines here, but must change the state and draw from ``rng`` exactly as
        :meth:`apply` does (the conformance suite checks it). By default :meth:`apply`."""
        self.apply(state, seat, action, rng)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` until the game is over, then its :class:`Outcome`."""

    # -- information -----------------------------------------------------------------

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-ready data (``None``: a spectator).

        Use only ``dict`` with ``str`` keys, ``list``, ``str``, ``int``, ``float``, ``bool``
        and ``None``, so that the view survives a JSON round trip unchanged. The view must
        not depend on another seat's secrets, and must hold all that seat may know, so
        that :meth:`determinize` can rebuild a full state from it. The keys ``game``,
        ``players``, ``options``, ``seat`` and ``to_act`` are added by the match.
        """

    def views(self, state: S, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The :meth:`view` of each of ``seats``, in order: what a server shows one position
        to several seats with. A game may make the parts all seats see alike once and share
        them (the same objects) between the views of one call, so never change these views;
        each must equal, as JSON, the seat's own :meth:`view`. By default, one view at a
        time."""
        return [self.view(state, seat) for seat in seats]

    @abstractmethod
    def determinize(self, view: dict[str, Any], rng: Rng) -> S:
        """Sample a full state consistent with ``view`` (a seat's view, as :meth:`view` made it).

        Unknown parts (other seats' hands and secret choices, the order of face-down decks)
        are drawn from ``rng``. The result's view for the same seat equals ``view``. Agents
        search over such states; they never see the true one.
        """

    def determinizer(self, view: dict[str, Any]) -> Callable[[Rng], S]:
        """:meth:`determinize` for this one ``view``, as a function of the ``rng`` to draw
        from: a search samples one view hundreds of times, so a game may work out once what
        does not depend on chance (the public board) and copy it for each sample. Each call
        must give what :meth:`determinize` gives from the same ``rng`` state, drawing the
        same numbers. By default it is :meth:`determinize` itself."""
        return lambda rng: self.determinize(view, rng)

    @abstractmethod
    def vary_secrets(self, state: S, seat: int, rng: Rng) -> S:
        """Return a copy of ``state`` with everything hidden from ``seat`` redrawn.

        Used by the conformance suite to prove that ``seat``'s view does not depend on the
        secrets of others: the copy must differ from ``state`` only in what ``seat`` may not
        know (other hands, pending secret choices, face-down order), and stay a legal state.
        """

    # -- hooks for agents ---------------------------------------------------------------

    def policy(self, state: S, seat: int, legal: Sequence[A], rng: Rng) -> A | None:
        """A quick heuristic choice among ``legal`` for ``seat``, or ``None`` for none.

        Used by the heuristic agent (on a state sampled from its view) and by search
        playouts. It may read only what ``seat`` could know; on a sampled state anything
        else is a guess anyway. Draw chance only from ``rng``.
        """
        return None

    def evaluate(self, state: S) -> Sequence[float] | None:
        """Each seat's estimated share of a win from here (about 1 in all), or ``None``.

        Search agents use it where they cut a playout short.
        """
        return None

    def estimate(self, state: S) -> Sequence[float] | None:
        """Each seat's estimated final score from here, or ``None``.

        Search agents that weigh points as well as wins use it where they cut a playout short.
        """
        return None

    def gauges(self, state: S, seat: int) -> Sequence[Gauge]:
        """The terms of ``seat``'s position (see :class:`Gauge`), read as :meth:`policy`
        reads a state (on a sample, only what the seat could know matters). By default
        one term: the seat's :meth:`estimate`, if the game has one."""
        estimate = self.estimate(state)
        if estimate is None:
            return ()
        return (Gauge("estimate", _make(Message, ("ui.gauge.estimate", {})), estimate[seat]),)

    # -- research encodings (see :mod:`sengoku.core.encoding`) ---------------------------

    def action_vocabulary(self, players: int, options: Any) -> Sequence[str]:
        """The names of the game's action tokens for ``players`` and validated ``options``.

        Fixed for a player count and options: a token's place in it is its integer id in
        every decision. Keep it small (at most a few hundred).
        """
        raise NotImplementedError(f"{self.title} declares no action tokens")

    def action_tokens(self, state: S, seat: int, action: A) -> Sequence[str]:
        """The tokens that spell ``action``, one of ``seat``'s legal actions in ``state``.

        Among one seat's legal actions at one moment no two spell the same and none spells
        a prefix of another.
        """
        raise NotImplementedError(f"{self.title} declares no action tokens")

    def observation_shape(self, players: int, options: Any) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor`, fixed for a player count and options."""
        raise NotImplementedError(f"{self.title} declares no observation tensor")

    def observation_tensor(self, view: dict[str, Any]) -> list[float]:
        """One seat's view (as :meth:`Match.view` gives it) as a flat list of floats in [0, 1].

        Its length is the product of :meth:`observation_shape`; it reads the view only.
        """
        raise NotImplementedError(f"{self.title} declares no observation tensor")

    def observation_parts(self, players: int, options: Any) -> TensorParts | None:
        """The observation tensor as parts (:class:`~sengoku.core.encoding.TensorParts`),
        whose :meth:`~sengoku.core.encoding.TensorParts.tensor` is :meth:`observation_tensor`
        for ``players`` and ``options``; ``None`` (the default) where the game gives the
        tensor whole only."""
        return None

    # -- notation and presentation -----------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """The name of a seat in logs and menus (games use their player colours)."""
        return f"seat {seat}"

    def action_message(self, action: A) -> Message | str:
        """How a person reads ``action`` in a replay or a history: a message rendered from
        the catalog (:mod:`sengoku.core.messages`). Default: its notation."""
        return str(action)

    def parse_action(self, state: S, seat: int, text: str) -> A:
        """Read the notation of one of ``seat``'s legal actions.

        The default compares :func:`normalize_notation` forms with every legal action; a
        game may override it to accept abbreviations.
        """
        wanted = normalize_notation(text)
        legal = self.legal_actions(state, seat)
        for action in legal:
            if normalize_notation(str(action)) == wanted:
                return action
        listing = "; ".join(str(a) for a in legal[:12])
        more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
        raise IllegalActionError(
            seat,
            text,
            f"{text!r} is not a legal action for {self.seat_name(seat)} now; "
            f"legal actions: {listing}{more}",
        )

    def explain_illegal(self, state: S, seat: int, action: Any) -> str | None:
        """Optionally say why ``action`` is not legal for ``seat`` now (a rule, in words)."""
        return None

    def client_data(self) -> dict[str, Any]:
        """The game's public, unchanging facts a client needs to draw it (names, tables, the
        board's graph), JSON-serialisable; served at ``/api/games/<name>``. Default: none."""
        return {}

    def tutorial(self) -> Tutorial | None:
        """The game's tutorial (:mod:`sengoku.core.tutorial`): read once from the data folder
        ``data/tutorial/`` beside the game's package and checked; ``None`` if there is none."""
        from .tutorial import load_tutorial

        return load_tutorial(self)

    def render_text(self, view: dict[str, Any]) -> str | None:
        """Optionally render a view as text for the terminal; ``None`` prints the JSON."""
        return None
