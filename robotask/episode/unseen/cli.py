"""``robotask suite --collection``: the twelve tasks over an episode collection, split by episode.

``--split episodes`` holds out unseen episodes (grouped by ``--group`` if given), ``group-kfold`` runs
leave-episodes-out folds (each in ``OUT/fold<k>/``; the folds of chapter 14, ``tasks.splits.group_kfold``) and
writes the per-fold primary metrics to ``OUT/folds.csv`` and their mean ± sd to ``OUT/folds_summary.csv``;
``chronological`` splits every episode 70/30 in time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from ...errors import RobotaskError
from ...io import write_csv
from ...words import count
from ..features.distributed import extract_collection
from ..files.manifest import load_collection
from ..suite.execution import primary_table
from ..suite.fit import SuiteConfig
from ..tasks.splits import EpisodeSplit, episode_split, group_kfold
from .held_out import run_collection_suite
from .task_data import BuiltTasks, load_window_sets


def run_suite_on_collection(args: argparse.Namespace, cfg: SuiteConfig) -> int:
    """Handler of ``robotask suite --collection``; prints the primary table of each split."""
    collection = load_collection(args.collection)
    if not collection.problems.empty:
        print(collection.problems.to_string(index=False))
    out = Path(args.out)
    features = Path(args.features) if args.features else out / "features"
    if not args.features:
        extract_collection(collection, features)
    sets = load_window_sets(collection, features)
    if len(sets) < 2:
        raise RobotaskError(f"{args.collection}: {count(len(sets), 'episode')} with features; "
                            "a collection split needs ≥ 2")
    usable = collection.episodes[collection.episodes["episode_id"].isin(list(sets))]
    if args.split == "chronological":
        splits = [(out, EpisodeSplit("chronological", tuple(sets), ()), True)]
    elif args.split == "episodes":
        splits = [(out, episode_split(usable, args.test_fraction, args.group, args.seed), False)]
    else:
        splits = [(out / s.name, s, False) for s in group_kfold(usable, args.folds, args.group)]
    folds, built = [], BuiltTasks()  # each episode's tasks are built once for all the splits of this command
    for folder, split, chrono in splits:
        report = run_collection_suite(sets, split, args.tasks, args.heads, args.protocol, folder, cfg, chrono,
                                      built=built)
        with pd.option_context("display.width", 160, "display.max_columns", 20):
            print(f"split {split.name}: train {len(split.train)} / test {len(split.test)} episodes")
            print(primary_table(report).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        print(f"wrote {folder / 'summary_report.json'} and {folder / 'per_episode_metrics.csv'}")
        folds += fold_rows(split.name, report, args.protocol)
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
