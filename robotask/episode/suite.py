"""Run the twelve episode tasks: heads, baselines, metrics, artifacts and ``summary_report.json``.

``run_suite`` loops over the registry of ``robotask.episode.tasks``; ``run_task`` runs one task with the
minimal head, the MLP and the trivial baseline on the same inputs, split and metrics, and writes the
original layout: ``<out>/<task>/`` and ``<out>/neural_mlp/<task>/`` (metrics.json, predictions,
per-class metrics, confusion matrix, model files). A task that cannot run records its reason.
Used by notebooks ``12_task`` and ``13_suite_summary``, ``benchmarks/episode_suite.py`` and the
``robotask suite`` subcommand.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from ..errors import RobotaskError
from ..io import write_csv, write_json, write_npz
from . import baselines as B
from . import metrics as M
from .heads import SOFTMAX_EPOCHS, MultiLabelHead, SoftmaxHead, ZScaler, fit_dual_ridge, positive_weights, \
    softmax, threshold_multilabel
from .mlp import MLPConfig, n_parameters, train_mlp
from .tasks import TASKS, TaskData, TaskSpec, TaskUnavailable, Protocol, describe, get_protocol, parse_tasks, \
    split

HEADS = ("minimal", "mlp")

# Other data, not ours: the original suite's primary metrics on the real Xperience-10M sample
# (TS results/episode_task_suite/summary_report.json, spec §7). Shown beside our numbers, never as ours.
PUBLISHED_REAL_SAMPLE: dict[str, dict] = {
    "timeline_action": {"minimal": 0.0500, "mlp": 0.0148},
    "timeline_subtask": {"minimal": 0.0506, "mlp": 0.0281},
    "transition_detection": {"minimal": 0.6118, "mlp": 0.5862},
    "next_action": {"minimal": 0.0593, "mlp": 0.0419},
    "hand_trajectory_forecast": {"minimal": 0.8647, "mlp": 0.1079},
    "contact_prediction": {"minimal": 1.0, "mlp": 1.0, "note": "degenerate: one class"},
    "object_relevance": {"minimal": 0.1803, "mlp": 0.1679},
    "caption_grounding": {"minimal": 0.0160, "mlp": 0.0168},
    "cross_modal_retrieval": {"minimal": 0.3678, "mlp": 0.1983},
    "modality_reconstruction": {"minimal": -0.0153, "mlp": -0.0102},
    "temporal_order": {"minimal": 0.5400, "mlp": 0.8520},
    "misalignment_detection": {"minimal": 0.5052, "mlp": 0.7153},
}
# Real-sample label coverage of the chronological test split (spec §7, derived): other data.
PUBLISHED_COVERAGE = {"timeline_action": 64 / 343, "timeline_subtask": 0.166}
NEURAL_DIR = "neural_mlp"


@dataclass(frozen=True)
class SuiteConfig:
    """Run settings shared by every task (defaults = the published suite)."""

    softmax_epochs: int = SOFTMAX_EPOCHS
    mlp: MLPConfig = field(default_factory=MLPConfig)
    save_models: bool = True  # write model.npz / model.pt (the ridge weights are large)


@dataclass
class HeadOutput:
    """Test-set output of one head (or baseline)."""

    pred: np.ndarray  # class ids, multi-hot rows or target-unit values
    proba: np.ndarray | None = None  # class probabilities / label probabilities
    train_final: dict = field(default_factory=dict)
    history: list = field(default_factory=list)
    save: Callable[[Path], None] | None = None  # writes the model files


def parse_heads(spec: str | list[str]) -> list[str]:
    """``"minimal,mlp"`` (or a list) → validated head names; unknown → RobotaskError listing the choices."""
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    items = [h.strip() for h in items if h.strip()]
    bad = [h for h in items if h not in HEADS]
    if bad or not items:
        raise RobotaskError(f"unknown head(s) {bad or items!r}; expected a comma list of: {', '.join(HEADS)}")
    return [h for h in HEADS if h in items]


# ------------------------------------------------------------------------------ preparation
def rows_of(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` as a view when ``idx`` is a contiguous ascending range (no copy of wide matrices)."""
    if len(idx) and idx[-1] - idx[0] + 1 == len(idx) and np.all(np.diff(idx) == 1):
        return a[idx[0]:idx[-1] + 1]
    return a[idx]


