"""Rankers: closed-form BM25, equality with scikit-learn's vectorizers, LSA properties, registry."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from robotask.errors import RobotaskError
from robotask.retrieval.protocol import reference
from robotask.retrieval.rankers import lexical, registry, static_embedding

GALLERY = ["open the red box", "close the blue door", "press the light switch", "turn the green knob"]
QUERIES = ["open red box now", "shut blue door", "press the switch", "green knob turn", "no shared words",
           "Open THE box, the box!"]


def test_bm25_matches_hand_computation():
    # d1 = "red box" (2 tokens), d2 = "blue box box" (3 tokens): N = 2, avgdl = 2.5
    k1, b = 1.2, 0.75
    got = lexical.score_bm25(["red box", "blue box box"], ["red box", "Box box", "RED!"])
    norm1 = k1 * (1 - b + b * 2 / 2.5)
    norm2 = k1 * (1 - b + b * 3 / 2.5)
    idf_red = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    idf_box = math.log(1 + (2 - 2 + 0.5) / (2 + 0.5))
    box_d1 = idf_box * 1 * (k1 + 1) / (1 + norm1)
    box_d2 = idf_box * 2 * (k1 + 1) / (2 + norm2)
    red_d1 = idf_red * 1 * (k1 + 1) / (1 + norm1)
    expected = np.array([[red_d1 + box_d1, box_d2],
                         [2 * box_d1, 2 * box_d2],  # query-term multiplicity counts
                         [red_d1, 0.0]])  # lowercase [a-z0-9]+ tokens
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize("k1,b", [(1.2, 0.75), (2.0, 0.0), (0.5, 1.0)])
def test_bm25_vectorised_equals_direct_formula(k1, b):
    got = lexical.score_bm25(GALLERY, QUERIES, bm25_k1=k1, bm25_b=b)
    direct = np.array([reference.bm25_direct(GALLERY, q, k1, b) for q in QUERIES])
    np.testing.assert_allclose(got, direct, rtol=1e-12, atol=1e-15)
    assert (got >= 0).all()  # the smoothed IDF is positive


@pytest.mark.parametrize("name,kwargs", [
    ("word", {"ngram_range": (1, 2), "sublinear_tf": True}),
    ("char", {"analyzer": "char_wb", "ngram_range": (3, 5)}),
])
def test_tfidf_cosines_equal_sklearn_fitted_on_gallery(name, kwargs):
    vec = TfidfVectorizer(**kwargs).fit(GALLERY)
    expected = (vec.transform(QUERIES) @ vec.transform(GALLERY).T).toarray()
    np.testing.assert_allclose(registry.score(name, GALLERY, QUERIES), expected, atol=1e-12)


def test_statistics_come_from_the_gallery_only():
    # adding queries that repeat a gallery term must not change any score (IDF is the gallery's)
    few = registry.score("char", GALLERY, QUERIES[:1])
    many = registry.score("char", GALLERY, QUERIES[:1] + ["box box box"] * 5)
    np.testing.assert_allclose(few, many[:1], atol=0)


def test_word_char_is_the_mean():
    word, char = registry.score("word", GALLERY, QUERIES), registry.score("char", GALLERY, QUERIES)
    np.testing.assert_allclose(registry.score("word_char", GALLERY, QUERIES), (word + char) / 2)


def test_full_rank_lsa_ranks_like_word_tfidf():
    # with k = rank, gallery vectors lie in the kept space: each query row is the word cosine / |projection|
    word = registry.score("word", GALLERY, QUERIES)
    lsa = registry.score("lsa", GALLERY, QUERIES, {"lsa_dims": 100})
    for w, s in zip(word, lsa):
        if w.max() > 0:
            ratio = s[w > 0] / w[w > 0]
            np.testing.assert_allclose(ratio, ratio[0], rtol=1e-9)
            assert ratio[0] >= 1 - 1e-12
        else:
            np.testing.assert_array_equal(s, 0.0)  # zero projection -> similarity 0


def test_lsa_dims_capped_by_rank():
    g = np.array([[1.0, 0, 0], [2.0, 0, 0], [0, 1.0, 1.0]])  # rank 2
    assert lexical.lsa_basis(g, 32).shape == (2, 3)
    assert lexical.lsa_basis(g, 1).shape == (1, 3)
    one_dim = registry.score("lsa", GALLERY, QUERIES, {"lsa_dims": 1})
    assert one_dim.shape == (len(QUERIES), len(GALLERY))
    assert set(np.round(np.abs(one_dim[one_dim != 0]), 12)) == {1.0}  # 1-D cosines are ±1


@pytest.mark.parametrize("name", registry.PAPER_RANKERS)
def test_index_path_equals_fresh_tokenisation_and_plain_reference(name):
    index = lexical.TextIndex(GALLERY + QUERIES + ["an unrelated corpus text"])
    fresh = registry.score(name, GALLERY, QUERIES)
    cached = registry.score(name, GALLERY, QUERIES, index=index)
    plain_fn = reference.plain_scorer(name, GALLERY)
    plain = np.array([plain_fn(q) for q in QUERIES])
    assert fresh.shape == (len(QUERIES), len(GALLERY)) and fresh.dtype == np.float64
    np.testing.assert_allclose(fresh, cached, atol=1e-12)
    np.testing.assert_allclose(fresh, plain, atol=1e-12)


def test_registry_and_errors():
    assert list(registry.PAPER_RANKERS) == ["bm25", "word", "char", "word_char", "lsa"]
    assert not registry.RANKERS["minilm"].in_paper and not registry.RANKERS["minilm_char"].in_paper
    assert registry.check_rankers("bm25, char") == ["bm25", "char"]
    with pytest.raises(RobotaskError, match="valid: bm25, word"):
        registry.check_rankers(["bm25", "bm26"])
    with pytest.raises(RobotaskError, match="empty gallery"):
        registry.score("word", [], ["q"])
    with pytest.raises(RobotaskError, match="char n-gram range"):
        registry.score("char", GALLERY, QUERIES, {"char_ngram_min": 5, "char_ngram_max": 3})
    # punctuation-only texts have no tokens: all scores are zero, not an error
    assert not registry.score("word", ["!!"], ["??"]).any()


def test_static_index_path_embeds_each_text_once_and_equals_the_plain_path():
    pytest.importorskip("wordllama")
    calls: list[int] = []
    index = lexical.TextIndex(GALLERY + QUERIES + ["an unrelated corpus text"])
    embedder = static_embedding.default_embedder()

    def counting(texts: list[str]) -> np.ndarray:
        calls.append(len(texts))
        return embedder.embed(texts)

    index.vectors("static", counting)  # what the registry asks for, counted here
    plain = registry.score("static", GALLERY, QUERIES)
    for _ in range(3):
        cached = registry.score("static", GALLERY, QUERIES, index=index)
        np.testing.assert_allclose(cached, plain, atol=1e-6)
    assert calls == [len(index.texts)]  # every distinct text embedded once, never again
    with pytest.raises(RobotaskError, match="empty gallery"):
        registry.score("static", [], QUERIES, index=index)
