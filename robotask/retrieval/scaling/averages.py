"""The paper's one-wording galleries on one library, with task-averaged (macro) beside query-weighted (micro)
accuracy of every gallery: Table 2 and the macro/micro comparison read the same galleries."""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ..protocol.draws import Corpus, design_rows, draw_permutations
from ..protocol.study import predict
from ..rankers.lexical import TextIndex
from ..rankers.registry import check_rankers, score
from ..statistics.comparison_intervals import arm_outcomes, macro_micro_comparison


def task_mean(ok: np.ndarray, truth: np.ndarray) -> float:
    """Mean over the tasks present in ``truth`` of each task's share of ``ok`` queries, in % (macro accuracy)."""
    n = np.bincount(truth)
    hit = np.bincount(truth, weights=ok.astype(float), minlength=len(n))
    return 100.0 * float(np.mean(hit[n > 0] / n[n > 0]))


def outcome_frame(kept: list[tuple], tasks: list[str] | np.ndarray) -> pd.DataFrame:
    """Per-query outcomes (``trial, ranker, query_id, task, correct``) from (trial, arm, query rows, task
    indices, correct) tuples."""
    names = np.asarray(tasks, dtype=object)
    return pd.DataFrame({
        "trial": np.concatenate([np.full(len(q), t) for t, _, q, _, _ in kept]),
        "ranker": np.concatenate([np.full(len(q), arm, dtype=object) for _, arm, q, _, _ in kept]),
        "query_id": np.concatenate([q for _, _, q, _, _ in kept]),
        "task": np.concatenate([names[tr] for _, _, _, tr, _ in kept]),
        "correct": np.concatenate([ok.astype(np.int8) for _, _, _, _, ok in kept])})


COLUMNS = ["trial", "condition", "ranker", "policy", "n_queries", "n_excluded", "n_correct", "accuracy", "macro"]


def one_wording(corpus: Corpus, rankers: list[str], n_trials: int, seed: int,
                index: TextIndex | None = None, outcomes: list[pd.DataFrame] | None = None) -> pd.DataFrame:
    """Per gallery and ranker: the primary policy's top-1 accuracy (%, ``accuracy``, query-weighted) and the
    mean over tasks of each task's accuracy (``macro``), over the paper's one-wording galleries.

    The draws are the protocol's primary ones (``np.random.default_rng(seed)``, a permutation per task in
    sorted order), so ``accuracy`` equals :func:`robotask.retrieval.protocol.study.run_study`'s; a query whose
    text several tasks share is excluded, as the primary policy excludes it. ``outcomes``: when a list, every
    query's outcome is appended to it as one per-query frame (:func:`outcome_frame`, arms the rankers).
    """
    rankers = check_rankers(list(rankers))
    index = index or TextIndex(corpus.texts)
    texts = np.asarray(corpus.texts, dtype=object)
    n_tasks = len(corpus.tasks)
    rows, kept = [], []
    with threadpool_limits(1):
        for trial, perms in enumerate(draw_permutations(corpus.sizes, n_trials, np.random.default_rng(seed))):
            g_rows, g_task, q_rows = design_rows(corpus, perms, 1, 1)
            keep = ~corpus.duplicate[q_rows]
            truth = corpus.task_of[q_rows][keep]
            gallery, queries = texts[g_rows].tolist(), texts[q_rows[keep]].tolist()
            for name in rankers:
                pred, _ = predict(score(name, gallery, queries, index=index), g_task, n_tasks)
                ok = pred == truth
                macro = task_mean(ok, truth)
                rows.append((trial, "one", name, "primary", len(ok), int((~keep).sum()), int(ok.sum()),
                             100.0 * ok.mean(), macro))
                if outcomes is not None:
                    kept.append((trial, name, q_rows[keep], truth, ok))
    if outcomes is not None and kept:
        outcomes.append(outcome_frame(kept, corpus.tasks))
    return pd.DataFrame(rows, columns=COLUMNS)


def macro_micro(per_query: pd.DataFrame, rankers: list[str], seed: int) -> pd.DataFrame:
    """Per ranker: mean over galleries of micro and macro accuracy (%), their difference (macro − micro) and
    its 95 % two-way interval (galleries and descriptions resampled together, ``low``, ``high``), from
    :func:`one_wording`'s per-query outcomes."""
    rows, outcomes = [], arm_outcomes(per_query)  # pivoted once for every ranker
    for name in rankers:
        c = macro_micro_comparison(outcomes, name, seed=seed)
        rows.append((name, c["micro"], c["macro"], c["difference"], c["low"], c["high"], c["n_galleries"],
                     c["n_descriptions"], c["method"]))
    return pd.DataFrame(rows, columns=["ranker", "micro", "macro", "difference", "low", "high", "n_galleries",
                                       "n_descriptions", "method"])
