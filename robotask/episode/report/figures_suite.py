"""Figures and computed prose of the suite summary chapter ``13_suite_summary``.

Every function takes the long table of primary metrics over (schedule, protocol) runs
(:func:`robotask.episode.report.summary.primary_long` of the task chapters' written results) and returns a
figure or a table; :func:`explanations_text` lists what the task pages wrote about their anomalies.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..tasks.registry import TASKS
from .figures_tasks import COLORS, HEAD_LABELS


def _bar_values(sub: pd.DataFrame, combos: list, part: str) -> list[float]:
    """The primary metric of ``part`` for each (schedule, protocol) combination (NaN where not run)."""
    vals = []
    for s, p in combos:
        hit = sub[(sub["schedule"] == s) & (sub["protocol"] == p) & (sub["model"] == part)]["value"]
        vals.append(float(hit.iloc[0]) if len(hit) and hit.iloc[0] is not None else np.nan)
    return vals


def _metric(metric: str) -> str:
    """A metric key as a reader reads it ("macro_f1" → "macro-F1")."""
    from .summary import METRIC_LABELS

    return METRIC_LABELS.get(metric, metric.replace("_", " "))


def bar_order(long: pd.DataFrame) -> list[tuple[str, str]]:
    """The (schedule, protocol) bar groups of the summary figure, in the order they are drawn:
    schedules as they appear, and within a schedule the protocols original, then improved."""
    from .summary import protocols_of, schedules_of

    present = set(zip(long["schedule"], long["protocol"]))
    return [(s, p) for s in schedules_of(long) for p in protocols_of(long) if (s, p) in present]


OFF_SCALE = 3.0
"""A published line more than this many times above a panel's tallest bar is not drawn to scale."""


def off_scale(bars: np.ndarray, lines: dict, ratio: float = OFF_SCALE) -> dict[str, float]:
    """The published values of one panel (head → value) that lie more than ``ratio`` times above
    its tallest bar: drawn to scale, they would flatten every bar of the panel."""
    finite = bars[np.isfinite(bars)]
    top = float(finite.max()) if finite.size else 0.0
    if top <= 0:
        return {}
    return {h: float(v) for h, v in lines.items() if v is not None and v > ratio * top}


def _published_lines(ax, bars: np.ndarray, lines: dict) -> None:
    """Dotted published lines; one far above the bars is an arrow at the top edge with its value."""
    far = off_scale(bars, lines)
    for head, value in lines.items():
        if head not in far:
            ax.axhline(value, color=COLORS[head], ls=":", lw=1.2)
    if not far:
        return
    near = [v for h, v in lines.items() if h not in far] + [float(np.nanmax(bars))]
    ax.set_ylim(ax.get_ylim()[0], 1.45 * max(near))
    for i, (head, value) in enumerate(far.items()):
        ax.annotate(f"published {HEAD_LABELS[head]}: {value:.3f}\n(above the axis)", xy=(0.97, 1.0),
                    xycoords="axes fraction", xytext=(0.97, 0.84 - 0.14 * i), textcoords="axes fraction",
                    ha="right", va="center", fontsize=7, color=COLORS[head],
                    arrowprops={"arrowstyle": "->", "color": COLORS[head], "lw": 1.0, "relpos": (1.0, 1.0)})


def _panel_bars(ax, sub: pd.DataFrame, combos: list, floor: float) -> np.ndarray:
    """The baseline / minimal / MLP bars of one task; returns every drawn value (NaN where not run)."""
    x = np.arange(len(combos))
    drawn = []
    for k, part in enumerate(("baseline", "minimal", "mlp")):
        vals = np.array(_bar_values(sub, combos, part))
        low = vals < floor
        ax.bar(x + (k - 1) * 0.27, np.where(low, floor, vals), 0.27, color=COLORS[part],
               label=HEAD_LABELS[part], hatch=None)
        for xi, v in zip(x[low] + (k - 1) * 0.27, vals[low]):
            ax.bar(xi, floor, 0.27, color="none", edgecolor="black", hatch="///", lw=0)
            ax.text(xi, floor / 2, f"{v:.1f}", ha="center", va="center", fontsize=8,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.6})
        drawn.append(np.where(low, floor, vals))
    return np.concatenate(drawn)


