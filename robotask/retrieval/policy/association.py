"""The policy's success when a ranker retrieves the paraphrase's task against when it misses.

For one ranker in one gallery, each paraphrase is *retrieved* (the ranker's top task is its own) or *missed*,
and the policy's logged episode *succeeded* or not. :func:`associations` gives, per gallery and ranker, four
numbers and the gap within each ``high`` type:

* success when retrieved and success when missed (%), and their **gap** (the risk difference, in points);
* the **odds ratio** of success, retrieved against missed;
* the **Mantel–Haenszel** risk difference and odds ratio *within task* (each task a stratum): a task that is
  both hard for the policy and hard to retrieve cannot make the association by itself.

Every one is computed on the replicate weights of :mod:`.resampling` as on the data (weights all 1), so the
intervals come from the same replicates. A stratum counts with its weights; a cell with no weight gives NaN
for that replicate, left out of the interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .paraphrases import HIGH_TYPES
from .placements import Placements
from .resampling import Interval, interval

MEASURES = ("success_retrieved", "success_missed", "gap", "odds_ratio", "mh_gap", "mh_odds_ratio")


def _cells(weights: np.ndarray, retrieved: np.ndarray, success: np.ndarray) -> tuple[np.ndarray, ...]:
    """Weighted counts a (retrieved, success), b (retrieved, failure), c (missed, success), d (missed, failure)."""
    r, s = np.asarray(retrieved, dtype=np.float64), np.asarray(success, dtype=np.float64)
    return (weights @ (r * s), weights @ (r * (1 - s)), weights @ ((1 - r) * s), weights @ ((1 - r) * (1 - s)))


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def crude(weights: np.ndarray, retrieved: np.ndarray, success: np.ndarray) -> dict[str, np.ndarray]:
    """Per replicate: success when retrieved and missed (%), their gap (points), the odds ratio."""
    a, b, c, d = _cells(weights, retrieved, success)
    hit, miss = _ratio(a, a + b), _ratio(c, c + d)
    return {"success_retrieved": 100 * hit, "success_missed": 100 * miss, "gap": 100 * (hit - miss),
            "odds_ratio": _ratio(a * d, b * c)}


def mantel_haenszel(weights: np.ndarray, retrieved: np.ndarray, success: np.ndarray,
                    strata: np.ndarray) -> dict[str, np.ndarray]:
    """Per replicate: the Mantel–Haenszel risk difference (points) and odds ratio over ``strata``."""
    _, index = np.unique(np.asarray(strata), return_inverse=True)
    onehot = np.eye(index.max() + 1)[index]  # (n, K)
    r, s = np.asarray(retrieved, dtype=np.float64), np.asarray(success, dtype=np.float64)
    a = weights @ (onehot * (r * s)[:, None])
    b = weights @ (onehot * (r * (1 - s))[:, None])
    c = weights @ (onehot * ((1 - r) * s)[:, None])
    d = weights @ (onehot * ((1 - r) * (1 - s))[:, None])
    n1, n0 = a + b, c + d
    n = n1 + n0
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(n > 0, n1 * n0 / np.where(n > 0, n, 1), 0.0)
        rd = np.where(w > 0, a / np.where(n1 > 0, n1, 1) - c / np.where(n0 > 0, n0, 1), 0.0)
        inv_n = np.where(n > 0, 1 / np.where(n > 0, n, 1), 0.0)
    return {"mh_gap": 100 * _ratio((w * rd).sum(axis=1), w.sum(axis=1)),
            "mh_odds_ratio": _ratio((a * d * inv_n).sum(axis=1), (b * c * inv_n).sum(axis=1))}


def association_measures(weights: np.ndarray, retrieved: np.ndarray, success: np.ndarray,
                strata: np.ndarray) -> dict[str, Interval]:
    """Every measure of :data:`MEASURES` with its interval; ``weights`` are the replicates."""
    ones = np.ones((1, len(retrieved)))
    point = {**crude(ones, retrieved, success), **mantel_haenszel(ones, retrieved, success, strata)}
    reps = {**crude(weights, retrieved, success), **mantel_haenszel(weights, retrieved, success, strata)}
    return {m: interval(float(point[m][0]), reps[m]) for m in MEASURES}


def gap_by_type(weights: np.ndarray, retrieved: np.ndarray, success: np.ndarray,
                masks: dict[str, np.ndarray]) -> dict[str, Interval]:
    """The gap (points) among the paraphrases of each type (``name → mask``), with its interval."""
    r, s = np.asarray(retrieved), np.asarray(success)
    out = {}
    for name, mask in masks.items():
        point = crude(np.ones((1, int(mask.sum()))), r[mask], s[mask])["gap"][0]
        out[name] = interval(float(point), crude(weights[:, mask], r[mask], s[mask])["gap"])
    return out


def associations(paraphrases: pd.DataFrame, placements: Placements, weights: np.ndarray) -> pd.DataFrame:
    """Per gallery and ranker, every measure of :data:`MEASURES` and the gap within each ``high`` type
    (``gap:act``, …) with its interval: columns gallery, ranker, measure, estimate, low, high."""
    success, tasks = paraphrases["success"].to_numpy(), paraphrases["task"].to_numpy()
    masks = {t: (paraphrases["high"] == t).to_numpy() for t in HIGH_TYPES}
    rows = []
    for gallery, ranker in placements.keys:
        correct = placements.column(gallery, ranker, "correct")
        found = association_measures(weights, correct, success, tasks)
        found.update({f"gap:{t}": iv for t, iv in gap_by_type(weights, correct, success, masks).items()})
        rows.extend(dict(gallery=gallery, ranker=ranker, measure=m, **iv.as_dict()) for m, iv in found.items())
    return pd.DataFrame(rows)
