"""``robotask suite``: the command line of the episode task suite, on one episode or a collection.

Kept apart from :mod:`robotask.episode.suite.execution`. The command is registered by the wing's
:mod:`robotask.episode.cli`, which passes the handler of ``--collection`` (in ``robotask.episode.unseen``, a
sub-package above this one) so that this package imports nothing above it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd

from ... import paths
from ...errors import RobotaskError
from ...parameters import PROCESSES, SEED, Range, option
from ..models.minimal import SOFTMAX_EPOCHS
from ..models.mlp import MLPConfig
from ..parameters import RANGES
from ..tasks.protocols import get_protocol
from ..tasks.registry import parse_tasks
from ..tasks.splits import SPLITS
from .execution import HEADS, load_windows, parse_heads, primary_table, run_suite
from .fit import SuiteConfig
from .jobs import default_jobs

DEFAULT_FOLDS = 5
"""``--folds`` when ``--split group-kfold`` is given without it."""
TEST_FRACTION = Range(low=0.01, high=0.99, meaning="a share between 0.01 and 0.99 of the episodes")


def register_cli(subparsers: Any, on_collection: Callable[[argparse.Namespace, SuiteConfig], int]) -> None:
    """Add ``robotask suite``; ``on_collection(args, cfg)`` runs it with ``--collection``."""
    p = subparsers.add_parser("suite", help="run the twelve episode tasks and write their artifacts")
    p.add_argument("--episode", type=paths.from_caller, help="episode folder (annotation.hdf5 + videos)")
    p.add_argument("--collection", type=paths.from_caller,
                   help="collection folder or manifest CSV (instead of --episode)")
    p.add_argument("--features", type=paths.from_caller,
                   help="with --collection: artifacts of robotask features --collection "
                                      "(default: computed into OUT/features on a LocalCluster)")
    p.add_argument("--split", choices=SPLITS, help="with --collection: how to split the episodes (default: episodes)")
    p.add_argument("--group", help="with --collection: manifest column to group by (subject, scene)")
    p.add_argument("--test-fraction", type=option(TEST_FRACTION, float), default=0.3,
                   help="with --split episodes: test share (default: %(default)s)")
    p.add_argument("--folds", type=option(RANGES["folds"]),
                   help=f"with --split group-kfold: number of episode folds (chapter 14's parameter folds; default: "
                   f"{DEFAULT_FOLDS}, at most the number of groups)")
    p.add_argument("--seed", type=option(SEED), default=0, help="with --collection: seed of the episode split")
    p.add_argument("--tasks", default="all", help="all, or a comma list of task ids (default: all twelve)")
    p.add_argument("--heads", default="minimal,mlp",
                   help="comma list of: " + ", ".join(HEADS) + " (default: %(default)s)")
    p.add_argument("--protocol", default="original", help="original or improved (default: %(default)s)")
    p.add_argument("--out", required=True, type=paths.from_caller,
                   help="output folder (with --episode: new or empty); columns: book/data_dictionary.md")
    p.add_argument("--epochs", type=option(RANGES["softmax_epochs"]), default=SOFTMAX_EPOCHS,
                   help="epochs of the linear heads")
    p.add_argument("--mlp-epochs", type=option(RANGES["mlp_epochs"]), default=MLPConfig().epochs,
                   help="epochs of the MLP")
    p.add_argument("--no-models", action="store_true", help="write no model files (model.npz, model.pt)")
    p.add_argument("--workers", type=option(PROCESSES),
                   help="with --collection: fit on a LocalCluster of this many worker processes (default: in this "
                        "process)")
    p.add_argument("--scheduler", help="with --collection: fit on a running Dask scheduler, e.g. tcp://host:8786 "
                   "(one line after 10 s without an answer; every worker is checked first: same robotask and "
                   "packages, the collection, ROBOTASK_CACHE and --out at the same paths)")
    p.add_argument("--jobs", type=option(PROCESSES), default=default_jobs(),
                   help="with --episode: worker processes for the tasks (default: the cores, here %(default)s)")
    p.set_defaults(func=partial(_cli, on_collection=on_collection))


def _cli(args: argparse.Namespace, on_collection: Callable[[argparse.Namespace, SuiteConfig], int]) -> int:
    """Handler of ``robotask suite``."""
    parse_tasks(args.tasks)
    parse_heads(args.heads)
    get_protocol(args.protocol)
    cfg = SuiteConfig(softmax_epochs=args.epochs, mlp=replace(MLPConfig(), epochs=args.mlp_epochs),
                      save_models=not args.no_models)
    if (args.episode is None) == (args.collection is None):
        raise RobotaskError("give --episode DIR or --collection DIR (exactly one)")
    if args.collection is not None:
        args.split, args.folds = args.split or "episodes", args.folds or DEFAULT_FOLDS
        try:
            return on_collection(args, cfg)
        except RobotaskError as exc:  # the folds' check says k; the user typed --folds
            if str(exc).startswith(f"k={args.folds};"):
                raise RobotaskError(f"--folds {args.folds}:{str(exc).split(';', 1)[1].replace(' k ', ' folds ')}"
                                    ) from None
            raise
    given = [flag for flag, value in (("--split", args.split), ("--folds", args.folds), ("--group", args.group))
             if value is not None]
    if given:
        raise RobotaskError(f"{' and '.join(given)} split the episodes of a --collection; with --episode DIR the "
                            "suite splits the one episode's windows by its --protocol (drop "
                            f"{' and '.join(given)}, or give --collection)")
    out = Path(args.out)
    if out.is_dir() and any(out.iterdir()) and not (out / "summary_report.json").is_file():
        raise RobotaskError(f"--out {out}: output folder exists and is not empty, and holds no earlier suite run "
                            "(summary_report.json); give a new or empty folder, or an earlier suite run's folder")
    if args.jobs < 1:
        raise RobotaskError(f"--jobs must be a positive number of processes, got {args.jobs}")
    report = run_suite(load_windows(args.episode), args.tasks, args.heads, args.protocol, args.out, cfg,
                       jobs=args.jobs)
    _clear_earlier_tasks(out, report)
    table = primary_table(report)
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    _print_reasons(report)
    print(f"wrote {Path(args.out) / 'summary_report.json'} and one folder per task under {args.out}; "
          "columns: book/data_dictionary.md")
    return 0


def _clear_earlier_tasks(out: Path, report: dict) -> None:
    """After a rerun into an earlier suite run's ``--out``: remove the earlier run's task folders that this run
    did not write, so the folder holds exactly what ``summary_report.json`` lists. Done only once this run has
    finished, so an interrupted rerun loses nothing of the earlier one."""
    import shutil

    from ..tasks.registry import TASKS

    ran = set(report.get("status", {}))
    for folder in out.iterdir():
        if folder.is_dir() and folder.name in TASKS and folder.name not in ran:
            shutil.rmtree(folder)


def _print_reasons(report: dict) -> None:
    """The reason of each task that did not run or is degenerate, and the report's notes (short ones whole; a
    long note cut at its first clause), under the table: what ``summary_report.json`` says, on the terminal."""
    for task, status in report.get("status", {}).items():
        if status.get("status") != "ok":
            print(f"{task}: {status.get('status')}: {status.get('reason') or status.get('error') or 'no reason given'}")
    notes = [(task, note) for task, items in report.get("notes", {}).items() for note in items]
    if notes:
        print(f"notes ({len(notes)}, in summary_report.json):")
        for task, note in notes:
            print(f"  {task}: {note if len(note) <= 110 else note.split(', so ')[0] + ' …'}")
