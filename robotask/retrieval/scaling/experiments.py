"""Every study of the libraries chapter in one call (:func:`run_all`), and its summary for the home page."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ...words import UNRESOLVED, verdict
from ..rankers.lexical import TextIndex
from ..statistics.across_galleries import summary_table
from .averages import macro_micro, one_wording
from .budget import budget_curve, plateau_k, usable_ks
from .catalog import PATHS, POOLED, TITLES, check_corpus
from .catalog import read as read_library
from .claims import claims_of, claims_table, paired_wins
from .pool import log_sizes, size_curve, slope_per_doubling
from .pool import pool as pool_libraries
from .ranker_cost import cost as ranker_cost
from .seen_unseen import seen_unseen
from .tables import budget_comparisons, size_comparisons
from .values import budget_values

NEW = ("robocasa", "robotwin", "robotwin_placeholder")


@dataclass
class ScalingResults:
    """The chapter's tables."""

    table2: dict[str, pd.DataFrame]
    wins: dict[str, tuple[int, int]]
    budget: dict[str, pd.DataFrame]
    seen_unseen: pd.DataFrame
    size: pd.DataFrame
    macro_micro: pd.DataFrame
    cost: pd.DataFrame
    per_trial: dict[str, pd.DataFrame] = field(default_factory=dict)  # Table 2's one-wording trials
    second: dict[str, pd.DataFrame] = field(default_factory=dict)  # matched k = 1 vs 2 (the claims)
    seen_unseen_queries: pd.DataFrame | None = None  # every queried template's outcome (its interval's)
    budget_queries: dict[str, pd.DataFrame] = field(default_factory=dict)  # per-query outcomes, arms <ranker>@<k>
    size_queries: pd.DataFrame | None = None  # per-query outcomes of the size curve, arms <ranker>@<n>
    budget_comparisons: dict[str, pd.DataFrame] = field(default_factory=dict)  # tables.budget_comparisons
    size_comparisons: pd.DataFrame | None = None  # tables.size_comparisons
    one_queries: dict[str, pd.DataFrame] = field(default_factory=dict)  # per-query outcomes of Table 2's galleries
    second_queries: dict[str, pd.DataFrame] = field(default_factory=dict)  # ... of the matched k = 1 vs 2 study
    seed: int = 0


def run_all(*, seed: int, rankers: list[str], n_trials: int, n_matched_trials: int, budget_trials: int,
            ks: list[int], budget_libraries: list[str], min_budget_tasks: int, size_draws: int, size_steps: int,
            size_min: int) -> ScalingResults:
    """Run the one-wording galleries of every library (Table 2 and macro/micro read the same ones), a matched
    one- vs two-wording study for the claims, the wording budget, seen → unseen, library size and the cost.

    One :class:`~robotask.retrieval.rankers.lexical.TextIndex` over every text of every library serves all
    studies: each distinct text is tokenised once per analyzer and embedded once."""
    frames = {k: read_library(k) for k in PATHS}
    index = TextIndex(list(dict.fromkeys(t for f in frames.values() for t in f["text"].astype(str))))
    one_kept: dict[str, list[pd.DataFrame]] = {k: [] for k in PATHS if k != "libero"}
    one = {k: one_wording(check_corpus(frames[k], 2, PATHS[k]), rankers, n_trials if k in NEW else budget_trials,
                          seed, index, one_kept[k]) for k in one_kept}
    table2 = {k: summary_table(one[k], condition="one", policy="primary") for k in NEW}
    wins = {k: paired_wins(one[k], "char", "bm25") for k in NEW}
    second_kept: dict[str, list[pd.DataFrame]] = {k: [] for k in NEW}
    second = {k: budget_curve(frames[k], [1, 2], rankers, n_matched_trials, seed, index, second_kept[k]) for k in NEW}
    kept: dict[str, list[pd.DataFrame]] = {k: [] for k in budget_libraries}
    curves = {k: budget_curve(frames[k], usable_ks(frames[k], ks, min_budget_tasks), rankers, budget_trials,
                              seed, index, kept[k]) for k in budget_libraries}
    su, su_queries = seen_unseen(frames["robotwin"], rankers, budget_trials, seed, index)
    pooled = pool_libraries({k: frames[k] for k in POOLED})
    n_all = pooled["task"].nunique()
    size_kept: list[pd.DataFrame] = []
    size = size_curve(pooled, log_sizes(size_min, n_all, size_steps), rankers, size_draws, seed, index, size_kept)
    mm = pd.concat([macro_micro(v[0], rankers, seed).assign(library=k) for k, v in one_kept.items()],
                   ignore_index=True)
    texts = pooled.groupby("task", sort=True)["text"]
    gallery, queries = texts.first().tolist(), pooled["text"][~pooled.index.isin(texts.head(1).index)].tolist()
    cost = ranker_cost(gallery, queries, rankers)
    top = size[size["n"] == size["n"].max()].groupby("ranker")["accuracy"].mean()
    cost = cost.merge(top.rename("accuracy").reset_index(), on="ranker")
    queries = {k: v[0] for k, v in kept.items()}
    compared = {k: budget_comparisons(curves[k], queries[k], seed) for k in curves}
    return ScalingResults(table2, wins, curves, su, size, mm, cost, {k: one[k] for k in NEW}, second, su_queries,
                          queries, size_kept[0], compared, size_comparisons(size, size_kept[0], seed),
                          {k: one_kept[k][0] for k in NEW}, {k: v[0] for k, v in second_kept.items()}, seed)


