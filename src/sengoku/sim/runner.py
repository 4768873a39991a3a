"""Play matches between agents and sum up the results.

Game ``i`` of a run with seed ``S`` is played with match seed ``S + i`` and agents seeded by
:func:`agent_seeds`, so a run gives the same games whatever the number of processes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sengoku.ai import make_agent
from sengoku.core import Match, Outcome, Rng, new_match, register
from sengoku.core.registry import available_games

if TYPE_CHECKING:
    from .backends import Backend


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
    """One finished game of a run: its index in the run, match seed, outcome, number of
    actions, the agent spec of each seat, and the record when it was asked for."""

    index: int
    seed: int
    outcome: Outcome
    actions: int
    record: dict[str, Any] | None = None
    agents: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chunk:
    """Consecutive games of a run with one line-up: the unit of work a backend sends out.

    Game ``index`` (``first <= index < first + count``) is played with match seed
    ``seed + index``, whichever process or machine plays it.
    """

    game: str
    players: int
    agents: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    first: int
    count: int
    keep_records: bool


def play_chunk(chunk: Chunk) -> list[GameResult]:
    """Play the games of ``chunk`` in order.

    >>> chunk = Chunk("shitenno", 2, ("random", "random"), {}, 40, 3, 2, False)
    >>> [(r.index, r.seed) for r in play_chunk(chunk)]
    [(3, 43), (4, 44)]
    """
    results = []
    for index in range(chunk.first, chunk.first + chunk.count):
        seed = chunk.seed + index
        match = play_match(chunk.game, chunk.players, seed, chunk.agents, chunk.options)
        outcome = match.outcome()
        assert outcome is not None
        results.append(
            GameResult(
                index,
                seed,
                outcome,
                len(match.history),
                match.to_record() if chunk.keep_records else None,
                chunk.agents,
            )
        )
    return results


def ensure_registered(targets: Mapping[str, str]) -> None:
    """Register each game of ``targets`` (name to import path, from
    :func:`~sengoku.core.registry_targets`) this process does not know yet: what a worker
    process or a cluster node does before it plays games registered by a plug-in or a test.
    """
    known = set(available_games())
    for name, target in targets.items():
        if name not in known:
            register(name, target)


def chunk_size(games: int, workers: int) -> int:
    """How many games one chunk holds: up to 50, and about 8 chunks per worker.

    >>> chunk_size(10_000, 1), chunk_size(100, 2), chunk_size(3, 4)
    (50, 6, 1)
    """
    return max(1, min(50, games // (workers * 8) if workers > 1 else 50))


def check_run(game: str, players: int, agents: Sequence[str], options: Mapping[str, Any]) -> None:
    """Fail fast, before any game is sent out, on a bad game, player count, option or agent."""
    new_match(game, players, seed=0, options=options)
    for spec in agents:
        make_agent(spec, 0)


def seat_agents(agents: str | Sequence[str], players: int) -> list[str]:
    """One agent spec per seat: ``agents`` as given, or its one spec at every seat.

    >>> seat_agents("random", 3), seat_agents(["hard"], 2), seat_agents(["a", "b"], 2)
    (['random', 'random', 'random'], ['hard', 'hard'], ['a', 'b'])
    """
    specs = [agents] if isinstance(agents, str) else list(agents)
    return specs * players if len(specs) == 1 else specs


def run_games(
    game: str,
    *,
    players: int,
    agents: str | Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    keep_records: bool = False,
    backend: str | Backend = "local",
    address: str | None = None,
) -> Iterator[GameResult]:
    """Play ``games`` matches and yield their results in game order.

    ``agents`` is one agent spec per seat, or one for every seat (a spec, or a list of one),
    as ``sengoku simulate --agents`` takes them. ``backend`` is ``"local"`` (this process
    for ``jobs <= 1``, else a pool of ``jobs`` processes), ``"ray"`` (Ray tasks: a local
    Ray on ``jobs`` cores, or the cluster at ``address``) or an open
    :class:`~sengoku.sim.backends.Backend`. The results are the same on every backend.
    """
    from .backends import play_chunks

    agents = seat_agents(agents, players)
    opts = dict(options or {})
    check_run(game, players, agents, opts)

    def chunks_for(workers: int) -> list[Chunk]:
        size = chunk_size(games, workers)
        return [
            Chunk(
                game,
                players,
                tuple(agents),
                opts,
                seed,
                first,
                min(size, games - first),
                keep_records,
            )
            for first in range(0, games, size)
        ]

    yield from play_chunks(backend, jobs, address, chunks_for)


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
