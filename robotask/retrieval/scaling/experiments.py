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
from .tables import leaders_at, paired_gain
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


def run_all(*, seed: int, rankers: list[str], n_trials: int, n_matched_trials: int, budget_trials: int,
            ks: list[int], budget_libraries: list[str], min_budget_tasks: int, size_draws: int, size_steps: int,
            size_min: int) -> ScalingResults:
    """Run the one-wording galleries of every library (Table 2 and macro/micro read the same ones), a matched
    one- vs two-wording study for the claims, the wording budget, seen → unseen, library size and the cost.

    One :class:`~robotask.retrieval.rankers.lexical.TextIndex` over every text of every library serves all
    studies: each distinct text is tokenised once per analyzer and embedded once."""
    frames = {k: read_library(k) for k in PATHS}
    index = TextIndex(list(dict.fromkeys(t for f in frames.values() for t in f["text"].astype(str))))
    one = {k: one_wording(check_corpus(frames[k], 2, PATHS[k]), rankers, n_trials if k in NEW else budget_trials,
                          seed, index) for k in PATHS if k != "libero"}
    table2 = {k: summary_table(one[k], condition="one", policy="primary") for k in NEW}
    wins = {k: paired_wins(one[k], "char", "bm25") for k in NEW}
    second = {k: budget_curve(frames[k], [1, 2], rankers, n_matched_trials, seed, index) for k in NEW}
    curves = {k: budget_curve(frames[k], usable_ks(frames[k], ks, min_budget_tasks), rankers, budget_trials,
                              seed, index) for k in budget_libraries}
    su, su_queries = seen_unseen(frames["robotwin"], rankers, budget_trials, seed, index)
    pooled = pool_libraries({k: frames[k] for k in POOLED})
    n_all = pooled["task"].nunique()
    size = size_curve(pooled, log_sizes(size_min, n_all, size_steps), rankers, size_draws, seed, index)
    mm = pd.concat([macro_micro(f).assign(library=k) for k, f in one.items()], ignore_index=True)
    texts = pooled.groupby("task", sort=True)["text"]
    gallery, queries = texts.first().tolist(), pooled["text"][~pooled.index.isin(texts.head(1).index)].tolist()
    cost = ranker_cost(gallery, queries, rankers)
    top = size[size["n"] == size["n"].max()].groupby("ranker")["accuracy"].mean()
    cost = cost.merge(top.rename("accuracy").reset_index(), on="ranker")
    return ScalingResults(table2, wins, curves, su, size, mm, cost, {k: one[k] for k in NEW}, second, su_queries)


def library_claims(res: ScalingResults) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The paper's claims on each new library: (cells by library title, claim × title booleans)."""
    return claims_table({TITLES[k]: claims_of(res.per_trial[k], res.second[k]) for k in NEW})


def summary(res: ScalingResults) -> dict[str, object]:
    """The numbers the home page reads (see the chapter for their meaning); words decided by paired intervals."""
    out: dict[str, object] = {}
    for key, (w, n) in res.wins.items():
        out[f"char_beats_bm25_{key}"] = w
        out[f"galleries_{key}"] = n
    for key, curve in res.budget.items():
        read = budget_values(res.budget, (key,))
        out[f"budget_{key}_k_max"] = int(curve["k"].max())
        if "char" in set(curve["ranker"]):
            gain = paired_gain(curve, "char")
            out[f"budget_{key}_gain_char_pts"] = gain.mean
            out[f"budget_{key}_gain_char_interval"] = [gain.low, gain.high]
        out[f"budget_{key}_plateau90_k"] = {r: int(v) for r, v in plateau_k(curve).items()}
        out[f"budget_{key}_order"] = read[f"order_{key}"]
    slopes = slope_per_doubling(res.size)
    out["size_n_max"] = int(res.size["n"].max())
    out["size_slope_per_doubling_pts"] = {r: float(v) for r, v in slopes.items()}
    leads = leaders_at(res.size, "n", "draw")  # a ranker id where its lead is resolved, else "not resolved"
    for end, n in (("smallest", min(leads)), ("largest", max(leads))):
        top, _, iv = leads[n]
        out[f"size_best_at_{end}"] = verdict(iv.low, iv.high, above=top, below=UNRESOLVED)
    su = res.seen_unseen.groupby(["queries", "ranker"])["accuracy"].mean().unstack("ranker")
    out["seen_unseen_char"] = {q: float(su.loc[q, "char"]) for q in su.index} if "char" in su.columns else {}
    return out
