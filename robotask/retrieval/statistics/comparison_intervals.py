"""One interval per comparison of two rankers, computed once and read by every page that states it.

What varies in a retrieval study is both the galleries drawn and the descriptions the corpus happens to
hold, and chapter 07 measures that the descriptions dominate. A comparison A − B of top-1 accuracy on one
corpus is therefore decided by the two-way bootstrap of :mod:`.bootstrap` (scheme ``"both"``): each replicate
resamples the descriptions within each task and the galleries, and scores both rankers with the same
multiplicities (paired over rankers). The replicate draws depend only on the seed, the number of
replicates and the descriptions' tasks, never on which rankers run, so a pair has one interval whichever
page computes it: chapter 02, 07, 09.1 and the home page read the same numbers.

Each ranker's replicate means are kept in the cache (``Cache("comparisons")``) under the content of its
outcome matrix (every gallery × description outcome, the description ids and tasks), the seed and the
number of replicates: a second page that states the comparison reads them instead of drawing again.
:func:`verdict_rows` gives the rows of a chapter's ``verdicts.csv`` (:data:`robotask.words.VERDICT_COLUMNS`).

The paper's own per-gallery summary (mean, SD, percentiles across galleries, Table 2) stays as it is in
:mod:`.across_galleries`; only the deciding words use this interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...cache import Cache, arrays_checksum, content_key
from ...errors import RobotaskError
from ...words import verdict, verdict_row
from .bootstrap import (
    CorrectnessMatrix,
    check_count,
    check_per_query,
    correctness_matrices,
    description_weights,
    per_query_from_predictions,
    percentile_interval,
    replicate_means,
    trial_weights,
)

N_BOOTSTRAP = 2000
"""Replicates of every retrieval comparison (chapter 07's number, so its table and this one agree)."""
UNIT = "gallery and description"
METRIC = "top-1 accuracy"
STORE = Cache("comparisons")
COMPARISON_COLUMNS = ("a", "b", "difference", "low", "high", "n_galleries", "n_descriptions", "method", "verdict")


def method(n_bootstrap: int) -> str:
    """The method column of a retrieval comparison: "two-way bootstrap (galleries and descriptions), N replicates"."""
    return f"two-way bootstrap (galleries and descriptions), {n_bootstrap} replicates"


@dataclass(frozen=True)
class Replicates:
    """One ranker's per-gallery accuracies (fractions) and its bootstrap replicate means."""

    per_gallery: np.ndarray  # (n_galleries,)
    means: np.ndarray  # (n_bootstrap,)
    n_descriptions: int


def _replicates(per_query: pd.DataFrame, rankers: Sequence[str], n_bootstrap: int, seed: int) -> dict[str, Replicates]:
    """The replicate means of each ranker, from the cache when its outcomes were bootstrapped before."""
    names = list(dict.fromkeys(rankers))
    mats = correctness_matrices(per_query, names)
    return {r: _replicates_of(mats[r], r, n_bootstrap, seed) for r in names}


@dataclass(frozen=True)
class ArmOutcomes:
    """Per-query outcomes of several arms validated and pivoted once (arm → trial × description matrix over
    the descriptions of all arms), so that many :func:`contrast` calls on one study do not pivot it again."""

    matrices: dict[str, CorrectnessMatrix]
    draws: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, compare=False)


def arm_outcomes(per_query: pd.DataFrame) -> ArmOutcomes:
    """:class:`ArmOutcomes` of a per-query frame (the matrices :func:`.bootstrap.correctness_matrix` gives)."""
    per_query = check_per_query(per_query)
    return ArmOutcomes(correctness_matrices(per_query, [str(a) for a in per_query["ranker"].unique()]))


