"""The phrases chapters 06–08 glue into their Markdown say what the numbers say."""

import math

import pandas as pd

from robotask.retrieval import presentation as sb
from robotask.retrieval.presentation import phrases, values


def test_numbers_as_the_prose_shows_them():
    assert phrases.shown(64.83) == "64.8" and phrases.shown(4.94, True) == "+4.9" and phrases.shown(-1, True) == "−1.0"
    assert phrases.shown(float("nan")) == "—" and phrases.shown(3.0, digits=0) == "3"
    assert phrases.p_value(0.1234) == "P = 0.12" and phrases.p_value(1e-22) == "P < 0.001"


def test_time_ratio():
    assert phrases.time_ratio(87.0, 1.0) == "about 87 times as long as"
    assert phrases.time_ratio(1, 1.1) == "about as long as"
    assert phrases.time_ratio(0.1, 1.0) == "less time than"


def test_chapter_06_phrases():
    assert phrases.cache_source(False, 293, 293) == "embedded by the model in this run"
    assert phrases.cache_source(True, 0, 293).startswith("read from the on-disk vector cache")
    assert "(1 of them)" in phrases.cache_source(True, 1, 293)
    assert phrases.cosine_reading(0.88, 0.89) == "almost as close to the query as the paraphrase"
    assert phrases.cosine_reading(0.5, 0.9) == "clearly further from the query than the paraphrase"
    assert phrases.cosine_reading(0.9, 0.8) == "closer to the query than the paraphrase is"


def test_chapter_07_phrases():
    assert phrases.dominant_source(5.0, 2.0) == "the finite set of instructions"
    assert phrases.dominant_source(2.0, 5.0) == "the draw of the galleries"
    assert phrases.criteria_agreement(0.001, 1, 3, 0.05) == "both criteria separate the two rankers"
    assert phrases.criteria_agreement(0.001, -1, 3, 0.05).startswith("only the permutation test")
    assert phrases.criteria_agreement(0.5, 1, 3, 0.05).startswith("only the bootstrap interval")
    assert phrases.criteria_agreement(0.5, -1, 3, 0.05) == "neither criterion separates them"
    claims = pd.DataFrame({"claim": ["char > bm25", "bm25 > word", "word > lsa"],
                           "verdict": ["supported", "not resolved", "supported"]})
    assert phrases.claims_with(claims, "supported") == "Char TF-IDF > BM25 and Word TF-IDF > LSA-32"
    assert phrases.claims_with(claims, "contradicted") == "none"


def test_chapter_08_phrases():
    # the words come from the intervals, never from the means: (0.5, 2) gains, (−3, −1) loses, (−1, 4) is open
    assert phrases.signs(pd.Series([0.5, 1.0]), pd.Series([2.0, 3.0])) == "every ranker gains"
    three = "1 ranker gains, 1 ranker loses accuracy and 1 ranker is not resolved"
    assert phrases.signs(pd.Series([0.5, -3.0, -1.0]), pd.Series([2.0, -1.0, 4.0])) == three
    assert phrases.signs(pd.Series([-1.0, -2.0]), pd.Series([1.0, 3.0])) == "every ranker is not resolved"
    assert phrases.signs(pd.Series([-3.0, -2.0, 0.1]), pd.Series([-1.0, 3.0, 0.2])) == (
        "1 ranker gains, 1 ranker loses accuracy and 1 ranker is not resolved")
    assert sb.pair_list([("close_box", "open_box")]) == "close_box ↔ open_box" and sb.pair_list([]) == "none"


def test_perturbation_values_read_the_table():
    table = pd.DataFrame({"perturbation": ["spelling"] * 3, "ranker": ["bm25", "char", "word"],
                          "change": [-8.0, -1.0, -9.5], "lo": [-10.0, -2.5, -12.0], "hi": [-6.0, 0.5, -7.0]})
    v = values.perturbation_values(table, "spelling")
    assert v["spelling_signs"] == "2 rankers lose accuracy and 1 ranker is not resolved"
    assert (v["spelling_low"], v["spelling_low_ranker"]) == ("−9.5", "Word TF-IDF")
    assert (v["spelling_high"], v["spelling_high_ranker"]) == ("−1.0", "Char TF-IDF")
    assert (v["spelling_big"], v["spelling_big_lo"], v["spelling_big_hi"]) == ("−9.5", "−12.0", "−7.0")
    missing = values.perturbation_values(table, "inflection")
    assert set(missing.values()) == {"—"} and len(missing) == len(v)
    assert not any(isinstance(x, float) and math.isnan(x) for x in v.values())


def test_glue_values_glues_plain_numbers(monkeypatch):
    import myst_nb

    from robotask.book import glue_values

    glued = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.update({name: (value, display)}))
    glue_values(mean=pd.Series([64.8]).iloc[0], who="Char TF-IDF")
    assert glued == {"mean": (64.8, False), "who": ("Char TF-IDF", False)} and type(glued["mean"][0]) is float
