"""``robotask suite --collection``: the twelve tasks over an episode collection, split by episode.

``--split episodes`` holds out unseen episodes (grouped by ``--group`` if given), ``group-kfold`` runs
leave-episodes-out folds (each in ``OUT/fold<k>/``; the folds of chapter 14, ``tasks.splits.group_kfold``) and
writes the per-fold primary metrics to ``OUT/folds.csv`` and their mean ± sd to ``OUT/folds_summary.csv``;
``chronological`` splits every episode 70/30 in time.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from ...errors import RobotaskError
from ...io import write_csv
from ...words import count
from ..features.connection import cluster_lost
from ..features.distributed import check_cluster, close_client, extract_collection, open_client
from ..files.manifest import Collection, load_collection
from ..suite.cluster import dask_gradients
from ..suite.execution import primary_table
from ..suite.fit import SuiteConfig
from ..tasks.protocols import get_protocol
from ..tasks.registry import parse_tasks
from ..tasks.splits import EpisodeSplit, episode_split, group_kfold
from .held_out import run_store_suite
from .task_data import build_store


def run_suite_on_collection(args: argparse.Namespace, cfg: SuiteConfig) -> int:
    """Handler of ``robotask suite --collection``; prints the primary table of each split."""
    collection = load_collection(args.collection)
    if not collection.problems.empty:
        print(collection.problems.to_string(index=False))
    out = Path(args.out)
    features = Path(args.features) if args.features else out / "features"
    if args.workers is not None and args.workers < 1:
        raise RobotaskError(f"--workers must be a positive number of processes, got {args.workers}")
    client = open_client(args.scheduler, args.workers) if args.scheduler or args.workers else None
    try:
        if args.scheduler:  # every worker: same install, and the collection, the cache and OUT at the same path
            check_cluster(client, collection, {"the output folder (--out)": out})
        if not args.features:
            extract_collection(collection, features, client=client)
        return _run_splits(args, cfg, collection, out, features, client)
    finally:
        if client is not None:
            close_client(client)


def _run_splits(args: argparse.Namespace, cfg: SuiteConfig, collection: Collection, out: Path, features: Path,
                client: Any) -> int:
    """Every split of the command over the collection's episodes with features."""
    ids = [eid for eid in collection.ids if (features / eid / "shared_windows.npz").is_file()]
    if len(ids) < 2:
        raise RobotaskError(f"{args.collection}: {count(len(ids), 'episode')} with features; "
                            "a collection split needs ≥ 2")
    usable = collection.episodes[collection.episodes["episode_id"].isin(ids)]
    if args.split == "chronological":
        splits = [(out, EpisodeSplit("chronological", tuple(ids), ()), True)]
    elif args.split == "episodes":
        splits = [(out, episode_split(usable, args.test_fraction, args.group, args.seed), False)]
    else:
        splits = [(out / s.name, s, False) for s in group_kfold(usable, args.folds, args.group)]
    protocol = get_protocol(args.protocol)
    folds = []
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".task-inputs-", dir=out) as scratch:
        # each episode's tasks are built once for all the splits of this command; inputs wait on disk
        store = build_store(collection, features, [protocol], parse_tasks(args.tasks), scratch)
        gradients = None if client is None else dask_gradients(client)
        for folder, split, chrono in splits:
            report = run_store_suite(store, split, args.tasks, args.heads, protocol, folder, cfg, chrono,
                                     gradients=gradients, keep=False)
            with pd.option_context("display.width", 160, "display.max_columns", 20):
                print(f"split {split.name}: train {len(split.train)} / test {len(split.test)} episodes")
                print(primary_table(report).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
            print(f"wrote {folder / 'summary_report.json'} and {folder / 'per_episode_metrics.csv'}")
            folds += fold_rows(split.name, report, args.protocol)
            gone = None if client is None else cluster_lost(client)
            if gone is not None:  # its tasks' fits failed on the cluster: stop here, the splits written are kept
                raise RobotaskError(f"the Dask cluster at {client.scheduler.address} lost {gone} during split "
                                    f"{split.name}: its tasks fitted on the cluster are reported failed in {folder}; "
                                    "the features are kept; run the command again")
    if args.split == "group-kfold":
        table = pd.DataFrame(folds)
        write_csv(out / "folds.csv", table)
        summary = fold_means(table)
        write_csv(out / "folds_summary.csv", summary)
        with pd.option_context("display.width", 160, "display.max_columns", 20):
            print(f"mean ± sd over {len(splits)} folds (protocol {args.protocol}):")
            print(summary.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        print(f"wrote {out / 'folds.csv'} and {out / 'folds_summary.csv'}")
    return 0


def fold_rows(fold: str, report: dict, protocol: str) -> list[dict]:
    """One row per task and head (baseline included) of a fold's primary metric (None: the task did not run)."""
    return [{"fold": fold, "protocol": protocol, "task": task, "metric": p["metric"], "head": head, "value": p[head]}
            for task, p in report["primary"].items() for head in ("baseline", *report["heads"])]


def fold_means(folds: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd (ddof 1) over folds per task and head; folds counts the folds with a value."""
    g = folds.assign(value=folds["value"].astype(float)).groupby(["task", "metric", "head"], sort=False)["value"]
    return g.agg(mean="mean", sd="std", folds="count").reset_index()
