"""Metrics of the episode task suite (spec §5.0), used by ``robotask.episode.tasks.registry`` and notebook ``12_task``.

Everything is NumPy, written here and tested on hand-computed cases and against scikit-learn's
definitions (confusion matrix, per-class and micro precision/recall/F1 with ``zero_division=0``);
scikit-learn is not imported, so a run of the suite does not pay for loading it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from . import blockwise


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with 0 where den is 0 (scikit-learn's ``zero_division=0``)."""
    num, den = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
    return np.divide(num, den, out=np.zeros_like(num), where=den != 0)


def _prf(tp: np.ndarray, n_pred: np.ndarray, n_true: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 from true positives, predicted and true counts (0 when undefined)."""
    tp = np.asarray(tp, dtype=np.float64)
    return _ratio(tp, n_pred), _ratio(tp, n_true), _ratio(2 * tp, np.asarray(n_pred) + np.asarray(n_true))


def confusion_matrix(y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> np.ndarray:
    """Counts (n_classes, n_classes), rows true, columns predicted; ids outside the range are ignored."""
    t, p = np.asarray(y_true, dtype=np.int64), np.asarray(y_pred, dtype=np.int64)
    keep = (t >= 0) & (t < n_classes) & (p >= 0) & (p < n_classes)
    return np.bincount(t[keep] * n_classes + p[keep], minlength=n_classes ** 2).reshape(n_classes, n_classes)


def label_prf(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-label precision, recall and F1 of 0/1 matrices (n, k) (0 when undefined)."""
    t, p = np.asarray(y_true).astype(bool), np.asarray(y_pred).astype(bool)
    return _prf((t & p).sum(axis=0), p.sum(axis=0), t.sum(axis=0))


def classification_metrics(y_true: np.ndarray, y_pred: np.ndarray, class_names: Sequence[str]) -> dict:
    """Accuracy and supported-class balanced accuracy, macro-F1 and weighted-F1.

    Parameters
    ----------
    y_true, y_pred : integer class ids in ``[0, len(class_names))``.
    class_names : names of all classes (train + test); averages use classes with test support only.
    """
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    table = per_class_table(y_true, y_pred, class_names)
    supported = table[table["support"] > 0]
    n = len(y_true)
    weights = supported["support"] / max(int(supported["support"].sum()), 1)
    return {
        "accuracy": float(np.mean(y_true == y_pred)) if n else 0.0,
        "balanced_accuracy": float(supported["recall"].mean()) if len(supported) else 0.0,
        "macro_f1": float(supported["f1"].mean()) if len(supported) else 0.0,
        "weighted_f1": float((supported["f1"] * weights).sum()),
        "num_eval_windows": int(n),
        "num_classes": int(len(class_names)),
    }


def per_class_table(y_true: np.ndarray, y_pred: np.ndarray, class_names: Sequence[str]) -> pd.DataFrame:
    """``class_id, class_name, support, predicted, precision, recall, f1`` for every class."""
    labels = np.arange(len(class_names))
    cm = confusion_matrix(y_true, y_pred, len(labels))
    s, predicted = cm.sum(axis=1), cm.sum(axis=0)
    p, r, f = _prf(np.diag(cm), predicted, s)
    return pd.DataFrame({"class_id": labels, "class_name": list(class_names), "support": s.astype(int),
                         "predicted": predicted.astype(int), "precision": p, "recall": r, "f1": f})


def confusion_table(y_true: np.ndarray, y_pred: np.ndarray, class_names: Sequence[str]) -> pd.DataFrame:
    """Confusion matrix as a DataFrame with a first column ``true\\pred`` (rows true, columns predicted)."""
    cm = confusion_matrix(y_true, y_pred, len(class_names))
    frame = pd.DataFrame(cm, columns=list(class_names))
    frame.insert(0, "true\\pred", list(class_names))
    return frame


def binary_metrics(y_true: np.ndarray, y_pred: np.ndarray) -> dict:
    """Accuracy, precision, recall, F1 and counts with positive class 1."""
    y_true = np.asarray(y_true).astype(int)
    y_pred = np.asarray(y_pred).astype(int)
    tp = int(np.sum((y_true == 1) & (y_pred == 1)))
    tn = int(np.sum((y_true == 0) & (y_pred == 0)))
    fp = int(np.sum((y_true == 0) & (y_pred == 1)))
    fn = int(np.sum((y_true == 1) & (y_pred == 0)))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    n = max(len(y_true), 1)
    return {"accuracy": (tp + tn) / n, "precision": precision, "recall": recall, "f1": f1,
            "tp": tp, "tn": tn, "fp": fp, "fn": fn,
            "true_positive_rate": float(np.mean(y_true == 1)) if len(y_true) else 0.0,
            "predicted_positive_rate": float(np.mean(y_pred == 1)) if len(y_pred) else 0.0}


def _as_rows(a: np.ndarray) -> np.ndarray:
    """``a`` as a matrix of rows (a vector is one column), without a copy; a matrix that is not an ndarray
    but reads its rows on demand (``episode.models.row_blocks.LazyRows``: targets and predictions on disk)
    is kept as it is, and read one block of rows at a time."""
    if not isinstance(a, np.ndarray) and getattr(a, "ndim", None) == 2:
        return a
    a = np.asarray(a)
    return a.reshape(len(a), -1)


def _f64(a: np.ndarray, start: int, stop: int, scale: np.ndarray | None = None) -> np.ndarray:
    """Rows ``start:stop`` of ``a`` (divided by ``scale`` in ``a``'s dtype first) as float64."""
    rows = np.asarray(a[start:stop])
    return np.asarray(rows if scale is None else rows / scale, dtype=np.float64)


def _pooled_r2(y_true: np.ndarray, y_pred: np.ndarray, scale: np.ndarray | None = None) -> float:
    """:func:`pooled_r2` of ``y_true / scale`` and ``y_pred / scale``, one block of rows at a time
    (``blockwise``: NumPy's sums bit for bit, no float64 copy of the test set)."""
    t, p = _as_rows(y_true), _as_rows(y_pred)
    n, width = t.shape
    if n == 0:
        return 0.0
    mean = blockwise.column_total(lambda a, b: _f64(t, a, b, scale), n, width) / n
    den = blockwise.total(lambda a, b: (_f64(t, a, b, scale) - mean) ** 2, n, width)
    if not den > 0:
        return 0.0
    return 1.0 - blockwise.total(lambda a, b: (_f64(t, a, b, scale) - _f64(p, a, b, scale)) ** 2, n, width) / den


def pooled_r2(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """1 − Σ(y − ŷ)² / Σ(y − ȳ_col)² over all entries, ȳ_col the test column mean; 0 if the denominator is 0."""
    return _pooled_r2(y_true, y_pred)


def standardized_r2(y_true: np.ndarray, y_pred: np.ndarray, y_std: np.ndarray) -> float:
    """Pooled R² after dividing every column by ``y_std`` (train std), so no column dominates (§8.4)."""
    std = np.where(np.asarray(y_std) > 0, y_std, 1.0)
    return _pooled_r2(y_true, y_pred, std)


def regression_metrics(y_true: np.ndarray, y_pred: np.ndarray) -> dict:
    """``mse``, ``mae`` (means over all entries) and pooled ``r2``, one block of rows at a time."""
    t, p = _as_rows(y_true), _as_rows(y_pred)
    n, width = t.shape
    size = max(n * width, 1)
    mse = blockwise.total(lambda a, b: (_f64(t, a, b) - _f64(p, a, b)) ** 2, n, width) / size
    mae = blockwise.total(lambda a, b: np.abs(_f64(t, a, b) - _f64(p, a, b)), n, width) / size
    return {"mse": float(mse) if n * width else float("nan"), "mae": float(mae) if n * width else float("nan"),
            "r2": pooled_r2(y_true, y_pred), "target_dim": int(t.shape[1])}


def mpjpe(y_true: np.ndarray, y_pred: np.ndarray, n_future: int, final_only: bool = False) -> float:
    """Mean per-joint position error (Euclidean, metres) of flat (n, n_future·J·3) trajectories.

    Parameters
    ----------
    n_future : number of future frames in a row (frame-major layout: frame, joint, xyz).
    final_only : use only the last future frame (the "final-frame MPJPE").
    """
    t, p = _as_rows(y_true), _as_rows(y_pred)
    n, joints = len(t), t.shape[1] // (3 * n_future)
    if n == 0:  # NumPy's mean of nothing (nan, with its warning)
        return float(np.linalg.norm(np.zeros((0, 3)), axis=-1).mean())
    width = joints if final_only else n_future * joints

    def errors(a: int, b: int) -> np.ndarray:  # the per-joint errors of rows a:b, one row each
        ta, pa = (_f64(m, a, b).reshape(b - a, n_future, joints, 3) for m in (t, p))
        if final_only:
            ta, pa = ta[:, -1], pa[:, -1]
        return np.linalg.norm(ta - pa, axis=-1).reshape(b - a, width)

    # the mean of all errors as NumPy forms it (``blockwise.total``), one block of rows at a time
    return float(blockwise.total(errors, n, width) / (n * width))


def _unit_rows(a: np.ndarray, start: int, stop: int, norms: np.ndarray | None = None) -> np.ndarray:
    """Rows ``start:stop`` of ``a`` in float64 divided by their norms (floor 1e-8; ``norms`` given or computed)."""
    rows = np.asarray(a[start:stop], dtype=np.float64)
    if norms is None:
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, 1e-8)


def retrieval_ranks(similarity: np.ndarray, groups: np.ndarray | None = None, first: int = 0) -> np.ndarray:
    """1-based rank of the positive of each query in its descending-similarity order.

    Parameters
    ----------
    similarity : (n_queries, n_candidates); the positive of query i is candidate ``first`` + i (``first``:
        the index of the first query when ``similarity`` holds a block of them).
    groups : optional group id per candidate (= per query); every candidate of the query's group
        counts as a positive and the rank is that of the best-ranked one (grounding fix, §8.11).
        Ties are broken by candidate index (stable sort), so ranks are reproducible.
    """
    order = np.argsort(-similarity, axis=1, kind="stable")
    n = similarity.shape[0]
    if groups is None:
        hit = order == np.arange(first, first + n)[:, None]
    else:
        groups = np.asarray(groups)
        hit = groups[order] == groups[first:first + n, None]
    return hit.argmax(axis=1) + 1


RANK_BLOCK_BYTES = 4 << 20  # bytes of one block of similarities or of unit candidate rows
ALIGNED_ROWS = 64  # blocks are whole multiples of this: BLAS then forms each similarity as in one product


def _aligned_rows(row_bytes: int) -> int:
    """Rows of a block of :data:`RANK_BLOCK_BYTES`, a multiple of :data:`ALIGNED_ROWS`."""
    return ALIGNED_ROWS * max(1, RANK_BLOCK_BYTES // (ALIGNED_ROWS * max(row_bytes, 1)))


def cosine_ranks(queries: np.ndarray, candidates: np.ndarray, groups: np.ndarray | None = None) -> np.ndarray:
    """:func:`retrieval_ranks` of the cosine similarities of every query row with every candidate row (norm
    floor 1e-8), one block of queries against one block of candidates at a time: the same ranks, with memory
    of a few blocks instead of float64 copies of both sides and the query × candidate matrix.

    A similarity is the same product of the same unit rows as in the whole matrix: blocks start at
    multiples of :data:`ALIGNED_ROWS` rows, so BLAS forms every entry with the kernel it uses for the whole
    product (tested against it).
    """
    n_q, n_c = len(queries), len(candidates)
    norms = np.concatenate([np.linalg.norm(np.asarray(candidates[a:a + 256], dtype=np.float64), axis=1)
                            for a in range(0, n_c, 256)] or [np.zeros(0)])[:, None]
    q_rows, c_rows = _aligned_rows(8 * n_c), _aligned_rows(8 * int(np.prod(np.shape(candidates)[1:])))
    ranks = np.empty(n_q, dtype=np.int64)
    for first in range(0, n_q, q_rows):
        stop = min(first + q_rows, n_q)
        unit = _unit_rows(queries, first, stop)
        similarity = np.empty((stop - first, n_c))
        for c0 in range(0, n_c, c_rows):
            c1 = min(c0 + c_rows, n_c)
            similarity[:, c0:c1] = unit @ _unit_rows(candidates, c0, c1, norms[c0:c1]).T
        ranks[first:stop] = retrieval_ranks(similarity, groups, first)
    return ranks


def retrieval_metrics(ranks: np.ndarray) -> dict:
    """MRR, median/mean rank and top-1/5/10 accuracy from 1-based ranks."""
    ranks = np.asarray(ranks, dtype=np.float64)
    out = {"mrr": float(np.mean(1.0 / ranks)), "median_rank": float(np.median(ranks)),
           "mean_rank": float(np.mean(ranks)), "num_queries": int(len(ranks))}
    for k in (1, 5, 10):
        out[f"top{k}_accuracy"] = float(np.mean(ranks <= k))
    return out


def random_retrieval_metrics(n: int) -> dict:
    """Expected retrieval metrics of a uniformly random ranking of ``n`` candidates with one positive.

    MRR = H_n / n (mean of 1/k for k = 1..n); top-k = k / n; median rank (n + 1) / 2.
    """
    k = np.arange(1, n + 1)
    out = {"mrr": float(np.mean(1.0 / k)), "median_rank": (n + 1) / 2, "mean_rank": (n + 1) / 2,
           "num_queries": int(n)}
    for top in (1, 5, 10):
        out[f"top{top}_accuracy"] = min(top, n) / n
    return out


def multilabel_metrics(y_true: np.ndarray, y_pred: np.ndarray) -> dict:
    """Micro precision/recall/F1, macro-F1 over all labels (0 when undefined) and exact match."""
    y_true = np.asarray(y_true).astype(int)
    y_pred = np.asarray(y_pred).astype(int)
    tp = float(np.sum((y_true != 0) & (y_pred != 0)))
    p, r, f = (float(v) for v in _prf(tp, float(np.sum(y_pred != 0)), float(np.sum(y_true != 0))))
    _, _, f_each = label_prf(y_true, y_pred)
    return {"micro_precision": float(p), "micro_recall": float(r), "micro_f1": float(f),
            "precision": float(p), "recall": float(r), "macro_f1": float(np.mean(f_each)),
            "exact_match": float(np.mean(np.all(y_true == y_pred, axis=1))),
            "num_objects": int(y_true.shape[1])}


def per_label_f1(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """F1 of every label column (0 when undefined)."""
    return label_prf(y_true, y_pred)[2]


def boundary_f1(predicted: Sequence[int], true: Sequence[int], tolerance: int = 10) -> dict:
    """Greedy boundary matching: each prediction, in order, takes the nearest unused true boundary within τ.

    Parameters
    ----------
    predicted : predicted boundary frames, in prediction order.
    true : true boundary frames (already restricted to the evaluated frame range).
    tolerance : τ in frames.
    """
    true = [int(t) for t in true]
    used = [False] * len(true)
    errors: list[int] = []
    for p in predicted:
        best, best_d = -1, tolerance + 1
        for j, t in enumerate(true):
            d = abs(int(p) - t)
            if not used[j] and d <= tolerance and d < best_d:
                best, best_d = j, d
        if best >= 0:
            used[best] = True
            errors.append(best_d)
    m = len(errors)
    precision = m / len(predicted) if len(predicted) else 0.0
    recall = m / len(true) if true else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"boundary_precision": precision, "boundary_recall": recall, "boundary_f1": f1,
            "matched_boundaries": m, "true_boundaries": len(true), "predicted_boundaries": len(predicted),
            "mean_abs_timing_error_frames": float(np.mean(errors)) if errors else None,
            "tolerance_frames": int(tolerance)}


def boundary_nms(frames: np.ndarray, scores: np.ndarray, radius: int) -> np.ndarray:
    """Non-maximum suppression: keep the highest-scoring frames, dropping any within ``radius`` of a kept one.

    Returns the kept frames sorted in time order.
    """
    frames = np.asarray(frames)
    order = np.argsort(-np.asarray(scores), kind="stable")
    kept: list[int] = []
    for i in order:
        if all(abs(int(frames[i]) - k) > radius for k in kept):
            kept.append(int(frames[i]))
    return np.array(sorted(kept), dtype=np.int64)


def label_coverage(train_labels: np.ndarray, test_labels: np.ndarray) -> float:
    """Fraction of test samples whose label occurs in train: the accuracy ceiling of any classifier."""
    test_labels = np.asarray(test_labels)
    if len(test_labels) == 0:
        return 0.0
    return float(np.mean(np.isin(test_labels, np.unique(train_labels))))
