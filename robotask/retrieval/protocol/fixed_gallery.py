"""Fixed-gallery retrieval: given queries scored against a given gallery, with no draws.

``robotask retrieval --gallery FILE --queries FILE [--rankers …] [--out DIR]`` reads both files with the
corpus reader of ``--corpus`` (:func:`robotask.retrieval.protocol.corpus_file.read_corpus_file`: ``task,text``
CSV or a YAML task library, the same errors for bad files). The gallery indexes every text of every task
(a task needs one text); the queries may repeat a text. Each query's task must be a gallery task.

A task's score is the maximum over its gallery texts and the prediction follows the protocol's rule
(as :func:`robotask.retrieval.protocol.study.predict`: scores rounded to 1e-9, ties to the first task in sorted
order). Per query: the prediction, whether it is the query's task, the **margin** (the own task's score minus
the best other task's; > 0 when retrieved with no tie) and the **rank** of the own task (1 when retrieved; a
tie counts against the own task when the other task comes first in sorted order, as the prediction does).
Each distinct query text is scored once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ... import io
from ...errors import RobotaskError
from ..rankers.registry import check_rankers, display, score
from .corpus_file import read_corpus_file

QUERY_COLUMNS = ["ranker", "task", "position", "text", "prediction", "correct", "margin", "rank"]
TIE_DECIMALS = 9
"""The protocol's rounding before the argmax (``study.TIE_DECIMALS``; ``study`` imports this module for its CLI,
so the value is repeated here and a test pins the two equal)."""


@dataclass(frozen=True)
class Gallery:
    """The indexed texts: ``texts[i]`` belongs to ``tasks[task_of[i]]``; ``tasks`` sorted, ``task_of`` sorted."""

    tasks: tuple[str, ...]
    texts: tuple[str, ...]
    task_of: np.ndarray

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> Gallery:
        """A gallery from ``task, text`` rows (every row indexed)."""
        ordered = frame.sort_values("task", kind="stable")
        tasks = tuple(sorted(ordered["task"].unique()))
        lookup = {t: i for i, t in enumerate(tasks)}
        return cls(tasks, tuple(ordered["text"]), ordered["task"].map(lookup).to_numpy(np.int64))


@dataclass(frozen=True)
class Placement:
    """Where each query's own task lands: prediction index, margin and rank, one entry per query."""

    prediction: np.ndarray
    margin: np.ndarray
    rank: np.ndarray

    @property
    def correct(self) -> np.ndarray:
        return self.rank == 1


def place(task_score: np.ndarray, own: np.ndarray) -> Placement:
    """Prediction, margin and rank of each query's own task from its ``(n_queries, n_tasks)`` task scores."""
    s = np.round(np.asarray(task_score, dtype=np.float64), TIE_DECIMALS)
    n_q, n_t = s.shape
    if n_t < 2:
        raise RobotaskError(f"the gallery has {n_t} task; expected at least 2 tasks to retrieve among")
    rows = np.arange(n_q)
    own_score = s[rows, own]
    others = s.copy()
    others[rows, own] = -np.inf
    before = np.arange(n_t)[None, :] < own[:, None]
    rank = 1 + (others > own_score[:, None]).sum(axis=1) + ((others == own_score[:, None]) & before).sum(axis=1)
    return Placement(prediction=np.argmax(s, axis=1), margin=own_score - others.max(axis=1), rank=rank)


def gallery_task_scores(scores: np.ndarray, gallery: Gallery) -> np.ndarray:
    """``(n_queries, n_tasks)``: the maximum of each query's scores over each task's gallery texts."""
    starts = np.flatnonzero(np.r_[True, np.diff(gallery.task_of) != 0])
    return np.maximum.reduceat(np.asarray(scores, dtype=np.float64), starts, axis=1)