def standardize(data: TaskData, protocol: Protocol) -> np.ndarray:
    """z-score the task inputs with train statistics (in place when the task owns X)."""
    scaler = ZScaler.fit(rows_of(data.X, data.train), protocol.std_floor)
    data.extra["x_mean"], data.extra["x_std"] = scaler.mean, scaler.std
    if data.owns_x:
        return scaler.transform(data.X, inplace=True)
    return scaler.transform(data.X)


def check_degenerate(data: TaskData) -> dict | None:
    """For label tasks: a dict describing a degenerate label (fewer than 2 train classes), else None."""
    if data.kind not in ("classification", "binary"):
        return None
    train_counts = np.bincount(data.y[data.train], minlength=len(data.class_names))
    if np.count_nonzero(train_counts) >= 2:
        return None
    all_counts = np.bincount(data.y, minlength=len(data.class_names))
    return {"status": "degenerate",
            "reason": f"label has {np.count_nonzero(train_counts)} class(es) in train; expected ≥ 2",
            "class_counts": {n: int(c) for n, c in zip(data.class_names, all_counts)},
            "train_class_counts": {n: int(c) for n, c in zip(data.class_names, train_counts)}}


# -------------------------------------------------------------------------------- the heads
def run_minimal(data: TaskData, z: np.ndarray, protocol: Protocol, cfg: SuiteConfig) -> HeadOutput:
    """The §5.0 minimal head of the task's kind, fitted on train rows and applied to test rows."""
    ztr, zte = rows_of(z, data.train), rows_of(z, data.test)
    ytr = data.y[data.train]
    if data.kind in ("classification", "binary"):
        head = SoftmaxHead(len(data.class_names), epochs=cfg.softmax_epochs).fit(ztr, ytr)
        proba = head.predict_proba(zte)
        last = head.history[-1]
        save = _saver(mean=data.extra["x_mean"], std=data.extra["x_std"], W=head.W, b=head.b,
                      class_names=np.array(data.class_names))
        return HeadOutput(proba.argmax(axis=1), proba, {"train_final_accuracy": last["train_accuracy"],
                                                        "train_final_loss": last["loss"]}, head.history, save)
    if data.kind == "multilabel":
        head = MultiLabelHead(epochs=cfg.softmax_epochs).fit(ztr, ytr)
        proba = head.predict_proba(zte)
        save = _saver(mean=data.extra["x_mean"], std=data.extra["x_std"], W=head.W, b=head.b,
                      object_vocab=np.array(data.class_names))
        return HeadOutput(threshold_multilabel(proba), proba, {"train_final_loss": head.history[-1]["loss"]},
                          head.history, save)
    dtype = np.float64 if protocol.robust_std_floor else np.float32
    ridge = fit_dual_ridge(ztr, data.y[data.train], std_floor=protocol.std_floor, dtype=dtype)
    pred = ridge.predict(zte)
    save = None
    if cfg.save_models:
        def save(out: Path) -> None:
            write_npz(out / "model.npz", x_mean=data.extra["x_mean"], x_std=data.extra["x_std"],
                      y_mean=ridge.y_scaler.mean, y_std=ridge.y_scaler.std, W=ridge.W.astype(np.float32))
    return HeadOutput(pred, None, {}, [], save)


def _saver(**arrays: Any) -> Callable[[Path], None]:
    """A model writer for ``model.npz``."""
    return lambda out: write_npz(out / "model.npz", **arrays)


def mlp_class_weights(y: np.ndarray, n_classes: int) -> np.ndarray:
    """§6: w_c = n / max(count_c, 1) / C, divided by the mean over all C classes."""
    w = len(y) / np.maximum(np.bincount(y, minlength=n_classes), 1) / n_classes
    return (w / w.mean()).astype(np.float32)


