"""Packaging: every imported package is declared in the right extra, psycopg is optional, the
sdist carries the tests and the docs.

The import check reads the code with ``ast`` (nothing is imported) and maps each top-level
module to its distribution with :func:`importlib.metadata.packages_distributions`, so it runs
in the environment the README's test command installs (every extra present).
"""

from __future__ import annotations

import ast
import functools
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "sengoku"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

#: The extras each part of the package may use besides the core dependencies.
ALLOWED = {
    "__init__": (),
    "__main__": (),
    "collector": (),
    "core": (),
    "games": (),
    "ai": (),
    "cli": ("server",),  # `sengoku serve` imports the server lazily
    "sim": (),
    "sim/results": ("parquet",),  # each imported when used
    "sim/plots": ("plots",),
    "sim/tournament": ("ratings",),
    "sim/backends": ("ray",),
    "server": ("server",),
    "envs": (),
    "envs/pettingzoo": ("pettingzoo",),
    "envs/openspiel": ("openspiel",),
    "envs/vector": ("pettingzoo", "ray"),  # Ray imported when RayVectorEnv is made
    "envs/solo": ("pettingzoo",),
    "envs/tensors": ("pettingzoo", "openspiel"),  # numpy, in both
    "envs/common": ("pettingzoo", "openspiel"),  # numpy, inside TokenPlay.view_array only
}
#: The research extras, each of one part; ``research`` is their union.
RESEARCH = ("pettingzoo", "openspiel", "parquet", "plots", "ratings")
#: The parts the `sengoku` command loads with a core install: their module-level imports
#: must be core dependencies (an extra's packages only inside the functions that need them).
CORE_LOADED = {"__init__", "__main__", "collector", "core", "games", "ai", "cli", "sim"}
#: Modules of one feature, in an extra of their own and imported only inside functions.
LAZY_ONLY = {"psycopg": "postgres"}


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement (``psycopg[binary]>=3.1``: psycopg)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group()).lower()


def _declared(*extras: str) -> set[str]:
    """The distributions the core dependencies and these extras (and the extras they name) give."""
    names = {_name(r) for r in PYPROJECT["dependencies"]}
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for requirement in PYPROJECT["optional-dependencies"][extra]:
            own = re.fullmatch(r"sengoku\[([^\]]+)\]", requirement.strip())
            if own:
                todo.extend(e.strip() for e in own.group(1).split(","))
            else:
                names.add(_name(requirement))
    return names


def _imports(path: Path) -> list[tuple[str, bool, int]]:
    """The third-party top-level modules a file imports: (module, module-level?, line)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool, int]] = []

    def visit(node: ast.AST, eager: bool) -> None:
        for child in ast.iter_child_nodes(node):
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [child.module]
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top not in ("sengoku", "__future__"):
                    found.append((top, eager, child.lineno))
            typing_only = isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            lazy = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, eager and not lazy and not typing_only)

    visit(tree, True)
    return found


_packages = functools.cache(packages_distributions)


def _distributions(module: str) -> set[str]:
    dists = _packages().get(module)
    assert dists, f"{module} is imported but not installed (run the README's test command)"
    return {_name(d) for d in dists}


def test_every_imported_package_is_declared_in_the_extra_of_its_part() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        part = path.relative_to(SRC).parts[0].removesuffix(".py")
        assert part in ALLOWED, f"{part}: say in ALLOWED which extras it may use"
        module_key = path.relative_to(SRC).with_suffix("").as_posix()
        where = path.relative_to(ROOT)
        for module, eager, line in _imports(path):
            dists = _distributions(module)
            if module in LAZY_ONLY:
                if eager:
                    problems.append(f"{where}:{line}: {module} must be imported lazily")
                if not dists & _declared(LAZY_ONLY[module]):
                    problems.append(f"{where}:{line}: {module} not in [{LAZY_ONLY[module]}]")
                continue
            allowed = ALLOWED.get(module_key, ALLOWED[part])
            extras = () if eager and part in CORE_LOADED else allowed
            if not dists & _declared(*extras):
                wanted = " or ".join(f"[{e}]" for e in extras) or "the core dependencies"
                problems.append(f"{where}:{line}: {module} ({', '.join(dists)}) not in {wanted}")
    assert not problems, "\n".join(problems)


def test_the_research_extra_is_its_five_parts() -> None:
    """Each research interface installs on its own; ``research`` is all of them, and the
    install hints name the checkout's form (``pip install -e '.[EXTRA]'``), never a package
    index's."""
    extras = PYPROJECT["optional-dependencies"]
    assert extras["research"] == [f"sengoku[{','.join(RESEARCH)}]"]
    assert _declared("research") == _declared(*RESEARCH)
    for extra in RESEARCH:
        assert _declared(extra) - _declared() < _declared("research") - _declared(), extra
    hints = [
        f"{path.relative_to(ROOT)}"
        for path in [*SRC.rglob("*.py"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
        if "install 'sengoku[" in path.read_text(encoding="utf-8")
    ]
    assert not hints, hints


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("sengoku.envs.pettingzoo", "pettingzoo", "pettingzoo"),
        ("sengoku.envs.openspiel", "pyspiel", "openspiel"),
        ("sengoku.envs.vector", "gymnasium", "pettingzoo"),
        ("sengoku.envs.solo", "gymnasium", "pettingzoo"),
    ],
)
def test_an_interface_without_its_extra_says_what_to_install(
    module: str, blocked: str, extra: str
) -> None:
    """Importing an environment module without its extra gives the install hint (a
    ``MissingExtraError``, a ``ModuleNotFoundError``), not a bare missing module."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "from sengoku.envs import MissingExtraError\n"
        f"try:\n    import {module}\n"
        "except MissingExtraError as exc:\n"
        "    assert isinstance(exc, ModuleNotFoundError) and exc.name == "
        f"{blocked!r}, exc\n    print(exc)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip().endswith(f"pip install -e '.[{extra}]'"), ran.stdout


def test_every_package_the_tests_import_is_in_the_dev_extra() -> None:
    dev = _declared("dev")
    problems = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for module, _, line in _imports(path)
        if module not in ("tests", "conftest", "examples") and not _distributions(module) & dev
    ]
    assert not problems, "\n".join(problems)


def test_psycopg_is_only_in_the_postgres_extra_which_the_tests_install() -> None:
    assert "psycopg" not in _declared("server")
    assert "psycopg" in _declared("postgres")
    assert {"psycopg", "fastapi", "sqlalchemy"} <= _declared("dev")


def _readme_extras() -> list[set[str]]:
    """The extras the README's two commands install, in order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The two commands", 1)[1]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)[:2]
    extras = []
    for block in blocks:
        match = re.search(r"pip install -e '\.\[([^\]]+)\]'", block)
        assert match, block
        extras.append({e.strip() for e in match.group(1).split(",")})
    return extras


