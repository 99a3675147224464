"""The policy's success when a ranker retrieves the paraphrase's task against when it misses.

For one ranker in one gallery, each paraphrase is *retrieved* (the ranker's top task is its own) or *missed*,
and the policy's logged episode *succeeded* or not. :func:`associations` gives, per gallery and ranker, four
numbers and the gap within each ``high`` type:

* success when retrieved and success when missed (%), and their **gap** (the risk difference, in points);
* the **odds ratio** of success, retrieved against missed;
* the **Mantel–Haenszel** risk difference and odds ratio *within task* (each task a stratum): a task that is
  both hard for the policy and hard to retrieve cannot make the association by itself.

Every one is computed on every row of the chapter's :class:`~.resampling.Design` (the data, its jackknife over
tasks and the replicates), so the intervals come from the same replicates; odds ratios are studentised on the
log scale. A stratum counts with its weights; a cell with no weight gives NaN for that row, left out of the
interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .paraphrases import HIGH_TYPES
from .placements import Placements
from .resampling import Design, Interval, weighted_sums

MEASURES = ("success_retrieved", "success_missed", "gap", "odds_ratio", "mh_gap", "mh_odds_ratio")
RATIOS = ("odds_ratio", "mh_odds_ratio")
SHARES = ("success_retrieved", "success_missed")


def _indicators(retrieved: np.ndarray, success: np.ndarray) -> np.ndarray:
    """(n, 4): each row's membership of the cells a (retrieved, success), b (retrieved, failure), c (missed,
    success), d (missed, failure)."""
    r, s = np.asarray(retrieved, dtype=np.float64), np.asarray(success, dtype=np.float64)
    return np.stack([r * s, r * (1 - s), (1 - r) * s, (1 - r) * (1 - s)], axis=1)


def _cells(weights: Design | np.ndarray, retrieved: np.ndarray, success: np.ndarray) -> tuple[np.ndarray, ...]:
    """Weighted counts a, b, c, d (:func:`_indicators`) per row of ``weights``, in one pass over them."""
    counts = weighted_sums(weights, _indicators(retrieved, success))
    return counts[:, 0], counts[:, 1], counts[:, 2], counts[:, 3]


def _from_cells(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> dict[str, np.ndarray]:
    hit, miss = _ratio(a, a + b), _ratio(c, c + d)
    return {"success_retrieved": 100 * hit, "success_missed": 100 * miss, "gap": 100 * (hit - miss),
            "odds_ratio": _ratio(a * d, b * c)}


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def crude(weights: Design | np.ndarray, retrieved: np.ndarray, success: np.ndarray) -> dict[str, np.ndarray]:
    """Per row of ``weights`` (a :class:`~.resampling.Design` or dense weights): success when retrieved and
    missed (%), their gap (points), the odds ratio."""
    return _from_cells(*_cells(weights, retrieved, success))


def mantel_haenszel(weights: Design | np.ndarray, retrieved: np.ndarray, success: np.ndarray,
                    strata: np.ndarray) -> dict[str, np.ndarray]:
    """Per replicate: the Mantel–Haenszel risk difference (points) and odds ratio over ``strata``."""
    _, index = np.unique(np.asarray(strata), return_inverse=True)
    onehot = np.eye(index.max() + 1)[index]  # (n, K)
    cells = _indicators(retrieved, success)  # (n, 4)
    counts = weighted_sums(weights, (cells[:, :, None] * onehot[:, None, :]).reshape(len(index), -1))  # (rows, 4K)
    a, b, c, d = (counts[:, j * onehot.shape[1]:(j + 1) * onehot.shape[1]] for j in range(4))
    n1, n0 = a + b, c + d
    n = n1 + n0
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(n > 0, n1 * n0 / np.where(n > 0, n, 1), 0.0)
        rd = np.where(w > 0, a / np.where(n1 > 0, n1, 1) - c / np.where(n0 > 0, n0, 1), 0.0)
        inv_n = np.where(n > 0, 1 / np.where(n > 0, n, 1), 0.0)
    return {"mh_gap": 100 * _ratio((w * rd).sum(axis=1), w.sum(axis=1)),
            "mh_odds_ratio": _ratio((a * d * inv_n).sum(axis=1), (b * c * inv_n).sum(axis=1))}


def association_measures(design: Design, retrieved: np.ndarray, success: np.ndarray,
                         strata: np.ndarray) -> dict[str, Interval]:
    """Every measure of :data:`MEASURES` with its studentised interval over ``design``'s rows."""
    reps = {**crude(design, retrieved, success), **mantel_haenszel(design, retrieved, success, strata)}
    return {m: design.interval(reps[m], log=m in RATIOS, bounds=None if m in RATIOS else bounds(m))
            for m in MEASURES}


def bounds(measure: str) -> tuple[float, float]:
    """The range a share (0 to 100 %) or a gap (−100 to 100 points) can take; an interval is clipped to it."""
    return (0.0, 100.0) if measure in SHARES else (-100.0, 100.0)


def gap_by_type(design: Design, retrieved: np.ndarray, success: np.ndarray,
                masks: dict[str, np.ndarray]) -> dict[str, Interval]:
    """The gap (points) among the paraphrases of each type (``name → mask``), with its interval."""
    cells = _indicators(retrieved, success)
    stacked = np.concatenate([cells * np.asarray(mask, dtype=np.float64)[:, None] for mask in masks.values()],
                             axis=1)
    counts = design.sums(stacked)  # one pass for every type: (rows, 4 per type)
    return {name: design.interval(_from_cells(*(counts[:, 4 * j + k] for k in range(4)))["gap"],
                                  bounds=bounds("gap")) for j, name in enumerate(masks)}


def associations(paraphrases: pd.DataFrame, placements: Placements, design: Design) -> pd.DataFrame:
    """Per gallery and ranker, every measure of :data:`MEASURES` and the gap within each ``high`` type
    (``gap:act``, …) with its interval: columns gallery, ranker, measure, estimate, low, high."""
    success, tasks = paraphrases["success"].to_numpy(), paraphrases["task"].to_numpy()
    masks = {t: (paraphrases["high"] == t).to_numpy() for t in HIGH_TYPES}
    rows = []
    for gallery, ranker in placements.keys:
        correct = placements.column(gallery, ranker, "correct")
        found = association_measures(design, correct, success, tasks)
        found.update({f"gap:{t}": iv for t, iv in gap_by_type(design, correct, success, masks).items()})
        rows.extend(dict(gallery=gallery, ranker=ranker, measure=m, **iv.as_dict()) for m, iv in found.items())
    return pd.DataFrame(rows)
