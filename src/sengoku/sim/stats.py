"""Statistics of a run's results: win rates with confidence intervals, distributions.

Pure functions over :class:`~sengoku.sim.results.ResultRow` s (what ``sengoku stats``
prints). A shared win counts as a share for each winner (two winners: half a win each).
Win rates come with 95% Wilson score intervals, which stay inside 0..1 and keep their
coverage for small samples and rates near 0 or 1.

>>> from sengoku.sim.results import ResultRow
>>> rows = [
...     ResultRow(0, 0, "g", 2, {}, ("a", "b"), (3, 1), (1, 2), (0,), 10),
...     ResultRow(1, 1, "g", 2, {}, ("a", "b"), (2, 2), (1, 1), (0, 1), 12),
... ]
>>> seat_win_rates(rows)[("g", 2)][0].wins, agent_win_rates(rows)["b"].rate
(1.5, 0.25)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .results import ResultRow

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``successes`` out of ``trials``.

    >>> low, high = wilson(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    >>> low, high = wilson(0, 20)
    >>> low, round(high, 4)
    (0.0, 0.1611)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated linearly between the closest ranks
    (numpy's default, ``statistics.quantiles(..., method="inclusive")``).

    >>> quantile([1, 2, 3, 4], 0.25), quantile([1, 2, 3, 4], 0.5), quantile([7], 0.75)
    (1.75, 2.5, 7.0)
    """
    if not ordered:
        raise ValueError("no values")
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return float(ordered[below] + (ordered[above] - ordered[below]) * fraction)


@dataclass(frozen=True)
class Distribution:
    """Count, mean, sample standard deviation, minimum, quartiles and maximum of values."""

    count: int
    mean: float
    sd: float
    min: float
    q1: float
    median: float
    q3: float
    max: float

    def to_json(self) -> dict[str, float]:
        """The figures by name."""
        return {
            "count": self.count,
            "mean": self.mean,
            "sd": self.sd,
            "min": self.min,
            "q1": self.q1,
            "median": self.median,
            "q3": self.q3,
            "max": self.max,
        }


def describe(values: Iterable[float]) -> Distribution:
    """The :class:`Distribution` of ``values`` (sd 0 for a single value).

    >>> d = describe([4, 1, 3, 2])
    >>> d.count, d.mean, round(d.sd, 4), d.min, d.q1, d.median, d.q3, d.max
    (4, 2.5, 1.291, 1.0, 1.75, 2.5, 3.25, 4.0)
    """
    ordered = sorted(float(v) for v in values)
    if not ordered:
        raise ValueError("no values to describe")
    count = len(ordered)
    mean = math.fsum(ordered) / count
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in ordered) / (count - 1)) if count > 1 else 0.0
    return Distribution(
        count,
        mean,
        sd,
        ordered[0],
        quantile(ordered, 0.25),
        quantile(ordered, 0.5),
        quantile(ordered, 0.75),
        ordered[-1],
    )


@dataclass(frozen=True)
class WinRate:
    """Wins (shares of shared wins) out of games, against ``expected``, the rate of an
    even share (1/players for a seat)."""

    wins: float
    games: int
    expected: float

    @property
    def rate(self) -> float:
        """Wins per game (0 without games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the rate."""
        return wilson(self.wins, self.games)

    @property
    def departs(self) -> bool:
        """Whether the even share lies outside the 95% interval.

        >>> WinRate(40, 100, 0.25).departs, WinRate(30, 100, 0.25).departs
        (True, False)
        """
        low, high = self.interval
        return not low <= self.expected <= high

    def to_json(self) -> dict[str, Any]:
        """The figures by name, the interval as ``low`` and ``high``."""
        low, high = self.interval
        return {
            "wins": self.wins,
            "games": self.games,
            "rate": self.rate,
            "low": low,
            "high": high,
            "expected": self.expected,
            "departs": self.departs,
        }


def _shares(row: ResultRow) -> dict[int, float]:
    return {seat: 1.0 / len(row.winners) for seat in row.winners}


def _groups(rows: Iterable[ResultRow]) -> dict[tuple[str, int], list[ResultRow]]:
    groups: dict[tuple[str, int], list[ResultRow]] = {}
    for row in rows:
        groups.setdefault((row.game, row.players), []).append(row)
    return groups


