"""Which sections of the rules references the tests cite.

A rules test names the rule it checks in its docstring as ``<game>.md §<section>``; every §
after ``<game>.md`` counts, up to the next rules file a docstring names (``shogun.md §9.3,
§13`` cites both; in ``shogun.md §9.3 as shitenno.md §4.2`` each game gets its own). This
script lists, per game, the numbered sections of ``<rules-dir>/<game>.md`` and whether a test
under ``tests/`` cites them (a citation of §9.3 also counts for §9).

    python tools/rules_coverage.py [--rules ../shared/rules] [--tests tests] [--missing]
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.?\s")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
RULES_FILE = re.compile(r"\b([a-z_]+)\.md\b")


def docstrings(path: Path) -> list[str]:
    """The module, class and function docstrings of a Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *ast.walk(tree)]
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [doc for n in nodes if isinstance(n, kinds) and (doc := ast.get_docstring(n))]


def cited_sections(game: str, docs: list[str]) -> set[str]:
    """Every § a docstring names after ``<game>.md`` (and before another rules file).

    >>> sorted(cited_sections("shogun", ["shogun.md §9.3, §13 (FAQ)", "shitenno.md §2"]))
    ['13', '9.3']
    >>> sorted(cited_sections("shogun", ["§1 of shitenno.md §4.2 is shogun.md §5 and §6"]))
    ['5', '6']
    """
    cited: set[str] = set()
    for doc in docs:
        # the text after each rules file's name, up to the next one: [name, text, name, ...]
        parts = RULES_FILE.split(doc)
        for name, text in zip(parts[1::2], parts[2::2], strict=True):
            if name == game:
                cited.update(SECTION.findall(text))
    return cited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=Path, default=ROOT.parent / "shared" / "rules")
    parser.add_argument("--tests", type=Path, default=ROOT / "tests", help="the tests' folder")
    parser.add_argument("--missing", action="store_true", help="list the sections not cited")
    args = parser.parse_args()
    docs = [doc for p in sorted(args.tests.rglob("*.py")) for doc in docstrings(p)]
    for path in sorted(args.rules.glob("*.md")):
        game = path.stem
        sections = [
            m[1]
            for line in path.read_text(encoding="utf-8").splitlines()
            if (m := HEADING.match(line))
        ]
        cited = cited_sections(game, docs)
        covered = [s for s in sections if any(c == s or c.startswith(s + ".") for c in cited)]
        print(
            f"{game}: {len(covered)} of {len(sections)} sections cited by tests "
            f"({len(cited)} distinct citations)"
        )
        if args.missing:
            for section in sections:
                if section not in covered:
                    print(f"  not cited: §{section}")


if __name__ == "__main__":
    main()
