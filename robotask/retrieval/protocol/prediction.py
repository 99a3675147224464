"""Task scores, the prediction and the tie rule of the retrieval protocol, and the counts of each scoring policy.

The task score is S(t, q) = max over task t's gallery texts; the prediction is the argmax over tasks after
rounding the scores to 1e-9 (:data:`TIE_DECIMALS`), ties going to the first task in sorted order: the
paper's rule, which the reproduction keeps. :func:`tie_credit` is the tie rule beside it. Used by
:mod:`robotask.retrieval.protocol.study` (which re-exports these names) and the chapters' analyses.
"""

from __future__ import annotations

import numpy as np

from .draws import Corpus

TIE_DECIMALS = 9


def task_scores(scores: np.ndarray, g_task: np.ndarray, n_tasks: int) -> np.ndarray:
    """S(t, q) = max over task t's gallery columns; (n_queries, n_tasks), -inf for empty tasks.

    Parameters
    ----------
    scores : (n_queries, n_gallery) similarities.
    g_task : task index of each gallery column, non-decreasing.
    n_tasks : number of tasks.
    """
    k = scores.shape[1] // max(n_tasks, 1)
    if k and np.array_equal(g_task, np.repeat(np.arange(n_tasks), k)):  # k columns per task, as every design has
        out = np.array(scores[:, ::k], dtype=np.float64)
        for i in range(1, k):  # the left fold reduceat does per task, on whole columns (reduceat is slow on axis 1)
            np.maximum(out, scores[:, i::k], out=out)
        return out
    out = np.full((scores.shape[0], n_tasks), -np.inf)
    if scores.shape[1] == 0:
        return out
    present, starts = np.unique(g_task, return_index=True)
    out[:, present] = np.maximum.reduceat(scores, starts, axis=1)
    return out


def predict(scores: np.ndarray, g_task: np.ndarray, n_tasks: int) -> tuple[np.ndarray, np.ndarray]:
    """Predicted task index and its (rounded) score for each query; ties → first task in sorted order.

    Parameters
    ----------
    scores : (n_queries, n_gallery) similarities.
    g_task : task index of each gallery column (non-decreasing).
    n_tasks : number of tasks.
    """
    pred, top, _ = predict_ties(scores, g_task, n_tasks)
    return pred, top


def predict_ties(scores: np.ndarray, g_task: np.ndarray, n_tasks: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`predict`'s prediction and top score, and the ``(n_queries, n_tasks)`` mask of the tasks whose
    rounded score equals the top one (one task for an untied query, k for a k-way tie)."""
    s = np.round(task_scores(scores, g_task, n_tasks), TIE_DECIMALS)
    pred = np.argmax(s, axis=1)  # argmax returns the first maximum: the earliest task id
    top = s[np.arange(len(pred)), pred]
    return pred, top, s == top[:, None]


def tie_credit(at_top: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The tie rule: each query's share of a hit, (right tasks among the tied top) / (tasks tied at the top).

    A query whose top score is shared by k tasks, its right task among them, counts 1/k: the expected
    accuracy under a random tie-break, so renaming a task changes nothing. An untied query counts 1 or 0,
    as under the paper's rule; a query that scores 0 against every one of k tasks counts 1/k.

    Parameters
    ----------
    at_top : (n_queries, n_tasks) bool, the tasks tied at each query's top score (:func:`predict_ties`).
    right : (n_queries, n_tasks) bool, the tasks that count as right for each query.
    """
    return np.count_nonzero(at_top & right, axis=1) / np.count_nonzero(at_top, axis=1)


def policy_counts(corpus: Corpus, q_rows: np.ndarray, pred: np.ndarray, at_top: np.ndarray | None = None
                  ) -> dict[str, tuple]:
    """(n_queries, n_excluded, n_correct) of each scoring policy for one trial and ranker, and with ``at_top``
    (:func:`predict_ties`) also (n_tied, tie-aware hits) of the tie rule (:func:`tie_credit`).

    Parameters
    ----------
    corpus : the validated corpus.
    q_rows : corpus rows used as queries.
    pred : predicted task index per query.
    at_top : tasks tied at each query's top score, or None for the paper's counts only.
    """
    dup = corpus.duplicate[q_rows]
    truth = corpus.task_of[q_rows]
    strict = pred == truth
    either = corpus.owners[q_rows, pred]
    n, n_dup = len(q_rows), int(dup.sum())
    out = {
        "primary": (n - n_dup, n_dup, int(strict[~dup].sum())),
        "strict": (n, 0, int(strict.sum())),
        "either": (n, 0, int(either.sum())),
    }
    if at_top is None:
        return out
    n_top = np.count_nonzero(at_top, axis=1)
    tied = np.flatnonzero(n_top > 1)  # few queries: the tie rule changes only these
    if not len(tied):
        return {p: (*c, 0, float(c[2])) for p, c in out.items()}
    own = at_top[tied, truth[tied]] / n_top[tied]
    owned = tie_credit(at_top[tied], corpus.owners[q_rows[tied]])
    kept, hit = ~dup[tied], strict[tied]
    gain_strict, gain_either = own - hit, owned - either[tied]  # the tie rule's change on each tied query
    return {"primary": (*out["primary"], int(kept.sum()), out["primary"][2] + float(gain_strict[kept].sum())),
            "strict": (*out["strict"], len(tied), out["strict"][2] + float(gain_strict.sum())),
            "either": (*out["either"], len(tied), out["either"][2] + float(gain_either.sum()))}
