"""The book's chapters: which notebook source each one executes, with which fixed parameters.

One source may back several chapters (the episode task template backs twelve);
``_toc.yml`` lists the executed copies in ``book/chapters/<id>.ipynb``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import paths
from ..task_names import TASK_IDS, TASK_TITLES  # the twelve episode tasks (core: the book wing imports no study)


@dataclass(frozen=True)
class Chapter:
    """One executed page of the book."""

    id: str  # output name: book/chapters/<id>.ipynb
    source: str  # notebook stem in notebooks/
    fixed: dict[str, Any] = field(default_factory=dict)  # parameters this chapter always gets
    title: str | None = None  # the page's H1 when the source backs several chapters (book.titles)

    @property
    def source_path(self) -> Path:
        return paths.NOTEBOOKS / f"{self.source}.py"



CHAPTERS: tuple[Chapter, ...] = (
    Chapter("01_extract_corpus", "01_extract_corpus"),
    Chapter("02_five_rankers", "02_five_rankers"),
    Chapter("03_second_description", "03_second_description"),
    Chapter("04_scoring_audit", "04_scoring_audit"),
    Chapter("05_reproduction_report", "05_reproduction_report"),
    Chapter("06_sentence_embeddings", "06_sentence_embeddings"),
    Chapter("07_uncertainty", "07_uncertainty"),
    Chapter("08_perturbations", "08_perturbations"),
    Chapter("09_transfer", "09_transfer"),
    Chapter("09_libraries", "09_libraries"),
    Chapter("09_policy", "09_policy"),
    Chapter("10_episode", "10_episode"),
    Chapter("11_windows_features", "11_windows_features"),
    *(Chapter(f"12_task_{t}", "12_task", {"task": t}, title=f"Task: {TASK_TITLES[t]}") for t in TASK_IDS),
    Chapter("13_suite_summary", "13_suite_summary"),
    Chapter("14_collections", "14_collections"),
    Chapter("15_real_episodes", "15_real_episodes"),
    Chapter("98_bad_input", "98_bad_input"),
    Chapter("97_verdicts", "97_verdicts"),  # reads every chapter's verdicts.csv: after them, before the home page
    # The home page reads the other chapters' results (the TOC shows it first); the reproduction
    # page runs after it so that its run-time table includes the home page.
    Chapter("00_home", "00_home"),
    Chapter("99_reproducing", "99_reproducing"),
)


READERS = ("13_suite_summary", "15_real_episodes", "97_verdicts", "00_home", "99_reproducing")
"""Chapters that read other chapters' results or the run log: they run after all the others."""

ALONE = ("14_collections",)
"""Chapters that time parallel work (chapter 14 times Dask at 1 and 2 workers): with ``--jobs`` > 1 they start
first, beside the others, and wait (``scheduling.wait_until_alone``) until the others have finished before they time
anything, so the timing has the machine to itself."""

WAITING = ("98_bad_input",)
"""Chapters that spend much of their run waiting, not computing (the bad-input page waits 10 s for a Dask
scheduler that is not there): side by side they start first, beside the long ones, whose work fills the core they
leave; started last, as their run time would place them, that core stood idle (a paper build under a pinned busy
core: 0.95 cores busy in its last minute of chapters, against 1.5 before)."""

AFTER: dict[str, tuple[str, ...]] = {
    "12_task_modality_reconstruction": ("12_task_cross_modal_retrieval",),
    "13_suite_summary": tuple(f"12_task_{t}" for t in TASK_IDS),
}
"""Side by side, a chapter starts only once these have finished (or when they are not run). The two task pages
fit one model (the suite's shared fit, motion → visual, ``TaskSpec.fit_key``) and the second reads the first's
from the cache; started together, the second waited on the cache's lock with its core idle. A reader named here
reads these chapters alone: it runs side by side once they have finished, not after every chapter."""

LONGEST = ("12_task_temporal_order",)
"""The chapters that take longest besides the ALONE ones (the temporal-order page: its pairs of 25,638 columns train
the MLP for 80 epochs, about 145 s in a paper build's run log). Before there is a run log to order by (a fresh
clone, an emptied ``_build``) they start first, so that none of them runs on one core at the end."""


def select(names: list[str] | None) -> list[Chapter]:
    """Chapters matching ``names`` (chapter ids, source stems or unique id prefixes); all if empty."""
    from ..errors import RobotaskError

    if not names:
        return list(CHAPTERS)
    chosen: list[Chapter] = []
    for name in names:
        stem = Path(name).stem
        hits = [c for c in CHAPTERS if stem in (c.id, c.source)]
        if not hits:
            hits = [c for c in CHAPTERS if c.id.startswith(stem)]
        if not hits:
            valid = ", ".join(c.id for c in CHAPTERS)
            raise RobotaskError(f"unknown notebook {name!r}; expected one of: {valid}")
        chosen.extend(h for h in hits if h not in chosen)
    return chosen
