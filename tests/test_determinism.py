"""Reruns are byte-identical: every chapter at smoke scale writes the same result files twice.

Wall-clock timings belong in ``timings.json`` (excluded here), as do the executed notebooks and
the run log (they live outside the results folders). The reference run is the smoke run of
``tests/test_notebooks.py`` (``_build/smoke/results``) when this pytest session wrote it (a folder
from an earlier session may come from older code); otherwise this test runs each chapter twice. The second run goes to
``_build/smoke/rerun/``.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from robotask import paths
from robotask.book import chapters, runner

pytestmark = pytest.mark.notebooks

FIRST = paths.BUILD / "smoke" / "results"
RERUN = paths.BUILD / "smoke" / "rerun"
EXCLUDED = {"timings.json"}
SESSION_START = time.time()  # module import = collection time, before any chapter runs


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in EXCLUDED and not p.name.startswith(".")}


def _run_into(chapter: chapters.Chapter, results: Path, executed: Path) -> Path:
    old = os.environ.get("ROBOTASK_RESULTS")
    os.environ["ROBOTASK_RESULTS"] = str(results)
    try:
        runner.run([chapter.id], "smoke", out_dir=executed, log_path=executed / "run_log.json")
    finally:
        if old is None:
            os.environ.pop("ROBOTASK_RESULTS", None)
        else:
            os.environ["ROBOTASK_RESULTS"] = old
    return results / chapter.id


@pytest.mark.parametrize("chapter", chapters.CHAPTERS, ids=lambda c: c.id)
def test_two_smoke_runs_write_identical_result_files(chapter):
    first = FIRST / chapter.id
    fresh = first.is_dir() and any(p.stat().st_mtime > SESSION_START for p in first.rglob("*") if p.is_file())
    if not fresh:
        shutil.rmtree(RERUN / "first" / chapter.id, ignore_errors=True)
        first = _run_into(chapter, RERUN / "first", RERUN / "first-executed")
    shutil.rmtree(RERUN / "second" / chapter.id, ignore_errors=True)
    second = _run_into(chapter, RERUN / "second", RERUN / "executed")
    a, b = _files(first), _files(second)
    assert sorted(a) == sorted(b), f"{chapter.id}: different file sets"
    differ = [name for name in a if a[name] != b[name]]
    assert not differ, f"{chapter.id}: files differ between two smoke runs: {differ}"
