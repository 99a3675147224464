"""What the libraries chapter glues into its readings of the curves, of Table 2, of the claims and of macro
against micro accuracy: numbers as the prose shows them (one decimal, a true minus sign, "—" for a library the run
left out), each deciding word from a paired interval."""

from __future__ import annotations

import math

import pandas as pd

from ...words import UNRESOLVED, pp, verdict, verdict_row
from ..rankers.registry import RANKERS
from ..statistics.comparison_intervals import arm_comparison
from .budget import plateau_k
from .catalog import TITLES
from .phrases import disagree_where, leaders_by, order_change, resolved_leader, share_phrase, span
from .tables import as_interval, bend_interval, series_slopes

BUDGET_PARTS = ("gain", "gain_lo", "gain_hi", "kmax", "leaders", "plateau", "helps", "order")


def _signed(x: float) -> str:
    return "—" if math.isnan(x) else pp(x, unit="")


def _lookup(table: pd.DataFrame, kind: str) -> pd.Series | None:
    hit = table[table["kind"] == kind]
    return hit.iloc[0] if len(hit) else None


def chance_note(resolved: int, tests: int) -> str:
    """ "2 of 6 leads resolved, where chance alone would resolve about 0.3": the count found beside the count
    a 95 % interval resolves by chance when no ranker leads (5 % of the tests)."""
    return f"{resolved} of {tests} leads resolved, where chance alone would resolve about {0.05 * tests:.1f}"


def budget_values(comparisons: dict[str, pd.DataFrame], curves: dict[str, pd.DataFrame], keys: tuple[str, ...]) -> dict:
    """Per library key: ``<part>_<key>`` for :data:`BUDGET_PARTS` (the ranker's gain from the smallest to the
    largest k with its two-way 95 % interval, the largest k, the resolved leader at each k, where 90 % of the
    plateau is reached, whether more wordings help, whether the leader changes) and ``chance_<key>`` (the leads
    resolved beside those chance would give); "—" without a curve. ``comparisons``: key →
    :func:`.tables.budget_comparisons`."""
    out: dict[str, object] = {}
    for key in keys:
        curve, table = curves.get(key), comparisons.get(key)
        if curve is None or table is None:
            out.update({f"{part}_{key}": "—" for part in (*BUDGET_PARTS, "chance")})
            continue
        gain = _lookup(table, "gain")
        leads = {int(r["x"]): resolved_leader(r["a"], as_interval(r))
                 for _, r in table[table["kind"] == "lead"].iterrows()}
        nan = float("nan")
        g = (nan, nan, nan) if gain is None else (gain["difference"], gain["low"], gain["high"])
        out.update({f"gain_{key}": _signed(g[0]), f"gain_lo_{key}": _signed(g[1]),
                    f"gain_hi_{key}": _signed(g[2]), f"kmax_{key}": int(curve["k"].max()),
                    f"leaders_{key}": leaders_by(leads), f"plateau_{key}": span(plateau_k(curve)),
                    f"helps_{key}": verdict(g[1], g[2], above="helps", below="hurts"),
                    f"order_{key}": order_change(leads),
                    f"chance_{key}": chance_note(sum(v != UNRESOLVED for v in leads.values()), len(leads))})
    return out


