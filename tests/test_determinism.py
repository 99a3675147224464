"""Reruns are byte-identical: every chapter at smoke scale writes the same result files twice.

`make test` executes every chapter at smoke scale twice: once through papermill in
``tests/test_notebooks.py`` (results in ``_build/smoke/results``), and once more when nbval re-runs
every executed notebook, the twelve task pages among them (``ROBOTASK_RESULTS=_build/smoke/rerun``).
This module, run last by `make test`, compares the two folders file by file, for every chapter. Wall-clock
timings live in ``timings.json``, ``timings.png`` and ``timings.csv`` files, which are excluded; the executed
notebooks and the run log live outside these folders. Two pages have nothing to compare, and say why
(:data:`NOTHING_TO_COMPARE`): the home page writes no result file, and the reproduction page writes only
its timings. Run alone (no rerun folder yet), it skips with a message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from robotask import paths
from robotask.book import chapters

FIRST = paths.BUILD / "smoke" / "results"
RERUN = paths.BUILD / "smoke" / "rerun"
EXCLUDED = {"timings.json", "timings.csv", "timings.png"}  # wall-clock measurements (and their figure)
NOTHING_TO_COMPARE = {  # chapter → why it writes no file two runs could share
    "00_home": "writes no result file: it glues values read from the other chapters' results, compared here",
    "99_reproducing": "writes only timings.json, this build's wall-clock times, which differ between runs",
}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in EXCLUDED and not p.name.startswith(".")}


@pytest.mark.parametrize("chapter", chapters.CHAPTERS, ids=lambda c: c.id)
def test_two_smoke_runs_write_identical_result_files(chapter):
    first, second = FIRST / chapter.id, RERUN / chapter.id
    if not RERUN.is_dir():
        pytest.skip(f"no second run in {RERUN} (make test writes it with nbval)")
    if chapter.id in NOTHING_TO_COMPARE:
        written = [name for folder in (first, second) if folder.is_dir() for name in _files(folder)]
        assert not written, f"{chapter.id} now writes {sorted(written)}: compare them"
        pytest.skip(f"{chapter.id} {NOTHING_TO_COMPARE[chapter.id]}")
    assert second.is_dir() and not second.is_symlink(), f"nbval did not re-run {chapter.id} into {RERUN}"
    a, b = _files(first), _files(second)
    assert a, f"{chapter.id} wrote no result files in {first}"
    assert sorted(a) == sorted(b), f"{chapter.id}: different file sets"
    differ = [name for name in a if a[name] != b[name]]
    assert not differ, f"{chapter.id}: files differ between two smoke runs: {differ}"
