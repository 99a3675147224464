"""The home page's sentences and the number words agree with the numbers they describe."""

from robotask import words
from robotask.retrieval import presentation
from robotask.retrieval.presentation import phrases


def test_ordering_is_by_mean_and_shows_each_mean():
    text = presentation.ordering({"bm25": 55.0, "char": 61.0, "lsa": 52.5})
    assert text == "Char TF-IDF (61.0 %) > BM25 (55.0 %) > LSA-32 (52.5 %)"


def test_counts_and_signs_read_as_words():
    assert ([words.count(n, w) for n, w in [(1, "query"), (2, "query"), (3, "loss"), (80.0, "gallery")]] ==
        ["1 query", "2 queries", "3 losses", "80 galleries"])
    assert words.pp(4.94) == "+4.9 pp" and words.pp(-1) == "−1.0 pp"
    assert words.pp(-0.02) == "0.0 pp" and words.pp(0.04) == "0.0 pp"
    assert phrases.verb(1, "has", "have") == "has" and phrases.verb(0, "has", "have") == "have"


def test_claim_labels_and_headers_name_rankers_by_label():
    from robotask.retrieval import presentation as sb
    assert sb.claim_label("bm25 > word") == "BM25 > Word TF-IDF"
    assert sb.claim_label("word_char > bm25") == "Word+Char > BM25"
    assert sb.ranker_headers(["query", "char predicts", "trials"]) == {"char predicts": "Char TF-IDF predicts"}
    assert sb.PAIRED_HEADERS["p_perm_holm"] == "P (Holm)"
    assert sb.PAIRED_HEADERS["mean_diff"] == "Mean difference (pp)"
