"""The figures of chapter 15: how the block length is chosen, the paired differences with their intervals,
and label coverage on real data beside the synthetic collection's."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...plots import styled
from ...task_names import TASK_TITLES
from .units import autocorrelation, block_length

VERDICT_COLOURS = {"higher": "#2ca02c", "lower": "#d62728", "not resolved": "#7f7f7f"}


@styled
def figure_block_choice(errors: dict[str, np.ndarray], max_lag: int = 30) -> plt.Figure:
    """One panel per labelled error series: its autocorrelation by lag, the ±2/√n band and the chosen block."""
    fig, axes = plt.subplots(1, len(errors), figsize=(4.2 * len(errors), 3.6), squeeze=False, sharey=True)
    for ax, (label, err) in zip(axes[0], errors.items()):
        block = block_length(err)
        lags = min(max(max_lag, block + 5), max(1, len(err) // 4))
        acf = autocorrelation(err, lags)
        band = 2 / math.sqrt(len(err))
        ax.bar(np.arange(1, lags + 1), acf[1:], color="#1f77b4", width=0.8)
        ax.axhspan(-band, band, color="grey", alpha=0.2, label="±2/√n")
        ax.axvline(block, color="#d62728", ls="--", label=f"block = {block}")
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("lag (test windows)")
        ax.legend(loc="upper right", fontsize=9)
    axes[0][0].set_ylabel("autocorrelation of the error")
    fig.tight_layout()
    return fig


def _row_label(r: pd.Series) -> str:
    where = "sample" if r["scope"] == "episode" else "14 episodes"
    return f"{where} · {TASK_TITLES.get(r['task'], r['task'])}: {r['a']} − {r['b']}"


@styled
def figure_differences(comparisons: pd.DataFrame, title: str) -> plt.Figure:
    """Each comparison's difference A − B (dot) with its paired interval (bar), coloured by its verdict."""
    d = comparisons.reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(9.0, 0.34 * len(d) + 1.4))
    y = np.arange(len(d))[::-1]
    for yi, (_, r) in zip(y, d.iterrows()):
        colour = VERDICT_COLOURS.get(r["verdict"], "black")
        ax.plot([r["low"], r["high"]], [yi, yi], color=colour, lw=3, solid_capstyle="butt")
        ax.plot(r["difference"], yi, "o", color="black", ms=4)
    ax.axvline(0, color="black", lw=1)
    ax.set_yticks(y, [f"{_row_label(r)} ({r['metric']})" for _, r in d.iterrows()], fontsize=9)
    ax.set_xlabel("difference A − B with its 95 % paired interval")
    ax.set_title(title)
    for word, colour in VERDICT_COLOURS.items():
        ax.plot([], [], color=colour, lw=3, label=word)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9)
    ax.grid(axis="y", alpha=0)
    fig.tight_layout()
    return fig


@styled
def figure_coverage(real: pd.DataFrame, synthetic: pd.DataFrame | None) -> plt.Figure:
    """Label coverage of the test windows (the accuracy ceiling) per label task: the real sample, the 14 real
    test episodes and, when chapter 14 ran, the synthetic collection's folds (their range)."""
    tasks = list(dict.fromkeys(real["task"]))
    fig, ax = plt.subplots(figsize=(8.0, 3.6))
    x = np.arange(len(tasks))
    for k, (scope, label) in enumerate((("episode", "real: one sample episode"),
                                        ("episodes", "real: 14 unseen episodes"))):
        vals = [real.loc[(real["scope"] == scope) & (real["task"] == t), "coverage"].mean() for t in tasks]
        ax.bar(x + (k - 1) * 0.27, np.array(vals) * 100, width=0.27, label=label, color=("#1f77b4", "#ff7f0e")[k])
    if synthetic is not None and len(synthetic):
        names = {"timeline_action": "action", "timeline_subtask": "subtask"}
        label = "synthetic collection (chapter 14, range over folds)"
        for i, t in enumerate(tasks):
            s = synthetic[synthetic["label"] == names.get(t, "")]["coverage"] * 100
            if len(s):
                ax.bar(x[i] + 0.27, s.mean(), width=0.27, color="#2ca02c",
                       yerr=[[s.mean() - s.min()], [s.max() - s.mean()]], capsize=3, label=label)
                label = None
    ax.set_xticks(x, [TASK_TITLES.get(t, t) for t in tasks])
    ax.set_ylabel("test windows with a label seen in training (%)")
    ax.set_ylim(0, 105)
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=3)
    fig.tight_layout()
    return fig
