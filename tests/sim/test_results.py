"""`sengoku simulate --out`: one row per game in JSON Lines or Parquet, records on request,
and the clear errors of bad arguments."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from sengoku.cli import app
from sengoku.core import Match
from sengoku.sim import play_match
from sengoku.sim.results import COLUMNS, ResultRow, read_results, write_results

runner = CliRunner()
SIMULATE = ["simulate", "auction", "-n", "6", "-p", "3", "--seed", "4", "-o", "rounds=2"]


def test_jsonl_rows_hold_each_game_and_no_record_unless_asked(tmp_path: Path) -> None:
    """Each line is one game with the documented columns; the values are the game's own."""
    out = tmp_path / "games.jsonl"
    done = runner.invoke(app, [*SIMULATE, "--agents", "random,heuristic,easy", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "6 result rows written" in done.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 6
    assert list(lines[0]) == [c for c in COLUMNS if c != "record"]
    first = lines[1]
    match = play_match("auction", 3, 5, ["random", "heuristic", "easy"], {"rounds": 2})
    outcome = match.outcome()
    assert outcome is not None
    assert first == {
        "index": 1,
        "seed": 5,
        "game": "auction",
        "players": 3,
        "options": {"rounds": 2},
        "agents": ["random", "heuristic", "easy"],
        "scores": list(outcome.scores),
        "ranks": list(outcome.ranks),
        "winners": list(outcome.winners),
        "length": len(match.history),
    }


def test_parquet_round_trip_with_records_that_replay(tmp_path: Path) -> None:
    """The Parquet file has typed columns (options and record as JSON text) and reads back to
    the rows of the JSON Lines file of the same run; each record replays to its row's outcome,
    and `sengoku replay` reads a record out of either file."""
    jsonl, parquet = tmp_path / "games.jsonl", tmp_path / "games.parquet"
    for path in (jsonl, parquet):
        done = runner.invoke(app, [*SIMULATE, "--out", str(path), "--records", "--json"])
        assert done.exit_code == 0, done.output
    table = pq.read_table(parquet)
    assert table.column_names == list(COLUMNS)
    types = {field.name: str(field.type) for field in table.schema}
    assert types["options"] == "string" and types["record"] == "string"
    assert types["scores"] == "list<element: double>" and types["seed"] == "int64"
    assert json.loads(table.column("options")[0].as_py()) == {"rounds": 2}
    rows = read_results(parquet)
    assert rows == read_results(jsonl)
    assert [r.seed for r in rows] == [4, 5, 6, 7, 8, 9]
    for row in rows:
        assert row.record is not None
        outcome = Match.from_record(row.record).outcome()
        assert outcome is not None and outcome.scores == row.scores
        assert outcome.ranks == row.ranks and row.length == len(row.record["actions"])
    for path in (jsonl, parquet):
        shown = runner.invoke(app, ["replay", str(path), "--index", "2"])
        assert shown.exit_code == 0, shown.output
        assert "Final result" in shown.output


def test_rows_without_records_and_bad_files_are_refused_clearly(tmp_path: Path) -> None:
    """Replaying a row kept without its record, or reading a file that is no results file,
    stops with exit code 2 and says why."""
    out = tmp_path / "games.jsonl"
    assert runner.invoke(app, [*SIMULATE, "--out", str(out)]).exit_code == 0
    shown = runner.invoke(app, ["replay", str(out)])
    assert shown.exit_code == 2 and "without their records" in shown.output
    record = tmp_path / "record.jsonl"
    record.write_text(json.dumps(play_match("auction", 2, 1, ["random"] * 2).to_record()) + "\n")
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 and then nothing")
    for path, message in [
        (tmp_path / "missing.jsonl", "cannot read"),
        (record, "line 1: a result row lacks the columns"),
        (broken, "is not a readable Parquet file"),
    ]:
        done = runner.invoke(app, ["stats", str(path)])
        assert done.exit_code == 2, (path, done.output)
        assert message in done.output, done.output


def test_a_failed_run_leaves_an_earlier_results_file_as_it_was(tmp_path: Path) -> None:
    """A run refused for a bad agent or option, in either format, exits 2 and leaves the file
    it would have written untouched (and no partial file beside it)."""
    for name in ("games.jsonl", "games.parquet"):
        out = tmp_path / name
        assert runner.invoke(app, [*SIMULATE, "--out", str(out)]).exit_code == 0
        before = out.read_bytes()
        for bad in (["--agents", "genius"], ["-o", "no_such_option=1"]):
            done = runner.invoke(app, [*SIMULATE, *bad, "--out", str(out)])
            assert done.exit_code == 2, done.output
            assert out.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(name)) == [name]


def test_malformed_rows_are_refused_with_the_game_they_are_in(tmp_path: Path) -> None:
    """`sengoku stats` on rows whose winners, ranks or lengths do not fit their player count
    exits 2 and names the game, instead of failing inside the statistics."""
    out = tmp_path / "games.jsonl"
    assert runner.invoke(app, [*SIMULATE, "--out", str(out)]).exit_code == 0
    row = json.loads(out.read_text().splitlines()[0])
    for change, message in [
        ({"winners": [7]}, "winners must be seats 0..2"),
        ({"scores": [1, 2]}, "3 players need 3 agents, scores and ranks"),
        ({"ranks": [0, 1, 2]}, "ranks must be places 1..3"),
    ]:
        broken = tmp_path / "broken.jsonl"
        broken.write_text(json.dumps({**row, **change}) + "\n")
        done = runner.invoke(app, ["stats", str(broken)])
        assert done.exit_code == 2, done.output
        assert message in " ".join(done.output.split()), done.output


def test_bad_simulate_arguments_exit_2() -> None:
    """An unknown backend, a results file of another kind, --records without --out and an
    address for the local backend give exit code 2 and a clear message."""
    for args, message in [
        ([*SIMULATE, "--backend", "slurm"], "'slurm' is not one of"),
        ([*SIMULATE, "--out", "games.csv"], "ends in .jsonl or .parquet, not 'games.csv'"),
        ([*SIMULATE, "--records"], "give --out too"),
        ([*SIMULATE, "--address", "auto"], "--address is for --backend ray"),
    ]:
        done = runner.invoke(app, args)
        assert done.exit_code == 2, args
        assert message in " ".join(done.output.split()), (args, done.output)


def test_a_missing_ray_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray installed, --backend ray stops with the pip command that adds it."""
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    done = runner.invoke(app, [*SIMULATE, "--backend", "ray"])
    assert done.exit_code == 2
    assert "pip install -e '.[ray]'" in done.output


def test_a_ray_address_where_nothing_listens_fails_at_once() -> None:
    """``--backend ray --address HOST:PORT`` with no Ray head there stops with a clear
    message, not after Ray's minutes of retries (the port is checked first)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nothing listens there
    done = runner.invoke(app, [*SIMULATE, "--backend", "ray", "--address", f"127.0.0.1:{port}"])
    assert done.exit_code == 2, done.output
    assert f"nothing answers at 127.0.0.1:{port}" in done.output
    assert "ray start --head" in done.output


def test_write_results_keeps_scores_and_options_in_either_format(tmp_path: Path) -> None:
    """Rows written by the Python API read back unchanged, fractional scores and nested
    options included."""
    rows = [
        ResultRow(
            0, 10, "auction", 2, {"rounds": 1, "x": [1, "y"]}, ("a", "b"), (1.5, 2), (2, 1), (1,), 7
        ),
        ResultRow(1, 11, "auction", 2, {}, ("b", "a"), (3, 3), (1, 1), (0, 1), 9),
    ]
    for name in ("r.jsonl", "r.parquet"):
        write_results(tmp_path / name, rows)
        assert read_results(tmp_path / name) == rows
        as_text = str(tmp_path / f"text-{name}")  # a str path works as well
        write_results(as_text, rows)
        assert read_results(as_text) == rows
