"""A plain reference implementation of the study, and the benchmark that times the fast path against it.

The reference refits every scikit-learn vectorizer per gallery and scores one query at a time; the
fast path (:mod:`robotask.retrieval.protocol.study`) must give identical predictions. Used by
``benchmarks/retrieval.py`` and the appendix chapter ``99_reproducing``.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ...errors import RobotaskError
from ...progress import tqdm
from ..rankers.lexical import BM25_TOKEN_PATTERN, PAPER_SETTINGS, cosine_rows, lsa_basis
from ..rankers.registry import PAPER_RANKERS
from .draws import Corpus, design_rows, load_study_corpus, make_draws
from .study import PARTS, StudyConfig, designs, evaluate, predict, run_study

Scorer = Callable[[str], np.ndarray]
WORD_TFIDF: dict[str, Any] = {"ngram_range": (1, 2), "sublinear_tf": True}


# --------------------------------------------------------------------------- plain rankers
def bm25_direct(gallery: list[str], query: str, bm25_k1: float = PAPER_SETTINGS.bm25_k1,
                bm25_b: float = PAPER_SETTINGS.bm25_b) -> np.ndarray:
    """BM25 of one query against each gallery text, evaluated term by term from the formula.

    The slow, obvious implementation: the reference for :func:`score_bm25` in tests and benchmarks.

    Parameters
    ----------
    gallery : gallery texts.
    query : one query text.
    bm25_k1, bm25_b : BM25 constants.
    """
    docs = [re.findall(BM25_TOKEN_PATTERN, d.lower()) for d in gallery]
    n = len(docs)
    avgdl = sum(map(len, docs)) / n or 1.0
    out = np.zeros(n)
    for term in re.findall(BM25_TOKEN_PATTERN, query.lower()):
        df = sum(term in d for d in docs)
        if df == 0:
            continue
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
        for j, d in enumerate(docs):
            tf = d.count(term)
            out[j] += idf * tf * (bm25_k1 + 1) / (tf + bm25_k1 * (1 - bm25_b + bm25_b * len(d) / avgdl))
    return out


def _char_tfidf(p: dict[str, Any]) -> dict[str, Any]:
    """TfidfVectorizer arguments of the character ranker."""
    return {"analyzer": "char_wb", "ngram_range": (p["char_ngram_min"], p["char_ngram_max"])}


def _tfidf(gallery: list[str], kw: dict[str, Any]) -> Any:
    """A TfidfVectorizer fitted on the gallery (sklearn imported here: a page that scores nothing skips it)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(**kw).fit(gallery)


def _cosine_scorer(gallery: list[str], kw: dict[str, Any]) -> Scorer:
    """TF-IDF cosine of one query against the gallery, the vectorizer fitted on the gallery."""
    vec = _tfidf(gallery, kw)
    g = vec.transform(gallery)
    return lambda q: (vec.transform([q]) @ g.T).toarray().ravel()


def _plain_bm25(gallery: list[str], p: dict[str, Any]) -> Scorer:
    return lambda q: bm25_direct(gallery, q, p["bm25_k1"], p["bm25_b"])


def _plain_word(gallery: list[str], p: dict[str, Any]) -> Scorer:
    return _cosine_scorer(gallery, WORD_TFIDF)


def _plain_char(gallery: list[str], p: dict[str, Any]) -> Scorer:
    return _cosine_scorer(gallery, _char_tfidf(p))


def _plain_word_char(gallery: list[str], p: dict[str, Any]) -> Scorer:
    w, c = _cosine_scorer(gallery, WORD_TFIDF), _cosine_scorer(gallery, _char_tfidf(p))
    return lambda q: (w(q) + c(q)) / 2.0


def _plain_lsa(gallery: list[str], p: dict[str, Any]) -> Scorer:
    vec = _tfidf(gallery, WORD_TFIDF)
    basis = lsa_basis(vec.transform(gallery).toarray(), p["lsa_dims"])
    zg = vec.transform(gallery).toarray() @ basis.T
    return lambda q: cosine_rows(vec.transform([q]).toarray() @ basis.T, zg).ravel()


PLAIN_SCORERS: dict[str, Callable[[list[str], dict[str, Any]], Scorer]] = {
    "bm25": _plain_bm25, "word": _plain_word, "char": _plain_char, "word_char": _plain_word_char,
    "lsa": _plain_lsa,
}


