"""The run-level values and summary records of chapters 02 to 05, and the small protocol and statistics helpers
their notebooks call."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from robotask.retrieval import presentation as rp
from robotask.retrieval.protocol import StudyConfig, other_reading
from robotask.retrieval.reproduction import file_counts
from robotask.retrieval.statistics import identical_queries, pairs_among

CORPUS = SimpleNamespace(tasks=["a", "b", "c", "d"], texts=[f"t{i}" for i in range(14)])


def test_spread_values_show_a_dash_when_only_the_papers_rankers_ran():
    stats = pd.DataFrame({"mean": [60.0, 64.0], "min": [50.0, 57.0], "max": [66.0, 69.0], "p5": [52.0, 58.0],
                          "p95": [65.0, 68.0]}, index=["bm25", "char"])
    facts = rp.spread_values(stats, {}, ["bm25", "char"])
    assert facts["best"] == "Char TF-IDF" and facts["top_extra"] == "—"
    assert facts["top_extra_mean"] != facts["top_extra_mean"]  # NaN: the paragraph shows a dash


def _matched(verdicts: list[str], diffs: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"ranker": ["bm25", "char"], "label": ["BM25", "Char TF-IDF"], "one": [50.0, 60.0],
                         "two": [55.0, 61.0], "diff": diffs, "two_better": [20, 12], "two_worse": [2, 9],
                         "n_trials": [30, 30], "verdict": verdicts})


def test_other_reading_values():
    used = _matched(["higher", "not resolved"], [5.0, 1.0])
    other = _matched(["higher", "higher"], [4.0, 2.5])
    v = rp.other_reading_values(used, other, "continue", "reuse")
    assert (v["other"], v["used"], v["alt_lo"], v["alt_hi"]) == ("reuse", "continue", 2.5, 4.0)
    assert v["alt_n_gain"] == "both rankers" and v["n_agree"] == "1 of 2 rankers"
    skipped = rp.other_reading_values(used, None, "continue", "reuse")  # repeats the reading used
    assert skipped["alt_hi"] == 5.0 and skipped["n_agree"] == "both rankers"


def test_other_reading_swaps_the_draws_and_refuses_reuse_without_enough_primary_trials():
    name, config = other_reading(StudyConfig(n_trials=40, n_matched_trials=30, save_all_predictions=True))
    assert name == "reuse" and config.matched_draws == "reuse" and not config.save_all_predictions
    assert other_reading(StudyConfig(n_trials=10, n_matched_trials=30)) == ("reuse", None)
    name, config = other_reading(StudyConfig(n_trials=10, n_matched_trials=30, matched_draws="reuse"))
    assert name == "continue" and config.matched_draws == "continue"


def test_identical_queries_and_pairs_among():
    rows = [(t, r, c, n) for t in (0, 1) for r in ("bm25", "char") for c, n in (("matched_one", 6),
                                                                             ("matched_two", 6))]
    per_trial = pd.DataFrame(rows, columns=["trial", "ranker", "condition", "n_queries"])
    assert identical_queries(per_trial)
    assert not identical_queries(per_trial.assign(n_queries=range(len(per_trial))))
    assert pairs_among([("char", "bm25"), ("lsa", "word"), ("word", "char")], ["word", "char", "bm25"]) == [
        ("char", "bm25"), ("word", "char")]


def test_duplicate_values():
    dups = pd.DataFrame({"task": ["a", "b"], "text": ["same", "same"]})
    v = rp.duplicate_count_values(CORPUS, dups, pd.Series({1: 3, 2: 2}))
    assert (v["n_dup_texts"], v["n_dup_rows"], v["n_draws"], v["n_queries"], v["bound"]) == (1, 2, 5, 10, 20.0)
    assert v["per_draw"] == "1 in 3 draws and 2 in 2 draws"
    assert rp.premise(True) == "holds" and "does not apply" in rp.premise(False)


def test_reproduction_values_read_the_comparison_claims_gap_and_timing():
    comparison = pd.DataFrame({"key": ["table2.char.mean", "table2.bm25.mean", "table3.char.one", "corpus.tasks"],
                               "unit": ["%", "%", "%", "count"], "ours": [63.0, 58.0, 60.0, 106.0],
                               "diff": [1.0, -0.02, 2.0, -1.0]})
    v = rp.comparison_values(comparison)
    assert (v["n_acc"], v["n_exact"], v["n_near"], v["n_above"]) == (3, 1, 2, 2)
    assert (v["t2_lo"], v["t2_hi"], v["t2_higher"]) == (-0.02, 1.0, "1 of 2 rankers")
    assert v["t2_mean"] == pytest.approx(0.49)
    gap = pd.DataFrame({"diff_in_se": [-4.0, 1.0, 2.0], "verdict": ["lower", "not resolved", "higher"]})
    g = rp.gap_values(gap)
    assert (g["z_lo"], g["z_hi"], g["n_beyond"], g["n_gap_lower"]) == (1.0, 4.0, "1 of 3 rankers", "1 of 3 rankers")
    timed = rp.bench_values({"identical": True, "fast_s": 0.5, "ratio": 40.0}, 5)
    assert timed == {"n_rankers": 5, "same_predictions": "identical", "fast_s": 0.5, "ratio": 40.0}
    untimed = rp.bench_values(None, 5)
    assert all(x != x for x in untimed.values()) and "same_predictions" in untimed and "study_s" in untimed


def test_file_counts_count_every_task_file_and_those_not_fixed():
    accounting = pd.DataFrame({"status": ["fixed", "templated", "fixed", "no_descriptions"]})
    assert file_counts(accounting) == {"corpus.task_files": 4, "corpus.other_files": 2}


def test_study_config_reads_the_study_settings_of_a_parameters_cell():
    from robotask.retrieval.protocol import study_config

    cell = {"seed": 7, "n_trials": 5, "rankers": ("bm25", "char"), "char_ngram_max": 4, "output_dir": "x",
            "corpus_path": ""}
    config = study_config(cell)
    assert (config.seed, config.n_trials, config.rankers) == (7, 5, ["bm25", "char"])
    assert config.params["char_ngram_max"] == 4 and config.n_matched_trials == 30  # the rest: the paper's
