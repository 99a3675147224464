"""The tables of chapters 06 to 08 shaped for a reader: which columns, in which order, under which headers.

The frames the chapters write to their result folders keep the ids; these functions add the labels and pick
the columns a page shows.
"""

from __future__ import annotations

import pandas as pd

from ..rankers.registry import RANKERS
from .phrases import label

# Accuracy with the interval of its mean (chapters 06 and 07).
INTERVAL_HEADERS = {"label": "Ranker", "in paper": "In the paper", "sd": "SD", "p5": "5th pct.",
                    "p95": "95th pct.", "lo": "95 % CI low", "hi": "95 % CI high", "width": "CI width",
                    "width_queries": "Width: queries only", "width_galleries": "Width: galleries only"}
WIDTH_COLUMNS = ["label", "mean", "sd", "p5", "p95", "min", "max", "lo", "hi", "width", "width_queries",
                 "width_galleries"]


def with_in_paper(summary: pd.DataFrame, ci: pd.DataFrame) -> pd.DataFrame:
    """Chapter 06: ``summary_table`` with the bootstrap interval of each mean (``ci``: ``bootstrap_table``)
    and, third, whether the paper reports the ranker ("yes" or "not in the paper")."""
    out = summary.merge(ci[["ranker", "lo", "hi"]], on="ranker")
    out.insert(2, "in paper", ["yes" if RANKERS[r].in_paper else "not in the paper" for r in out["ranker"]])
    return out


def in_paper_view(summary: pd.DataFrame) -> pd.DataFrame:
    """Chapter 06: the columns of :func:`with_in_paper` a reader sees, rankers by their labels."""
    view = summary.assign(label=[label(r) for r in summary["ranker"]])
    return view[["label", "in paper", "mean", "sd", "p5", "p95", "min", "max", "lo", "hi"]]


def with_widths(intervals: pd.DataFrame) -> pd.DataFrame:
    """Chapter 07: the width of every interval (both resamplings, queries only, galleries only) added to
    ``intervals`` (``lo``/``hi`` with the suffixes ``""``, ``_queries``, ``_galleries``), and rankers by their
    display names."""
    out = intervals.copy()
    for part in ("", "_queries", "_galleries"):
        out[f"width{part}"] = out[f"hi{part}"] - out[f"lo{part}"]
    out["label"] = [RANKERS[r].display for r in out["ranker"]]
    return out


def pair_labels(comp: pd.DataFrame) -> list[str]:
    """Each row's pair of rankers (``a``, ``b``) as "MiniLM − Char TF-IDF"."""
    return [f"{label(a)} − {label(b)}" for a, b in zip(comp["a"], comp["b"])]


CONFUSION_HEADERS = {"ranker": "Ranker", "n_queries": "Queries per gallery (mean)",
                     "to_opposite": "Sent to the opposite task (%)", "share_of_errors": "Share of errors (%)"}

PERTURBATION_HEADERS = {"label": "Ranker", "n_per_trial": "Queries per gallery", "original": "Original (%)",
                        "perturbed": "Perturbed (%)", "change": "Change (pp)", "lo": "95 % CI low",
                        "hi": "95 % CI high", "p_perm": "P (permutation)"}
SWAP_TASK_HEADERS = {"task": "Source task", "opposite": "Opposite task", "queries": "Queries",
                     "original": "Finds source, unperturbed (%)", "swapped": "Finds opposite, swapped (%)",
                     "change": "Change (pp)"}


def starred_labels(rankers: pd.Series) -> list[str]:
    """Ranker labels with " *" after those the paper does not report (chapter 08's footnote)."""
    return [RANKERS[r].label + ("" if RANKERS[r].in_paper else " *") for r in rankers]


def perturbation_view(table: pd.DataFrame) -> pd.DataFrame:
    """Chapter 08: the columns of ``perturbation_table`` (with ``label``) a reader sees, perturbations in
    words."""
    view = table.assign(perturbation=table["perturbation"].str.replace("_", " "))
    return view[["perturbation", "label", "n_per_trial", "original", "perturbed", "change", "lo", "hi", "wins",
                 "ties", "losses", "p_perm"]]


def flip_table(table: pd.DataFrame) -> pd.DataFrame:
    """Chapter 08: for the direction swap, how often each ranker finds the source task unperturbed, follows
    the flip to the opposite task, or stays on the source task (%)."""
    ds = table[table["perturbation"] == "direction_swap"]
    return ds[["label", "n_per_trial", "original", "perturbed", "stays_source"]].rename(columns={
        "original": "source task, unperturbed (%)", "perturbed": "follows flip: opposite task (%)",
        "stays_source": "stays on source task (%)"}).reset_index(drop=True)