def size_values(size: pd.DataFrame, comparisons: pd.DataFrame, ranker: str = "char") -> dict:
    """The library-size curve read whole: sizes, ``ranker``'s accuracy at both ends, its slope per doubling with
    its two-way 95 % interval (``comparisons``: :func:`.tables.size_comparisons`), the bend (small against large
    half), the steepest and the flattest ranker, and the resolved leader at every size."""
    n = sorted(size["n"].unique())
    slope = _lookup(comparisons[comparisons["a"] == ranker], "slope")
    bend, gap = (_lookup(comparisons, k) for k in ("bend", "steepest"))
    small, large = bend_interval(size, ranker)[:2]
    means = series_slopes(size).mean()
    leads = {int(r["x"]): resolved_leader(r["a"], as_interval(r))
             for _, r in comparisons[comparisons["kind"] == "lead"].iterrows()}
    first, last = leads[int(n[0])], leads[int(n[-1])]
    by_n = size.groupby(["n", "ranker"])["accuracy"].mean().unstack("ranker")
    nan = float("nan")
    b = (nan, nan) if bend is None else (bend["low"], bend["high"])
    return {"n_sizes": len(n), "n_min": int(n[0]), "n_all": int(n[-1]), "slope_char": _signed(slope["difference"]),
            "slope_lo": _signed(slope["low"]), "slope_hi": _signed(slope["high"]),
            "falls": verdict(slope["low"], slope["high"], above="rises", below="falls"),
            "slope_small": _signed(small.mean), "slope_large": _signed(large.mean),
            "size_shape": verdict(*b, above="steeper among large libraries", below="steeper among small libraries"),
            "acc_small": float(by_n[ranker].iloc[0]), "acc_large": float(by_n[ranker].iloc[-1]),
            "slope_min": _signed(means.min()), "slope_max": _signed(means.max()),
            "steepest": RANKERS[gap["a"]].label, "flattest": RANKERS[gap["b"]].label,
            "steep_lo": _signed(gap["low"]), "steep_hi": _signed(gap["high"]),
            "steep_sure": verdict(gap["low"], gap["high"], above=UNRESOLVED, below="resolved"),
            "best_small": first, "best_large": last, "size_leaders": leaders_by(leads, "n"),
            "size_chance": chance_note(sum(v != UNRESOLVED for v in leads.values()), len(leads)),
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
            "mm_chance": f"{int(((mm['low'] > 0) | (mm['high'] < 0)).sum())} of {len(mm)} ranker-library gaps "
                         f"resolved, where chance alone would resolve about {0.05 * len(mm):.1f}",
            "rf_max": int(sizes.max()), "rf_median": f"{sizes.median():g}"}


def curve_verdict_rows(table: pd.DataFrame, *, data: str, x_name: str) -> list[dict[str, object]]:
    """The rows of ``verdicts.csv`` for a curve's comparisons (:func:`.tables.budget_comparisons` or
    :func:`.tables.size_comparisons`) on ``data`` (a library's title), ``x_name`` "k" or "n"."""
    rows = []
    for _, r in table.iterrows():
        a, b, x = RANKERS[r["a"]].label, RANKERS[r["b"]].label, int(r["x"])
        kind = r["kind"]
        claim, ra, rb, where, metric = {
            "gain": (f"{a} gains from more wordings per task", f"{a} at k = {x}", f"{a} at k = 1", data,
                     "top-1 accuracy"),
            "lead": (f"the leader at {x_name} = {x}", a, b, f"{data}, {x_name} = {x}", "top-1 accuracy"),
            "slope": (f"{a}'s accuracy as the library grows", a, "no change", data, "points per doubling of n"),
            "bend": (f"{a}'s curve bends", f"{a}, smaller half of the sizes", f"{a}, larger half of the sizes",
                     data, "points per doubling of n"),
            "steepest": ("the steepest against the flattest ranker", a, b, data, "points per doubling of n"),
        }[kind]
        rows.append(verdict_row(chapter="09_libraries", claim=claim, a=ra, b=rb, data=where, metric=metric,
                                difference=r["difference"], low=r["low"], high=r["high"],
                                unit="gallery and description", n_units=int(r["n_descriptions"]),
                                method=f"{r['method']} over {r['n_galleries']} galleries and "
                                       f"{r['n_descriptions']} descriptions"))
    return rows


def macro_micro_rows(mm: pd.DataFrame) -> list[dict[str, object]]:
    """The rows of ``verdicts.csv`` for macro − micro of every ranker on every library
    (:func:`.averages.macro_micro`, ``library`` column added)."""
    return [verdict_row(chapter="09_libraries", claim="macro against micro accuracy",
                        a=f"{RANKERS[r['ranker']].label} macro", b=f"{RANKERS[r['ranker']].label} micro",
                        data=TITLES[r["library"]], metric="top-1 accuracy", difference=r["difference"], low=r["low"],
                        high=r["high"], unit="gallery and description", n_units=int(r["n_descriptions"]),
                        method=f"{r['method']} over {r['n_galleries']} galleries and {r['n_descriptions']} "
                               "descriptions") for _, r in mm.iterrows()]
