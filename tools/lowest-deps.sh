#!/usr/bin/env bash
# The lowest versions the core dependencies allow (pyproject.toml's ">=" bounds, taken as
# "=="), in a virtual environment of their own: the doctests of the core, the games and the
# AI, and the command line's tests, must pass there too. Run by the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pins=$(python - <<'EOF'
import re, tomllib
deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
for dep in deps:
    name, low = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9][0-9A-Za-z.]*)", dep.replace(" ", "")).groups()
    print(f"{name}=={low}")
EOF
)
echo "+ lowest allowed core dependencies:" $pins
python -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check $pins pytest
"$work/venv/bin/pip" install -q --disable-pip-version-check --no-deps -e .
# the review test draws a plot: matplotlib is the plots extra's, not a core dependency
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider -o addopts="" --doctest-modules \
  --deselect tests/test_cli_and_sim.py::test_review_judges_a_record_and_saves_json_and_a_plot \
  src/sengoku/core src/sengoku/games src/sengoku/ai tests/test_cli_and_sim.py
