"""The chapter's figures: accuracy per paraphrase type, and the policy's success when retrieved and when missed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...plots import PALETTE
from ..rankers.registry import LABELS
from .paraphrases import GALLERIES, GALLERY_TITLES, HIGH_TITLES, HIGH_TYPES


def _short(ranker: str) -> str:
    return LABELS.get(ranker, {"minilm": "MiniLM", "static": "Static emb."}.get(ranker, ranker))


def _errorbar(ax: plt.Axes, x: np.ndarray, rows, color: str, label: str, marker: str = "o") -> None:
    est, low, high = (rows[c].to_numpy(float) for c in ("estimate", "low", "high"))
    ax.errorbar(x, est, yerr=[est - low, high - est], fmt=marker, color=color, label=label, capsize=3, ms=5)


def figure_accuracy_by_type(accuracy: pd.DataFrame, rankers: list[str]) -> plt.Figure:
    """Accuracy per ranker and ``high`` type in each gallery (``accuracy``: :func:`.accuracy_by_type`'s), with
    the bootstrap intervals."""
    fig, axes = plt.subplots(1, len(GALLERIES), figsize=(11, 4), sharey=True)
    x = np.arange(len(rankers))
    for ax, gallery in zip(np.atleast_1d(axes), GALLERIES, strict=True):
        acc = accuracy[(accuracy["gallery"] == gallery) & (accuracy["level"] == "high")]
        for i, t in enumerate(HIGH_TYPES):
            rows = acc[acc["type"] == t].set_index("ranker").loc[rankers]
            _errorbar(ax, x + (i - 1) * 0.22, rows, PALETTE[i], f"{t}: {HIGH_TITLES[t]}")
        ax.set_xticks(x, [_short(r) for r in rankers], rotation=30, ha="right")
        ax.set_title(f"Gallery: {GALLERY_TITLES[gallery]}")
        ax.set_ylim(0, 102)
    np.atleast_1d(axes)[0].set_ylabel("retrieval accuracy (%)")
    np.atleast_1d(axes)[0].legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    return fig


def figure_success_by_retrieval(associations: pd.DataFrame, rankers: list[str]) -> plt.Figure:
    """The policy's success when each ranker retrieves the paraphrase's task and when it misses, per gallery
    (``associations``: :func:`.associations`'s)."""
    fig, axes = plt.subplots(1, len(GALLERIES), figsize=(11, 4), sharey=True)
    x = np.arange(len(rankers))
    for ax, gallery in zip(np.atleast_1d(axes), GALLERIES, strict=True):
        assoc = associations[associations["gallery"] == gallery]
        for i, (measure, label) in enumerate((("success_retrieved", "ranker retrieves the task"),
                                              ("success_missed", "ranker misses it"))):
            rows = assoc[assoc["measure"] == measure].set_index("ranker").loc[rankers]
            _errorbar(ax, x + (i - 0.5) * 0.25, rows, PALETTE[i], label, "os"[i])
        ax.set_xticks(x, [_short(r) for r in rankers], rotation=30, ha="right")
        ax.set_title(f"Gallery: {GALLERY_TITLES[gallery]}")
        ax.set_ylim(0, 102)
    np.atleast_1d(axes)[0].set_ylabel("policy success (%)")
    np.atleast_1d(axes)[0].legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    return fig
