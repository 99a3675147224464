"""Training-free lexical rankers that score held-out instructions against a task gallery.

Every ranker has the same call: ``score(gallery, queries, **params) -> (n_queries, n_gallery)``
float64 array, higher = more similar. All fitted statistics (vocabulary, IDF, document
lengths, SVD basis) come from ``gallery`` only; a query term that no gallery text contains
is ignored, exactly as a vectorizer fitted on the gallery ignores it.

Speed: the term *counts* of a text are a pure function of that text, so a caller that scores
many galleries drawn from one corpus may pass ``index=TextIndex(corpus_texts)``; the counts are
then computed once and only the gallery statistics are refitted per call. The embedding rankers
keep their vectors on the same index (:meth:`TextIndex.vectors`), so each distinct text is embedded
once. Results are identical with and without the index (tested).

The rankers' settings and their paper values are :class:`RankerSettings` (defined only there).
The registry :mod:`robotask.retrieval.rankers.registry` names these rankers and the embedding ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh

from ...errors import RobotaskError
from .normalise import normalise, normalise_all

BM25_TOKEN_PATTERN = r"[a-z0-9]+"


@dataclass(frozen=True, kw_only=True)
class RankerSettings:
    """The rankers' settings; each field default is the paper's value (sections 3 and 3.1)."""

    bm25_k1: float = 1.2  # BM25 term-frequency saturation
    bm25_b: float = 0.75  # BM25 length normalisation
    char_ngram_min: int = 3  # shortest within-word character n-gram
    char_ngram_max: int = 5  # longest within-word character n-gram
    lsa_dims: int = 32  # LSA components (at most the gallery TF-IDF rank)

    def as_dict(self) -> dict[str, Any]:
        """The settings as ``{name: value}``, in field order."""
        return asdict(self)


PAPER_SETTINGS = RankerSettings()
"""The paper's ranker settings: every default below refers to it."""
SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RankerSettings))


# --------------------------------------------------------------------------- analyzers
def analyzer_config(kind: str, char_ngram_min: int = PAPER_SETTINGS.char_ngram_min,
                    char_ngram_max: int = PAPER_SETTINGS.char_ngram_max) -> dict[str, Any]:
    """CountVectorizer keyword arguments of one tokenisation ``kind``: 'bm25', 'word' or 'char'.

    Parameters
    ----------
    kind : which tokenisation: BM25 ``[a-z0-9]+`` tokens, word 1–2-grams (scikit-learn's
        default token pattern) or within-word character n-grams (``char_wb``).
    char_ngram_min, char_ngram_max : character n-gram range for ``kind='char'``.
    """
    if kind == "bm25":
        return {"lowercase": True, "token_pattern": BM25_TOKEN_PATTERN}
    if kind == "word":
        return {"lowercase": True, "ngram_range": (1, 2)}
    if kind == "char":
        if not 1 <= char_ngram_min <= char_ngram_max:
            raise RobotaskError(f"char n-gram range ({char_ngram_min}, {char_ngram_max}): "
                                "expected 1 <= char_ngram_min <= char_ngram_max")
        return {"lowercase": True, "analyzer": "char_wb", "ngram_range": (char_ngram_min, char_ngram_max)}
    raise RobotaskError(f"unknown analyzer kind {kind!r}; expected 'bm25', 'word' or 'char'")


def count_matrix(texts: list[str], config: dict[str, Any]) -> sp.csr_matrix:
    """Term counts of ``texts`` (rows) over their own sorted vocabulary (columns).

    Parameters
    ----------
    texts : the texts to tokenise.
    config : CountVectorizer keyword arguments from :func:`analyzer_config`.
    """
    from sklearn.feature_extraction.text import CountVectorizer  # here: a page that scores nothing skips 1 s
    try:
        return CountVectorizer(**config, dtype=np.float64).fit_transform(texts).tocsr()
    except ValueError:  # no token at all (e.g. only punctuation): an empty vocabulary
        return sp.csr_matrix((len(texts), 0), dtype=np.float64)


