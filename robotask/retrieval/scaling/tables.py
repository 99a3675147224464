"""The shape of the scaling curves as numbers: mean and 5th–95th percentile band at every point, and the paired
intervals (:mod:`robotask.words`) the chapter's words are decided from: the gain over k, slopes per doubling
fitted per series of draws, and the leader at each point against the runner-up; and the chapter's other tables
as a reader sees them (libraries by title, rankers by display name)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...words import PairedInterval, paired_interval, pp
from ..rankers.registry import display
from .budget import plateau_k
from .catalog import TITLES


def band_table(curve: pd.DataFrame, x: str) -> pd.DataFrame:
    """Rankers (display names) × values of ``x``: "mean (5th–95th percentile)" of ``accuracy`` over galleries."""
    g = curve.groupby(["ranker", x])["accuracy"]
    stats = pd.DataFrame({"mean": g.mean(), "lo": g.quantile(0.05), "hi": g.quantile(0.95)})
    cells = stats.apply(lambda r: f"{r['mean']:.1f} ({r['lo']:.1f}–{r['hi']:.1f})", axis=1).unstack(x)
    cells.index = [display(r) for r in cells.index]
    cells.columns = [f"At {x} = {int(c)}" for c in cells.columns]
    return cells.reset_index(names="Ranker")


def paired_gain(curve: pd.DataFrame, ranker: str) -> PairedInterval:
    """Gain (points) of ``ranker`` from the smallest to the largest k, paired by gallery (95 % interval)."""
    wide = curve[curve["ranker"] == ranker].pivot(index="trial", columns="k", values="accuracy")
    return paired_interval(wide[wide.columns.max()].to_numpy(float), wide[wide.columns.min()].to_numpy(float))


def _slope(g: pd.DataFrame) -> float:
    x = np.log2(g["n"].to_numpy(float))
    return float(np.polyfit(x, g["accuracy"].to_numpy(float), 1)[0]) if len(set(x)) > 1 else float("nan")


def series_slopes(curve: pd.DataFrame, sizes: list[int] | None = None) -> pd.DataFrame:
    """Slope (points per doubling of n) fitted on each series of draws alone (draw d at every size), draws ×
    rankers; ``sizes`` keeps only those sizes (NaN where fewer than two remain)."""
    sel = curve if sizes is None else curve[curve["n"].isin(sizes)]
    return sel.groupby(["draw", "ranker"]).apply(_slope).unstack("ranker")


def slope_interval(curve: pd.DataFrame, ranker: str) -> PairedInterval:
    """Mean slope of ``ranker`` over the series of draws and its 95 % interval."""
    s = series_slopes(curve)[ranker].to_numpy(float)
    return paired_interval(s, np.zeros_like(s))


def halves(curve: pd.DataFrame) -> tuple[list[int], list[int]]:
    """The smaller and the larger half of the sizes (an odd number of sizes shares the middle one)."""
    sizes = sorted(int(n) for n in curve["n"].unique())
    return sizes[: (len(sizes) + 1) // 2], sizes[len(sizes) // 2:]


def bend_interval(curve: pd.DataFrame, ranker: str) -> tuple[PairedInterval, PairedInterval, PairedInterval]:
    """``ranker``'s slope over the smaller half, over the larger half, and their paired difference (small − large)."""
    small, large = (series_slopes(curve, h)[ranker].to_numpy(float) for h in halves(curve))
    zero = np.zeros_like(small)
    return paired_interval(small, zero), paired_interval(large, zero), paired_interval(small, large)


def leader_interval(wide: pd.DataFrame) -> tuple[str, str, PairedInterval]:
    """(leader by mean, runner-up, interval of leader − runner-up paired by row); ``wide``: draws × rankers.
    Ties of means go to the first name in sorted order."""
    means = wide.mean()
    order = sorted(means.index, key=lambda r: (-means[r], r))
    if len(order) < 2:
        return order[0], order[0], PairedInterval(np.nan, np.nan, np.nan, 0, 0.95)
    return order[0], order[1], paired_interval(wide[order[0]].to_numpy(float), wide[order[1]].to_numpy(float))


def leaders_at(curve: pd.DataFrame, x: str, row: str) -> dict[int, tuple[str, str, PairedInterval]]:
    """:func:`leader_interval` at every value of ``x`` (``row``: the column that pairs the rankers)."""
    return {int(v): leader_interval(g.pivot(index=row, columns="ranker", values="accuracy"))
            for v, g in curve.groupby(x)}


def slope_table(curve: pd.DataFrame) -> pd.DataFrame:
    """Per ranker: the change of accuracy per doubling of n (points), mean over the series of draws, with its
    95 % interval; the fit over all draws at once gives the same mean (every series has the same sizes)."""
    rows = []
    for name, s in series_slopes(curve).items():
        iv = paired_interval(s.to_numpy(float), np.zeros(len(s)))
        rows.append({"Ranker": display(name), "Points per doubling": iv.mean,
                     "95 % interval": f"{pp(iv.low, 2, unit='')} to {pp(iv.high, 2, unit='')}"})
    return pd.DataFrame(rows)


def _by_ranker(table: pd.DataFrame) -> pd.DataFrame:
    """A table indexed by ranker id, with the rankers' display names in a first column ``Ranker``."""
    table.index = [display(r) for r in table.index]
    return table.reset_index(names="Ranker")


def budget_bands(budget: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every library's :func:`band_table` over k, stacked, the library's title first; "—" where a k was not run."""
    bands = pd.concat([band_table(c, "k").assign(Library=TITLES[k]) for k, c in budget.items()])
    return bands[["Library", *bands.columns[:-1]]].fillna("—")


def plateau_table(budget: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Rankers × library titles: the smallest k at which each ranker reaches 90 % of its best mean (``plateau_k``)."""
    return _by_ranker(pd.DataFrame({TITLES[k]: plateau_k(c) for k, c in budget.items()}))


def seen_unseen_table(su: pd.DataFrame) -> pd.DataFrame:
    """Rankers × seen / unseen queries: mean top-1 accuracy over the galleries (``seen_unseen.seen_unseen``)."""
    return _by_ranker(su.groupby(["ranker", "queries"])["accuracy"].mean().unstack("queries"))


def macro_micro_table(mm: pd.DataFrame) -> pd.DataFrame:
    """``averages.macro_micro`` as shown: library title, ranker, micro, macro, their difference and its interval."""
    shown = mm.assign(interval=[f"{pp(lo, unit='')} to {pp(hi, unit='')}" for lo, hi in zip(mm["low"], mm["high"])],
                      library=mm["library"].map(TITLES), ranker=mm["ranker"].map(display))
    return shown[["library", "ranker", "micro", "macro", "difference", "interval"]]
