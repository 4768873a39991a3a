"""The package's build hook: the pure package unless ``SENGOKU_MYPYC=1`` asks for the compiled
one, whose engine modules mypyc compiles to C extensions (a wheel for this platform and
Python), as black and mypy build theirs. All else about the package is in pyproject.toml.

    pip install -e '.[dev]'   # mypy, which brings mypyc, and setuptools
    SENGOKU_MYPYC=1 pip wheel --no-build-isolation --no-deps -w dist .

``SENGOKU_MYPYC_OPT`` sets the C compiler's ``-O`` (default 3) and ``SENGOKU_MYPYC_JOBS`` how
many extensions are compiled at once (default: the CPUs). Which modules are compiled, and why
some stay Python: ``tools/compile.py`` (``COMPILED``, ``LEFT_AS_PYTHON``), which also builds
this wheel unpacked into a folder. Without the variable, or where no compiled wheel fits
(another platform or Python), the pure ``py3-none-any`` package is what installs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def compiled() -> dict[str, Any]:
    """``setup``'s arguments for the compiled build (none for the pure one)."""
    if os.environ.get("SENGOKU_MYPYC", "0") in ("", "0"):
        return {}
    if set(sys.argv[1:]) & {"egg_info", "dist_info"}:
        return {}  # the metadata is the same: compile once, for the wheel itself
    # mypy (run in this process) resolves imports on sys.path: this copy of the package
    # first, not one installed elsewhere (an editable install of another checkout)
    sys.path.insert(0, str(ROOT / "src"))
    sys.path.insert(0, str(ROOT / "tools"))
    from compile import modules  # tools/compile.py: the one list of compiled modules
    from mypyc.build import mypycify

    files = [str(p.relative_to(ROOT)) for p in modules(ROOT / "src" / "sengoku")]
    jobs = int(os.environ.get("SENGOKU_MYPYC_JOBS") or os.cpu_count() or 1)
    return {
        "ext_modules": mypycify(
            files, opt_level=os.environ.get("SENGOKU_MYPYC_OPT", "3"), multi_file=True
        ),
        "options": {"build_ext": {"parallel": jobs}},
    }


setup(**compiled())
