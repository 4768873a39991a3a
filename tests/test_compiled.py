"""The optional compiled build (``tools/compile.py``, mypyc) plays exactly as the pure package.

The test builds it (at ``-O0 -g0``: the C compiler's optimisation changes speed, not behaviour),
then plays in a process of its own on it what :func:`fingerprint` lists, and compares that
with the same played here on the pure package: every golden record replayed, random games of
every game and player count, whole games of the heuristic on every seat, and searches of the
``hard`` level's kind at fixed iterations. The records must be identical, action for action.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import sengoku
from sengoku.ai import make_agent
from sengoku.ai.agents import LEVELS
from sengoku.ai.ismcts import ISMCTSAgent
from sengoku.core import Match, Rng, get_game
from sengoku.core import rng as rng_module
from sengoku.sim import play_randomly

ROOT = Path(__file__).resolve().parent.parent


def fingerprint() -> dict[str, Any]:
    """What the two builds must agree on, as JSON-ready data."""
    out: dict[str, Any] = {"compiled": not rng_module.__file__.endswith(".py")}
    for path in sorted(ROOT.glob("tests/*/golden/*.json")):
        golden = json.loads(path.read_text(encoding="utf-8"))
        replay = Match.from_record(golden)
        out[f"golden {path.parent.parent.name}/{path.name}"] = [
            replay.log(None) == golden["log"],
            replay.to_record(),
            replay.rng_state(),
        ]
    settings = {k: v for k, v in LEVELS["hard"].items() if k != "agent"}
    settings.update(iterations=40, time_limit=None)
    for name in sengoku.available_games():
        if not type(get_game(name)).__module__.startswith("sengoku.games."):
            continue  # a test game, registered only in the test process
        for players in get_game(name).player_counts:
            seed = 100 * players + len(name)
            match = play_randomly(sengoku.new_match(name, players, seed=seed), Rng(seed))
            out[f"random {name} {players}"] = match.to_record()
        players = get_game(name).player_counts[0]
        match = sengoku.new_match(name, players, seed=7)
        agents = [make_agent("heuristic", 7 + seat) for seat in range(players)]
        searched: list[Any] = []
        while to_act := match.to_act():
            seat = to_act[0]
            legal = match.legal_actions(seat)
            if len(legal) > 1 and len(match.history) % 97 == 0 and len(searched) < 6:
                search = ISMCTSAgent(len(match.history), **settings)
                searched.append(str(search.choose(match.view(seat), legal)))
                twin = play_randomly(match.clone(), Rng(len(match.history)))  # clones, Rng too
                searched.append([twin.to_record(), twin.rng_state()])
                refusal = match.undo_refusal(seat)  # replays, varies secrets, compares views
                searched.append(None if refusal is None else refusal.code)
            match.act(seat, agents[seat].choose(match.view(seat), legal))
        out[f"heuristic {name} {players}"] = [match.to_record(), searched]
        out[f"observations {name} {players}"] = observations(name, players)
    return out


def observations(name: str, players: int, steps: int = 60) -> list[str]:
    """Digests of the observations the PettingZoo environment gives along ``steps`` ids (the
    research interfaces import and encode alike on both builds)."""
    from sengoku.envs.pettingzoo import env

    e = env(name, players)
    e.reset(seed=11)
    digests = []
    for _ in range(steps):
        observation, _, termination, _, info = e.last()
        if termination:
            break
        digests.append(hashlib.sha256(observation.tobytes()).hexdigest()[:16])
        e.step(int(info["action_mask"].nonzero()[0][-1]))
    return digests


def test_the_compiled_build_plays_exactly_as_the_pure_package(tmp_path: Path) -> None:
    build = tmp_path / "compiled"
    tool = [sys.executable, str(ROOT / "tools" / "compile.py")]
    # no debug information either (-g0): a seventh less time, and the same behaviour
    flags = {**os.environ, "CFLAGS": (os.environ.get("CFLAGS", "") + " -g0").strip()}
    made = subprocess.run(
        [*tool, "--opt-level", "0", "--out", str(build), "--jobs", "2"],
        capture_output=True,
        text=True,
        env=flags,
    )
    assert made.returncode == 0, (made.stdout + made.stderr)[-5000:]
    assert list(build.glob("sengoku/games/shogun/rules.*.so")), "the rules were not compiled"
    (wheel,) = build.glob("sengoku-*.whl")  # a wheel for this platform and Python only
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert f"-{tag}-{tag}-" in wheel.name and "none-any" not in wheel.name, wheel.name
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(build), str(ROOT)])}
    script = "import json, tests.test_compiled as t; print(json.dumps(t.fingerprint()))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=build, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-5000:]
    compiled = json.loads(done.stdout)
    pure = json.loads(json.dumps(fingerprint()))
    assert compiled.pop("compiled") is True and pure.pop("compiled") is False
    assert sorted(compiled) == sorted(pure)
    for key, value in pure.items():
        assert compiled[key] == value, key
    goldens = [key for key in pure if key.startswith("golden")]
    assert len(goldens) >= 8 and all(pure[key][0] for key in goldens)


def test_without_the_switch_the_wheel_is_the_pure_package(tmp_path: Path) -> None:
    """``setup.py`` compiles nothing unless ``SENGOKU_MYPYC=1``: the default wheel is pure
    Python for every platform (the fallback where no compiled wheel fits)."""
    env = {k: v for k, v in os.environ.items() if k != "SENGOKU_MYPYC"}
    wheel = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps"]
    project = tmp_path / "project"
    for name in ("src", "pyproject.toml", "setup.py", "README.md", "LICENSE"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=shutil.ignore_patterns("*.egg-info"))
        else:
            shutil.copy2(source, project / name)
    done = subprocess.run(
        [*wheel, "-w", str(tmp_path), str(project)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]
    (made,) = tmp_path.glob("sengoku-*.whl")
    assert made.name.endswith("-py3-none-any.whl"), made.name
    with zipfile.ZipFile(made) as archive:
        names = archive.namelist()
    assert "sengoku/games/shogun/rules.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
