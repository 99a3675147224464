"""The chapter's bootstrap: resample tasks, and within each drawn task its paraphrases; studentise over tasks.

Paraphrases of one task are not independent (a hard task makes all its paraphrases hard), so each replicate
draws the tasks with replacement and then, for each drawn task, as many of its paraphrases as it has, with
replacement. A replicate is a vector of weights, one per paraphrase (how many times it was drawn), so every
statistic of the chapter is computed on the same rows of weights and differences get paired intervals.

With ten tasks a percentile interval of such replicates covers a pooled share too rarely (it ignores that the
spread of a statistic over ten units is itself uncertain). The intervals here are **studentised**
(bootstrap-t): each statistic's standard error comes from the jackknife over tasks, on the data (leave one task
out) and inside each replicate (leave one drawn task out), and the interval is ``estimate − q·se`` with ``q``
the quantiles of the replicates' ``(θ* − θ̂) / se*``, on the arcsine square-root scale for a bounded statistic
and the log scale for a ratio (:func:`studentised`). Where one task stands far from the other nine, the
replicates that leave it out have a small ``se*`` and a large deviation, and the interval reaches far towards
the end of the range: ten tasks cannot say more.

:class:`Design` stands for every row of weights the chapter evaluates: the data, its ``K`` leave-one-task-out
rows, then per replicate the replicate and its ``K`` leave-one-copy-out rows. It holds them as the drawn task
copies that make them up (a row is a block's sum less at most one copy), so a statistic is computed from each
copy's sums and never from the dense rows × paraphrases matrix.
``tests/test_policy_coverage.py`` checks the coverage by simulation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from scipy import sparse

from ...errors import RobotaskError

LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """A point estimate and its interval."""

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


@dataclass(frozen=True)
class Design:
    """Every row of weights the chapter evaluates a statistic on, held as the task copies that make them up.

    Row 0 is the data (all weights 1), rows 1..K leave one task out; then each of the ``n_replicates`` blocks
    of K + 1 rows holds a replicate and the replicate with one drawn task left out, for each of its K draws.
    Each block is a sum of K *copies* (one drawn task, with how many times each of its items was drawn; the
    data's block draws every task once, whole), and its row j + 1 is that sum less copy j. So a linear
    statistic needs only each copy's sum (:meth:`sums`), and a pairwise one (an AUC) each copy against its
    block (:mod:`.discrimination`), never the dense ``weights`` (rows × items), which :attr:`weights` builds on
    demand. A statistic computed on every row gives its estimate and interval by :meth:`interval`.
    """

    n_groups: int
    members: tuple[np.ndarray, ...]
    """Per task, its items (indices into the data), ascending."""
    counts: tuple[np.ndarray, ...]
    """Per task, (its items × its copies): how many times each copy drew each item."""
    slots: tuple[np.ndarray, ...]
    """Per task, the slot of each of its copies: ``block · K + j`` for the j-th draw of a block."""

    @property
    def n_replicates(self) -> int:
        """The number of bootstrap replicates."""
        return self.n_blocks - 1

    @property
    def n_blocks(self) -> int:
        """The data's block and one per replicate."""
        return sum(len(s) for s in self.slots) // self.n_groups

    @property
    def n_items(self) -> int:
        """The number of items (paraphrases)."""
        return sum(len(m) for m in self.members)

    @property
    def n_rows(self) -> int:
        """The number of rows: ``(K + 1)·(n_replicates + 1)``."""
        return self.n_blocks * (self.n_groups + 1)

    def sums(self, matrix: np.ndarray) -> np.ndarray:
        """``weights @ matrix`` (rows × columns) from each copy's sum: exact, and equal to the dense product,
        where ``matrix`` holds whole numbers (indicators, counts)."""
        m = np.asarray(matrix, dtype=np.float64)
        return self.from_copies(self.copies @ m.reshape(m.shape[0], -1)).reshape((-1, *m.shape[1:]))

    @cached_property
    def copies(self) -> sparse.csr_matrix:
        """(slots × items), sparse: each copy's draw counts (a sparse product is single-threaded and cheaper than
        a dense one on these mostly empty rows)."""
        rows, cols, values = [], [], []
        for items, counts, slots in zip(self.members, self.counts, self.slots, strict=True):
            item, copy = np.nonzero(counts)
            rows.append(slots[copy])
            cols.append(items[item])
            values.append(counts[item, copy])
        return sparse.csr_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))),
                                 shape=(self.n_blocks * self.n_groups, self.n_items))

    def from_copies(self, per_copy: np.ndarray) -> np.ndarray:
        """Every row's sum of an additive quantity given per copy (slots × columns): each block's total, then
        the total less each copy."""
        k = self.n_groups
        copies = per_copy.reshape(self.n_blocks, k, -1)
        total = copies.sum(axis=1, keepdims=True)
        return np.concatenate([total, total - copies], axis=1).reshape(self.n_rows, -1)

    @cached_property
    def block_weights(self) -> np.ndarray:
        """(items × blocks), float32: each block's total weights (the data's, then each replicate's); draw
        counts are small whole numbers, which float32 holds exactly."""
        out = np.zeros((self.n_items, self.n_blocks), dtype=np.float32)
        for items, counts, slots in zip(self.members, self.counts, self.slots, strict=True):
            to_block = sparse.csr_matrix((np.ones(len(slots)), (slots // self.n_groups, np.arange(len(slots)))),
                                         shape=(self.n_blocks, len(slots)))
            out[items] = counts @ to_block.T
        return out

    @cached_property
    def weights(self) -> np.ndarray:
        """The dense weights (rows × items), built on first use; :meth:`sums` computes products with them
        without building them."""
        return self.sums(np.eye(self.n_items))

    def interval(self, values: np.ndarray, *, log: bool = False, bounds: tuple[float, float] | None = None,
                 level: float = LEVEL) -> Interval:
        """The estimate (row 0) and its studentised interval; see :func:`studentised`."""
        return studentised(np.asarray(values, dtype=np.float64), self.n_groups, log=log, bounds=bounds,
                           level=level)

    def percentile(self, values: np.ndarray, level: float = LEVEL) -> Interval:
        """The estimate and the percentile interval of the replicates (the chapter's former interval)."""
        v = np.asarray(values, dtype=np.float64)
        return interval(float(v[0]), self.replicates(v)[:, 0], level)

    def replicates(self, values: np.ndarray) -> np.ndarray:
        """``(n_replicates, K + 1)``: each replicate's value, then its K leave-one-copy-out values."""
        k = self.n_groups
        return np.asarray(values, dtype=np.float64)[k + 1:].reshape(-1, k + 1)


def task_design(groups: np.ndarray, n_replicates: int, seed: int) -> Design:
    """The chapter's :class:`Design`: tasks with replacement, then paraphrases within each drawn task.

    ``groups[i]`` is the task of paraphrase ``i`` (any labels). Deterministic for a given ``seed``; the replicate
    rows are the draws the chapter's former percentile bootstrap made with the same seed.
    """
    if n_replicates < 1:
        raise RobotaskError(f"n_bootstrap must be at least 1 (got {n_replicates})")
    _, index = np.unique(np.asarray(groups), return_inverse=True)
    k = int(index.max()) + 1
    members = tuple(np.flatnonzero(index == g) for g in range(k))
    rng = np.random.default_rng(seed)
    drawn: list[list[np.ndarray]] = [[np.ones(len(members[g]))] for g in range(k)]  # the data's block
    slots: list[list[int]] = [[g] for g in range(k)]
    for b in range(n_replicates):
        for j, g in enumerate(rng.integers(0, k, k)):
            size = len(members[g])
            drawn[g].append(np.bincount(rng.integers(0, size, size), minlength=size).astype(np.float64))
            slots[g].append((b + 1) * k + j)
    return Design(k, members, tuple(np.ascontiguousarray(np.array(d).reshape(len(d), -1).T) for d in drawn),
                  tuple(np.array(s, dtype=np.int64) for s in slots))


def _jackknife_se(values: np.ndarray) -> np.ndarray:
    """Jackknife standard error along the last axis (NaN where any value is not finite)."""
    k = values.shape[-1]
    with np.errstate(invalid="ignore", over="ignore"):
        spread = ((values - values.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)
    return np.sqrt((k - 1) / k * spread)


@dataclass(frozen=True)
class _Pivot:
    """A statistic on its studentising scale: the estimate, its jackknife standard error, the replicates'
    studentised deviations, and the map back to the statistic's scale."""

    estimate: float
    se: float
    t: np.ndarray
    log: bool
    bounds: tuple[float, float] | None

    def back(self, x: float) -> float:
        if self.log:
            return float(np.exp(x))
        if self.bounds is not None:
            lo, hi = self.bounds
            return float(lo + (hi - lo) * np.sin(np.clip(x, 0.0, np.pi / 2)) ** 2)
        return float(x)


def _scale(values: np.ndarray, log: bool, bounds: tuple[float, float] | None) -> np.ndarray:
    """The studentising scale: the log of a ratio; for a statistic bounded to ``bounds`` (a share, a difference of
    shares, an AUC), the arcsine of the square root of its place in that range, which steadies the spread of a
    share near either end; else the statistic itself."""
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if log:
            return np.log(v)
        if bounds is not None:
            lo, hi = bounds
            return np.arcsin(np.sqrt(np.clip((v - lo) / (hi - lo), 0.0, 1.0)))
    return v


def _pivot(values: np.ndarray, n_groups: int, log: bool, bounds: tuple[float, float] | None) -> _Pivot:
    v = np.asarray(values, dtype=np.float64)
    x, k = _scale(v, log, bounds), n_groups
    jack = x[1:k + 1]
    finite = jack[np.isfinite(jack)]
    se = float(_jackknife_se(finite)) if np.isfinite(x[0]) and finite.size > 1 else np.nan
    reps = x[k + 1:].reshape(-1, k + 1)
    se_star = _jackknife_se(reps[:, 1:])
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (reps[:, 0] - x[0]) / se_star
    return _Pivot(float(x[0]), se, t[np.isfinite(t) & (se_star > 0)], log, bounds)


def studentised(values: np.ndarray, n_groups: int, *, log: bool = False,
                bounds: tuple[float, float] | None = None, level: float = LEVEL) -> Interval:
    """Bootstrap-t interval of a statistic evaluated on every row of a :class:`Design`.

    The statistic is studentised on the scale of :func:`_scale` (``log`` for a ratio; the arcsine square root
    within ``bounds`` for a share, a difference of shares or an AUC, so that a replicate near the end of the
    range, with almost no spread, cannot blow the interval up) and the interval mapped back into the range.
    Replicates with a non-finite value or no spread are left out; with no spread on the data the interval is
    the estimate itself.
    """
    estimate = float(np.asarray(values, dtype=np.float64)[0])
    pivot = _pivot(values, n_groups, log, bounds)
    if pivot.se == 0:
        return Interval(estimate, estimate, estimate)
    if not np.isfinite(pivot.se) or pivot.t.size == 0:
        return Interval(estimate, np.nan, np.nan)
    tail = (1 - level) / 2
    q_low, q_high = np.quantile(pivot.t, [tail, 1 - tail])
    low, high = pivot.back(pivot.estimate - q_high * pivot.se), pivot.back(pivot.estimate - q_low * pivot.se)
    return Interval(estimate, min(low, estimate), max(high, estimate))


def holm_levels(intervals: Mapping[str, Interval], values: Mapping[str, np.ndarray], n_groups: int,
                alpha: float = 1 - LEVEL, bounds: tuple[float, float] | None = None) -> dict[str, Interval]:
    """Holm-adjusted studentised intervals of a family of differences (each against zero).

    Each difference's two-sided bootstrap-t P-value ranks it; the i-th smallest of ``m`` gets the interval at
    level ``1 − alpha / (m − i)`` (0-based ``i``), Holm's step-down threshold, and every one after the first
    that Holm does not reject keeps that one's level, so an interval excludes zero where Holm rejects.
    ``intervals`` give the estimates; ``values`` the statistic on every row of the design; ``bounds`` its range.
    """
    p = {name: _p_value(values[name], n_groups, bounds) for name in intervals}
    order = sorted(p, key=lambda name: (p[name], name))
    m, stop, out = len(order), None, {}
    for i, name in enumerate(order):
        if stop is None and not p[name] <= alpha / (m - i):
            stop = i
        step = i if stop is None else stop
        out[name] = studentised(values[name], n_groups, level=1 - alpha / (m - step), bounds=bounds)
    return {name: out[name] for name in intervals}


def _p_value(values: np.ndarray, n_groups: int, bounds: tuple[float, float] | None = None) -> float:
    """Two-sided bootstrap-t P-value of "the statistic is zero", on the scale the interval uses (1 when it
    cannot be computed)."""
    pivot = _pivot(values, n_groups, False, bounds)
    if not (np.isfinite(pivot.se) and pivot.se > 0 and pivot.t.size):
        return 1.0
    t_obs = (pivot.estimate - float(_scale(np.zeros(1), False, bounds)[0])) / pivot.se
    t = pivot.t
    tail = min((1 + (t >= t_obs).sum()) / (1 + t.size), (1 + (t <= t_obs).sum()) / (1 + t.size))
    return float(min(1.0, 2 * tail))


def interval(estimate: float, replicates: np.ndarray, level: float = LEVEL) -> Interval:
    """Percentile interval of ``replicates`` (NaN replicates, from an empty cell, are left out): the chapter's
    former interval, kept for the coverage test's contrast."""
    values = np.asarray(replicates, dtype=np.float64)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return Interval(float(estimate), np.nan, np.nan)
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(values, [tail, 100 - tail])
    return Interval(float(estimate), float(low), float(high))


def weighted_sums(weights: Design | np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``weights @ matrix`` for a :class:`Design` (from its copies, :meth:`Design.sums`) or dense weights."""
    return weights.sums(matrix) if isinstance(weights, Design) else np.asarray(weights) @ matrix


def weighted_mean(weights: Design | np.ndarray, values: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Per row of weights (a :class:`Design`'s rows or dense weights), the weighted mean of ``values`` over the
    rows in ``mask`` (NaN where no weight)."""
    values = np.asarray(values, dtype=np.float64)
    keep = np.ones(values.shape, dtype=np.float64) if mask is None else np.asarray(mask, dtype=np.float64)
    total, hits = weighted_sums(weights, keep), weighted_sums(weights, values * keep)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, hits / np.where(total > 0, total, 1), np.nan)
