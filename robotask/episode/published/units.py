"""Resampling with the unit that fits the claim, and a metric on every resample at once.

- **One episode** (``block``): the test windows overlap and follow each other, so neighbouring errors are
  alike. A circular moving-block bootstrap resamples blocks of consecutive windows; the block length is the
  first lag at which the autocorrelation of the per-window error (of a difference: of the paired error
  difference) falls inside the white-noise band ±2/√n, at least 1 and at most n/4 (:func:`block_length`).
- **Many episodes** (``episode``): a cluster bootstrap draws episodes with replacement and keeps every window of
  a drawn episode (:func:`cluster_weights`); windows are never resampled one by one.

Both give a matrix ``W`` of counts (resamples × windows). Every metric scored here is a ratio of sums over
windows, so :func:`metric_draws` evaluates it on all resamples with matrix products (the macro-F1 and pooled F1
of :mod:`robotask.episode.report.head_intervals`); with ``W`` all ones it equals :mod:`.recompute`'s value.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pandas as pd

from ..report.head_intervals import block_weights, macro_f1, pooled_f1
from .recompute import PAIR_TASKS, label_ids, object_matrices, scored_rows

N_BOOT = 2000
LEVEL = 0.95


def autocorrelation(x: np.ndarray, max_lag: int) -> np.ndarray:
    """Sample autocorrelation of ``x`` at lags 0..max_lag (0 everywhere when ``x`` is constant)."""
    x = np.asarray(x, dtype=float) - np.mean(x)
    denom = float(x @ x)
    if denom == 0:
        return np.r_[1.0, np.zeros(max_lag)]
    return np.array([1.0] + [float(x[:-k] @ x[k:]) / denom for k in range(1, max_lag + 1)])


def block_length(errors: np.ndarray) -> int:
    """The first lag whose autocorrelation lies inside ±2/√n, between 1 and n/4."""
    n = len(errors)
    cap = max(1, n // 4)
    acf = autocorrelation(errors, cap)
    band = 2 / math.sqrt(max(n, 1))
    inside = np.nonzero(np.abs(acf[1:]) < band)[0]
    return int(min(cap, inside[0] + 1)) if len(inside) else cap


def cluster_weights(episodes: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """Counts (n_boot, windows) of a cluster bootstrap: episodes drawn with replacement, all their windows kept."""
    names, idx = np.unique(np.asarray(episodes), return_inverse=True)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(names), size=(n_boot, len(names)))
    counts = np.zeros((n_boot, len(names)))
    np.add.at(counts, (np.repeat(np.arange(n_boot), len(names)), draws.ravel()), 1.0)
    return counts[:, idx]


def errors(part: pd.DataFrame, task: str) -> np.ndarray:
    """Per-window error in time order: 1 − correct (objects: 1 − the window's F1)."""
    part = part.sort_values("order")
    if task == "object_relevance":
        t, p, _ = object_matrices(part)
        tp, den = (t & p).sum(axis=1), t.sum(axis=1) + p.sum(axis=1)
        return 1 - np.divide(2 * tp, den, out=np.ones(len(part)), where=den > 0)
    return (part["true"].to_numpy() != part["predicted"].to_numpy()).astype(float)


def metric_draws(part: pd.DataFrame, task: str, metric: str, w: np.ndarray) -> np.ndarray:
    """``metric`` of one run's rows (in the column order of ``w``) on every resample."""
    if task == "object_relevance":
        t, p, _ = object_matrices(part)
        tp = (t & p).sum(axis=1).astype(float)
        return pooled_f1(w, tp, p.sum(axis=1).astype(float), t.sum(axis=1).astype(float))
    if task in PAIR_TASKS and metric == "f1":
        y, q = part["true"].astype(int).to_numpy(), part["predicted"].astype(int).to_numpy()
        return pooled_f1(w, (y & q).astype(float), q.astype(float), y.astype(float))
    keep = part.index.isin(scored_rows(part).index)
    w = w[:, keep]
    rows = part[keep]
    if metric == "accuracy":
        correct = (rows["true"].to_numpy() == rows["predicted"].to_numpy()).astype(float)
        total = w.sum(axis=1)
        return np.divide(w @ correct, total, out=np.zeros(len(w)), where=total > 0)
    y, q, names = label_ids(rows)
    return macro_f1(w, y, q, len(names))


def resample(scope: str, ordered: pd.DataFrame, errs: np.ndarray, seed: int, n_boot: int = N_BOOT,
             pairs: bool = False) -> tuple[np.ndarray, str, int]:
    """The resample counts for rows in time order, their unit and (one episode) the block length.

    ``pairs``: consecutive rows are the two orders of one pair of windows (the pair tasks of one episode), so
    the autocorrelation is read on the pairs' summed errors and the block holds whole pairs.
    """
    if scope == "episode":
        if pairs and len(errs) % 2 == 0:
            block = 2 * block_length(errs.reshape(-1, 2).sum(axis=1))
        else:
            block = block_length(errs)
        return block_weights(len(ordered), n_boot, block, seed), "block", block
    return cluster_weights(ordered["episode"].to_numpy(), n_boot, seed), "episode", 0


def percentile_interval(draws: np.ndarray, level: float = LEVEL) -> tuple[float, float]:
    """The percentile interval of bootstrap draws."""
    lo, hi = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def episodes_to_resolve(difference: float, draws: np.ndarray, n_episodes: int, level: float = LEVEL) -> float:
    """A projection: the test episodes at which an interval of the observed difference would exclude zero,
    its half-width shrinking as 1/√episodes from the cluster bootstrap's spread (inf for no difference)."""
    sd = float(np.std(draws, ddof=1))
    if difference == 0 or sd == 0:
        return math.inf
    z = NormalDist().inv_cdf(0.5 + level / 2)
    return float(math.ceil(n_episodes * (z * sd / abs(difference)) ** 2))
