"""Seat-rotated round robins between agents, rated with OpenSkill (Plackett-Luce).

Every combination of ``players`` agents out of the list meets in every cyclic rotation of
the seats, so each agent sits in each seat equally often; each such *pairing* plays
``games`` games. Game ``i`` of the tournament (pairings in order, ``games`` each) is played
with match seed ``seed + i``, so a tournament gives the same games on every backend.

The ratings are updated game by game in that order from each game's ranks (tied seats
share a place), with openskill's Plackett-Luce model: ``mu`` the estimated skill, ``sigma``
its uncertainty, ``ordinal = mu - 3 sigma`` a conservative skill to rank by.

>>> pairings(["a", "b", "c"], 2)
[('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a'), ('b', 'c'), ('c', 'b')]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sengoku.core import SengokuError

from .backends import Backend, play_chunks
from .runner import Chunk, GameResult, check_run, chunk_size
from .stats import WinRate


class TournamentError(SengokuError, ValueError):
    """A tournament that cannot be held: too few agents, or one listed twice."""


def pairings(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every seat order the tournament plays: each combination of ``players`` agents, in
    each of its ``players`` cyclic rotations (seat 0 first).

    >>> pairings(["a", "b", "c"], 3)
    [('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')]
    >>> pairings(["a", "b"], 3)
    Traceback (most recent call last):
    ...
    sengoku.sim.tournament.TournamentError: 3-player games need at least 3 different agents, not 2
    """
    doubles = sorted({a for a in agents if list(agents).count(a) > 1})
    if doubles:
        raise TournamentError(f"each agent may be listed once; listed twice: {', '.join(doubles)}")
    if players < 1 or len(agents) < players:
        raise TournamentError(
            f"{players}-player games need at least {players} different agents, not {len(agents)}"
        )
    return [
        combination[turn:] + combination[:turn]
        for combination in itertools.combinations(agents, players)
        for turn in range(players)
    ]


def schedule(
    game: str,
    agents: Sequence[str],
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    keep_records: bool = False,
    workers: int = 1,
) -> list[Chunk]:
    """The tournament's games as chunks, in game order.

    >>> [(c.agents, c.first, c.count) for c in schedule("shitenno", ["a", "b"], 2, 3, 0)]
    [(('a', 'b'), 0, 3), (('b', 'a'), 3, 3)]
    """
    if games < 1:
        raise TournamentError(f"each pairing plays at least 1 game, not {games}")
    orders = pairings(agents, players)
    size = min(games, chunk_size(games * len(orders), workers))
    opts = dict(options or {})
    return [
        Chunk(
            game, players, order, opts, seed, start + first, min(size, games - first), keep_records
        )
        for number, order in enumerate(orders)
        for start in [number * games]
        for first in range(0, games, size)
    ]


def run_tournament(
    game: str,
    *,
    players: int,
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    keep_records: bool = False,
    backend: str | Backend = "local",
    address: str | None = None,
) -> Iterator[GameResult]:
    """Play the tournament and yield each game's result in game order (see :func:`schedule`)."""
    opts = dict(options or {})
    pairings(agents, players)
    check_run(game, players, agents, opts)
    yield from play_chunks(
        backend,
        jobs,
        address,
        lambda workers: schedule(game, agents, players, games, seed, opts, keep_records, workers),
    )


def _import_openskill() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise TournamentError(
            "ratings need openskill, which is not installed: pip install -e '.[ratings]'"
        ) from None
    return PlackettLuce


@dataclass
class Standing:
    """One agent's place in the tournament: its rating, its wins and its seats."""

    agent: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0
    seat_games: list[int] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a skill the agent very likely has at least."""
        return self.mu - 3 * self.sigma

    @property
    def win_rate(self) -> WinRate:
        """Its wins per game with a Wilson interval, against an even share."""
        players = len(self.seat_games)
        return WinRate(self.wins, self.games, 1.0 / players if players else 0.0)

    def to_json(self) -> dict[str, Any]:
        """The standing as JSON-ready data."""
        rate = self.win_rate
        low, high = rate.interval
        return {
            "agent": self.agent,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "games": self.games,
            "wins": self.wins,
            "win_rate": rate.rate,
            "low": low,
            "high": high,
            "seat_games": list(self.seat_games),
        }


class Ratings:
    """OpenSkill ratings (Plackett-Luce) and tallies of agents, updated game by game.

    >>> from sengoku.core import Outcome
    >>> ratings = Ratings(["strong", "weak"], players=2)
    >>> for index in range(5):
    ...     outcome = Outcome.from_scores([3, 1])
    ...     ratings.add(GameResult(index, index, outcome, 9, agents=("strong", "weak")))
    >>> [s.agent for s in ratings.standings()], ratings.standings()[0].wins
    (['strong', 'weak'], 5.0)
    """

    def __init__(self, agents: Iterable[str], players: int) -> None:
        self._model = _import_openskill()()
        self._ratings = {agent: self._model.rating(name=agent) for agent in agents}
        self._standings = {
            agent: Standing(agent, rating.mu, rating.sigma, seat_games=[0] * players)
            for agent, rating in self._ratings.items()
        }
        self.games = 0

    def add(self, result: GameResult) -> None:
        """Count one game and update the ratings of its agents from its ranks."""
        agents = result.agents
        teams = [[self._ratings[agent]] for agent in agents]
        updated = self._model.rate(teams, ranks=list(result.outcome.ranks))
        share = 1.0 / len(result.outcome.winners)
        for seat, (agent, [rating]) in enumerate(zip(agents, updated, strict=True)):
            self._ratings[agent] = rating
            standing = self._standings[agent]
            standing.mu, standing.sigma = float(rating.mu), float(rating.sigma)
            standing.games += 1
            standing.seat_games[seat] += 1
            if seat in result.outcome.winners:
                standing.wins += share
        self.games += 1

    def standings(self) -> list[Standing]:
        """Every agent, best ordinal first (list order among equals)."""
        return sorted(self._standings.values(), key=lambda s: -s.ordinal)


def tournament_summary(
    ratings: Ratings, game: str, agents: Sequence[str], players: int, games: int, seed: int
) -> dict[str, Any]:
    """What ``sengoku tournament --json`` prints."""
    return {
        "game": game,
        "players": players,
        "agents": list(agents),
        "pairings": len(pairings(agents, players)),
        "games_per_pairing": games,
        "games": ratings.games,
        "seed": seed,
        "model": "openskill PlackettLuce",
        "standings": [s.to_json() for s in ratings.standings()],
    }
