"""What the libraries chapter glues into its readings of the curves: numbers as the prose shows them
(one decimal, a true minus sign, "—" for a library the run left out) and the phrases of :mod:`.phrases`."""

from __future__ import annotations

import math

import pandas as pd

from ...words import pp
from ..rankers.registry import RANKERS
from .budget import order_by_k, plateau_k
from .phrases import budget_effect, direction, leaders_by, shape, span
from .pool import slope_per_doubling
from .tables import paired_gain, slope_halves, slope_range

BUDGET_PARTS = ("gain", "gain_lo", "gain_hi", "kmax", "leaders", "plateau", "helps")


def _signed(x: float) -> str:
    return "—" if math.isnan(x) else pp(x, unit="")


def budget_readings(curves: dict[str, pd.DataFrame], keys: tuple[str, ...], ranker: str = "char") -> dict:
    """Per library key: ``<part>_<key>`` for :data:`BUDGET_PARTS` (``ranker``'s paired gain from the smallest
    to the largest k with its band, the largest k, the leaders by k, where 90 % of the plateau is reached,
    and whether more wordings help); "—" for a key without a curve."""
    out: dict[str, object] = {}
    for key in keys:
        curve = curves.get(key)
        if curve is None:
            out.update({f"{part}_{key}": "—" for part in BUDGET_PARTS})
            continue
        gain = paired_gain(curve, ranker)
        out.update({f"gain_{key}": _signed(gain[0]), f"gain_lo_{key}": _signed(gain[1]),
                    f"gain_hi_{key}": _signed(gain[2]), f"kmax_{key}": int(curve["k"].max()),
                    f"leaders_{key}": leaders_by(order_by_k(curve)),
                    f"plateau_{key}": span(plateau_k(curve)),
                    f"helps_{key}": budget_effect(*gain)})
    return out


def size_readings(size: pd.DataFrame, ranker: str = "char") -> dict:
    """The library-size curve read whole: sizes, ``ranker``'s accuracy at both ends, its slope per doubling
    (all draws, per series of draws, per half of the sizes), the range of slopes across rankers, the
    leaders by n and whether the best ranker stays best."""
    n = sorted(size["n"].unique())
    slopes = slope_per_doubling(size)
    lo, hi = slope_range(size, ranker)
    small, large = slope_halves(size, ranker)
    by_n = size.groupby(["n", "ranker"])["accuracy"].mean().unstack("ranker")
    orders = {int(k): sorted(row.index, key=lambda r: (-row[r], r)) for k, row in by_n.iterrows()}
    first, last = orders[int(n[0])][0], orders[int(n[-1])][0]
    return {"n_sizes": len(n), "n_min": int(n[0]), "n_all": int(n[-1]), "slope_char": _signed(slopes[ranker]),
            "slope_lo": _signed(lo), "slope_hi": _signed(hi), "slope_small": _signed(small),
            "slope_large": _signed(large), "size_shape": shape(small, large),
            "falls": direction(float(slopes[ranker]), "rises", "falls", "barely moves"),
            "acc_small": float(by_n[ranker].iloc[0]), "acc_large": float(by_n[ranker].iloc[-1]),
            "slope_min": _signed(slopes.min()), "slope_max": _signed(slopes.max()),
            "steepest": RANKERS[slopes.idxmin()].label, "flattest": RANKERS[slopes.idxmax()].label,
            "best_small": RANKERS[first].label, "best_large": RANKERS[last].label,
            "best_stays": "stays" if first == last else "does not stay",
            "size_leaders": leaders_by(orders, "n")}
