"""Which ranker a perturbation moves most, decided by a paired interval (chapter ``08_perturbations``).

"The largest drop is MiniLM's" is a comparison of two changes, not of each change with zero: the page names
a leader only when the interval of the difference between the leader and the runner-up (by the point values)
excludes zero, and says "not resolved" otherwise. Both changes are read on the same bootstrap replicates as
the perturbation table (:func:`robotask.retrieval.perturbations.robustness_stats.replicate_arms`: galleries
and descriptions within tasks resampled together), so the difference is paired.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...words import verdict
from ..statistics import percentile_interval
from .robustness_stats import paired_outcomes, replicate_arms

UNIT = "galleries and descriptions"
METHOD = "paired percentile bootstrap, galleries and descriptions within tasks resampled together"
MEASURES = {"size": "largest change in size", "change": "largest rise", "perturbed": "highest accuracy after"}


def _value(row: pd.Series, measure: str) -> float:
    return abs(row["change"]) if measure == "size" else row[measure]


def _replicates(reps: dict, pair: tuple[str, str], measure: str, sign: float) -> np.ndarray:
    arms = reps[pair]
    if measure == "perturbed":
        return arms["perturbed"]
    change = arms["perturbed"] - arms["original"]
    return sign * change if measure == "size" else change


def leader_comparisons(per_query: pd.DataFrame, table: pd.DataFrame, asked: list[tuple[str, str]],
                       n_bootstrap: int, seed: int) -> pd.DataFrame:
    """The leader against the runner-up for each ``(perturbation, measure)`` in ``asked``.

    ``measure``: ``size`` (the change largest in size, a drop or a rise), ``change`` (the largest rise) or
    ``perturbed`` (the highest accuracy after the perturbation). Returns ``perturbation, measure, a, b,
    value_a, value_b, difference, low, high, verdict, n_units`` (A the leader by its point value, B the
    runner-up; the difference and its interval in pp; ``verdict`` "higher" when the leader is resolved).
    A perturbation with fewer than two rankers is left out.
    """
    reps = replicate_arms(paired_outcomes(per_query), n_bootstrap, seed)
    n_units = int(per_query["trial"].nunique())
    rows = []
    for pert, measure in asked:
        sub = table[table["perturbation"] == pert].set_index("ranker")
        if len(sub) < 2:
            continue
        order = sorted(sub.index, key=lambda r: -_value(sub.loc[r], measure))
        a, b = order[0], order[1]
        rep = (_replicates(reps, (a, pert), measure, np.sign(sub.loc[a, "change"]))
               - _replicates(reps, (b, pert), measure, np.sign(sub.loc[b, "change"])))
        low, high = percentile_interval(rep)
        value_a, value_b = _value(sub.loc[a], measure), _value(sub.loc[b], measure)
        rows.append({"perturbation": pert, "measure": measure, "a": a, "b": b, "value_a": value_a,
                     "value_b": value_b, "difference": value_a - value_b, "low": low, "high": high,
                     "verdict": verdict(low, high), "n_units": n_units})
    return pd.DataFrame(rows, columns=["perturbation", "measure", "a", "b", "value_a", "value_b", "difference",
                                       "low", "high", "verdict", "n_units"])


def leader_phrase(row: pd.Series | None, label: dict[str, str]) -> str:
    """What a leader comparison lets the page say: "MiniLM, ahead of BM25 by 4.2 pp (95 % interval …)" when
    resolved, else "not resolved between MiniLM and MiniLM+Char (…)"; a dash when it did not run."""
    if row is None:
        return "—"
    a, b = label.get(row["a"], row["a"]), label.get(row["b"], row["b"])
    interval = f"95 % interval {_pp(row['low'])} to {_pp(row['high'])} pp"
    if row["verdict"] == "higher":
        return f"{a}, ahead of {b} by {_pp(row['difference'])} pp ({interval})"
    return (f"not resolved between {a} and {b} (their difference, {_pp(row['difference'])} pp, {interval}, "
            "includes zero)")


def _pp(x: float) -> str:
    from ...words import pp

    return pp(x, unit="")


def chapter_verdicts(chapter: str, table: pd.DataFrame, leaders: pd.DataFrame, data: str, n: int) -> pd.DataFrame:
    """The chapter's ``verdicts.csv``: every change (perturbed − original) of the table, over ``n`` galleries,
    and every leader comparison, as :func:`robotask.words.verdict_row` rows."""
    from ...words import VERDICT_COLUMNS, verdict_row

    rows = [verdict_row(chapter=chapter, claim=f"{r.perturbation.replace('_', ' ')} changes {r.ranker}",
                        a=f"{r.ranker}, {r.perturbation}", b=f"{r.ranker}, original", data=data,
                        metric="top-1 accuracy (%)", difference=r.change, low=r.lo, high=r.hi, unit=UNIT,
                        n_units=n, method=METHOD) for r in table.itertuples()]
    rows += [verdict_row(chapter=chapter, claim=f"{MEASURES[r.measure]} under {r.perturbation.replace('_', ' ')}",
                         a=f"{r.a}, {r.perturbation}", b=f"{r.b}, {r.perturbation}", data=data,
                         metric=f"top-1 accuracy (%): {MEASURES[r.measure]}", difference=r.difference, low=r.low,
                         high=r.high, unit=UNIT, n_units=r.n_units, method=METHOD) for r in leaders.itertuples()]
    return pd.DataFrame(rows, columns=list(VERDICT_COLUMNS))
