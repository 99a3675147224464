"""Score one head's test output (spec §5.0) and write its artifacts in the original's layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..io import write_csv, write_json, write_npz
from . import metrics as M
from .fixes import Protocol
from .head_runs import HeadOutput
from .task_builders import TaskData
from .tasks import TaskSpec


def evaluate(spec: TaskSpec, data: TaskData, out: HeadOutput | None, protocol: Protocol) -> dict:
    """Metrics of one head's test output (spec §5.0), with the task's extra metrics."""
    te, tr = data.test, data.train
    if data.kind == "retrieval":
        if out is None:
            return M.random_retrieval_metrics(len(te))
        truth = data.y[te]
        q, c = (truth, out.pred) if data.extra["query_side"] == "truth" else (out.pred, truth)
        groups = data.extra["groups"][te] if protocol.grounding_identical_text and "groups" in data.extra else None
        ranks = M.retrieval_ranks(M.cosine_similarity(q, c), groups)
        out.train_final["ranks"] = ranks
        res = M.retrieval_metrics(ranks)
        if "groups" in data.extra:
            res["distinct_test_texts"] = int(len(np.unique(data.extra["groups"][te])))
            res["positives_per_query"] = "identical caption text" if groups is not None else "same window"
        return res
    if data.kind == "regression":
        res = M.regression_metrics(data.y[te], out.pred)
        if "n_future" in data.extra:
            k = data.extra["n_future"]
            res["mpjpe"] = M.mpjpe(data.y[te], out.pred, k)
            res["final_frame_mpjpe"] = M.mpjpe(data.y[te], out.pred, k, final_only=True)
            res["hand_frame"] = data.extra["frame"]
        else:
            res["r2_standardized"] = M.standardized_r2(data.y[te], out.pred, data.y[tr].std(axis=0))
        return res
    if data.kind == "multilabel":
        return M.multilabel_metrics(data.y[te], out.pred)
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


def write_artifacts(spec: TaskSpec, data: TaskData, out: HeadOutput, metrics: dict, folder: Path) -> None:
    """metrics.json, predictions, per-class metrics, confusion matrix and model files of one head."""
    folder.mkdir(parents=True, exist_ok=True)
    te = data.test
    rows = data.rows.iloc[te]
    if data.kind in ("classification", "binary"):
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
    elif data.kind == "multilabel":
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
    else:
        arrays = {"y_true": data.y[te], "y_pred": out.pred, "test_window_indices": rows["window_index"].to_numpy()}
        if "ranks" in out.train_final:
            arrays["ranks"] = out.train_final["ranks"]
        write_npz(folder / "predictions.npz", **arrays)
    if out.save is not None:
        out.save(folder)
    if out.history:
        write_json(folder / "history.json", out.history)
    write_json(folder / "metrics.json", metrics)
