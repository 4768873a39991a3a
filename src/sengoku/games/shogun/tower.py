"""The cube tower: its own component with cube identities, a tray and a pluggable model.

Cubes are counted per owner: index ``0 .. players-1`` for the player colours and index
``players`` (:attr:`Tower.peasant`) for the green peasant cubes. Cubes inside the tower lie on
shelves (``inside[level][owner]``); cubes that came out and belong to nobody in the current battle
wait in the ``tray`` and are thrown again with the next battle (rules §9.2).

No measured statistics of the real tower exist (rules §15); three published models are offered,
seeded from the match's :class:`~sengoku.core.Rng`:

* ``sbw`` (default, SpielByWeb as described on BGDF): a thrown cube comes out with p = 2/3, each
  cube already stuck comes out with p = 1/3 per throw.
* ``imr`` (after the Imrihil Java port): 2 shelves; each passing cube is caught by a shelf with
  p = 3/20; each cube lying on a shelf is knocked down one level with p = 1/40 for every cube
  that passes that shelf. **This is a simplification of [IMR], not a copy**: [IMR] rolls the
  1/40 knock for every cube *arriving* at a shelf (also for a cube that is then caught there),
  and a cube caught earlier in the same throw can already be knocked down by later arrivals.
  Here a shelf first catches from the whole falling group, then only the cubes that passed roll
  against the cubes that lay there *before* this throw. Knocks are therefore somewhat rarer
  than in [IMR] (about 15 % fewer rolls per shelf, none against cubes caught in the same
  throw); the pass-through rate of a thrown cube, 0.85², is the same.
* ``wos`` (WallensteinOnline): priming lets 70 % out; in battles a thrown cube comes out with
  p = 0.5 and each stuck cube with p = 0.6.

>>> from sengoku.core import Rng
>>> t = Tower(players=4, model=MODELS["sbw"])
>>> t.prime([7, 7, 7, 7, 10], Rng(1)) == [7 - n for n in t.contents()[:4]] + [10 - t.contents()[4]]
True
>>> inside = sum(t.contents())
>>> out = t.throw([5, 3, 0, 0, 0], Rng(2))
>>> sum(out) + sum(t.contents()) == 5 + 3 + inside
True
"""

from __future__ import annotations

from collections.abc import Callable

from sengoku.core import Rng


def _bern(n: int, p: float, rnd: Callable[[], float]) -> int:
    """How many of ``n`` independent trials with probability ``p`` succeed."""
    k = 0
    for _ in range(n):
        if rnd() < p:
            k += 1
    return k


class TowerModel:
    """How cubes pass through the tower. Subclass and override :meth:`drop` for a new model.

    Attributes:
        name: the option value.
        levels: the number of shelves the model keeps track of.
    """

    name = "base"
    levels = 1

    def drop(
        self, inside: list[list[int]], falling: list[int], rng: Rng, priming: bool
    ) -> list[int]:
        """Drop ``falling`` (counts per owner) into the tower; change ``inside`` in place and
        return the counts per owner that come out into the tray."""
        raise NotImplementedError


class SimpleModel(TowerModel):
    """One shelf: thrown cubes pass with ``p_pass``, stuck cubes are released with ``p_release``."""

    def __init__(self, name: str, p_pass: float, p_release: float, p_prime: float) -> None:
        self.name = name
        self.p_pass = p_pass
        self.p_release = p_release
        self.p_prime = p_prime

    def drop(
        self, inside: list[list[int]], falling: list[int], rng: Rng, priming: bool
    ) -> list[int]:
        shelf = inside[0]
        rnd = rng.random
        p = self.p_prime if priming else self.p_pass
        out = []
        for owner, n in enumerate(falling):
            passed = _bern(n, p, rnd)
            stuck = shelf[owner]
            released = _bern(stuck, self.p_release, rnd) if stuck else 0
            shelf[owner] = stuck + n - passed - released
            out.append(passed + released)
        return out


