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
Beside them, the tie rule of the protocol (:func:`robotask.retrieval.protocol.study.tie_credit`): ``n_top``, the
tasks tied at the query's top score, and ``tie_credit``, 1/k when the own task is one of k tied tasks (the
expected hit under a random tie-break), so names never decide; the accuracy table gives ``n_tied`` and
``tie_accuracy`` beside ``accuracy``.
Each distinct query text is scored once per chunk; a repeated query (the same task and text twice, as in
LIBERO-Para's paraphrase table) is a trial of its own. The query file is read and scored in chunks
(:func:`stream_fixed`), so memory does not grow with its length; a gallery of more than
:data:`MAX_GALLERY_TEXTS` texts is refused before any work.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ... import io
from ...errors import RobotaskError
from ..rankers.registry import check_rankers, display, score
from .corpus_file import CHUNK_ROWS, query_chunks, read_corpus_file

QUERY_COLUMNS = ["ranker", "task", "position", "text", "prediction", "correct", "margin", "rank", "n_top",
                 "tie_credit"]
ACCURACY_COLUMNS = ["ranker", "label", "n_queries", "n_correct", "accuracy", "n_tied", "tie_accuracy"]
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
    """Where each query's own task lands: prediction index, margin, rank, tasks tied at the top and the tie
    rule's credit, one entry per query."""

    prediction: np.ndarray
    margin: np.ndarray
    rank: np.ndarray
    n_top: np.ndarray
    credit: np.ndarray

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
    best_other = others.max(axis=1)
    top = np.maximum(own_score, best_other)
    n_top = np.count_nonzero(s == top[:, None], axis=1)
    credit = (own_score == top) / n_top  # the protocol's tie rule (study.tie_credit)
    return Placement(prediction=np.argmax(s, axis=1), margin=own_score - best_other, rank=rank, n_top=n_top,
                     credit=credit)


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
                                    "correct": p.correct, "margin": p.margin, "rank": p.rank,
                                    "n_top": p.n_top, "tie_credit": p.credit}))
    return pd.concat(frames, ignore_index=True)[QUERY_COLUMNS]


MAX_GALLERY_TEXTS = 20_000
"""The most gallery texts a fixed gallery may hold: every chunk of queries re-fits the rankers' gallery statistics,
so a 20,000-text gallery costs about a second of char TF-IDF per chunk and a 100,000-text one minutes."""
SCORE_CELLS = 4_000_000
"""Query x gallery scores held at once (32 MB of float64): the chunk of queries shrinks as the gallery grows."""


def check_gallery_size(gallery: pd.DataFrame, where: str) -> None:
    """Refuse a gallery of more than :data:`MAX_GALLERY_TEXTS` texts before any work starts."""
    if len(gallery) > MAX_GALLERY_TEXTS:
        raise RobotaskError(f"{where}: {len(gallery)} gallery texts; expected at most {MAX_GALLERY_TEXTS:,} "
                            "(a larger gallery would re-fit every ranker on every chunk of queries for hours)")


