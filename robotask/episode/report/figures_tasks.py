"""Figures, tables and captions of the task chapter ``12_task``.

Every function takes the :class:`~robotask.episode.suite.execution.TaskResult` of ``run_task`` (one per protocol)
and returns a figure, a DataFrame or a caption; the page's prose is Markdown in the notebook, and the
table of what bounds a score is in :mod:`.diagnostics`.
"""

from __future__ import annotations

from collections.abc import Iterator

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import plots
from ..suite.execution import TaskResult
from ..tasks import metrics as M
from ..tasks.registry import TASKS
from .figures_episode import wrap_label
from .phrases import readable

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


def metrics_table(results: dict[str, TaskResult]) -> pd.DataFrame:
    """One row per protocol × (baseline, minimal, MLP) with the primary and secondary metrics."""
    rows = []
    for proto, res in ok_results(results).items():
        kind = TASKS[res.task].kind
        for part in ("baseline", "minimal", "mlp"):
            if part not in res.metrics:
                continue
            m = res.metrics[part]
            name = res.info["baseline_name"].replace(" (", ", ").replace(")", "")
            row = {"protocol": proto, "model": HEAD_LABELS[part] + (f" ({name})"
                                                                    if part == "baseline" else "")}
            for k in SECONDARY[kind]:
                if k in m and isinstance(m[k], (int, float)) and m[k] is not None:
                    row[k] = float(m[k])
            rows.append(row)
    return _readable(pd.DataFrame(rows))


def rank_text(v: float) -> str:
    """A rank as read: an integer when it is one ("8"), else one decimal ("174.5"); "–" if missing."""
    if v is None or pd.isna(v):
        return "–"
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}"


def _readable(table: pd.DataFrame) -> pd.DataFrame:
    """Cells as a reader reads them: the coverage ceiling as a percentage (a property of the split, so the
    same on every row of a protocol), ranks as integers where integral, and every other metric as text with a
    true minus and at most 4 significant digits (:func:`.phrases.readable`)."""
    if "label_coverage_ceiling" in table:
        ceiling = table.groupby("protocol")["label_coverage_ceiling"].transform("max")
        table["label_coverage_ceiling"] = ceiling.map(
            lambda v: "–" if pd.isna(v) else f"{100 * v:.1f} %")
    if "median_rank" in table:
        table["median_rank"] = table["median_rank"].map(rank_text)
    for column in table.columns.difference(["protocol", "model", "label_coverage_ceiling", "median_rank"]):
        # a true minus and at most 4 significant digits: an R² of −1.019 × 10¹³, not -10189370352107.178
        table[column] = table[column].map(lambda v: readable(None if pd.isna(v) else float(v)))
    return table


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
        rows[f"target (first 4 of {data.y.shape[1]} values)"] = [
            ", ".join(readable(float(v)) for v in data.y[i, :4]) for i in idx]
    return rows.reset_index(drop=True)


def head_predictions(result: TaskResult) -> dict[str, np.ndarray]:
    """Test predictions of the heads that ran ("minimal", "mlp"), in that order."""
    return {p: result.outputs[p].pred for p in ("minimal", "mlp") if result.outputs.get(p) is not None}


def shown_classes(result: TaskResult) -> np.ndarray:
    """Ids (ascending) of the classes with a true test sample or a head's prediction; the figures drop the rest."""
    data = result.data
    seen = np.zeros(len(data.class_names), bool)
    for arr in (data.y[data.test], *head_predictions(result).values()):
        seen[np.asarray(arr, dtype=int)] = True
    return np.flatnonzero(seen)


def dropped_text(result: TaskResult) -> str:
    """"k of n classes shown; d with no test sample and no prediction left out" ("" when none is)."""
    n, k = len(result.data.class_names), len(shown_classes(result))
    return "" if k == n else (f"{k} of {n} classes shown; {n - k} with no test sample and no prediction "
                              f"left out")


def _confusion_panel(fig: plt.Figure, ax: plt.Axes, result: TaskResult, keep: np.ndarray) -> None:
    """Row-normalised confusion of the minimal head over the classes ``keep``, with a colour bar."""
    data = result.data
    names = [data.class_names[i] for i in keep]
    cm = M.confusion_matrix(data.y[data.test], result.outputs["minimal"].pred, len(data.class_names))
    cm = cm[np.ix_(keep, keep)].astype(float)
    share = cm / np.maximum(cm.sum(axis=1, keepdims=True), 1)
    image = ax.imshow(share, cmap="Blues", vmin=0, vmax=1, aspect="auto")
    fig.colorbar(image, ax=ax, fraction=0.05, pad=0.02, label="share of the true class's test samples")
    tick_size = 10 if len(keep) <= 6 else 7
    if len(keep) <= 6:  # few classes (the pair tasks are binary): each cell's share and count
        plots.annotate_cells(ax, share, cm)
    numbers = [str(i + 1) for i in range(len(keep))]
    ax.set_xticks(range(len(keep)), numbers, fontsize=tick_size)
    ax.set_yticks(range(len(keep)), [f"{i} {wrap_label(n)}" for i, n in zip(numbers, names)], fontsize=tick_size)
    ax.set_xlabel("predicted class (number as on the left)")
    ax.set_ylabel("true class")
    ax.set_title("minimal head: confusion (row-normalised)", fontsize=9)
    ax.grid(False)


