"""Library size: pool libraries (labels ``<library>/<task>``), draw galleries of n candidate tasks.

Each draw picks n tasks of the pool without replacement, then per task a permutation of its texts;
the first text is indexed, the rest are queries. Tasks with one text (LIBERO) are distractors: indexed,
never queried. Accuracy is query-weighted; :func:`slope_per_doubling` fits accuracy against log2 n.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ...errors import RobotaskError
from ..protocol.study import predict
from ..rankers.lexical import TextIndex
from ..rankers.registry import check_rankers, score

COLUMNS = ["n", "draw", "ranker", "n_queries", "n_correct", "accuracy"]


def pool(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One ``task,text`` frame from several libraries, each task label prefixed ``<library>/``."""
    parts = [pd.DataFrame({"task": name + "/" + f["task"].astype(str), "text": f["text"].astype(str)})
             for name, f in sorted(frames.items())]
    return pd.concat(parts, ignore_index=True)


def log_sizes(n_min: int, n_all: int, steps: int) -> list[int]:
    """``steps`` log-spaced integer library sizes from ``n_min`` to ``n_all`` (distinct, ascending)."""
    if n_min < 2 or n_all < n_min:
        raise RobotaskError(f"library sizes: need 2 <= n_min <= n_all (got {n_min}, {n_all})")
    return sorted({int(round(x)) for x in np.geomspace(n_min, n_all, max(steps, 1))})


def size_curve(frame: pd.DataFrame, sizes: list[int], rankers: list[str], n_draws: int, seed: int,
               index: TextIndex | None = None, outcomes: list[pd.DataFrame] | None = None) -> pd.DataFrame:
    """Per n, draw and ranker: accuracy (%) of one-wording galleries over n candidate tasks of the pool.

    ``outcomes``: when a list, every query's outcome is appended to it as one per-query frame (``trial`` the
    draw, ``ranker`` as ``<ranker>@<n>``, ``query_id`` the text's row in ``frame``, ``task``, ``correct``)."""
    rankers = check_rankers(list(rankers))
    frame = frame.reset_index(drop=True)
    groups = {t: g["text"].tolist() for t, g in frame.groupby("task", sort=True)}
    rows_of = {t: g.index.to_numpy() for t, g in frame.groupby("task", sort=True)}
    tasks = sorted(groups)
    queryable = [t for t in tasks if len(groups[t]) > 1]
    rng = np.random.default_rng(seed)
    index = index or TextIndex(frame["text"].astype(str).tolist())  # each text tokenised and embedded once
    rows, kept = [], []
    with threadpool_limits(1):
        for n in sizes:
            if n > len(tasks):
                raise RobotaskError(f"library size {n} exceeds the pool's {len(tasks)} tasks")
            for draw in range(n_draws):
                # at least one queryable task in each gallery
                first = queryable[int(rng.integers(len(queryable)))]
                rest = [t for t in tasks if t != first]
                chosen = sorted([first, *(rest[i] for i in rng.choice(len(rest), n - 1, replace=False))])
                gallery, queries, truth, ids = [], [], [], []
                for j, t in enumerate(chosen):
                    texts = groups[t]
                    order = rng.permutation(len(texts))
                    gallery.append(texts[order[0]])
                    for i in order[1:]:
                        queries.append(texts[i])
                        truth.append(j)
                        ids.append(rows_of[t][i])
                truth_a = np.asarray(truth)
                for name in rankers:
                    pred, _ = predict(score(name, gallery, queries, index=index), np.arange(n), n)
                    ok = pred == truth_a
                    rows.append((n, draw, name, len(ok), int(ok.sum()), 100.0 * ok.mean()))
                    if outcomes is not None:
                        kept.append((draw, f"{name}@{n}", np.asarray(ids, dtype=np.int64),
                                     np.asarray([chosen[j] for j in truth], dtype=object), ok))
    if outcomes is not None and kept:
        outcomes.append(pd.DataFrame({
            "trial": np.concatenate([np.full(len(q), d) for d, _, q, _, _ in kept]),
            "ranker": np.concatenate([np.full(len(q), arm, dtype=object) for _, arm, q, _, _ in kept]),
            "query_id": np.concatenate([q for _, _, q, _, _ in kept]),
            "task": np.concatenate([t for _, _, _, t, _ in kept]),
            "correct": np.concatenate([ok.astype(np.int8) for _, _, _, _, ok in kept])}))
    return pd.DataFrame(rows, columns=COLUMNS)


def slope_per_doubling(curve: pd.DataFrame) -> pd.Series:
    """Per ranker, the least-squares slope of accuracy (points) against log2 n: points per doubling."""
    return curve.groupby("ranker").apply(
        lambda g: float(np.polyfit(np.log2(g["n"].to_numpy(float)), g["accuracy"].to_numpy(float), 1)[0]))
