"""The index of every verdict (chapter 97): reading each chapter's verdicts.csv, chapter 15's comparisons.csv
mapped to the same columns, and the check that one comparison has one row's numbers on every page."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from robotask.book import provenance
from robotask.errors import RobotaskError
from robotask.io import write_csv
from robotask.words import VERDICT_COLUMNS, verdict_row


def row(chapter: str, a: str = "Char TF-IDF", b: str = "Word+Char", difference: float = -0.6, low: float = -1.07,
        high: float = -0.27, data: str = "RLBench-62", metric: str = "top-1 accuracy (pp)") -> dict:
    return verdict_row(chapter=chapter, claim=f"{a} against {b}", a=a, b=b, data=data, metric=metric,
                       difference=difference, low=low, high=high, unit="gallery and description", n_units=80,
                       method="two-way bootstrap")


def write_rows(folder, rows) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_csv(folder / "verdicts.csv", pd.DataFrame(rows, columns=list(VERDICT_COLUMNS)))


COMPARISONS = pd.DataFrame({
    "scope": ["episode", "collection"], "task": ["timeline_action", "next_action"], "metric": ["f1", "accuracy"],
    "a": ["minimal", "simple"], "b": ["mlp", "neural"], "a_value": [0.5, 0.7], "b_value": [0.4, 0.72],
    "difference": [0.1, -0.02], "low": [0.02, -0.05], "high": [0.2, 0.01], "unit": ["block", "episode"],
    "verdict": ["higher", "not resolved"]})


def test_every_chapter_s_rows_are_read_in_chapter_order(tmp_path):
    write_rows(tmp_path / "07_uncertainty", [row("07_uncertainty"), row("07_uncertainty", b="BM25")])
    write_rows(tmp_path / "02_five_rankers", [row("02_five_rankers")])
    write_rows(tmp_path / "97_verdicts", [row("97_verdicts")])  # the index's own folder, skipped
    (tmp_path / "03_second_description").mkdir()  # a chapter that states no verdict
    rows = provenance.read_verdicts(tmp_path, skip=("97_verdicts",))
    assert list(rows.columns) == list(VERDICT_COLUMNS)
    assert rows["chapter"].tolist() == ["02_five_rankers", "07_uncertainty", "07_uncertainty"]
    assert rows["verdict"].tolist() == ["lower", "lower", "lower"] and rows["n_units"].tolist() == [80, 80, 80]


def test_chapter_15_comparisons_are_mapped_to_the_index_columns(tmp_path):
    folder = tmp_path / "15_real_episodes"
    folder.mkdir()
    write_csv(folder / "comparisons.csv", COMPARISONS)
    rows = provenance.read_verdicts(tmp_path)
    assert list(rows.columns) == list(VERDICT_COLUMNS) and len(rows) == 2
    first = rows.iloc[0]
    assert (first["chapter"], first["a"], first["b"], first["data"]) == ("15_real_episodes", "minimal", "mlp",
                                                                         "episode: timeline_action")
    assert first["claim"] == "minimal against mlp on timeline_action" and first["unit"].startswith("block")
    assert "episodes" in rows.iloc[1]["method"] and rows["n_units"].isna().all()
    assert rows["verdict"].tolist() == ["higher", "not resolved"]


def test_a_chapter_s_own_verdicts_win_over_its_comparisons(tmp_path):
    folder = tmp_path / "15_real_episodes"
    write_rows(folder, [row("15_real_episodes")])
    write_csv(folder / "comparisons.csv", COMPARISONS)
    assert len(provenance.read_verdicts(tmp_path)) == 1


def test_no_results_and_empty_files_give_no_rows(tmp_path):
    assert provenance.read_verdicts(tmp_path / "absent").empty
    (tmp_path / "02_five_rankers").mkdir()
    (tmp_path / "02_five_rankers" / "verdicts.csv").write_text("\n")
    write_rows(tmp_path / "07_uncertainty", [])
    rows = provenance.read_verdicts(tmp_path)
    assert rows.empty and list(rows.columns) == list(VERDICT_COLUMNS)


def test_a_file_missing_a_column_is_one_clear_error(tmp_path):
    folder = tmp_path / "02_five_rankers"
    folder.mkdir()
    write_csv(folder / "verdicts.csv", pd.DataFrame([row("02_five_rankers")]).drop(columns=["low"]))
    with pytest.raises(RobotaskError, match=r"02_five_rankers/verdicts.csv: missing column\(s\) low"):
        provenance.read_verdicts(tmp_path)


def test_the_same_comparison_with_the_same_numbers_is_consistent():
    rows = pd.DataFrame([row("02_five_rankers"), row("09_transfer"),
                         row("07_uncertainty", a="Word+Char", b="Char TF-IDF", difference=0.6, low=0.27, high=1.07),
                         row("07_uncertainty", b="BM25", difference=5.0, low=1.0, high=9.0)])
    assert provenance.inconsistent_verdicts(rows).empty


def test_one_comparison_with_two_intervals_is_reported():
    # the example: "lower" in 02, "leads" in 09.1, "not resolved" in 07, for one comparison
    rows = pd.DataFrame([row("02_five_rankers"),
                         row("09_transfer", a="Word+Char", b="Char TF-IDF", difference=0.7, low=0.3, high=1.1),
                         row("07_uncertainty", difference=-0.7, low=-1.7, high=0.3),
                         row("07_uncertainty", b="BM25", difference=5.0, low=1.0, high=9.0),
                         row("02_five_rankers", metric="top-5", difference=math.nan, low=math.nan, high=math.nan),
                         row("09_transfer", metric="top-5", difference=math.nan, low=math.nan, high=math.nan)])
    bad = provenance.inconsistent_verdicts(rows)
    assert bad["chapter"].tolist() == ["02_five_rankers", "09_transfer", "07_uncertainty"]
    assert bad["comparison"].tolist() == [1, 1, 1]
    assert bad["verdict"].tolist() == ["lower", "higher", "not resolved"]


def test_a_difference_beyond_float_noise_counts():
    rows = pd.DataFrame([row("02_five_rankers"), row("09_transfer", low=-1.07 + 1e-13),
                         row("07_uncertainty", high=-0.2701)])
    # every row of the comparison is shown, the one that agrees with the first too
    assert provenance.inconsistent_verdicts(rows)["chapter"].tolist() == ["02_five_rankers", "09_transfer",
                                                                          "07_uncertainty"]
    assert provenance.inconsistent_verdicts(rows.iloc[:2]).empty


def test_rows_come_in_the_book_s_order_and_link_to_their_page(tmp_path):
    write_rows(tmp_path / "zz_retired", [row("zz_retired")])
    write_rows(tmp_path / "12_task_next_action", [row("12_task_next_action")])
    write_rows(tmp_path / "02_five_rankers", [row("02_five_rankers")])
    rows = provenance.read_verdicts(tmp_path)
    assert rows["chapter"].tolist() == ["02_five_rankers", "12_task_next_action", "zz_retired"]
    assert provenance.page_link("12_task_next_action") == "{doc}`12_task_next_action`"
    assert provenance.page_link("zz_retired") == "`zz_retired`"


def test_each_comparison_s_rows_are_listed_together():
    rows = pd.DataFrame([row("02_five_rankers"), row("02_five_rankers", b="BM25", difference=4.0, low=1.0, high=7.0),
                         row("07_uncertainty", low=-2.0), row("07_uncertainty", b="BM25", difference=5.0, low=1.0,
                                                              high=9.0)])
    bad = provenance.inconsistent_verdicts(rows)
    assert bad["comparison"].tolist() == [1, 1, 2, 2]
    assert bad["chapter"].tolist() == ["02_five_rankers", "07_uncertainty"] * 2
