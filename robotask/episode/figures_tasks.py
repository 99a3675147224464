"""Figures, tables and computed prose of the task chapter ``12_task``.

Every function takes the :class:`~robotask.episode.suite.TaskResult` of ``run_task`` (one per protocol)
and returns a figure, a DataFrame or a Markdown string; the notebooks only call them.
"""

from __future__ import annotations

from typing import Any, Iterator

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import plots
from . import metrics as M
from .suite import TaskResult
from .tasks import TASKS

HEAD_LABELS = {"baseline": "baseline", "minimal": "minimal head", "mlp": "MLP"}
COLORS = {"truth": "black", "baseline": plots.PALETTE[7], "minimal": plots.PALETTE[0], "mlp": plots.PALETTE[1]}

# Secondary metrics shown in the chapter table, by task kind.
SECONDARY = {
    "classification": ("accuracy", "balanced_accuracy", "macro_f1", "label_coverage_ceiling", "boundary_f1",
                       "copy_current_action_accuracy"),
    "binary": ("accuracy", "precision", "recall", "f1"),
    "multilabel": ("micro_f1", "macro_f1", "exact_match"),
    "regression": ("mpjpe", "final_frame_mpjpe", "r2", "r2_standardized", "mae"),
    "retrieval": ("mrr", "top1_accuracy", "top5_accuracy", "top10_accuracy", "median_rank"),
}


def ok_results(results: dict[str, TaskResult]) -> dict[str, TaskResult]:
    """The protocols whose run produced metrics."""
    return {p: r for p, r in results.items() if r.ok}


def status_text(results: dict[str, TaskResult]) -> str:
    """Markdown for protocols whose task did not run (skipped or degenerate), else ""."""
    lines = []
    for p, r in results.items():
        if not r.ok:
            counts = f" Class counts: {r.details['class_counts']}." if "class_counts" in r.details else ""
            lines.append(f"- **{p}** protocol: {r.status} — {r.reason}.{counts}")
    return "\n".join(lines)


def metrics_table(results: dict[str, TaskResult]) -> pd.DataFrame:
    """One row per protocol × (baseline, minimal, MLP) with the primary and secondary metrics."""
    rows = []
    for proto, res in ok_results(results).items():
        kind = TASKS[res.task].kind
        for part in ("baseline", "minimal", "mlp"):
            if part not in res.metrics:
                continue
            m = res.metrics[part]
            row = {"protocol": proto, "model": HEAD_LABELS[part] + (f" ({res.info['baseline_name']})"
                                                                    if part == "baseline" else "")}
            for k in SECONDARY[kind]:
                if k in m and isinstance(m[k], (int, float)) and m[k] is not None:
                    row[k] = float(m[k])
            rows.append(row)
    return pd.DataFrame(rows)


def examples_table(result: TaskResult, n: int = 6) -> pd.DataFrame:
    """A few test samples with their frames and decoded targets (what the task asks to predict)."""
    data = result.data
    idx = data.test[np.linspace(0, len(data.test) - 1, min(n, len(data.test))).astype(int)]
    rows = data.rows.iloc[idx][["window_index", "start_frame", "end_frame"]].copy()
    if data.kind in ("classification", "binary"):
        rows["target"] = [data.class_names[i] for i in data.y[idx]]
    elif data.kind == "multilabel":
        rows["target"] = [", ".join(np.array(data.class_names)[r.astype(bool)]) for r in data.y[idx]]
    else:
        rows["target (first 4 of %d values)" % data.y.shape[1]] = [
            ", ".join(f"{v:.3f}" for v in data.y[i, :4]) for i in idx]
    return rows.reset_index(drop=True)