def run_mlp(data: TaskData, z: np.ndarray, protocol: Protocol, cfg: SuiteConfig) -> HeadOutput:
    """The §6 MLP on the same z-scored inputs and split; optional validation early stopping."""
    fit_idx = data.extra.get("train_core", data.train) if data.val is not None else data.train
    ztr, zte = rows_of(z, fit_idx), rows_of(z, data.test)
    zval = rows_of(z, data.val) if data.val is not None else None
    ytr = data.y[fit_idx]
    yval = data.y[data.val] if data.val is not None else None
    extra: dict[str, Any] = {"scaler": {"mean": data.extra["x_mean"], "std": data.extra["x_std"]}}
    if data.kind in ("classification", "binary"):
        c = len(data.class_names)
        res = train_mlp(ztr, ytr, "classifier", c, cfg.mlp, class_weight=mlp_class_weights(ytr, c),
                        x_val=zval, y_val=yval)
        proba = softmax(res.predict(zte).astype(np.float64))
        pred, extra["config"] = proba.argmax(axis=1), {"class_names": data.class_names}
    elif data.kind == "multilabel":
        res = train_mlp(ztr, ytr, "multilabel", ytr.shape[1], cfg.mlp, pos_weight=positive_weights(ytr),
                        x_val=zval, y_val=yval)
        proba = 1.0 / (1.0 + np.exp(-res.predict(zte).astype(np.float64)))
        pred, extra["config"] = threshold_multilabel(proba), {"object_vocab": data.class_names}
    else:
        ys = ZScaler.fit(ytr, protocol.std_floor)
        res = train_mlp(ztr, ys.transform(ytr), "regressor", ytr.shape[1], cfg.mlp,
                        x_val=zval, y_val=None if yval is None else ys.transform(yval))
        proba, pred = None, ys.inverse(res.predict(zte)).astype(np.float32)
        extra["scaler"].update({"y_mean": ys.mean, "y_std": ys.std})
        extra["config"] = {"target_dim": int(ytr.shape[1])}
    last = res.history[-1]
    train_final = {f"train_final_{k}": v for k, v in last.items() if k != "epoch"}
    train_final.update({"best_epoch": res.best_epoch, "num_parameters": n_parameters(res.model)})
    save = (lambda out: res.save(out, extra)) if cfg.save_models else (lambda out: write_json(
        out / "history.json", res.history))
    return HeadOutput(pred, proba, train_final, res.history, save)


def run_baseline(data: TaskData) -> HeadOutput | None:
    """The trivial baseline of the task kind (None for retrieval: its expectation is analytic)."""
    ytr, n = data.y[data.train], len(data.test)
    if data.kind == "classification":
        pred = B.majority_class(ytr, n)
    elif data.kind == "binary":
        pred = B.always_positive(n)
    elif data.kind == "multilabel":
        return HeadOutput(B.label_prevalence(ytr, n))
    elif data.kind == "regression":
        if "last_pose" in data.extra:
            return HeadOutput(B.zero_velocity(data.extra["last_pose"][data.test], data.extra["n_future"]))
        return HeadOutput(B.train_mean(ytr, n))
    else:
        return None
    proba = np.eye(len(data.class_names))[pred]
    return HeadOutput(pred, proba)


BASELINE_NAMES = {"classification": "majority class", "binary": "always positive",
                  "multilabel": "objects present in ≥ half the train windows",
                  "regression": "train mean", "retrieval": "random ranking (expected)"}


def baseline_name(data: TaskData) -> str:
    """Display name of the task's trivial baseline."""
    if "last_pose" in data.extra:
        return "zero velocity (last observed pose)"
    return BASELINE_NAMES[data.kind]


# ------------------------------------------------------------------------------- evaluation
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


# -------------------------------------------------------------------------------- artifacts
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


