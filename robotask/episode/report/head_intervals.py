"""A head against the strongest baseline on one task run: a paired interval over blocks of test samples.

One episode and one chronological split give one number per head: there are no draws to repeat. What can be
resampled is the test part. :func:`head_interval` draws ``n_boot`` moving-block bootstrap resamples of the test
samples (blocks of ⌈√n⌉ consecutive samples, so that overlapping neighbouring windows, and a pair task's two
orders of one pair, stay together: the resampled unit is the block, not the window), the same resample for the
head and the baseline, recomputes the metric for both, and takes the percentile interval of head − baseline in
the metric's good direction (positive: the head is better). The baseline is the strongest of the run's baselines
(:func:`strongest_baseline`: the trivial one and those of ``tasks.baselines.informed_baselines``) on the task's
deciding metric (:func:`deciding_metric`: the primary metric, accuracy on the pair tasks). The interval says how
much a verdict depends on which test windows the split happened to hold; it says nothing about other episodes
(chapter 14 trains and tests on different ones). The words come from :func:`robotask.words.verdict`.

Every metric here is a ratio of sums over test samples, so one matrix of resample counts ``W`` (resamples ×
samples) gives all resamples at once; with ``W`` all ones each function returns the metric of
:mod:`robotask.episode.tasks.metrics` exactly (``tests/test_episode_head_intervals.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...words import PairedInterval, verdict
from ..suite.execution import TaskResult
from ..tasks.baselines import informed_baselines
from ..tasks.registry import TASKS
from .phrases import signed_interval

N_BOOT = 1000  # bootstrap resamples of the test part
LEVEL = 0.95
MIN_TEST = 20  # fewer test samples resolve nothing: the interval is unbounded


def interval_values(raw: bool = False) -> dict[str, object]:
    """The method's constants as the pages glue them: resamples, level (%) and the fewest test samples; with
    ``raw``, the numbers themselves (resamples, level as a fraction)."""
    if raw:
        return {"n_boot": N_BOOT, "level": LEVEL, "min_test": MIN_TEST}
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


def deciding_metric(task: str) -> str:
    """The metric a task's verdict reads: its primary metric, but accuracy on a pair task (temporal order,
    synchronisation), whose F1 of the "yes" class rewards answering yes every time (2/3 with half the pairs
    positive) while a head at chance there reads as behind."""
    spec = TASKS[task]
    return "accuracy" if spec.kind == "binary" else spec.primary_metric


def higher_is_better(task: str, metric: str) -> bool:
    """The direction of ``metric`` on ``task``: the task's own for its primary metric, higher otherwise."""
    spec = TASKS[task]
    return spec.higher_is_better if metric == spec.primary_metric else True


def baseline_predictions(result: TaskResult) -> dict[str, np.ndarray | None]:
    """Every baseline of a run by display name: the trivial one (None for a random ranking, whose score is its
    expectation) first, then the informed ones (``tasks.baselines.informed_baselines``)."""
    trivial = result.outputs.get("baseline")
    return {result.info.get("baseline_name", "trivial"): None if trivial is None else np.asarray(trivial.pred),
            **informed_baselines(result.data)}


def _scores(result: TaskResult, pred: np.ndarray | None, metric: str, w: np.ndarray, cache: dict) -> np.ndarray:
    """``metric`` of the test predictions ``pred`` (None: the random ranking) on every resample of ``w``."""
    data = result.data
    y, n = data.y[data.test], w.shape[1]
    if data.kind == "retrieval":
        if pred is None:  # the random ranking's expectation does not depend on the resample
            k = np.arange(1, n + 1)
            return np.full(len(w), float(np.mean(1.0 / k)) if metric == "mrr" else min(5, n) / n)
        ranks = np.asarray(pred, dtype=float)
        return w @ (1.0 / ranks if metric == "mrr" else (ranks <= 5).astype(float)) / n
    pred = np.asarray(pred)
    if metric == "accuracy":
        return w @ (np.asarray(y) == pred).astype(float) / w.sum(axis=1)
    if metric == "macro_f1":
        yy, pp = np.asarray(y, int), np.asarray(pred, int)
        return macro_f1(w, yy, pp, max(len(data.class_names), int(pp.max(initial=0)) + 1))
    if metric in ("f1", "micro_f1"):
        t, p = np.asarray(y) != 0, pred != 0
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
    raise ValueError(f"no resampled form of the metric {metric!r}")