def figure_confusion(result: TaskResult) -> plt.Figure:
    """Confusion matrix of the minimal head (row-normalised) and per-class F1 of the heads."""
    data = result.data
    y = data.y[data.test]
    names = data.class_names
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, max(3.5, 0.28 * len(names) + 1.5)),
                                 gridspec_kw={"width_ratios": [1.2, 1]})
    cm = M.confusion_table(y, result.outputs["minimal"].pred, names).iloc[:, 1:].to_numpy(float)
    norm = cm / np.maximum(cm.sum(axis=1, keepdims=True), 1)
    a1.imshow(norm, cmap="Blues", vmin=0, vmax=1)
    short = [n[:18] for n in names]
    a1.set_xticks(range(len(names)), short, rotation=90, fontsize=7)
    a1.set_yticks(range(len(names)), short, fontsize=7)
    a1.set_xlabel("predicted")
    a1.set_ylabel("true")
    a1.set_title("minimal head: confusion (row-normalised)")
    a1.grid(False)
    width = 0.4
    pos = np.arange(len(names))
    for k, part in enumerate(p for p in ("minimal", "mlp") if p in result.outputs):
        f1 = M.per_class_table(y, result.outputs[part].pred, names)["f1"].to_numpy()
        a2.barh(pos + (k - 0.5) * width, f1, height=width, color=COLORS[part], label=HEAD_LABELS[part])
    support = np.bincount(y, minlength=len(names))
    a2.set_yticks(pos, [f"{s} (n={c})" for s, c in zip(short, support)], fontsize=7)
    a2.invert_yaxis()
    a2.set_xlabel("F1 on test")
    a2.set_xlim(0, 1)
    a2.legend(loc="lower right")
    a2.set_title("per-class F1 (n = test support)")
    fig.tight_layout()
    return fig


def figure_timeline(result: TaskResult) -> plt.Figure:
    """Predicted vs true class over the test windows, with true (and predicted) boundaries."""
    data = result.data
    centers = data.rows["center_frame"].to_numpy()[data.test]
    fig, ax = plt.subplots(figsize=(10, 3.8))
    ax.step(centers, data.y[data.test], where="mid", color="black", lw=3, alpha=0.35, label="true")
    for part in ("minimal", "mlp"):
        if part in result.outputs:
            ax.plot(centers, result.outputs[part].pred, ".", ms=4, color=COLORS[part], label=HEAD_LABELS[part])
    if "boundaries" in data.extra:
        b = data.extra["boundaries"]
        for f in b[(b >= centers.min()) & (b <= centers.max())]:
            ax.axvline(f, color="black", ls="--", lw=0.8)
    ax.set_yticks(range(len(data.class_names)), [n[:22] for n in data.class_names], fontsize=7)
    ax.set_xlabel("window centre frame (test part)")
    ax.set_title("true label (grey) and predictions over time")
    ax.legend(loc="upper left", fontsize=8, ncol=3)
    fig.tight_layout()
    return fig


def figure_boundaries(result: TaskResult) -> plt.Figure:
    """P(transition) over the test windows with true and predicted boundaries (τ band shaded)."""
    data = result.data
    centers = data.rows["center_frame"].to_numpy()[data.test]
    t = data.class_names.index("transition") if "transition" in data.class_names else 0
    fig, ax = plt.subplots(figsize=(10, 3.6))
    for part in ("minimal", "mlp"):
        out = result.outputs.get(part)
        if out is not None:
            ax.plot(centers, out.proba[:, t], color=COLORS[part], lw=1.2, label=f"P(transition), {HEAD_LABELS[part]}")
            pred = centers[out.pred == t]
            ax.plot(pred, np.full(len(pred), 1.04 + 0.04 * (part == "mlp")), "|", ms=9, color=COLORS[part])
    b = data.extra["boundaries"]
    for f in b[(b >= centers.min()) & (b <= centers.max())]:
        ax.axvspan(f - 10, f + 10, color="black", alpha=0.08)
        ax.axvline(f, color="black", ls="--", lw=0.8)
    ax.set_ylim(-0.02, 1.12)
    ax.set_xlabel("window centre frame (test part); dashed = true boundary, band = ±10 frames; ticks = predicted")
    ax.legend(loc="center left", fontsize=8)
    fig.tight_layout()
    return fig


