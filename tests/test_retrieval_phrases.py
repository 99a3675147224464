"""The data-dependent words chapters 01 to 05 glue into their Markdown."""

from __future__ import annotations

import pandas as pd

from robotask.retrieval.presentation import phrases as ph


def test_leader_takes_the_highest_value_and_breaks_ties_by_name():
    assert ph.leader({"bm25": 60.0, "char": 64.0}) == "char"
    assert ph.leader({"b": 1.0, "a": 1.0}) == "a"
    assert ph.leader(pd.Series({"x": -2.0, "y": -1.0})) == "y"


def test_fewer_or_more_and_fits():
    assert ph.fewer_or_more(-1, "description") == "one description fewer"
    assert ph.fewer_or_more(2, "task") == "two tasks more"
    assert ph.fewer_or_more(0, "task") == "the same number of tasks"
    assert ph.fits(232, [229, 232]) == "fits" and ph.fits(231, [229, 232]) == "does not fit"


def test_signs_read_as_words():
    assert ph.beats(4.6) == "beats" and ph.beats(-0.6) == "trails" and ph.beats(0.0) == "ties with"
    assert ph.same_or_reversed(0.4, -0.6) == "reversed" and ph.same_or_reversed(1.0, 2.0) == "the same"
    assert ph.one_sign([4.6, 4.5, 4.7]) == "has the same sign"
    assert ph.one_sign([0.5, -0.1]) == "changes sign" and ph.one_sign([-1.0, -2.0]) == "has the same sign"
    a, b = pd.Series({"x": 1.0, "y": 2.0}), pd.Series({"y": 3.0, "x": 0.5})
    assert ph.same_signs(a, b) == "the same for every ranker"
    assert ph.same_signs(a, -b) == "different for at least one ranker"


def test_how_many_and_records():
    assert ph.how_many(5, 5, "ranker") == "every ranker" and ph.how_many(0, 5, "ranker") == "no ranker"
    assert ph.how_many(2, 2, "error") == "both errors" and ph.how_many(3, 5, "ranker") == "3 of 5 rankers"
    assert ph.record(3, 0, 0) == "higher in every gallery" and ph.record(0, 0, 1) == "lower in the one gallery"
    assert ph.record(1, 0, 2) == "higher in 1, tied in 0 and lower in 2 of the 3 galleries"


def test_lists_and_exclusions():
    assert ph.per_draw(pd.Series({1: 45, 2: 35})) == "1 in 45 draws and 2 in 35 draws"
    assert ph.labels(["bm25", "char"]) == "BM25 and Char TF-IDF" and ph.labels([]) == "none"


def test_verdicts_follow_their_thresholds():
    assert ph.offset_reading(38, 46).startswith("An offset that points one way")
    assert ph.offset_reading(24, 46).startswith("The differences point both ways")
    assert ph.draw_verdict(2).startswith("is not explained") and ph.draw_verdict(0).startswith("can be")
    assert ph.size_verdict(12, 11, 12) == "supports" and ph.size_verdict(11, 11, 12) == "does not settle"
    assert ph.size_verdict(12, 12, 12) == "does not settle"
    assert ph.reading_verdict(0.5, 3.0).startswith("changes the fingerprint")
    assert ph.reading_verdict(2.0, 3.0).startswith("moves the means")
