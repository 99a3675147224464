"""Window features of every episode of a collection, on a Dask cluster (``robotask features --collection``).

One Dask task per episode builds its window set (``windowset.load_window_set``; the per-frame
extractors stream the videos and depth in chunks, so a worker holds one episode's features, never a
whole video or the collection) and writes its artifacts (``windowset.write_artifacts``) into a
folder entry of the content-hash cache ``Cache("collection_features")``, keyed on the episode's files
and the feature options. Hence:

- **resumable**: an episode whose entry exists is not submitted again; a rerun after a kill redoes only
  the unfinished episodes, and a second rerun computes nothing;
- **faults stay local**: a task catches its own error and reports the stage it failed in; a worker
  that dies is reported the same way; the run finishes the other episodes;
- **anywhere**: by default a ``LocalCluster`` of processes sized to the machine; given a scheduler
  address (``dask scheduler`` / ``dask worker``) the same tasks run on that cluster. The cache folder
  (``ROBOTASK_CACHE``) and the collection must then be on storage every worker sees.

The driver copies each episode's artifacts to ``<out>/<episode_id>/`` and writes ``<out>/episodes.csv``
(status ok / failed, stage, error, windows, frames: the same bytes on every run),
``<out>/timings.csv`` (computed or cached, seconds, peak memory and worker: wall clock, differs per run)
and ``<out>/failures.csv`` (episode, stage, error).
"""

from __future__ import annotations

import json
import logging
import os
import resource
import shutil
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ... import paths
from ...cache import Cache, content_key
from ...io import write_csv, write_json
from ...progress import enabled, tqdm
from ..files import format as fmt
from ..files.manifest import Collection
from .layout import FEATURE_VERSION, FeatureOptions

FEATURE_CACHE = Cache("collection_features")
MARKER = "shared_windows.npz"
SHAPE = "episode_shape.json"
FAILURE_COLUMNS = ("episode_id", "stage", "error")


def episode_files(folder: str | os.PathLike) -> list[Path]:
    """The files an episode's features depend on: the annotation and the six videos."""
    folder = Path(folder)
    return [folder / fmt.ANNOTATION] + [folder / fmt.video_file(s) for s in fmt.VIDEO_STREAMS]


def feature_key(episode_id: str, folder: str | os.PathLike, options: FeatureOptions) -> str:
    """Cache entry name of an episode's artifacts: its id plus a hash of its files' content and the options."""
    params = {"options": asdict(options), "feature_version": FEATURE_VERSION, "artifacts": "2"}
    return f"{episode_id}-{content_key(params, episode_files(folder), length=16)}"


def _peak_rss_mb() -> float:
    """Peak resident memory of this process so far (MiB; Linux reports KiB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def episode_task(episode_id: str, folder: str, options: dict, cache_root: str, decode_threads: int = 1) -> dict:
    """Dask task: build and cache one episode's artifacts; never raises, reports the failing stage instead."""
    from .windowset import load_window_set, write_artifacts

    os.environ["ROBOTASK_CACHE"] = cache_root
    os.environ["ROBOTASK_PROGRESS"] = "0"
    t0, stage = time.perf_counter(), "key"
    record: dict[str, Any] = {"episode_id": episode_id, "worker": _worker_name()}
    try:
        opts = FeatureOptions(**{k: tuple(v) if isinstance(v, list) else v for k, v in options.items()})
        key = feature_key(episode_id, folder, opts)
        shape: dict[str, int] = {}

        def build(tmp: Path) -> None:
            nonlocal stage
            stage = "features"
            ws = load_window_set(folder, opts, cache=True, workers=decode_threads)
            shape.update(windows=len(ws.windows), frames=int(ws.episode.n_frames))
            stage = "write"
            write_artifacts(ws, tmp)
            write_json(tmp / SHAPE, shape)

        FEATURE_CACHE.folder(key, build, marker=MARKER)
        record.update(status="computed", stage="", error="", key=key, **shape)
    except Exception as exc:  # noqa: BLE001 - a failing episode must not stop the collection
        last = traceback.extract_tb(exc.__traceback__)[-1]
        record.update(status="failed", stage=stage, error=f"{type(exc).__name__}: {exc} ({Path(last.filename).name}:"
                                                            f"{last.lineno})")
    record.update(seconds=time.perf_counter() - t0, peak_rss_mb=_peak_rss_mb())
    return record


