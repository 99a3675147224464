"""Counts, plurals, articles and number words read like a person wrote them (``robotask.words``)."""

import pytest

from robotask import words
from robotask.errors import RobotaskError


@pytest.mark.parametrize("word, plural", [
    ("query", "queries"), ("class", "classes"), ("fix", "fixes"), ("match", "matches"), ("day", "days"),
    ("column", "columns"), ("true boundary", "true boundaries"), ("ranker parameter", "ranker parameters"),
    ("is", "are"), ("row index", "row indices"), ("test class", "test classes"),
])
def test_plural_of(word, plural):
    assert words.plural_of(word) == plural


@pytest.mark.parametrize("n, word, text", [
    (1, "task", "1 task"), (2, "task", "2 tasks"), (0, "class", "0 classes"), (80.0, "gallery", "80 galleries"),
    (1234, "frame", "1,234 frames"), (2, "fixed description", "2 fixed descriptions"),
])
def test_count(n, word, text):
    assert words.count(n, word) == text


def test_count_takes_numpy_integers_rejects_fractions_and_spells_small_numbers():
    np = pytest.importorskip("numpy")
    assert words.count(np.int64(1), "class") == "1 class"
    with pytest.raises(ValueError, match="whole number"):
        words.count(2.5, "trial")
    assert words.count(2, "gallery", words=True) == "two galleries"
    assert words.count(11, "gallery", words=True) == "11 galleries"


def test_named_lists_items_after_a_noun_that_agrees_with_them():
    assert words.named("column", ["text"]) == "column text"
    assert words.named("column", ["task", "text"]) == "columns task, text"
    assert words.named("ranker parameter", ("k1", "b")) == "ranker parameters k1, b"


@pytest.mark.parametrize("word, text", [
    ("int", "an int"), ("str", "a str"), ("dict", "a dict"), ("list", "a list"), ("float", "a float"),
    ("unit", "a unit"), ("ndarray", "an ndarray"), ("hour", "an hour"), ("Episode", "an Episode"),
    ("one", "a one"), ("umbrella", "an umbrella"),
])
def test_with_article(word, text):
    assert words.with_article(word) == text


def test_kind_of_names_the_type_with_its_article():
    assert words.kind_of(3) == "an int"
    assert words.kind_of("x") == "a str"
    assert words.kind_of({}) == "a dict"
    assert words.kind_of(None) == "null"


def test_wing_messages_count_without_parenthesised_plurals():
    from robotask.episode.tasks.splits import EpisodeSplit, check_disjoint
    from robotask.retrieval.perturbations.transforms import check_perturbations
    from robotask.retrieval.protocol.study import config_from_parameters

    with pytest.raises(RobotaskError, match=r"^split s: episodes a, b in train and test; expected disjoint$"):
        check_disjoint(EpisodeSplit("s", ("a", "b", "c"), ("a", "b")))
    with pytest.raises(RobotaskError, match=r"^unknown study parameter n_trails; expected some of "):
        config_from_parameters(n_trails=3)
    with pytest.raises(RobotaskError, match=r"^perturbations: unknown perturbations 'x', 'y'; valid: "):
        check_perturbations("x,y")
    with pytest.raises(RobotaskError, match=r"^perturbations: no perturbation given; valid: "):
        check_perturbations("")


def test_number_uses_a_true_minus_sign():
    from robotask.words import number

    assert number(-3.91098) == "−3.911" and number(0.5, 1) == "0.5" and number(2) == "2.000"


def test_the_wings_count_with_the_core_helper():
    """One plural rule everywhere: the wings' sentence helpers are the core's (no "daies")."""
    from robotask.retrieval.presentation import phrases

    assert phrases.how_many(1, 3, "day") == "1 of 3 days"


def test_pct_formats_a_value_already_in_percent_units():
    assert words.pct(63.27) == "63.3 %" and words.pct(5, 0) == "5 %" and words.pct(100 * 0.613) == "61.3 %"


@pytest.mark.parametrize("x, digits, text", [
    (4.94, 1, "+4.9 pp"), (-1, 1, "−1.0 pp"), (0, 1, "0.0 pp"), (-0.04, 1, "0.0 pp"), (0.04, 1, "0.0 pp"),
    (0.05001, 1, "+0.1 pp"), (-0.004, 2, "0.00 pp"), (2.345, 2, "+2.35 pp"),
])
def test_pp_signs_a_difference_unless_it_rounds_to_zero(x, digits, text):
    assert words.pp(x, digits) == text


def test_pp_may_leave_its_unit_off():
    assert words.pp(-1.26, unit="") == "−1.3" and words.pp(0.01, unit="") == "0.0"


def test_join_lists_items_as_a_sentence_would():
    assert words.join(["a", "b", "c"]) == "a, b and c" and words.join(("a", "b"), "or") == "a or b"
    assert words.join(["a"]) == "a" and words.join([]) == "" and words.join(i for i in (1, 2)) == "1 and 2"



def test_verdict_row_decides_from_its_interval_and_has_the_index_columns():
    from robotask.words import VERDICT_COLUMNS, verdict_row

    common = dict(chapter="02", claim="c", a="char", b="bm25", data="rlbench", metric="top-1 %", difference=1.0,
                  unit="gallery and description", n_units=80, method="two-way bootstrap")
    assert tuple(verdict_row(**common, low=0.2, high=2.0)) == VERDICT_COLUMNS
    assert verdict_row(**common, low=0.2, high=2.0)["verdict"] == "higher"
    assert verdict_row(**common, low=-2.0, high=-0.1)["verdict"] == "lower"
    assert verdict_row(**common, low=-0.3, high=2.0)["verdict"] == "not resolved"