def _head_pred(result: TaskResult, head: str) -> np.ndarray:
    out = result.outputs[head]
    return out.train_final["ranks"] if result.data.kind == "retrieval" else out.pred


def baseline_scores(result: TaskResult, metric: str | None = None) -> dict[str, float]:
    """Every baseline's score on ``metric`` (the deciding one by default) on the whole test part."""
    metric = metric or deciding_metric(result.task)
    ones = np.ones((1, len(result.data.test)))
    return {name: float(_scores(result, pred, metric, ones, {})[0])
            for name, pred in baseline_predictions(result).items()}


def strongest_baseline(result: TaskResult, metric: str | None = None) -> tuple[str, float]:
    """The baseline with the best score on ``metric`` (the deciding one by default) and that score; the
    trivial one on a tie. Picked on the test part itself, so a head must beat the best of them there."""
    metric = metric or deciding_metric(result.task)
    scores = baseline_scores(result, metric)
    sign = 1.0 if higher_is_better(result.task, metric) else -1.0
    name = max(scores, key=lambda k: sign * scores[k])  # max keeps the first of equal scores
    return name, scores[name]


@dataclass(frozen=True)
class Comparison:
    """A head against one baseline on one metric of one run: head − baseline (positive: the head is better)
    with its interval over blocks of ``block`` consecutive test samples."""

    head: str
    against: str
    metric: str
    interval: PairedInterval
    block: int

    @property
    def n_blocks(self) -> int:
        """How many blocks the test part holds (the resampled units)."""
        return math.ceil(self.interval.n / self.block)


def head_interval(result: TaskResult, head: str, *, against: str | None = None, metric: str | None = None,
                  seed: int = 0, n_boot: int = N_BOOT, level: float = LEVEL) -> Comparison:
    """Head − baseline on ``metric`` (default: the deciding one) against the baseline ``against`` (default: the
    strongest), with the percentile interval of the paired block bootstrap over the test samples; the interval's
    ``n`` is the number of test samples. With fewer than ``MIN_TEST`` of them the interval is unbounded (a
    verdict from a handful of windows would be noise)."""
    metric = metric or deciding_metric(result.task)
    against = against or strongest_baseline(result, metric)[0]
    n = len(result.data.test)
    block = max(1, math.ceil(math.sqrt(n)))
    w = block_weights(n, n_boot, block, seed)
    sign = 1.0 if higher_is_better(result.task, metric) else -1.0
    head_pred, base_pred = _head_pred(result, head), baseline_predictions(result)[against]

    def diff(weights: np.ndarray) -> np.ndarray:
        cache: dict = {}
        return sign * (_scores(result, head_pred, metric, weights, cache)
                       - _scores(result, base_pred, metric, weights, cache))

    point = float(diff(np.ones((1, n)))[0])
    low, high = np.quantile(diff(w), [(1 - level) / 2, (1 + level) / 2]) if n >= MIN_TEST else (-math.inf, math.inf)
    return Comparison(head, against, metric, PairedInterval(mean=point, low=float(low), high=float(high), n=n,
                                                            level=level), block)


def run_intervals(runs: dict[str, dict[str, TaskResult]], heads: list[str], seed: int = 0,
                  n_boot: int = N_BOOT) -> dict[str, dict[str, dict[str, Comparison]]]:
    """:func:`head_interval` against the strongest baseline of every head of every run that produced metrics:
    schedule → protocol → head."""
    return {s: {p: {h: head_interval(r, h, seed=seed, n_boot=n_boot) for h in heads if r.outputs.get(h) is not None}
                for p, r in by_proto.items() if r.ok} for s, by_proto in runs.items()}


def head_words(c: Comparison | None) -> tuple[str, str]:
    """The verdict of a head against a baseline ("ahead", "behind", "not resolved") and its interval text."""
    if c is None:
        return "–", "–"
    iv = c.interval
    return verdict(iv.low, iv.high, above="ahead", below="behind"), signed_interval(iv.mean, iv.low, iv.high)
