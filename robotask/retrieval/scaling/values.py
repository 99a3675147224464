"""What the libraries chapter glues into its readings of the curves, of Table 2, of the claims and of macro
against micro accuracy: numbers as the prose shows them (one decimal, a true minus sign, "—" for a library the run
left out), each deciding word from a paired interval."""

from __future__ import annotations

import math

import pandas as pd

from ...words import UNRESOLVED, paired_interval, pp, verdict
from ..rankers.registry import RANKERS
from ..statistics.comparison_intervals import arm_comparison
from .budget import plateau_k
from .catalog import TITLES
from .phrases import disagree_where, leaders_by, order_change, resolved_leader, share_phrase, span
from .tables import bend_interval, leaders_at, paired_gain, series_slopes, slope_interval

BUDGET_PARTS = ("gain", "gain_lo", "gain_hi", "kmax", "leaders", "plateau", "helps", "order")


def _signed(x: float) -> str:
    return "—" if math.isnan(x) else pp(x, unit="")


def budget_values(curves: dict[str, pd.DataFrame], keys: tuple[str, ...], ranker: str = "char") -> dict:
    """Per library key: ``<part>_<key>`` for :data:`BUDGET_PARTS` (``ranker``'s paired gain from the smallest
    to the largest k with its 95 % interval, the largest k, the resolved leader at each k, where 90 % of the
    plateau is reached, whether more wordings help and whether the leader changes); "—" without a curve."""
    out: dict[str, object] = {}
    for key in keys:
        curve = curves.get(key)
        if curve is None:
            out.update({f"{part}_{key}": "—" for part in BUDGET_PARTS})
            continue
        gain = paired_gain(curve, ranker)
        leads = {k: resolved_leader(top, iv) for k, (top, _, iv) in leaders_at(curve, "k", "trial").items()}
        out.update({f"gain_{key}": _signed(gain.mean), f"gain_lo_{key}": _signed(gain.low),
                    f"gain_hi_{key}": _signed(gain.high), f"kmax_{key}": int(curve["k"].max()),
                    f"leaders_{key}": leaders_by(leads), f"plateau_{key}": span(plateau_k(curve)),
                    f"helps_{key}": verdict(gain.low, gain.high, above="helps", below="hurts"),
                    f"order_{key}": order_change(leads)})
    return out


def size_values(size: pd.DataFrame, ranker: str = "char") -> dict:
    """The library-size curve read whole: sizes, ``ranker``'s accuracy at both ends, its slope per doubling with
    its 95 % interval over the series of draws, the bend (small against large half), the steepest and the
    flattest ranker, and the resolved leader at every size."""
    n = sorted(size["n"].unique())
    slope, (small, large, bend) = slope_interval(size, ranker), bend_interval(size, ranker)
    series = series_slopes(size)
    means = series.mean()
    steep, flat = means.idxmin(), means.idxmax()
    gap = paired_interval(series[steep].to_numpy(float), series[flat].to_numpy(float))
    leads = {x: resolved_leader(top, iv) for x, (top, _, iv) in leaders_at(size, "n", "draw").items()}
    first, last = leads[int(n[0])], leads[int(n[-1])]
    by_n = size.groupby(["n", "ranker"])["accuracy"].mean().unstack("ranker")
    return {"n_sizes": len(n), "n_min": int(n[0]), "n_all": int(n[-1]), "slope_char": _signed(slope.mean),
            "slope_lo": _signed(slope.low), "slope_hi": _signed(slope.high),
            "falls": verdict(slope.low, slope.high, above="rises", below="falls"),
            "slope_small": _signed(small.mean), "slope_large": _signed(large.mean),
            "size_shape": verdict(bend.low, bend.high, above="steeper among large libraries",
                                  below="steeper among small libraries"),
            "acc_small": float(by_n[ranker].iloc[0]), "acc_large": float(by_n[ranker].iloc[-1]),
            "slope_min": _signed(means.min()), "slope_max": _signed(means.max()),
            "steepest": RANKERS[steep].label, "flattest": RANKERS[flat].label,
            "steep_lo": _signed(gap.low), "steep_hi": _signed(gap.high),
            "steep_sure": verdict(gap.low, gap.high, above=UNRESOLVED, below="resolved"),
            "best_small": first, "best_large": last, "size_leaders": leaders_by(leads, "n"),
            "best_stays": UNRESOLVED if UNRESOLVED in (first, last) else "yes" if first == last else "no"}