def _replicates_of(mat: CorrectnessMatrix, ranker: str, n_bootstrap: int, seed: int,
                   shared: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] | None = None) -> Replicates:
    """:func:`_replicates` of a matrix already pivoted; ``shared`` keeps the replicate draws of arms with the same
    descriptions and galleries (they depend on nothing else), so each is drawn once per study."""
    arrays = {"values": mat.values, "ids": mat.query_ids.astype(str), "tasks": mat.tasks.astype(str),
              "trials": mat.trials.astype(np.int64)}
    name = f"{ranker}-{content_key({'outcomes': arrays_checksum(arrays), 'n': n_bootstrap, 'seed': seed})}.npz"

    def compute() -> dict[str, np.ndarray]:
        if shared is not None and (n_bootstrap, seed) in shared:
            w_desc, w_trial = shared[(n_bootstrap, seed)]
        else:
            rng = np.random.default_rng(seed)  # the order of chapter 07's bootstrap: descriptions, then galleries
            w_desc = description_weights(mat.tasks, n_bootstrap, rng)
            w_trial = trial_weights(len(mat.trials), n_bootstrap, rng)
            if shared is not None:
                shared[(n_bootstrap, seed)] = (w_desc, w_trial)
        present = ~np.isnan(mat.values)
        hits = np.where(present, mat.values, 0.0)
        return {"means": replicate_means(hits, w_desc @ present.T.astype(np.float64), w_desc, w_trial),
                "per_gallery": np.nanmean(mat.values, axis=1)}

    found = STORE.npz(name, compute)
    return Replicates(found["per_gallery"], found["means"], len(mat.query_ids))


def ranker_comparisons(per_query: pd.DataFrame, pairs: Sequence[tuple[str, str]], *, seed: int,
                       n_bootstrap: int = N_BOOTSTRAP, level: float = 0.95) -> pd.DataFrame:
    """A − B for each pair of rankers: mean paired difference over galleries (pp), its two-way bootstrap
    interval over galleries and descriptions, the counts resampled and the verdict.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Per-query outcomes of one corpus (:func:`.bootstrap.per_query_from_predictions`).
    pairs : sequence of (str, str)
        Ranker pairs (A, B); the difference is A − B.
    seed : int
        Seed of the bootstrap (the chapters use the seed of their draws, 413).
    n_bootstrap : int
        Replicates (default :data:`N_BOOTSTRAP`).
    level : float
        Interval coverage.

    Returns
    -------
    pandas.DataFrame
        :data:`COMPARISON_COLUMNS`, one row per pair, in percentage points.
    """
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    per_query = check_per_query(per_query)
    reps = _replicates(per_query, [r for pair in pairs for r in pair], n_bootstrap, seed)
    rows = []
    for a, b in pairs:
        if len(reps[a].per_gallery) != len(reps[b].per_gallery):
            raise RobotaskError(f"rankers {a!r} and {b!r} were not scored on the same galleries")
        low, high = percentile_interval(reps[a].means - reps[b].means, level)
        diff = float(np.mean(reps[a].per_gallery - reps[b].per_gallery))
        rows.append({"a": a, "b": b, "difference": 100 * diff, "low": 100 * low, "high": 100 * high,
                     "n_galleries": len(reps[a].per_gallery), "n_descriptions": reps[a].n_descriptions,
                     "method": method(n_bootstrap), "verdict": verdict(100 * low, 100 * high)})
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def comparison(table: pd.DataFrame, a: str, b: str) -> dict[str, object]:
    """The row of A − B in a :func:`ranker_comparisons` table, turned round when it holds B − A."""
    hit = table[(table["a"] == a) & (table["b"] == b)]
    if len(hit):
        return dict(hit.iloc[0])
    hit = table[(table["a"] == b) & (table["b"] == a)]
    if not len(hit):
        raise RobotaskError(f"comparison {a} − {b} was not computed; computed: "
                            f"{', '.join(f'{x} − {y}' for x, y in zip(table['a'], table['b']))}")
    row = dict(hit.iloc[0])
    low, high = -row["high"], -row["low"]
    return {**row, "a": a, "b": b, "difference": -row["difference"], "low": low, "high": high,
            "verdict": verdict(low, high)}


