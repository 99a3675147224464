"""The libraries of the scaling chapter, read as ``task,text`` frames (with their optional ``split`` column)."""

from __future__ import annotations

import pandas as pd

from ..protocol.corpus_file import read_corpus_file
from ..protocol.draws import check_corpus

__all__ = ["PATHS", "TITLES", "POOLED", "REPOSITORIES", "library_table", "read", "check_corpus"]

PATHS: dict[str, str] = {
    "robocasa": "data/robocasa/corpus.csv",
    "robotwin": "data/robotwin/corpus.csv",
    "robotwin_placeholder": "data/robotwin/corpus_placeholder.csv",
    "rlbench_full": "data/rlbench/full/corpus.csv",
    "calvin": "data/calvin/corpus.csv",
    "libero": "data/libero/corpus.csv",
}
TITLES: dict[str, str] = {
    "robocasa": "RoboCasa", "robotwin": "RoboTwin (objects)", "robotwin_placeholder": "RoboTwin (placeholder)",
    "rlbench_full": "RLBench-full", "calvin": "CALVIN", "libero": "LIBERO",
}
POOLED: tuple[str, ...] = ("robocasa", "robotwin", "rlbench_full", "calvin", "libero")
REPOSITORIES: dict[str, str] = {
    "robocasa": "robocasa/robocasa", "robotwin": "RoboTwin-Platform/RoboTwin",
    "robotwin_placeholder": "RoboTwin-Platform/RoboTwin", "rlbench_full": "stepjam/RLBench",
    "calvin": "mees/calvin", "libero": "Lifelong-Robot-Learning/LIBERO",
}


def library_table(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per library: tasks, texts, distinct texts, wordings per task (min–max, median), whether it is in
    the pooled library of the size study, the source repository and its revision (from ``corpus.csv``)."""
    rows = []
    for key, f in frames.items():
        sizes = f.groupby("task").size()
        rows.append({"Library": TITLES[key], "Tasks": f["task"].nunique(), "Texts": len(f),
                     "Distinct texts": f["text"].nunique(),
                     "Wordings per task": f"{sizes.min()}–{sizes.max()} (median {sizes.median():g})",
                     "In the pool": "yes" if key in POOLED else "no", "Repository": REPOSITORIES[key],
                     "Revision": ", ".join(sorted(f["revision"].astype(str).unique()))})
    return pd.DataFrame(rows)


def read(key: str) -> pd.DataFrame:
    """Library ``key`` of :data:`PATHS` as read by the corpus-file reader (LIBERO: one text per task allowed)."""
    return read_corpus_file(PATHS[key], "task", min_texts=1 if key == "libero" else 2, keep_repeats=False)
