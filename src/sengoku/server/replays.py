"""The positions a replay of a finished match steps through (``GET .../replay/{n}``).

Replaying a match's first *n* actions for every step would make stepping through a match
quadratic. :class:`Replays` keeps, for the matches replayed most recently, the latest position
asked for and one position every ``every`` actions: the next step costs one action, a step
back fewer than ``every``, a jump the actions from the nearest kept position before it.

Positions are never changed once kept (each step goes on from a clone), so a request reads
the position it got while another request steps on from it in another thread.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from sengoku.core import Match

__all__ = ["Replays"]


@dataclass(eq=False)
class _Positions:
    """One match's kept positions, by the number of actions taken."""

    every: dict[int, Match] = field(default_factory=dict)  # at multiples of ``Replays.every``
    latest: Match | None = None


class Replays:
    """Kept positions of the ``matches`` finished matches replayed most recently.

    >>> import sengoku
    >>> final = sengoku.new_match("shitenno", 3, seed=1)
    >>> for _ in range(5):
    ...     seat = final.to_act()[0]
    ...     final.act(seat, final.legal_actions(seat)[0])
    >>> replays = Replays(matches=2, every=2)
    >>> replays.position("m1", final, 3).view(None) == final.replayed(3).view(None)
    True
    >>> len(replays.position("m1", final, 4).history)
    4
    """

    def __init__(self, matches: int = 32, every: int = 50) -> None:
        self.matches = matches
        self.every = every
        self._kept: OrderedDict[str, _Positions] = OrderedDict()
        self._lock = threading.Lock()  # guards ``_kept``; steps are taken outside it

    def position(self, match_id: str, final: Match, number: int) -> Match:
        """``final`` (the finished match ``match_id``) as it stood after its first
        ``number`` actions; read it, never act on it. Call it in a worker thread: a position
        no kept one is near takes many actions."""
        with self._lock:
            kept = self._kept.pop(match_id, None) or _Positions()
            self._kept[match_id] = kept  # now the most recent
            while len(self._kept) > self.matches:
                self._kept.popitem(last=False)
            kept_now = [*kept.every.values(), kept.latest]
        behind = [m for m in kept_now if m is not None and len(m.history) <= number]
        base = max(behind, key=lambda m: len(m.history), default=None)
        if base is not None and len(base.history) == number:
            return base
        match = (
            base.clone()
            if base is not None
            else Match.new(final.game, final.players, final.seed, final.options)
        )
        found: dict[int, Match] = {}
        for seat, action in final.history[len(match.history) : number]:
            match.act(seat, action)
            done = len(match.history)
            if done % self.every == 0:  # kept as it is now; the walk goes on in a clone
                found[done] = match if done == number else match.clone()
        with self._lock:
            kept.every.update(found)
            kept.latest = match
        return match
