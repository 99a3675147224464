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


def metric_text(metric: str) -> str:
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
        ax.set_title(f"{TASKS[t].display_name}\n{metric_text(first['metric'])} ({arrow})", fontsize=8)
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


def summary_caption(schedules: list[str], protocols: list[str],
                    order: list[tuple[str, str]] | None = None,
                    off_scale_list: list[tuple[str, str, float]] | None = None) -> str:
    """Caption of the summary figure; ``order`` is :func:`bar_order` of the drawn table (the bar
    groups left to right), else every schedule × protocol in the given order; ``off_scale_list``
    is :func:`off_scale_values` of the drawn figure (None: the caption states the rule only)."""
    groups = order if order is not None else [(s, p) for s in schedules for p in protocols]
    text = (f"Primary metric per task for the baseline, the minimal head and the MLP; bars are grouped "
            f"by schedule and protocol, left to right: {', '.join(f'{s} {p}' for s, p in groups)}. "
            f"No bar: no metric in that run (the task or the head did not run there). Dotted lines: the "
            f"published real-sample minimal head and MLP (other data). A hatched bar stops at the axis floor "
            f"and carries its true value.")
    rule = (f" A published value more than {OFF_SCALE:g} times the tallest bar of its panel would "
            "flatten the bars, so it is not drawn to scale: an arrow at the top edge of the panel "
            "points up to it and carries its value")
    if off_scale_list is None:
        return text + rule + "."
    if not off_scale_list:
        return text
    items = "; ".join(f"{task}: published {head} {v:.3f}" for task, head, v in off_scale_list)
    return text + rule + f" ({items})."
