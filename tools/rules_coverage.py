"""Which sections of the rules references the tests cite.

A rules test names the rule it checks in its docstring as ``<game>.md §<section>``. This script
lists, per game, the numbered sections of ``<rules-dir>/<game>.md`` and whether a test under
``tests/`` cites them (a citation of §9.3 also counts for §9).

    python tools/rules_coverage.py [--rules ../shared/rules] [--missing]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.?\s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=Path, default=ROOT.parent / "shared" / "rules")
    parser.add_argument("--missing", action="store_true", help="list the sections not cited")
    args = parser.parse_args()
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    for path in sorted(args.rules.glob("*.md")):
        game = path.stem
        sections = [
            m[1]
            for line in path.read_text(encoding="utf-8").splitlines()
            if (m := HEADING.match(line))
        ]
        cited = set(re.findall(rf"{re.escape(game)}\.md §(\d+(?:\.\d+)*)", tests))
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