class ShelfModel(TowerModel):
    """Several shelves that catch passing cubes and are knocked loose by them ([IMR])."""

    def __init__(self, name: str, levels: int, p_catch: float, p_knock: float) -> None:
        self.name = name
        self.levels = levels
        self.p_catch = p_catch
        self.p_knock = p_knock

    def drop(
        self, inside: list[list[int]], falling: list[int], rng: Rng, priming: bool
    ) -> list[int]:
        rnd = rng.random
        falling = list(falling)
        for shelf in inside:
            caught = [_bern(n, self.p_catch, rnd) for n in falling]
            passing = sum(falling) - sum(caught)
            p_loose = 1.0 - (1.0 - self.p_knock) ** passing
            for owner in range(len(falling)):
                knocked = _bern(shelf[owner], p_loose, rnd) if shelf[owner] and passing else 0
                shelf[owner] += caught[owner] - knocked
                falling[owner] += knocked - caught[owner]
        return falling


MODELS: dict[str, TowerModel] = {
    "sbw": SimpleModel("sbw", 2 / 3, 1 / 3, 2 / 3),
    "imr": ShelfModel("imr", 2, 3 / 20, 1 / 40),
    "wos": SimpleModel("wos", 0.5, 0.6, 0.7),
}


class Tower:
    """The tower and its tray for one match; cheap to copy.

    Args:
        players: number of player colours (the peasants take the next index).
        model: how cubes pass (see :data:`MODELS`).
    """

    __slots__ = ("flow", "inside", "last_throw", "model", "peasant", "tray")

    def __init__(self, players: int, model: TowerModel) -> None:
        self.model = model
        self.peasant = players
        self.inside: list[list[int]] = [[0] * (players + 1) for _ in range(model.levels)]
        self.tray: list[int] = [0] * (players + 1)
        #: per owner: cubes that went into the tower minus cubes that came out, over all
        #: throws since priming (public: every cube thrown and every cube emerging is seen)
        self.flow: list[int] = [0] * (players + 1)
        #: the latest battle throw: (cubes thrown per owner, tray included; cubes that came
        #: out), both public; for the battle records of the views
        self.last_throw: tuple[list[int], list[int]] | None = None

    def clone(self) -> Tower:
        """An independent copy."""
        t = Tower(self.peasant, self.model)  # not Tower.__new__: compiled, that runs __init__
        t.inside = [level.copy() for level in self.inside]
        t.tray = self.tray.copy()
        t.flow = self.flow.copy()
        t.last_throw = self.last_throw  # never changed in place
        return t

    def contents(self) -> list[int]:
        """Cubes inside the tower per owner (all shelves together)."""
        total = [0] * (self.peasant + 1)
        for level in self.inside:
            for owner, n in enumerate(level):
                total[owner] += n
        return total

    def prime(self, thrown: list[int], rng: Rng) -> list[int]:
        """Throw the priming cubes (rules §2.5); return what came out (it goes back to supply)."""
        return self.model.drop(self.inside, thrown, rng, True)

    def throw(self, thrown: list[int], rng: Rng) -> list[int]:
        """Throw ``thrown`` together with every cube in the tray; return all cubes that came out.

        The tray is emptied; the caller decides which emerged cubes count and puts the others
        back with :meth:`leave_in_tray`.
        """
        falling = [a + b for a, b in zip(thrown, self.tray, strict=True)]
        self.tray = [0] * len(self.tray)
        out = self.model.drop(self.inside, falling, rng, False)
        flow = self.flow
        for o, n in enumerate(falling):
            flow[o] += n - out[o]
        self.last_throw = (falling, list(out))
        return out

    def leave_in_tray(self, owner: int, n: int) -> None:
        """Leave ``n`` emerged cubes of ``owner`` in the tray for the next battle."""
        self.tray[owner] += n

    def set_contents(self, counts: list[int]) -> None:
        """Put ``counts`` cubes per owner inside (on the lowest shelf); for sampling states."""
        for level in self.inside:
            for owner in range(len(level)):
                level[owner] = 0
        self.inside[-1][:] = counts