def test_the_readme_serves_sqlite_without_psycopg_and_tests_with_it() -> None:
    serve, test = _readme_extras()
    assert {"fastapi", "uvicorn", "sqlalchemy"} <= _declared(*serve)
    assert "psycopg" not in _declared(*serve)
    assert "psycopg" in _declared(*test)


def test_without_psycopg_sqlite_serves_and_postgresql_says_what_to_install(
    tmp_path: Path,
) -> None:
    # A fresh interpreter without psycopg, as after `pip install sengoku[server]`.
    script = f"""
import sys
sys.modules["psycopg"] = None
from sengoku.server import create_app
from sengoku.server.store import MissingDriverError, Store
store = Store({f"sqlite:///{tmp_path / 'sengoku.db'}"!r})
store.migrate()
store.dispose()
create_app()
try:
    Store("postgresql://user@localhost/sengoku")
except MissingDriverError as exc:
    print("error:", exc)
assert "psycopg" not in [m.split(".")[0] for m in sys.modules if sys.modules[m] is not None]
"""
    env = {"PYTHONPATH": str(ROOT / "src"), "SENGOKU_DB": f"sqlite:///{tmp_path / 'other.db'}"}
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "pip install -e '.[postgres]'" in result.stdout, result.stdout


def test_serve_on_postgresql_without_psycopg_fails_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from sengoku.cli import app

    monkeypatch.setitem(sys.modules, "psycopg", None)
    result = CliRunner().invoke(app, ["serve", "--db", "postgresql://user@localhost/sengoku"])
    assert result.exit_code == 2, result.output
    assert "-e '.[postgres]'" in result.output
    assert "Traceback" not in result.output


def test_the_sdist_carries_the_tests_and_the_docs() -> None:
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    for line in ("graft tests", "graft docs", "graft tools", "include README.md LICENSE"):
        assert line in manifest, line
    assert PYPROJECT["license-files"] == ["LICENSE"]
    assert PYPROJECT["readme"] == "README.md"


def test_classifiers() -> None:
    classifiers = set(PYPROJECT["classifiers"])
    for wanted in (
        "Programming Language :: Python :: 3.11",
        "Operating System :: OS Independent",
        "Topic :: Games/Entertainment :: Board Games",
        "Framework :: FastAPI",
    ):
        assert wanted in classifiers, wanted
    assert PYPROJECT["license"] == "MIT"  # an SPDX expression: no License classifier beside it
    assert not [c for c in classifiers if c.startswith("License ::")]
