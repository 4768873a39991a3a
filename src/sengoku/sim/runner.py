"""Play matches between agents and sum up the results.

Game ``i`` of a run with seed ``S`` is played with match seed ``S + i`` and agents seeded by
:func:`agent_seeds`, so a run gives the same games whatever the number of processes.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sengoku.ai import make_agent
from sengoku.core import Match, Outcome, Rng, new_match, register, registry_targets
from sengoku.core.registry import available_games


def agent_seeds(match_seed: int, players: int) -> list[int]:
    """The seed of each seat's agent in the match seeded ``match_seed``.

    >>> agent_seeds(7, 3) == agent_seeds(7, 3) != agent_seeds(8, 3)
    True
    """
    rng = Rng(match_seed ^ 0x5EED_A6E7)
    return [rng.randbelow(2**53) for _ in range(players)]


def play_match(
    game: str,
    players: int,
    seed: int,
    agents: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> Match:
    """Play one match to the end, each seat played by the agent its spec names.

    Agents receive the seat's view and legal actions, never the match itself.
    """
    if len(agents) != players:
        raise ValueError(f"{players} players need {players} agents, not {len(agents)}")
    match = new_match(game, players, seed=seed, options=options)
    bots = [make_agent(spec, s) for spec, s in zip(agents, agent_seeds(seed, players), strict=True)]
    while True:
        to_act = match.to_act()
        if not to_act:
            return match
        seat = to_act[0]
        bot = bots[seat]
        view = match.view(seat) if bot.needs_view else None
        match.act(seat, bot.choose(view, match.legal_actions(seat)))


def play_randomly(match: Match, rng: Rng, on_step: Callable[[Match], None] | None = None) -> Match:
    """Play ``match`` to the end with uniformly random legal actions drawn from ``rng``,
    always for the first seat in ``to_act()``; ``on_step`` sees the match before each action.

    >>> import sengoku
    >>> play_randomly(sengoku.new_match("shitenno", 2, seed=1), Rng(1)).outcome() is not None
    True
    """
    while True:
        to_act = match.to_act()
        if not to_act:
            return match
        if on_step is not None:
            on_step(match)
        seat = to_act[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))


@dataclass(frozen=True)
class GameResult:
    """One finished game of a run."""

    index: int
    seed: int
    outcome: Outcome
    actions: int
    record: dict[str, Any] | None = None


@dataclass(frozen=True)
class _Task:
    game: str
    players: int
    agents: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    first: int
    count: int
    keep_records: bool


def _play_chunk(task: _Task) -> list[GameResult]:
    results = []
    for index in range(task.first, task.first + task.count):
        seed = task.seed + index
        match = play_match(task.game, task.players, seed, task.agents, task.options)
        outcome = match.outcome()
        assert outcome is not None
        results.append(
            GameResult(
                index,
                seed,
                outcome,
                len(match.history),
                match.to_record() if task.keep_records else None,
            )
        )
    return results


def _init_worker(targets: dict[str, str]) -> None:
    known = set(available_games())
    for name, target in targets.items():
        if name not in known:
            register(name, target)


def run_games(
    game: str,
    games: int,
    players: int,
    agents: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    keep_records: bool = False,
) -> Iterator[GameResult]:
    """Play ``games`` matches and yield their results in game order.

    With ``jobs > 1`` the games are shared out over that many processes.
    """
    opts = dict(options or {})
    new_match(game, players, seed=seed, options=opts)  # fail fast on bad arguments
    for spec in agents:
        make_agent(spec, 0)
    chunk = max(1, min(50, games // (jobs * 8) if jobs > 1 else 50))
    tasks = [
        _Task(
            game, players, tuple(agents), opts, seed, first, min(chunk, games - first), keep_records
        )
        for first in range(0, games, chunk)
    ]
    if jobs <= 1:
        for task in tasks:
            yield from _play_chunk(task)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_init_worker,
        initargs=(registry_targets(),),
    ) as pool:
        for results in pool.map(_play_chunk, tasks):
            yield from results


@dataclass
class Summary:
    """What a run of games adds up to: per seat, per agent spec, and overall speed."""

    players: int
    agents: tuple[str, ...]
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    seat_wins: list[float] = field(default_factory=list)
    seat_scores: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seat_wins = [0.0] * self.players
        self.seat_scores = [0.0] * self.players

    def add(self, result: GameResult) -> None:
        """Count one game; a shared win counts as a share for each winner."""
        self.games += 1
        self.actions += result.actions
        share = 1.0 / len(result.outcome.winners)
        for seat in result.outcome.winners:
            self.seat_wins[seat] += share
        for seat, score in enumerate(result.outcome.scores):
            self.seat_scores[seat] += score

    def by_agent(self) -> dict[str, dict[str, float]]:
        """Wins, win rate and mean score per agent spec (a spec on several seats is pooled)."""
        table: dict[str, dict[str, float]] = {}
        for seat, spec in enumerate(self.agents):
            row = table.setdefault(spec, {"seats": 0, "wins": 0.0, "score": 0.0})
            row["seats"] += 1
            row["wins"] += self.seat_wins[seat]
            row["score"] += self.seat_scores[seat]
        games = max(self.games, 1)
        return {
            spec: {
                "seats": row["seats"],
                "wins": row["wins"],
                "win_rate": row["wins"] / games / row["seats"],
                "mean_score": row["score"] / games / row["seats"],
            }
            for spec, row in table.items()
        }

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (what ``sengoku simulate --json`` prints)."""
        games = max(self.games, 1)
        agents = self.by_agent()
        return {
            "games": self.games,
            "players": self.players,
            "agents": list(self.agents),
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "actions_per_second": round(self.actions / self.seconds, 1) if self.seconds else None,
            "wins": {spec: row["wins"] for spec, row in agents.items()},
            "mean_score": {spec: row["mean_score"] for spec, row in agents.items()},
            "per_agent": agents,
            "per_seat": [
                {
                    "seat": seat,
                    "agent": self.agents[seat],
                    "wins": self.seat_wins[seat],
                    "win_rate": self.seat_wins[seat] / games,
                    "mean_score": self.seat_scores[seat] / games,
                }
                for seat in range(self.players)
            ],
        }


def summarize(
    results: Iterator[GameResult], players: int, agents: Sequence[str]
) -> tuple[Summary, list[GameResult]]:
    """Consume ``results`` into a :class:`Summary` (timed) and the list of results."""
    summary = Summary(players, tuple(agents))
    kept = []
    start = time.perf_counter()
    for result in results:
        summary.add(result)
        kept.append(result)
    summary.seconds = time.perf_counter() - start
    return summary, kept