def figure_trajectories(result: TaskResult, joint: int = 0) -> plt.Figure:
    """Left-wrist position 10 frames ahead (x, y, z) over the test windows: truth, heads, zero velocity."""
    data = result.data
    k = data.extra["n_future"]
    centers = data.rows["center_frame"].to_numpy()[data.test]
    shape = (len(data.test), k, -1, 3)
    fig, axes = plt.subplots(3, 1, figsize=(10, 6), sharex=True)
    series = {"truth": data.y[data.test]}
    series.update({p: o.pred for p, o in result.outputs.items() if o is not None})
    for axis, ax in enumerate(axes):
        for name, arr in series.items():
            v = np.asarray(arr).reshape(shape)[:, -1, joint, axis]
            ax.plot(centers, v, color=COLORS[name], lw=2.5 if name == "truth" else 1.2,
                    label="truth" if name == "truth" else HEAD_LABELS[name] + (" (zero velocity)"
                                                                            if name == "baseline" else ""))
        ax.set_ylabel("xyz"[axis] + " (m)")
    axes[0].legend(fontsize=8, ncol=4, loc="upper left")
    axes[0].set_title(f"left wrist at the 10th future frame, {data.extra['frame']} frame, root-relative")
    axes[-1].set_xlabel("window centre frame (test part)")
    fig.tight_layout()
    return fig


