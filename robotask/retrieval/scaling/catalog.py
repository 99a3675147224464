"""The libraries of the scaling chapter, read as ``task,text`` frames (with their optional ``split`` column)."""

from __future__ import annotations

import pandas as pd

from ..protocol.corpus_file import read_corpus_file
from ..protocol.draws import check_corpus

__all__ = ["PATHS", "TITLES", "POOLED", "read", "check_corpus"]

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


def read(key: str) -> pd.DataFrame:
    """Library ``key`` of :data:`PATHS` as read by the corpus-file reader (LIBERO: one text per task allowed)."""
    return read_corpus_file(PATHS[key], "task", min_texts=1 if key == "libero" else 2, keep_repeats=False)
