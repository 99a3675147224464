"""Score one head's test output (spec §5.0) and write its artifacts in the original's layout."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from ...io import write_csv, write_json, write_npz
from ..tasks import metrics as M
from ..tasks.blockwise import column_std
from ..tasks.builders import TaskData
from ..tasks.protocols import Protocol
from ..tasks.registry import TaskSpec
from .fit import HeadOutput, rows_of


def _score_retrieval(spec: TaskSpec, data: TaskData, out: HeadOutput | None, protocol: Protocol) -> dict:
    """MRR / top-k of ranking the test candidates by cosine similarity (random ranking without a head)."""
    te = data.test
    if out is None:
        return M.random_retrieval_metrics(len(te))
    truth = rows_of(data.y, te)
    q, c = (truth, out.pred) if data.extra["query_side"] == "truth" else (out.pred, truth)
    groups = data.extra["groups"][te] if protocol.grounding_identical_text and "groups" in data.extra else None
    ranks = M.cosine_ranks(q, c, groups)
    out.train_final["ranks"] = ranks
    res = M.retrieval_metrics(ranks)
    if "groups" in data.extra:
        res["distinct_test_texts"] = int(len(np.unique(data.extra["groups"][te])))
        res["positives_per_query"] = "identical caption text" if groups is not None else "same window"
    return res


def _score_regression(spec: TaskSpec, data: TaskData, out: HeadOutput, protocol: Protocol) -> dict:
    """R², MAE; MPJPE for the hand forecast, else the train-std standardised R²."""
    y_test = rows_of(data.y, data.test)  # views when the sides are ranges: no copy of a wide target
    res = M.regression_metrics(y_test, out.pred)
    if "n_future" in data.extra:
        k = data.extra["n_future"]
        res["mpjpe"] = M.mpjpe(y_test, out.pred, k)
        res["final_frame_mpjpe"] = M.mpjpe(y_test, out.pred, k, final_only=True)
        res["hand_frame"] = data.extra["frame"]
    else:
        res["r2_standardized"] = M.standardized_r2(y_test, out.pred, column_std(rows_of(data.y, data.train)))
    return res


def _score_multilabel(spec: TaskSpec, data: TaskData, out: HeadOutput, protocol: Protocol) -> dict:
    """Micro / macro F1 and exact match of the predicted label sets."""
    return M.multilabel_metrics(data.y[data.test], out.pred)


def _score_labels(spec: TaskSpec, data: TaskData, out: HeadOutput, protocol: Protocol) -> dict:
    """Classification / binary metrics with the task's extras (coverage ceiling, boundaries, copy baseline)."""
    te, tr = data.test, data.train
    y_true = data.y[te]
    if data.kind == "binary":
        res = M.binary_metrics(y_true, out.pred)
        res["macro_f1"] = M.classification_metrics(y_true, out.pred, data.class_names)["macro_f1"]
    else:
        res = M.classification_metrics(y_true, out.pred, data.class_names)
    ytr = data.y[tr]
    res["majority_baseline_accuracy"] = float(np.mean(y_true == np.bincount(ytr).argmax()))
    res["unseen_test_classes"] = sorted({data.class_names[i] for i in set(y_true) - set(ytr)})
    if protocol.coverage_ceiling:
        res["label_coverage_ceiling"] = M.label_coverage(ytr, y_true)
    if "boundaries" in data.extra:
        res.update(boundary_scores(data, out, protocol))
    if "current_label" in data.extra:
        current = data.extra["current_label"][te]
        names = np.array(data.class_names, dtype=object)
        res["copy_current_action_accuracy"] = float(np.mean(current == names[y_true]))
        res["target"] = data.extra["target"]
    if "rule" in data.extra:
        res["label_rule"] = data.extra["rule"]
    return res


# task kind -> its scorer
SCORERS: dict[str, Callable[[TaskSpec, TaskData, HeadOutput | None, Protocol], dict]] = {
    "retrieval": _score_retrieval, "regression": _score_regression, "multilabel": _score_multilabel,
    "classification": _score_labels, "binary": _score_labels,
}


def evaluate(spec: TaskSpec, data: TaskData, out: HeadOutput | None, protocol: Protocol) -> dict:
    """Metrics of one head's test output (spec §5.0), with the task's extra metrics."""
    return SCORERS[data.kind](spec, data, out, protocol)


