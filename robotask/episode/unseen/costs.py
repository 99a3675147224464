"""Chapter 14's collection and its costs: a synthetic collection, its features on Dask at 1 and 2 workers,
and the projection of the measured cost to the full dataset. The splits and runs are in ``design``, the
tables in ``tables``, the figure in ``figures``, the phrases in ``phrases``.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ...cache import Cache, adopt_entries, content_key
from ..features.distributed import close_client, extract_collection, open_client
from ..features.windowset import WindowSet
from ..files.manifest import Collection, load_collection
from ..synthesis.varied import MANIFEST, synth_collection

COLLECTIONS = Cache("collections")
FULL_DATASET_EPISODES = 12103  # spec §1.1: episodes of the full Xperience-10M release
RELEASE_GIB_PER_EPISODE = 2.2  # spec §1.1: a complete episode is about 2.2 GiB


def study_collection(episodes: int, frames: int, resolution: int, seed: int, workers: int = 2) -> Collection:
    """The chapter's synthetic collection (cached by its arguments), validated."""
    # version 2: subjects crossed with scenes (synthesis.varied.subject_scene)
    args = {"episodes": episodes, "frames": frames, "resolution": resolution, "seed": seed, "version": "2"}
    name = f"coll-e{episodes}-n{frames}-r{resolution}-s{seed}-{content_key(args, length=10)}"
    root = COLLECTIONS.folder(name, lambda tmp: synth_collection(tmp, episodes, frames, resolution, seed, workers),
                              marker=MANIFEST)
    return load_collection(root)


def measure_scaling(collection: Collection, worker_counts: list[int]) -> pd.DataFrame:
    """Feature extraction of ``collection`` from a cold cache with each worker count.

    Columns: workers, episodes, wall_s (cluster start excluded), speedup, frames_per_s, episode_s (mean task
    seconds), peak_mb (largest worker peak resident memory). The entries built are adopted into the cache.
    """
    rows = []
    for w in worker_counts:
        with tempfile.TemporaryDirectory() as tmp:
            old = os.environ.get("ROBOTASK_CACHE")
            os.environ["ROBOTASK_CACHE"] = str(Path(tmp) / "cache")
            client = open_client(workers=w)
            try:
                t0 = time.perf_counter()
                run = extract_collection(collection, Path(tmp) / "out", client=client, progress=False)
                wall = time.perf_counter() - t0
            finally:
                close_client(client)
                os.environ.pop("ROBOTASK_CACHE") if old is None else os.environ.__setitem__("ROBOTASK_CACHE", old)
            adopt_entries(Path(tmp) / "cache")  # the chapter's own extraction then finds them
        done = run.episodes[run.episodes["status"] == "computed"]
        rows.append({"workers": w, "episodes": int(len(done)), "wall_s": wall,
                     "frames_per_s": float(done["frames"].sum()) / wall,
                     "episode_s": float(done["seconds"].mean()), "peak_mb": float(done["peak_rss_mb"].max())})
    table = pd.DataFrame(rows)
    table["speedup"] = table["wall_s"].iloc[0] / table["wall_s"]
    return table


def feature_bytes(features_dir: str | os.PathLike, ids: list[str]) -> float:
    """Mean size in bytes of an episode's stored window features (``shared_windows.npz``)."""
    sizes = [(Path(features_dir) / e / "shared_windows.npz").stat().st_size for e in ids]
    return float(np.mean(sizes))


def feature_sizes(features_dir: str | os.PathLike, sets: dict[str, WindowSet]) -> tuple[float, float, int]:
    """Per episode of ``sets``: the stored window features' mean size in bytes (:func:`feature_bytes`), the mean
    number of windows, and the feature dimension; the sizes :func:`project_full_dataset` scales."""
    windows = sum(len(ws.X) for ws in sets.values()) / len(sets)
    return feature_bytes(features_dir, list(sets)), windows, int(next(iter(sets.values())).X.shape[1])


def project_full_dataset(scaling: pd.DataFrame, frames: int, bytes_per_episode: float, windows_per_episode: float,
                         feature_dim: int, full_frames: int = 5821, episodes: int = FULL_DATASET_EPISODES,
                         cluster_workers: int = 256) -> dict:
    """A projection (not a measurement) of the full dataset from the measured costs, linear in frames.

    Assumes every episode has ``full_frames`` frames at the measured resolution, that the per-episode cost of
    one worker grows linearly with frames, and that the two-worker efficiency holds on ``cluster_workers``.
    """
    one = scaling[scaling["workers"] == 1]
    two = scaling[scaling["workers"] == 2]
    per_episode = float(one["episode_s"].iloc[0]) * full_frames / frames if len(one) else float("nan")
    efficiency = float(two["speedup"].iloc[0]) / 2 if len(two) and len(one) else float("nan")
    worker_hours = per_episode * episodes / 3600
    scale = full_frames / frames
    windows = windows_per_episode * scale * episodes
    return {"per_episode_s": per_episode, "worker_hours": worker_hours, "efficiency": efficiency,
            "cluster_workers": cluster_workers, "cluster_hours": worker_hours / (cluster_workers * efficiency),
            "machine_hours": worker_hours / (2 * efficiency), "episodes": episodes, "full_frames": full_frames,
            "storage_gb": bytes_per_episode * scale * episodes / 1e9, "windows": windows,
            "design_gb": windows * feature_dim * 4 / 1e9, "gram_gb": windows * windows * 8 / 1e9,
            "release_tb": RELEASE_GIB_PER_EPISODE * 2**30 * episodes / 1e12}
