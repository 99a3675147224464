"""Figures of the retrieval study (paper Figures 2–4 and the reproduction comparison).

Every function returns a matplotlib Figure; the notebook shows it with ``plt.show()`` and saves
it with :func:`robotask.plots.save_figure`. Used by notebooks ``02_five_rankers``,
``03_second_description`` and ``05_reproduction_report``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from . import plots
from .rankers import RANKERS


def _labels(names: list[str]) -> list[str]:
    """Display labels of ranker names."""
    return [RANKERS[n].display for n in names]


def figure_ranker_spread(summary: pd.DataFrame, paper_means: dict[str, float] | None = None,
                         title: str = "") -> plt.Figure:
    """Paper Figure 2: mean accuracy (dots) and 5th–95th percentile range (thick lines) per ranker.

    Parameters
    ----------
    summary : :func:`robotask.statistics.summary_table` output.
    paper_means : the paper's means per ranker, drawn as open diamonds.
    title : axes title.
    """
    fig, ax = plt.subplots(figsize=(7.0, 0.55 * len(summary) + 1.4))
    y = np.arange(len(summary))[::-1]
    ax.hlines(y, summary["p5"], summary["p95"], color=plots.PALETTE[0], lw=6, alpha=0.45, label="5th–95th percentile")
    ax.plot(summary["mean"], y, "o", color=plots.PALETTE[0], ms=8, label="mean (ours)")
    for yi, m in zip(y, summary["mean"]):
        ax.annotate(f"{m:.1f} %", (m, yi), xytext=(0, 9), textcoords="offset points", ha="center", fontsize=9)
    if paper_means:
        pm = [paper_means.get(r, np.nan) for r in summary["ranker"]]
        ax.plot(pm, y, "D", mfc="none", mec=plots.PALETTE[3], ms=8, label="mean (paper)")
    ax.set_yticks(y, _labels(list(summary["ranker"])))
    ax.set_xlabel("Top-1 accuracy on unambiguous queries (%)")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    return fig


def figure_trial_distributions(per_trial: pd.DataFrame, condition: str = "one", policy: str = "primary"
                               ) -> plt.Figure:
    """Paper Figure 3: per-trial accuracy distributions (box plots with every trial as a dot).

    Parameters
    ----------
    per_trial : tidy per-trial results.
    condition, policy : design and scoring policy.
    """
    sel = per_trial[(per_trial["condition"] == condition) & (per_trial["policy"] == policy)]
    names = list(dict.fromkeys(sel["ranker"]))
    data = [sel.loc[sel["ranker"] == n, "accuracy"].to_numpy() for n in names]
    fig, ax = plt.subplots()
    ax.boxplot(data, widths=0.5, showfliers=False)
    rng = np.random.default_rng(0)  # fixed jitter: the figure is deterministic
    for i, d in enumerate(data, start=1):
        ax.plot(i + rng.uniform(-0.15, 0.15, len(d)), d, ".", color=plots.PALETTE[0], alpha=0.5, ms=4)
    ax.set_xticks(range(1, len(names) + 1), _labels(names))
    ax.set_ylabel("Accuracy across gallery draws (%)")
    return fig


def figure_matched(matched: pd.DataFrame, per_trial: pd.DataFrame | None = None,
                   paper: dict[str, dict[str, float]] | None = None) -> plt.Figure:
    """Paper Figure 4: mean accuracy with one vs two gallery descriptions per ranker (same queries).

    Parameters
    ----------
    matched : :func:`robotask.statistics.matched_table` output.
    per_trial : if given, every trial is drawn as a dot on its bar.
    paper : the paper's Table 3 per ranker, drawn as open diamonds.
    """
    fig, ax = plt.subplots()
    x = np.arange(len(matched))
    for offset, col, colour, label in ((-0.2, "one", plots.PALETTE[0], "One description"),
                                       (0.2, "two", plots.PALETTE[1], "Two descriptions")):
        ax.bar(x + offset, matched[col], width=0.38, color=colour, alpha=0.8, label=label)
        if per_trial is not None:
            cond = "matched_" + col
            sel = per_trial[(per_trial["condition"] == cond) & (per_trial["policy"] == "primary")]
            for xi, name in zip(x, matched["ranker"]):
                vals = sel.loc[sel["ranker"] == name, "accuracy"]
                ax.plot(np.full(len(vals), xi + offset), vals, ".", color="k", alpha=0.3, ms=3)
        if paper:
            ax.plot(x + offset, [paper.get(r, {}).get(col, np.nan) for r in matched["ranker"]], "D",
                    mfc="none", mec=plots.PALETTE[3], ms=7, label=f"paper ({col})")
    ax.set_xticks(x, _labels(list(matched["ranker"])))
    ax.set_ylabel("Top-1 accuracy (%)")
    ax.set_ylim(0, 100)
    ax.legend(ncol=2, fontsize=8, loc="upper right")
    return fig


def figure_paired_differences(per_trial: pd.DataFrame, pairs: list[tuple[str, str]],
                              condition: str = "one", policy: str = "primary") -> plt.Figure:
    """Histogram of per-trial accuracy differences (a − b) for each ranker pair.

    Parameters
    ----------
    per_trial : tidy per-trial results.
    pairs : (a, b) ranker pairs.
    condition, policy : design and scoring policy.
    """
    sel = per_trial[(per_trial["condition"] == condition) & (per_trial["policy"] == policy)]
    wide = sel.pivot(index="trial", columns="ranker", values="accuracy")
    fig, axes = plt.subplots(1, len(pairs), figsize=(3.3 * len(pairs), 3.0), squeeze=False, sharey=True)
    for ax, (a, b) in zip(axes[0], pairs):
        d = wide[a] - wide[b]
        ax.hist(d, bins=15, color=plots.PALETTE[0], alpha=0.8)
        ax.axvline(0, color="k", lw=1)
        ax.axvline(d.mean(), color=plots.PALETTE[3], lw=1.5, ls="--")
        ax.set_title(f"{RANKERS[a].label} − {RANKERS[b].label}")
        ax.set_xlabel("difference (pp)")
    axes[0][0].set_ylabel("galleries")
    return fig


def figure_paper_vs_ours(comparison: pd.DataFrame) -> plt.Figure:
    """Every percentage the paper states against ours (identity line = exact reproduction).

    Parameters
    ----------
    comparison : :func:`robotask.paper.compare` output.
    """
    sel = comparison[(comparison["unit"] == "%") & comparison["ours"].notna()]
    fig, ax = plt.subplots(figsize=(5.0, 5.0))
    groups = sel["key"].str.split(".").str[0]
    for i, g in enumerate(dict.fromkeys(groups)):
        part = sel[groups == g]
        ax.plot(part["paper"], part["ours"], "o", color=plots.PALETTE[i % len(plots.PALETTE)], label=g, alpha=0.8)
    lo, hi = np.nanmin(sel[["paper", "ours"]].to_numpy()) - 2, np.nanmax(sel[["paper", "ours"]].to_numpy()) + 2
    ax.plot([lo, hi], [lo, hi], "k-", lw=1)
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("paper (%)")
    ax.set_ylabel("ours (%)")
    ax.legend(fontsize=8)
    return fig