def _worker_name() -> str:
    """Address of the Dask worker running this task ("local" outside a worker)."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return "local"


@dataclass
class FeatureRun:
    """Outcome of a collection feature run."""

    episodes: pd.DataFrame  # episode_id, status (computed / cached / failed), stage, seconds, peak_rss_mb, worker
    failures: pd.DataFrame  # episode_id, stage, error (unusable episodes included, stage "validate")
    wall_seconds: float
    workers: int
    artifacts: dict[str, Path]  # episode_id -> artifact folder under out

    @property
    def computed(self) -> int:
        """Episodes computed in this run (not taken from the cache)."""
        return int((self.episodes["status"] == "computed").sum())

    @property
    def ok(self) -> bool:
        """True when every episode of the collection has its artifacts."""
        return self.failures.empty


WORKER_SITE = Path(__file__).with_name("worker_site")  # its sitecustomize makes workers ignore Ctrl-C


def open_client(scheduler: str | None = None, workers: int | None = None) -> Any:
    """A Dask client: on ``scheduler`` (an address such as tcp://host:8786) or on a new LocalCluster.

    The LocalCluster has ``workers`` single-threaded worker processes (default: the CPU count), no
    dashboard (the book builds offline) and quiet logs; closing the client closes it.
    """
    if scheduler:
        from distributed import Client

        return Client(scheduler)
    n = max(1, int(workers or os.cpu_count() or 1))
    # Ctrl-C in a terminal interrupts the whole process group; the worker processes ignore it (see
    # worker_site/sitecustomize.py, first on their PYTHONPATH), and this process closes the cluster (the
    # CLI then silences what a cluster cut short prints at exit: errors.quiet_after_interrupt).
    from distributed import Client, LocalCluster

    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(WORKER_SITE), *([saved] if saved else [])])
    try:
        # CRITICAL: a worker whose scheduler closed first (Ctrl-C, SIGTERM) logs its failed heartbeat as an
        # ERROR with a traceback; a task's own failure still reaches the client as its exception.
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.CRITICAL)
        client = Client(cluster)
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved
    client._robotask_cluster = cluster  # closed with the client by close_client
    return client


def close_client(client: Any) -> None:
    """Close a client and, when it made one, its LocalCluster."""
    cluster = getattr(client, "_robotask_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


class _Progress:
    """Episodes done out of the total and the rate: a tqdm bar on a terminal, plain lines otherwise."""

    def __init__(self, total: int, show: bool):
        self.total, self.done, self.t0 = total, 0, time.perf_counter()
        self.show = show and enabled()
        self.bar = tqdm(total=total, desc="features", unit="episode") if self.show and sys.stderr.isatty() else None

    def step(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        elif self.show:
            rate = self.done / max(time.perf_counter() - self.t0, 1e-9)
            print(f"features: {self.done}/{self.total} episodes done ({rate * 60:.1f} episodes/min)",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _cached_records(collection: Collection, options: FeatureOptions) -> tuple[list[dict], list[tuple], list[dict]]:
    """Split the usable episodes into cached ones (records), ones to compute (jobs) and key failures."""
    cached, jobs, failed = [], [], []
    for eid, folder in zip(collection.episodes["episode_id"], collection.episodes["path"]):
        try:
            key = feature_key(eid, folder, options)
        except OSError as exc:
            failed.append({"episode_id": eid, "status": "failed", "stage": "key", "error": str(exc)})
            continue
        if (FEATURE_CACHE.path(key) / MARKER).is_file():
            cached.append({"episode_id": eid, "status": "cached", "stage": "", "error": "", "key": key,
                           **_shape(FEATURE_CACHE.path(key))})
        else:
            jobs.append((eid, str(folder)))
    return cached, jobs, failed


def _shape(entry: Path) -> dict:
    """Windows and frames of a cached episode, as its task recorded them."""
    return json.loads((entry / SHAPE).read_text()) if (entry / SHAPE).is_file() else {}


def _run_jobs(client: Any, jobs: list[tuple], options: FeatureOptions, decode_threads: int,
              progress: bool) -> list[dict]:
    """Submit one task per episode and gather the records as they finish (a lost worker is a failure)."""
    from distributed import as_completed

    opts = asdict(options)
    root = str(paths.cache_dir())
    futures = {client.submit(episode_task, eid, folder, opts, root, decode_threads, key=f"robotask-features-{eid}",
                             pure=False): eid for eid, folder in jobs}
    bar, records = _Progress(len(futures), progress), []
    for fut in as_completed(futures):
        try:
            records.append(fut.result())
        except Exception as exc:  # noqa: BLE001 - e.g. KilledWorker: the episode fails alone
            records.append({"episode_id": futures[fut], "status": "failed", "stage": "worker",
                            "error": f"{type(exc).__name__}: {exc}"})
        bar.step()
    bar.close()
    return records


def _publish(records: list[dict], out: Path) -> dict[str, Path]:
    """Copy each finished episode's cached artifacts to ``out/<episode_id>/``."""
    published = {}
    for rec in records:
        if rec["status"] == "failed":
            continue
        src, dst = FEATURE_CACHE.path(rec["key"]), out / rec["episode_id"]
        dst.mkdir(parents=True, exist_ok=True)
        for f in src.iterdir():
            shutil.copyfile(f, dst / f.name)
        published[rec["episode_id"]] = dst
    return published


def extract_collection(collection: Collection, out: str | os.PathLike, options: FeatureOptions = FeatureOptions(),
                       scheduler: str | None = None, workers: int | None = None, decode_threads: int = 1,
                       progress: bool = True, client: Any = None) -> FeatureRun:
    """Build the window features of every usable episode on Dask; write artifacts and the two tables.

    Parameters
    ----------
    collection : the validated collection (unusable episodes become failures at stage ``validate``).
    out : output folder (``<episode_id>/`` artifacts, ``episodes.csv``, ``failures.csv``).
    options : feature options (part of the cache key).
    scheduler : address of a running Dask scheduler; None starts a LocalCluster of ``workers`` processes.
    decode_threads : threads building one episode's per-frame blocks inside a task (``load_window_set``'s
        ``workers``); 1 by default, since the tasks already run one per worker process and core.
    client : an open Dask client to reuse (then ``scheduler`` and ``workers`` are ignored).
    """
    out = paths.resolve(out)
    t0 = time.perf_counter()
    cached, jobs, failed = _cached_records(collection, options)
    records, n_workers = [], 0
    if jobs:
        own = client is None
        client = open_client(scheduler, workers) if own else client
        try:
            n_workers = len(client.scheduler_info()["workers"])
            records = _run_jobs(client, jobs, options, decode_threads, progress)
        finally:
            if own:
                close_client(client)
    table = pd.DataFrame(cached + records + failed)
    order = {e: i for i, e in enumerate(collection.ids)}
    table = table.sort_values("episode_id", key=lambda s: s.map(order)).reset_index(drop=True)
    problems = collection.problems.assign(stage="validate").rename(columns={"reason": "error"})
    failures = pd.concat([problems[list(FAILURE_COLUMNS)], table.loc[table["status"] == "failed",
                                                                     list(FAILURE_COLUMNS)]], ignore_index=True)
    artifacts = _publish(table.to_dict("records"), out)
    for col in ("seconds", "peak_rss_mb", "worker", "windows", "frames"):
        if col not in table.columns:
            table[col] = None
    _write_tables(table, out)
    write_csv(out / "failures.csv", failures)
    return FeatureRun(table, failures, time.perf_counter() - t0, n_workers, artifacts)


def _write_tables(table: pd.DataFrame, out: Path) -> None:
    """episodes.csv (the same on every run) and timings.csv (how this run got each episode, and its cost)."""
    steady = table[["episode_id", "status", "stage", "error", "windows", "frames"]].copy()
    steady["status"] = steady["status"].where(steady["status"] == "failed", "ok")
    for col in ("windows", "frames"):
        steady[col] = steady[col].astype("Int64")
    write_csv(out / "episodes.csv", steady)
    write_csv(out / "timings.csv", table[["episode_id", "status", "seconds", "peak_rss_mb", "worker"]]
              .rename(columns={"status": "source"}))
