"""A head against the trivial baseline on one task run: a paired interval over the test samples.

One episode and one chronological split give one number per head: there are no draws to repeat. What can be
resampled is the test part. :func:`head_interval` draws ``n_boot`` moving-block bootstrap resamples of the test
samples (blocks of consecutive samples, so that overlapping neighbouring windows stay together), the same
resample for the head and the baseline, recomputes the task's primary metric for both, and takes the percentile
interval of head − baseline in the metric's good direction (positive: the head is better). The interval says how
much a verdict depends on which test windows the split happened to hold; it says nothing about other episodes
(chapter 14 trains and tests on different ones). The words come from :func:`robotask.words.verdict`.

Every primary metric of the suite is a ratio of sums over test samples, so one matrix of resample counts
``W`` (resamples × samples) gives all resamples at once; with ``W`` all ones each function returns the metric
of :mod:`robotask.episode.tasks.metrics` exactly (``tests/test_episode_head_intervals.py``).
"""

from __future__ import annotations

import math

import numpy as np

from ...words import PairedInterval, verdict
from ..suite.execution import TaskResult
from ..tasks.registry import TASKS
from .phrases import signed_interval

N_BOOT = 1000  # bootstrap resamples of the test part
LEVEL = 0.95
MIN_TEST = 20  # fewer test samples resolve nothing: the interval is unbounded


def interval_values() -> dict[str, object]:
    """The method's constants as the pages glue them: resamples, level (%) and the fewest test samples."""
    return {"n_boot": f"{N_BOOT:,}", "level": round(100 * LEVEL), "min_test": MIN_TEST}


def block_weights(n: int, n_boot: int, block: int, seed: int) -> np.ndarray:
    """Counts (n_boot, n) of a circular moving-block bootstrap: ⌈n / block⌉ blocks of ``block`` consecutive
    samples from uniform starts, cut to ``n`` samples."""
    rng = np.random.default_rng(seed)
    k = -(-n // block)
    starts = rng.integers(0, n, size=(n_boot, k))
    idx = ((starts[:, :, None] + np.arange(block)) % n).reshape(n_boot, -1)[:, :n]
    w = np.zeros((n_boot, n))
    np.add.at(w, (np.repeat(np.arange(n_boot), n), idx.ravel()), 1.0)
    return w


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros_like(num, dtype=float), where=den != 0)


def macro_f1(w: np.ndarray, y: np.ndarray, p: np.ndarray, n_classes: int) -> np.ndarray:
    """Macro-F1 over the classes with support in each resample (``metrics.classification_metrics``)."""
    eye = np.eye(n_classes)
    true, pred = w @ eye[y], w @ eye[p]
    tp = w @ (eye[y] * (y == p)[:, None])
    sup = true > 0
    return _ratio((_ratio(2 * tp, true + pred) * sup).sum(axis=1), sup.sum(axis=1).astype(float))


def pooled_f1(w: np.ndarray, tp: np.ndarray, n_pred: np.ndarray, n_true: np.ndarray) -> np.ndarray:
    """F1 from per-sample true positives, predicted and true positives (binary F1, micro-F1)."""
    return _ratio(2 * (w @ tp), w @ (n_pred + n_true))


def pooled_r2(w: np.ndarray, y: np.ndarray, pred: np.ndarray, sst: np.ndarray) -> np.ndarray:
    """Pooled R² (``metrics.pooled_r2``) with the resampled total sum of squares ``sst`` given."""
    sse = w @ ((y - pred) ** 2).sum(axis=1)
    return np.where(sst > 0, 1.0 - _ratio(sse, sst), 0.0)


def _scores(result: TaskResult, part: str, w: np.ndarray, cache: dict) -> np.ndarray:
    """The primary metric of ``part`` ("baseline" or a head) on every resample of ``w``."""
    spec, data = TASKS[result.task], result.data
    y, out, n = data.y[data.test], result.outputs.get(part), w.shape[1]
    metric = spec.primary_metric
    if data.kind == "retrieval":
        if out is None:  # the random ranking's expectation does not depend on the resample
            k = np.arange(1, n + 1)
            return np.full(len(w), float(np.mean(1.0 / k)) if metric == "mrr" else min(5, n) / n)
        ranks = np.asarray(out.train_final["ranks"], dtype=float)
        return w @ (1.0 / ranks if metric == "mrr" else (ranks <= 5).astype(float)) / n
    pred = np.asarray(out.pred)
    if metric == "macro_f1":
        return macro_f1(w, np.asarray(y, int), np.asarray(pred, int), len(data.class_names))
    if metric in ("f1", "micro_f1"):
        t, p = np.asarray(y) != 0, np.asarray(pred) != 0
        if t.ndim == 1:
            t, p = t[:, None], p[:, None]
        return pooled_f1(w, (t & p).sum(axis=1), p.sum(axis=1), t.sum(axis=1))
    if metric == "mpjpe":
        k = data.extra["n_future"]
        diff = (np.asarray(y, float) - pred).reshape(n, k, -1, 3)
        return w @ np.linalg.norm(diff, axis=-1).mean(axis=(1, 2)) / n
    if metric == "r2":
        yy = np.asarray(y, float)
        if "sst" not in cache:
            col = w @ yy
            cache["sst"] = w @ (yy ** 2).sum(axis=1) - (col ** 2).sum(axis=1) / w.sum(axis=1)
        return pooled_r2(w, yy, np.asarray(pred, float), cache["sst"])
    raise ValueError(f"no resampled form of the primary metric {metric!r}")


def head_interval(result: TaskResult, head: str, *, seed: int = 0, n_boot: int = N_BOOT,
                  level: float = LEVEL) -> PairedInterval:
    """Head − baseline on the primary metric (positive: the head is better), with the percentile interval of
    the paired block bootstrap over the test samples; ``n`` is the number of test samples. With fewer than
    ``MIN_TEST`` test samples the interval is unbounded (a verdict from a handful of windows would be noise)."""
    n = len(result.data.test)
    block = max(1, math.ceil(math.sqrt(n)))
    w = block_weights(n, n_boot, block, seed)
    ones = np.ones((1, n))
    sign = 1.0 if TASKS[result.task].higher_is_better else -1.0
    cache: dict = {}
    diff = sign * (_scores(result, head, w, cache) - _scores(result, "baseline", w, cache))
    point = sign * float(_scores(result, head, ones, {})[0] - _scores(result, "baseline", ones, {})[0])
    low, high = np.quantile(diff, [(1 - level) / 2, (1 + level) / 2]) if n >= MIN_TEST else (-math.inf, math.inf)
    return PairedInterval(mean=point, low=float(low), high=float(high), n=n, level=level)


def run_intervals(runs: dict[str, dict[str, TaskResult]], heads: list[str], seed: int = 0,
                  n_boot: int = N_BOOT) -> dict[str, dict[str, dict[str, PairedInterval]]]:
    """:func:`head_interval` of every head of every run that produced metrics: schedule → protocol → head."""
    return {s: {p: {h: head_interval(r, h, seed=seed, n_boot=n_boot) for h in heads if r.outputs.get(h) is not None}
                for p, r in by_proto.items() if r.ok} for s, by_proto in runs.items()}


def head_words(iv: PairedInterval | None) -> tuple[str, str]:
    """The verdict of a head against the baseline ("ahead", "behind", "not resolved") and its interval text."""
    if iv is None:
        return "–", "–"
    return verdict(iv.low, iv.high, above="ahead", below="behind"), signed_interval(iv.mean, iv.low, iv.high)