# ------------------------------------------------------------------------------------- tasks
def run_task(task_id: str, ws: Any, protocol: Protocol, heads: list[str] = list(HEADS),
             out_dir: Path | None = None, cfg: SuiteConfig = SuiteConfig(),
             fit_cache: dict | None = None) -> dict:
    """Run one task: baseline + requested heads; write artifacts under ``out_dir`` if given.

    Returns
    -------
    dict with ``status`` ("ok", "skipped" or "degenerate"), ``baseline``, ``minimal``, ``mlp`` metrics,
    ``primary`` {metric, higher_is_better, baseline, minimal, mlp}, the split sizes, and on failure ``reason``.
    """
    spec = TASKS[task_id]
    info = describe(spec)
    try:
        data = split(spec.build(ws, protocol), protocol, with_validation="mlp" in heads)
    except TaskUnavailable as exc:
        return _record(out_dir, spec, {**info, "status": "skipped", "reason": str(exc)})
    degenerate = check_degenerate(data)
    if degenerate:
        return _record(out_dir, spec, {**info, **degenerate})
    common = {**info, "protocol": protocol.name, "num_train": int(len(data.train)),
              "num_test": int(len(data.test)), "feature_dim": int(data.X.shape[1]),
              "num_val": 0 if data.val is None else int(len(data.val)),
              "baseline_name": baseline_name(data)}
    if data.kind in ("classification", "binary", "multilabel"):
        common["class_names"] = list(data.class_names)
    z = standardize(data, protocol)
    result: dict[str, Any] = {**common, "status": "ok"}
    base = run_baseline(data)
    result["baseline"] = evaluate(spec, data, base, protocol)
    outputs: dict[str, HeadOutput | None] = {"baseline": base}
    for head in heads:
        key = (spec.fit_key, head) if spec.fit_key else None
        if fit_cache is not None and key in fit_cache:
            output = fit_cache[key]
        else:
            output = (run_minimal if head == "minimal" else run_mlp)(data, z, protocol, cfg)
            if key is not None and fit_cache is not None:
                fit_cache[key] = output
        output = replace(output, train_final=dict(output.train_final))
        outputs[head] = output
        metrics = {**common, "model": "minimal" if head == "minimal" else "neural_mlp",
                   **evaluate(spec, data, output, protocol),
                   **{k: v for k, v in output.train_final.items() if k != "ranks"}}
        if head == "mlp":
            metrics["hyperparameters"] = asdict(cfg.mlp)
            metrics["early_stopping"] = data.val is not None
        metrics["baseline"] = result["baseline"]
        result[head] = metrics
        if out_dir is not None:
            folder = out_dir / spec.id if head == "minimal" else out_dir / NEURAL_DIR / spec.id
            write_artifacts(spec, data, output, metrics, folder)
    result["primary"] = primary_row(spec, result)
    data.X = None  # release the (possibly large) inputs; figures need targets and rows only
    result["data"], result["outputs"] = data, outputs  # in-memory only (for figures); not in the JSON
    return result


def primary_row(spec: TaskSpec, result: dict) -> dict:
    """The primary metric of baseline / minimal / MLP (None where not run)."""
    get = lambda part: (result.get(part) or {}).get(spec.primary_metric)  # noqa: E731
    return {"metric": spec.primary_metric, "higher_is_better": spec.higher_is_better,
            "baseline": get("baseline"), "minimal": get("minimal"), "mlp": get("mlp")}


def _record(out_dir: Path | None, spec: TaskSpec, doc: dict) -> dict:
    """Write error.json for a task that did not run and return the record."""
    if out_dir is not None:
        write_json(out_dir / spec.id / "error.json", {**doc, "error": doc["reason"]})
    doc["primary"] = {"metric": spec.primary_metric, "higher_is_better": spec.higher_is_better,
                      "baseline": None, "minimal": None, "mlp": None}
    return doc


def json_ready(result: dict) -> dict:
    """A task result without in-memory objects."""
    return {k: v for k, v in result.items() if k not in ("data", "outputs")}


def run_suite(ws: Any, tasks: str | list[str] = "all", heads: str | list[str] = "minimal,mlp",
              protocol: str | Protocol = "original", out_dir: str | Path | None = None,
              cfg: SuiteConfig = SuiteConfig(), progress: bool = True) -> dict:
    """Run tasks on a WindowSet; write per-task artifacts and ``summary_report.json`` (if ``out_dir``).

    Returns
    -------
    dict: the summary report plus ``timings`` and ``cpu_seconds`` (wall and CPU seconds per task; not
    written to the report, which is deterministic) and ``results`` (per-task results including in-memory TaskData).
    """
    from robotask.progress import tqdm

    task_ids = parse_tasks(tasks)
    head_list = parse_heads(heads)
    proto = protocol if isinstance(protocol, Protocol) else get_protocol(protocol)
    out = Path(out_dir) if out_dir is not None else None
    cache: dict = {}
    results, timings, cpu = {}, {}, {}
    for tid in tqdm(task_ids, desc=f"tasks ({proto.name})", disable=not progress):
        t0, c0 = time.perf_counter(), time.process_time()
        results[tid] = run_task(tid, ws, proto, head_list, out, cfg, cache)
        timings[tid], cpu[tid] = time.perf_counter() - t0, time.process_time() - c0
    report = summary_report(ws, proto, head_list, cfg, results)
    if out is not None:
        write_json(out / "summary_report.json", report)
    return {**report, "timings": timings, "cpu_seconds": cpu, "results": results}