def seat_win_rates(rows: Iterable[ResultRow]) -> dict[tuple[str, int], list[WinRate]]:
    """The win rate of each seat, per game and player count (seat advantage).

    >>> rows = [ResultRow(i, i, "g", 2, {}, ("a", "a"), (1, 0), (1, 2), (0,), 5) for i in range(8)]
    >>> [round(r.rate, 2) for r in seat_win_rates(rows)[("g", 2)]]
    [1.0, 0.0]
    """
    table = {}
    for key, group in _groups(rows).items():
        wins = [0.0] * key[1]
        for row in group:
            for seat, share in _shares(row).items():
                wins[seat] += share
        table[key] = [WinRate(w, len(group), 1.0 / key[1]) for w in wins]
    return table


def _agents_in_order(rows: Iterable[ResultRow]) -> list[str]:
    return list(dict.fromkeys(agent for row in rows for agent in row.agents))


def agent_win_rates(rows: Sequence[ResultRow]) -> dict[str, WinRate]:
    """The win rate of each agent spec, pooled over the seats it sat in: its wins per seat
    played. ``expected`` is its even share (the mean of 1/players over those seats)."""
    wins: dict[str, float] = dict.fromkeys(_agents_in_order(rows), 0.0)
    seats: dict[str, int] = dict.fromkeys(wins, 0)
    fair: dict[str, float] = dict.fromkeys(wins, 0.0)
    for row in rows:
        shares = _shares(row)
        for seat, agent in enumerate(row.agents):
            seats[agent] += 1
            fair[agent] += 1.0 / row.players
            wins[agent] += shares.get(seat, 0.0)
    return {agent: WinRate(wins[agent], seats[agent], fair[agent] / seats[agent]) for agent in wins}


def scores_by_agent(rows: Sequence[ResultRow]) -> dict[str, list[float]]:
    """Each agent spec's final scores, over every seat it sat in, agents in order of appearance."""
    scores: dict[str, list[float]] = {agent: [] for agent in _agents_in_order(rows)}
    for row in rows:
        for agent, score in zip(row.agents, row.scores, strict=True):
            scores[agent].append(score)
    return scores


def agent_scores(rows: Sequence[ResultRow]) -> dict[str, Distribution]:
    """The distribution of each agent spec's final scores, over every seat it sat in."""
    return {agent: describe(values) for agent, values in scores_by_agent(rows).items()}


def game_lengths(rows: Iterable[ResultRow]) -> dict[tuple[str, int], Distribution]:
    """The distribution of game lengths (actions per game), per game and player count."""
    return {key: describe(r.length for r in group) for key, group in _groups(rows).items()}


def summarize_results(rows: Sequence[ResultRow]) -> dict[str, Any]:
    """Everything ``sengoku stats`` shows, as JSON-ready data.

    >>> rows = [
    ...     ResultRow(0, 0, "g", 2, {}, ("a", "b"), (3, 1), (1, 2), (0,), 10),
    ...     ResultRow(1, 1, "g", 2, {}, ("b", "a"), (2, 2), (1, 1), (0, 1), 12),
    ... ]
    >>> data = summarize_results(rows)
    >>> data["games"], [s["wins"] for s in data["seats"][0]["seats"]]
    (2, [1.5, 0.5])
    >>> data["agents"]["a"]["wins"], data["lengths"][0]["median"]
    (1.5, 11.0)
    """
    if not rows:
        raise ValueError("no games to sum up")
    seats = seat_win_rates(rows)
    lengths = game_lengths(rows)
    scores = agent_scores(rows)
    return {
        "games": len(rows),
        "seats": [
            {
                "game": game,
                "players": players,
                "games": rates[0].games,
                "seats": [{"seat": s, **rate.to_json()} for s, rate in enumerate(rates)],
            }
            for (game, players), rates in seats.items()
        ],
        "agents": {
            agent: {**rate.to_json(), "scores": scores[agent].to_json()}
            for agent, rate in agent_win_rates(rows).items()
        },
        "lengths": [
            {"game": game, "players": players, **dist.to_json()}
            for (game, players), dist in lengths.items()
        ],
    }