def figure_summary(long: pd.DataFrame, published: dict | None = None, floor: float = -1.0) -> plt.Figure:
    """Primary metric per task: baseline / minimal / MLP bars for each schedule × protocol (+ published).

    An R² below ``floor`` would flatten every other bar: its bar stops at the floor, hatched, and its
    value is written on it, so no value is hidden. A published value far above every bar of its panel
    (:func:`off_scale`) is written at the top edge with an arrow instead of being drawn to scale.
    """
    combos = bar_order(long)
    fig, axes = plt.subplots(3, 4, figsize=(13, 9))
    for ax, t in zip(axes.ravel(), TASKS):
        sub = long[long["task"] == t]
        bars = _panel_bars(ax, sub, combos, floor)
        if published:
            _published_lines(ax, bars, {h: published[t][h] for h in ("minimal", "mlp")})
        ax.set_xticks(np.arange(len(combos)), [f"{s}\n{p}" for s, p in combos], fontsize=7)
        first = sub.iloc[0]
        arrow = "↑ better" if first["higher_is_better"] else "↓ better"
        ax.set_title(f"{TASKS[t].display_name}\n{_metric(first['metric'])} ({arrow})", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.axhline(0, color="black", lw=0.6)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    return fig


def off_scale_values(long: pd.DataFrame, published: dict, floor: float = -1.0) -> list[tuple[str, str, float]]:
    """Every published value :func:`figure_summary` writes at a panel's top edge instead of drawing
    it: (task display name, head label, value), in the order of the panels."""
    combos = bar_order(long)
    found = []
    for t in TASKS:
        sub = long[long["task"] == t]
        bars = np.concatenate([np.array(_bar_values(sub, combos, part)) for part in ("baseline", "minimal", "mlp")])
        bars = np.where(bars < floor, floor, bars)
        lines = {h: published[t][h] for h in ("minimal", "mlp")}
        found += [(TASKS[t].display_name, HEAD_LABELS[h], v) for h, v in off_scale(bars, lines).items()]
    return found


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


def explanations_text(docs: dict[str, dict]) -> str:
    """The task pages' explanations of anomalies in the numbers above, one bullet per explanation."""
    lines = [f"- **{doc.get('name', task)}**: {text}" for task, doc in docs.items()
             for text in doc.get("explanations", [])]
    return "\n".join(lines)


def summary_caption(schedules: list[str], protocols: list[str],
                    order: list[tuple[str, str]] | None = None,
                    off_scale_list: list[tuple[str, str, float]] | None = None) -> str:
    """Caption of the summary figure; ``order`` is :func:`bar_order` of the drawn table (the bar
    groups left to right), else every schedule × protocol in the given order; ``off_scale_list``
    is :func:`off_scale_values` of the drawn figure (None: the caption states the rule only)."""
    groups = order if order is not None else [(s, p) for s in schedules for p in protocols]
    text = (f"Primary metric per task for the baseline, the minimal head and the MLP; bars are grouped "
            f"by schedule and protocol, left to right: {', '.join(f'{s} {p}' for s, p in groups)}. "
            f"Dotted lines: the published real-sample minimal head and MLP (other data). A hatched bar "
            f"stops at the axis floor and carries its true value.")
    rule = (f" A published value more than {OFF_SCALE:g} times the tallest bar of its panel would "
            "flatten the bars, so it is not drawn to scale: an arrow at the top edge of the panel "
            "points up to it and carries its value")
    if off_scale_list is None:
        return text + rule + "."
    if not off_scale_list:
        return text
    items = "; ".join(f"{task}: published {head} {v:.3f}" for task, head, v in off_scale_list)
    return text + rule + f" ({items})."


def _beats(value: float | None, base: float | None, higher_is_better: bool) -> bool:
    """Whether ``value`` beats ``base`` in the metric's direction (False when either is missing)."""
    return value is not None and base is not None and (value > base if higher_is_better else value < base)


def winners(long: pd.DataFrame, schedule: str, proto: str, model: str, baseline_wins: bool = False) -> list[str]:
    """Display names of the tasks on which ``model`` beats the baseline under (schedule, protocol), in
    task order; with ``baseline_wins``, those on which the baseline beats ``model`` instead."""
    out = []
    for t, spec in TASKS.items():
        v, b = _value(long, schedule, proto, t, model), _value(long, schedule, proto, t, "baseline")
        if _beats(b, v, spec.higher_is_better) if baseline_wins else _beats(v, b, spec.higher_is_better):
            out.append(spec.display_name)
    return out


def ran(long: pd.DataFrame, schedule: str, proto: str) -> int:
    """How many tasks produced metrics under (schedule, protocol)."""
    sub = long[(long["schedule"] == schedule) & (long["protocol"] == proto) & (long["model"] == "minimal")]
    return int((sub["status"] == "ok").sum())


def wins_table(long: pd.DataFrame, schedules: list[str], protocols: list[str]) -> pd.DataFrame:
    """Per schedule and protocol: tasks that ran, and on how many each head beats the baseline."""
    return pd.DataFrame([{"Schedule": s, "Protocol": p, "Tasks that ran": ran(long, s, p),
                          "Minimal head beats the baseline": len(winners(long, s, p, "minimal")),
                          "MLP beats the baseline": len(winners(long, s, p, "mlp"))}
                         for s in schedules for p in protocols])


def label_task_means(long: pd.DataFrame, schedules: list[str], proto: str) -> pd.DataFrame:
    """Mean macro-F1 of the three label tasks (action, step, next action) per schedule and model."""
    rows = []
    for s in schedules:
        row = {"Schedule": s}
        for model in ("baseline", "minimal", "mlp"):
            m = _mean([_value(long, s, proto, t, model) for t in LABEL_TASKS])
            row[HEAD_LABELS[model].capitalize() if model != "mlp" else "MLP"] = float("nan") if m is None else m
        rows.append(row)
    return pd.DataFrame(rows)


def protocol_changes(long: pd.DataFrame, schedule: str, n: int = 3) -> pd.DataFrame:
    """The ``n`` largest gains and every loss of a head from the original to the improved protocol on
    ``schedule``, in the metric's good direction."""
    rows = []
    for t, spec in TASKS.items():
        for model in ("minimal", "mlp"):
            a, b = _value(long, schedule, "original", t, model), _value(long, schedule, "improved", t, model)
            if a is not None and b is not None:
                rows.append({"Task": spec.display_name, "Head": HEAD_LABELS[model],
                             "Metric": _metric(spec.primary_metric), "Original": a, "Improved": b,
                             "Gain": (b - a) if spec.higher_is_better else (a - b)})
    frame = pd.DataFrame(rows, columns=["Task", "Head", "Metric", "Original", "Improved", "Gain"])
    frame = frame.sort_values("Gain", ascending=False, kind="stable")
    return pd.concat([frame.head(n), frame.iloc[n:][frame.iloc[n:]["Gain"] < 0]]).reset_index(drop=True)


def coverage_table(windows_summary: dict | None, published: dict) -> pd.DataFrame:
    """Label coverage per schedule (written by chapter 11) beside the published real sample's (other data)."""
    rows = [{"Episode": rec["episode"], "Labels": rec["labels"], "Test windows": rec["test windows"],
             "Coverage (%)": 100 * rec["coverage"]} for rec in (windows_summary or {}).get("coverage", [])]
    rows += [{"Episode": "real sample (other data)", "Labels": labels, "Test windows": float("nan"),
              "Coverage (%)": 100 * published[task]}
             for labels, task in (("action", "timeline_action"), ("subtask", "timeline_subtask"))]
    return pd.DataFrame(rows)


def recap_values(long: pd.DataFrame, schedule: str, proto: str) -> dict[str, str]:
    """The recap's glued words for one run: tasks that ran, on how many each head beats the baseline
    ("5 of the 11 tasks"), and the tasks on which the baseline beats the minimal head."""
    from ...words import count, join
    from .phrases import of_tasks

    n = ran(long, schedule, proto)
    lost = winners(long, schedule, proto, "minimal", baseline_wins=True)
    return {"ran": count(n, "task"), "baseline_wins": join(lost) if lost else "no task",
            **{f"{m}_wins": of_tasks(len(winners(long, schedule, proto, m)), n) for m in ("minimal", "mlp")}}
