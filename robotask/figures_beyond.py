"""Figures of the chapters beyond the paper (``06_sentence_embeddings``, ``07_uncertainty``,
``08_perturbations``). Each function returns the figure; the notebook shows and saves it."""

from __future__ import annotations

from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from . import plots
from .rankers import RANKERS


def _label(name: str) -> str:
    """Display label of a ranker, marked when the paper does not report it."""
    spec = RANKERS.get(name)
    if spec is None:
        return name
    return spec.label if spec.in_paper else f"{spec.label} (not in paper)"


def figure_means_with_intervals(table: pd.DataFrame) -> plt.Figure:
    """Mean accuracy per ranker with its 95 % bootstrap interval (thick) and 5th–95th gallery spread (thin).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``ranker, mean, lo, hi, p5, p95`` in percent, one row per ranker (top to bottom).
    """
    fig, ax = plt.subplots(figsize=(7.0, 0.45 * len(table) + 1.2))
    y = np.arange(len(table))[::-1]
    for yi, (_, row) in zip(y, table.iterrows()):
        colour = plots.PALETTE[0] if RANKERS.get(row["ranker"]) is None or RANKERS[row["ranker"]].in_paper \
            else plots.PALETTE[1]
        ax.plot([row["p5"], row["p95"]], [yi, yi], color=colour, lw=1.2, alpha=0.5)
        ax.plot([row["lo"], row["hi"]], [yi, yi], color=colour, lw=5, solid_capstyle="butt")
        ax.plot(row["mean"], yi, "o", color="white", mec=colour, ms=6)
    ax.set_yticks(y, [_label(r) for r in table["ranker"]])
    ax.set_xlabel("top-1 accuracy on held-out queries (%)")
    ax.set_title("mean, 95 % bootstrap interval (thick) and 5th–95th percentile over galleries (thin)")
    fig.tight_layout()
    return fig


def figure_paired_differences(acc: pd.DataFrame, pairs: Sequence[tuple[str, str]], seed: int = 0) -> plt.Figure:
    """Per-trial paired differences (A − B, percentage points) for each pair, with their mean.

    Parameters
    ----------
    acc : pandas.DataFrame
        Trial × ranker accuracies in percent.
    pairs : sequence of (str, str)
        Comparisons to draw, top to bottom.
    seed : int
        Seed of the vertical jitter.
    """
    rng = np.random.default_rng(seed)
    fig, ax = plt.subplots(figsize=(7.0, 0.55 * len(pairs) + 1.2))
    y = np.arange(len(pairs))[::-1]
    for k, (yi, (a, b)) in enumerate(zip(y, pairs)):
        d = (acc[a] - acc[b]).to_numpy()
        colour = plots.PALETTE[k % len(plots.PALETTE)]
        ax.scatter(d, yi + rng.uniform(-0.18, 0.18, d.size), s=10, alpha=0.6, color=colour, lw=0)
        ax.plot([d.mean()] * 2, [yi - 0.3, yi + 0.3], color="black", lw=2)
    ax.axvline(0, color="grey", lw=1, ls="--")
    ax.set_yticks(y, [f"{_label(a)} − {_label(b)}" for a, b in pairs])
    ax.set_xlabel("per-gallery difference in top-1 accuracy (percentage points); bar = mean")
    fig.tight_layout()
    return fig


def figure_perturbation_changes(table: pd.DataFrame, rankers: Sequence[str], perturbations: Sequence[str]
                                ) -> plt.Figure:
    """Paired accuracy change per perturbation (groups) and ranker (bars) with 95 % bootstrap intervals.

    Parameters
    ----------
    table : pandas.DataFrame
        Output of :func:`robotask.perturbations.perturbation_table`.
    rankers, perturbations : sequence of str
        Bar and group order.
    """
    fig, ax = plt.subplots(figsize=(8.0, 4.0))
    width = 0.8 / max(1, len(rankers))
    x = np.arange(len(perturbations))
    indexed = table.set_index(["ranker", "perturbation"])
    for k, r in enumerate(rankers):
        rows = [indexed.loc[(r, p)] if (r, p) in indexed.index else None for p in perturbations]
        mean = np.array([np.nan if row is None else row["change"] for row in rows])
        lo = np.array([np.nan if row is None else row["lo"] for row in rows])
        hi = np.array([np.nan if row is None else row["hi"] for row in rows])
        pos = x - 0.4 + width * (k + 0.5)
        ax.bar(pos, mean, width, color=plots.PALETTE[k % len(plots.PALETTE)], label=_label(r))
        ax.errorbar(pos, mean, yerr=[mean - lo, hi - mean], fmt="none", ecolor="black", lw=1, capsize=2)
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks(x, perturbations)
    ax.set_ylabel("accuracy change vs unperturbed (pp)")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    return fig
