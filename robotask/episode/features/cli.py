"""``robotask features``: build window features and write their artifacts, for one episode or a collection.

``robotask features EPISODE --out DIR`` builds one episode's artifacts in this process;
``robotask features --collection DIR --out DIR [--scheduler ADDRESS] [--workers N]`` builds every
episode of a collection on Dask (``distributed``): a LocalCluster of processes by default, or the
running cluster at ``--scheduler``. The features themselves live in ``layout``, ``extractors``,
``hashtext``, ``perframe`` and ``windowset``.
"""

from __future__ import annotations

import sys
from typing import Any

from ... import paths
from ...errors import RobotaskError
from ...io import output_lock
from ...parameters import PROCESSES, option
from .connection import CONNECT_SECONDS
from .layout import FeatureOptions
from .windowset import load_window_set, write_artifacts


def register_cli(subparsers: Any) -> None:
    """Add ``robotask features [EPISODE | --collection DIR] --out DIR``."""
    p = subparsers.add_parser("features", help="build the 8546-d window features of an episode or a collection",
                              description="Build windows.csv, feature_manifest.json, available_modalities.json "
                                          "and shared_windows.npz for an episode folder, or for every episode "
                                          "of a collection on a Dask cluster.")
    p.add_argument("episode", nargs="?", type=paths.from_caller, help="episode folder (annotation.hdf5 + the six MP4s)")
    p.add_argument("--collection", type=paths.from_caller,
                   help="collection: folder of episode folders, or a manifest CSV")
    p.add_argument("--out", required=True, type=paths.from_caller, help="output folder for the artifacts")
    p.add_argument("--hand-frame", choices=("camera", "world"), default="camera",
                   help="hands minus body root in the camera frame (original) or world frame (fixed)")
    p.add_argument("--no-cache", action="store_true", help="recompute the per-frame features (one episode only)")
    p.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://host:8786 (one line after "
                   f"{CONNECT_SECONDS} s without an answer; every worker is checked first: same robotask and "
                   "packages, the collection and ROBOTASK_CACHE at the same paths)")
    p.add_argument("--workers", type=option(PROCESSES), help="LocalCluster worker processes (default: the CPU count)")
    p.set_defaults(func=_cli_features)


def _cli_features(args: Any) -> int:
    """Handler of ``robotask features``."""
    if (args.episode is None) == (args.collection is None):
        raise RobotaskError("give an EPISODE folder or --collection DIR (exactly one)")
    options = FeatureOptions(hand_frame=args.hand_frame)
    if args.episode is None:
        paths.outside_inputs(args.out, {"the collection folder": args.collection})
    else:
        paths.outside_inputs(args.out, {"the episode folder": args.episode})
    with output_lock(args.out):  # two builds into one --out at once: the second is refused
        if args.collection is not None:
            return _cli_collection(args, options)
        ws = load_window_set(args.episode, options, cache=not args.no_cache)
        written = write_artifacts(ws, args.out)
    print(f"{len(ws.windows)} windows × {ws.X.shape[1]} features; wrote " + ", ".join(p.name for p in written.values()))
    return 0


def _cli_collection(args: Any, options: FeatureOptions) -> int:
    """``--collection``: every episode on Dask; exit 1 when any episode failed."""
    from ..files.manifest import load_collection
    from .distributed import extract_collection

    collection = load_collection(args.collection)
    run = extract_collection(collection, args.out, options, scheduler=args.scheduler, workers=args.workers)
    counts = run.episodes["status"].value_counts().to_dict()
    print(f"{len(collection.ids)} usable episodes: {counts.get('computed', 0)} computed, "
          f"{counts.get('cached', 0)} from the cache, {counts.get('failed', 0)} failed; "
          f"{len(collection.problems)} unusable; {run.wall_seconds:.1f} s")
    if not run.failures.empty:
        print(run.failures.to_string(index=False), file=sys.stderr)
        print(f"failures written to {args.out}/failures.csv", file=sys.stderr)
        return 1
    return 0
