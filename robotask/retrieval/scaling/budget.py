"""The wording budget: index k wordings per task, score the same held-out queries for every k.

Only tasks with at least ``k_max + 1`` texts take part (:func:`eligible`), so that in every draw the
queries are the texts from shuffled position ``k_max`` on, whatever k is: the comparison across k
is matched, as chapter 03 matches one and two descriptions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ...errors import RobotaskError
from ..protocol.draws import Corpus, check_corpus, design_rows, draw_permutations
from ..protocol.study import predict
from ..rankers.lexical import TextIndex
from ..rankers.registry import check_rankers, score
from .averages import outcome_frame, task_mean

COLUMNS = ["trial", "k", "ranker", "n_queries", "n_correct", "accuracy", "macro"]


def eligible(frame: pd.DataFrame, k_max: int) -> pd.DataFrame:
    """The rows of tasks with at least ``k_max + 1`` texts (``task``, ``text`` columns)."""
    sizes = frame.groupby("task")["text"].transform("size")
    return frame[sizes >= k_max + 1].reset_index(drop=True)


def usable_ks(frame: pd.DataFrame, ks: list[int], min_tasks: int) -> list[int]:
    """The ks up to the largest one for which at least ``min_tasks`` tasks have ``k + 1`` texts."""
    sizes = frame.groupby("task")["text"].size()
    return [k for k in sorted(ks) if int((sizes >= k + 1).sum()) >= min_tasks]


def budget_curve(frame: pd.DataFrame, ks: list[int], rankers: list[str], n_trials: int, seed: int,
                 index: TextIndex | None = None, outcomes: list[pd.DataFrame] | None = None) -> pd.DataFrame:
    """Per trial, k and ranker: query-weighted (``accuracy``) and task-averaged (``macro``) accuracy, %.

    Parameters
    ----------
    frame : corpus rows (``task``, ``text``); tasks with fewer than ``max(ks) + 1`` texts are left out.
    ks : indexed wordings per task, e.g. [1, 2, 4, 8].
    rankers : registry names.
    n_trials : seeded draws (galleries) per k.
    seed : ``np.random.default_rng`` seed of the draws.
    index : the texts' shared counts and vectors (default: an index of ``frame``'s texts).
    outcomes : when a list, every query's outcome is appended to it as one frame with the per-query columns
        of :mod:`robotask.retrieval.statistics.bootstrap` (``trial``, ``ranker`` as ``<ranker>@<k>``,
        ``query_id`` the row of the eligible texts, ``task``, ``correct``), for the curve's intervals.
    """
    if not ks or min(ks) < 1:
        raise RobotaskError(f"ks = {ks!r}: expected positive integers")
    k_max = max(ks)
    sub = eligible(frame, k_max)
    if sub["task"].nunique() < 2:
        raise RobotaskError(f"the wording budget k <= {k_max} needs at least 2 tasks with {k_max + 1} texts")
    corpus = check_corpus(sub, min_per_task=k_max + 1, where="wording budget")
    return run_matched(corpus, ks, check_rankers(list(rankers)), n_trials, seed, index, outcomes)


def run_matched(corpus: Corpus, ks: list[int], rankers: list[str], n_trials: int, seed: int,
                index: TextIndex | None = None, outcomes: list[pd.DataFrame] | None = None) -> pd.DataFrame:
    """:func:`budget_curve` on a validated corpus whose every task has more than ``max(ks)`` texts."""
    rng = np.random.default_rng(seed)
    texts = np.asarray(corpus.texts, dtype=object)
    rows, kept = [], []
    n_tasks = len(corpus.tasks)
    index = index or TextIndex(corpus.texts)  # each text tokenised and embedded once for every draw and k
    with threadpool_limits(1):
        for trial, perms in enumerate(draw_permutations(corpus.sizes, n_trials, rng)):
            for k in sorted(ks):
                g_rows, g_task, q_rows = design_rows(corpus, perms, k, max(ks))
                truth = corpus.task_of[q_rows]
                for name in rankers:
                    sim = score(name, texts[g_rows].tolist(), texts[q_rows].tolist(), index=index)
                    pred, _ = predict(sim, g_task, n_tasks)
                    ok = pred == truth
                    macro = task_mean(ok, truth)
                    rows.append((trial, k, name, len(ok), int(ok.sum()), 100.0 * ok.mean(), macro))
                    if outcomes is not None:
                        kept.append((trial, f"{name}@{k}", q_rows, truth, ok))
    if outcomes is not None and kept:
        outcomes.append(outcome_frame(kept, corpus.tasks))
    return pd.DataFrame(rows, columns=COLUMNS)



def plateau_k(curve: pd.DataFrame, fraction: float = 0.9, column: str = "accuracy") -> pd.Series:
    """Per ranker, the smallest k whose mean accuracy reaches ``fraction`` of its largest mean over k."""
    means = curve.groupby(["ranker", "k"])[column].mean().unstack("k")
    return means.apply(lambda row: int(row.index[(row >= fraction * row.max()).to_numpy()].min()), axis=1)