def verdict_rows(table: pd.DataFrame, *, chapter: str, data: str, claims: dict[tuple[str, str], str],
                 labels: dict[str, str] | None = None, metric: str = METRIC) -> list[dict[str, object]]:
    """Rows of ``verdicts.csv`` for the comparisons a page states: ``claims`` maps (A, B) to the claim's
    words; ``labels`` turns ranker names into the names the page uses. ``n_units`` counts the descriptions
    resampled (the dominant source); the method names the galleries too."""
    labels = labels or {}
    rows = []
    for (a, b), claim in claims.items():
        c = comparison(table, a, b)
        rows.append(verdict_row(chapter=chapter, claim=claim, a=labels.get(a, a), b=labels.get(b, b), data=data,
                                metric=metric, difference=c["difference"], low=c["low"], high=c["high"],
                                unit=UNIT, n_units=int(c["n_descriptions"]),
                                method=f"{c['method']} over {c['n_galleries']} galleries and "
                                       f"{c['n_descriptions']} descriptions"))
    return rows


def arm_comparison(outcomes: pd.DataFrame, a: str, b: str, *, seed: int, n_bootstrap: int = N_BOOTSTRAP,
                   level: float = 0.95) -> dict[str, object]:
    """A − B between two fixed sets of queries scored in the same galleries (e.g. RoboTwin's unseen and seen
    templates): the mean paired difference over galleries (pp) and its two-way bootstrap interval, each
    replicate resampling the queries within their ``group`` (a task's templates of one set) and the galleries.

    ``outcomes`` has ``trial``, ``arm`` (``a`` or ``b``), ``query_id``, ``group`` and ``correct`` (0/1) for one
    ranker. Returns ``difference``, ``low``, ``high``, ``n_galleries``, ``n_queries``, ``method``, ``verdict``.
    """
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    ids = outcomes[["query_id", "group", "arm"]].drop_duplicates().sort_values(["group", "query_id"])
    if ids["query_id"].duplicated().any():
        raise RobotaskError("query outcomes: a query_id appears in two groups or arms")
    trials = np.sort(outcomes["trial"].unique())
    table = outcomes.pivot(index="trial", columns="query_id", values="correct")
    values = table.reindex(index=trials, columns=ids["query_id"].to_numpy()).to_numpy(dtype=np.float64)
    rng = np.random.default_rng(seed)
    w_desc = description_weights(ids["group"].to_numpy(), n_bootstrap, rng)
    w_trial = trial_weights(len(trials), n_bootstrap, rng)
    reps, per_gallery = {}, {}
    for arm in (a, b):
        arm_values = np.where((ids["arm"].to_numpy() == arm)[None, :], values, np.nan)
        present = ~np.isnan(arm_values)
        hits = np.where(present, arm_values, 0.0)
        reps[arm] = replicate_means(hits, w_desc @ present.T.astype(np.float64), w_desc, w_trial)
        per_gallery[arm] = np.nanmean(arm_values, axis=1)
    low, high = (100 * x for x in percentile_interval(reps[a] - reps[b], level))
    return {"difference": 100 * float(np.mean(per_gallery[a] - per_gallery[b])), "low": low, "high": high,
            "n_galleries": len(trials), "n_queries": len(ids),
            "method": f"two-way bootstrap (galleries and templates), {n_bootstrap} replicates",
            "verdict": verdict(low, high)}


def matched_comparisons(predictions: pd.DataFrame, rankers: Sequence[str], *, seed: int,
                        n_bootstrap: int = N_BOOTSTRAP, level: float = 0.95) -> pd.DataFrame:
    """The gain of a second indexed description (two − one, pp) of each ranker on the matched study's
    identical queries, with its two-way interval over the matched galleries and the queried descriptions
    (both conditions share every replicate's draws). ``predictions``: a matched study's per-query
    predictions (every trial). Returns :data:`COMPARISON_COLUMNS` with ``a`` and ``b`` the ranker."""
    pq = pd.concat([per_query_from_predictions(predictions, c).assign(ranker=lambda f, c=c: f["ranker"] + "@" + c)
                    for c in ("matched_two", "matched_one")], ignore_index=True)
    table = ranker_comparisons(pq, [(f"{r}@matched_two", f"{r}@matched_one") for r in rankers], seed=seed,
                               n_bootstrap=n_bootstrap, level=level)
    return table.assign(a=list(rankers), b=list(rankers))


