"""Chapter 14's tables shaped for a reader: task titles, metric names, mean ± sd cells, plain headers; the
numbers in them come from ``comparisons``."""

from __future__ import annotations

import numpy as np
import pandas as pd

import robotask.episode.unseen.phrases as phrases

from ...words import count
from ..tasks.registry import TASKS
from .comparisons import episodes_needed
from .strongest import strongest_name

SCALING_HEADERS = {"workers": "Workers", "episodes": "Episodes", "wall_s": "Wall (s)", "frames_per_s": "Frames / s",
                   "episode_s": "Seconds per episode", "peak_mb": "Peak MiB per worker", "speedup": "Speed-up"}
NOT_RUN_HEADERS = {"task": "Task", "protocol": "Protocol", "study": "Part of the design", "settings": "Settings",
                   "status": "Status", "reason": "Reason"}


def minus(text: str) -> str:
    """A number's text with the typographic minus sign (−) for a hyphen-minus."""
    return text.replace("-", "\u2212")


def pm(mean: float, sd: float, digits: int = 3) -> str:
    """'0.612 ± 0.041'; a dash when the mean is missing, no ± when the spread is; − for a minus."""
    if mean is None or not np.isfinite(mean):
        return "—"
    return minus(f"{mean:.{digits}f}" if sd is None or not np.isfinite(sd)
                 else f"{mean:.{digits}f} ± {sd:.{digits}f}")


def metric_label(metric: str) -> str:
    """The reader's name of a metric id."""
    from ..report.summary import METRIC_LABELS

    return METRIC_LABELS.get(metric, metric.replace("_", " "))


def _title(task: str) -> str:
    return TASKS[task].display_name


def bound(value: float, digits: int = 3) -> str:
    """An interval's end with its sign, to ``digits`` decimals, or as many more as it takes for an end near zero
    to keep the sign the verdict reads ('−0.0002', never '−0.000')."""
    text = f"{value:+.{digits}f}"
    while value != 0 and float(text) == 0 and digits < 9:
        digits += 1
        text = f"{value:+.{digits}f}"
    return text


def iv(row: pd.Series | dict, prefix: str = "", digits: int = 3) -> str:
    """'beats: +0.120 (+0.050 to +0.190)': the word, the mean paired difference and its 95 % interval."""
    word, d, lo, hi = (row[f"{prefix}{k}"] for k in ("verdict", "diff", "lo", "hi"))
    if d is None or not np.isfinite(d):
        return "—"
    ends = f" ({bound(lo, digits)} to {bound(hi, digits)})" if np.isfinite(lo) and np.isfinite(hi) else ""
    return f"{word}: {minus(f'{d:+.{digits}f}{ends}')}"


def strongest_cell(name: str, mean: float) -> str:
    """'previous window's label (0.412)': a strongest baseline and its mean (the trivial one named so)."""
    return "—" if not isinstance(name, str) else f"{strongest_name(name)} ({pm(mean, None)})"


def protocol_table(summary: pd.DataFrame, head: str = "minimal") -> pd.DataFrame:
    """One row per task, on its deciding metric (accuracy on a pair task): ``head``, the trivial baseline and
    the strongest baseline (means over folds) and head − strongest baseline paired over folds, under each
    protocol side by side."""
    rows = []
    for task in TASKS:
        g0 = summary[(summary["task"] == task) & (summary["head"] == head)]
        metric = g0["deciding_metric"].iloc[0] if len(g0) else TASKS[task].primary_metric
        row = {"Task": _title(task), "Metric": metric_label(metric)}
        for proto, g in summary[summary["task"] == task].groupby("protocol", sort=False):
            h, b = g[g["head"] == head], g[g["head"] == "baseline"]
            row[f"{proto}: {head}"] = pm(h["deciding_mean"].iloc[0], h["deciding_sd"].iloc[0]) if len(h) else "—"
            row[f"{proto}: trivial baseline"] = pm(b["deciding_mean"].iloc[0], None) if len(b) else "—"
            row[f"{proto}: strongest baseline"] = (strongest_cell(h["strongest"].iloc[0], h["strongest_mean"].iloc[0])
                                                   if len(h) else "—")
            row[f"{proto}: head − strongest"] = iv(h.iloc[0]) if len(h) else "—"
        rows.append(row)
    return pd.DataFrame(rows)