class TextIndex:
    """Term counts of a fixed set of texts, computed once per tokenisation (a pure function of text).

    Parameters
    ----------
    texts : every text that will later appear in a gallery or as a query (indexed in its normal form, found by either).
    """

    def __init__(self, texts: list[str]):
        self.texts = list(dict.fromkeys(normalise_all(list(texts))))
        self.row = {t: i for i, t in enumerate(self.texts)}
        self._counts: dict[tuple, sp.csr_matrix] = {}
        self._vectors: dict[str, np.ndarray] = {}
        self._pair: tuple | None = None  # the (gallery, queries) the memo below belongs to
        self._memo: dict[tuple, Any] = {}

    def memo(self, gallery: list[str], queries: list[str], key: tuple, compute: Callable[[], Any]) -> Any:
        """Result of ``compute()`` for this (gallery, queries) pair, shared by rankers scoring the same draw.

        Only the most recent pair is remembered, so nothing fitted on one gallery reaches another.
        """
        pair = (tuple(gallery), tuple(queries))
        if pair != self._pair:
            self._pair, self._memo = pair, {}
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def vectors(self, key: str, embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        """``embed(texts)`` of every indexed text, computed once per ``key`` (an embedding is a pure function
        of its text, so each distinct text is embedded once however many galleries it appears in)."""
        if key not in self._vectors:
            self._vectors[key] = np.asarray(embed(self.texts))
        return self._vectors[key]

    def rows(self, texts: list[str]) -> np.ndarray:
        """Row numbers of ``texts``; raises if a text was not indexed."""
        row = self.row
        try:
            return np.fromiter((row[t] if t in row else row[normalise(t)] for t in texts), np.int64, len(texts))
        except KeyError as exc:
            raise RobotaskError(f"text {exc.args[0]!r} is not in the TextIndex") from None

    def counts(self, config: dict[str, Any]) -> sp.csr_matrix:
        """Count matrix of all indexed texts for one analyzer configuration (cached)."""
        key = tuple(sorted(config.items()))
        if key not in self._counts:
            self._counts[key] = count_matrix(self.texts, config)
        return self._counts[key]


def gallery_query_counts(gallery: list[str], queries: list[str], config: dict[str, Any],
                         index: TextIndex | None = None) -> tuple[sp.csr_matrix, sp.csr_matrix, np.ndarray]:
    """Count matrices of gallery and queries over a shared vocabulary, and the gallery-vocabulary mask.

    Columns outside the mask (terms no gallery text contains) must be ignored by the caller;
    that is what a vectorizer fitted on the gallery does.

    Parameters
    ----------
    gallery, queries : texts.
    config : analyzer configuration.
    index : optional precomputed counts; without it the texts are tokenised here.
    """
    if index is None:
        index = TextIndex(list(gallery) + list(queries))
    counts = index.counts(config)
    g = counts[index.rows(gallery)]
    q = counts[index.rows(queries)]
    in_gallery = np.bincount(g.indices, minlength=counts.shape[1]) > 0
    return g, q, in_gallery


def _check_texts(gallery: list[str], queries: list[str]) -> None:
    """Reject an empty gallery."""
    if len(gallery) == 0:
        raise RobotaskError("ranker called with an empty gallery; expected at least one description")


# --------------------------------------------------------------------------- rankers
def bm25_weights(g_counts: sp.csr_matrix, k1: float, b: float) -> sp.csr_matrix:
    """Per-(gallery text, term) BM25 weights idf·tf·(k1+1)/(tf + k1·(1 − b + b·|d|/avgdl)).

    Parameters
    ----------
    g_counts : gallery term counts (n_gallery, n_terms).
    k1, b : BM25 saturation and length-normalisation constants.
    """
    n = g_counts.shape[0]
    df = np.bincount(g_counts.indices, minlength=g_counts.shape[1]).astype(np.float64)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    lengths = np.add.reduceat(g_counts.data, g_counts.indptr[:-1]) if g_counts.nnz else np.zeros(n)
    lengths = np.where(np.diff(g_counts.indptr) > 0, lengths, 0.0)  # reduceat on an empty row
    avgdl = lengths.mean() if lengths.mean() > 0 else 1.0
    row = np.repeat(np.arange(n), np.diff(g_counts.indptr))
    tf = g_counts.data
    data = idf[g_counts.indices] * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * lengths[row] / avgdl))
    return sp.csr_matrix((data, g_counts.indices, g_counts.indptr), shape=g_counts.shape)


def score_bm25(gallery: list[str], queries: list[str], bm25_k1: float = PAPER_SETTINGS.bm25_k1,
               bm25_b: float = PAPER_SETTINGS.bm25_b, index: TextIndex | None = None) -> np.ndarray:
    """BM25 of every query against every gallery text; query-term multiplicity counts.

    Parameters
    ----------
    gallery, queries : texts.
    bm25_k1, bm25_b : BM25 constants (paper: 1.2 and 0.75).
    index : optional :class:`TextIndex` holding the counts of all texts.
    """
    _check_texts(gallery, queries)
    g, q, _ = gallery_query_counts(gallery, queries, analyzer_config("bm25"), index)
    return np.asarray((q @ bm25_weights(g, bm25_k1, bm25_b).T).toarray(), dtype=np.float64)


