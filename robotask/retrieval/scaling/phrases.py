"""Short data-dependent phrases for the libraries chapter (each tested in ``tests/test_scaling.py``)."""

from __future__ import annotations

import math

import pandas as pd

from ...words import join
from ..rankers.registry import RANKERS


def _label(ranker: str) -> str:
    return RANKERS[ranker].label if ranker in RANKERS else ranker


def order_change(orders: dict[int, list[str]]) -> str:
    """'does not change' when every k has the same best ranker, else 'changes'."""
    leaders = {order[0] for order in orders.values() if order}
    return "does not change" if len(leaders) <= 1 else "changes"


def leader(means: dict[str, float]) -> str:
    """The ranker with the highest mean (ties by name)."""
    return min(means, key=lambda r: (-means[r], r))


def leaders_by(orders: dict[int, list[str]], name: str = "k") -> str:
    """The leading ranker over runs of x: "Word+Char at k = 1, Char TF-IDF at k = 2–32"."""
    runs: list[list] = []
    for x in sorted(orders):
        top = orders[x][0]
        if runs and runs[-1][0] == top:
            runs[-1][2] = x
        else:
            runs.append([top, x, x])
    return ", ".join(f"{_label(t)} at {name} = {a}" + (f"–{b}" if b != a else "") for t, a, b in runs)


def direction(change: float, up: str, down: str, flat: str, tolerance: float = 0.5) -> str:
    """``up``, ``down`` or ``flat`` as ``change`` (points) is above ``tolerance``, below minus it, or within."""
    return up if change > tolerance else down if change < -tolerance else flat


def budget_effect(mean: float, lo: float, hi: float) -> str:
    """What more wordings do, judged by the band of the paired gain: 'helps', 'hurts' or 'makes no clear
    difference' (the band includes zero)."""
    return "helps" if lo > 0 else "hurts" if hi < 0 else "makes no clear difference"


def share_phrase(fraction: float) -> str:
    """'most' (at least half) or 'less than half' of something (``fraction`` 0–1)."""
    return "most" if fraction >= 0.5 else "less than half"


def span(values: pd.Series | list[int]) -> str:
    """ "k = 2" or "k = 2 to 8": the range of integer values (e.g. the k of 90 % of the plateau)."""
    lo, hi = int(min(values)), int(max(values))
    return f"k = {lo}" if lo == hi else f"k = {lo} to {hi}"


def shape(small: float, large: float) -> str:
    """How the fall with library size bends: slopes (points per doubling) over the small and large sizes."""
    if math.isnan(small) or math.isnan(large):
        return "too few sizes to tell how the curve bends"
    if abs(small - large) <= 1.0:
        return "about as steep at every size, a straight line against log n"
    return "steeper among small libraries" if small < large else "steeper among large libraries"


def disagree_where(mm: pd.DataFrame, titles: dict[str, str], threshold: float = 1.0) -> str:
    """Libraries where macro and micro accuracy differ by more than ``threshold`` points for some ranker."""
    big = mm.assign(gap=mm["difference"].abs()).groupby("library", sort=False)["gap"].max() > threshold
    return join([titles.get(k, k) for k in big.index[big.to_numpy()]]) or "no library"