def gain_differences(predictions: pd.DataFrame, pairs: Sequence[tuple[str, str]], *, seed: int,
                     n_bootstrap: int = N_BOOTSTRAP, level: float = 0.95) -> pd.DataFrame:
    """For each pair (A, B): A's gain from a second indexed description minus B's (pp), on the matched study's
    identical queries, with its two-way interval (every replicate resamples the matched galleries and the
    queried descriptions once for all four arms). Returns :data:`COMPARISON_COLUMNS`."""
    pq = pd.concat([per_query_from_predictions(predictions, c).assign(ranker=lambda f, c=c: f["ranker"] + "@" + c)
                    for c in ("matched_two", "matched_one")], ignore_index=True)
    pq = check_per_query(pq)
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    arms = {f"{r}@{c}" for pair in pairs for r in pair for c in ("matched_two", "matched_one")}
    reps = _replicates(pq, sorted(arms), n_bootstrap, seed)

    def gain(r: str, part: str) -> np.ndarray:
        return getattr(reps[f"{r}@matched_two"], part) - getattr(reps[f"{r}@matched_one"], part)

    rows = []
    for a, b in pairs:
        low, high = (100 * x for x in percentile_interval(gain(a, "means") - gain(b, "means"), level))
        diff = 100 * float(np.mean(gain(a, "per_gallery") - gain(b, "per_gallery")))
        first = reps[f"{a}@matched_two"]
        rows.append({"a": a, "b": b, "difference": diff, "low": low, "high": high,
                     "n_galleries": len(first.per_gallery), "n_descriptions": first.n_descriptions,
                     "method": method(n_bootstrap), "verdict": verdict(low, high)})
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def contrast(per_query: pd.DataFrame | ArmOutcomes, weights: dict[str, float], *, seed: int,
             n_bootstrap: int = N_BOOTSTRAP, level: float = 0.95) -> dict[str, object]:
    """A linear contrast Σ w·accuracy of several arms scored on the same galleries and descriptions (pp), with
    its two-way bootstrap interval: every replicate resamples the descriptions within their task and the
    galleries once for all arms (the arms of ``per_query`` share its description ids), and the contrast is
    recomputed on the replicate's means.

    A gain from k = 1 to k = 8 is ``{"char@8": 1, "char@1": -1}``; a leader's lead at one k is
    ``{"char@4": 1, "bm25@4": -1}``; a least-squares slope over library sizes is :func:`slope_weights`. The
    ``trial`` column pairs the arms (a gallery, or a series of draws over sizes). Each arm's replicate means
    are cached as :func:`ranker_comparisons` caches a ranker's. Pass :func:`arm_outcomes` of the frame when
    many contrasts read one study.

    Returns ``difference``, ``low``, ``high``, ``n_galleries``, ``n_descriptions``, ``method``, ``verdict``.
    """
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    if not weights:
        raise RobotaskError("contrast: no arms given")
    found = per_query if isinstance(per_query, ArmOutcomes) else arm_outcomes(per_query)
    missing = [arm for arm in weights if arm not in found.matrices]
    if missing:
        raise RobotaskError(f"per-query results: no rows for {', '.join(missing)}; present: "
                            f"{', '.join(sorted(found.matrices))}")
    reps = {arm: _replicates_of(found.matrices[arm], arm, n_bootstrap, seed, found.draws) for arm in weights}
    means = sum(w * reps[arm].means for arm, w in weights.items())
    point = sum(w * float(np.nanmean(reps[arm].per_gallery)) for arm, w in weights.items())
    low, high = (100 * x for x in percentile_interval(np.asarray(means, dtype=np.float64), level))
    first = reps[next(iter(weights))]
    return {"difference": 100 * point, "low": low, "high": high, "n_galleries": len(first.per_gallery),
            "n_descriptions": first.n_descriptions, "method": method(n_bootstrap), "verdict": verdict(low, high)}


