"""Figures, tables and computed prose of the suite summary chapter ``13_suite_summary``.

Every function takes the long table of primary metrics over (schedule, protocol) suite runs
(:func:`summary_long` of their ``summary_report.json`` documents) and returns a figure, a DataFrame or
a Markdown string.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .figures_tasks import COLORS, HEAD_LABELS
from .tasks import TASKS


def summary_long(reports: dict[tuple[str, str], dict]) -> pd.DataFrame:
    """Primary metrics of every (schedule, protocol) suite run in long form."""
    rows = []
    for (schedule, proto), rep in reports.items():
        for t, p in rep["primary"].items():
            for part in ("baseline", "minimal", "mlp"):
                rows.append({"schedule": schedule, "protocol": proto, "task": t,
                             "name": rep["task_display_names"][t], "metric": p["metric"],
                             "higher_is_better": p["higher_is_better"], "model": part, "value": p.get(part),
                             "status": rep["status"][t]["status"]})
    return pd.DataFrame(rows)


def summary_wide(long: pd.DataFrame, schedule: str, published: dict | None = None) -> pd.DataFrame:
    """One row per task: primary metric for baseline/minimal/MLP under each protocol (+ published real sample)."""
    sub = long[long["schedule"] == schedule]
    wide = sub.pivot_table(index=["task", "name", "metric"], columns=["protocol", "model"], values="value",
                           aggfunc="first", dropna=False)
    protos = list(dict.fromkeys(sub["protocol"]))
    wide = wide[[(p, m) for p in protos for m in ("baseline", "minimal", "mlp") if (p, m) in wide.columns]]
    wide.columns = [f"{p} {HEAD_LABELS[m]}" for p, m in wide.columns]
    wide = wide.reset_index()
    if published:
        wide["published minimal (real sample)"] = wide["task"].map(lambda t: published[t]["minimal"])
        wide["published MLP (real sample)"] = wide["task"].map(lambda t: published[t]["mlp"])
    order = {t: i for i, t in enumerate(TASKS)}
    return wide.sort_values("task", key=lambda s: s.map(order)).drop(columns="task").reset_index(drop=True)


def figure_summary(long: pd.DataFrame, published: dict | None = None) -> plt.Figure:
    """Primary metric per task: baseline / minimal / MLP bars for each schedule × protocol (+ published)."""
    combos = list(dict.fromkeys(zip(long["schedule"], long["protocol"])))
    tasks = list(TASKS)
    fig, axes = plt.subplots(3, 4, figsize=(13, 8.5))
    for ax, t in zip(axes.ravel(), tasks):
        sub = long[long["task"] == t]
        x = np.arange(len(combos))
        for k, part in enumerate(("baseline", "minimal", "mlp")):
            vals = [sub[(sub["schedule"] == s) & (sub["protocol"] == p) & (sub["model"] == part)]["value"]
                    .astype(float).fillna(np.nan).mean() for s, p in combos]
            ax.bar(x + (k - 1) * 0.27, vals, 0.27, color=COLORS[part], label=HEAD_LABELS[part])
        if published:
            ax.axhline(published[t]["minimal"], color=COLORS["minimal"], ls=":", lw=1.2)
            ax.axhline(published[t]["mlp"], color=COLORS["mlp"], ls=":", lw=1.2)
        ax.set_xticks(x, [f"{s[:6]}\n{p[:4]}" for s, p in combos], fontsize=7)
        metric = sub["metric"].iloc[0]
        if metric == "r2":  # very negative R² would flatten every other bar
            lo, hi = ax.get_ylim()
            ax.set_ylim(max(lo, -1.0), max(hi, 1.0))
        arrow = "↑" if sub["higher_is_better"].iloc[0] else "↓"
        ax.set_title(f"{TASKS[t].display_name}\n{metric} {arrow}", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
    axes[0, 0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Primary metric per task (dotted: published real-sample minimal / MLP, other data)", fontsize=9)
    fig.tight_layout()
    return fig


LABEL_TASKS = ("timeline_action", "timeline_subtask", "next_action")


def _value(long: pd.DataFrame, schedule: str, proto: str, task: str, model: str) -> float | None:
    """One primary-metric value of the long table (None if absent)."""
    sel = long[(long["schedule"] == schedule) & (long["protocol"] == proto) & (long["task"] == task)
               & (long["model"] == model)]["value"]
    return None if sel.empty or sel.iloc[0] is None or pd.isna(sel.iloc[0]) else float(sel.iloc[0])


def _mean(values: list[float | None]) -> float | None:
    """Mean of the non-missing values."""
    vals = [v for v in values if v is not None]
    return float(np.mean(vals)) if vals else None


def schedule_and_fix_text(long: pd.DataFrame, schedules: list[str], protocols: list[str]) -> str:
    """Computed prose: label tasks across schedules, and the per-task effect of the improved protocol."""
    lines = []
    proto0 = protocols[0]
    for s in schedules:
        for model in ("baseline", "minimal", "mlp"):
            m = _mean([_value(long, s, proto0, t, model) for t in LABEL_TASKS])
            if m is not None:
                lines.append(f"- `{s}`, {proto0} protocol, {HEAD_LABELS[model]}: mean macro-F1 of the three label "
                             f"tasks (action, step, next action) {m:.3f}.")
    if "original" in protocols and "improved" in protocols:
        for s in schedules:
            changes = []
            for t, spec in TASKS.items():
                for model in ("minimal", "mlp"):
                    a, b = _value(long, s, "original", t, model), _value(long, s, "improved", t, model)
                    if a is not None and b is not None:
                        gain = (b - a) if spec.higher_is_better else (a - b)
                        changes.append((gain, t, model, a, b))
                    elif a is None and b is not None and model == "minimal":
                        lines.append(f"- `{s}`: **{spec.display_name}** only runs under the improved protocol "
                                     f"(the original label is degenerate or the task was skipped); minimal {b:.3f}.")
            changes.sort(reverse=True)
            for gain, t, model, a, b in changes[:3] + [c for c in changes[-2:] if c[0] < 0]:
                lines.append(f"- `{s}`: {TASKS[t].display_name}, {HEAD_LABELS[model]}: {a:.3f} → {b:.3f} "
                             f"({TASKS[t].primary_metric}, {'better' if gain > 0 else 'worse'} by {abs(gain):.3f}).")
    return "\n".join(lines) if lines else "Only one protocol and schedule were run."


def suite_recap(long: pd.DataFrame, schedules: list[str], protocols: list[str]) -> str:
    """Computed recap: per run, how many tasks each head wins against the baseline, and how many did not run."""
    lines = []
    for s in schedules:
        for p in protocols:
            wins = {}
            for model in ("minimal", "mlp"):
                n = 0
                for t, spec in TASKS.items():
                    v, b = _value(long, s, p, t, model), _value(long, s, p, t, "baseline")
                    if v is not None and b is not None and (v > b if spec.higher_is_better else v < b):
                        n += 1
                wins[model] = n
            sub = long[(long["schedule"] == s) & (long["protocol"] == p) & (long["model"] == "minimal")]
            idle = int((sub["status"] != "ok").sum())
            lines.append(f"- `{s}` / {p}: the minimal head beats the trivial baseline on {wins['minimal']} of 12 "
                         f"tasks, the MLP on {wins['mlp']}; {idle} task(s) did not run (degenerate or skipped).")
    return "\n".join(lines)
