"""``robotask features EPISODE --out DIR``: build an episode's window features and write their artifacts.

The features themselves live in ``layout`` (options, the 18-block layout, static blocks),
``extractors`` and ``hashtext`` (per-frame vectors), ``perframe`` (per-episode per-frame features and
their cache) and ``windowset`` (the window set and its artifacts).
"""

from __future__ import annotations

from typing import Any

from .layout import FeatureOptions
from .windowset import load_window_set, write_artifacts


def register_cli(subparsers: Any) -> None:
    """Add ``robotask features EPISODE --out DIR``: build the window set and write its artifacts."""
    p = subparsers.add_parser("features", help="build the 8546-d window features of an episode folder",
                              description="Build windows.csv, feature_manifest.json, available_modalities.json "
                                          "and shared_windows.npz for an episode folder.")
    p.add_argument("episode", help="episode folder (annotation.hdf5 + the six MP4s)")
    p.add_argument("--out", required=True, help="output folder for the artifacts")
    p.add_argument("--hand-frame", choices=("camera", "world"), default="camera",
                   help="hands minus body root in the camera frame (original) or world frame (fixed)")
    p.add_argument("--no-cache", action="store_true", help="recompute the per-frame features")
    p.set_defaults(func=_cli_features)


def _cli_features(args: Any) -> int:
    """Handler of ``robotask features``."""
    ws = load_window_set(args.episode, FeatureOptions(hand_frame=args.hand_frame), cache=not args.no_cache)
    written = write_artifacts(ws, args.out)
    print(f"{len(ws.windows)} windows × {ws.X.shape[1]} features; wrote " + ", ".join(p.name for p in written.values()))
    return 0
