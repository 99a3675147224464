"""Helpers of the home page (notebook 00_home): reading other chapters' results, plain values."""

import json

from robotask.book import chapters, report


def test_read_summary_returns_none_for_a_chapter_that_did_not_run(tmp_path):
    assert report.read_summary("02_five_rankers", root=str(tmp_path)) is None
    (tmp_path / "02_five_rankers").mkdir()
    (tmp_path / "02_five_rankers" / "summary.json").write_text(json.dumps({"n_trials": 3}))
    assert report.read_summary("02_five_rankers", root=str(tmp_path)) == {"n_trials": 3}


def test_plain_value_never_rounds_and_never_shows_reprs():
    assert report.plain_value("0.75") == "0.75"
    assert report.plain_value('["bm25", "char"]') == "bm25, char"
    assert report.plain_value("true") == "yes"
    assert report.plain_value('""') == "(empty)"


def test_tidy_table_writes_booleans_and_lists_as_words():
    import pandas as pd

    shown = report.tidy_table(pd.DataFrame({"ok": [True, False], "items": [["a", "b"], ["c"]]}))
    assert list(shown["Ok"]) == ["yes", "no"] and list(shown["Items"]) == ["a, b", "c"]


def test_home_runs_after_every_chapter_it_reads():
    """The home page runs after every chapter but page 99, which times it (its run-time table lists the home)."""
    ids = [c.id for c in chapters.CHAPTERS]
    assert ids[-2:] == ["00_home", "99_reproducing"]
