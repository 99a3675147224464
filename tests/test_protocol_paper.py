"""The paper's numbers as data, the side-by-side comparison and the denominator arithmetic."""

from __future__ import annotations

import pandas as pd
import pytest

from robotask.errors import RobotaskError
from robotask.retrieval.protocol import study
from robotask.retrieval.protocol.draws import check_corpus, load_study_corpus
from robotask.retrieval.reproduction import paper, versus_paper


def test_numbers_are_complete_and_unique():
    table = paper.numbers()
    assert table["key"].is_unique
    assert len(table[table["key"].str.startswith("table2.")]) == 5 * 6
    assert len(table[table["key"].str.startswith("table3.")]) == 5 * 3
    assert len(table[table["key"].str.startswith("table4.")]) == 3 * 3
    t2 = table.set_index("key")["paper"]
    assert t2["table2.char.mean"] == 61.3 and t2["first_listed.word_char"] == 63.8
    # the paper's internal consistency: Table 3 differences = two − one, to rounding
    for r, v in paper.TABLE3.items():
        assert abs(v["two"] - v["one"] - v["diff"]) <= 0.11, r


def test_attainable_percentages():
    assert paper.attainable(63.8, 232) == [148]  # 148/232 = 63.79 %
    assert paper.attainable(63.8, 231) == []  # 147/231 = 63.64, 148/231 = 64.07
    dens = paper.denominators({"x": 62.9}, range(229, 234)).iloc[0]
    assert dens["fitting_n"] == "229 232"


def test_compare_and_claims_on_a_toy_corpus():
    frame = pd.DataFrame({"task": ["lamp_off"] * 3 + ["lamp_on"] * 3 + ["open_box"] * 3,
                          "text": ["turn off the light", "press the light switch", "lamp off",
                                   "turn on the light", "press the light switch", "lamp on",
                                   "open box", "open the box lid", "lift the box lid"]})
    corpus = check_corpus(frame)
    res = study.run_study(corpus, study.StudyConfig(n_trials=4, n_matched_trials=2))
    ours = versus_paper.our_numbers(res.per_trial, corpus, res.config)
    table = versus_paper.compare(ours)
    row = table.set_index("key").loc["corpus.descriptions"]
    assert (row["paper"], row["ours"], row["diff"]) == (296, 9, 9 - 296)
    assert table.set_index("key").loc["corpus.task_files",
                                      "ours"] != table.set_index("key").loc["corpus.task_files", "ours"]
    claims = versus_paper.check_claims(res.per_trial, corpus, res.predictions)
    assert list(claims["id"]) == [c.id for c in paper.CLAIMS]
    assert claims.set_index("id").loc["duplicate_only_switch", "reproduced"]


def test_empty_csv_is_a_clear_error(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(RobotaskError, match="not a readable CSV"):
        load_study_corpus(str(empty))


def test_claims_are_decided_by_paired_intervals_over_galleries_and_descriptions():
    from robotask.retrieval.reproduction import chapter_verdicts, claim_comparisons, claim_status, claim_values
    from robotask.words import VERDICT_COLUMNS

    corpus = load_study_corpus("", min_per_task=3)
    config = study.StudyConfig(n_trials=6, n_matched_trials=4, save_all_predictions=True)
    res = study.run_study(corpus, config)
    compared = claim_comparisons(res.predictions, list(config.rankers), 200, 0)
    assert {"char_best_mean", "char_best_two", "second_helps_all", "first_listed_reversal"} <= set(compared["claim"])
    fixed = compared[compared["data"].str.startswith("first-listed")].iloc[0]
    n_scored = int((~corpus.duplicate).sum()) - len(corpus.tasks)  # one fixed gallery: its scored queries
    assert fixed["unit"].startswith("descriptions") and fixed["n_units"] == n_scored
    # the point difference of the one-description galleries is the per-trial table's
    one = res.per_trial.query("condition == 'one' and policy == 'primary'").groupby("ranker")["accuracy"].mean()
    row = compared[(compared["claim"] == "char_beats_bm25")].iloc[0]
    assert abs(row["difference"] - (one["char"] - one["bm25"])) < 1e-9 and row["low"] <= row["difference"]
    audit = res.predictions[res.predictions["condition"] == "first_listed"]
    claims = claim_status(versus_paper.check_claims(res.per_trial, corpus, audit), compared)
    open_ones = compared[(compared["low"] <= 0) & (compared["high"] >= 0)]["claim"]
    for claim in set(open_ones):  # a claim with an interval over zero is never "reproduced"
        assert claims.set_index("id").loc[claim, "status"] != "reproduced"
    values = claim_values(claims)
    assert values["n_ok"] + values["n_open"] + values["n_missed"] == len(paper.CLAIMS)
    gap = pd.DataFrame({"diff": [1.0], "lo": [-0.5], "hi": [2.5]}, index=["char"])
    verdicts = chapter_verdicts("05", compared, claims, gap, "RLBench", 6, 80)
    assert list(verdicts.columns) == list(VERDICT_COLUMNS) and verdicts["verdict"].iloc[-1] == "not resolved"