def _f1_panel(ax: plt.Axes, result: TaskResult, keep: np.ndarray) -> None:
    """Per-class test F1 of both heads over the classes ``keep``, rows aligned with the confusion rows."""
    data = result.data
    y = data.y[data.test]
    width, pos = 0.4, np.arange(len(keep))
    for k, (part, pred) in enumerate(head_predictions(result).items()):
        f1 = M.per_class_table(y, pred, data.class_names)["f1"].to_numpy()[keep]
        ax.barh(pos + (k - 0.5) * width, f1, height=width, color=COLORS[part], label=HEAD_LABELS[part])
    support = np.bincount(y, minlength=len(data.class_names))[keep]
    ax.set_yticks(pos, [f"{i + 1} (n = {c})" for i, c in enumerate(support)], fontsize=10 if len(keep) <= 6 else 7)
    ax.set_ylim(len(keep) - 0.5, -0.5)
    ax.set_xlabel("F1 on test")
    ax.set_xlim(0, 1.0)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    ax.set_title("per-class F1 (class number, n = test samples)", fontsize=9)


def figure_confusion(result: TaskResult) -> plt.Figure:
    """Minimal head's row-normalised confusion and both heads' per-class F1 over the shown classes."""
    keep = shown_classes(result)
    width = 9 if len(keep) <= 6 else 12  # few classes: narrower, so that the text stays ≥ 9 pt at page width
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(width, max(3.6, 0.3 * len(keep) + 2.0)), layout="constrained",
                                 gridspec_kw={"width_ratios": [1.4, 1]})
    _confusion_panel(fig, a1, result, keep)
    _f1_panel(a2, result, keep)
    if dropped_text(result):
        fig.suptitle(dropped_text(result), fontsize=9)
    return fig


def _mark_boundaries(ax: plt.Axes, frames: np.ndarray | None, centers: np.ndarray, band: int) -> bool:
    """Dashed lines (and a ±``band``-frame shade) at the true boundaries within the test centres;
    True when any was drawn."""
    if frames is None or not len(centers):
        return False
    shown = frames[(frames >= centers.min()) & (frames <= centers.max())]
    for f in shown:
        if band:
            ax.axvspan(f - band, f + band, color="black", alpha=0.08)
        ax.axvline(f, color="black", ls="--", lw=0.8)
    return bool(len(shown))


# vertical offset of each head's dots from the true class's line in the prediction timeline
LANES = {"minimal": -0.22, "mlp": 0.22}


def figure_predicted_timeline(result: TaskResult) -> plt.Figure:
    """True class over the test windows (grey line) and each head's predicted class as dots in its own
    lane (minimal head below the line, MLP above), with true boundaries dashed."""
    data = result.data
    keep = shown_classes(result)
    row = np.full(len(data.class_names), -1)
    row[keep] = np.arange(len(keep))
    centers = data.rows["center_frame"].to_numpy()[data.test]
    fig, ax = plt.subplots(figsize=(10, max(3.8, 0.3 * len(keep) + 1.8)), layout="constrained")
    ax.step(centers, row[data.y[data.test]], where="mid", color="black", lw=3, alpha=0.35, label="true")
    for part, pred in head_predictions(result).items():
        where = "below" if LANES[part] < 0 else "above"
        ax.plot(centers, row[np.asarray(pred, int)] + LANES[part], ".", ms=4, color=COLORS[part],
                label=f"{HEAD_LABELS[part]} (dots {where} the line)")
    dashed = _mark_boundaries(ax, data.extra.get("boundaries"), centers, band=0)
    ax.set_yticks(range(len(keep)), [wrap_label(data.class_names[i]) for i in keep], fontsize=7)
    ax.set_ylim(-0.6, len(keep) - 0.4)
    ax.set_xlabel("window centre frame (test part)" + ("; dashed: true boundaries" if dashed else ""))
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.01), fontsize=8, ncol=3, frameon=False,
              title=dropped_text(result) or None, title_fontsize=8)
    return fig


