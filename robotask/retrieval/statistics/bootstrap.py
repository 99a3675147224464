"""Bootstrap intervals of the retrieval accuracies, from per-query outcomes.

Used by notebooks ``06_sentence_embeddings``, ``07_uncertainty`` and (through the paired
comparisons of :mod:`robotask.retrieval.statistics.uncertainty`) ``08_perturbations``.

Inputs are per-query outcomes: one row per (trial, ranker, held-out query) with the columns
``trial``, ``ranker``, ``query_id`` (which corpus description the query is, e.g. ``task:position``),
``task`` (its source task) and ``correct`` (0/1); :func:`per_query_from_predictions` builds them from
a study's predictions. Only the queries that the scoring policy keeps appear. The accuracy of a
trial is the mean of ``correct`` over its queries; the study's point estimate is the mean of the
trial accuracies (as in the paper).

Bootstrap (percentile method, ``scheme="both"``). Each replicate

1. resamples the corpus descriptions *within each task* with replacement (a task with n
   descriptions gets n draws); a description drawn k times counts k times as a query in every
   trial where it is held out, so the same resampled instruction set is used in all galleries;
2. resamples the trials (galleries) with replacement;
3. recomputes every trial's accuracy with those query weights and averages over the drawn trials.

All rankers share each replicate's draws, so differences between rankers get paired intervals.
``scheme="queries"`` does step 1 only (galleries fixed) and ``scheme="galleries"`` step 2 only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ...words import named

SCHEMES = ("both", "queries", "galleries")
PER_QUERY_COLUMNS = ("trial", "ranker", "query_id", "task", "correct")


@dataclass(frozen=True)
class CorrectnessMatrix:
    """Outcomes of one ranker as a trial × description matrix (NaN = not a query in that trial)."""

    trials: np.ndarray  # (n_trials,)
    query_ids: np.ndarray  # (n_desc,)
    tasks: np.ndarray  # (n_desc,) source task of each description
    values: np.ndarray  # (n_trials, n_desc) float64 in {0, 1, NaN}


def check_per_query(frame: pd.DataFrame, where: str = "per-query results") -> pd.DataFrame:
    """Validate the per-query outcome table and return it with ``correct`` as int.

    Parameters
    ----------
    frame : pandas.DataFrame
        Must hold the columns ``trial, ranker, query_id, task, correct``.
    where : str
        Name of the input used in error messages.
    """
    missing = [c for c in PER_QUERY_COLUMNS if c not in frame.columns]
    if missing:
        raise RobotaskError(f"{where}: missing {named('column', missing)}; expected {', '.join(PER_QUERY_COLUMNS)}")
    if frame.empty:
        raise RobotaskError(f"{where}: no rows")
    n_dup = len(frame) - _n_distinct(frame, ("trial", "ranker", "query_id"))
    if n_dup:
        raise RobotaskError(f"{where}: {n_dup} duplicate (trial, ranker, query_id) rows")
    out = frame.copy()
    out["correct"] = out["correct"].astype(int)
    return out


def _n_distinct(frame: pd.DataFrame, columns: Sequence[str]) -> int:
    """The number of distinct rows of ``frame[columns]`` (missing values count as one value, as in
    ``DataFrame.duplicated``), from integer codes rather than a hash of the row tuples."""
    key, size = np.zeros(len(frame), dtype=np.int64), 1
    for column in columns:
        codes, uniques = pd.factorize(frame[column], use_na_sentinel=False)
        if size * len(uniques) >= 2**62:  # re-code the pairs so far before the key could overflow
            recoded, seen = pd.factorize(key)
            key, size = recoded.astype(np.int64), len(seen)
        key, size = key * len(uniques) + codes, size * len(uniques)
    return len(pd.unique(key))


def _sort_ranks(values: np.ndarray) -> np.ndarray:
    """Rank of each (distinct) value in sorted order."""
    ranks = np.empty(len(values), dtype=np.int64)
    ranks[np.argsort(values, kind="stable")] = np.arange(len(values))
    return ranks


def correctness_matrices(per_query: pd.DataFrame, rankers: Sequence[str]) -> dict[str, CorrectnessMatrix]:
    """:func:`correctness_matrix` of each of ``rankers``, from one pass over the frame.

    The columns (every description of the frame, sorted by task and description id) and the rows (every
    trial) are those of the whole frame, whichever rankers are asked, so each matrix is the one
    :func:`correctness_matrix` gives; the frame is factorised once instead of filtered and pivoted per ranker.
    """
    q_codes, q_uniques = pd.factorize(per_query["query_id"], use_na_sentinel=False)
    t_codes, t_uniques = pd.factorize(per_query["task"], use_na_sentinel=False)
    q_uniques = np.asarray(q_uniques, dtype=object)
    t_uniques = np.asarray(t_uniques, dtype=object)
    if pd.isna(q_uniques).any() or pd.isna(t_uniques).any():
        raise RobotaskError("per-query results: a query_id or task is missing")
    pairs = np.sort(pd.unique(q_codes.astype(np.int64) * len(t_uniques) + t_codes))
    pair_q, pair_t = np.divmod(pairs, len(t_uniques))
    if len(np.unique(pair_q)) < len(pair_q):
        raise RobotaskError("per-query results: a query_id appears under two tasks")
    order = np.lexsort((_sort_ranks(q_uniques)[pair_q], _sort_ranks(t_uniques)[pair_t]))
    column = np.empty(len(q_uniques), dtype=np.int64)
    column[pair_q[order]] = np.arange(len(order))
    trials = np.sort(per_query["trial"].unique())
    row = np.searchsorted(trials, per_query["trial"].to_numpy())
    r_codes, r_uniques = pd.factorize(per_query["ranker"])
    code = {str(r): i for i, r in enumerate(r_uniques)}
    correct = per_query["correct"].to_numpy(dtype=np.float64)
    out = {}
    for ranker in rankers:
        if ranker not in code:
            raise RobotaskError(f"per-query results: ranker {ranker!r} has no rows; "
                                f"present: {sorted(per_query['ranker'].unique())}")
        mine = r_codes == code[ranker]
        values = np.full((len(trials), len(order)), np.nan)
        values[row[mine], column[q_codes[mine]]] = correct[mine]
        out[ranker] = CorrectnessMatrix(trials, q_uniques[pair_q[order]], t_uniques[pair_t[order]], values)
    return out


def correctness_matrix(per_query: pd.DataFrame, ranker: str) -> CorrectnessMatrix:
    """Pivot one ranker's per-query outcomes into a :class:`CorrectnessMatrix`.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Validated per-query outcomes (see :func:`check_per_query`).
    ranker : str
        Ranker name in the ``ranker`` column.
    """
    return correctness_matrices(per_query, [ranker])[ranker]


def trial_accuracy(per_query: pd.DataFrame) -> pd.DataFrame:
    """Per-trial accuracy of every ranker: a trial × ranker table (fractions)."""
    acc = per_query.groupby(["trial", "ranker"])["correct"].mean().unstack("ranker")
    return acc.sort_index()


def description_weights(tasks: np.ndarray, n_bootstrap: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap multiplicities of descriptions resampled with replacement within each task.

    Parameters
    ----------
    tasks : numpy.ndarray
        Source task of each description, shape ``(n_desc,)``.
    n_bootstrap : int
        Number of replicates.
    rng : numpy.random.Generator
        Random source.

    Returns
    -------
    numpy.ndarray
        ``(n_bootstrap, n_desc)`` integer counts; each task's counts sum to its size.
    """
    weights = np.zeros((n_bootstrap, len(tasks)), dtype=np.int64)
    for task in sorted(set(tasks.tolist())):
        cols = np.flatnonzero(tasks == task)
        n = len(cols)
        draws = rng.integers(0, n, size=(n_bootstrap, n))
        flat = (np.arange(n_bootstrap)[:, None] * n + draws).ravel()
        weights[:, cols] = np.bincount(flat, minlength=n_bootstrap * n).reshape(n_bootstrap, n)
    return weights


