"""Paired comparisons of runs on the same windows, their intervals with the right unit, and the verdicts.

A comparison A − B resamples the windows both runs scored (blocks of consecutive windows on one episode,
whole episodes across many: :mod:`.units`), recomputes the metric of both on each resample and takes the
percentile interval of the difference; :func:`robotask.words.verdict` reads it ("not resolved" when it
includes zero). For an unresolved comparison across episodes, :func:`.units.episodes_to_resolve` projects how
many test episodes would resolve it at the observed difference.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import pandas as pd

from ...words import verdict
from .recompute import PAIR_TASKS, PRIMARY, task_metrics
from .units import N_BOOT, episodes_to_resolve, errors, metric_draws, percentile_interval, resample

COLUMNS = ("scope", "task", "metric", "a", "b", "a_value", "b_value", "difference", "low", "high", "unit",
           "verdict")


def _seed(seed: int, *keys: str) -> int:
    """A seed per comparison, stable across runs and independent of the order comparisons are made in."""
    return seed + zlib.crc32("/".join(keys).encode()) % 1_000_000


def paired(a: pd.DataFrame, b: pd.DataFrame, task: str, metric: str, seed: int, n_boot: int = N_BOOT) -> dict:
    """One comparison of two runs' rows of one task on their common windows (they must be the same)."""
    a = a.sort_values(["episode", "order", "window"]).reset_index(drop=True)
    b = b.set_index("window").loc[a["window"]].reset_index()
    scope = str(a["scope"].iloc[0])
    diff_err = errors(a, task) - errors(b, task)
    w, unit, block = resample(scope, a, diff_err, _seed(seed, scope, task, metric, a["run"][0], b["run"][0]),
                              n_boot, task in PAIR_TASKS)
    da, db = metric_draws(a, task, metric, w), metric_draws(b, task, metric, w)
    va, vb = task_metrics(a, task)[metric], task_metrics(b, task)[metric]
    low, high = percentile_interval(da - db)
    n_ep = int(a["episode"].nunique())
    word = verdict(low, high)
    open_across = unit == "episode" and word == "not resolved"
    projection = episodes_to_resolve(va - vb, da - db, n_ep) if open_across else math.nan
    return {"scope": scope, "task": task, "metric": metric, "a": a["run"][0], "b": b["run"][0], "a_value": va,
            "b_value": vb, "difference": va - vb, "low": low, "high": high, "unit": unit, "verdict": word,
            "block": block if unit == "block" else math.nan, "windows": len(a), "episodes": n_ep,
            "episodes_to_resolve": projection}


def run_interval(part: pd.DataFrame, task: str, metric: str, seed: int,
                 n_boot: int = N_BOOT) -> tuple[float, float, str, int]:
    """One run's metric interval: low, high, unit and block length (0 for episodes)."""
    part = part.sort_values(["episode", "order", "window"]).reset_index(drop=True)
    scope = str(part["scope"].iloc[0])
    w, unit, block = resample(scope, part, errors(part, task), _seed(seed, scope, task, metric, part["run"][0]),
                              n_boot, task in PAIR_TASKS)
    low, high = percentile_interval(metric_draws(part, task, metric, w))
    return low, high, unit, block


def field_metric(task: str, tuned: bool) -> str:
    """The metric a comparison uses: the task's primary one, or a fine-tuned field's published one (accuracy,
    micro-F1 for objects)."""
    if tuned:
        return "micro_f1" if task == "object_relevance" else "accuracy"
    return PRIMARY[task]


def claim_pairs(runs: pd.DataFrame, tuned: set[str]) -> list[tuple[str, str, str, str]]:
    """The comparisons the original's real-data claims need: ``(scope, task, a, b)``.

    Every two heads against each other in the order given (minimal vs MLP, simple vs neural), every head
    against the task's baselines, and every fine-tuned run against the first head (the simple baseline) and
    the baselines, per field.
    """
    pairs = []
    naive = ("majority", "always yes", "copy current")
    for (scope, task), part in runs.groupby(["scope", "task"], sort=False):
        names = list(dict.fromkeys(part["run"]))
        heads = [n for n in names if n not in naive and n not in tuned]
        fine = sorted(n for n in names if n in tuned)
        pairs += [(scope, task, a, b) for i, a in enumerate(heads) for b in heads[i + 1:]]
        for a in heads + fine:
            pairs += [(scope, task, a, b) for b in naive if b in names]
        pairs += [(scope, task, a, heads[0]) for a in fine if heads]
    return pairs


def comparisons_table(runs: pd.DataFrame, seed: int, tuned: set[str], n_boot: int = N_BOOT) -> pd.DataFrame:
    """Every claim's comparison (``COLUMNS`` plus block, windows, episodes and the projection)."""
    rows = []
    for scope, task, a, b in claim_pairs(runs, tuned):
        part = runs[(runs["scope"] == scope) & (runs["task"] == task)]
        metric = field_metric(task, a in tuned or b in tuned)
        ra, rb = part[part["run"] == a], part[part["run"] == b]
        rows.append(paired(ra, rb, task, metric, seed, n_boot))
    return pd.DataFrame(rows)


def common_windows(runs: pd.DataFrame, reference: str) -> pd.DataFrame:
    """Rows of every run restricted to the windows the ``reference`` run scored, per scope and task, each
    scored against the reference's true labels (one truth for a paired comparison); runs without all of those
    windows (a different set of windows) are left out."""
    keep = []
    for (_scope, _task), part in runs.groupby(["scope", "task"], sort=False):
        ref_rows = part[part["run"] == reference]
        ref = set(ref_rows["window"]) or set(part["window"])
        truth = ref_rows.set_index("window")["true"]
        for _run, g in part.groupby("run", sort=False):
            if ref <= set(g["window"]):
                g = g[g["window"].isin(ref)]
                keep.append(g.assign(true=g["window"].map(truth)) if len(truth) else g)
    return pd.concat(keep, ignore_index=True) if keep else runs.iloc[:0]


def result_rows(runs: pd.DataFrame, seed: int, tuned: set[str], n_boot: int = N_BOOT) -> pd.DataFrame:
    """Each run's values of the task's comparison metrics (the primary one, and accuracy where fine-tuned runs
    are compared on it) per scope and task, with their intervals and unit."""
    rows = []
    for (scope, task, run), part in runs.groupby(["scope", "task", "run"], sort=False):
        metrics = [field_metric(task, run in tuned)]
        if tuned and field_metric(task, True) not in metrics and run not in tuned:
            metrics.append(field_metric(task, True))
        for metric in metrics:
            low, high, unit, block = run_interval(part, task, metric, seed, n_boot)
            rows.append({"scope": scope, "task": task, "run": run, "metric": metric,
                         "value": task_metrics(part, task)[metric], "low": low, "high": high, "unit": unit,
                         "block": block or np.nan, "windows": len(part), "episodes": part["episode"].nunique()})
    return pd.DataFrame(rows)
