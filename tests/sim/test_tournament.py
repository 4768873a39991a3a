"""`sengoku tournament`: seat-rotated round robins, OpenSkill ratings, and bad line-ups."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from sengoku.cli import app
from sengoku.core import Outcome
from sengoku.sim.results import read_results
from sengoku.sim.runner import GameResult
from sengoku.sim.tournament import Ratings, pairings

runner = CliRunner()


def test_every_agent_sits_in_every_seat_equally_often(tmp_path: Path) -> None:
    """Four agents in 3-player games: 4 combinations x 3 rotations = 12 pairings of 2 games.
    Each agent plays 3 combinations x 3 rotations x 2 = 18 games, 6 in each seat; the rows
    hold game i with seed S+i, pairing after pairing."""
    agents = ["random", "heuristic", "easy", "ismcts:4"]
    out = tmp_path / "t.jsonl"
    args = ["tournament", "auction", "-p", "3", "--agents", ",".join(agents), "-n", "2"]
    done = runner.invoke(app, [*args, "--seed", "100", "--out", str(out), "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert (data["pairings"], data["games_per_pairing"], data["games"]) == (12, 2, 24)
    assert sorted(s["agent"] for s in data["standings"]) == sorted(agents)
    for standing in data["standings"]:
        assert standing["games"] == 18 and standing["seat_games"] == [6, 6, 6]
    rows = read_results(out)
    assert [(r.index, r.seed) for r in rows] == [(i, 100 + i) for i in range(24)]
    seats = Counter((agent, seat) for r in rows for seat, agent in enumerate(r.agents))
    assert seats == {(agent, seat): 6 for agent in agents for seat in range(3)}
    orders = [rows[i].agents for i in range(0, 24, 2)]
    assert orders == pairings(agents, 3) and rows[0].agents == rows[1].agents
    assert len(set(orders)) == 12


def test_a_stronger_agent_gets_the_higher_rating() -> None:
    """In Shitenno the heuristic agent beats random play; after 6 games its OpenSkill ordinal
    (mu - 3 sigma) is the higher one, and so are its wins. The table shows the standings."""
    args = ["tournament", "shitenno", "-p", "2", "--agents", "random,heuristic", "-n", "3"]
    done = runner.invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    best, worst = data["standings"]
    assert (best["agent"], worst["agent"]) == ("heuristic", "random")
    assert best["ordinal"] > worst["ordinal"] and best["mu"] > 25 > worst["mu"]
    assert best["ordinal"] == best["mu"] - 3 * best["sigma"]
    assert best["wins"] > worst["wins"] and best["wins"] + worst["wins"] == 6
    assert best["seat_games"] == worst["seat_games"] == [3, 3]
    assert best["low"] <= best["win_rate"] <= best["high"]
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    text = " ".join(table.output.split())
    assert "Tournament of shitenno, 2 players: 2 agents, 2 pairings x 3 games" in text
    assert text.index("heuristic") < text.index("random")


def test_ties_share_a_place_in_the_ratings() -> None:
    """A tied game (ranks 1, 1) leaves two equal ratings equal, only surer (smaller sigma),
    and counts half a win each; a won game moves the winner's mu up and the loser's down."""
    ratings = Ratings(["a", "b"], players=2)
    ratings.add(GameResult(0, 0, Outcome.from_scores([4, 4]), 5, agents=("a", "b")))
    a, b = sorted(ratings.standings(), key=lambda s: s.agent)
    assert a.mu == b.mu == 25 and a.sigma == b.sigma < 25 / 3
    assert a.wins == b.wins == 0.5
    ratings.add(GameResult(1, 1, Outcome.from_scores([1, 6]), 5, agents=("a", "b")))
    first, second = ratings.standings()
    assert (first.agent, second.agent) == ("b", "a") and first.mu > 25 > second.mu
    assert first.seat_games == [0, 2] and second.seat_games == [2, 0]


def test_bad_tournaments_exit_2() -> None:
    """Fewer agents than players, an agent listed twice, an unknown agent and an unknown
    backend are refused with exit code 2 and a clear message."""
    base = ["tournament", "auction", "-p", "3", "-n", "1"]
    for args, message in [
        ([*base, "--agents", "random,heuristic"], "3-player games need at least 3 different"),
        ([*base, "--agents", "random,easy,random"], "listed twice: random"),
        ([*base, "--agents", "random,easy,genius"], "unknown agent 'genius'"),
        ([*base, "--agents", "random,easy,heuristic", "--backend", "mpi"], "not one of"),
    ]:
        done = runner.invoke(app, args)
        assert done.exit_code == 2, args
        assert message in " ".join(done.output.split()), (args, done.output)
