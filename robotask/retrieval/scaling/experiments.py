"""Every study of the libraries chapter in one call (:func:`run_all`), and its summary for the home page."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ..protocol.study import StudyConfig, run_study
from ..statistics.across_galleries import summary_table
from .averages import macro_micro
from .budget import budget_curve, order_by_k, plateau_k, usable_ks
from .catalog import PATHS, POOLED, TITLES, check_corpus
from .catalog import read as read_library
from .claims import claims_of, claims_table
from .phrases import leader, order_change
from .pool import log_sizes, size_curve, slope_per_doubling
from .pool import pool as pool_libraries
from .side_studies import cost as ranker_cost
from .side_studies import paired_wins, seen_unseen

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


def run_all(*, seed: int, rankers: list[str], n_trials: int, budget_trials: int, ks: list[int],
            budget_libraries: list[str], min_budget_tasks: int, size_draws: int, size_steps: int,
            size_min: int) -> ScalingResults:
    """Run Table 2 on the new libraries (and a matched one- vs two-wording study for the claims), the wording
    budget, seen → unseen, library size, macro/micro, cost."""
    frames = {k: read_library(k) for k in PATHS}
    table2, wins, per_trials = {}, {}, {}
    for key in NEW:
        corpus = check_corpus(frames[key], 2, PATHS[key])
        config = StudyConfig(seed=seed, n_trials=n_trials, n_matched_trials=0, rankers=list(rankers))
        per_trial = run_study(corpus, config, parts=("primary",)).per_trial
        per_trial = per_trial[(per_trial["condition"] == "one") & (per_trial["policy"] == "primary")]
        per_trials[key] = per_trial
        table2[key] = summary_table(per_trial, condition="one", policy="primary")
        wins[key] = paired_wins(per_trial, "char", "bm25")
    second = {key: budget_curve(frames[key], [1, 2], rankers, budget_trials, seed) for key in NEW}
    curves = {}
    for key in budget_libraries:
        usable = usable_ks(frames[key], ks, min_budget_tasks)
        curves[key] = budget_curve(frames[key], usable, rankers, budget_trials, seed)
    su = seen_unseen(frames["robotwin"], rankers, budget_trials, seed)
    pooled = pool_libraries({k: frames[k] for k in POOLED})
    n_all = pooled["task"].nunique()
    size = size_curve(pooled, log_sizes(size_min, n_all, size_steps), rankers, size_draws, seed)
    mm = pd.concat([macro_micro(frames[k], rankers, budget_trials, seed, PATHS[k]).assign(library=k)
                    for k in PATHS if k != "libero"], ignore_index=True)
    texts = pooled.groupby("task", sort=True)["text"]
    gallery, queries = texts.first().tolist(), pooled["text"][~pooled.index.isin(texts.head(1).index)].tolist()
    cost = ranker_cost(gallery, queries, rankers)
    top = size[size["n"] == size["n"].max()].groupby("ranker")["accuracy"].mean()
    cost = cost.merge(top.rename("accuracy").reset_index(), on="ranker")
    return ScalingResults(table2, wins, curves, su, size, mm, cost, per_trials, second)


def library_claims(res: ScalingResults) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The paper's claims on each new library: (cells by library title, claim × title booleans)."""
    return claims_table({TITLES[k]: claims_of(res.per_trial[k], res.second[k]) for k in NEW})


def summary(res: ScalingResults) -> dict[str, object]:
    """The numbers the home page reads (see the chapter for their meaning)."""
    out: dict[str, object] = {}
    for key, (w, n) in res.wins.items():
        out[f"char_beats_bm25_{key}"] = w
        out[f"galleries_{key}"] = n
    for key, curve in res.budget.items():
        means = curve.groupby(["ranker", "k"])["accuracy"].mean().unstack("k")
        out[f"budget_{key}_k_max"] = int(means.columns.max())
        if "char" in means.index:
            out[f"budget_{key}_gain_char_pts"] = float(means.loc["char"].iloc[-1] - means.loc["char"].iloc[0])
        out[f"budget_{key}_plateau90_k"] = {r: int(v) for r, v in plateau_k(curve).items()}
        out[f"budget_{key}_order"] = order_change(order_by_k(curve))
    slopes = slope_per_doubling(res.size)
    out["size_n_max"] = int(res.size["n"].max())
    out["size_slope_per_doubling_pts"] = {r: float(v) for r, v in slopes.items()}
    by_n = res.size.groupby(["n", "ranker"])["accuracy"].mean().unstack("ranker")
    out["size_best_at_smallest"] = leader(by_n.iloc[0].to_dict())
    out["size_best_at_largest"] = leader(by_n.iloc[-1].to_dict())
    su = res.seen_unseen.groupby(["queries", "ranker"])["accuracy"].mean().unstack("ranker")
    out["seen_unseen_char"] = {q: float(su.loc[q, "char"]) for q in su.index} if "char" in su.columns else {}
    return out