def smooth_idf(g_counts: sp.csr_matrix, in_gallery: np.ndarray) -> np.ndarray:
    """scikit-learn's smoothed IDF ln((1 + n)/(1 + df)) + 1 of the gallery; 0 outside its vocabulary.

    Parameters
    ----------
    g_counts : gallery term counts.
    in_gallery : mask of the gallery vocabulary.
    """
    n = g_counts.shape[0]
    df = np.bincount(g_counts.indices, minlength=g_counts.shape[1]).astype(np.float64)
    return np.where(in_gallery, np.log((1.0 + n) / (1.0 + df)) + 1.0, 0.0)


def tfidf_rows(counts: sp.csr_matrix, idf: np.ndarray, sublinear_tf: bool) -> sp.csr_matrix:
    """L2-normalised TF-IDF rows, computed as scikit-learn's ``TfidfTransformer`` does.

    tf (or 1 + ln tf) times idf, then each row divided by its Euclidean norm (zero rows stay zero).

    Parameters
    ----------
    counts : term counts (rows = texts).
    idf : IDF per column (0 = term outside the gallery vocabulary).
    sublinear_tf : use 1 + ln(tf).
    """
    data = counts.data.astype(np.float64, copy=True)
    if sublinear_tf:
        data = np.log(data) + 1.0
    data *= idf[counts.indices]
    row = np.repeat(np.arange(counts.shape[0]), np.diff(counts.indptr))
    norms = np.sqrt(np.bincount(row, weights=data * data, minlength=counts.shape[0]))
    safe = np.where(norms > 0, norms, 1.0)
    return sp.csr_matrix((data / safe[row], counts.indices, counts.indptr), shape=counts.shape)


def tfidf_pair(gallery: list[str], queries: list[str], config: dict[str, Any], sublinear_tf: bool,
               index: TextIndex | None = None) -> tuple[sp.csr_matrix, sp.csr_matrix, np.ndarray]:
    """L2-normalised TF-IDF rows of gallery and queries with the IDF fitted on the gallery, and its vocabulary mask.

    Equal to scikit-learn's ``TfidfVectorizer(**config, sublinear_tf=...)`` fitted on the gallery
    (tested); columns outside the gallery vocabulary carry zero weight.

    Parameters
    ----------
    gallery, queries : texts.
    config : analyzer configuration.
    sublinear_tf : use 1 + ln(tf).
    index : optional :class:`TextIndex`.
    """
    def compute() -> tuple[sp.csr_matrix, sp.csr_matrix, np.ndarray]:
        g, q, in_gallery = gallery_query_counts(gallery, queries, config, index)
        idf = smooth_idf(g, in_gallery)
        return tfidf_rows(g, idf, sublinear_tf), tfidf_rows(q, idf, sublinear_tf), in_gallery

    if index is None:
        return compute()
    return index.memo(gallery, queries, ("tfidf", tuple(sorted(config.items())), sublinear_tf), compute)


def _cosine(gallery: list[str], queries: list[str], config: dict[str, Any], sublinear_tf: bool,
            index: TextIndex | None) -> np.ndarray:
    """Cosine similarity of TF-IDF rows (rows are already unit length)."""
    _check_texts(gallery, queries)

    def compute() -> np.ndarray:
        g, q, _ = tfidf_pair(gallery, queries, config, sublinear_tf, index)
        return np.asarray((q @ g.T).toarray(), dtype=np.float64)

    if index is None:
        return compute()
    return index.memo(gallery, queries, ("cosine", tuple(sorted(config.items())), sublinear_tf), compute).copy()


def score_word(gallery: list[str], queries: list[str], index: TextIndex | None = None) -> np.ndarray:
    """Word unigram+bigram TF-IDF (sublinear tf) cosine similarity.

    Parameters
    ----------
    gallery, queries : texts.
    index : optional :class:`TextIndex`.
    """
    return _cosine(gallery, queries, analyzer_config("word"), True, index)


def score_char(gallery: list[str], queries: list[str], char_ngram_min: int = PAPER_SETTINGS.char_ngram_min,
               char_ngram_max: int = PAPER_SETTINGS.char_ngram_max, index: TextIndex | None = None) -> np.ndarray:
    """Within-word character n-gram TF-IDF (``char_wb``, raw tf) cosine similarity.

    Parameters
    ----------
    gallery, queries : texts.
    char_ngram_min, char_ngram_max : n-gram range (paper: 3–5).
    index : optional :class:`TextIndex`.
    """
    return _cosine(gallery, queries, analyzer_config("char", char_ngram_min, char_ngram_max), False, index)