def stream_fixed(gallery: pd.DataFrame, queries: str | Path, rankers: list[str], out: Path | None,
                 progress: bool = True) -> tuple[pd.DataFrame, int]:
    """Score the query file against ``gallery`` one chunk at a time (:func:`query_chunks`), each ranker in turn.

    Per-query rows go straight to ``out/fixed_predictions.csv`` (atomically: the file appears whole at the end);
    only the counts stay in memory. Returns the accuracy table and how many query rows repeat an earlier
    ``(task, text)`` pair (each is scored on its own).
    """
    from ... import progress as bars

    g = Gallery.from_frame(gallery)
    rows = max(100, min(CHUNK_ROWS, SCORE_CELLS // max(len(g.texts), 1)))
    counts: dict[str, list[float]] = {}
    hashes: list[np.ndarray] = []
    with contextlib.ExitStack() as stack:
        target = stack.enter_context(io.atomic_path(out / "fixed_predictions.csv")) if out else None
        handle = stack.enter_context(open(target, "w", encoding="utf-8", newline="")) if target else None
        for ranker in check_rankers(rankers):
            bar = stack.enter_context(bars.tqdm(desc=f"{ranker}: query rows", unit="row", disable=not progress))
            for chunk in query_chunks(queries, rows):
                own = own_tasks(g, chunk["task"], str(queries))
                p = place(ranker_task_scores(ranker, g, chunk["text"].tolist()), own)
                n = counts.setdefault(ranker, [0, 0, 0, 0.0])
                n[0], n[1] = n[0] + len(chunk), n[1] + int(p.correct.sum())
                n[2], n[3] = n[2] + int((p.n_top > 1).sum()), n[3] + float(p.credit.sum())
                if len(counts) == 1:
                    hashes.append(pd.util.hash_pandas_object(chunk[["task", "text"]], index=False).to_numpy())
                if handle:
                    frame = pd.DataFrame({"ranker": ranker, "task": chunk["task"].to_numpy(),
                                          "position": chunk["position"].to_numpy(), "text": chunk["text"].to_numpy(),
                                          "prediction": np.asarray(g.tasks, dtype=object)[p.prediction],
                                          "correct": p.correct, "margin": p.margin, "rank": p.rank,
                                          "n_top": p.n_top, "tie_credit": p.credit})
                    frame.to_csv(handle, index=False, header=not handle.tell(), lineterminator="\n")
                bar.update(len(chunk))
        if handle:
            handle.close()
    every = np.concatenate(hashes) if hashes else np.zeros(0, np.uint64)
    table = pd.DataFrame([(r, display(r), int(n), int(k), 100.0 * k / n, int(t), 100.0 * c / n)
                          for r, (n, k, t, c) in counts.items()], columns=ACCURACY_COLUMNS)
    return table, int(len(every) - len(np.unique(every)))


def cli_main(args: Any) -> int:
    """``robotask retrieval --gallery G --queries Q``: print each ranker's accuracy; write the per-query file."""
    if not args.gallery or not args.queries:
        given, needed = ("--gallery", "--queries") if args.gallery else ("--queries", "--gallery")
        raise RobotaskError(f"{given} needs {needed}: a fixed gallery scores given queries against a given gallery")
    if args.corpus:
        raise RobotaskError("--corpus and --gallery/--queries exclude each other: --corpus draws galleries "
                            "from one corpus; --gallery and --queries score fixed files")
    rankers = check_rankers(args.rankers, "--rankers")
    gallery = read_corpus_file(args.gallery, min_texts=1, keep_repeats=bool(getattr(args, "keep_repeated_texts", 0)))
    check_gallery_size(gallery, str(args.gallery))
    out = io.writable_dir(Path(args.out)) if args.out else None
    table, repeated = stream_fixed(gallery, args.queries, rankers, out)
    n_queries = int(table["n_queries"].iloc[0])
    print(f"{gallery['task'].nunique()} gallery tasks, {len(gallery)} gallery texts, {n_queries} queries"
          + (f" ({repeated} repeat an earlier task and text; each is scored on its own)" if repeated else ""))
    print("accuracy: % of queries whose own task is ranked first (ties to the first task in sorted order); "
          "n_tied: queries whose top score two or more tasks share; tie_accuracy: a k-way tie that includes "
          "the own task counts 1/k (names never decide)")
    print(table[["label", "n_correct", "n_queries", "accuracy", "n_tied", "tie_accuracy"]].round(1)
          .to_string(index=False))
    if out:
        io.write_csv(out / "fixed_accuracy.csv", table[ACCURACY_COLUMNS])
        print(f"wrote {out / 'fixed_predictions.csv'} (one row per ranker and query) and "
              f"{out / 'fixed_accuracy.csv'}; columns: book/data_dictionary.md")
    return 0