def slope_weights(arms: dict[str, float]) -> dict[str, float]:
    """The weights that make :func:`contrast` the least-squares slope of accuracy against log2 x, ``arms``
    mapping each arm to its x (a library size): slope = Σ (u − ū) · accuracy / Σ (u − ū)², u = log2 x."""
    if len(set(arms.values())) < 2:
        raise RobotaskError("a slope needs arms at two sizes at least")
    u = {arm: float(np.log2(x)) for arm, x in arms.items()}
    centre = float(np.mean(list(u.values())))
    ss = sum((v - centre) ** 2 for v in u.values())
    return {arm: (v - centre) / ss for arm, v in u.items()}


def macro_micro_comparison(per_query: pd.DataFrame | ArmOutcomes, ranker: str, *, seed: int,
                           n_bootstrap: int = N_BOOTSTRAP, level: float = 0.95) -> dict[str, object]:
    """Macro − micro top-1 accuracy of one ranker (pp): the task-averaged accuracy of each gallery minus its
    query-weighted accuracy, averaged over galleries, with its two-way interval: every replicate resamples the
    descriptions within their task and the galleries (the draws of :func:`ranker_comparisons`, so its micro
    replicates are that ranker's) and recomputes both averages. Returns ``micro``, ``macro`` (%) and the
    fields of :func:`contrast`."""
    n_bootstrap = check_count("n_bootstrap", n_bootstrap)
    found = per_query if isinstance(per_query, ArmOutcomes) else arm_outcomes(per_query)
    if ranker not in found.matrices:
        raise RobotaskError(f"per-query results: ranker {ranker!r} has no rows; present: {sorted(found.matrices)}")
    mat = found.matrices[ranker]
    if (n_bootstrap, seed) not in found.draws:  # the draws of every arm of the study (see _replicates_of)
        rng = np.random.default_rng(seed)
        found.draws[(n_bootstrap, seed)] = (description_weights(mat.tasks, n_bootstrap, rng),
                                            trial_weights(len(mat.trials), n_bootstrap, rng))
    w_desc, w_trial = found.draws[(n_bootstrap, seed)]
    present = (~np.isnan(mat.values)).astype(np.float64)
    hits = np.nan_to_num(mat.values)
    micro = replicate_means(hits, w_desc @ present.T, w_desc, w_trial)
    task_acc, gallery_acc = [], []
    for task in np.unique(mat.tasks):
        cols = mat.tasks == task
        num, den = w_desc[:, cols] @ hits[:, cols].T, w_desc[:, cols] @ present[:, cols].T
        task_acc.append(np.divide(num, den, out=np.full_like(num, np.nan), where=den > 0))
        n = present[:, cols].sum(axis=1)
        gallery_acc.append(np.divide(hits[:, cols].sum(axis=1), n, out=np.full_like(n, np.nan), where=n > 0))
    acc = np.nanmean(np.stack(task_acc), axis=0)  # (B, n_galleries): each gallery's macro accuracy
    keep = np.where(np.isnan(acc), 0.0, w_trial)
    macro = (np.nan_to_num(acc) * keep).sum(axis=1) / keep.sum(axis=1)
    per_macro = np.nanmean(np.stack(gallery_acc), axis=0)
    per_micro = np.nanmean(mat.values, axis=1)
    low, high = (100 * x for x in percentile_interval(macro - micro, level))
    return {"micro": 100 * float(np.mean(per_micro)), "macro": 100 * float(np.mean(per_macro)),
            "difference": 100 * float(np.mean(per_macro - per_micro)), "low": low, "high": high,
            "n_galleries": len(mat.trials), "n_descriptions": len(mat.query_ids), "method": method(n_bootstrap),
            "verdict": verdict(low, high)}
