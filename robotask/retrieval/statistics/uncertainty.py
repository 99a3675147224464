"""Paired tests between rankers: sign test, sign-flip permutation test, Holm, and ordering verdicts.

Used by notebook ``07_uncertainty`` (and ``06_sentence_embeddings`` / ``08_perturbations`` for
paired comparisons). Inputs are the per-query outcomes of :mod:`robotask.retrieval.statistics.bootstrap`,
whose bootstrap gives the paired intervals.

Paired tests over trials: an exact or Monte Carlo sign-flip permutation test of the mean
per-trial difference, and an exact two-sided sign test on wins and losses (ties dropped).
Both treat the galleries as the random unit given this corpus; the bootstrap also reflects the
finite set of descriptions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ...words import UNRESOLVED, verdict
from .bootstrap import bootstrap_replicates, check_count, check_per_query, percentile_interval, trial_accuracy

EXACT_LIMIT = 16  # enumerate all 2**n sign patterns up to this many non-zero differences


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided sign test: P-value of ``wins`` vs ``losses`` under Binomial(n, 1/2), ties dropped.

    ``p = min(1, 2 · P(X ≤ min(wins, losses)))`` with ``n = wins + losses``; ``p = 1`` when n = 0.
    """
    wins, losses = check_count("wins", wins, 0), check_count("losses", losses, 0)
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return float(min(1.0, 2 * tail))


def paired_permutation_test(diffs: Iterable[float], n_permutations: int = 20000, seed: int = 0) -> float:
    """Two-sided sign-flip permutation test of the mean paired difference.

    Under the null hypothesis each per-trial difference is symmetric about zero, so its sign is
    exchangeable. With at most ``EXACT_LIMIT`` non-zero differences all ``2**n`` sign patterns are
    enumerated and the exact P-value is returned; otherwise ``n_permutations`` random patterns give
    ``(1 + #{|mean*| ≥ |mean|}) / (1 + n_permutations)``. Zero differences do not change any
    pattern's mean and are kept in the denominator.

    Parameters
    ----------
    diffs : iterable of float
        Per-trial differences (A − B).
    n_permutations : int
        Monte Carlo patterns when exact enumeration is too large.
    seed : int
        Seed of the Monte Carlo patterns.
    """
    d = np.asarray(list(diffs), dtype=np.float64)
    if d.size == 0:
        raise RobotaskError("paired_permutation_test: expected at least one difference")
    observed = abs(d.mean())
    tol = 1e-12 * max(1.0, np.abs(d).max())
    nz = d[np.abs(d) > 0]
    if nz.size == 0:
        return 1.0
    if nz.size <= EXACT_LIMIT:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=nz.size)))
        means = np.abs(signs @ nz) / d.size
        return float(np.mean(means >= observed - tol))
    n_permutations = check_count("n_permutations", n_permutations)
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, n_permutations, 4096):
        m = min(4096, n_permutations - start)
        signs = rng.choice((1.0, -1.0), size=(m, nz.size))
        hits += int((np.abs(signs @ nz) / d.size >= observed - tol).sum())
    return (1 + hits) / (1 + n_permutations)


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm–Bonferroni adjusted P-values (same order as the input)."""
    p = np.asarray(pvalues, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    m = len(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, idx in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[idx]))
        adjusted[idx] = running
    return adjusted


def paired_comparisons(per_query: pd.DataFrame, pairs: Sequence[tuple[str, str]], n_bootstrap: int,
                       seed: int, n_permutations: int = 20000, level: float = 0.95,
                       replicates: pd.DataFrame | None = None) -> pd.DataFrame:
    """Paired comparison A − B for each pair: difference, wins/ties/losses, tests and interval.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Per-query outcomes.
    pairs : sequence of (str, str)
        Ranker pairs (A, B); the difference is A − B.
    n_bootstrap, seed, n_permutations : int
        Bootstrap replicates, seed, Monte Carlo permutations.
    level : float
        Interval coverage.
    replicates : pandas.DataFrame, optional
        Precomputed ``scheme="both"`` replicates (from :func:`bootstrap_replicates`) to reuse.

    Returns
    -------
    pandas.DataFrame
        ``a, b, mean_diff, lo, hi`` (percentage points), ``wins, ties, losses``, ``p_sign``,
        ``p_perm`` and ``p_perm_holm`` (Holm over the listed pairs).
    """
    per_query = check_per_query(per_query)
    acc = trial_accuracy(per_query)
    names = sorted({r for pair in pairs for r in pair})
    reps = replicates if replicates is not None else bootstrap_replicates(per_query, names, n_bootstrap, seed)
    rows = []
    for a, b in pairs:
        d = (acc[a] - acc[b]).to_numpy()
        d = np.where(np.abs(d) < 1e-12, 0.0, d)
        wins, ties, losses = int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())
        lo, hi = percentile_interval((reps[a] - reps[b]).to_numpy(), level)
        rows.append({"a": a, "b": b, "mean_diff": 100 * d.mean(), "lo": 100 * lo, "hi": 100 * hi,
                     "wins": wins, "ties": ties, "losses": losses, "p_sign": sign_test(wins, losses),
                     "p_perm": paired_permutation_test(d, n_permutations, seed)})
    out = pd.DataFrame(rows)
    out["p_perm_holm"] = holm(out["p_perm"].to_numpy()) if len(out) else []
    return out


def all_pairs(rankers: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pair of rankers, in the given order."""
    return list(itertools.combinations(rankers, 2))