def ranker_task_scores(ranker: str, gallery: Gallery, queries: list[str]) -> np.ndarray:
    """``(len(queries), n_tasks)`` task scores of ``ranker``; each distinct query text is scored once."""
    distinct, inverse = np.unique(np.asarray(queries, dtype=object), return_inverse=True)
    scores = score(ranker, list(gallery.texts), [str(t) for t in distinct])
    return gallery_task_scores(scores, gallery)[inverse]


def own_tasks(gallery: Gallery, query_tasks: list[str] | pd.Series, where: str = "queries") -> np.ndarray:
    """Index of each query's task in the gallery; a task the gallery lacks raises naming it."""
    lookup = {t: i for i, t in enumerate(gallery.tasks)}
    missing = sorted({t for t in query_tasks if t not in lookup})
    if missing:
        shown = ", ".join(map(repr, missing[:5])) + (" …" if len(missing) > 5 else "")
        raise RobotaskError(f"{where}: {len(missing)} query task(s) not in the gallery: {shown}; expected every "
                            "query's task to be a gallery task")
    return np.array([lookup[t] for t in query_tasks], dtype=np.int64)


def run_fixed(gallery: pd.DataFrame, queries: pd.DataFrame, rankers: list[str],
              where: str = "queries") -> pd.DataFrame:
    """Per ranker and query (:data:`QUERY_COLUMNS`) for ``task, text`` frames of gallery and queries."""
    g = Gallery.from_frame(gallery)
    own = own_tasks(g, queries["task"], where)
    position = queries["position"] if "position" in queries else np.arange(len(queries))
    frames = []
    for ranker in check_rankers(rankers):
        p = place(ranker_task_scores(ranker, g, queries["text"].tolist()), own)
        frames.append(pd.DataFrame({"ranker": ranker, "task": queries["task"].to_numpy(), "position": position,
                                    "text": queries["text"].to_numpy(),
                                    "prediction": np.asarray(g.tasks, dtype=object)[p.prediction],
                                    "correct": p.correct, "margin": p.margin, "rank": p.rank}))
    return pd.concat(frames, ignore_index=True)[QUERY_COLUMNS]


def accuracy_table(per_query: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) and counts per ranker, in the order the rankers were given."""
    order = list(dict.fromkeys(per_query["ranker"]))
    table = per_query.groupby("ranker", sort=False).agg(n_queries=("correct", "size"), n_correct=("correct", "sum"))
    table["accuracy"] = 100.0 * table["n_correct"] / table["n_queries"]
    table = table.loc[order].reset_index()
    table.insert(1, "label", [display(r) for r in table["ranker"]])
    return table


def cli_main(args: Any) -> int:
    """``robotask retrieval --gallery G --queries Q``: print each ranker's accuracy; write the per-query file."""
    if not args.gallery or not args.queries:
        given, needed = ("--gallery", "--queries") if args.gallery else ("--queries", "--gallery")
        raise RobotaskError(f"{given} needs {needed}: a fixed gallery scores given queries against a given gallery")
    if args.corpus:
        raise RobotaskError("--corpus and --gallery/--queries exclude each other: --corpus draws galleries "
                            "from one corpus; --gallery and --queries score fixed files")
    rankers = check_rankers(args.rankers, "--rankers")
    gallery = read_corpus_file(args.gallery, min_texts=1)
    queries = read_corpus_file(args.queries, min_texts=1, keep_repeats=True)
    per_query = run_fixed(gallery, queries, rankers, where=str(args.queries))
    table = accuracy_table(per_query)
    print(f"{gallery['task'].nunique()} gallery tasks, {len(gallery)} gallery texts, {len(queries)} queries")
    print(table[["label", "n_correct", "n_queries", "accuracy"]].round(1).to_string(index=False))
    if args.out:
        out = io.writable_dir(Path(args.out))
        io.write_csv(out / "fixed_predictions.csv", per_query)
        io.write_csv(out / "fixed_accuracy.csv", table)
    return 0
