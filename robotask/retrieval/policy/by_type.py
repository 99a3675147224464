"""Retrieval accuracy per paraphrase type, with the chapter's task-and-paraphrase bootstrap intervals.

A type is a value of the source's ``high`` (``act``, ``obj``, ``comp``) or ``mid`` column; ``all`` is every
paraphrase. The accuracy of a type is the weighted share of its paraphrases whose task the ranker retrieves,
on the data and on each replicate of :mod:`.resampling`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .placements import Placements
from .resampling import Interval, interval, weighted_mean

ACCURACY_COLUMNS = ["gallery", "ranker", "level", "type", "n", "estimate", "low", "high"]


def type_masks(paraphrases: pd.DataFrame,
               levels: tuple[str, ...] = ("high", "mid")) -> dict[tuple[str, str], np.ndarray]:
    """``(level, type) → mask`` over the paraphrases, ``("all", "all")`` first, then each level's types by size."""
    masks = {("all", "all"): np.ones(len(paraphrases), dtype=bool)}
    for level in levels:
        for value in paraphrases[level].value_counts().index:
            masks[(level, str(value))] = (paraphrases[level] == value).to_numpy()
    return masks


Key = tuple[str, str, str, str]
"""(gallery, ranker, level, type)."""


def accuracy_by_type(placements: Placements, paraphrases: pd.DataFrame,
                     weights: np.ndarray) -> tuple[pd.DataFrame, dict[Key, np.ndarray]]:
    """Accuracy (%) with its interval per gallery, ranker and type (:data:`ACCURACY_COLUMNS`), and the replicate
    accuracies of each (for paired differences, :func:`difference`)."""
    masks = type_masks(paraphrases)
    rows, replicates = [], {}
    for gallery, ranker in placements.keys:
        correct = placements.column(gallery, ranker, "correct").astype(np.float64)
        for (level, value), mask in masks.items():
            replicates[(gallery, ranker, level, value)] = reps = 100 * weighted_mean(weights, correct, mask)
            iv = interval(100 * float(correct[mask].mean()), reps)
            rows.append(dict(gallery=gallery, ranker=ranker, level=level, type=value, n=int(mask.sum()),
                             **iv.as_dict()))
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS), replicates


def difference(accuracy: pd.DataFrame, replicates: dict[Key, np.ndarray], a: Key, b: Key) -> Interval:
    """Accuracy of ``a`` minus accuracy of ``b`` (points) with the interval of their paired replicate differences."""
    point = accuracy.set_index(["gallery", "ranker", "level", "type"])["estimate"]
    return interval(float(point[a] - point[b]), replicates[a] - replicates[b])


def success_by_type(paraphrases: pd.DataFrame, weights: np.ndarray) -> pd.DataFrame:
    """The policy's success (%) per type, with its interval (the columns of :data:`ACCURACY_COLUMNS` but gallery
    and ranker)."""
    success = paraphrases["success"].to_numpy(np.float64)
    rows = []
    for (level, value), mask in type_masks(paraphrases).items():
        iv = interval(100 * float(success[mask].mean()), 100 * weighted_mean(weights, success, mask))
        rows.append(dict(level=level, type=value, n=int(mask.sum()), **iv.as_dict()))
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS[2:])


def success_difference(paraphrases: pd.DataFrame, weights: np.ndarray, a: str, b: str,
                       level: str = "high") -> Interval:
    """The policy's success (%) on type ``a`` minus type ``b`` of ``level``, with its paired interval."""
    success = paraphrases["success"].to_numpy(np.float64)
    mask_a, mask_b = (paraphrases[level] == a).to_numpy(), (paraphrases[level] == b).to_numpy()
    point = 100 * (success[mask_a].mean() - success[mask_b].mean())
    reps = 100 * (weighted_mean(weights, success, mask_a) - weighted_mean(weights, success, mask_b))
    return interval(float(point), reps)