def score_word_char(gallery: list[str], queries: list[str], char_ngram_min: int = PAPER_SETTINGS.char_ngram_min,
                    char_ngram_max: int = PAPER_SETTINGS.char_ngram_max, index: TextIndex | None = None) -> np.ndarray:
    """Equal-weight mean of the word and character TF-IDF cosines.

    Parameters
    ----------
    gallery, queries : texts.
    char_ngram_min, char_ngram_max : character n-gram range.
    index : optional :class:`TextIndex`.
    """
    word = score_word(gallery, queries, index=index)
    char = score_char(gallery, queries, char_ngram_min, char_ngram_max, index=index)
    return (word + char) / 2.0


LSA_SVD_MAX_SIDE = 128  # up to this many gallery rows (or terms) the full SVD is cheap
LSA_GRAM_MARGIN = 1e3  # the top-k eigenvalues of the Gram matrix must exceed this many rounding errors


def lsa_basis(g_tfidf: np.ndarray, lsa_dims: int) -> np.ndarray:
    """Top-k right singular vectors (k, n_terms) of the gallery TF-IDF, k = min(lsa_dims, rank).

    Small galleries take the exact SVD. Large ones take the top-k eigenvectors of the smaller Gram
    matrix (G Gᵀ = V S² Vᵀ, so the right singular vectors are Gᵀ V / s): the same subspace to rounding,
    about five times faster on a 568-description gallery. Signs may differ from the SVD's, which
    cosines in the reduced space do not see. When the k-th eigenvalue is too close to rounding to
    prove that the rank is at least k, the SVD decides the rank.

    Parameters
    ----------
    g_tfidf : dense gallery TF-IDF matrix.
    lsa_dims : maximum number of components.
    """
    if g_tfidf.size == 0:
        return np.zeros((0, g_tfidf.shape[1]))
    if min(g_tfidf.shape) > max(LSA_SVD_MAX_SIDE, 2 * int(lsa_dims)):
        basis = _lsa_basis_gram(g_tfidf, int(lsa_dims))
        if basis is not None:
            return basis
    u, s, _ = np.linalg.svd(g_tfidf.T, full_matrices=False)  # the tall side is faster; same factors
    tol = s.max(initial=0.0) * max(g_tfidf.shape) * np.finfo(np.float64).eps  # numpy's matrix_rank rule
    k = min(int(lsa_dims), int((s > tol).sum()))
    return u[:, :k].T


def _lsa_basis_gram(g: np.ndarray, k: int) -> np.ndarray | None:
    """The top-k right singular vectors of ``g`` from its smaller Gram matrix; None if rank < k is possible."""
    rows_side = g.shape[0] <= g.shape[1]
    gram = g @ g.T if rows_side else g.T @ g
    m = len(gram)
    lam, vec = eigh(gram, subset_by_index=[m - k, m - 1])
    lam, vec = lam[::-1], vec[:, ::-1]  # largest first
    if lam[-1] <= LSA_GRAM_MARGIN * m * np.finfo(np.float64).eps * lam[0]:
        return None
    if not rows_side:
        return vec.T
    return (g.T @ vec / np.sqrt(lam)).T


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity of the rows of ``a`` with the rows of ``b``; a zero row scores 0."""
    na = np.linalg.norm(a, axis=1, keepdims=True)
    nb = np.linalg.norm(b, axis=1, keepdims=True)
    a = np.divide(a, na, out=np.zeros_like(a), where=na > 0)
    b = np.divide(b, nb, out=np.zeros_like(b), where=nb > 0)
    return a @ b.T


def score_lsa(gallery: list[str], queries: list[str], lsa_dims: int = PAPER_SETTINGS.lsa_dims,
              index: TextIndex | None = None) -> np.ndarray:
    """LSA: exact SVD of the gallery word TF-IDF, cosine in the k-dimensional space.

    Parameters
    ----------
    gallery, queries : texts.
    lsa_dims : maximum number of singular components (paper: 32).
    index : optional :class:`TextIndex`.
    """
    _check_texts(gallery, queries)
    if lsa_dims < 1:
        raise RobotaskError(f"lsa_dims = {lsa_dims}: expected a positive integer")
    g, q, in_gallery = tfidf_pair(gallery, queries, analyzer_config("word"), True, index)
    keep = np.flatnonzero(in_gallery)
    g_dense = g[:, keep].toarray()  # the gallery-fitted vocabulary only
    reduced = lsa_basis(g_dense, lsa_dims)
    basis = np.zeros((reduced.shape[0], g.shape[1]))
    basis[:, keep] = reduced  # zero weight on terms outside the gallery vocabulary
    return cosine_rows(np.asarray(q @ basis.T), g_dense @ reduced.T)


LEXICAL_RANKERS: dict[str, Callable[..., np.ndarray]] = {
    "bm25": score_bm25,
    "word": score_word,
    "char": score_char,
    "word_char": score_word_char,
    "lsa": score_lsa,
}
"""The five lexical rankers of the paper, by registry name."""
