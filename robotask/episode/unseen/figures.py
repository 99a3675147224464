"""The figure of chapter 14: learning curves of the minimal head over the number of training episodes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ..tasks.registry import TASKS
from .tables import metric_label

PANEL_FONT = 10


def far_below_axis(ax: plt.Axes, d: pd.DataFrame) -> None:
    """A symmetric log y axis (linear between −1 and 1) for an R² panel whose band reaches far below zero (the
    task pages' ``FAR_BELOW_ZERO``): one episode's ridge can score −900, which on a linear axis flattens the rest
    of the curve."""
    from ..report.diagnostics import FAR_BELOW_ZERO

    if (d["lo"] < FAR_BELOW_ZERO).any():
        ax.set_yscale("symlog", linthresh=-FAR_BELOW_ZERO)


def figure_learning_curves(curve: pd.DataFrame) -> plt.Figure:
    """One panel per task: the minimal head's mean over draws (line) with the lowest-to-highest band, and the
    baseline's mean (dashed), against the number of training episodes; an R² panel whose band reaches below −1
    has a symmetric log axis (:func:`far_below_axis`)."""
    tasks = [t for t in TASKS if t in set(curve["task"])]
    fig, axes = plt.subplots(4, 3, figsize=(11, 12.5), sharex=True)
    for ax, task in zip(axes.ravel(), tasks):
        for head, style in (("minimal", {"marker": "o", "color": "C0"}), ("baseline", {"ls": "--", "color": "grey"})):
            d = curve[(curve["task"] == task) & (curve["head"] == head)].sort_values("n_train")
            if d["mean"].isna().all():
                continue
            ax.plot(d["n_train"], d["mean"], label="minimal head" if head == "minimal" else "baseline", **style)
            if head == "minimal":
                ax.fill_between(d["n_train"], d["lo"], d["hi"], color="C0", alpha=0.2, label="range of the draws")
                if TASKS[task].primary_metric.startswith("r2"):
                    far_below_axis(ax, d)
        if curve[(curve["task"] == task) & (curve["head"] == "minimal")]["mean"].isna().all():
            ax.text(0.5, 0.5, "no result", ha="center", va="center", transform=ax.transAxes, fontsize=PANEL_FONT)
        ax.set_title(TASKS[task].display_name, fontsize=PANEL_FONT + 1)
        ax.set_ylabel(metric_label(TASKS[task].primary_metric), fontsize=PANEL_FONT)
        ax.tick_params(labelsize=PANEL_FONT)
        episode_axis(ax, curve["n_train"])
    for ax in axes.ravel()[len(tasks):]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("training episodes", fontsize=PANEL_FONT)
    axes[0, 0].legend(fontsize=PANEL_FONT - 1)
    fig.tight_layout()
    return fig


def episode_axis(ax: plt.Axes, sizes: pd.Series) -> None:
    """A log-2 x axis whose ticks are the numbers of training episodes used, written as plain counts."""
    ticks = sorted({int(n) for n in sizes})
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks, [str(n) for n in ticks])
    ax.minorticks_off()
