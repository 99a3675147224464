"""The statistics of the perturbation table on arrays: the numbers of the pandas route, computed faster.

Used by :func:`robotask.retrieval.perturbations.robustness.perturbation_table` (notebook ``08_perturbations``).
The pandas route stacks the applicable original and perturbed outcomes as pseudo-rankers
``<ranker>|<perturbation>|orig/pert`` and lets :func:`robotask.retrieval.statistics.uncertainty.paired_comparisons`
pivot every one of them out of a frame of millions of rows. Here the outcomes are placed once into
(pair, trial, description) arrays, and every number is then computed by the same operations, in the same
order, on arrays equal to the pivoted ones: the bootstrap draws come from
:mod:`robotask.retrieval.statistics.bootstrap` in the same order, the P-values from
:func:`robotask.retrieval.statistics.uncertainty.paired_permutation_test`, and the means over trials from the same
pandas reductions. The results are therefore bit-identical to the pandas route (tested).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ..statistics.bootstrap import check_count, description_weights, percentile_interval, replicate_means, trial_weights
from ..statistics.uncertainty import paired_permutation_test

WHERE = "per-query results"


@dataclass(frozen=True)
class PairedOutcomes:
    """Applicable outcomes of every (ranker, perturbation) as trial × description arrays.

    Descriptions are the columns of :func:`robotask.retrieval.statistics.bootstrap.correctness_matrix` (sorted by
    task, then query id); NaN marks a description that is not an applicable query in that trial.
    """

    pairs: list[tuple[str, str]]  # (ranker, perturbation), rankers then perturbations in order of appearance
    trials: np.ndarray  # (n_trials,) sorted trial labels
    tasks: np.ndarray  # (n_desc,) source task of each description
    original: np.ndarray  # (n_pairs, n_trials, n_desc) correct before perturbation: 1.0, 0.0 or NaN
    perturbed: np.ndarray  # the same after perturbation
    stays: np.ndarray  # the same for ``stays_source``


def description_columns(query_id: pd.Series, task: pd.Series) -> tuple[pd.DataFrame, np.ndarray]:
    """The distinct ``query_id, task`` sorted by task and query id, and the column of every row.

    Parameters
    ----------
    query_id, task : pandas.Series
        Query id and source task of every applicable row.
    """
    q_codes, q_names = pd.factorize(query_id)
    t_codes, t_names = pd.factorize(task)
    combos = np.unique(q_codes * len(t_names) + t_codes)
    if len(combos) != len(q_names):
        raise RobotaskError(f"{WHERE}: a query_id appears under two tasks")
    ids = pd.DataFrame({"query_id": q_names[combos // len(t_names)], "task": t_names[combos % len(t_names)],
                        "code": combos // len(t_names)}).sort_values(["task", "query_id"])
    column = np.empty(len(q_names), dtype=np.int64)
    column[ids["code"].to_numpy()] = np.arange(len(ids))
    return ids[["query_id", "task"]], column[q_codes]


def _check_unique(cells: np.ndarray) -> None:
    """Raise if one (pair, trial, description) cell holds two rows (each counted in both arms)."""
    ordered = np.sort(cells)
    n_dup = int((ordered[1:] == ordered[:-1]).sum())
    if n_dup:
        raise RobotaskError(f"{WHERE}: {2 * n_dup} duplicate (trial, ranker, query_id) rows")


def paired_outcomes(per_query: pd.DataFrame) -> PairedOutcomes:
    """Place the applicable outcomes of ``per_query`` into :class:`PairedOutcomes` arrays.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Output of :func:`robotask.retrieval.perturbations.robustness.run_perturbations` (at least ``trial, ranker,
        perturbation, task, query_id, applicable, correct_original, correct_perturbed, stays_source``).
    """
    rank_codes, rankers = pd.factorize(per_query["ranker"])
    pert_codes, perts = pd.factorize(per_query["perturbation"])
    mask = per_query["applicable"].to_numpy(dtype=bool)
    app = per_query[mask]
    if app.empty:
        raise RobotaskError(f"{WHERE}: no rows")
    present, pair = np.unique(rank_codes[mask] * len(perts) + pert_codes[mask], return_inverse=True)
    trials, trial = np.unique(app["trial"].to_numpy(), return_inverse=True)
    ids, desc = description_columns(app["query_id"], app["task"])
    _check_unique((pair * len(trials) + trial) * len(ids) + desc)

    def cells(column: str) -> np.ndarray:
        out = np.full((len(present), len(trials), len(ids)), np.nan)
        out[pair, trial, desc] = app[column].to_numpy(dtype=np.float64)
        return out

    pairs = [(rankers[c // len(perts)], perts[c % len(perts)]) for c in present]
    return PairedOutcomes(pairs, trials, ids["task"].to_numpy(), cells("correct_original"),
                          cells("correct_perturbed"), cells("stays_source"))


def trial_means(values: np.ndarray) -> np.ndarray:
    """Mean outcome of every trial over its queries (last axis); NaN for a trial without queries."""
    present = ~np.isnan(values)
    count = present.sum(axis=-1)
    total = np.where(present, values, 0.0).sum(axis=-1)
    return np.divide(total, count, out=np.full(count.shape, np.nan), where=count > 0)


def paired_change(before: np.ndarray, after: np.ndarray, reps: tuple[np.ndarray, np.ndarray],
                  n_permutations: int, seed: int) -> dict[str, float | int]:
    """Change after − before of one pair: mean and interval (percentage points), wins/ties/losses, permutation P.

    The computation of :func:`robotask.retrieval.statistics.uncertainty.paired_comparisons` for one pair.

    Parameters
    ----------
    before, after : numpy.ndarray
        Per-trial accuracies (fractions) of the original and the perturbed queries.
    reps : (numpy.ndarray, numpy.ndarray)
        Bootstrap replicate means of the original and the perturbed queries.
    n_permutations, seed : int
        Monte Carlo permutations and their seed.
    """
    d = after - before
    d = np.where(np.abs(d) < 1e-12, 0.0, d)
    lo, hi = percentile_interval(reps[1] - reps[0])
    p_perm = paired_permutation_test(d, n_permutations, seed)
    return {"change": 100 * d.mean(), "lo": 100 * lo, "hi": 100 * hi, "p_perm": p_perm,
            "wins": int((d > 0).sum()), "ties": int((d == 0).sum()), "losses": int((d < 0).sum())}


def mean_over_trials(out: PairedOutcomes, values: np.ndarray, present: np.ndarray) -> pd.Series:
    """Per pair, the mean over trials (those with queries) of ``values``, by pandas' grouped mean.

    The per-trial values are laid out as the grouped means of the pandas route return them (sorted by
    ranker, perturbation and trial), so the compensated sums run over the same values in the same order.

    Parameters
    ----------
    out : PairedOutcomes
        The pairs and trials.
    values : numpy.ndarray
        ``(n_pairs, n_trials)`` per-trial values.
    present : numpy.ndarray
        ``(n_pairs, n_trials)`` whether the pair has queries in that trial.
    """
    keys = ["ranker", "perturbation", "trial"]
    pair, trial = np.nonzero(present)
    frame = pd.DataFrame({"ranker": [out.pairs[k][0] for k in pair], "perturbation": [out.pairs[k][1] for k in pair],
                          "trial": out.trials[trial], "value": values[pair, trial]})
    per_trial = frame.sort_values(keys).set_index(keys)["value"]
    return per_trial.groupby(keys[:2]).mean()


def table_rows(out: PairedOutcomes, n_bootstrap: int, seed: int, n_permutations: int) -> list[dict]:
    """One row per pair: coverage, accuracy before/after, paired change, interval, test and stay rate.

    Parameters
    ----------
    out : PairedOutcomes
        The applicable outcomes.
    n_bootstrap, seed, n_permutations : int
        Bootstrap replicates, seed (bootstrap and permutations), and permutations.
    """
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    rng = np.random.default_rng(seed)
    w_desc = description_weights(out.tasks, n_bootstrap, rng)
    w_trial = trial_weights(len(out.trials), n_bootstrap, rng)
    present = ~np.isnan(out.original)
    counts = mean_over_trials(out, present.sum(axis=2), present.any(axis=2))
    stays = mean_over_trials(out, trial_means(out.stays), present.any(axis=2))
    rows = []
    for k, (ranker, pert) in enumerate(out.pairs):
        before, after = trial_means(out.original[k]), trial_means(out.perturbed[k])
        den = w_desc @ present[k].T.astype(np.float64)
        reps = tuple(replicate_means(np.where(present[k], arm[k], 0.0), den, w_desc, w_trial)
                     for arm in (out.original, out.perturbed))
        change = paired_change(before, after, reps, n_permutations, seed)
        rows.append({"ranker": ranker, "perturbation": pert, "n_per_trial": counts[(ranker, pert)],
                     "original": 100 * pd.Series(before).mean(), "perturbed": 100 * pd.Series(after).mean(),
                     **change, "stays_source": 100 * stays[(ranker, pert)]})
    return rows


def replicate_arms(out: PairedOutcomes, n_bootstrap: int, seed: int) -> dict[tuple[str, str], dict[str, np.ndarray]]:
    """Bootstrap replicate accuracies (%) of the original and perturbed arm of every pair, from the draws
    :func:`table_rows` makes with the same ``seed`` (descriptions within tasks, then galleries), so every pair
    shares each replicate and differences between pairs are paired.

    Parameters
    ----------
    out : PairedOutcomes
        The applicable outcomes.
    n_bootstrap, seed : int
        Replicates and seed, as given to :func:`table_rows`.
    """
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    rng = np.random.default_rng(seed)
    w_desc = description_weights(out.tasks, n_bootstrap, rng)
    w_trial = trial_weights(len(out.trials), n_bootstrap, rng)
    present = ~np.isnan(out.original)
    reps = {}
    for k, pair in enumerate(out.pairs):
        den = w_desc @ present[k].T.astype(np.float64)
        reps[pair] = {arm: 100 * replicate_means(np.where(present[k], values[k], 0.0), den, w_desc, w_trial)
                      for arm, values in (("original", out.original), ("perturbed", out.perturbed))}
    return reps
