"""Readers' names for table ids, and the tables chapters 01 to 05 shape for a reader."""

from __future__ import annotations

import pandas as pd

from robotask.retrieval.presentation import reproduction_tables as tl


def test_number_labels_name_table_ranker_and_statistic():
    assert tl.number_label("table2.bm25.max") == "BM25 maximum (Table 2)"
    assert tl.number_label("table2.word_char.p5", source=False) == "Word+Char 5th percentile"
    assert tl.number_label("table3.lsa.diff") == "LSA-32 gain from a second description (Table 3)"
    assert tl.number_label("table4.char.either") == "Char TF-IDF under either-label scoring (Table 4)"
    assert tl.number_label("first_listed.char") == "Char TF-IDF on the first-listed gallery"
    assert tl.number_label("paired.char-bm25.wins") == "Char TF-IDF − BM25: galleries won"
    assert tl.number_label("corpus.queries_per_trial") == "Queries per one-description gallery"
    assert tl.number_label("settings.lsa_dims") == "LSA components"
    assert tl.number_label("unknown.key") == "unknown.key"


def test_every_number_of_the_report_gets_a_label_without_ids():
    from robotask.retrieval.reproduction import paper

    keys = ([f"table2.{r}.{s}" for r, d in paper.TABLE2.items() for s in d]
            + [f"table4.{r}.{s}" for r, d in paper.TABLE4.items() for s in d]
            + [f"first_listed.{r}" for r in paper.FIRST_LISTED]
            + [f"corpus.{k}" for k in tl.QUANTITY_LABELS] + [f"settings.{k}" for k in tl.SETTINGS])
    for key in keys:
        text = tl.number_label(key)
        assert "_" not in text and "." not in text.replace("5th", "").replace("95th", ""), (key, text)


def test_reading_labels_and_names():
    assert tl.reading_label("split_one:play_jenga") == "split the glued literal of play_jenga"
    assert tl.reading_label("committed") == "the committed corpus"
    assert tl.reading_label("dedupe_within_task") == "drop texts repeated inside a task"
    assert tl.reading_names(["committed", "split_one:a"]) == "the committed corpus; split the glued literal of a"
    assert tl.reading_names([]) == "none"


def test_plain_plurals_lists_and_ranker_labels():
    assert tl.plain_plurals("returns 2 fixed description(s) and 1 template(s)") == (
        "returns 2 fixed descriptions and 1 template")
    text = "duplicates: ['press the light switch'] under ['lamp_off', 'lamp_on']"
    assert tl.plain_lists(text) == "duplicates: press the light switch under lamp_off and lamp_on"
    assert tl.ranker_labels("highest mean: char (61.0 %)") == "highest mean: Char TF-IDF (61.0 %)"
    assert tl.ranker_labels("word_char beats char") == "Word+Char beats Char TF-IDF"
    assert tl.ranker_labels("bm25 predicts x for 'word char'") == "BM25 predicts x for 'word char'"
    assert tl.ranker_labels("charger, wordy, BM25") == "charger, wordy, BM25"


def test_alternative_headers_use_ranker_labels():
    heads = tl.alternative_headers(["corpus", "first_listed_scored", "fl_word_char", "mean_bm25"])
    assert heads == {"corpus": "Reading", "first_listed_scored": "First-listed: scored queries",
                     "fl_word_char": "First-listed: Word+Char", "mean_bm25": "Mean: BM25"}


def test_excluded_files_are_the_non_fixed_rows_sorted_by_status():
    accounting = pd.DataFrame({"file": ["b.py", "a.py", "c.py"], "status": ["templated", "fixed", "branches"],
                               "reason": ["fills 1 template(s)", "", "2 return(s)"],
                               "n_fixed_literals": [0, 3, 2], "n_templates": [1, 0, 0]})
    out = tl.excluded_files(accounting)
    assert list(out["file"]) == ["c.py", "b.py"] and list(out["reason"]) == ["2 returns", "fills 1 template"]


