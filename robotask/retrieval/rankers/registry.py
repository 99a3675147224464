"""The ranker registry: every ranker by name, its display label, and one call that scores with it.

Lexical rankers come from :mod:`robotask.retrieval.rankers.lexical`. The embedding rankers (``minilm`` and
its fusion ``minilm_char``) import :mod:`robotask.retrieval.rankers.embedding` inside their functions, so
importing this module never imports torch; ``static`` (WordLlama's static table,
:mod:`robotask.retrieval.rankers.static_embedding`) is imported the same way. Neither is in
:data:`PAPER_RANKERS`, so the chapters' defaults (the paper's five) do not change.

Used by every retrieval chapter (``02``–``08``) and by ``robotask retrieval --rankers``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import RobotaskError
from .lexical import LEXICAL_RANKERS, PAPER_SETTINGS, TextIndex
from .normalise import normalise_all

FUSION_PARTNER = "char"  # the paper's best lexical ranker


def score_minilm(gallery: list[str], queries: list[str], index: TextIndex | None = None,
                 **params: Any) -> np.ndarray:
    """Sentence-embedding cosine (all-MiniLM-L6-v2); imports the embedding module when called.

    With ``index``, every indexed text is embedded once (:meth:`TextIndex.vectors`) and the rows are looked up.
    """
    from .embedding import embed as embed_texts
    from .embedding import score_minilm as embed

    if index is None:
        return embed(gallery, queries)
    return np.clip(_indexed_cosine("minilm", embed_texts, gallery, queries, index), -1.0, 1.0)


def score_minilm_fusion(gallery: list[str], queries: list[str], partner: str = FUSION_PARTNER,
                        normalisation: str = "zscore", index: TextIndex | None = None,
                        **params: Any) -> np.ndarray:
    """MiniLM fused with a lexical ranker (default char TF-IDF): equal weights, untuned.

    For each query, both rankers' scores over the gallery are normalised (z-score by default, see
    :func:`robotask.retrieval.rankers.embedding.normalise_rows`) and averaged with weights 1/2 and 1/2.

    Parameters
    ----------
    gallery, queries : gallery descriptions and query texts.
    partner : a lexical ranker of :data:`RANKERS` (the paper's best, ``char``, by default).
    normalisation : ``zscore`` or ``minmax``, per query across the gallery.
    index : precomputed term counts, passed to the partner ranker.
    **params : ranker settings passed on to the partner (each ranker takes the ones it uses).
    """
    from .embedding import fuse_scores
    from .embedding import score_minilm as embed

    if partner not in LEXICAL_RANKERS:
        raise RobotaskError(f"fusion partner {partner!r} is unknown; expected one of {list(LEXICAL_RANKERS)}")
    lexical = score(partner, list(gallery), list(queries), params, index=index)
    return fuse_scores([embed(gallery, queries), lexical], method=normalisation)


def score_static(gallery: list[str], queries: list[str], index: TextIndex | None = None,
                 **params: Any) -> np.ndarray:
    """Static-embedding cosine (WordLlama's shipped ``l2_supercat`` table); imported when called.

    With ``index``, every indexed text is embedded once (:meth:`TextIndex.vectors`) and the rows are looked up.
    """
    from .static_embedding import default_embedder
    from .static_embedding import score as score_table

    if index is None:
        return score_table(list(gallery), list(queries))
    return _indexed_cosine("static", default_embedder().embed, gallery, queries, index)


def _indexed_cosine(key: str, embed: Callable[[list[str]], np.ndarray], gallery: list[str], queries: list[str],
                    index: TextIndex) -> np.ndarray:
    """Queries x gallery dot products of unit vectors ``embed`` gives each indexed text (computed once)."""
    if len(gallery) == 0:
        raise RobotaskError("ranker called with an empty gallery; expected at least one description")
    vectors = index.vectors(key, embed)
    return vectors[index.rows(list(queries))] @ vectors[index.rows(list(gallery))].T


@dataclass(frozen=True)
class RankerSpec:
    """One ranker: registry name, display label, scoring function, and whether the paper reports it."""

    name: str
    label: str
    fn: Callable[..., np.ndarray]
    in_paper: bool

    @property
    def display(self) -> str:
        """The label for tables and figures; rankers the paper does not report are marked."""
        return self.label if self.in_paper else f"{self.label} (not in paper)"


LABELS = {"bm25": "BM25", "word": "Word TF-IDF", "char": "Char TF-IDF", "word_char": "Word+Char", "lsa": "LSA-32"}
RANKERS: dict[str, RankerSpec] = {
    spec.name: spec
    for spec in (
        *(RankerSpec(name, LABELS[name], fn, True) for name, fn in LEXICAL_RANKERS.items()),
        RankerSpec("minilm", "MiniLM", score_minilm, False),
        RankerSpec("minilm_char", "MiniLM+Char", score_minilm_fusion, False),
        RankerSpec("static", "Static emb. (WordLlama)", score_static, False),
    )
}
PAPER_RANKERS: tuple[str, ...] = tuple(n for n, s in RANKERS.items() if s.in_paper)


def display(name: str) -> str:
    """The display label of ranker ``name`` (marked when not in the paper); an unknown name as is."""
    spec = RANKERS.get(name)
    return name if spec is None else spec.display


def check_rankers(names: list[str] | str, where: str = "rankers") -> list[str]:
    """Validate ranker names (a list or a string); raise listing the valid ones.

    A string may be ``"a,b"`` or a list written as text, ``"[a, b]"`` or ``"['a', 'b']"``: that is
    how ``papermill -p rankers '[a, b]'`` delivers a list (papermill's ``-p`` passes text; its
    ``-y 'rankers: [a, b]'`` passes a real list).

    Parameters
    ----------
    names : requested ranker names.
    where : the parameter or option the names came from, for the error message.
    """
    if isinstance(names, str):
        text = names.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        names = [n.strip().strip("'\"").strip() for n in text.split(",")]
        names = [n for n in names if n]
    names = list(names)
    if not names:
        raise RobotaskError(f"{where}: expected at least one ranker; valid: {', '.join(RANKERS)}")
    bad = [n for n in names if not isinstance(n, str) or n not in RANKERS]
    if bad:
        hint = ("; e.g. --rankers bm25,char" if where.startswith("--") else
                "; give a YAML list, e.g. robotask run CHAPTER -p rankers '[bm25, char]' (or papermill -y "
                "'rankers: [bm25, char]')")
        noun = "ranker" if len(bad) == 1 else "rankers"
        raise RobotaskError(f"{where}: unknown {noun} {', '.join(map(repr, bad))}; "
                            f"valid: {', '.join(RANKERS)}{hint}")
    return names


@functools.cache
def _signature(fn: Callable[..., np.ndarray]) -> Any:
    """The parameters of ``fn`` (cached: looked up once per ranker)."""
    return inspect.signature(fn).parameters


def _call(fn: Callable[..., np.ndarray], gallery: list[str], queries: list[str],
          params: dict[str, Any], index: TextIndex | None = None) -> np.ndarray:
    """Call ``fn`` with the subset of ``params`` (and ``index``) its signature accepts."""
    sig = _signature(fn)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.values()):
        kwargs = dict(params)
    else:
        kwargs = {k: v for k, v in params.items() if k in sig}
    if index is not None and "index" in sig:
        kwargs["index"] = index
    return np.asarray(fn(gallery, queries, **kwargs), dtype=np.float64)


def score(name: str, gallery: list[str], queries: list[str], params: dict[str, Any] | None = None,
          index: TextIndex | None = None) -> np.ndarray:
    """Score ``queries`` against ``gallery`` with the registered ranker ``name``.

    Parameters
    ----------
    name : a key of :data:`RANKERS`.
    gallery, queries : texts; the ranker sees each in its normal form (:mod:`robotask.retrieval.rankers.normalise`:
        NFC, invisible code points removed, whitespace collapsed).
    params : ranker settings (the fields of :class:`~robotask.retrieval.rankers.lexical.RankerSettings`);
        each ranker takes the ones it uses. Missing ones take the paper's values.
    index : optional :class:`~robotask.retrieval.rankers.lexical.TextIndex` with the counts of every text.
    """
    check_rankers([name])
    merged = {**PAPER_SETTINGS.as_dict(), **(params or {})}
    return _call(RANKERS[name].fn, normalise_all(list(gallery)), normalise_all(list(queries)), merged, index)
