"""Window features of every episode of a collection, on a Dask cluster (``robotask features --collection``).

One Dask task per episode builds its window set (``windowset.load_window_set``; the per-frame
extractors stream the videos and depth in chunks, so a worker holds one episode's features, never a
whole video or the collection) and writes its artifacts (``windowset.write_artifacts``) into a
folder entry of the content-hash cache ``Cache("collection_features")``, keyed on the episode's files
and the feature options. Hence:

- **resumable**: an episode whose entry exists is not submitted again; a rerun after a kill redoes only
  the unfinished episodes, and a second rerun computes nothing;
- **faults stay local**: a task catches its own error and reports the stage it failed in; the task of a
  worker that dies is rerun by Dask on a worker that remains (one it gives up on is that episode's
  failure); the run finishes the other episodes;
- **anywhere**: by default a ``LocalCluster`` of processes sized to the machine; given a scheduler
  address (``dask scheduler`` / ``dask worker``) the same tasks run on that cluster. The cache folder
  (``ROBOTASK_CACHE``) and the collection must then be on storage every worker sees: before any work,
  :func:`check_cluster` checks that on every worker, with its versions (``connection``);
- **a lost cluster**: with the scheduler gone, or no worker left for :data:`NO_WORKER_SECONDS`, the run
  stops with one line; the episodes finished are published and kept in the cache, and a rerun resumes.

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

    On ``scheduler``, :func:`.connection.connect` gives up after ``connection.CONNECT_SECONDS`` with one line.
    The LocalCluster has ``workers`` single-threaded worker processes (default: the CPU count), no
    dashboard (the book builds offline) and quiet logs; closing the client closes it.
    """
    if scheduler:  # a running cluster: reached within connection.CONNECT_SECONDS, or one clear line
        from .connection import connect

        return connect(scheduler)
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


DONE = ("finished", "error", "cancelled")  # "lost": its result went with its worker; Dask computes it again
POLL_SECONDS = 0.5  # how often the driver looks at the cluster while tasks run
NO_WORKER_SECONDS = 10  # how long a scheduler may have no worker at all before the run stops


def _run_jobs(client: Any, jobs: list[tuple], options: FeatureOptions, decode_threads: int,
              progress: bool) -> tuple[list[dict], str | None]:
    """Submit one task per episode and gather the records as they finish; returns them and what the
    cluster lost (:func:`.connection.cluster_lost`; None when every task came back).

    A task whose worker died is rerun by Dask on a worker that remains; a task Dask gives up on
    (``KilledWorker``) is that episode's failure. With the scheduler gone, or no worker left for
    :data:`NO_WORKER_SECONDS`, the run stops: the episodes not finished get no record."""
    from .connection import cluster_lost

    opts = asdict(options)
    root = str(paths.cache_dir())
    futures = {client.submit(episode_task, eid, folder, opts, root, decode_threads, key=f"robotask-features-{eid}",
                             pure=False): eid for eid, folder in jobs}
    bar, records, pending, gone, since = _Progress(len(futures), progress), [], set(futures), None, None
    while pending and gone is None:
        done = {fut for fut in pending if fut.status in DONE}
        gone = cluster_lost(client) if not done or any(fut.status != "finished" for fut in done) else None
        if gone == "every worker":  # workers may come back (a nanny restarts one); wait a little first
            since = time.monotonic() if since is None else since
            gone = gone if time.monotonic() - since > NO_WORKER_SECONDS else None
        else:
            since = None
        for fut in done:
            record = _record(fut, futures[fut])
            if record is None:  # its record was lost with its worker: Dask runs the task again
                done = done - {fut}
            elif gone is None or record["status"] != "failed":  # the cluster lost: a cancelled task, or one whose
                records.append(record)  # record cannot be fetched, is unfinished (its cache entry may exist)
                bar.step()
        pending -= done
        if not done:
            time.sleep(POLL_SECONDS)
    bar.close()
    return records, gone


RECORD_SECONDS = 2  # the longest wait for a finished task's record (a few hundred bytes); then it is asked again


def _record(fut: Any, episode_id: str) -> dict | None:
    """A finished task's record; a task that raised (e.g. KilledWorker) is that episode's failure; None when
    the record did not come within :data:`RECORD_SECONDS` (its worker died after the task finished)."""
    try:
        return fut.result(timeout=RECORD_SECONDS)
    except TimeoutError:
        return None
    except Exception as exc:  # noqa: BLE001 - the episode fails alone
        return {"episode_id": episode_id, "status": "failed", "stage": "worker",
                "error": f"{type(exc).__name__}: {exc}"}


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
    records, n_workers, gone = [], 0, None
    if jobs:
        own = client is None
        client = open_client(scheduler, workers) if own else client
        try:
            if own and scheduler:  # every worker: same install, same paths, before any work
                check_cluster(client, collection, {})
            n_workers = len(client.nthreads())
            records, gone = _run_jobs(client, jobs, options, decode_threads, progress)
            if gone is not None:  # an episode whose record was lost with the cluster may be whole in the cache
                recorded = {r["episode_id"] for r in records}
                kept, _, _ = _cached_records(collection.subset([e for e, _ in jobs if e not in recorded]), options)
                records += [{**r, "status": "computed"} for r in kept]
        finally:
            if gone is not None:
                from .connection import quiet

                quiet(client)
            elif own:
                close_client(client)
    rows = cached + records + failed  # none when the cluster was lost before any episode finished
    table = pd.DataFrame(rows) if rows else pd.DataFrame(columns=["episode_id", "status", "stage", "error"])
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
    if gone is not None:
        from ...errors import RobotaskError
        from .connection import RESUME

        left = len(jobs) - len(records)
        address = scheduler or getattr(client.scheduler, "address", "")
        raise RobotaskError(f"the Dask cluster at {address} lost {gone} with "
                            f"{left} of {len(collection.ids)} episodes unfinished; {RESUME}")
    return FeatureRun(table, failures, time.perf_counter() - t0, n_workers, artifacts)


def check_cluster(client: Any, collection: Collection, folders: dict[str, str | os.PathLike]) -> int:
    """:func:`.connection.preflight` for a collection run: every worker sees each episode's files and the
    cache folder (``ROBOTASK_CACHE``, which the tasks write) as this process does, plus ``folders``."""
    from .connection import preflight

    files = [f for folder in collection.episodes["path"] for f in episode_files(folder) if f.is_file()]
    shared = {"the cache folder (ROBOTASK_CACHE)": paths.cache_dir(), **folders}
    return preflight(client, files, shared)


def _write_tables(table: pd.DataFrame, out: Path) -> None:
    """episodes.csv (the same on every run) and timings.csv (how this run got each episode, and its cost)."""
    steady = table[["episode_id", "status", "stage", "error", "windows", "frames"]].copy()
    steady["status"] = steady["status"].where(steady["status"] == "failed", "ok")
    for col in ("windows", "frames"):
        steady[col] = steady[col].astype("Int64")
    write_csv(out / "episodes.csv", steady)
    write_csv(out / "timings.csv", table[["episode_id", "status", "seconds", "peak_rss_mb", "worker"]]
              .rename(columns={"status": "source"}))
