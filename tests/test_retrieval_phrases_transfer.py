"""The phrases chapter 09_transfer glues into its Markdown say what its tables say."""

import pandas as pd

from robotask.retrieval import presentation as st


def test_by_library_fills_libraries_left_out():
    assert st.by_library("best", {"calvin": "x"}, ["rlbench62", "calvin"]) == {"best_rlbench62": "—",
                                                                              "best_calvin": "x"}


def test_ranker_and_paired_phrases():
    assert st.best_ranker("char", 81.24) == "Char TF-IDF (81.2 %)"
    row = {"Mean difference (pp)": -1.04, "Char wins": 9, "Galleries": 80}
    assert st.char_lead(row) == "−1.0 pp on average, ahead in 9 of 80"
    bands = pd.Series({"BM25": 10.0, "MiniLM (not in paper)": 12.34})
    assert st.widest(bands) == "12.3 pp (MiniLM)"


def test_where_all_hold():
    held = pd.DataFrame({"A": [True, True], "B": [True, False], "C": [True, True]})
    assert st.where_all_hold(held) == "only A and C"
    assert st.where_all_hold(held[["A"]]) == "every library"
    assert st.where_all_hold(held[["B"]]) == "no library"


def test_task_right_reading():
    assert st.task_right_reading(80.0).startswith("most wrong answers find the task")
    assert st.task_right_reading(20.0).startswith("most wrong answers miss the task")
