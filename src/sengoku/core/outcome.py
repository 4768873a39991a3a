"""How a finished match ended: scores, ranking and winners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished match.

    Attributes:
        scores: the final score of each seat, by seat number.
        ranks: each seat's place (1 = first); seats the rules leave tied share a place.
        ranking: the seats from first to last place (tied seats in seat order).
        winners: the seats in first place (more than one only when the rules leave a tie).

    >>> o = Outcome.from_scores([30, 42, 42], tiebreaks=[[0], [5], [3]])
    >>> o.ranking, o.winners, o.ranks
    ((1, 2, 0), (1,), (3, 1, 2))
    >>> Outcome.from_scores([7, 7]).winners
    (0, 1)
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[float],
        tiebreaks: Sequence[Sequence[float]] | None = None,
    ) -> Outcome:
        """Rank seats by score, then by each seat's tie-break values in order (higher is better)."""
        n = len(scores)
        keys = [(scores[s], *(tiebreaks[s] if tiebreaks is not None else ())) for s in range(n)]
        ranking = tuple(sorted(range(n), key=lambda s: (tuple(-k for k in keys[s]), s)))
        ranks = [0] * n
        for place, seat in enumerate(ranking):
            previous = ranking[place - 1] if place else None
            tied = previous is not None and keys[previous] == keys[seat]
            ranks[seat] = ranks[previous] if tied and previous is not None else place + 1
        winners = tuple(s for s in ranking if ranks[s] == 1)
        return cls(tuple(scores), tuple(ranks), ranking, winners)

    def rewards(self) -> tuple[float, ...]:
        """A utility per seat for agents: 1 shared among the winners, 0 for the others."""
        share = 1.0 / len(self.winners)
        return tuple(share if s in self.winners else 0.0 for s in range(len(self.scores)))

    def to_json(self) -> dict[str, Any]:
        """Return the outcome as a JSON-ready dict."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "ranking": list(self.ranking),
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """Rebuild an outcome from :meth:`to_json` output."""
        return cls(
            tuple(data["scores"]),
            tuple(data["ranks"]),
            tuple(data["ranking"]),
            tuple(data["winners"]),
        )
