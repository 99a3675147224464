"""Which signal tells the policy's failures apart best: ROC AUC, weighted, on the same replicates.

A *signal* is a number per paraphrase that should be higher where the policy fails: a ranker's negated margin
(a paraphrase the ranker places far from its task), the source's keyword and structural similarities negated,
and PRIDE's paraphrase distance ``1 − (S_K + S_T)/2``. Its AUC is the probability that a failed paraphrase
scores above a successful one (ties count one half); 0.5 is no information, 1 a perfect separation.

With replicate weights (:mod:`.resampling`) the AUC is that of the resampled data: its pairs are counted
once per block of the design over the sorted distinct values of the signal, and each leave-one-copy-out row
from the block's count less the left-out copy's pairs (:func:`design_auc`). Every signal is compared with one reference,
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


def design_auc(signal: np.ndarray, positive: np.ndarray, design: Design,
               strata: np.ndarray | None = None) -> np.ndarray:
    """:func:`weighted_auc` on every row of ``design``, from its copies: equal to it on ``design.weights``.

    A row's AUC counts the pairs (positive above negative, ties one half) of its weights, a quadratic form in
    them: for a block of copies summing to ``w``, the row without copy ``c`` has ``U(w − c, w − c) = U(w, w) −
    U(c, w) − U(w, c) + U(c, c)``. So the pairs are counted once per block over the sorted values, and each
    copy needs only its own items against the block's cumulative weights and against itself.
    """
    return _design_aucs({"signal": signal}, positive, design, strata)["signal"]


def _design_aucs(signals: dict[str, np.ndarray], positive: np.ndarray, design: Design,
                 strata: np.ndarray | None) -> dict[str, np.ndarray]:
    """:func:`design_auc` of each signal; the pairs of a row (the denominator) are counted once for all."""
    y = np.asarray(positive, dtype=np.float64)
    groups = np.zeros(y.size, dtype=np.int64) if strata is None else np.unique(strata, return_inverse=True)[1]
    if y.size != design.n_items or groups.size != y.size:
        raise RobotaskError(f"weighted_auc: labels {y.shape}, strata {groups.shape} and a design of "
                            f"{design.n_items} items disagree")
    onehot = np.eye(int(groups.max()) + 1)[groups]  # (items, strata)
    per_stratum = design.sums(np.concatenate([onehot * y[:, None], onehot * (1 - y[:, None])], axis=1))
    positives, negatives = np.split(per_stratum, 2, axis=1)
    den = (positives * negatives).sum(axis=1)  # every (positive, negative) pair within a stratum
    out = {}
    for name, signal in signals.items():
        x = np.asarray(signal, dtype=np.float64)
        if x.shape != y.shape:
            raise RobotaskError(f"weighted_auc: signal {name!r} {x.shape} and labels {y.shape} disagree")
        if not np.isfinite(x).all():
            raise RobotaskError(f"weighted_auc: the signal {name!r} holds NaN or infinite values; expected finite "
                                "numbers")
        num = _pair_counts(x, y, groups, design)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name] = np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
    return out


def _strata_starts(strata_of_bins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For bins sorted by stratum: the first bin of each stratum, and each bin's stratum (0-based)."""
    first = np.r_[True, np.diff(strata_of_bins) != 0]
    return np.flatnonzero(first), np.cumsum(first) - 1


def _pair_counts(x: np.ndarray, y: np.ndarray, groups: np.ndarray, design: Design) -> np.ndarray:
    """Per row of ``design``, the weighted count of (positive, negative) pairs within one stratum with the
    positive's value above, ties one half: whole numbers and halves, exact in float64."""
    order = np.lexsort((x, groups))
    xs, gs = x[order], groups[order]
    new = np.r_[True, (np.diff(xs) != 0) | (np.diff(gs) != 0)]  # the first item of each distinct value
    bin_of = np.empty(x.size, dtype=np.int64)
    bin_of[order] = np.cumsum(new) - 1
    starts, stratum = _strata_starts(gs[new])
    shape = (int(new.sum()), x.size)
    blocks = design.block_weights  # (items, blocks) float32: counts, exact
    pos = sparse.csr_matrix((y.astype(np.float32), (bin_of, np.arange(x.size))), shape=shape) @ blocks
    neg = sparse.csr_matrix(((1 - y).astype(np.float32), (bin_of, np.arange(x.size))), shape=shape) @ blocks
    below = np.cumsum(neg, axis=0) - neg  # negative weight strictly below, within the stratum
    before = np.cumsum(pos, axis=0) - pos
    if starts.size > 1:
        below -= below[starts][stratum]
        before -= before[starts][stratum]
    ties_below = below + 0.5 * neg  # what a positive at this value counts against the block's negatives
    before += 0.5 * pos
    above = np.add.reduceat(pos, starts, axis=0)[stratum] - before  # and a negative against the positives
    k = design.n_groups
    total = np.einsum("ij,ij->j", pos, ties_below, dtype=np.float64)
    adjust = np.empty(design.n_blocks * k)
    for items, counts, slots in zip(design.members, design.counts, design.slots, strict=True):
        adjust[slots] = _copy_pairs(counts, y[items], bin_of[items], stratum, (ties_below, above), slots // k)
    out = np.empty((design.n_blocks, k + 1))
    out[:, 0] = total
    out[:, 1:] = total[:, None] + adjust.reshape(-1, k)
    return out.ravel()


def _copy_pairs(counts: np.ndarray, y: np.ndarray, bins: np.ndarray, stratum: np.ndarray,
                block_pairs: tuple[np.ndarray, np.ndarray], block: np.ndarray) -> np.ndarray:
    """Per copy of one task (a column of ``counts``, its items × its copies; the items' labels ``y`` and their
    values' ``bins``), ``U(c, c) − U(c, w) − U(w, c)``: its pairs with itself less its pairs with its block
    ``w`` (``block_pairs``: per bin and block, what a positive counts against the block's negatives and a
    negative against its positives; ``block``: each copy's block)."""
    order = np.argsort(bins, kind="stable")
    sorted_bins = bins[order]
    pos, neg = (counts * y[:, None])[order], (counts * (1 - y[:, None]))[order]
    new = np.flatnonzero(np.r_[True, np.diff(sorted_bins) != 0])
    if new.size < bins.size:  # tied values: one row per distinct value
        pos, neg = np.add.reduceat(pos, new, axis=0), np.add.reduceat(neg, new, axis=0)
    distinct = sorted_bins[new]
    against_positives, against_negatives = (b[np.ix_(distinct, block)] for b in block_pairs)
    starts, local = _strata_starts(stratum[distinct])
    below = np.cumsum(neg, axis=0) - neg
    if starts.size > 1:
        below -= below[starts][local]
    own = pos * (below + 0.5 * neg - against_positives) - neg * against_negatives
    return own.sum(axis=0)


def auc_intervals(signals: dict[str, np.ndarray], positive: np.ndarray, design: Design,
                  strata: np.ndarray | None = None) -> tuple[dict[str, Interval], dict[str, np.ndarray]]:
    """Each signal's AUC (within strata, if given) with its studentised interval, and its value on every row of
    ``design`` (for paired comparisons)."""
    reps = _design_aucs(signals, positive, design, strata)
    return {name: design.interval(reps[name], bounds=(0.0, 1.0)) for name in signals}, reps



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