def plain_scorer(name: str, gallery: list[str], params: dict[str, Any] | None = None) -> Scorer:
    """Fit ranker ``name`` on ``gallery`` with scikit-learn vectorizers; return a one-query scorer.

    The plain reference implementation (refit per gallery, score query by query); the fast path
    must give identical predictions.

    Parameters
    ----------
    name : one of the five paper rankers.
    gallery : gallery texts.
    params : ranker settings (default: the paper's).
    """
    if name not in PLAIN_SCORERS:
        raise RobotaskError(f"no plain reference for ranker {name!r}; expected one of {', '.join(PAPER_RANKERS)}")
    return PLAIN_SCORERS[name](gallery, {**PAPER_SETTINGS.as_dict(), **(params or {})})


# --------------------------------------------------------------------------- reference study + benchmark
def reference_predictions(corpus: Corpus, config: StudyConfig, todo: list,
                          progress: bool = False) -> dict[tuple[str, int, str], np.ndarray]:
    """Plain implementation: refit every scikit-learn vectorizer per gallery, score query by query.

    Returns ``{(condition, trial, ranker): predicted task indices}`` for comparison with the
    fast path.

    Parameters
    ----------
    corpus, config : as for :func:`run_study`.
    todo : designs from :func:`designs`.
    progress : show a tqdm bar.
    """
    out = {}
    for condition, trial, perms, k, query_from in tqdm(todo, disable=not progress, desc="reference", leave=False):
        g_rows, g_task, q_rows = design_rows(corpus, perms, k, query_from)
        gallery = [corpus.texts[i] for i in g_rows]
        for name in config.rankers:
            scorer = plain_scorer(name, gallery, config.params)
            pred = [int(predict(scorer(corpus.texts[i])[None, :], g_task, len(corpus.tasks))[0][0]) for i in q_rows]
            out[(condition, trial, name)] = np.asarray(pred, dtype=np.int64)
    return out


def fast_predictions(corpus: Corpus, predictions: pd.DataFrame) -> dict[tuple[str, int, str], np.ndarray]:
    """``{(condition, trial, ranker): predicted task indices}`` from a predictions table."""
    index = {t: j for j, t in enumerate(corpus.tasks)}
    return {key: grp["predicted"].map(index).to_numpy(np.int64)
            for key, grp in predictions.groupby(["condition", "trial", "ranker"], sort=False)}


def time_against_reference(corpus: Corpus | None = None, config: StudyConfig | None = None, repeats: int = 3,
              reference_trials: int | None = 2, progress: bool = False) -> dict[str, Any]:
    """Time the whole study (fast path) and the plain reference in one process; compare predictions.

    The plain reference takes minutes for the whole study, so by default it runs only the
    designs of the first two trials (primary and matched) plus the audit gallery, and the ratio
    compares both paths on that same subset; ``benchmarks/retrieval.py`` runs it on everything.

    Parameters
    ----------
    corpus : the validated corpus (default: the committed RLBench corpus).
    config : protocol settings (default: the paper's five rankers, 80 + 30 trials, audit).
    repeats : repetitions of the full fast study (the minimum is reported as ``study_s``).
    reference_trials : None = the reference runs every design; n = only designs with trial < n
        (primary, matched and audit), and the speed ratio compares both paths on that subset.
    progress : show a tqdm bar for the reference.

    Returns
    -------
    dict with ``study_s`` (wall time of the full fast study, parts primary+matched+audit),
    ``study_cpu_s`` (its CPU time, less sensitive to other load on the machine), ``fast_s`` and
    ``reference_s`` (the compared designs), ``ratio``, ``n_evaluations`` (gallery × ranker),
    ``n_predictions`` and ``identical`` (every prediction equal).
    """
    corpus = corpus if corpus is not None else load_study_corpus("", min_per_task=3)
    config = config or StudyConfig()
    times, cpu = [], []
    for _ in range(max(1, repeats)):
        t0, c0 = time.perf_counter(), time.process_time()
        run_study(corpus, config)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    draws = make_draws(corpus, config.seed, config.n_trials, config.n_matched_trials, config.matched_draws)
    todo = [d for d in designs(draws, PARTS) if reference_trials is None or d[1] < reference_trials]
    full = replace(config, save_all_predictions=True)
    with threadpool_limits(1):
        t0 = time.perf_counter()
        evaluate(corpus, config, todo, False)
        fast_s = time.perf_counter() - t0
        fast = fast_predictions(corpus, evaluate(corpus, full, todo, False)[1])
    t0 = time.perf_counter()
    ref = reference_predictions(corpus, config, todo, progress)
    reference_s = time.perf_counter() - t0
    identical = set(fast) == set(ref) and all(np.array_equal(fast[k], ref[k]) for k in ref)
    return {"study_s": min(times), "study_cpu_s": min(cpu), "fast_s": fast_s, "reference_s": reference_s,
            "ratio": reference_s / fast_s,
            "n_evaluations": len(ref), "n_predictions": int(sum(len(v) for v in ref.values())),
            "reference_trials": reference_trials, "identical": bool(identical)}
