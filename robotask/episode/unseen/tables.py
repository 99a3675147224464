"""Chapter 14's tables from the long result table of :func:`design.run_settings`.

Values are oriented where they are compared: ``drop`` is positive when the unseen (or shifted) setting
is worse, for metrics where higher is better and for errors alike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..features.windowset import WindowSet
from ..tasks.registry import TASKS
from .design import Setting


def pm(mean: float, sd: float, digits: int = 3) -> str:
    """'0.612 ± 0.041'; a dash when the mean is missing, no ± when the spread is."""
    if mean is None or not np.isfinite(mean):
        return "—"
    return f"{mean:.{digits}f}" if sd is None or not np.isfinite(sd) else f"{mean:.{digits}f} ± {sd:.{digits}f}"


def fold_summary(results: pd.DataFrame, study: str = "cv") -> pd.DataFrame:
    """Per protocol, task and head: mean and sd over folds, folds with a value, folds the head beats the baseline."""
    d = results[results["study"] == study]
    rows = []
    for (proto, task, head), g in d.groupby(["protocol", "task", "head"], sort=False):
        v = g["value"].astype(float)
        base = d[(d["protocol"] == proto) & (d["task"] == task) & (d["head"] == "baseline")]
        paired = pd.merge(g[["fold", "value"]], base[["fold", "value"]], on="fold", suffixes=("", "_b")).dropna()
        sign = 1.0 if bool(g["higher_is_better"].iloc[0]) else -1.0
        rows.append({"protocol": proto, "task": task, "metric": g["metric"].iloc[0],
                     "higher_is_better": bool(g["higher_is_better"].iloc[0]), "head": head,
                     "mean": float(v.mean()) if v.notna().any() else np.nan,
                     "sd": float(v.std(ddof=1)) if v.notna().sum() > 1 else np.nan,
                     "folds": int(v.notna().sum()), "of": int(len(v)),
                     "wins": int((sign * (paired["value"].astype(float) - paired["value_b"].astype(float)) > 0).sum())})
    return pd.DataFrame(rows)


def transfer_table(summary: pd.DataFrame, protocol: str, head: str = "minimal") -> pd.DataFrame:
    """Per task under one protocol: folds with a result, folds won against the baseline, mean and sd."""
    d = summary[(summary["protocol"] == protocol) & (summary["head"] == head)].set_index("task")
    return d.loc[[t for t in TASKS if t in d.index], ["metric", "higher_is_better", "mean", "sd", "folds", "of",
                                                      "wins"]].reset_index()


def chronological_drop(results: pd.DataFrame, summary: pd.DataFrame, protocol: str,
                       head: str = "minimal") -> pd.DataFrame:
    """Per task: the chronological split's value, the episode folds' mean ± sd, and the drop (positive: worse)."""
    chrono = results[(results["study"] == "chronological") & (results["protocol"] == protocol)
                     & (results["head"] == head)].set_index("task")
    cv = summary[(summary["protocol"] == protocol) & (summary["head"] == head)].set_index("task")
    rows = []
    for task in TASKS:
        c, m = chrono["value"].get(task), cv["mean"].get(task)
        sign = 1.0 if TASKS[task].higher_is_better else -1.0
        c = np.nan if c is None else float(c)
        m = np.nan if m is None else float(m)
        rows.append({"task": task, "metric": TASKS[task].primary_metric, "chronological": c, "unseen": m,
                     "unseen_sd": float(cv["sd"].get(task, np.nan)), "drop": sign * (c - m)})
    return pd.DataFrame(rows)


def shift_table(results: pd.DataFrame, head: str = "minimal") -> pd.DataFrame:
    """Per task and shift: mean ± sd over held-out groups, over random folds of the same sizes, and the drop."""
    d = results[results["study"].isin(["group", "random"]) & (results["head"] == head)]
    rows = []
    for (task, shift), g in d.groupby(["task", "shift"], sort=False):
        grp, rnd = (g.loc[g["study"] == s, "value"].astype(float) for s in ("group", "random"))
        sign = 1.0 if TASKS[task].higher_is_better else -1.0
        rows.append({"task": task, "shift": shift, "metric": TASKS[task].primary_metric,
                     "held_out": grp.mean(), "held_out_sd": grp.std(ddof=1), "random": rnd.mean(),
                     "random_sd": rnd.std(ddof=1), "drop": sign * (rnd.mean() - grp.mean()), "groups": int(len(grp))})
    return pd.DataFrame(rows)


def hurt_tasks(shifts: pd.DataFrame, shift: str) -> list[str]:
    """Tasks whose held-out-group mean is worse than the random folds' by more than the random folds' sd."""
    d = shifts[shifts["shift"] == shift]
    return [t for t, drop, sd in zip(d["task"], d["drop"], d["random_sd"]) if np.isfinite(drop) and drop > sd]


def curve_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per task, head and number of training episodes: mean, sd, lowest and highest over the draws."""
    d = results[(results["study"] == "curve")].assign(value=lambda x: x["value"].astype(float))
    g = d.groupby(["task", "head", "n_train"], sort=False)["value"]
    out = g.agg(mean="mean", sd="std", lo="min", hi="max", draws="count").reset_index()
    out["higher_is_better"] = out["task"].map(lambda t: TASKS[t].higher_is_better)
    out["metric"] = out["task"].map(lambda t: TASKS[t].primary_metric)
    return out


def episodes_needed(curve: pd.DataFrame, task: str, head: str = "minimal") -> int | None:
    """Smallest number of training episodes from which the head's mean beats the baseline's at every larger size."""
    h = curve[(curve["task"] == task) & (curve["head"] == head)].set_index("n_train")["mean"]
    b = curve[(curve["task"] == task) & (curve["head"] == "baseline")].set_index("n_train")["mean"]
    sign = 1.0 if TASKS[task].higher_is_better else -1.0
    beats = [(n, bool(sign * (h[n] - b[n]) > 0)) for n in sorted(h.index) if np.isfinite(h[n]) and np.isfinite(b[n])]
    need = None
    for n, ok in reversed(beats):
        if not ok:
            break
        need = n
    return need


def fold_coverage(sets: dict[str, WindowSet], cv: list[Setting]) -> pd.DataFrame:
    """Per fold (of one protocol): share of test windows whose action / subtask label occurs in training."""
    rows = []
    for s in cv:
        for column in ("action_label", "subtask_label"):
            seen = {str(x) for e in s.split.train for x in sets[e].windows[column] if str(x)}
            test = [str(x) for e in s.split.test for x in sets[e].windows[column] if str(x)]
            rows.append({"fold": s.labels["fold"], "label": column.split("_")[0],
                         "coverage": float(np.mean([t in seen for t in test])) if test else float("nan")})
    return pd.DataFrame(rows)


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


def factor_table(episodes: pd.DataFrame, factors: list[str], n: int = 3) -> pd.DataFrame:
    """The first ``n`` episodes' variation factors; an empty list of absent objects reads "none"."""
    shown = episodes[factors].head(n).copy()
    if "absent" in shown:
        shown["absent"] = shown["absent"].map(
            lambda v: v.replace("|", ", ") if isinstance(v, str) and v.strip() else "none")
    return shown
