"""The shape of the scaling curves as numbers: mean and 5th–95th percentile band at every point, paired
gains over k, and slopes fitted per series of draws and per half of the size range."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..rankers.registry import display


def band_table(curve: pd.DataFrame, x: str) -> pd.DataFrame:
    """Rankers (display names) × values of ``x``: "mean (5th–95th percentile)" of ``accuracy`` over galleries."""
    g = curve.groupby(["ranker", x])["accuracy"]
    stats = pd.DataFrame({"mean": g.mean(), "lo": g.quantile(0.05), "hi": g.quantile(0.95)})
    cells = stats.apply(lambda r: f"{r['mean']:.1f} ({r['lo']:.1f}–{r['hi']:.1f})", axis=1).unstack(x)
    cells.index = [display(r) for r in cells.index]
    cells.columns = [f"At {x} = {int(c)}" for c in cells.columns]
    return cells.reset_index(names="Ranker")


def paired_gain(curve: pd.DataFrame, ranker: str) -> tuple[float, float, float]:
    """Gain (points) of ``ranker`` from the smallest to the largest k, paired by gallery: mean, 5th, 95th pct."""
    wide = curve[curve["ranker"] == ranker].pivot(index="trial", columns="k", values="accuracy")
    d = (wide[wide.columns.max()] - wide[wide.columns.min()]).to_numpy(float)
    return float(d.mean()), float(np.percentile(d, 5)), float(np.percentile(d, 95))


def _slope(g: pd.DataFrame) -> float:
    x = np.log2(g["n"].to_numpy(float))
    return float(np.polyfit(x, g["accuracy"].to_numpy(float), 1)[0]) if len(set(x)) > 1 else float("nan")


def slope_range(curve: pd.DataFrame, ranker: str) -> tuple[float, float]:
    """Smallest and largest slope (points per doubling) of ``ranker`` fitted on each series of draws alone."""
    slopes = [_slope(g) for _, g in curve[curve["ranker"] == ranker].groupby("draw")]
    return float(np.min(slopes)), float(np.max(slopes))


def slope_halves(curve: pd.DataFrame, ranker: str) -> tuple[float, float]:
    """Slopes (points per doubling) of ``ranker`` over the smaller and the larger half of the sizes
    (an odd number of sizes shares the middle one); NaN for a half with one size."""
    sizes = sorted(curve["n"].unique())
    mid = sizes[(len(sizes) - 1) // 2], sizes[len(sizes) // 2]
    g = curve[curve["ranker"] == ranker]
    return _slope(g[g["n"] <= mid[0]]), _slope(g[g["n"] >= mid[1]])