def boundary_scores(data: TaskData, out: HeadOutput, protocol: Protocol) -> dict:
    """Boundary F1 (τ = 10) from windows predicted "transition"; NMS over P(transition) if the protocol says so."""
    if "transition" not in data.class_names:
        return M.boundary_f1([], [])
    t = data.class_names.index("transition")
    centers = data.rows["center_frame"].to_numpy()[data.test]
    positive = out.pred == t
    frames = centers[positive]
    if protocol.boundary_nms and len(frames):
        frames = M.boundary_nms(frames, out.proba[positive, t], radius=2 * 10)
    b = data.extra["boundaries"]
    true = b[(b >= centers.min()) & (b <= centers.max())]
    res = M.boundary_f1(frames, true, 10)
    res["boundary_nms"] = bool(protocol.boundary_nms)
    return res


def _write_labels(data: TaskData, out: HeadOutput, folder: Path) -> None:
    """Classification / binary: per-class metrics, confusion matrix, predictions, true boundaries."""
    te = data.test
    rows = data.rows.iloc[te]
    y_true = data.y[te]
    write_csv(folder / "per_class_metrics.csv", M.per_class_table(y_true, out.pred, data.class_names))
    write_csv(folder / "confusion_matrix.csv", M.confusion_table(y_true, out.pred, data.class_names))
    if data.kind == "classification":
        names = np.array(data.class_names, dtype=object)
        frame = rows[["window_index", "start_frame", "end_frame", "center_frame"]].copy()
        frame["true_label"], frame["predicted_label"] = names[y_true], names[out.pred]
        frame["confidence"] = out.proba.max(axis=1)
        frame["correct"] = y_true == out.pred
    else:
        frame = pd.DataFrame({"sample_index": rows["sample_index"].to_numpy(), "true": y_true,
                              "predicted": out.pred, "prob_positive": out.proba[:, 1]})
    write_csv(folder / "predictions.csv", frame)
    if "boundaries" in data.extra:
        write_csv(folder / "true_boundaries.csv", pd.DataFrame({"frame": data.extra["boundaries"]}))


def _write_multilabel(data: TaskData, out: HeadOutput, folder: Path) -> None:
    """Multi-label: predicted / true object sets, the vocabulary, per-object F1."""
    te = data.test
    rows = data.rows.iloc[te]
    vocab = np.array(data.class_names, dtype=object)
    join = lambda m: ["|".join(vocab[r.astype(bool)]) for r in m]  # noqa: E731
    write_csv(folder / "predictions.csv", pd.DataFrame({
        "window_index": rows["window_index"].to_numpy(), "start_frame": rows["start_frame"].to_numpy(),
        "end_frame": rows["end_frame"].to_numpy(), "true_objects": join(data.y[te]),
        "predicted_objects": join(out.pred)}))
    write_json(folder / "object_vocab.json", list(data.class_names))
    f1 = M.per_label_f1(data.y[te], out.pred)
    write_csv(folder / "per_class_metrics.csv", pd.DataFrame({
        "class_name": data.class_names, "support": data.y[te].sum(axis=0), "predicted": out.pred.sum(axis=0),
        "train_support": data.y[data.train].sum(axis=0), "f1": f1}))


def _write_arrays(data: TaskData, out: HeadOutput, folder: Path) -> None:
    """Regression / retrieval: targets, predictions (and ranks) in predictions.npz."""
    te = data.test
    # targets on disk (a LazyRows, not an ndarray) are written one block at a time, as the predictions
    y_true = data.y[te] if isinstance(data.y, np.ndarray) else rows_of(data.y, te)
    arrays = {"y_true": y_true, "y_pred": out.pred,
              "test_window_indices": data.rows.iloc[te]["window_index"].to_numpy()}
    if "ranks" in out.train_final:
        arrays["ranks"] = out.train_final["ranks"]
    write_npz(folder / "predictions.npz", **arrays)


# task kind -> the writer of its prediction files
PREDICTION_WRITERS: dict[str, Callable[[TaskData, HeadOutput, Path], None]] = {
    "classification": _write_labels, "binary": _write_labels, "multilabel": _write_multilabel,
    "regression": _write_arrays, "retrieval": _write_arrays,
}


def write_artifacts(spec: TaskSpec, data: TaskData, out: HeadOutput, metrics: dict, folder: Path) -> None:
    """metrics.json, predictions, per-class metrics, confusion matrix and model files of one head."""
    folder.mkdir(parents=True, exist_ok=True)
    PREDICTION_WRITERS[data.kind](data, out, folder)
    if out.save is not None:
        out.save(folder)
    if out.history:
        write_json(folder / "history.json", out.history)
    write_json(folder / "metrics.json", metrics)
