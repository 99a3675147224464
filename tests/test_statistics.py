"""Across-gallery statistics and paired comparisons, against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from robotask.errors import RobotaskError
from robotask.retrieval.statistics import across_galleries


def _frame(acc: dict[str, list[int]], n_queries: int = 10, condition: str = "one") -> pd.DataFrame:
    rows = [(t, condition, r, "primary", n_queries, 0, c, 100.0 * c / n_queries)
            for r, counts in acc.items() for t, c in enumerate(counts)]
    return pd.DataFrame(rows, columns=["trial", "condition", "ranker", "policy", "n_queries", "n_excluded",
                                       "n_correct", "accuracy"])


def test_spread_closed_form():
    s = across_galleries.spread(np.array([1.0, 2, 3, 4, 5]))
    assert s["mean"] == 3 and math.isclose(s["sd"], math.sqrt(2.5))
    # linear (type 7) percentiles: position 0.05 * 4 = 0.2 -> 1.2, 0.95 * 4 = 3.8 -> 4.8
    assert math.isclose(s["p5"], 1.2) and math.isclose(s["p95"], 4.8)
    assert (s["min"], s["max"], s["n_trials"]) == (1, 5, 5)
    assert math.isnan(across_galleries.spread(np.array([7.0]))["sd"])
    with pytest.raises(RobotaskError):
        across_galleries.spread(np.array([]))


def test_paired_wins_ties_losses():
    per_trial = _frame({"char": [6, 7, 5, 9], "bm25": [5, 7, 6, 4]})
    p = across_galleries.paired(per_trial, "char", "bm25")
    assert (p["wins"], p["ties"], p["losses"]) == (2, 1, 1)
    assert math.isclose(p["mean_diff"], 100 * (1 + 0 - 1 + 5) / 10 / 4)
    with pytest.raises(RobotaskError, match="was not run"):
        across_galleries.paired(per_trial, "char", "lsa")


def test_summary_and_matched_tables():
    per_trial = _frame({"bm25": [5, 6], "char": [7, 9]})
    table = across_galleries.summary_table(per_trial)
    assert list(table["ranker"]) == ["bm25", "char"]
    assert table.loc[1, "mean"] == 80.0 and table.loc[1, "label"] == "Char TF-IDF"
    matched = pd.concat([_frame({"bm25": [5, 6]}, condition="matched_one"),
                         _frame({"bm25": [7, 6]}, condition="matched_two")])
    m = across_galleries.matched_table(matched).iloc[0]
    assert (m["one"], m["two"], m["diff"]) == (55.0, 65.0, 10.0)
    assert (m["two_better"], m["same"], m["two_worse"]) == (1, 1, 0)
    # gains of +20 and 0 pp over two galleries: a t interval that includes zero, so the verdict is open
    assert m["lo"] < 0 < m["hi"] and m["verdict"] == "not resolved"
    pair = across_galleries.paired(_frame({"bm25": [5, 6, 5], "char": [7, 9, 8]}), "char", "bm25")
    assert pair["verdict"] == "higher" and pair["lo"] > 0 and round(pair["mean_diff"], 9) == round(100 * 8 / 3 / 10, 9)
    broken = pd.concat([_frame({"bm25": [5, 6]}, condition="matched_one"),
                        _frame({"bm25": [7, 6]}, n_queries=11, condition="matched_two")])
    with pytest.raises(RobotaskError, match="query sets"):
        across_galleries.matched_table(broken)
    with pytest.raises(RobotaskError, match="no per-trial rows"):
        across_galleries.summary_table(per_trial, condition="matched_one")
