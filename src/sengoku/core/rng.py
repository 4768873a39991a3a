"""The seeded random-number generator every match owns.

Chance in Sengoku comes only from an :class:`Rng` that the authority (a :class:`Match`)
owns and seeds. The same seed always gives the same numbers, on every platform and Python
version: the draws are built on the Mersenne Twister's ``getrandbits`` alone, whose output
for an integer seed Python keeps stable, not on ``random.shuffle`` or ``random.choice``,
whose algorithms may change between Python versions.

>>> rng = Rng(7)
>>> [rng.randbelow(6) for _ in range(5)]
[2, 1, 3, 5, 0]
>>> twin = rng.clone()
>>> rng.randbelow(1000) == twin.randbelow(1000)
True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Seeds drawn when none is given stay below 2**53 so that JavaScript clients read them exactly.
SEED_LIMIT = 2**53


def fresh_seed() -> int:
    """Return a new unpredictable seed in ``range(SEED_LIMIT)``."""
    return secrets.randbelow(SEED_LIMIT)


class Rng:
    """A seeded, cloneable source of randomness.

    Args:
        seed: a non-negative integer.
    """

    __slots__ = ("_bits", "_mt")

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a seed must be a non-negative integer, not {seed!r}")
        self._mt = random.Random(seed)
        self._bits = self._mt.getrandbits

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``range(n)``; ``n`` must be positive."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, not {n}")
        k = n.bit_length()
        bits = self._bits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def randint(self, low: int, high: int) -> int:
        """Return a uniform integer in ``[low, high]``, both ends included."""
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """Return a uniform float in ``[0, 1)`` with 53 random bits."""
        return self._bits(53) / 9007199254740992.0

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

    def spawn(self) -> Rng:
        """Return a new, independent generator seeded from this one (advances this one)."""
        return Rng(self._bits(64))

    def clone(self) -> Rng:
        """Return an identical, independent copy: both then produce the same numbers."""
        twin = Rng.__new__(Rng)
        twin._mt = random.Random()
        twin._mt.setstate(self._mt.getstate())
        twin._bits = twin._mt.getrandbits
        return twin
