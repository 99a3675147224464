"""Computed prose reads like a person wrote it."""

import pytest

from robotask import words as prose


@pytest.mark.parametrize("n, word, text", [
    (1, "query", "1 query"), (3, "query", "3 queries"), (1, "loss", "1 loss"), (2, "loss", "2 losses"),
    (0, "class", "0 classes"), (80.0, "gallery", "80 galleries"), (1234, "frame", "1,234 frames"),
])
def test_count(n, word, text):
    assert prose.count(n, word) == text


def test_count_rejects_fractions_and_spells_small_numbers():
    with pytest.raises(ValueError):
        prose.count(2.5, "trial")
    assert prose.count(2, "gallery", words=True) == "two galleries"


def test_numbers_and_lists():
    assert prose.pct(63.27) == "63.3 %"
    assert prose.pp(4.94) == "+4.9 pp" and prose.pp(-1) == "−1.0 pp"
    assert prose.number(-0.0661) == "−0.066"
    assert prose.join(["a", "b", "c"]) == "a, b and c" and prose.join(["a"]) == "a" and prose.join([]) == ""


def test_tables_show_counts_as_integers_and_human_headers():
    import pandas as pd

    from robotask.book import report

    t = report.tidy_table(pd.DataFrame({"n_trials": [80.0, 79.0], "mean": [63.27, 58.41]}))
    assert list(t.columns) == ["N trials", "Mean"]
    assert str(t["N trials"].dtype) == "Int64" and t["Mean"].tolist() == [63.3, 58.4]
