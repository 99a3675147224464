"""The shape of the scaling curves as numbers: mean and 5th–95th percentile band at every point, and the paired
intervals (:mod:`robotask.words`) the chapter's words are decided from: the gain over k, slopes per doubling
fitted per series of draws, and the leader at each point against the runner-up; and the chapter's other tables
as a reader sees them (libraries by title, rankers by display name)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...words import PairedInterval, paired_interval, pp, verdict
from ..rankers.registry import display
from ..statistics.comparison_intervals import ArmOutcomes, arm_outcomes, contrast, slope_weights
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


def _slope(g: pd.DataFrame) -> float:
    x = np.log2(g["n"].to_numpy(float))
    return float(np.polyfit(x, g["accuracy"].to_numpy(float), 1)[0]) if len(set(x)) > 1 else float("nan")


def series_slopes(curve: pd.DataFrame, sizes: list[int] | None = None) -> pd.DataFrame:
    """Slope (points per doubling of n) fitted on each series of draws alone (draw d at every size), draws ×
    rankers; ``sizes`` keeps only those sizes (NaN where fewer than two remain)."""
    sel = curve if sizes is None else curve[curve["n"].isin(sizes)]
    return sel.groupby(["draw", "ranker"]).apply(_slope).unstack("ranker")


def halves(curve: pd.DataFrame) -> tuple[list[int], list[int]]:
    """The smaller and the larger half of the sizes (an odd number of sizes shares the middle one)."""
    sizes = sorted(int(n) for n in curve["n"].unique())
    return sizes[: (len(sizes) + 1) // 2], sizes[len(sizes) // 2:]


def bend_interval(curve: pd.DataFrame, ranker: str) -> tuple[PairedInterval, PairedInterval, PairedInterval]:
    """``ranker``'s slope over the smaller half, over the larger half, and their paired difference (small − large)."""
    small, large = (series_slopes(curve, h)[ranker].to_numpy(float) for h in halves(curve))
    zero = np.zeros_like(small)
    return paired_interval(small, zero), paired_interval(large, zero), paired_interval(small, large)


def slope_table(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Per ranker: the change of accuracy per doubling of n (points, the least-squares slope of the mean
    accuracies against log2 n) with its two-way 95 % interval and its word (series of draws and queried
    descriptions resampled together, the slope refitted per replicate), from :func:`size_comparisons`."""
    rows = []
    for _, c in comparisons[comparisons["kind"] == "slope"].iterrows():
        rows.append({"Ranker": display(c["a"]), "Points per doubling": c["difference"],
                     "95 % interval": f"{pp(c['low'], 2, unit='')} to {pp(c['high'], 2, unit='')}",
                     "Verdict": verdict(c["low"], c["high"], above="rises", below="falls")})
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


COMPARISON_COLUMNS = ["kind", "x", "a", "b", "difference", "low", "high", "n_galleries", "n_descriptions", "method",
                      "verdict"]
"""One row per comparison the chapter reads off a curve: ``kind`` (gain, lead, slope, bend, steepest), the point
``x`` (k or n; 0 for a whole curve), the arms A and B (ranker ids), A − B in points and its two-way interval."""


def _row(kind: str, x: int, a: str, b: str, c: dict) -> dict:
    return {"kind": kind, "x": x, "a": a, "b": b, **{k: c[k] for k in COMPARISON_COLUMNS[4:]}}


def _leads(curve: pd.DataFrame, queries: ArmOutcomes, x: str, seed: int) -> list[dict]:
    """At every value of ``x``: the leader by mean against the runner-up (ties of means by name)."""
    rows = []
    for v, g in curve.groupby(x):
        means = g.groupby("ranker")["accuracy"].mean()
        order = sorted(means.index, key=lambda r: (-means[r], r))
        if len(order) > 1:
            c = contrast(queries, {f"{order[0]}@{v}": 1.0, f"{order[1]}@{v}": -1.0}, seed=seed)
            rows.append(_row("lead", int(v), order[0], order[1], c))
    return rows


def budget_comparisons(curve: pd.DataFrame, queries: pd.DataFrame, seed: int, ranker: str = "char") -> pd.DataFrame:
    """The wording budget's comparisons on one library (:data:`COMPARISON_COLUMNS`): ``ranker``'s gain from the
    smallest to the largest k, and the leader against the runner-up at every k, each with its two-way interval
    over galleries and the queried descriptions (``queries``: the curve's per-query outcomes)."""
    lo, hi = int(curve["k"].min()), int(curve["k"].max())
    queries = arm_outcomes(queries)  # pivoted once for every contrast below
    rows = []
    if ranker in set(curve["ranker"]):
        c = contrast(queries, {f"{ranker}@{hi}": 1.0, f"{ranker}@{lo}": -1.0}, seed=seed)
        rows.append(_row("gain", hi, ranker, ranker, c))
    return pd.DataFrame(rows + _leads(curve, queries, "k", seed), columns=COMPARISON_COLUMNS)


def size_comparisons(size: pd.DataFrame, queries: pd.DataFrame, seed: int, ranker: str = "char") -> pd.DataFrame:
    """The library-size curve's comparisons (:data:`COMPARISON_COLUMNS`): ``ranker``'s slope per doubling of n,
    its bend (slope over the smaller half of the sizes − over the larger half), the steepest against the
    flattest ranker's slope, and the leader at every n, each with its two-way interval: every replicate
    resamples the queried descriptions within their task and the series of draws, and refits the slopes."""
    sizes = sorted(int(n) for n in size["n"].unique())
    small, large = halves(size)
    queries = arm_outcomes(queries)  # pivoted once for every contrast below

    def slope(r: str, ns: list[int]) -> dict[str, float]:
        return slope_weights({f"{r}@{n}": n for n in ns})

    def minus(p: dict[str, float], q: dict[str, float]) -> dict[str, float]:
        return {**p, **{k: p.get(k, 0.0) - v for k, v in q.items()}}

    means = series_slopes(size).mean()
    steep, flat = means.idxmin(), means.idxmax()
    order = [ranker, *(r for r in dict.fromkeys(size["ranker"]) if r != ranker)]  # ``ranker``'s slope first
    rows = [_row("slope", 0, r, r, contrast(queries, slope(r, sizes), seed=seed)) for r in order]
    rows.append(_row("steepest", 0, steep, flat, contrast(queries, minus(slope(steep, sizes), slope(flat, sizes)),
                                                          seed=seed)))
    if len(small) > 1 and len(large) > 1:
        bend = minus(slope(ranker, small), slope(ranker, large))
        rows.append(_row("bend", 0, ranker, ranker, contrast(queries, bend, seed=seed)))
    return pd.DataFrame(rows + _leads(size, queries, "n", seed), columns=COMPARISON_COLUMNS)


def as_interval(row: pd.Series | dict) -> PairedInterval:
    """A comparison row as a :class:`~robotask.words.PairedInterval` (its ``n`` the galleries)."""
    return PairedInterval(float(row["difference"]), float(row["low"]), float(row["high"]), int(row["n_galleries"]),
                          0.95)