def pairs_among(pairs: Iterable[tuple[str, str]], rankers: Iterable[str]) -> list[tuple[str, str]]:
    """The ``pairs`` whose two rankers are both among ``rankers`` (those that ran), in the given order."""
    ran = set(rankers)
    return [(a, b) for a, b in pairs if a in ran and b in ran]


def ordering_verdicts(comparisons: pd.DataFrame, claims: Sequence[tuple[str, str]],
                      alpha: float = 0.05) -> pd.DataFrame:
    """Judge claims "A is more accurate than B" against paired comparisons.

    A claim is *supported* when the Holm-adjusted permutation P-value is below ``alpha`` and the
    bootstrap interval of A − B lies entirely above zero; *contradicted* when the same holds in the
    opposite direction; otherwise *not resolved*.

    Parameters
    ----------
    comparisons : pandas.DataFrame
        Output of :func:`paired_comparisons` (either orientation of each claimed pair must be present).
    claims : sequence of (str, str)
        Claimed orderings (better, worse).
    alpha : float
        Family-wise level.
    """
    rows = []
    for better, worse in claims:
        hit = comparisons[(comparisons["a"] == better) & (comparisons["b"] == worse)]
        sign = 1.0
        if hit.empty:
            hit = comparisons[(comparisons["a"] == worse) & (comparisons["b"] == better)]
            sign = -1.0
        if hit.empty:
            raise RobotaskError(f"ordering claim {better} > {worse}: that pair was not compared")
        row = hit.iloc[0]
        diff = sign * row["mean_diff"]
        lo, hi = sorted((sign * row["lo"], sign * row["hi"]))
        wins, losses = (row["wins"], row["losses"]) if sign > 0 else (row["losses"], row["wins"])
        # the book's rule (robotask.words) reads the interval; the Holm-adjusted test must agree
        word = verdict(lo, hi, above="supported", below="contradicted")
        if not row["p_perm_holm"] < alpha:
            word = UNRESOLVED
        rows.append({"claim": f"{better} > {worse}", "mean_diff": diff, "lo": lo, "hi": hi,
                     "wins": int(wins), "ties": int(row["ties"]), "losses": int(losses),
                     "p_perm_holm": row["p_perm_holm"], "p_sign": row["p_sign"], "verdict": word})
    return pd.DataFrame(rows)


def paper_orderings(means: dict[str, float], rankers: Sequence[str]) -> list[tuple[str, str]]:
    """Every ordering "A > B" implied by the paper's mean accuracies, among ``rankers``.

    Parameters
    ----------
    means : dict
        Ranker → paper mean accuracy (``robotask.retrieval.reproduction.paper.TABLE2``); rankers without a paper
        mean are skipped.
    rankers : sequence of str
        Rankers that were run.
    """
    named = [r for r in rankers if r in means]
    return [(a, b) if means[a] > means[b] else (b, a)
            for a, b in itertools.combinations(named, 2) if means[a] != means[b]]


def format_p(frame: pd.DataFrame, columns: Sequence[str] = ("p_sign", "p_perm", "p_perm_holm")) -> pd.DataFrame:
    """Copy of ``frame`` with its P-value columns as text with two significant digits (e.g. ``1.3e-22``)."""
    out = frame.copy()
    for c in columns:
        if c in out.columns:
            out[c] = [f"{v:.2g}" for v in out[c]]
    return out
