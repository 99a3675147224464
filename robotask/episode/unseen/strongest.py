"""The strongest baseline of a task in chapter 14, as the task pages pick theirs (``report.head_intervals``).

Each fold (draw) scores the trivial baseline and the informed ones (``tasks.baselines.informed_baselines``,
rows of the long table named by their display name) on the task's deciding metric (its primary metric,
accuracy on a pair task). :func:`strongest_of` picks the one with the best mean over the units every baseline
scored, the trivial one on a tie: picked on the test parts themselves, so a head must beat the best of them
there. Values are indexed by their unit (:func:`by_unit`) and oriented by the metric's sense of better.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..report.head_intervals import deciding_metric, higher_is_better
from ..tasks.registry import TASKS
from .design import MODEL_HEADS


def sign(task: str) -> float:
    """+1 when the task's primary metric is better higher, −1 for an error."""
    return 1.0 if TASKS[task].higher_is_better else -1.0


def by_unit(g: pd.DataFrame, column: str = "value") -> pd.Series:
    """Values (or another column) indexed by their unit: (repeat, fold) of a fold, (partition, group) of a
    shift's random side."""
    draw = g["draw"].fillna(0).astype(int).to_numpy() if "draw" in g else np.zeros(len(g), dtype=int)
    return pd.Series(g[column].astype(float).to_numpy(),
                     index=pd.MultiIndex.from_arrays([draw, g["fold"].to_numpy()], names=["draw", "fold"]))


def deciding_sign(task: str) -> float:
    """+1 when the task's deciding metric (accuracy on a pair task, else the primary) is better higher."""
    return 1.0 if higher_is_better(task, deciding_metric(task)) else -1.0


def strongest_of(d: pd.DataFrame, unit: str = "fold") -> tuple[str, pd.Series]:
    """The strongest baseline among ``d``'s rows of one task (the trivial ``baseline`` and the informed ones,
    by display name; the heads' rows are ignored): the best mean of the deciding metric over the units that
    every baseline scored, the trivial one on a tie (as the task pages pick theirs, on the test parts
    themselves); its name and its deciding values by unit (``unit``: "fold", or "draw" alone)."""
    base = d[~d["head"].isin(MODEL_HEADS)]
    if "deciding" not in base or base.empty:
        return "baseline", pd.Series(dtype=float)

    def values(g: pd.DataFrame) -> pd.Series:
        return g.set_index("draw")["deciding"].astype(float) if unit == "draw" else by_unit(g, "deciding")

    by = {h: values(g) for h, g in base.groupby("head", sort=False)}
    common = pd.concat(list(by.values()), axis=1, join="inner").dropna().index
    better = deciding_sign(str(d["task"].iloc[0]))
    means = {h: better * float(v.loc[common].mean()) if len(common) else -np.inf for h, v in by.items()}
    name = max(["baseline", *[h for h in by if h != "baseline"]], key=lambda h: means.get(h, -np.inf))
    return name, by.get(name, pd.Series(dtype=float))


def strongest_name(name: str) -> str:
    """A strongest baseline's name as the page writes it: the trivial one's row is ``baseline``."""
    return "the trivial baseline" if name == "baseline" else name


def with_deciding(d: pd.DataFrame) -> pd.DataFrame:
    """``d`` with its ``deciding`` column (a table without one: the primary metric decides)."""
    return d if "deciding" in d else d.assign(deciding=d["value"])


def mean_of(v: pd.Series) -> float:
    """The mean of ``v``'s finite values (NaN when there is none)."""
    return float(v.mean()) if v.notna().any() else np.nan