def figure_rank_histogram(result: TaskResult) -> plt.Figure:
    """Histogram of the rank of the correct candidate, heads vs a uniform random ranking."""
    n = len(result.data.test)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    bins = np.unique(np.geomspace(1, n + 1, 25).astype(int))
    for part in ("minimal", "mlp"):
        out = result.outputs.get(part)
        if out is not None and "ranks" in out.train_final:
            ax.hist(out.train_final["ranks"], bins=bins, histtype="step", lw=2, color=COLORS[part],
                    label=HEAD_LABELS[part])
    widths = np.diff(bins)
    ax.step(bins[:-1], widths, where="post", color=COLORS["baseline"], ls="--", label="random ranking (expected)")
    ax.set_xscale("log")
    ax.set_xlabel(f"rank of the correct window among {n} candidates (log scale)")
    ax.set_ylabel("queries")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def figure_reconstruction(result: TaskResult, n_examples: int = 3, dims: int = 98) -> plt.Figure:
    """True vs reconstructed visual features of a few test windows (the first ``dims`` values)."""
    data = result.data
    idx = np.linspace(0, len(data.test) - 1, n_examples).astype(int)
    fig, axes = plt.subplots(1, n_examples, figsize=(11, 3.4), sharey=True)
    for ax, i in zip(np.atleast_1d(axes), idx):
        truth = data.y[data.test[i], :dims]
        ax.plot(truth, color="black", lw=2.2, label="true")
        for part, out in result.outputs.items():
            if out is not None:
                ax.plot(out.pred[i, :dims], color=COLORS[part], lw=1, label=HEAD_LABELS[part])
        ax.set_title(f"window {int(data.rows['window_index'].iloc[data.test[i]])}")
        ax.set_xlabel(f"feature (first {dims} visual values)")
    np.atleast_1d(axes)[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def figure_object_f1(result: TaskResult) -> plt.Figure:
    """Per-object F1 of the heads, objects ordered by test support; unseen-in-train marked."""
    data = result.data
    y_te, y_tr = data.y[data.test], data.y[data.train]
    support, train_support = y_te.sum(axis=0), y_tr.sum(axis=0)
    order = np.argsort(-support, kind="stable")
    order = order[support[order] > 0]
    fig, ax = plt.subplots(figsize=(10, 3.8))
    width = 0.4
    for k, part in enumerate(p for p in ("minimal", "mlp") if p in result.outputs):
        f1 = M.per_label_f1(y_te, result.outputs[part].pred)[order]
        ax.bar(np.arange(len(order)) + (k - 0.5) * width, f1, width, color=COLORS[part], label=HEAD_LABELS[part])
    labels = [f"{data.class_names[j][:16]}{'*' if train_support[j] == 0 else ''}" for j in order]
    ax.set_xticks(range(len(order)), labels, rotation=70, fontsize=7, ha="right")
    ax.set_ylabel("F1 on test")
    ax.set_title("objects present in test, by test support (* = never in a train window)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


FIGURES = {"confusion": figure_confusion, "timeline": figure_timeline,
           "boundaries": figure_boundaries, "trajectories": figure_trajectories,
           "rank_histogram": figure_rank_histogram, "reconstruction": figure_reconstruction,
           "object_f1": figure_object_f1}


def task_figures(task_id: str, result: TaskResult) -> Iterator[tuple[str, plt.Figure]]:
    """The figures that fit the task (registry ``figures``), yielded one at a time as (name, figure)."""
    for name in TASKS[task_id].figures:
        fn = FIGURES[name]
        if "minimal" in result.outputs:
            yield name, fn(result)


def format_metric(v: Any) -> str:
    """A metric value for prose."""
    return "–" if v is None else f"{v:.3f}"


def interpret(task_id: str, results: dict[str, TaskResult]) -> str:
    """What the result means, computed from the numbers: heads vs baseline, protocol change, caveats."""
    spec = TASKS[task_id]
    ok = ok_results(results)
    lines = []
    for proto, res in ok.items():
        p = res.primary
        sign = 1 if spec.higher_is_better else -1
        parts = []
        for head in ("minimal", "mlp"):
            if p.get(head) is None or p.get("baseline") is None:
                continue
            gain = sign * (p[head] - p["baseline"])
            verdict = "beats" if gain > 0.01 * max(abs(p["baseline"]), 1e-3) else "does not beat"
            parts.append(f"the {HEAD_LABELS[head]} ({format_metric(p[head])}) {verdict} the baseline")
        lines.append(f"- **{proto}**: {spec.primary_metric} of the baseline ({res.info['baseline_name']}) is "
                     f"{format_metric(p['baseline'])}; " + "; ".join(parts) + ".")
        m = res.metrics.get("minimal", {})
        if m.get("unseen_test_classes"):
            lines.append(f"  {len(m['unseen_test_classes'])} test class(es) never occur in training "
                         f"({', '.join(m['unseen_test_classes'][:4])}{'…' if len(m['unseen_test_classes']) > 4 else ''}).")
        if "label_coverage_ceiling" in m:
            lines.append(f"  Label-coverage ceiling: {100 * m['label_coverage_ceiling']:.1f} % of test samples "
                         f"carry a label seen in training; no classifier can exceed that accuracy.")
        if m.get("train_final_accuracy") is not None and m.get("accuracy") is not None:
            lines.append(f"  Train accuracy {m['train_final_accuracy']:.3f} against test accuracy "
                         f"{m['accuracy']:.3f} (train {res.info['num_train']} samples, {res.info['feature_dim']} inputs).")
        if "copy_current_action_accuracy" in m:
            lines.append(f"  Copying the action at the window end would score accuracy "
                         f"{m['copy_current_action_accuracy']:.3f} on this target ({m['target']}).")
        if "boundary_f1" in m:
            lines.append(f"  Boundary F1 {m['boundary_f1']:.3f}: {m['matched_boundaries']} of "
                         f"{m['true_boundaries']} true boundaries matched by {m['predicted_boundaries']} predictions"
                         f"{' after NMS' if m.get('boundary_nms') else ' (no NMS)'}.")
        if "distinct_test_texts" in m:
            lines.append(f"  The {m['num_queries']} test windows carry only {m['distinct_test_texts']} distinct "
                         f"caption texts; positives: {m['positives_per_query']}.")
    status = status_text(results)
    if status:
        lines.append(status)
    if len(ok) == 2:
        a, b = ok["original"].primary, ok["improved"].primary
        for head in ("minimal", "mlp"):
            if a.get(head) is not None and b.get(head) is not None:
                lines.append(f"- Switching to the improved protocol moves the {HEAD_LABELS[head]} from "
                             f"{format_metric(a[head])} to {format_metric(b[head])} (baseline {format_metric(a['baseline'])} → "
                             f"{format_metric(b['baseline'])}).")
    return "\n".join(lines)