def seen_unseen_values(su: pd.DataFrame, queries: pd.DataFrame, seed: int, ranker: str = "char") -> dict:
    """``ranker``'s accuracy on seen and on unseen templates and unseen − seen paired by gallery, with its
    interval over galleries and templates (``queries``: every template's outcome, ``seen_unseen``'s second
    frame; the two template sets are fixed, so the templates are resampled) and its word."""
    wide = su[su["ranker"] == ranker].pivot(index="trial", columns="queries", values="accuracy")
    c = arm_comparison(queries[queries["ranker"] == ranker], "unseen", "seen", seed=seed)
    return {"su_seen": float(wide["seen"].mean()), "su_unseen": float(wide["unseen"].mean()),
            "su_diff": _signed(c["difference"]), "su_lo": _signed(c["low"]), "su_hi": _signed(c["high"]),
            "su_reading": c["verdict"], "su_templates": c["n_queries"], "su_method": c["method"],
            "su_low": c["low"], "su_high": c["high"], "su_difference": c["difference"],
            "su_galleries": c["n_galleries"]}


def one_wording_values(table2: dict[str, pd.DataFrame], wins: dict[str, tuple[int, int]], robotwin_tasks: int) -> dict:
    """Table 2 on the new libraries as the prose reads it: the galleries and Char TF-IDF's wins over BM25 on each
    (``wins``: key → (wins, galleries)), its mean on RoboTwin with object names and with the placeholder, chance
    (one task in ``robotwin_tasks``), and the share (%, and in words) of its accuracy above chance the
    placeholder loses."""
    obj, ph = (float(table2[k].set_index("ranker")["mean"]["char"]) for k in ("robotwin", "robotwin_placeholder"))
    chance = 100 / robotwin_tasks
    return {"n_gal": wins["robocasa"][1], "w_robocasa": wins["robocasa"][0], "w_robotwin": wins["robotwin"][0],
            "w_placeholder": wins["robotwin_placeholder"][0], "char_objects": obj, "char_placeholder": ph,
            "chance": chance, "lost": 100 * (obj - ph) / (obj - chance),
            "object_share": share_phrase((obj - ph) / (obj - chance))}


def library_claim_values(words: pd.DataFrame, keys: tuple[str, ...]) -> dict:
    """The paper's claims on each library of ``keys`` (``words``: claim × library title, each a verdict):
    ``n_claims``, ``held_<key>`` ("3 of 7" that hold) and ``open_<key>`` (how many are not resolved)."""
    return {"n_claims": len(words),
            **{f"held_{k}": f"{int((words[TITLES[k]] == 'holds').sum())} of {len(words)}" for k in keys},
            **{f"open_{k}": f"{int((words[TITLES[k]] == UNRESOLVED).sum())}" for k in keys}}


def macro_micro_values(mm: pd.DataFrame, rlbench_full: pd.DataFrame) -> dict:
    """Macro against micro accuracy (``averages.macro_micro``): the largest gap with its library and ranker, the
    libraries where the gap is resolved, and RLBench-full's largest and median texts per task."""
    sizes = rlbench_full.groupby("task").size()
    worst = mm.loc[mm["difference"].abs().idxmax()]
    ranker = RANKERS[worst["ranker"]].label if worst["ranker"] in RANKERS else worst["ranker"]
    return {"gap": float(worst["difference"]), "gap_lo": _signed(worst["low"]), "gap_hi": _signed(worst["high"]),
            "gap_library": TITLES[worst["library"]], "gap_ranker": ranker,
            "mm_where": disagree_where(mm, TITLES),
            "rf_max": int(sizes.max()), "rf_median": f"{sizes.median():g}"}