def library_claims(res: ScalingResults) -> tuple[pd.DataFrame, pd.DataFrame, list[dict[str, object]]]:
    """The paper's claims on each new library: (cells by library title, claim × title verdicts, the rows of
    ``verdicts.csv`` behind them), each decided by a two-way interval (:func:`.claims.claims_of`)."""
    found = {k: claims_of(res.per_trial[k], res.one_queries[k], res.second_queries[k], res.seed, TITLES[k])
             for k in NEW}
    cells, words = claims_table({TITLES[k]: f[0] for k, f in found.items()})
    return cells, words, [row for f in found.values() for row in f[1]]


def summary(res: ScalingResults) -> dict[str, object]:
    """The numbers the home page reads (see the chapter for their meaning); words decided by paired intervals."""
    out: dict[str, object] = {}
    for key, (w, n) in res.wins.items():
        out[f"char_beats_bm25_{key}"] = w
        out[f"galleries_{key}"] = n
    for key, curve in res.budget.items():
        read = budget_values(res.budget_comparisons, res.budget, (key,))
        out[f"budget_{key}_k_max"] = int(curve["k"].max())
        gains = res.budget_comparisons[key]
        gain = gains[gains["kind"] == "gain"]
        if len(gain):
            out[f"budget_{key}_gain_char_pts"] = float(gain["difference"].iloc[0])
            out[f"budget_{key}_gain_char_interval"] = [float(gain["low"].iloc[0]), float(gain["high"].iloc[0])]
        out[f"budget_{key}_plateau90_k"] = {r: int(v) for r, v in plateau_k(curve).items()}
        out[f"budget_{key}_order"] = read[f"order_{key}"]
    slopes = slope_per_doubling(res.size)
    out["size_n_max"] = int(res.size["n"].max())
    out["size_slope_per_doubling_pts"] = {r: float(v) for r, v in slopes.items()}
    compared = res.size_comparisons if res.size_comparisons is not None else pd.DataFrame(columns=["kind", "x"])
    leads = compared[compared["kind"] == "lead"].set_index("x")
    for end, n in (("smallest", leads.index.min()), ("largest", leads.index.max())) if len(leads) else ():
        row = leads.loc[n]  # a ranker id where its lead is resolved, else "not resolved"
        out[f"size_best_at_{end}"] = verdict(row["low"], row["high"], above=row["a"], below=UNRESOLVED)
    su = res.seen_unseen.groupby(["queries", "ranker"])["accuracy"].mean().unstack("ranker")
    out["seen_unseen_char"] = {q: float(su.loc[q, "char"]) for q in su.index} if "char" in su.columns else {}
    return out