def figure_boundaries(result: TaskResult) -> plt.Figure:
    """P(transition) over the test windows with true and predicted boundaries (τ band shaded)."""
    data = result.data
    centers = data.rows["center_frame"].to_numpy()[data.test]
    t = data.class_names.index("transition") if "transition" in data.class_names else 0
    fig, ax = plt.subplots(figsize=(10, 3.6), layout="constrained")
    for part in ("minimal", "mlp"):
        out = result.outputs.get(part)
        if out is not None:
            ax.plot(centers, out.proba[:, t], color=COLORS[part], lw=1.2, label=f"P(transition), {HEAD_LABELS[part]}")
            pred = centers[out.pred == t]
            ax.plot(pred, np.full(len(pred), 1.04 + 0.04 * (part == "mlp")), "|", ms=9, color=COLORS[part])
    _mark_boundaries(ax, data.extra["boundaries"], centers, band=10)
    ax.set_ylim(-0.02, 1.12)
    ax.set_ylabel("P(transition)")
    ax.set_xlabel("window centre frame (test part); dashed = true boundary, band = ±10 frames; ticks = predicted")
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.01), fontsize=8, ncol=2, frameon=False)
    return fig


def figure_predicted_trajectories(result: TaskResult, joint: int = 0) -> plt.Figure:
    """Left-wrist position 10 frames ahead (x, y, z) over the test windows: truth, heads, zero velocity."""
    data = result.data
    k = data.extra["n_future"]
    centers = data.rows["center_frame"].to_numpy()[data.test]
    shape = (len(data.test), k, -1, 3)
    fig, axes = plt.subplots(3, 1, figsize=(10, 6), sharex=True, layout="constrained")
    series = {"truth": data.y[data.test]}
    series.update({p: o.pred for p, o in result.outputs.items() if o is not None})
    for axis, ax in enumerate(axes):
        for name, arr in series.items():
            v = np.asarray(arr).reshape(shape)[:, -1, joint, axis]
            ax.plot(centers, v, color=COLORS[name], lw=2.5 if name == "truth" else 1.2,
                    label="truth" if name == "truth" else HEAD_LABELS[name] + (" (zero velocity)"
                                                                            if name == "baseline" else ""))
        ax.set_ylabel("xyz"[axis] + " (m)")
    axes[0].legend(fontsize=8, ncol=4, loc="lower left", bbox_to_anchor=(0, 1.15), frameon=False)
    axes[0].set_title(f"left wrist at the 10th future frame, {data.extra['frame']} frame, root-relative")
    axes[-1].set_xlabel("window centre frame (test part)")
    return fig