def trial_weights(n_trials: int, n_bootstrap: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap multiplicities of trials (galleries) drawn with replacement, ``(B, n_trials)``."""
    idx = rng.integers(0, n_trials, size=(n_bootstrap, n_trials))
    flat = (np.arange(n_bootstrap)[:, None] * n_trials + idx).ravel()
    return np.bincount(flat, minlength=n_bootstrap * n_trials).reshape(n_bootstrap, n_trials)


def check_count(name: str, value: int, minimum: int = 1) -> int:
    """Return ``value`` if it is an int ≥ ``minimum``, else raise a RobotaskError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise RobotaskError(f"parameter {name!r} must be an integer ≥ {minimum}, got {value!r}")
    return int(value)


def bootstrap_replicates(per_query: pd.DataFrame, rankers: Sequence[str], n_bootstrap: int, seed: int,
                         scheme: str = "both") -> pd.DataFrame:
    """Bootstrap replicates of every ranker's mean accuracy, with shared draws across rankers.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Per-query outcomes (see module docstring).
    rankers : sequence of str
        Rankers to include (columns of the result).
    n_bootstrap : int
        Number of replicates B.
    seed : int
        Seed of ``numpy.random.default_rng``.
    scheme : {"both", "queries", "galleries"}
        What is resampled (see module docstring).

    Returns
    -------
    pandas.DataFrame
        ``(B, len(rankers))`` replicate means (fractions).
    """
    if scheme not in SCHEMES:
        raise RobotaskError(f"bootstrap scheme {scheme!r} is unknown; expected one of {list(SCHEMES)}")
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    per_query = check_per_query(per_query)
    mats = correctness_matrices(per_query, rankers)
    first = next(iter(mats.values()))
    rng = np.random.default_rng(seed)
    ones_d = np.ones((n_bootstrap, len(first.query_ids)))
    ones_t = np.ones((n_bootstrap, len(first.trials)))
    w_desc = description_weights(first.tasks, n_bootstrap, rng) if scheme in ("both", "queries") else ones_d
    w_trial = trial_weights(len(first.trials), n_bootstrap, rng) if scheme in ("both", "galleries") else ones_t
    out = {}
    for name, mat in mats.items():
        present = ~np.isnan(mat.values)
        hits = np.where(present, mat.values, 0.0)
        out[name] = replicate_means(hits, w_desc @ present.T.astype(np.float64), w_desc, w_trial)
    return pd.DataFrame(out)


def replicate_means(hits: np.ndarray, den: np.ndarray, w_desc: np.ndarray, w_trial: np.ndarray) -> np.ndarray:
    """Bootstrap replicate means of one trial × description outcome matrix.

    Used by :func:`bootstrap_replicates` for each ranker and by the perturbation statistics; the
    denominators depend only on which descriptions are queries, so both arms of a pair share them.

    Parameters
    ----------
    hits : numpy.ndarray
        ``(n_trials, n_desc)`` outcomes, 0 where a description is not a query.
    den : numpy.ndarray
        ``w_desc @ present.T`` with ``present`` the ``(n_trials, n_desc)`` query mask as float64.
    w_desc, w_trial : numpy.ndarray
        Description and trial multiplicities of every replicate.
    """
    num = w_desc @ hits.T  # (B, n_trials)
    acc = np.divide(num, den, out=np.full_like(num, np.nan), where=den > 0)
    keep = np.where(np.isnan(acc), 0.0, w_trial)
    return (np.nan_to_num(acc) * keep).sum(axis=1) / keep.sum(axis=1)


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates: the (1−level)/2 and (1+level)/2 quantiles."""
    if not 0 < level < 1:
        raise RobotaskError(f"confidence level must lie in (0, 1), got {level!r}")
    lo, hi = np.quantile(np.asarray(values, float), [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def bootstrap_table(per_query: pd.DataFrame, rankers: Sequence[str], n_bootstrap: int, seed: int,
                    level: float = 0.95) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Mean accuracy and percentile bootstrap interval per ranker under the three schemes.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Per-query outcomes.
    rankers : sequence of str
        Rankers to report, in row order.
    n_bootstrap, seed : int
        Replicates and seed (each scheme uses the same seed).
    level : float
        Interval coverage, default 0.95.

    Returns
    -------
    table : pandas.DataFrame
        One row per ranker: ``ranker, mean, lo, hi`` (scheme both) and ``lo_queries, hi_queries,
        lo_galleries, hi_galleries``; all in percent.
    replicates : dict
        Scheme → replicate table from :func:`bootstrap_replicates`.
    """
    acc = trial_accuracy(check_per_query(per_query))
    reps = {s: bootstrap_replicates(per_query, rankers, n_bootstrap, seed, s) for s in SCHEMES}
    rows = []
    for r in rankers:
        row = {"ranker": r, "mean": 100 * acc[r].mean()}
        for s in SCHEMES:
            lo, hi = percentile_interval(reps[s][r].to_numpy(), level)
            suffix = "" if s == "both" else f"_{s}"
            row[f"lo{suffix}"], row[f"hi{suffix}"] = 100 * lo, 100 * hi
        rows.append(row)
    return pd.DataFrame(rows), reps


def per_query_from_predictions(predictions: pd.DataFrame, condition: str = "one") -> pd.DataFrame:
    """Per-query outcomes under the primary policy from ``robotask.retrieval.protocol.study`` per-query predictions.

    Queries whose exact text belongs to several tasks (``duplicate``) are dropped; ``query_id`` is
    ``task:position``.

    Parameters
    ----------
    predictions : pandas.DataFrame
        ``StudyResult.predictions`` of a run with ``save_all_predictions=True``.
    condition : str
        Design to keep (default the one-description galleries).
    """
    sub = predictions[(predictions["condition"] == condition) & ~predictions["duplicate"].astype(bool)]
    if sub.empty:
        raise RobotaskError(f"predictions: no rows for condition {condition!r}; "
                            "run the protocol with save_all_predictions=True")
    out = sub[["trial", "ranker", "task"]].copy()
    out["query_id"] = query_ids(sub["task"], sub["position"])
    out["correct"] = sub["correct"].astype(int)
    return out.reset_index(drop=True)


def query_ids(task: pd.Series, position: pd.Series) -> pd.Series:
    """``task + ":" + position`` per row (the ``query_id`` of :func:`per_query_from_predictions`), the text
    built once per distinct (task, position) pair rather than once per row (a study repeats each pair in
    every gallery and for every ranker)."""
    pos = position.to_numpy()
    codes, uniques = pd.factorize(task)
    if (len(pos) == 0 or not np.issubdtype(pos.dtype, np.integer) or (codes < 0).any()
            or (int(pos.max()) - int(pos.min()) + 1) * len(uniques) >= 2**62):
        return task + ":" + position.astype(str)
    low, span = int(pos.min()), int(pos.max()) - int(pos.min()) + 1
    keys, inverse = np.unique(codes.astype(np.int64) * span + (pos - low), return_inverse=True)
    texts = pd.Series(uniques.take(keys // span)) + ":" + pd.Series(keys % span + low).astype(str)
    dtype = (task.iloc[:1] + ":" + position.iloc[:1].astype(str)).dtype  # the dtype of the rowwise sum
    return pd.Series(pd.array(texts.to_numpy(dtype=object)[inverse.ravel()], dtype=dtype), index=task.index)
