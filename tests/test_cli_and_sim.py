"""The `sengoku` command and the simulator, run in-process on the test game."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

import sengoku
from sengoku.cli import app
from sengoku.core import Match, available_games, get_game
from sengoku.sim import play_match, run_games, summarize
from sengoku.sim.tournament import run_tournament

runner = CliRunner()


def test_help_and_version() -> None:
    """The help lists the commands; a flag shows no value placeholder (``--json``, not
    ``--json <bool>``), and text in brackets is printed as written (``'.[ray]'``)."""
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("games", "play", "simulate", "tournament", "stats", "replay"):
        assert command in result.output
    assert runner.invoke(app, ["--version"]).output.startswith("sengoku 0.")
    for command in ("play", "simulate", "serve"):
        shown = runner.invoke(app, [command, "--help"]).output
        assert "<bool>" not in shown and "--help " in shown, shown
    words = " ".join(runner.invoke(app, ["simulate", "--help"]).output.split())
    assert "pip install -e '.[ray]'" in words


def test_games_lists_counts_and_options() -> None:
    """`sengoku games` gives each game's player counts and a line per option with its default;
    --details adds the values and what each option does; --json holds everything."""
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    games = {g["name"]: g for g in json.loads(result.output)}
    assert games["auction"]["players"] == [2, 3, 4]
    assert [o["name"] for o in games["auction"]["options"]] == [
        "rounds",
        "coins",
        "hand",
        "tie_break",
    ]
    table = runner.invoke(app, ["games"])
    assert table.exit_code == 0
    assert 'tie_break = "random"' in table.output and "Rounds to play." not in table.output
    options = sum(len(g["options"]) for g in games.values())
    # a line per game, per option and between games, and the hint at the end: no notes
    assert len(table.output.splitlines()) <= options + 2 * len(games) + 2
    detailed = runner.invoke(app, ["games", "--details"])
    assert detailed.exit_code == 0
    assert "Rounds to play." in detailed.output and "(lowest_seat | random)" in detailed.output
    # every option of every registered game, in the order its options type declares them
    for name in available_games():
        fields = msgspec.structs.fields(get_game(name).options_type)
        assert [o["name"] for o in games[name]["options"]] == [f.name for f in fields], name


def test_play_against_bots_to_the_end_and_save(tmp_path: Path) -> None:
    """Numbers and notation both work; a wrong entry is explained and asked again."""
    save = tmp_path / "game.json"
    answers = "9\nbid 7\nbid 1\n" + "1\n" * 40
    result = runner.invoke(
        app,
        [
            "play",
            "auction",
            "-p",
            "2",
            "--seat",
            "0",
            "--seed",
            "3",
            "-o",
            "rounds=2",
            "--save",
            str(save),
        ],
        input=answers,
    )
    assert result.exit_code == 0, result.output
    assert "choose 1 to 5" in result.output
    assert "'bid 7' is not a legal action for Red now" in result.output
    assert "Final result" in result.output
    record = json.loads(save.read_text())
    assert [0, "bid 1"] in record["actions"]
    assert Match.from_record(record).outcome() is not None


def test_play_shows_what_changed_and_the_whole_board_on_request() -> None:
    """The first turn shows the whole board with its legend; later turns show the board's
    first line and only the lines that changed since the player's last move; "b" shows the
    whole board again without acting."""
    answers = "1\n" * 3 + "b\n" + "1\n" * 400
    result = runner.invoke(
        app, ["play", "shitenno", "-p", "2", "--seed", "5", "--bots", "random"], input=answers
    )
    assert result.exit_code == 0, result.output[-2000:]
    output = result.output
    assert output.count("legend: Bu Bushi, Sa Samurai") == 2  # the first turn and the "b"
    assert "changed since your last move:" in output
    first_turn = output.split("Your action")[0]
    assert "Kanto" in first_turn and "legend:" in first_turn
    later = output.split("Your action")[2]
    assert "(b: the whole board)" in later and "legend:" not in later
    # after "b" the whole board, then the same numbered choices as before it, under it
    asked, board = output.split("Your action")[3:5]
    choices = [line for line in asked.splitlines() if line.strip()[:1].isdigit()]
    assert choices and "legend:" in board
    assert board.split("legend:")[1].splitlines()[-len(choices) :] == choices


def test_play_quit_and_bad_arguments() -> None:
    quit_result = runner.invoke(app, ["play", "auction", "-p", "2", "--seed", "1"], input="q\n")
    assert quit_result.exit_code == 0 and "You left the game." in quit_result.output
    for args, message in [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "auction", "-p", "7"], "not 7"),
        (["play", "auction", "--seat", "5"], "--seat must be between 0 and 1"),
        (["play", "auction", "-o", "rounds"], "an option is NAME=VALUE"),
        (["play", "auction", "-o", "rounds=0"], "option 'rounds'"),
        (["simulate", "auction", "-p", "3", "--agents", "random,random"], "needs 1 or 3 specs"),
        (["simulate", "auction", "--agents", "genius"], "unknown agent 'genius'"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert message in result.output, (args, result.output)


def test_simulate_json_summary_and_records(tmp_path: Path) -> None:
    out = tmp_path / "records.jsonl"
    args = ["simulate", "auction", "-n", "40", "-p", "3", "--seed", "7", "--out", str(out)]
    result = runner.invoke(app, [*args, "--records", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 40 and summary["players"] == 3
    assert summary["wins"]["random"] == pytest.approx(40)
    assert sum(row["wins"] for row in summary["per_seat"]) == pytest.approx(40)
    assert summary["actions_per_second"] > 0
    lines = out.read_text().splitlines()
    assert len(lines) == 40
    assert json.loads(lines[3])["seed"] == json.loads(lines[3])["record"]["seed"] == 10
    table = runner.invoke(
        app, ["simulate", "auction", "-n", "5", "-p", "2", "--agents", "random,random"]
    )
    assert table.exit_code == 0 and "Per agent" in table.output


def test_run_games_and_run_tournament_take_their_arguments_by_name() -> None:
    """After the game every argument is named, in one order for both; one agent spec plays
    every seat, as ``sengoku simulate --agents random`` does."""
    with pytest.raises(TypeError):
        run_games("auction", 3, 2, ["random"] * 2, 5)  # type: ignore[misc]
    with pytest.raises(TypeError):
        run_tournament("auction", ["random", "random"], 2, 1, 5)  # type: ignore[misc]
    alike = [r.agents for r in run_games("auction", players=3, agents="random", games=2)]
    assert alike == [("random",) * 3] * 2
    listed = run_games("auction", players=2, agents=["heuristic"], games=1, seed=4)
    assert [r.agents for r in listed] == [("heuristic", "heuristic")]


def test_simulation_is_the_same_with_several_processes() -> None:
    """Game i always gets seed S+i and the same agent seeds, however many processes run it."""
    one = [
        (r.index, r.outcome)
        for r in run_games("auction", players=3, agents=["random"] * 3, games=12, seed=5)
    ]
    two = [
        (r.index, r.outcome)
        for r in run_games("auction", players=3, agents="random", games=12, seed=5, jobs=2)
    ]
    assert one == two
    summary, results = summarize(
        run_games("auction", players=3, agents=["random"] * 3, games=12, seed=5), 3, ["random"] * 3
    )
    assert summary.games == 12 and [r.index for r in results] == list(range(12))
    assert results[0].outcome == play_match("auction", 3, 5, ["random"] * 3).outcome()


def test_review_judges_a_record_and_saves_json_and_a_plot(tmp_path: Path) -> None:
    """`sengoku review` prints each seat's summary and turning points, saves the review as
    JSON (the server's form) and draws the chart; an unfinished record is refused."""
    from sengoku.ai.advisor import Review, review

    match = play_match("shitenno", 3, 6, ["easy", "random", "heuristic"])
    path = tmp_path / "m.json"
    path.write_text(json.dumps(match.to_record()))
    out, plot = tmp_path / "review.json", tmp_path / "review.svg"
    args = ["review", str(path), "--iterations", "4", "--out", str(out), "--plot", str(plot)]
    result = runner.invoke(app, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text())
    assert saved == review(match, iterations=4).to_json()
    assert Review.from_json(saved).summary(1) == saved["seats"][1]["summary"]
    text = " ".join(result.output.split())
    for seat, name in enumerate(("Red", "Blue", "Green")):
        decisions = saved["seats"][seat]["summary"]["decisions"]
        assert f"{name}" in text and str(decisions) in text
        for point in saved["seats"][seat]["turning_points"]:
            assert f"action {point['number'] + 1}:" in text
    assert plot.read_text().lstrip().startswith("<?xml") and "<svg" in plot.read_text()
    unfinished = sengoku.new_match("shitenno", 3, seed=1).to_record()
    path.write_text(json.dumps(unfinished))
    refused = runner.invoke(app, ["review", str(path)])
    assert refused.exit_code != 0 and "not finished" in refused.output


def test_replay_steps_through_a_record(tmp_path: Path) -> None:
    match = play_match("auction", 2, 21, ["random", "random"])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(match.to_record()))
    result = runner.invoke(app, ["replay", str(path), "--seat", "1"])
    assert result.exit_code == 0, result.output
    for number, (seat, text) in enumerate(match.to_record()["actions"], 1):
        assert f"{number} {['Red', 'Blue'][seat]}: {text}" in " ".join(result.output.split())
    assert "Final result" in result.output
    stepped = runner.invoke(app, ["replay", str(path), "--step"], input="\nq\n")
    assert stepped.exit_code == 0 and "Final result" not in stepped.output
    jsonl = tmp_path / "r.jsonl"
    jsonl.write_text(path.read_text().replace("\n", "") + "\n" + path.read_text() + "\n")
    assert runner.invoke(app, ["replay", str(jsonl), "--index", "1"]).exit_code == 0
    assert "out of range" in runner.invoke(app, ["replay", str(jsonl), "--index", "5"]).output
    path.write_text("{not json")
    assert "is not JSON" in runner.invoke(app, ["replay", str(path)]).output