def figure_rank_histogram(result: TaskResult) -> plt.Figure:
    """Histogram of the rank of the correct candidate, heads vs a uniform random ranking."""
    n = len(result.data.test)
    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
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
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def figure_reconstruction(result: TaskResult, n_examples: int = 3, dims: int = 98) -> plt.Figure:
    """True vs reconstructed visual features of a few test windows (the first ``dims`` values)."""
    data = result.data
    idx = np.linspace(0, len(data.test) - 1, n_examples).astype(int)
    fig, axes = plt.subplots(1, n_examples, figsize=(11, 3.6), sharey=True, layout="constrained")
    for ax, i in zip(np.atleast_1d(axes), idx):
        truth = data.y[data.test[i], :dims]
        ax.plot(truth, color="black", lw=2.2, label="true")
        for part, out in result.outputs.items():
            if out is not None:
                ax.plot(out.pred[i, :dims], color=COLORS[part], lw=1, label=HEAD_LABELS[part])
        ax.set_title(f"window {int(data.rows['window_index'].iloc[data.test[i]])}")
        ax.set_xlabel(f"feature index (first {dims} visual values)")
    np.atleast_1d(axes)[0].set_ylabel("feature value (unscaled)")
    np.atleast_1d(axes)[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def figure_object_f1(result: TaskResult) -> plt.Figure:
    """Per-object F1 of the heads, objects ordered by test support; unseen-in-train marked."""
    data = result.data
    y_te, y_tr = data.y[data.test], data.y[data.train]
    support, train_support = y_te.sum(axis=0), y_tr.sum(axis=0)
    order = np.argsort(-support, kind="stable")
    order = order[support[order] > 0]
    fig, ax = plt.subplots(figsize=(10, 3.8), layout="constrained")
    width = 0.4
    for k, part in enumerate(p for p in ("minimal", "mlp") if p in result.outputs):
        f1 = M.per_label_f1(y_te, result.outputs[part].pred)[order]
        ax.bar(np.arange(len(order)) + (k - 0.5) * width, f1, width, color=COLORS[part], label=HEAD_LABELS[part])
    labels = [f"{data.class_names[j]}{'*' if train_support[j] == 0 else ''}" for j in order]
    ax.set_xticks(range(len(order)), labels, rotation=45, fontsize=7, ha="right", rotation_mode="anchor")
    ax.set_ylabel("F1 on test")
    ax.set_ylim(0, 1.0)
    ax.legend(loc="lower right", bbox_to_anchor=(1, 1.01), fontsize=8, ncol=2, frameon=False)
    return fig


FIGURES = {"confusion": figure_confusion, "timeline": figure_predicted_timeline,
           "boundaries": figure_boundaries, "trajectories": figure_predicted_trajectories,
           "rank_histogram": figure_rank_histogram, "reconstruction": figure_reconstruction,
           "object_f1": figure_object_f1}


def task_figures(task_id: str, result: TaskResult) -> Iterator[tuple[str, plt.Figure]]:
    """The figures that fit the task (registry ``figures``), yielded one at a time as (name, figure)."""
    for name in TASKS[task_id].figures:
        fn = FIGURES[name]
        if "minimal" in result.outputs:
            yield name, fn(result)


TABLE_HEADERS = {"protocol": "Protocol", "model": "Model", "accuracy": "Accuracy",
                 "balanced_accuracy": "Balanced accuracy", "macro_f1": "Macro-F1", "micro_f1": "Micro-F1",
                 "label_coverage_ceiling": "Coverage ceiling", "boundary_f1": "Boundary F1",
                 "copy_current_action_accuracy": "Copy-current accuracy", "precision": "Precision",
                 "recall": "Recall", "f1": "F1", "exact_match": "Exact match", "mpjpe": "MPJPE (m)",
                 "final_frame_mpjpe": "Final-frame MPJPE (m)", "r2": "R²",
                 "r2_standardized": "R² (standardised)", "mae": "MAE", "mrr": "MRR",
                 "top1_accuracy": "Top-1", "top5_accuracy": "Top-5", "top10_accuracy": "Top-10",
                 "median_rank": "Median rank"}
EXAMPLE_HEADERS = {"window_index": "Window", "start_frame": "First frame", "end_frame": "Last frame",
                   "target": "Target"}


def figure_caption(name: str, result: TaskResult, proto: str) -> tuple[str, str]:
    """Caption and alt text of one task figure under protocol ``proto``."""
    spec = TASKS[result.task]
    n = len(result.data.test)
    classes = result.data.kind in ("classification", "binary")
    left_out = f" {dropped_text(result)}." if classes and dropped_text(result) else ""
    texts = {
        "confusion": (f"{spec.display_name}, {proto} protocol. Left: confusion matrix of the minimal head "
                      f"on the {n} test samples, each row normalised to the share of its true class. Right: "
                      f"per-class F1 of both heads; n is the number of test samples of the class.{left_out}",
                      f"Confusion matrix and per-class F1 bars of the minimal head and the MLP for "
                      f"{spec.display_name.lower()} under the {proto} protocol."),
        "timeline": (f"{spec.display_name}, {proto} protocol: the true class of each test window (grey "
                     f"line) and the predictions of both heads over time (minimal head's dots just below "
                     f"the class's line, the MLP's just above).{left_out}",
                     f"Predicted and true class of the test windows over time for "
                     f"{spec.display_name.lower()}, {proto} protocol."),
        "boundaries": (f"Action boundary detection, {proto} protocol: P(transition) of both heads over the "
                       f"test windows; dashed lines are true boundaries with a ±10-frame band, ticks at the "
                       f"top are predicted transitions.",
                       "Probability of a transition over time for both heads, with true boundaries and "
                       "predicted transitions."),
        "trajectories": (f"Hand trajectory forecasting, {proto} protocol: the left wrist at the last "
                         f"forecast frame, x, y and z over the test windows, true and predicted.",
                         "Three stacked line plots of the true and predicted left-wrist coordinates over "
                         "the test windows."),
        "rank_histogram": (f"{spec.display_name}, {proto} protocol: rank of the correct window among the "
                           f"{n} test candidates (log scale) against a uniformly random ranking.",
                           "Histogram of the rank of the correct candidate for both heads and a random "
                           "ranking."),
        "reconstruction": (f"Cross-modal reconstruction, {proto} protocol: the first visual feature values "
                           f"of three test windows, true and reconstructed by each head.",
                           "Three line plots comparing true and reconstructed visual features of test "
                           "windows."),
        "object_f1": (f"Object relevance, {proto} protocol: per-object F1 of both heads on the test part, "
                      f"objects ordered by test support; an asterisk marks objects never seen in training.",
                      "Bar chart of per-object F1 for the minimal head and the MLP."),
    }
    return texts[name]
