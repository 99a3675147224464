"""Which signal tells the policy's failures apart best: ROC AUC, weighted, on the same replicates.

A *signal* is a number per paraphrase that should be higher where the policy fails: a ranker's negated margin
(a paraphrase the ranker places far from its task), the source's keyword and structural similarities negated,
and PRIDE's paraphrase distance ``1 − (S_K + S_T)/2``. Its AUC is the probability that a failed paraphrase
scores above a successful one (ties count one half); 0.5 is no information, 1 a perfect separation.

With replicate weights (:mod:`.resampling`) the AUC is that of the resampled data, computed from the sorted
distinct values of the signal once for all rows of the design. Every signal is compared with one reference,
PRIDE's distance, on the same rows, and the family of those comparisons is corrected by Holm's method.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from ...errors import RobotaskError
from ..rankers.registry import PAPER_RANKERS
from .placements import Placements
from .resampling import Design, Interval, holm_levels

SOURCE_SIGNALS = {"keyword": "keyword similarity (negated)", "structural": "structural similarity (negated)",
                  "pride": "PRIDE paraphrase distance"}
REFERENCE = "pride"
"""The signal every other is compared with: the paraphrase distance LIBERO-Para proposes."""


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
    """Per row of ``weights`` (rows × n), the AUC of ``signal`` for ``positive`` (1 = the event).

    With ``strata`` (a task per paraphrase), only pairs within one stratum count: the within-task AUC, which a
    task that is both hard for the policy and far from its wording cannot lift. NaN for a row with no pair of a
    positive and a negative (within one stratum, with strata).
    """
    return _auc_rows(signal, positive, _transposed(weights), strata)


def _transposed(weights: np.ndarray) -> np.ndarray:
    """The weights as (n × rows) float32: draw counts are small whole numbers, so float32 holds them, and every
    count of pairs below (fewer than 2^23 half-pairs) exactly, in half the memory."""
    return np.ascontiguousarray(np.asarray(weights, dtype=np.float32).T)


def _auc_rows(signal: np.ndarray, positive: np.ndarray, weights_t: np.ndarray,
              strata: np.ndarray | None, chunk: int = 2048) -> np.ndarray:
    """:func:`weighted_auc` on the transposed weights (n × rows): the positive and negative weight at each
    distinct (stratum, value) come from one sparse product, then the pairs counted below each value, ties one
    half, within its stratum."""
    x = np.asarray(signal, dtype=np.float64)
    y = np.asarray(positive, dtype=np.float64)
    if x.shape != y.shape or weights_t.shape[0] != x.size:
        raise RobotaskError(f"weighted_auc: signal {x.shape}, labels {y.shape}, weights {weights_t.shape[::-1]} "
                            "disagree")
    if not np.isfinite(x).all():
        raise RobotaskError("weighted_auc: the signal holds NaN or infinite values; expected finite numbers")
    groups = np.zeros(x.size, dtype=np.int64) if strata is None else np.unique(strata, return_inverse=True)[1]
    order = np.lexsort((x, groups))  # by stratum, then by value
    xs, gs = x[order], groups[order]
    new = np.r_[True, (np.diff(xs) != 0) | (np.diff(gs) != 0)]  # the first row of each distinct value
    bins = np.cumsum(new) - 1
    first = np.r_[True, np.diff(gs) != 0][new]  # per distinct value: the first of its stratum
    stratum, starts = np.cumsum(first) - 1, np.flatnonzero(first)
    shape = (int(bins[-1]) + 1, x.size)
    to_pos = sparse.csr_matrix((y[order].astype(np.float32), (bins, order)), shape=shape)
    to_neg = sparse.csr_matrix((1 - y[order].astype(np.float32), (bins, order)), shape=shape)
    out = np.empty(weights_t.shape[1])
    for lo in range(0, weights_t.shape[1], chunk):
        w = weights_t[:, lo:lo + chunk]
        pos, neg = to_pos @ w, to_neg @ w  # (distinct values, rows)
        below = np.cumsum(neg, axis=0) - neg  # negative weight strictly below, from the first stratum on
        below -= below[starts][stratum]  # ... from the first value of its own stratum on
        num = (pos * (below + 0.5 * neg)).sum(axis=0, dtype=np.float64)
        per_stratum = np.add.reduceat(pos, starts, axis=0).astype(np.float64)
        den = (per_stratum * np.add.reduceat(neg, starts, axis=0)).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[lo:lo + chunk] = np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
    return out


def auc_intervals(signals: dict[str, np.ndarray], positive: np.ndarray, design: Design,
                  strata: np.ndarray | None = None) -> tuple[dict[str, Interval], dict[str, np.ndarray]]:
    """Each signal's AUC (within strata, if given) with its studentised interval, and its value on every row of
    ``design`` (for paired comparisons)."""
    weights_t = _transposed(design.weights)  # once for every signal
    reps = {name: _auc_rows(x, positive, weights_t, strata) for name, x in signals.items()}
    return {name: design.interval(reps[name], bounds=(0.0, 1.0)) for name in signals}, reps


def paired_difference(a: str, b: str, design: Design, reps: dict[str, np.ndarray]) -> Interval:
    """AUC of ``a`` minus AUC of ``b`` with the studentised interval of the paired difference (uncorrected)."""
    return design.interval(reps[a] - reps[b], bounds=(-1.0, 1.0))


def auc_comparisons(aucs: dict[str, Interval], reps: dict[str, np.ndarray], design: Design,
                    reference: str = REFERENCE) -> dict[str, Any]:
    """Every signal against ``reference`` (PRIDE's distance), each AUC difference with its Holm-adjusted
    studentised interval (:func:`~.resampling.holm_levels`, the family being every other signal), and the
    names the chapter reads from that family: the best signal, the best ranker margin and the best margin of
    the paper's five rankers by point estimate (each difference as ``[estimate, low, high]``).

    The best is picked by its point estimate, but its comparison is one of the family the correction covers,
    so picking it does not make the interval narrower than the correction allows.
    """
    if reference not in aucs:
        raise RobotaskError(f"auc_comparisons: the reference signal {reference!r} is not among the signals")
    ranked = sorted(aucs, key=lambda s: -aucs[s].estimate)
    margins = [s for s in ranked if s.startswith("margin:")]
    lexical = [s for s in margins if s.split(":")[2] in PAPER_RANKERS] or margins
    others = [s for s in ranked if s != reference]
    differences = {s: reps[s] - reps[reference] for s in others}
    plain = {s: design.interval(v, bounds=(-1.0, 1.0)) for s, v in differences.items()}
    holm = {s: iv.as_list() for s, iv in holm_levels(plain, differences, design.n_groups, bounds=(-1.0, 1.0)).items()}
    return {"best": ranked[0], "best_margin": margins[0], "best_lexical_margin": lexical[0],
            "reference": reference, "n_compared": len(others),
            "n_above_reference": sum(iv[1] > 0 for iv in holm.values()),
            "n_below_reference": sum(iv[2] < 0 for iv in holm.values()),
            "against_reference": holm, "keyword_minus_pride": holm.get("keyword"),
            "best_margin_minus_pride": holm[margins[0]], "best_lexical_margin_minus_pride": holm[lexical[0]]}
