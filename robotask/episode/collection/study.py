"""Chapter 14's collection and its costs: a synthetic collection, its features on Dask at 1 and 2 workers,
the projection of the measured cost to the full dataset, and the learning-curve figure. The splits and
runs are in ``design``, the tables in ``tables``, the phrases in ``phrases``.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...cache import Cache, adopt_entries, content_key
from ..features.distributed import close_client, extract_collection, open_client
from ..features.windowset import WindowSet
from ..files.collection import Collection, load_collection
from ..synthesis.collection import MANIFEST, synth_collection
from ..tasks.registry import TASKS
from .task_data import load_window_sets

COLLECTIONS = Cache("collections")
FULL_DATASET_EPISODES = 12103  # spec §1.1: episodes of the full Xperience-10M release
RELEASE_GIB_PER_EPISODE = 2.2  # spec §1.1: a complete episode is about 2.2 GiB


def study_collection(episodes: int, frames: int, resolution: int, seed: int, workers: int = 2) -> Collection:
    """The chapter's synthetic collection (cached by its arguments), validated."""
    args = {"episodes": episodes, "frames": frames, "resolution": resolution, "seed": seed, "version": "1"}
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


def _metric_label(metric: str) -> str:
    from ..report.summary import METRIC_LABELS

    return METRIC_LABELS.get(metric, metric.replace("_", " "))


def comparison_table(comparison: pd.DataFrame) -> pd.DataFrame:
    """``compare_splits`` for a reader: task titles, human metric and head names."""
    from ..report.figures_tasks import HEAD_LABELS

    shown = comparison.drop(columns=["higher_is_better"], errors="ignore").copy()
    shown["task"] = shown["task"].map(lambda t: TASKS[t].display_name)
    if "head" in shown:
        shown["head"] = shown["head"].map(lambda h: HEAD_LABELS.get(h, h))
    if "metric" in shown:
        shown["metric"] = shown["metric"].map(_metric_label)
    return shown


def factor_table(episodes: pd.DataFrame, factors: list[str], n: int = 3) -> pd.DataFrame:
    """The first ``n`` episodes' variation factors; an empty list of absent objects reads "none"."""
    shown = episodes[factors].head(n).copy()
    if "absent" in shown:
        shown["absent"] = shown["absent"].map(
            lambda v: v.replace("|", ", ") if isinstance(v, str) and v.strip() else "none")
    return shown


PANEL_FONT = 10


def figure_learning_curves(curve: pd.DataFrame) -> plt.Figure:
    """One panel per task: the minimal head's mean over draws (line) with the lowest-to-highest band, and the
    baseline's mean (dashed), against the number of training episodes."""
    tasks = [t for t in TASKS if t in set(curve["task"])]
    fig, axes = plt.subplots(4, 3, figsize=(11, 12.5), sharex=True)
    for ax, task in zip(axes.ravel(), tasks):
        for head, style in (("minimal", {"marker": "o", "color": "C0"}), ("baseline", {"ls": "--", "color": "grey"})):
            d = curve[(curve["task"] == task) & (curve["head"] == head)].sort_values("n_train")
            if d["mean"].isna().all():
                continue
            ax.plot(d["n_train"], d["mean"], label="minimal head" if head == "minimal" else "baseline", **style)
            if head == "minimal":
                ax.fill_between(d["n_train"], d["lo"], d["hi"], color="C0", alpha=0.2, label="range of the draws")
        if curve[(curve["task"] == task) & (curve["head"] == "minimal")]["mean"].isna().all():
            ax.text(0.5, 0.5, "no result", ha="center", va="center", transform=ax.transAxes, fontsize=PANEL_FONT)
        ax.set_title(TASKS[task].display_name, fontsize=PANEL_FONT + 1)
        ax.set_ylabel(_metric_label(TASKS[task].primary_metric), fontsize=PANEL_FONT)
        ax.tick_params(labelsize=PANEL_FONT)
        episode_axis(ax, curve["n_train"])
    for ax in axes.ravel()[len(tasks):]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("training episodes", fontsize=PANEL_FONT)
    axes[0, 0].legend(fontsize=PANEL_FONT - 1)
    fig.tight_layout()
    return fig


def episode_axis(ax: plt.Axes, sizes: pd.Series) -> None:
    """A log-2 x axis whose ticks are the numbers of training episodes used, written as plain counts."""
    ticks = sorted({int(n) for n in sizes})
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks, [str(n) for n in ticks])
    ax.minorticks_off()

def sets_of(collection: Collection, features_dir: str | os.PathLike) -> dict[str, WindowSet]:
    """Window sets of every episode with artifacts (thin alias kept for the notebook)."""
    return load_window_sets(collection, features_dir)