def mlp_table(summary: pd.DataFrame, protocol: str) -> pd.DataFrame:
    """Minimal head, MLP and baseline (mean ± sd over folds) under one protocol, each head against the baseline."""
    d = summary[summary["protocol"] == protocol]
    rows = []
    for task in TASKS:
        g = d[d["task"] == task].set_index("head")
        if "mlp" not in g.index:
            continue
        row = {"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric)}
        for head, name in (("minimal", "Minimal head"), ("mlp", "MLP"), ("baseline", "Trivial baseline")):
            row[name] = pm(g.loc[head, "mean"], g.loc[head, "sd"])
        row["Strongest baseline"] = strongest_cell(g.loc["mlp", "strongest"], g.loc["mlp", "strongest_mean"])
        row["MLP − strongest baseline"] = iv(g.loc["mlp"])
        rows.append(row)
    return pd.DataFrame(rows)


def chronological_table(drops: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per task and protocol: the single-episode split and unseen episodes (means over folds), and the drop
    paired over folds (positive: worse on unseen episodes)."""
    rows = []
    for task in TASKS:
        row = {"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric)}
        for proto, d in drops.items():
            r = d.set_index("task").loc[task]
            row[f"{proto}: chronological"] = pm(r["chronological"], None)
            row[f"{proto}: unseen"] = pm(r["unseen"], None)
            row[f"{proto}: drop"] = iv(r)
        rows.append(row)
    return pd.DataFrame(rows)


def shift_table(shifts: pd.DataFrame) -> pd.DataFrame:
    """Task × shift: held-out groups and their random folds (means), and the drop paired over groups."""
    rows = []
    for task in TASKS:
        row = {"Task": _title(task)}
        for _, r in shifts[shifts["task"] == task].iterrows():
            row[f"{r['shift']} held out"] = pm(r["held_out"], None)
            row[f"{r['shift']}: random folds"] = pm(r["random"], None)
            row[f"{r['shift']}: drop"] = iv(r)
        rows.append(row)
    return pd.DataFrame(rows)


def curve_table(curve: pd.DataFrame, steps: pd.DataFrame) -> pd.DataFrame:
    """Per task: the head at the smallest and largest size (mean and range of the draws), the baseline at the
    largest, the change over the whole curve and over the last doubling (paired over draws), and the episodes
    from which the head stays ahead of the baseline."""
    rows = []
    largest = int(curve["n_train"].max())
    st = steps.set_index("task") if len(steps) else pd.DataFrame()
    for task in TASKS:
        h = curve[(curve["task"] == task) & (curve["head"] == "minimal")].sort_values("n_train")
        b = curve[(curve["task"] == task) & (curve["head"] == "baseline")].sort_values("n_train")
        if h.empty:
            continue
        first, last = h.iloc[0], h.iloc[-1]
        rows.append({"Task": _title(task), "Metric": metric_label(TASKS[task].primary_metric),
                     count(int(first["n_train"]), "episode"): _range(first),
                     count(int(last["n_train"]), "episode"): _range(last),
                     "Trivial baseline at the largest": pm(b["mean"].iloc[-1], None) if len(b) else "—",
                     "Strongest baseline at the largest": strongest_cell(last.get("strongest"),
                                                                         last.get("strongest_mean", np.nan)),
                     "Whole curve": iv(st.loc[task], "whole_") if task in st.index else "—",
                     "Last doubling": iv(st.loc[task], "last_") if task in st.index else "—",
                     "Ahead of the strongest baseline from": phrases.needed(episodes_needed(curve, task), largest)})
    return pd.DataFrame(rows)


def _range(r: pd.Series) -> str:
    """'0.612 (0.580–0.640)': mean and the lowest and highest draw."""
    if not np.isfinite(r["mean"]):
        return "—"
    return minus(f"{r['mean']:.3f} ({r['lo']:.3f}–{r['hi']:.3f})")


def coverage_table(coverage: pd.DataFrame) -> pd.DataFrame:
    """Per fold: share (%) of test windows whose action and subtask labels occur in the training episodes."""
    wide = coverage.pivot(index="fold", columns="label", values="coverage").mul(100).reset_index()
    wide["fold"] = wide["fold"].map(lambda f: f"fold {int(f) + 1}")
    return wide.rename(columns={"fold": "Fold", "action": "Action labels seen (%)",
                                "subtask": "Subtask labels seen (%)"})


def answer_table(transfer: pd.DataFrame, drops: pd.DataFrame, shifts: pd.DataFrame,
                 curve: pd.DataFrame) -> pd.DataFrame:
    """The chapter's answer per task (one protocol), each word from its paired interval: against the baseline,
    against the chronological split, per shift, and the episodes from which the head stays ahead."""
    largest = int(curve["n_train"].max()) if len(curve) else 0
    dr = drops.set_index("task")
    rows = []
    for _, t in transfer.iterrows():
        task = t["task"]
        row = {"Task": _title(task), "Unseen episodes": pm(t["mean"], t["sd"]),
               "Strongest baseline": strongest_name(t["strongest"]) if isinstance(t["strongest"], str) else "—",
               "Head − strongest baseline": iv(t),
               "Unseen − chronological": dr.loc[task, "verdict"] if task in dr.index else "—"}
        for shift in ("subject", "scene"):
            s = shifts[(shifts["task"] == task) & (shifts["shift"] == shift)] if len(shifts) else shifts
            row[f"New {shift}"] = s["verdict"].iloc[0] if len(s) else "not run"
        row["Ahead from"] = phrases.needed(episodes_needed(curve, task), largest) if largest else "—"
        rows.append(row)
    return pd.DataFrame(rows)


def epoch_table(check: pd.DataFrame) -> pd.DataFrame:
    """Per task and head: the result with the chapter's epochs and with the suite's (means over the check's
    folds), and full − cut paired over those folds, in the metric's sense of better."""
    return pd.DataFrame([{"Task": _title(r["task"]), "Head": r["head"], "Chapter's epochs": pm(r["cut"], None),
                          "Suite's epochs": pm(r["full"], None), "Suite's − chapter's": iv(r)}
                         for _, r in check.iterrows()])


def not_run_table(results: pd.DataFrame) -> pd.DataFrame:
    """Tasks that did not run in some setting: task, protocol, study, settings affected, and the reasons."""
    d = results[(results["status"] != "ok") & (results["head"] == "baseline")]
    rows = []
    for (task, proto, study), g in d.groupby(["task", "protocol", "study"], sort=False):
        total = int(((results["task"] == task) & (results["protocol"] == proto) & (results["study"] == study)
                     & (results["head"] == "baseline")).sum())
        rows.append({"task": TASKS[task].display_name, "protocol": proto, "study": study,
                     "settings": f"{len(g)} of {total}", "status": ", ".join(sorted(set(g["status"]))),
                     "reason": "; ".join(dict.fromkeys(g["reason"]))})
    return pd.DataFrame(rows, columns=["task", "protocol", "study", "settings", "status", "reason"])
