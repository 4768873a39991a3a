"""A fixed integer action space and fixed-size observations for every game, for research.

The notations of a game's actions are no action space a learning agent can use: a Shitenno
payment or lot is spelled out whole, so the distinct notations keep growing with every game
played. Instead each game declares a small, fixed **vocabulary** of action *tokens* for a
player count and options (:meth:`Game.action_vocabulary`), and spells each legal action as a
short sequence of them (:meth:`Game.action_tokens`): a Shitenno payment is its troop kinds,
koku values and tiles, ended by a confirm token. An action then is a walk down a prefix tree
built from the seat's legal actions (:class:`TokenTree`), and every step offers a bounded set
of integer ids, the tokens' places in the vocabulary.

Rules the game's spelling must follow, checked by the conformance suite:

* every token is in the vocabulary, and the vocabulary depends only on the player count and
  the options;
* among one seat's legal actions at one moment, no two spell the same and none spells a
  prefix of another (end a spelling that could go on with a closing token).

:class:`Decision` walks one seat through one action token by token; where the tree leaves only
one way on, it follows it without asking (``skip_forced``), so that an agent is only asked
real questions.

>>> import sengoku
>>> match = sengoku.new_match("shitenno", 2, seed=1)
>>> space = ActionSpace.of(match)
>>> seat = match.to_act()[0]
>>> decision = Decision(space, match, seat)
>>> all(0 <= i < space.size for i in decision.legal_ids())
True
>>> action = None
>>> while action is None:
...     action = decision.choose(decision.legal_ids()[0])
>>> action in match.legal_actions(seat)
True

Observations: :meth:`Game.observation_tensor` turns one seat's view into a flat list of floats
in [0, 1] whose length is fixed by :meth:`Game.observation_shape` for a player count and
options. It reads the view only, so it cannot hold anything the seat may not know.

A game may also give its tensor as :class:`TensorParts` (:meth:`Game.observation_parts`):
parts laid end to end, each a function of a context made from the view. Then an encoder that
keeps a seat's tensor from one step to the next (the research adapters') makes again only the
parts whose inputs changed; the game's ``observation_tensor`` is :meth:`TensorParts.tensor`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import SengokuError

if TYPE_CHECKING:
    from .match import Match


class EncodingError(SengokuError, ValueError):
    """A game's action spelling or observation breaks the rules of :mod:`encoding`."""


class _Leaf:
    """A complete spelling: the legal action it stands for."""

    __slots__ = ("action",)

    def __init__(self, action: Any) -> None:
        self.action = action


class ActionSpace:
    """The fixed integer action space of one game for one player count and options.

    Ids are places in :attr:`tokens`, the game's vocabulary.

    >>> import sengoku
    >>> space = ActionSpace.of(sengoku.new_match("shogun", 4, seed=1))
    >>> space.size == len(space.tokens) and space.id(space.tokens[3]) == 3
    True
    """

    __slots__ = ("_ids", "game", "players", "tokens")

    def __init__(self, game: Any, players: int, options: Any) -> None:
        self.game = game
        self.players = players
        self.tokens: tuple[str, ...] = tuple(game.action_vocabulary(players, options))
        self._ids = {token: i for i, token in enumerate(self.tokens)}
        if len(self._ids) != len(self.tokens):
            repeated = sorted({t for t in self.tokens if self.tokens.count(t) > 1})
            raise EncodingError(f"{game.name}'s action vocabulary repeats {repeated[:5]}")

    @classmethod
    def of(cls, match: Match) -> ActionSpace:
        """The action space of ``match``'s game, player count and options."""
        return cls(match.game, match.players, match.options)

    @property
    def size(self) -> int:
        """The number of ids (the vocabulary's size)."""
        return len(self.tokens)

    def id(self, token: str) -> int:
        """The id of a token by name."""
        try:
            return self._ids[token]
        except KeyError:
            raise EncodingError(
                f"{token!r} is not in {self.game.name}'s action vocabulary"
            ) from None

    def encode(self, match: Match, seat: int, action: Any) -> tuple[int, ...]:
        """The ids that spell ``action`` (one of ``seat``'s legal actions now)."""
        tokens = self.game.action_tokens(match.state, seat, action)
        if not tokens:
            raise EncodingError(f"{self.game.name} spells {str(action)!r} with no tokens")
        return tuple(self.id(t) for t in tokens)

    def tree(self, match: Match, seat: int) -> TokenTree:
        """The prefix tree of ``seat``'s legal actions now."""
        return TokenTree(self, match, seat)


class TokenTree:
    """The prefix tree of one seat's legal actions at one moment, spelled in ids.

    Raises :class:`EncodingError` if two legal actions spell the same or one spells a prefix
    of another.
    """

    __slots__ = ("root",)

    def __init__(self, space: ActionSpace, match: Match, seat: int) -> None:
        self.root: dict[int, Any] = {}
        for action in match.legal_actions(seat):
            ids = space.encode(match, seat, action)
            node = self.root
            for place, token in enumerate(ids):
                child = node.get(token)
                last = place == len(ids) - 1
                if isinstance(child, _Leaf) or (child is not None and last):
                    other = child.action if isinstance(child, _Leaf) else "a longer action"
                    raise EncodingError(
                        f"{space.game.name}: {str(action)!r} and {str(other)!r} spell "
                        f"{[space.tokens[i] for i in ids[: place + 1]]} alike"
                    )
                if last:
                    node[token] = _Leaf(action)
                else:
                    node = node.setdefault(token, {})

    def node(self, prefix: Sequence[int]) -> dict[int, Any]:
        """The subtree under ``prefix`` (ids chosen so far); raises ``KeyError`` off the tree."""
        node = self.root
        for token in prefix:
            child = node[token]
            if isinstance(child, _Leaf):
                raise KeyError(token)
            node = child
        return node

    def actions(self) -> int:
        """How many legal actions the tree spells."""
        count, stack = 0, [self.root]
        while stack:
            for child in stack.pop().values():
                if isinstance(child, _Leaf):
                    count += 1
                else:
                    stack.append(child)
        return count


