"""One comparison, one row of the verdict index: the task pages and chapter 14 name what differs in ``data``,
a head with no interval states no verdict, and chapter 15 writes intervals as words, not Python lists."""

from __future__ import annotations

import pandas as pd

from robotask.episode.published import tables as published_tables
from robotask.episode.published import values as published_values
from robotask.episode.report.summary import verdict_rows
from robotask.episode.tasks.registry import TASKS
from robotask.episode.unseen import comparisons

NAME = TASKS["timeline_action"].display_name


def _verdict(difference: float, low: float, high: float, word: str) -> dict:
    return {"verdict": word, "against": "majority class", "metric": "macro_f1", "difference": difference,
            "low": low, "high": high, "n_test": 100, "block": 10}


def test_task_rows_name_the_task_and_leave_out_a_head_with_no_interval():
    nan = float("nan")
    doc = {"runs": {"repeating": {"improved": {"verdicts": {"minimal": _verdict(0.2, 0.1, 0.3, "ahead"),
                                                            "mlp": _verdict(nan, nan, nan, "not resolved")}}}}}
    a = verdict_rows("timeline_action", doc, 100, 0.95)
    b = verdict_rows("timeline_subtask", doc, 100, 0.95)
    assert len(a) == len(b) == 1 and a.iloc[0]["a"] == "minimal head"
    assert a.iloc[0]["data"] == f"{NAME}: repeating episode, improved protocol, test part"
    keys = ["a", "b", "data", "metric"]
    assert not pd.concat([a, b])[keys].duplicated().any()


def test_chapter_14_rows_put_the_design_in_data():
    curve = pd.DataFrame([{"task": "timeline_action", "head": "minimal", "n_train": n, "gain_diff": 0.1 * n,
                           "gain_lo": 0.05, "gain_hi": 0.2 * n, "gain_pairs": 5, "gain_ratio": 0.5,
                           "gain_p_holm": 0.01, "verdict": "beats"} for n in (2, 4, 8)])
    index = comparisons.verdict_index(pd.DataFrame({"head": [], "protocol": []}), {}, pd.DataFrame(), curve,
                                      pd.DataFrame(), "synthetic", 2, 3)
    assert len(index) == 3 and not index[["a", "b", "data", "metric"]].duplicated().any()
    assert index["data"].tolist()[0] == f"synthetic, learning curve at 2 training episodes: {NAME}"


def test_published_intervals_read_as_words_with_a_true_minus():
    assert published_tables._with_interval(0.612, 0.519, 0.734) == "0.612 (0.519 to 0.734)"
    assert published_tables._with_interval(-0.05, -0.2, 0.1) == "−0.050 (−0.200 to 0.100)"


def test_synthetic_coverage_is_a_sentence_when_chapter_14_has_not_run():
    class Card:
        coverage = pd.DataFrame({"scope": ["episode"], "task": ["timeline_action"], "coverage": [0.25]})

    missing = published_values.coverage_values(Card(), None)
    assert "has not run" in missing["cov_synthetic"] and "–" not in missing["cov_synthetic"]
    ran = published_values.coverage_values(Card(), pd.DataFrame({"label": ["action", "action"],
                                                                 "coverage": [0.5, 0.3]}))
    assert ran["cov_synthetic"].endswith("coverage of 40.0 % (lowest fold 30.0 %)")
