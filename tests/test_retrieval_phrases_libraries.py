"""The phrases chapter 09_transfer glues into its Markdown say what its tables say."""

import pandas as pd

from robotask.retrieval import presentation as st
from robotask.retrieval.presentation import phrases, values


def test_library_values_fill_libraries_left_out():
    assert st.library_values("best", {"calvin": "x"}, ["rlbench62", "calvin"]) == {"best_rlbench62": "—",
                                                                              "best_calvin": "x"}


def test_ranker_and_paired_phrases():
    row = {"Mean difference (pp)": -1.04, "Char wins": 9, "Galleries": 80}
    assert phrases.char_lead(row) == "−1.0 pp on average, ahead in 9 of 80"
    bands = pd.Series({"BM25": 10.0, "MiniLM (not in paper)": 12.34})
    assert phrases.widest(bands) == "12.3 pp (MiniLM)"


def test_where_all_hold():
    held = pd.DataFrame({"A": [True, True], "B": [True, False], "C": [True, True]})
    assert phrases.where_all_hold(held) == "only A and C"
    assert phrases.where_all_hold(held[["A"]]) == "every library"
    assert phrases.where_all_hold(held[["B"]]) == "no library"


def test_task_right_reading():
    assert phrases.task_right_reading(80.0).startswith("most wrong answers find the task")
    assert phrases.task_right_reading(20.0).startswith("most wrong answers miss the task")


def test_chapter_values_per_library_with_dashes_for_libraries_left_out():
    titles = {"rlbench62": "RLBench-62", "calvin": "CALVIN"}
    keys = ["rlbench62", "rlbench_task", "calvin"]
    paired = pd.DataFrame({"Library": ["RLBench-62", "RLBench-62", "CALVIN"],
                           "Comparison": ["Char TF-IDF − BM25", "Char TF-IDF − Word TF-IDF", "Char TF-IDF − BM25"],
                           "Mean difference (pp)": [5.25, 1.0, -1.04], "Char wins": [79, 60, 9],
                           "Galleries": [80, 80, 80]})
    assert st.char_lead_values(paired, titles, keys) == {"cb_rlbench62": "+5.2 pp on average, ahead in 79 of 80",
                                                   "cb_rlbench_task": "—",
                                                   "cb_calvin": "−1.0 pp on average, ahead in 9 of 80"}
    bands = pd.DataFrame({"Ranker": ["BM25", "LSA-32"], "RLBench-62": [10.0, 12.34], "CALVIN": [3.0, 2.0]})
    assert st.widest_band_values(bands, titles, keys) == {
        "band_rlbench62": "12.3 pp (LSA-32)", "band_rlbench_task": "—", "band_calvin": "3.0 pp (BM25)"}
    verdicts = pd.DataFrame({"RLBench-62": ["holds", "holds", "not resolved"],
                             "CALVIN": ["holds", "does not hold", "not resolved"]})
    assert st.claim_values(verdicts, titles, keys) == {
        "n_claims": 3, "all_hold": "no library", "held_rlbench62": "2 of 3", "held_rlbench_task": "—",
        "held_calvin": "1 of 3", "open_rlbench62": "1", "open_rlbench_task": "—", "open_calvin": "1"}


def test_variation_values_read_the_share_or_show_dashes():
    assert st.variation_values(None) == dict.fromkeys(values.VARIATION_KEYS, "—")
    numbers = {"var_excluded": "3", "var_task_right": 80.0}
    assert st.variation_values(numbers) == {**numbers, "var_reading": phrases.task_right_reading(80.0)}
