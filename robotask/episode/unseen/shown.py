"""Chapter 14's tables as a reader sees them: task titles, metric names, mean ± sd cells, plain headers."""

from __future__ import annotations

import numpy as np
import pandas as pd

import robotask.episode.unseen.phrases as phrases

from ...words import count
from ..tasks.registry import TASKS
from .tables import episodes_needed, pm

SCALING_HEADERS = {"workers": "Workers", "episodes": "Episodes", "wall_s": "Wall (s)", "frames_per_s": "Frames / s",
                   "episode_s": "Seconds per episode", "peak_mb": "Peak MiB per worker", "speedup": "Speed-up"}
NOT_RUN_HEADERS = {"task": "Task", "protocol": "Protocol", "study": "Part of the design", "settings": "Settings",
                   "status": "Status", "reason": "Reason"}


def metric_label(metric: str) -> str:
    """The reader's name of a metric id."""
    from ..report.summary import METRIC_LABELS

    return METRIC_LABELS.get(metric, metric.replace("_", " "))


def _title(task: str) -> str:
    return TASKS[task].display_name


def protocol_table(summary: pd.DataFrame, head: str = "minimal") -> pd.DataFrame:
    """One row per task: ``head`` and the baseline as mean ± sd over folds under each protocol, side by side."""
    rows = []
    for task in TASKS:
        row = {"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric)}
        for proto, g in summary[summary["task"] == task].groupby("protocol", sort=False):
            h, b = g[g["head"] == head], g[g["head"] == "baseline"]
            row[f"{proto}: {head}"] = pm(h["mean"].iloc[0], h["sd"].iloc[0]) if len(h) else "—"
            row[f"{proto}: baseline"] = pm(b["mean"].iloc[0], b["sd"].iloc[0]) if len(b) else "—"
            row[f"{proto}: folds won"] = f"{h['wins'].iloc[0]} of {h['of'].iloc[0]}" if len(h) else "—"
        rows.append(row)
    return pd.DataFrame(rows)


def mlp_table(summary: pd.DataFrame, protocol: str) -> pd.DataFrame:
    """Minimal head, MLP and baseline (mean ± sd over folds) under one protocol, with the folds each head wins."""
    d = summary[summary["protocol"] == protocol]
    rows = []
    for task in TASKS:
        g = d[d["task"] == task].set_index("head")
        if "mlp" not in g.index:
            continue
        row = {"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric)}
        for head, name in (("minimal", "Minimal head"), ("mlp", "MLP"), ("baseline", "Baseline")):
            row[name] = pm(g.loc[head, "mean"], g.loc[head, "sd"])
        row["Folds won: minimal / MLP"] = f"{g.loc['minimal', 'wins']} / {g.loc['mlp', 'wins']} of {g.loc['mlp', 'of']}"
        rows.append(row)
    return pd.DataFrame(rows)


def chronological_table(drops: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per task and protocol: chronological split, unseen episodes (mean ± sd over folds) and the drop."""
    rows = []
    for task in TASKS:
        row = {"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric)}
        for proto, d in drops.items():
            r = d.set_index("task").loc[task]
            row[f"{proto}: chronological"] = pm(r["chronological"], None)
            row[f"{proto}: unseen episodes"] = pm(r["unseen"], r["unseen_sd"])
            row[f"{proto}: drop"] = pm(r["drop"], None)
        rows.append(row)
    return pd.DataFrame(rows)


def shift_display(shifts: pd.DataFrame) -> pd.DataFrame:
    """Task × shift: held-out groups and random folds of the same sizes (mean ± sd), and the drop."""
    rows = []
    for task in TASKS:
        row = {"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric)}
        for _, r in shifts[shifts["task"] == task].iterrows():
            row[f"{r['shift']} held out"] = pm(r["held_out"], r["held_out_sd"])
            row[f"{r['shift']}: random folds"] = pm(r["random"], r["random_sd"])
            row[f"{r['shift']}: drop"] = pm(r["drop"], None)
        rows.append(row)
    return pd.DataFrame(rows)


def curve_table(curve: pd.DataFrame, tolerance: float = 0.02) -> pd.DataFrame:
    """Per task: the curve's whole shape, the head at the smallest and largest size (mean and range of the
    draws), the baseline at the largest, and the episodes from which the head stays ahead of the baseline."""
    rows = []
    largest = int(curve["n_train"].max())
    for task in TASKS:
        h = curve[(curve["task"] == task) & (curve["head"] == "minimal")].sort_values("n_train")
        b = curve[(curve["task"] == task) & (curve["head"] == "baseline")].sort_values("n_train")
        if h.empty:
            continue
        tol = tolerance if TASKS[task].primary_metric != "mpjpe" else tolerance / 10
        first, last = h.iloc[0], h.iloc[-1]
        rows.append({"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric),
                     "Shape": phrases.curve_shape(list(h["mean"]), TASKS[task].higher_is_better, tol),
                     count(int(first["n_train"]), "episode"): _range(first),
                     count(int(last["n_train"]), "episode"): _range(last),
                     "Baseline at the largest": pm(b["mean"].iloc[-1], None) if len(b) else "—",
                     "Ahead of the baseline from": phrases.needed(episodes_needed(curve, task), largest)})
    return pd.DataFrame(rows)


def _range(r: pd.Series) -> str:
    """'0.612 (0.580–0.640)': mean and the lowest and highest draw."""
    if not np.isfinite(r["mean"]):
        return "—"
    return f"{r['mean']:.3f} ({r['lo']:.3f}–{r['hi']:.3f})"


def coverage_table(coverage: pd.DataFrame) -> pd.DataFrame:
    """Per fold: share (%) of test windows whose action and subtask labels occur in the training episodes."""
    wide = coverage.pivot(index="fold", columns="label", values="coverage").mul(100).reset_index()
    wide["fold"] = wide["fold"].map(lambda f: f"fold {int(f) + 1}")
    return wide.rename(columns={"fold": "Fold", "action": "Action labels seen (%)",
                                "subtask": "Subtask labels seen (%)"})


def answer_table(transfer: pd.DataFrame, drops: pd.DataFrame, shifts: pd.DataFrame,
                 curve: pd.DataFrame) -> pd.DataFrame:
    """The chapter's answer per task (one protocol): folds won, unseen mean ± sd, drop, worst shift, episodes."""
    largest = int(curve["n_train"].max()) if len(curve) else 0
    rows = []
    for _, t in transfer.iterrows():
        task = t["task"]
        s = shifts[shifts["task"] == task]
        worst = s.loc[s["drop"].idxmax()] if len(s) and (s["drop"] > 0).any() else None
        drop = drops.set_index("task")["drop"].get(task, np.nan)
        rows.append({"Task": _title(task), "Metric": metric_label(t["metric"]),
                     "Beats the baseline": phrases.folds_won(int(t["wins"]), int(t["of"])),
                     "Unseen episodes": pm(t["mean"], t["sd"]), "Drop from chronological": pm(drop, None),
                     "Worst shift (drop)": "none" if worst is None else f"{worst['shift']} ({worst['drop']:.3f})",
                     "Episodes needed": phrases.needed(episodes_needed(curve, task), largest) if largest else "—"})
    return pd.DataFrame(rows)
