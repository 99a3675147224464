"""Which signal tells the policy's failures apart best: ROC AUC, weighted, on the same replicates.

A *signal* is a number per paraphrase that should be higher where the policy fails: a ranker's negated margin
(a paraphrase the ranker places far from its task), the source's keyword and structural similarities negated,
and PRIDE's paraphrase distance ``1 − (S_K + S_T)/2``. Its AUC is the probability that a failed paraphrase
scores above a successful one (ties count one half); 0.5 is no information, 1 a perfect separation.

With replicate weights (:mod:`.resampling`) the AUC is that of the resampled data, computed from the sorted
distinct values of the signal once for all replicates. Two signals compared on the same replicates give a
paired interval of their AUC difference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ..rankers.registry import PAPER_RANKERS
from .placements import Placements
from .resampling import Interval, interval

SOURCE_SIGNALS = {"keyword": "keyword similarity (negated)", "structural": "structural similarity (negated)",
                  "pride": "PRIDE paraphrase distance"}


def pride_distance(keyword: np.ndarray, structural: np.ndarray, alpha: float = 0.5) -> np.ndarray:
    """PRIDE's paraphrase distance ``1 − (alpha·S_K + (1 − alpha)·S_T)`` (LIBERO-Para, default alpha 1/2)."""
    return 1 - (alpha * np.asarray(keyword, dtype=np.float64) + (1 - alpha) * np.asarray(structural, dtype=np.float64))


def signals_of(paraphrases: pd.DataFrame, placements: Placements) -> dict[str, np.ndarray]:
    """Every signal (higher = failure more likely): the source's three, then each ranker's negated margin, named
    ``margin:<gallery>:<ranker>``."""
    k, s = paraphrases["keyword_similarity"].to_numpy(float), paraphrases["structural_similarity"].to_numpy(float)
    out = {"keyword": -k, "structural": -s, "pride": pride_distance(k, s)}
    for gallery, ranker in placements.keys:
        out[f"margin:{gallery}:{ranker}"] = -placements.column(gallery, ranker, "margin")
    return out


def weighted_auc(signal: np.ndarray, positive: np.ndarray, weights: np.ndarray,
                 strata: np.ndarray | None = None) -> np.ndarray:
    """Per row of ``weights`` (replicates × n), the AUC of ``signal`` for ``positive`` (1 = the event).

    With ``strata`` (a task per paraphrase), only pairs within one stratum count: the within-task AUC, which a
    task that is both hard for the policy and far from its wording cannot lift. NaN for a replicate with no
    positive or no negative weight (in any one stratum, with strata).
    """
    if strata is not None:
        groups = np.asarray(strata)
        parts = [_auc_parts(signal, positive, weights, groups == g) for g in np.unique(groups)]
        num, den = sum(p[0] for p in parts), sum(p[1] for p in parts)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
    num, den = _auc_parts(signal, positive, weights, None)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _auc_parts(signal: np.ndarray, positive: np.ndarray, weights: np.ndarray,
               mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The weighted count of (positive above negative) pairs, ties one half, and of all pairs, per replicate."""
    x = np.asarray(signal, dtype=np.float64)
    y = np.asarray(positive, dtype=np.float64)
    if x.shape != y.shape or weights.shape[-1] != x.size:
        raise RobotaskError(f"weighted_auc: signal {x.shape}, labels {y.shape}, weights {weights.shape} disagree")
    if not np.isfinite(x).all():
        raise RobotaskError("weighted_auc: the signal holds NaN or infinite values; expected finite numbers")
    if mask is not None:
        x, y, weights = x[mask], y[mask], weights[:, mask]
    order = np.argsort(x, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(x[order]) != 0])  # first row of each distinct value
    w = weights[:, order]
    pos = np.add.reduceat(w * y[order], starts, axis=1)  # (B, K) positive weight at each distinct value
    neg = np.add.reduceat(w * (1 - y[order]), starts, axis=1)
    below = np.cumsum(neg, axis=1) - neg  # negative weight strictly below each value
    return (pos * (below + 0.5 * neg)).sum(axis=1), pos.sum(axis=1) * neg.sum(axis=1)


def auc_intervals(signals: dict[str, np.ndarray], positive: np.ndarray, weights: np.ndarray,
                  strata: np.ndarray | None = None) -> tuple[dict[str, Interval], dict[str, np.ndarray]]:
    """Each signal's AUC (within strata, if given) with its interval, and its replicate AUCs (for paired
    comparisons)."""
    ones = np.ones((1, len(positive)))
    reps = {name: weighted_auc(x, positive, weights, strata) for name, x in signals.items()}
    point = {name: float(weighted_auc(x, positive, ones, strata)[0]) for name, x in signals.items()}
    return {name: interval(point[name], reps[name]) for name in signals}, reps


def paired_difference(a: str, b: str, aucs: dict[str, Interval], reps: dict[str, np.ndarray]) -> Interval:
    """AUC of ``a`` minus AUC of ``b`` with the interval of the paired replicate differences."""
    return interval(aucs[a].estimate - aucs[b].estimate, reps[a] - reps[b])


def auc_comparisons(aucs: dict[str, Interval], reps: dict[str, np.ndarray]) -> dict[str, Any]:
    """The paired AUC comparisons the chapter reads, on one set of AUCs (pooled, or within task): the best
    signal against the runner-up, and the best ranker margin and the best paper-ranker margin against the
    source's PRIDE distance and keyword similarity (each difference as ``[estimate, low, high]``)."""
    ranked = sorted(aucs, key=lambda s: -aucs[s].estimate)
    margins = [s for s in ranked if s.startswith("margin:")]
    lexical = [s for s in margins if s.split(":")[2] in PAPER_RANKERS] or margins

    def diff(a: str, b: str) -> list[float]:
        return paired_difference(a, b, aucs, reps).as_list()

    out: dict[str, Any] = {"best": ranked[0], "second": ranked[1], "best_minus_second": diff(ranked[0], ranked[1]),
                           "best_margin": margins[0], "best_lexical_margin": lexical[0],
                           "keyword_minus_pride": diff("keyword", "pride")}
    for name in ("pride", "keyword"):
        out[f"best_margin_minus_{name}"] = diff(margins[0], name)
        out[f"best_lexical_margin_minus_{name}"] = diff(lexical[0], name)
    return out
