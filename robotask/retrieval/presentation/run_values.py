"""The run-level values chapters 03 to 05 glue: the other reading of the draws, the duplicated texts, the run
beside the paper's, and the counts that read its comparison with the paper, one dict per ``glue`` call.

The values of one part of a table live in :mod:`.values` (``*_values``); these are the counts and words around
them, each with a rule worth a test (a verdict count, a phrase, a missing run read as dashes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from .phrases import how_many

NAN = float("nan")


def other_reading_values(matched: pd.DataFrame, alt: pd.DataFrame | None, used: str, other: str) -> dict:
    """Chapter 03: the matched study under the other reading of the draws (``alt``, a ``matched_table``;
    None when it could not run, and then the values repeat ``matched``'s), and for how many rankers the
    verdict on the gain is the same under both readings."""
    from .values import matched_values

    shown = matched if alt is None else alt
    facts = matched_values(shown, {})
    agree = int((matched.set_index("ranker")["verdict"] == shown.set_index("ranker")["verdict"]).sum())
    return {"other": other, "used": used, "alt_lo": facts["gain_lo"], "alt_hi": facts["gain_hi"],
            "alt_top": facts["top"], "alt_n_gain": facts["n_gain"], "alt_n_gain_open": facts["n_gain_open"],
            "n_agree": how_many(agree, len(matched), "ranker")}


def duplicate_count_values(corpus: Any, duplicates: pd.DataFrame, excluded: pd.Series) -> dict:
    """Chapter 04: the duplicated texts (``duplicates``: the corpus rows marked duplicate), how many
    queries each draw excluded (``excluded``: ``exclusion_counts``), and the most a policy can move an
    accuracy (``bound``, in points: every copy among the queries of one gallery)."""
    from .phrases import per_draw

    n_queries = len(corpus.texts) - len(corpus.tasks)
    return {"n_dup_texts": duplicates["text"].nunique(), "n_dup_rows": len(duplicates),
            "n_texts": len(corpus.texts), "n_tasks": len(corpus.tasks), "per_draw": per_draw(excluded),
            "n_draws": int(excluded.sum()), "n_queries": n_queries, "bound": 100 * len(duplicates) / n_queries}


def reproduction_run_values(corpus: Any, config: Any, paper_corpus: Mapping, paper_trials: int) -> dict:
    """Chapter 05: the run's size and design beside the paper's corpus (``paper_corpus``: ``paper.CORPUS``;
    ``paper_trials``: the paper's number of galleries)."""
    from .phrases import fewer_or_more

    return {"n_trials": config.n_trials, "n_matched": config.n_matched_trials,
            "matched_draws": config.matched_draws, "seed": config.seed, "n_tasks": len(corpus.tasks),
            "n_descriptions": len(corpus.texts), "n_paper_trials": paper_trials,
            "tasks_vs_paper": fewer_or_more(len(corpus.tasks) - int(paper_corpus["tasks"]), "task"),
            "descriptions_vs_paper": fewer_or_more(len(corpus.texts) - int(paper_corpus["descriptions"]),
                                                   "description")}


def comparison_values(comparison: pd.DataFrame) -> dict:
    """Chapter 05: how close the paper's accuracies are to ours (``comparison``: ``versus_paper.compare``):
    how many agree to the stated decimal, lie within 1 pp or above the paper's, and the range and mean of
    the Table 2 mean differences."""
    acc = comparison[comparison["unit"] == "%"].dropna(subset=["ours"])
    t2 = acc[acc["key"].str.startswith("table2.") & acc["key"].str.endswith(".mean")]
    return {"n_acc": len(acc), "n_exact": int((acc["diff"].abs() < 0.05).sum()),
            "n_near": int((acc["diff"].abs() <= 1.0).sum()), "t2_lo": t2["diff"].min(), "t2_hi": t2["diff"].max(),
            "t2_mean": t2["diff"].mean(), "t2_higher": how_many(int((t2["diff"] > 0).sum()), len(t2), "ranker"),
            "n_above": int((acc["diff"] > 0).sum())}


def gap_values(gap: pd.DataFrame) -> dict:
    """Chapter 05: our Table 2 means against the paper's in standard errors of the difference (``gap``:
    ``reproduction_tables.draw_gap``): the range of their sizes, how many lie beyond 3 SE, and how many rankers'
    intervals read "higher", "lower" and "not resolved"."""
    z = gap["diff_in_se"].abs()
    said = gap["verdict"].value_counts()
    n = len(gap)
    return {"z_lo": z.min(), "z_hi": z.max(), "n_beyond": how_many(int((z > 3).sum()), n, "ranker"),
            "n_gap_higher": how_many(int(said.get("higher", 0)), n, "ranker"),
            "n_gap_lower": how_many(int(said.get("lower", 0)), n, "ranker"),
            "n_gap_open": how_many(int(said.get("not resolved", 0)), n, "ranker")}


BENCH_KEYS = ("study_s", "study_cpu_s", "n_evaluations", "n_predictions", "fast_s", "reference_s", "ratio")


def bench_values(bench: Mapping | None, n_rankers: int) -> dict:
    """Chapter 05: the timing of the fast path against the plain reference (``bench``:
    ``protocol.time_against_reference``), NaN everywhere when it was not timed (``None``)."""
    if bench is None:
        return dict.fromkeys((*BENCH_KEYS, "n_rankers", "same_predictions"), NAN)
    return {"n_rankers": n_rankers, "same_predictions": "identical" if bench["identical"] else "different",
            **{k: v for k, v in bench.items() if k != "identical"}}

