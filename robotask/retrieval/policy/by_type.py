"""Retrieval accuracy per paraphrase type, with the chapter's studentised task bootstrap intervals.

A type is a value of the source's ``high`` (``act``, ``obj``, ``comp``) or ``mid`` column; ``all`` is every
paraphrase. The accuracy of a type is the weighted share of its paraphrases whose task the ranker retrieves,
on every row of the chapter's :class:`~.resampling.Design` (the data, its jackknife and the replicates).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .placements import Placements
from .resampling import Design, Interval, holm_levels, weighted_mean

ACCURACY_COLUMNS = ["gallery", "ranker", "level", "type", "n", "estimate", "low", "high"]
PERCENT = (0.0, 100.0)
POINTS = (-100.0, 100.0)
"""The ranges of a share (%) and of a difference of two shares (points); an interval is clipped to its range."""


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
                     design: Design) -> tuple[pd.DataFrame, dict[Key, np.ndarray]]:
    """Accuracy (%) with its interval per gallery, ranker and type (:data:`ACCURACY_COLUMNS`), and its value on
    every row of ``design`` (for paired differences, :func:`difference`)."""
    masks = type_masks(paraphrases)
    stacked = np.stack(list(masks.values()), axis=1).astype(np.float64)  # (n, types)
    totals = design.sums(stacked)  # one pass over the design's rows for every type at once
    rows, replicates = [], {}
    for gallery, ranker in placements.keys:
        correct = placements.column(gallery, ranker, "correct").astype(np.float64)
        hits = design.sums(stacked * correct[:, None])
        with np.errstate(invalid="ignore", divide="ignore"):
            shares = np.where(totals > 0, 100 * hits / np.where(totals > 0, totals, 1), np.nan)
        for j, ((level, value), mask) in enumerate(masks.items()):
            replicates[(gallery, ranker, level, value)] = reps = shares[:, j]
            iv = design.interval(reps, bounds=PERCENT)
            rows.append(dict(gallery=gallery, ranker=ranker, level=level, type=value, n=int(mask.sum()),
                             **iv.as_dict()))
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS), replicates


def difference(design: Design, replicates: dict[Key, np.ndarray], a: Key, b: Key) -> Interval:
    """Accuracy of ``a`` minus accuracy of ``b`` (points) with the studentised interval of the paired difference
    (``replicates``: :func:`accuracy_by_type`'s)."""
    return design.interval(replicates[a] - replicates[b], bounds=POINTS)


def success_by_type(paraphrases: pd.DataFrame, design: Design) -> pd.DataFrame:
    """The policy's success (%) per type, with its interval (the columns of :data:`ACCURACY_COLUMNS` but gallery
    and ranker)."""
    success = paraphrases["success"].to_numpy(np.float64)
    rows = []
    for (level, value), mask in type_masks(paraphrases).items():
        iv = design.interval(100 * weighted_mean(design, success, mask), bounds=PERCENT)
        rows.append(dict(level=level, type=value, n=int(mask.sum()), **iv.as_dict()))
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS[2:])


def success_difference(paraphrases: pd.DataFrame, design: Design, a: str, b: str,
                       level: str = "high") -> Interval:
    """The policy's success (%) on type ``a`` minus type ``b`` of ``level``, with its paired interval."""
    success = paraphrases["success"].to_numpy(np.float64)
    mask_a, mask_b = (paraphrases[level] == a).to_numpy(), (paraphrases[level] == b).to_numpy()
    return design.interval(100 * (weighted_mean(design, success, mask_a) - weighted_mean(design, success, mask_b)),
                           bounds=POINTS)


def leader(design: Design, replicates: dict[Key, np.ndarray], gallery: str,
           rankers: list[str]) -> tuple[str, str, Interval]:
    """The most accurate ranker in ``gallery`` by point estimate, the runner-up, and the leader minus the
    runner-up (points) with its Holm-adjusted interval, the family being every pair of ``rankers``: the pair
    is picked by its point estimates, and a family that holds every pair covers whichever pick the data made."""
    def values(r: str) -> np.ndarray:
        return replicates[(gallery, r, "all", "all")]
    order = sorted(rankers, key=lambda r: (-values(r)[0], r))
    pairs = {f"{a}|{b}": values(a) - values(b) for i, a in enumerate(order) for b in order[i + 1:]}
    plain = {p: design.interval(v, bounds=POINTS) for p, v in pairs.items()}
    holm = holm_levels(plain, pairs, design.n_groups, bounds=POINTS)
    return order[0], order[1], holm[f"{order[0]}|{order[1]}"]
