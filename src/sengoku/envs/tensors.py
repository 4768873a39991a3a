"""A seat's observation tensor kept from one step to the next, its parts made again only
when what they read has changed (numpy: the ``pettingzoo`` or ``openspiel`` extra).

A game that gives its tensor as :class:`~sengoku.core.TensorParts` lets
:class:`KeptTensor` watch which keys of the view each part reads while it is made (the
context's reads count for every part). At the next view, the keys whose values differ from
the last view's are compared with each part's reads: a part that read none of them would
read the same values, take the same branches and give the same floats, so it is left as it
is. Parts are pure functions of their reads, which makes this exact, not approximate: the
conformance suite compares the kept tensor with the whole one at every step of whole games.

>>> import numpy as np
>>> import sengoku
>>> from sengoku.envs.tensors import KeptTensor
>>> def whole(view):
...     return np.array(match.game.observation_tensor(view), dtype=np.float32)
>>> match = sengoku.new_match("rising_sun", 3, seed=1)
>>> parts = match.game.observation_parts(3, match.options)
>>> kept = KeptTensor(parts)
>>> view = match.view(0)
>>> np.array_equal(kept.update(view), whole(view))
True
>>> kept.made == len(parts.parts)                   # the first view: every part
True
>>> seat = match.to_act()[0]
>>> match.act(seat, match.legal_actions(seat)[0])
>>> view = match.view(0)
>>> np.array_equal(kept.update(view), whole(view))
True
>>> kept.made < len(parts.parts)                    # then only those whose reads changed
True
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

import numpy as np

from sengoku.core import EncodingError, TensorParts

__all__ = ["KeptTensor"]

#: A read of the whole view (iterating it): the part is made again at any change.
_EVERYTHING = object()


class _Reads(dict[str, Any]):
    """A copy of a view that notes the keys read from it."""

    __slots__ = ("seen",)

    seen: set[Any]

    def __getitem__(self, key: str) -> Any:
        self.seen.add(key)
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self.seen.add(key)
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self.seen.add(key)
        return dict.__contains__(self, key)

    def __iter__(self) -> Any:
        self.seen.add(_EVERYTHING)
        return dict.__iter__(self)

    def keys(self) -> Any:
        self.seen.add(_EVERYTHING)
        return dict.keys(self)

    def values(self) -> Any:
        self.seen.add(_EVERYTHING)
        return dict.values(self)

    def items(self) -> Any:
        self.seen.add(_EVERYTHING)
        return dict.items(self)


class KeptTensor:
    """One seat's tensor of a game's :class:`~sengoku.core.TensorParts`, kept as float32
    between views; see the module docs.

    Attributes:
        made: how many parts the last :meth:`update` made (the others were kept).
    """

    __slots__ = (
        "_context_reads",
        "_last",
        "_offsets",
        "_packers",
        "_reads",
        "array",
        "made",
        "parts",
    )

    def __init__(self, parts: TensorParts) -> None:
        self.parts = parts
        self.array = np.zeros(parts.size, dtype=np.float32)
        offsets, offset = [], 0
        for part in parts.parts:
            offsets.append(offset)
            offset += part.size
        self._offsets = offsets
        # a dense part's floats as float64 bytes: about twice as fast as numpy's own reading
        # of a list of Python numbers
        self._packers = [struct.Struct(f"{part.size}d") for part in parts.parts]
        self._last: Mapping[str, Any] | None = None
        self._context_reads: set[Any] = set()
        self._reads: list[set[Any]] = [set() for _ in parts.parts]
        self.made = 0

    def update(self, view: Mapping[str, Any]) -> np.ndarray:
        """The tensor of ``view`` (this object's own array: copy it to keep it), made again
        where the parts' reads differ from the last view's. The view must not change after."""
        last, self._last = self._last, None  # none until done: a part that raised is made again
        self.made = 0
        if last is None:
            changed: set[Any] | None = None  # everything
        else:
            changed = {key for key, value in view.items() if last.get(key, _EVERYTHING) != value}
            if len(last) != len(view) or changed:
                changed.update(key for key in last if key not in view)
            if not changed:
                self._last = view
                return self.array
            changed.add(_EVERYTHING)
        reads = _Reads(view)
        reads.seen = set()
        context = self.parts.context(reads)
        everything = changed is None or not self._context_reads.isdisjoint(changed)
        self._context_reads = reads.seen
        array, clamp = self.array, self.parts.clamp
        for i, part in enumerate(self.parts.parts):
            if not everything and self._reads[i].isdisjoint(changed):  # type: ignore[arg-type]
                continue
            reads.seen = self._reads[i] = set()
            values = part.encode(context)
            start = self._offsets[i]
            piece = array[start : start + part.size]
            if part.sparse:
                piece.fill(0.0)
                if values:
                    count = len(values)
                    places = np.fromiter(values, dtype=np.intp, count=count)
                    if places.min() < 0:
                        part.dense(values)  # raises, naming the place
                    try:
                        piece[places] = np.fromiter(values.values(), np.float64, count=count)
                    except IndexError:
                        part.dense(values)  # raises, naming the place
                        raise
            elif len(values) != part.size:
                raise EncodingError(f"part {part.name} has {len(values)} values, not {part.size}")
            else:
                piece[:] = np.frombuffer(self._packers[i].pack(*values), dtype=np.float64)
            if clamp:
                np.minimum(piece, 1.0, out=piece)
            self.made += 1
        self._last = view
        return array