def test_comparison_overview_and_largest_differences():
    comp = pd.DataFrame({"key": ["table2.bm25.mean", "table2.char.mean", "settings.seed"],
                         "unit": ["%", "%", "setting"], "paper": [50.0, 60.0, 413.0],
                         "ours": [50.0, 62.0, 413.0], "diff": [0.0, 2.0, 0.0]})
    over = tl.comparison_overview(comp).set_index("numbers")
    assert over.loc["Table 2 (random galleries)", "agree"] == 1
    assert over.loc["Table 2 (random galleries)", "within_1"] == 1
    top = tl.largest_differences(comp, 5)
    assert list(top["key"]) == ["Char TF-IDF mean", "BM25 mean"]  # settings are never listed


def test_table2_and_table3_sit_beside_the_papers_numbers():
    summary = pd.DataFrame({"ranker": ["char", "minilm"], "label": ["Char TF-IDF", "MiniLM"],
                            "n_trials": [3, 3], "mean": [63.0, 70.0]})
    t2 = tl.ranker_table(summary, {"char": {"mean": 61.0}})
    assert t2["diff_pp"].iloc[0] == 2.0 and pd.isna(t2["paper_mean"].iloc[1])
    matched = pd.DataFrame({"ranker": ["bm25"], "label": ["BM25"], "one": [50.0], "two": [55.0],
                            "diff": [5.0], "sd_diff": [1.0], "two_better": [2], "same": [0],
                            "two_worse": [0], "lo": [2.0], "hi": [8.0], "verdict": ["higher"]})
    t3 = tl.second_description_table(matched, {"bm25": {"one": 49.0, "two": 59.0, "diff": 10.0}})
    assert t3[["paper_one", "paper_two", "paper_diff"]].iloc[0].tolist() == [49.0, 59.0, 10.0]
    assert t3["verdict"].iloc[0] == "higher" and "sd_diff" not in t3
    both, heads = tl.two_readings(matched, matched.assign(diff=3.0), "continue", "reuse")
    assert both["diff_reuse"].iloc[0] == 3.0 and heads["diff_reuse"] == "Gain (reuse, pp)"


def test_error_examples_pick_one_query_per_kind():
    errors = pd.DataFrame([
        ("bm25", "clean up the mess", "wipe_desk", "scoop"), ("char", "clean up the mess", "wipe_desk", "scoop"),
        ("bm25", "open the bbq", "open_grill", "open_oven"), ("char", "open the bbq", "open_grill", "open_oven"),
        ("bm25", "lift the seat", "seat_up", "seat_down"), ("char", "lift the seat", "seat_up", "seat_down"),
        ("char", "open the box", "open_box", "open_oven")], columns=["ranker", "text", "task", "predicted"])
    gallery = {"wipe_desk": "wipe dirt off the desk", "open_grill": "open the grill", "seat_up": "seat up",
               "open_box": "open box"}
    out = tl.error_examples(errors, gallery, {"seat_up": "seat_down"}, n_rankers=2)
    assert list(out["query"]) == ["clean up the mess", "lift the seat", "open the bbq", "open the box"]
    assert list(out["missed_by"]) == ["all", "all", "all", "Char TF-IDF"]
    assert out["kind"].tolist() == list(tl.ERROR_KINDS.values())


def test_draw_gap_is_in_standard_errors_of_the_difference_of_two_means():
    summary = pd.DataFrame({"ranker": ["char", "bm25"], "label": ["Char TF-IDF", "BM25"], "mean": [66.0, 55.0],
                            "sd": [4.0, 4.0]})
    paper = {"char": {"mean": 62.0, "sd": 3.0}, "bm25": {"mean": 55.5, "sd": 3.0}}
    gap = tl.draw_gap(summary, paper, n_trials=16, paper_trials=9).set_index("label")
    # SE of the difference: sqrt(4²/16 + 3²/9) = sqrt(2); our SE alone would be 1
    assert round(gap.loc["Char TF-IDF", "se_of_diff"] ** 2, 9) == 2.0
    assert round(gap.loc["Char TF-IDF", "diff_in_se"], 6) == round(4 / 2 ** 0.5, 6)
    assert gap.loc["Char TF-IDF", "verdict"] == "higher"  # 4 ± 1.96·1.41 lies above zero
    assert gap.loc["BM25", "verdict"] == "not resolved"  # −0.5 ± 2.77 includes zero
    cells = pd.Series(["229 232", "none", "230"])
    assert tl.fits_counts(cells, {232, 233}) == [True, False, False]
