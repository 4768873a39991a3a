"""The optional compiled build: Sengoku's engine modules compiled to C extensions by mypyc.

``python tools/compile.py`` builds the compiled wheel (``SENGOKU_MYPYC=1``, see ``setup.py``)
from a clean copy of the project and unpacks it into ``build/compiled`` (the wheel beside it):
the modules of :data:`COMPILED` as C extensions, their ``.py`` files beside them (Python
imports the extension first). Run anything against it with that folder first on the path::

    python tools/compile.py
    PYTHONPATH=build/compiled python -m sengoku simulate shogun -n 100
    SENGOKU_SRC=build/compiled python benchmarks/anchors.py

The pure-Python package under ``src/`` is never touched: it stays the default install and the
one the test suite runs; ``tests/test_compiled.py`` builds this one and checks that it plays
the golden records exactly. mypyc comes with mypy (the ``dev`` extra). A build whose sources
have not changed since (a hash of them is kept in the build) is reused; ``--force`` rebuilds.

The modules left as Python (:data:`LEFT_AS_PYTHON`): ``Match``, whose checks of bad input
must raise the library's own errors (compiled code raises a bare ``TypeError`` for a wrong
argument type first); the ``Game`` base and the options, which games of plug-ins and tests
subclass (an interpreted class cannot subclass a compiled one); the data loaders (read once
at import; mypyc fails on one of their expressions) and the registry; Rising Sun's action
kinds (they put one ``__eq__`` on many classes after the fact); the encodings (research
layer). The server, command line and research interfaces are not compiled either.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "sengoku"
DEFAULT_OUT = ROOT / "build" / "compiled"
STAMP = ".sengoku-compiled"

#: Module globs, relative to the package, that the build compiles.
COMPILED = (
    "core/*.py",
    "games/*/*.py",
    "ai/ismcts.py",
)
#: Of those, the modules left as Python (see the module's docs).
LEFT_AS_PYTHON = (
    "core/__init__.py",
    "core/game.py",
    "core/match.py",
    "core/options.py",
    "core/registry.py",
    "games/*/options.py",
    "games/*/__init__.py",
    "games/*/data.py",
    "games/rising_sun/actions.py",
    "*/encoding.py",
    "games/*/encoding.py",
)


def modules(package: Path) -> list[Path]:
    """The files under ``package`` that the build compiles, in a stable order."""
    chosen = {p for pattern in COMPILED for p in package.glob(pattern)}
    left = {p for pattern in LEFT_AS_PYTHON for p in package.glob(pattern)}
    return sorted(chosen - left)


def source_hash(opt_level: str) -> str:
    """A hash of every source file of the package, the settings and the Python version."""
    digest = hashlib.sha256(f"{opt_level} {sys.version} {COMPILED} {LEFT_AS_PYTHON}".encode())
    for path in sorted(SRC.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(SRC)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build(out: Path, opt_level: str = "3", jobs: int = 2, force: bool = False) -> Path:
    """Build (or reuse) the compiled package under ``out``; returns ``out``.

    It is the compiled wheel (``SENGOKU_MYPYC=1``, ``setup.py``), built from a clean copy of
    the project and unpacked into ``out``; the wheel itself is kept beside it in ``out``.
    """
    stamp = out / STAMP
    wanted = source_hash(opt_level)
    if not force and stamp.exists() and stamp.read_text() == wanted:
        print(f"compiled build in {out} is up to date")
        return out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sengoku-wheel-") as tmp:
        project = Path(tmp) / "project"
        skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so")
        shutil.copytree(ROOT / "src", project / "src", ignore=skip)
        for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "tools/compile.py"):
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, project / name)
        env = {
            **os.environ,
            "SENGOKU_MYPYC": "1",
            "SENGOKU_MYPYC_OPT": opt_level,
            "SENGOKU_MYPYC_JOBS": str(jobs),
        }
        wheel = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps"]
        done = subprocess.run(
            [*wheel, "-w", str(out), str(project)], env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-20_000:] + done.stderr[-20_000:])
            raise SystemExit(f"mypyc failed (exit {done.returncode})")
    (made,) = out.glob("sengoku-*.whl")
    with zipfile.ZipFile(made) as archive:
        archive.extractall(out)
    stamp.write_text(wanted)
    count = len(modules(SRC))
    print(f"compiled {count} modules into {made.name} in {time.monotonic() - start:.0f} s")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the build's folder")
    parser.add_argument("--opt-level", default="3", choices="0123", help="the C compiler's -O")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    parser.add_argument("--list", action="store_true", help="only list the compiled modules")
    args = parser.parse_args()
    if args.list:
        for path in modules(SRC):
            print(path.relative_to(SRC.parent))
        return
    build(args.out.resolve(), args.opt_level, args.jobs, args.force)


if __name__ == "__main__":
    main()