class Decision:
    """One seat choosing one action, token by token.

    Args:
        space: the game's :class:`ActionSpace`.
        match: the match, as it is now; the decision is stale once anybody acts on it.
        seat: a seat in ``match.to_act()``.
        skip_forced: after each choice, follow the tree while it leaves only one way on.
    """

    __slots__ = ("_node", "prefix", "seat", "skip_forced", "tree")

    def __init__(
        self, space: ActionSpace, match: Match, seat: int, skip_forced: bool = True
    ) -> None:
        self.seat = seat
        self.skip_forced = skip_forced
        self.tree = space.tree(match, seat)
        if not self.tree.root:
            raise EncodingError(f"seat {seat} has no legal action to choose")
        self.prefix: list[int] = []
        self._node: dict[int, Any] = self.tree.root

    def legal_ids(self) -> list[int]:
        """The ids that may come next, in increasing order."""
        return sorted(self._node)

    def choose(self, token: int) -> Any | None:
        """Take ``token`` next; return the legal action once the spelling is complete.

        Raises :class:`EncodingError` (changing nothing) for an id that may not come next.
        """
        try:
            index = -1 if isinstance(token, bool) else operator.index(token)
        except TypeError:
            index = -1
        child = self._node.get(index)
        if child is None:
            raise EncodingError(
                f"id {token!r} may not come next; the legal ids are {self.legal_ids()}"
            )
        token = index
        self.prefix.append(token)
        while True:
            if isinstance(child, _Leaf):
                return child.action
            self._node = child
            if not self.skip_forced or len(child) != 1:
                return None
            ((token, child),) = child.items()
            self.prefix.append(token)

    def replay(self, prefix: Sequence[int]) -> None:
        """Stand where another decision on the same legal actions stands after ``prefix``.

        ``prefix`` is that decision's :attr:`prefix` (forced ids included), not yet complete.
        """
        try:
            self._node = self.tree.node(prefix)
        except (KeyError, TypeError):
            raise EncodingError(f"{list(prefix)} is no unfinished spelling here") from None
        self.prefix = list(prefix)


def check_observation(values: Sequence[float], shape: Sequence[int], game: str) -> None:
    """Raise :class:`EncodingError` unless ``values`` fill ``shape`` with numbers in [0, 1]."""
    size = math.prod(shape)
    if len(values) != size:
        raise EncodingError(f"{game}'s observation has {len(values)} values, not {size}")
    if size and min(values) >= 0.0 and max(values) <= 1.0 and not math.isnan(sum(values)):
        return  # the common case, at the speed of builtins
    for place, value in enumerate(values):
        if not 0.0 <= value <= 1.0:
            raise EncodingError(f"{game}'s observation holds {value!r} at {place}, not in [0, 1]")


class TensorPart(NamedTuple):
    """One part of an observation tensor: ``size`` floats from the context of a view.

    ``encode`` gives them as a sequence of ``size`` floats, or with ``sparse`` as a dict of
    the places (from 0) that are not 0 and their values, for a part that is mostly 0s (a
    one-hot of many places), which the research adapters then write in fewer steps.
    """

    name: str
    size: int
    encode: Callable[[Any], Any]
    sparse: bool = False

    def dense(self, values: Any) -> Sequence[float]:
        """What :attr:`encode` gave, as ``size`` floats."""
        if not self.sparse:
            return values  # type: ignore[no-any-return]
        out = [0.0] * self.size
        for place, value in values.items():
            if not 0 <= place < self.size:
                raise EncodingError(f"part {self.name} has no place {place}")
            out[place] = value
        return out


class TensorParts(NamedTuple):
    """An observation tensor as parts laid end to end (see the module docs).

    ``context(view)`` makes what the parts share (the viewer's seat order, say); each part
    reads the view only through it, by its keys (``view[key]``, ``view.get``, ``key in
    view``), so that the keys a part read say when its values may have changed. With
    ``clamp``, values past 1 read 1.

    >>> parts = TensorParts(
    ...     context=lambda view: view,
    ...     parts=(
    ...         TensorPart("year", 1, lambda v: [v["year"] / 3]),
    ...         TensorPart("gold", 2, lambda v: [v["gold"] / 10, float(v["gold"] > 0)]),
    ...     ),
    ... )
    >>> parts.tensor({"year": 3, "gold": 5}), parts.size
    ([1.0, 0.5, 1.0], 3)
    """

    context: Callable[[Mapping[str, Any]], Any]
    parts: tuple[TensorPart, ...]
    clamp: bool = False

    @property
    def size(self) -> int:
        """The tensor's length: the parts' sizes summed."""
        return sum(part.size for part in self.parts)

    def tensor(self, view: Mapping[str, Any]) -> list[float]:
        """The whole tensor of ``view``, part after part; raises :class:`EncodingError` for a
        part of the wrong size."""
        context = self.context(view)
        out: list[float] = []
        for part in self.parts:
            values = part.dense(part.encode(context))
            if len(values) != part.size:
                raise EncodingError(f"part {part.name} has {len(values)} values, not {part.size}")
            out += values
        if self.clamp and out and max(out) > 1.0:  # seldom: clamp only then
            out = [x if x < 1.0 else 1.0 for x in out]
        return out
