"""``tools/rules_coverage.py``: which rules sections the tests' docstrings cite."""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "rules_coverage.py"


def _tool() -> object:
    spec = importlib.util.spec_from_file_location("rules_coverage", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_its_examples_hold() -> None:
    failed, tried = doctest.testmod(_tool())  # type: ignore[arg-type]
    assert tried > 0
    assert failed == 0


def test_it_counts_each_games_citations(tmp_path: Path) -> None:
    """A section counts when a test cites it or one of its subsections; a § after another
    rules file's name in the same docstring counts for that file, not this one."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "toy.md").write_text(
        "# Toy\n\n## 1. Setup\n\n### 1.1 Pieces\n\n## 2. Turns\n\n## 3. Scoring\n",
        encoding="utf-8",
    )
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_toy.py").write_text(
        'def test_a():\n    """toy.md §1.1 (as other.md §2 has it)."""\n\n'
        'def test_b():\n    """No citation of §3 here: no rules file is named."""\n',
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, str(TOOL), "--rules", str(rules), "--tests", str(tests), "--missing"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines() == [
        "toy: 2 of 4 sections cited by tests (1 distinct citations)",
        "  not cited: §2",
        "  not cited: §3",
    ]
