"""The Ray backend on a real local Ray: the same games as the local backend, with and without
an address, for the CLI's simulate and tournament, and for a game registered only by the tests.

Each test starts one Ray of 2 CPUs (a few seconds) and shuts it down before it ends, so the
tests do not depend on each other or on the order pytest runs them in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import ray
from typer.testing import CliRunner

import sengoku
from sengoku.cli import app
from sengoku.sim import run_games
from sengoku.sim.results import read_results
from sengoku.sim.tournament import run_tournament

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _sengoku(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m sengoku ARGS`` in a fresh process: its own Ray driver."""
    env = dict(os.environ)
    source = str(Path(sengoku.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([source, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "sengoku", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_simulate_on_its_own_ray_gives_the_local_games(tmp_path: Path) -> None:
    """Without --address, `simulate --backend ray` starts a Ray of --jobs CPUs, plays the test
    game (registered only in this process, so the workers register it from its import path)
    and shuts Ray down; every row (seed, agents, scores, ranks, winners, length) is the one
    the local backend gives for the same seed."""
    assert not ray.is_initialized()
    common = ["simulate", "auction", "-n", "30", "-p", "3", "--seed", "11", "--agents"]
    common += ["random,heuristic,random"]
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    done = runner.invoke(app, [*common, "--out", str(local), "--json"])
    assert done.exit_code == 0, done.output
    done = runner.invoke(app, [*common, "--backend", "ray", "--jobs", "2", "--out", str(remote)])
    assert done.exit_code == 0, done.output
    assert not ray.is_initialized()
    rows = read_results(remote)
    assert rows == read_results(local)
    assert [(r.index, r.seed) for r in rows] == [(i, 11 + i) for i in range(30)]
    assert {r.agents for r in rows} == {("random", "heuristic", "random")}


def test_simulate_and_tournament_on_a_running_cluster(ray_cluster: str, tmp_path: Path) -> None:
    """With --address, a separate `sengoku` process connects to the running cluster as a
    driver of its own; its simulation rows and its tournament standings (OpenSkill ratings
    included) equal the local backend's. In this process, a Ray session already open is used
    as it is and left open, and the test game plays on its workers."""
    common = ["simulate", "shitenno", "-n", "12", "-p", "2", "--seed", "3"]
    local, remote = tmp_path / "local.parquet", tmp_path / "ray.parquet"
    done = runner.invoke(app, [*common, "--out", str(local)])
    assert done.exit_code == 0, done.output
    far = _sengoku(*common, "--backend", "ray", "--address", ray_cluster, "--out", str(remote))
    assert far.returncode == 0, far.stderr
    assert read_results(remote) == read_results(local)

    contest = ["tournament", "shitenno", "-p", "2", "--agents", "random,easy,heuristic", "-n"]
    contest += ["2", "--seed", "5", "--json"]
    here = runner.invoke(app, contest)
    assert here.exit_code == 0, here.output
    far = _sengoku(*contest, "--backend", "ray", "--address", ray_cluster)
    assert far.returncode == 0, far.stderr
    assert json.loads(far.stdout) == json.loads(here.output)
    assert json.loads(here.output)["games"] == 12

    agents = ["random", "heuristic", "easy"]
    on_ray = list(
        run_tournament("auction", players=2, agents=agents, games=3, seed=9, backend="ray")
    )
    assert ray.is_initialized()
    on_ray += list(run_games("auction", players=4, agents="random", games=7, seed=2, backend="ray"))
    at_home = list(run_tournament("auction", players=2, agents=agents, games=3, seed=9))
    at_home += list(run_games("auction", players=4, agents="random", games=7, seed=2))
    assert on_ray == at_home and len(on_ray) == 18 + 7
