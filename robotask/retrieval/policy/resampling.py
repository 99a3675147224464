"""The chapter's bootstrap: resample tasks, and within each drawn task its paraphrases (seeded).

Paraphrases of one task are not independent (a hard task makes all its paraphrases hard), so each replicate
draws the tasks with replacement and then, for each drawn task, as many of its paraphrases as it has, with
replacement. A replicate is a vector of weights, one per paraphrase (how many times it was drawn), so every
statistic of the chapter is computed on the same replicates: differences between two of them get paired
intervals. Intervals are percentile intervals over the replicates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import RobotaskError

LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """A point estimate and its bootstrap percentile interval."""

    estimate: float
    low: float
    high: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Interval:
        """The interval of a row (a record or a frame's row) with ``estimate``, ``low`` and ``high``."""
        return cls(row["estimate"], row["low"], row["high"])

    def as_dict(self) -> dict[str, float]:
        """``estimate``, ``low`` and ``high`` (a row of a results frame)."""
        return {"estimate": self.estimate, "low": self.low, "high": self.high}

    def as_list(self) -> list[float]:
        """``[estimate, low, high]`` as plain floats (how ``summary.json`` holds an interval)."""
        return [float(self.estimate), float(self.low), float(self.high)]

    def as_values(self, name: str) -> dict[str, float]:
        """For glue: ``name``, ``name_low`` and ``name_high``."""
        return {name: self.estimate, f"{name}_low": self.low, f"{name}_high": self.high}


def two_stage_weights(groups: np.ndarray, n_replicates: int, seed: int) -> np.ndarray:
    """``(n_replicates, n)`` draw counts: tasks with replacement, then paraphrases within each drawn task.

    ``groups[i]`` is the task of paraphrase ``i`` (any labels). Deterministic for a given ``seed``.
    """
    if n_replicates < 1:
        raise RobotaskError(f"n_bootstrap must be at least 1 (got {n_replicates})")
    _, index = np.unique(np.asarray(groups), return_inverse=True)
    members = [np.flatnonzero(index == k) for k in range(index.max() + 1)]
    rng = np.random.default_rng(seed)
    weights = np.zeros((n_replicates, len(index)), dtype=np.float64)
    for b in range(n_replicates):
        for k in rng.integers(0, len(members), len(members)):
            rows = members[k]
            np.add.at(weights[b], rows[rng.integers(0, len(rows), len(rows))], 1.0)
    return weights


def interval(estimate: float, replicates: np.ndarray, level: float = LEVEL) -> Interval:
    """Percentile interval of ``replicates`` (NaN replicates, from an empty cell, are left out)."""
    values = np.asarray(replicates, dtype=np.float64)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return Interval(float(estimate), np.nan, np.nan)
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(values, [tail, 100 - tail])
    return Interval(float(estimate), float(low), float(high))


def weighted_mean(weights: np.ndarray, values: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Per replicate, the weighted mean of ``values`` over the rows in ``mask`` (NaN where no weight)."""
    values = np.asarray(values, dtype=np.float64)
    keep = np.ones(values.shape, dtype=np.float64) if mask is None else np.asarray(mask, dtype=np.float64)
    total = weights @ keep
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, (weights @ (values * keep)) / np.where(total > 0, total, 1), np.nan)
