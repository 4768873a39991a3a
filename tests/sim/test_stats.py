"""`sengoku stats`: the figures of a small hand-made results file, and its plots."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sengoku.cli import app
from sengoku.sim.results import ResultRow, write_results
from sengoku.sim.stats import summarize_results, wilson

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def _games() -> list[ResultRow]:
    """Ten 2-player games, agents a and b swapping seats each game. Seat 0 wins games 0-7,
    seat 1 games 8 and 9. The winner scores 10, the loser the game's number; game i lasts
    20 + i actions. So a wins games 0, 2, 4, 6 and 9: 5 of 10, and so does b."""
    rows = []
    for i in range(10):
        winner = 0 if i < 8 else 1
        scores = [float(i), float(i)]
        scores[winner] = 10.0
        ranks = (1, 2) if winner == 0 else (2, 1)
        agents = ("a", "b") if i % 2 == 0 else ("b", "a")
        rows.append(
            ResultRow(i, i, "auction", 2, {}, agents, tuple(scores), ranks, (winner,), 20 + i)
        )
    return rows


def test_stats_figures_match_hand_computed_values(tmp_path: Path) -> None:
    """Seat win rates 8/10 and 2/10 with their Wilson intervals (0.4902-0.9433 for 8 of 10,
    a textbook case, which still holds the even share 0.5, where the normal approximation's
    0.55-1.05 would not); each agent 5 of 10 (0.2366-0.7634); a's scores and the lengths
    summed up as computed by hand."""
    path = tmp_path / "games.parquet"
    write_results(path, _games())
    done = runner.invoke(app, ["stats", str(path), "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert data["games"] == 10
    [group] = data["seats"]
    assert (group["game"], group["players"], group["games"]) == ("auction", 2, 10)
    seat0, seat1 = group["seats"]
    assert (seat0["wins"], seat0["rate"], seat1["rate"]) == (8, 0.8, 0.2)
    assert (seat0["low"], seat0["high"]) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert (seat1["low"], seat1["high"]) == pytest.approx((0.0567, 0.5098), abs=1e-4)
    assert seat0["expected"] == 0.5 and not seat0["departs"] and not seat1["departs"]
    a, b = data["agents"]["a"], data["agents"]["b"]
    assert (a["wins"], a["games"], b["wins"], b["games"]) == (5, 10, 5, 10)
    assert (a["low"], a["high"]) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert not a["departs"]
    # a's scores: 10 in its wins (games 0, 2, 4, 6, 9), else the game's number (1, 3, 5, 7, 8)
    a_scores = [10, 1, 10, 3, 10, 5, 10, 7, 8, 10]
    assert a["scores"] == pytest.approx(
        {
            "count": 10,
            "mean": 7.4,
            "sd": statistics.stdev(a_scores),
            "min": 1,
            "q1": 5.5,
            "median": 9,
            "q3": 10,
            "max": 10,
        }
    )
    [lengths] = data["lengths"]
    assert (lengths["min"], lengths["q1"], lengths["median"], lengths["q3"], lengths["max"]) == (
        20,
        22.25,
        24.5,
        26.75,
        29,
    )
    table = runner.invoke(app, ["stats", str(path)])
    assert table.exit_code == 0, table.output
    text = " ".join(table.output.split())
    for shown in ("10 games in", "80.0%", "49.0-94.3%", "23.7-76.3%", "Seat advantage"):
        assert shown in text, shown


def test_shared_wins_count_as_shares() -> None:
    """A game all seats win gives each a third of a win, a lone win a whole one; a seat that
    never wins in 12 games (interval 0-0.2425 by z^2/(n+z^2)) departs from the even third."""
    tie = ResultRow(0, 0, "auction", 3, {}, ("a", "b", "c"), (5, 5, 5), (1, 1, 1), (0, 1, 2), 9)
    won = ResultRow(1, 1, "auction", 3, {}, ("a", "b", "c"), (9, 5, 5), (1, 2, 2), (0,), 9)
    data = summarize_results([tie, won])
    assert [s["wins"] for s in data["seats"][0]["seats"]] == pytest.approx([4 / 3, 1 / 3, 1 / 3])
    assert data["agents"]["a"]["rate"] == pytest.approx(2 / 3)
    assert data["agents"]["b"]["expected"] == pytest.approx(1 / 3)
    seats = summarize_results([won] * 12)["seats"][0]["seats"]
    assert (seats[1]["low"], seats[1]["high"]) == pytest.approx((0.0, 0.2425), abs=1e-4)
    assert seats[1]["departs"] and seats[0]["departs"]
    assert wilson(0, 12) == pytest.approx((0.0, 1.959964**2 / (12 + 1.959964**2)))


def test_plot_writes_four_png_files(tmp_path: Path) -> None:
    """--plot writes seat, agent, score and length plots as real PNG files and names them."""
    path = tmp_path / "games.jsonl"
    write_results(path, _games())
    folder = tmp_path / "plots"
    done = runner.invoke(app, ["stats", str(path), "--plot", str(folder)])
    assert done.exit_code == 0, done.output
    names = ["seat_win_rates.png", "agent_win_rates.png", "scores.png", "lengths.png"]
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)
    for name in names:
        data = (folder / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000, name
        assert str(folder / name) in " ".join(done.output.split())


def test_stats_of_an_empty_file_exit_2(tmp_path: Path) -> None:
    """A file without games is refused with exit code 2."""
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    done = runner.invoke(app, ["stats", str(path)])
    assert done.exit_code == 2 and "holds no games" in done.output
