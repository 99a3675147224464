"""The window set of an episode: motion blocks, per-frame blocks and static blocks in 8546 columns.

``load_window_set(episode)`` → :class:`WindowSet` (the episode data path of DEVELOPING.md): window
features X, the manifest, the window table, per-frame labels; ``write_artifacts`` writes them in
the original's file layout. Used by notebook ``11_windows_features`` and the task chapters.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import robotask.episode.features.windows as W

from ...cache import Cache, content_key
from ...errors import RobotaskError
from ...io import write_csv, write_json, write_npz
from ...sources import source_closure
from ..files.format import VIDEO_STREAMS
from ..files.loader import Episode, load_episode
from .layout import FeatureOptions, calibration_features, fit_length, make_manifest, point_cloud_features
from .perframe import per_frame_features

WINDOW_CACHE = Cache("windows")  # window features X of an episode folder (see _window_features)

def _or_zeros(arr: np.ndarray | None, shape: tuple[int, ...], what: str) -> tuple[np.ndarray, bool]:
    """``arr`` as float64, or zeros of ``shape`` with a warning when it is missing."""
    if arr is None:
        warnings.warn(f"{what}: missing; its block is zeros (the original drops it or fills zeros)", stacklevel=2)
        return np.zeros(shape), False
    arr = np.asarray(arr, dtype=np.float64)
    if arr.shape[0] != shape[0]:
        raise RobotaskError(f"{what}: {arr.shape[0]} frames, expected {shape[0]} (one per annotation frame)")
    return arr.reshape(shape), True


def hand_per_frame(episode: Episode, options: FeatureOptions = FeatureOptions()) -> dict[str, tuple[np.ndarray, bool]]:
    """Per-frame hand inputs (N, 63) per side: joints minus the body root (if there is a body).

    ``hand_frame="camera"`` (original): camera-frame joints minus the world-frame root (§8.8's flaw).
    ``hand_frame="world"``: joints mapped to world with R_c2w, t_c2w first.

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    options : FeatureOptions
        ``hand_frame``.
    """
    n = int(episode.n_frames)
    root = None
    if episode.body_keypoints is not None:
        root = np.nan_to_num(np.asarray(episode.body_keypoints, dtype=np.float64)[:, 0, :])
    out = {}
    for side, arr in (("left", episode.left_joints), ("right", episode.right_joints)):
        joints, present = _or_zeros(arr, (n, 21, 3), f"hand_mocap/{side}_joints_3d")
        joints = np.nan_to_num(joints)
        if present and options.hand_frame == "world":
            joints = np.einsum("nij,nkj->nki", np.asarray(episode.R_c2w), joints) + np.asarray(episode.t_c2w)[:,
                                                                                                              None, :]
        if present and root is not None:
            joints = joints - root[:, None, :]
        out[side] = (joints.reshape(n, 63), present)
    return out


def motion_blocks(episode: Episode, starts: np.ndarray,
                  options: FeatureOptions = FeatureOptions()) -> dict[str, tuple[np.ndarray, bool]]:
    """Window features of the seven motion blocks: name -> ((n_w, dim) float64, present).

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    starts : np.ndarray
        Window start frames.
    options : FeatureOptions
        Window length and hand frame.
    """
    n, t = int(episode.n_frames), options.window
    hands = hand_per_frame(episode, options)
    body, has_body = _or_zeros(episode.body_keypoints, (n, 52, 3), "full_body_mocap/keypoints")
    body = np.nan_to_num(body)
    body = (body - body[:, :1, :]).reshape(n, 156)
    contacts, has_contacts = _or_zeros(episode.contacts, (n, 21), "full_body_mocap/contacts")
    blocks = {
        "hand_left_joints": (W.window_stats(hands["left"][0], starts, t), hands["left"][1]),
        "hand_right_joints": (W.window_stats(hands["right"][0], starts, t), hands["right"][1]),
        "body_joints": (W.window_stats(body, starts, t), has_body),
        "body_contacts": (W.window_stats(contacts, starts, t), has_contacts),
        "camera_translation": (W.window_stats(np.asarray(episode.t_c2w), starts, t, relative_to_start=True), True),
        "camera_rotation_matrix": (rotation_block(np.asarray(episode.R_c2w), starts, t, options.camera_rotation),
                                   True),
    }
    imu = episode.imu
    if imu is None or imu.keyframe_indices is None or len(imu.keyframe_indices) < n:
        warnings.warn("imu: missing or fewer keyframe_indices than frames; the IMU block is zeros", stacklevel=2)
        blocks["imu_accel_gyro"] = (np.zeros((len(starts), 6 * W.N_STATS)), False)
    else:
        samples = np.concatenate([np.asarray(imu.accel, np.float64), np.asarray(imu.gyro, np.float64)], axis=1)
        ranges = W.imu_sample_ranges(imu.keyframe_indices, starts, t, len(samples))
        blocks["imu_accel_gyro"] = (W.imu_window_stats(samples, ranges), True)
    return blocks


def rotation_block(rotations: np.ndarray, starts: np.ndarray, window: int, mode: str = "absolute") -> np.ndarray:
    """Window statistics of the camera rotation, row-major 3×3: absolute (original) or relative to the start.

    Parameters
    ----------
    rotations : np.ndarray
        (N, 3, 3) camera-to-world rotations.
    starts : np.ndarray
        Window start frames.
    window : int
        Window length in frames.
    mode : str
        "absolute" (world frame) or "relative" (R_start^T · R_i, independent of the world heading).
    """
    n = len(rotations)
    if mode == "absolute":
        return W.window_stats(rotations.reshape(n, 9), starts, window)
    idx = np.asarray(starts)[:, None] + np.arange(window)[None, :]
    rel = np.einsum("wji,wtjk->wtik", rotations[starts], rotations[idx])
    return W.stacked_stats(rel.reshape(len(starts), window, 9))


@dataclass
class WindowSet:
    """Window features and labels of one episode (the episode data path of DEVELOPING.md)."""

    X: np.ndarray  # (n_w, 8546) float32
    manifest: list[dict]  # [{name, start, end, dim}]
    windows: pd.DataFrame  # window_index, start/end/center frame, action/subtask label + fraction
    frame_action: np.ndarray  # (N,) str, "" = no label ("N/A" normalised to "")
    frame_subtask: np.ndarray  # (N,) str
    frame_objects: list[list[str]]  # per-frame objects
    episode: Episode
    modalities: dict = field(default_factory=dict)  # available_modalities.json content
    options: FeatureOptions = field(default_factory=FeatureOptions)

    @property
    def starts(self) -> np.ndarray:
        """Window start frames."""
        return self.windows["start_frame"].to_numpy()

    def columns(self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None) -> np.ndarray:
        """Column indices of the selected blocks (see windows.block_columns)."""
        return W.block_columns(self.manifest, include, exclude)


def episode_labels(episode: Episode) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
    """Per-frame action labels, subtask labels (theme) and objects; empty/"N/A" → ""; no captions → all "".

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    """
    n = int(episode.n_frames)
    cap = episode.captions
    if cap is None:
        return np.array([""] * n, dtype=object), np.array([""] * n, dtype=object), [[] for _ in range(n)]
    for name in ("action_label", "theme", "objects"):
        if len(getattr(cap, name)) != n:
            raise RobotaskError(f"captions.{name} has {len(getattr(cap, name))} frames, expected {n}")
    objects = [list(o) if isinstance(o, (list, tuple)) else ([str(o)] if o else []) for o in cap.objects]
    return W.clean_labels(cap.action_label), W.clean_labels(cap.theme), objects


def episode_windows(episode: Episode, options: FeatureOptions = FeatureOptions()) -> pd.DataFrame:
    """The window table of an episode (labels only, no features): cheap label-coverage studies.

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    options : FeatureOptions
        Window length, stride and label threshold.
    """
    action, subtask, _ = episode_labels(episode)
    return W.window_table(action, subtask, options.window, options.stride, options.min_label_fraction)


def load_window_set(episode_dir: str | os.PathLike | Episode, options: FeatureOptions = FeatureOptions(),
                    cache: bool = True, workers: int = 2) -> WindowSet:
    """Load an episode and build its 18-block window features (8546 dims by default) and labels.

    Parameters
    ----------
    episode_dir : path-like or Episode
        Episode folder (or an already loaded Episode).
    options : FeatureOptions
        Extractor, window and flaw-fix options.
    cache : bool
        Reuse / write per-frame feature caches under ``paths.cache_dir()/features``.
    workers : int
        Threads that build the per-frame blocks (depth, the six videos, audio) side by side: 2, the
        cores of the machine the study is timed on, when one episode is built alone (``robotask
        features EPISODE``, the chapters); 1 where episodes already run in parallel (the Dask
        workers of :func:`robotask.episode.features.distributed.extract_collection`, one process per
        core), so that the threads do not oversubscribe the cores. The features are the same bytes.
    """
    if isinstance(episode_dir, (str, os.PathLike)):
        episode = load_episode(episode_dir)
    else:
        episode = episode_dir
    n = int(episode.n_frames)
    if n < options.window:
        raise RobotaskError(f"{getattr(episode, 'path', 'episode')}: {n} frames, fewer than one window of "
                            f"{options.window} frames; expected at least {options.window}")
    windows = episode_windows(episode, options)
    starts = windows["start_frame"].to_numpy()
    manifest = make_manifest(options)
    stats: dict[str, np.ndarray] = {}

    def block_stats(name: str, feats: np.ndarray) -> None:
        stats[name] = W.window_stats(feats, starts, options.window)

    # Without the cache the window statistics of each per-frame block are computed as soon as the
    # block is (in its thread, beside the decoding of the others); with it they may not be needed.
    frames = per_frame_features(episode, options, cache, workers, then=None if cache else block_stats)
    meta: dict[str, dict] = {}
    presence: dict[str, bool] = {}
    for name, (feats, info) in frames.items():
        presence[name] = (bool(info.get("exists", True)) and bool(info.get("has_audio", True))
                          and info.get("decoded_frames", 1) > 0 and info.get("status", "present") == "present")
        meta[name] = {**info, "shape": list(feats.shape)}
    x, motion_present = _window_features(episode, starts, manifest, frames, options, cache, stats)
    presence = {**motion_present, **presence}
    cloud = point_cloud_features(episode.point_cloud)
    presence["slam_point_cloud"] = episode.point_cloud is not None and len(episode.point_cloud) > 0
    calib = fit_length(calibration_features(episode.calibration or {}), 117, "calibration")
    presence["calibration"] = bool(episode.calibration)
    _put(x, manifest, "slam_point_cloud", np.broadcast_to(cloud, (len(starts), 22)))
    _put(x, manifest, "calibration", np.broadcast_to(calib, (len(starts), 117)))
    action, subtask, objects = episode_labels(episode)
    modalities = _modalities(episode, n, meta, presence, options, len(cloud), len(calib))
    return WindowSet(x, manifest, windows, action, subtask, objects, episode, modalities, options)


def _window_features(episode: Episode, starts: np.ndarray, manifest: list[dict], frames: dict, options: FeatureOptions,
                     cache: bool, stats: dict[str, np.ndarray] | None = None) -> tuple[np.ndarray, dict[str, bool]]:
    """The motion and per-frame blocks of X, and which motion blocks are present; cached by content.

    ``stats`` holds the window statistics of per-frame blocks already computed (by block name).

    The cache key covers the episode folder's files, the options and the source of this module and of
    every module it imports (:func:`robotask.sources.source_closure`): a change to the feature code
    recomputes the entry, a change to the heads or the book does not.
    The warnings of a missing motion block are stored with the entry and repeated on every load.
    """
    def compute() -> dict[str, np.ndarray]:
        x = np.zeros((len(starts), manifest[-1]["end"]), dtype=np.float32)
        present = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for name, (feats, ok) in motion_blocks(episode, starts, options).items():
                present[name] = ok
                _put(x, manifest, name, feats)
        for name, (feats, _) in frames.items():
            done = (stats or {}).get(name)
            _put(x, manifest, name, W.window_stats(feats, starts, options.window) if done is None else done)
        return {"X": x, "motion_names": np.array(list(present)), "motion_present": np.array(list(present.values())),
                "warnings": np.array([str(w.message) for w in caught], dtype=str)}

    folder = getattr(episode, "path", None)
    if not cache or folder is None or not Path(folder).is_dir():
        arrays = compute()
    else:
        files = sorted(p for p in Path(folder).iterdir() if p.is_file())
        params = {"options": asdict(options), "starts": [int(starts[0]), int(starts[-1]), len(starts)]}
        key = content_key(params, [*files, *source_closure(__name__)])
        arrays = WINDOW_CACHE.npz(f"windows-{key}.npz", compute)
    for message in arrays["warnings"]:  # what a missing block says, on every load
        warnings.warn(str(message), stacklevel=2)
    present = {str(n): bool(v) for n, v in zip(arrays["motion_names"], arrays["motion_present"])}
    return arrays["X"], present


def _put(x: np.ndarray, manifest: list[dict], name: str, values: np.ndarray) -> None:
    """Write one block's window features into its manifest columns."""
    block = next((b for b in manifest if b["name"] == name), None)
    if block is None:
        raise RobotaskError(f"block {name!r} is not in the feature manifest")
    if values.shape != (len(x), block["dim"]):
        raise RobotaskError(f"block {name}: features {values.shape}, expected {(len(x), block['dim'])}")
    x[:, block["start"]:block["end"]] = np.nan_to_num(values, nan=0.0, posinf=0.0, neginf=0.0)


def _modalities(episode: Episode, n: int, meta: dict, presence: dict, options: FeatureOptions,
                cloud_dim: int, calib_dim: int) -> dict:
    """available_modalities.json: per-frame modalities with shapes, static blocks, presence flags."""
    doc: dict[str, Any] = {"num_frames": n, "is_synthetic": bool(getattr(episode, "is_synthetic", False)),
                           "hand_frame": options.hand_frame, "layout": "fixed 18 blocks; missing input = zeros"}
    doc["depth"] = meta["depth_confidence"]
    for v in VIDEO_STREAMS:
        doc[f"video_{v}"] = meta[f"video_{v}"]
    doc["audio"] = meta[f"audio_{options.audio_source}_aac"]
    doc["caption_text"] = meta["caption_objects_interaction_text"]
    doc["slam_point_cloud_static"] = [cloud_dim]
    doc["calibration_static"] = [calib_dim]
    doc["block_present"] = presence
    doc["block_status"] = {k: meta.get(k, {}).get("status") or ("present" if v else "missing")
                           for k, v in presence.items()}
    return doc


def write_artifacts(window_set: WindowSet, out_dir: str | os.PathLike) -> dict[str, Path]:
    """Write windows.csv, feature_manifest.json, available_modalities.json and shared_windows.npz.

    Parameters
    ----------
    window_set : WindowSet
        Result of :func:`load_window_set`.
    out_dir : path-like
        Output folder.
    """
    out = Path(out_dir)
    ws = window_set
    return {
        "windows": write_csv(out / "windows.csv", ws.windows),
        "manifest": write_json(out / "feature_manifest.json", ws.manifest),
        "modalities": write_json(out / "available_modalities.json", ws.modalities),
        "shared": write_npz(out / "shared_windows.npz", X=ws.X, starts=ws.windows["start_frame"].to_numpy(),
                            ends=ws.windows["end_frame"].to_numpy()),
    }