def summary_report(ws: Any, proto: Protocol, heads: list[str], cfg: SuiteConfig, results: dict) -> dict:
    """The deterministic summary: episode facts, protocol, per-task metrics and the primary table."""
    clean = {t: json_ready(r) for t, r in results.items()}
    return {
        "num_frames": int(ws.episode.n_frames), "num_windows": int(len(ws.X)), "feature_dim": int(ws.X.shape[1]),
        "is_synthetic": bool(getattr(ws.episode, "is_synthetic", False)),
        "protocol": asdict(proto), "heads": heads,
        "task_display_names": {t: TASKS[t].display_name for t in results},
        "tasks": {t: r.get("minimal", _status(r)) for t, r in clean.items()},
        "neural_tasks": {t: r.get("mlp", _status(r)) for t, r in clean.items()} if "mlp" in heads else {},
        "baselines": {t: r.get("baseline", _status(r)) for t, r in clean.items()},
        "status": {t: {"status": r["status"], **({"reason": r["reason"]} if "reason" in r else {})}
                   for t, r in clean.items()},
        "primary": {t: r["primary"] for t, r in clean.items()},
        "neural_model": {"name": "neural_mlp", **asdict(cfg.mlp), "device": "cpu"} if "mlp" in heads else None,
        "softmax_epochs": cfg.softmax_epochs,
    }


def _status(result: dict) -> dict:
    """The status part of a result that did not produce metrics."""
    return {k: result[k] for k in ("status", "reason", "class_counts") if k in result}


def primary_table(report: dict) -> pd.DataFrame:
    """One row per task: display name, primary metric, direction, baseline, minimal, MLP, status."""
    rows = []
    for t, p in report["primary"].items():
        rows.append({"task": t, "name": report["task_display_names"][t], "metric": p["metric"],
                     "better": "higher" if p["higher_is_better"] else "lower",
                     "baseline": p["baseline"], "minimal": p["minimal"], "mlp": p["mlp"],
                     "status": report["status"][t]["status"]})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------- CLI
def load_windows(episode_dir: str | Path) -> Any:
    """The WindowSet of an episode folder (features from the cache when present)."""
    from .features import load_window_set

    path = Path(episode_dir)
    if not path.is_dir():
        raise RobotaskError(f"--episode {episode_dir}: not a directory; expected an episode folder")
    return load_window_set(path)


def register_cli(subparsers: Any) -> None:
    """Add ``robotask suite``."""
    p = subparsers.add_parser("suite", help="run the twelve episode tasks and write their artifacts")
    p.add_argument("--episode", required=True, help="episode folder (annotation.hdf5 + videos)")
    p.add_argument("--tasks", default="all", help="all, or a comma list of task ids")
    p.add_argument("--heads", default="minimal,mlp", help="comma list of: " + ", ".join(HEADS))
    p.add_argument("--protocol", default="original", help="original or improved")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--epochs", type=int, default=SOFTMAX_EPOCHS, help="epochs of the linear heads")
    p.add_argument("--mlp-epochs", type=int, default=MLPConfig().epochs, help="epochs of the MLP")
    p.add_argument("--no-models", action="store_true", help="do not write model files")
    p.set_defaults(func=_cli)


def _cli(args: argparse.Namespace) -> int:
    """Handler of ``robotask suite``."""
    parse_tasks(args.tasks)
    parse_heads(args.heads)
    get_protocol(args.protocol)
    cfg = SuiteConfig(args.epochs, replace(MLPConfig(), epochs=args.mlp_epochs), not args.no_models)
    report = run_suite(load_windows(args.episode), args.tasks, args.heads, args.protocol, args.out, cfg)
    table = primary_table(report)
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(f"wrote {Path(args.out) / 'summary_report.json'}")
    return 0
