"""The seeded random-number generator every match owns.

Chance in Sengoku comes only from an :class:`Rng` that the authority (a :class:`Match`)
owns and seeds. It is SplitMix64 (Steele, Lea and Flood, 2014), written out here so that
the same seed gives the same numbers on every platform and every Python version, for as long
as records are kept. Its whole state is one 64-bit integer, so a clone costs next to nothing,
which matters to search.

>>> rng = Rng(7)
>>> [rng.randbelow(6) for _ in range(5)]
[3, 0, 4, 3, 1]
>>> twin = rng.clone()
>>> rng.randbelow(1000) == twin.randbelow(1000)
True
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Seeds drawn when none is given stay below 2**53 so that JavaScript clients read them exactly.
SEED_LIMIT = 2**53
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def random_after(state: int, k: int) -> float:
    """What :meth:`Rng.random` returns as the ``k``-th draw (from 1) of a generator in
    ``state`` (see :meth:`Rng.skip`)."""
    return Rng((state + (k - 1) * _GAMMA) & _MASK).random()


def fresh_seed() -> int:
    """Return a new unpredictable seed in ``range(SEED_LIMIT)``."""
    return secrets.randbelow(SEED_LIMIT)


class Rng:
    """A seeded, cloneable source of randomness.

    Args:
        seed: a non-negative integer (taken modulo 2**64).
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a seed must be a non-negative integer, not {seed!r}")
        self._state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64 random bits as an integer."""
        z = self._state = (self._state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``range(n)``; ``n`` must be positive (at most 2**64)."""
        if not 0 < n <= 1 << 64:
            raise ValueError(f"randbelow needs a bound in 1..2**64, not {n}")
        shift = 64 - (n - 1).bit_length()
        r = self.next64() >> shift
        while r >= n:
            r = self.next64() >> shift
        return r

    def randint(self, low: int, high: int) -> int:
        """Return a uniform integer in ``[low, high]``, both ends included."""
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """Return a uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) / 9007199254740992.0

    def choice(self, seq: Sequence[T]) -> T:
        """Return a uniformly chosen element of a non-empty sequence."""
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle ``seq`` in place (Fisher-Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def skip(self, n: int) -> int:
        """Move past the next ``n`` draws of :meth:`next64` without working them out, and
        return the state before them, from which :func:`random_after` gives any of them
        later: for a caller that takes one number per candidate and looks at few of them
        (a tie-break), the stream moves on exactly as if it had drawn them all.

        >>> rng, twin = Rng(7), Rng(7)
        >>> before = rng.skip(3)
        >>> [random_after(before, k) for k in (1, 2, 3)] == [twin.random() for _ in range(3)]
        True
        >>> rng.getstate() == twin.getstate()
        True
        """
        before = self._state
        self._state = (before + n * _GAMMA) & _MASK
        return before

    def getstate(self) -> int:
        """The generator's whole state, an integer in ``range(2**64)``, for serializing.

        >>> rng = Rng(7)
        >>> saved = rng.getstate()
        >>> first = rng.next64()
        >>> rng.setstate(saved)
        >>> rng.next64() == first
        True
        """
        return self._state

    def setstate(self, state: int) -> None:
        """Restore a state from :meth:`getstate`."""
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= _MASK:
            raise ValueError(f"an Rng state is an integer in range(2**64), not {state!r}")
        self._state = state

    def spawn(self) -> Rng:
        """Return a new, independent generator seeded from this one (advances this one)."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        """Return an identical, independent copy: both then produce the same numbers."""
        return Rng(self._state)
