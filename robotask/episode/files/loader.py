"""Read an Xperience-10M episode folder as the public sample ships it (spec §1).

``load_episode(path) -> Episode`` reads calibration, SLAM poses (camera-to-world as §1.8), the
filtered point cloud, hands, body, contacts, IMU and captions (``robotask.episode.files.captions``) eagerly (all
small), and depth
lazily in chunks; videos and audio stay on disk (``robotask.episode.files.media`` decodes them).
Used by the features, the tasks and notebook ``10_episode``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import h5py
import numpy as np

import robotask.episode.files.format as fmt

from ...errors import RobotaskError, RobotaskWarning
from .captions import Captions, parse_caption_document, read_caption_text, resolve_captions
from .format import decode_str, frame_stem
from .poses import camera_poses, filter_point_cloud


@dataclass
class Imu:
    """IMU samples (all M of them) and the frame → sample map."""

    timestamps_ns: np.ndarray  # (M,) int64
    accel: np.ndarray  # (M, 3) float64, m/s^2
    gyro: np.ndarray  # (M, 3) float64, rad/s
    keyframe_indices: np.ndarray | None  # (N,) int64: IMU sample of each annotation frame

    def frame_range(self, a: int, b: int) -> tuple[int, int]:
        """IMU samples ``[ki[a], ki[b-1] + 1)`` of frames [a, b) (spec §1.6), at least one sample."""
        if self.keyframe_indices is None:
            raise RobotaskError("imu/keyframe_indices is missing; frames cannot be mapped to IMU samples")
        m = len(self.timestamps_ns)
        lo = int(np.clip(self.keyframe_indices[a], 0, m - 1))
        hi = int(np.clip(self.keyframe_indices[b - 1] + 1, lo + 1, m))
        return lo, hi


@dataclass
class Episode:
    """One episode folder; frame-indexed arrays have first dimension ``n_frames``."""

    path: Path
    n_frames: int
    frame_names: list[str]
    timestamps_ns: np.ndarray | None
    R_c2w: np.ndarray  # (N, 3, 3) float64, stereo-left camera to SLAM world
    t_c2w: np.ndarray  # (N, 3) float64
    point_cloud: np.ndarray | None  # (P, 3), filtered (95th-percentile distance rule)
    calibration: dict
    left_joints: np.ndarray | None  # (N, 21, 3) camera frame
    right_joints: np.ndarray | None
    body_keypoints: np.ndarray | None  # (N, 52, 3) world frame
    contacts: np.ndarray | None  # (N, 21)
    imu: Imu | None
    captions: Captions | None
    depth_min: float | None  # stored depth/depth_min, None if absent
    depth_max: float | None
    depth_scale: float  # stored depth/scale (1.0 if absent)
    depth_shape: tuple[int, ...] | None  # (n_depth_frames, h, w) as stored
    has_confidence: bool
    metadata: dict
    ground_height: float
    is_synthetic: bool
    raw_point_cloud_size: int = 0

    # ------------------------------------------------------------ validity
    @property
    def body_valid(self) -> np.ndarray | None:
        """(N,) bool: body keypoints finite and not all zero."""
        return None if self.body_keypoints is None else _valid_frames(self.body_keypoints)

    @property
    def left_hand_valid(self) -> np.ndarray | None:
        """(N,) bool: left hand present (finite, not all zero)."""
        return None if self.left_joints is None else _valid_frames(self.left_joints)

    @property
    def right_hand_valid(self) -> np.ndarray | None:
        """(N,) bool: right hand present (finite, not all zero)."""
        return None if self.right_joints is None else _valid_frames(self.right_joints)

    def invalid_mocap(self) -> dict[str, int]:
        """Count of invalid frames per mocap array (NaN or all-zero)."""
        out = {}
        for name, valid in (("body_keypoints", self.body_valid), ("left_joints", self.left_hand_valid),
                            ("right_joints", self.right_hand_valid)):
            if valid is not None:
                out[name] = int((~valid).sum())
        return out

    # ------------------------------------------------------------ depth
    @property
    def has_depth(self) -> bool:
        """True when ``depth/depth`` exists."""
        return self.depth_shape is not None

    @property
    def depth_range(self) -> tuple[float, float]:
        """(min, max) depth in metres; the official loader's defaults 0.0/1.0 when absent."""
        lo = 0.0 if self.depth_min is None else self.depth_min
        hi = 1.0 if self.depth_max is None else self.depth_max
        return lo, hi

    def iter_depth(self, chunk: int = 256, start: int = 0, stop: int | None = None,
                   upsample: bool = False) -> Iterator[tuple[int, np.ndarray, np.ndarray | None]]:
        """Yield ``(start, depth float32 (c,h,w), confidence uint8 (c,h,w) | None)`` chunks.

        Parameters
        ----------
        chunk : frames per read (memory stays bounded).
        start, stop : frame range; ``stop`` defaults to min(N, stored depth frames).
        upsample : repeat pixels by 1/scale (nearest) as the official loader does; default off
            (the suite reads the stored resolution).
        """
        if self.depth_shape is None:
            return
        stop = min(self.depth_shape[0], self.n_frames if stop is None else stop)
        rep = int(round(1.0 / self.depth_scale)) if upsample and 0 < self.depth_scale < 1 else 1
        with h5py.File(self.path / fmt.ANNOTATION, "r") as f:
            dset = f[fmt.DEPTH]
            conf = f[fmt.DEPTH_CONF] if self.has_confidence else None
            for s in range(start, stop, max(1, int(chunk))):
                e = min(stop, s + chunk)
                d = np.asarray(dset[s:e], dtype=np.float32)
                c = None if conf is None else np.asarray(conf[s:e]).astype(np.uint8, copy=False)
                if rep > 1:
                    d = d.repeat(rep, axis=1).repeat(rep, axis=2)
                    c = None if c is None else c.repeat(rep, axis=1).repeat(rep, axis=2)
                yield s, d, c

    def depth_frame(self, i: int, upsample: bool = False) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Depth and confidence of frame ``i``, (None, None) when out of range."""
        if self.depth_shape is None or not 0 <= i < min(self.depth_shape[0], self.n_frames):
            return None, None
        _, d, c = next(self.iter_depth(chunk=1, start=i, stop=i + 1, upsample=upsample))
        return d[0], None if c is None else c[0]

    # ------------------------------------------------------------ media
    def video_path(self, stream: str) -> Path | None:
        """Path of a video stream (``fisheye_cam0`` … ``stereo_right``), None with a warning if missing."""
        p = self.path / fmt.video_file(stream)
        if not p.is_file():
            warnings.warn(RobotaskWarning(f"{p}: video missing; its features are zeros"), stacklevel=2)
            return None
        return p

    @property
    def audio_path(self) -> Path | None:
        """The MP4 whose AAC track is the episode audio (``fisheye_cam0.mp4``), None if missing."""
        p = self.path / fmt.video_file(fmt.AUDIO_STREAM)
        return p if p.is_file() else None

    @property
    def fps(self) -> float:
        """Annotation frame rate from timestamps (20 Hz when they are absent)."""
        ts = self.timestamps_ns
        if ts is None or len(ts) < 2 or not np.all(np.diff(ts) > 0):
            return fmt.FPS
        return float(1e9 * (len(ts) - 1) / (ts[-1] - ts[0]))


# ---------------------------------------------------------------- helpers
def _valid_frames(arr: np.ndarray) -> np.ndarray:
    """(N,) bool: frame is finite everywhere and not all zero."""
    flat = arr.reshape(arr.shape[0], -1)
    return np.isfinite(flat).all(axis=1) & (np.abs(np.nan_to_num(flat)).sum(axis=1) > 0)


def _read_group(group: h5py.Group) -> dict:
    """Read an HDF5 group recursively (spec §1.4): dicts, arrays, floats and strings."""
    out: dict[str, Any] = {}
    for key in group:
        item = group[key]
        if isinstance(item, h5py.Group):
            out[key] = _read_group(item)
            continue
        value = item[()]
        if item.dtype.kind in "SUO" or isinstance(value, (bytes, str)):
            out[key] = decode_str(value) if item.ndim == 0 else [decode_str(v) for v in np.ravel(value)]
        elif item.ndim == 0:
            out[key] = float(value)
        else:
            out[key] = np.asarray(value)
    return out


def _frame_array(f: h5py.File, key: str, n: int | None, tail: tuple[int, ...]) -> np.ndarray | None:
    """Read a frame-indexed float array, squeeze a leading axis of 1, check shape and frame count."""
    if key not in f:
        return None
    arr = np.asarray(f[key][()], dtype=np.float64)
    if arr.ndim == len(tail) + 2 and arr.shape[0] == 1:
        arr = arr[0]
    if arr.shape[1:] != tail:
        raise RobotaskError(f"{f.filename}: {key} has shape {arr.shape}; expected (N, {', '.join(map(str, tail))})")
    if n is not None and arr.shape[0] != n:
        raise RobotaskError(f"{f.filename}: {key} has {arr.shape[0]} frames but slam/frame_names has {n}; "
                            "frame-indexed arrays must agree")
    return arr


def _frame_names(f: h5py.File, key: str) -> list[str]:
    """Decode ``slam/frame_names``; numbers are rejected (they give garbage names in the original)."""
    raw = f[key][()]
    if np.asarray(raw).dtype.kind in "iuf":
        raise RobotaskError(f"{f.filename}: {key} holds numbers; expected byte strings such as b'75294505147569.jpg'")
    return [decode_str(v) for v in np.ravel(raw)]


def _timestamps(f: h5py.File, names: list[str], n: int) -> np.ndarray | None:
    """Per-frame device timestamps (ns) from ``video/device_timestamp`` or digit frame names."""
    if fmt.VIDEO_TS in f:
        raw = np.ravel(f[fmt.VIDEO_TS][()])
        try:
            ts = np.array([int(decode_str(v)) if isinstance(v, (bytes, np.bytes_, str)) else int(v) for v in raw],
                          dtype=np.int64)
            if len(ts) == n:
                return ts
        except ValueError:
            pass
    stems = [frame_stem(s) for s in names]
    return np.array([int(s) for s in stems], dtype=np.int64) if stems and all(s.isdigit() for s in stems) else None


def _open_annotation(folder: Path) -> tuple[Path, h5py.File]:
    """The episode's ``annotation.hdf5`` path and open file, or RobotaskError saying what is wrong."""
    if not folder.is_dir():
        raise RobotaskError(f"{folder}: episode folder not found")
    ann = folder / fmt.ANNOTATION
    if not ann.is_file():
        raise RobotaskError(f"{folder}: no {fmt.ANNOTATION} in the episode folder")
    try:
        return ann, h5py.File(ann, "r")
    except OSError as exc:
        raise RobotaskError(f"{ann}: not a readable HDF5 file ({exc})") from None


def _read_poses(f: h5py.File, ann: Path, calibration: dict) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Frame names and camera-to-world poses from ``slam/*`` (identity poses when SLAM is absent)."""
    slam = [k in f for k in (fmt.SLAM_QUAT, fmt.SLAM_TRANS, fmt.SLAM_NAMES)]
    if any(slam) and not all(slam):
        missing = [k for k, ok in zip((fmt.SLAM_QUAT, fmt.SLAM_TRANS, fmt.SLAM_NAMES), slam) if not ok]
        raise RobotaskError(f"{ann}: {', '.join(missing)} missing; slam/quat_wxyz, trans_xyz and frame_names come "
                            "as a set")
    T_c0_b = calibration.get(fmt.STEREO_CAMERA, {}).get("T_c0_b") if isinstance(
        calibration.get(fmt.STEREO_CAMERA), dict) else None
    if T_c0_b is not None and np.shape(T_c0_b) != (4, 4):
        raise RobotaskError(f"{ann}: calibration/cam01/T_c0_b has shape {np.shape(T_c0_b)}; expected (4, 4)")
    if all(slam):
        names = _frame_names(f, fmt.SLAM_NAMES)
        n = len(names)
        if n == 0:
            raise RobotaskError(f"{ann}: {fmt.SLAM_NAMES} is empty (0 frames); expected one name per annotation frame")
        quat, trans = _frame_array(f, fmt.SLAM_QUAT, n, (4,)), _frame_array(f, fmt.SLAM_TRANS, n, (3,))
        quat, trans = _finite_poses(ann, quat, trans)
        R_c2w, t_c2w = camera_poses(quat, trans, T_c0_b)
        return names, R_c2w, t_c2w
    n = next((int(f[k].shape[0]) for k in (fmt.LEFT_JOINTS, fmt.DEPTH, fmt.BODY_KEYPOINTS) if k in f), None)
    if n is None:
        raise RobotaskError(f"{ann}: no slam/* datasets and none of hand_mocap/left_joints_3d, depth/depth, "
                            "full_body_mocap/keypoints to infer the frame count from")
    return [f"frame_{i:06d}.jpg" for i in range(n)], np.repeat(np.eye(3)[None], n, 0), np.zeros((n, 3))


def _finite_poses(ann: Path, quat: np.ndarray, trans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Poses with NaN/inf frames replaced by the identity (warns with the count per dataset)."""
    for key, arr, neutral in ((fmt.SLAM_QUAT, quat, np.array([1.0, 0, 0, 0])), (fmt.SLAM_TRANS, trans, np.zeros(3))):
        bad = ~np.isfinite(arr).all(axis=1)
        if bad.any():
            warnings.warn(RobotaskWarning(
                f"{ann}: {key} has NaN or inf in {int(bad.sum())} of {len(arr)} frames (first {int(np.argmax(bad))}); "
                "those frames get the identity pose "
                f"({'quaternion 1, 0, 0, 0' if key == fmt.SLAM_QUAT else 'zero translation'})"),
                stacklevel=4)
            arr[bad] = neutral
    return quat, trans


def _read_cloud(f: h5py.File, ann: Path) -> tuple[np.ndarray | None, int]:
    """The filtered SLAM point cloud (None when absent) and its raw size."""
    if fmt.SLAM_CLOUD not in f:
        return None, 0
    pts = np.asarray(f[fmt.SLAM_CLOUD][()], dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 3:
        raise RobotaskError(f"{ann}: {fmt.SLAM_CLOUD} has shape {pts.shape}; expected (P, 3)")
    return filter_point_cloud(pts), len(pts)


def _scalar(f: h5py.File, key: str) -> float | None:
    """A stored scalar (or 1-element array) as float, None when absent."""
    return float(np.ravel(f[key][()])[0]) if key in f else None


def _depth_fields(f: h5py.File, ann: Path, n: int) -> dict[str, Any]:
    """The Episode's depth fields: stored shape, min / max / scale, whether confidence exists."""
    depth_shape = tuple(f[fmt.DEPTH].shape) if fmt.DEPTH in f else None
    if depth_shape is not None and depth_shape[0] != n:
        warnings.warn(f"{ann}: {fmt.DEPTH} has {depth_shape[0]} frames, {n} expected; "
                      "frames beyond it have no depth", stacklevel=3)
    return {"depth_min": _scalar(f, fmt.DEPTH_MIN), "depth_max": _scalar(f, fmt.DEPTH_MAX),
            "depth_scale": float(_scalar(f, fmt.DEPTH_SCALE_KEY) or 1.0), "depth_shape": depth_shape,
            "has_confidence": depth_shape is not None and fmt.DEPTH_CONF in f}


def _ground_height(f: h5py.File, metadata: dict) -> float:
    """Ground height from the metadata group, else a top-level dataset, else the default."""
    ground = next((float(metadata[k]) for k in fmt.GROUND_KEYS if isinstance(metadata.get(k), float)), None)
    if ground is None:
        ground = next((_scalar(f, k) for k in fmt.GROUND_KEYS if k in f), fmt.DEFAULT_GROUND_HEIGHT)
    return float(ground)


def _read_mocap(f: h5py.File, n: int) -> dict[str, np.ndarray | None]:
    """Hands (a missing right hand is zeros when the left exists), body keypoints and contacts."""
    left = _frame_array(f, fmt.LEFT_JOINTS, n, (fmt.N_HAND_JOINTS, 3))
    right = _frame_array(f, fmt.RIGHT_JOINTS, n, (fmt.N_HAND_JOINTS, 3))
    if left is not None and right is None:
        right = np.zeros_like(left)
    return {"left_joints": left, "right_joints": right,
            "body_keypoints": _frame_array(f, fmt.BODY_KEYPOINTS, n, (fmt.N_BODY_JOINTS, 3)),
            "contacts": _frame_array(f, fmt.BODY_CONTACTS, n, (fmt.N_CONTACTS,))}


def _warn_invalid_mocap(episode: Episode, ann: Path) -> None:
    """One warning listing the mocap arrays with NaN or all-zero frames."""
    bad = {k: v for k, v in episode.invalid_mocap().items() if v and k == "body_keypoints"}
    for arr, key in ((episode.left_joints, fmt.LEFT_JOINTS), (episode.right_joints, fmt.RIGHT_JOINTS)):
        if arr is not None and not np.isfinite(arr).all():
            bad[key] = int((~np.isfinite(arr.reshape(episode.n_frames, -1)).all(1)).sum())
    if bad:
        warnings.warn(f"{ann}: invalid mocap frames (NaN or all-zero) {bad}; see Episode.body_valid / "
                      "left_hand_valid / right_hand_valid", stacklevel=3)


def load_episode(path: str | Path, strict: bool = False) -> Episode:
    """Load an episode folder (``annotation.hdf5`` + six MP4s).

    Parameters
    ----------
    path : folder holding ``annotation.hdf5``.
    strict : raise instead of warning on unresolvable caption frame references.
    """
    folder = Path(path)
    ann, f = _open_annotation(folder)
    with f:
        if fmt.CALIBRATION not in f:
            raise RobotaskError(f"{ann}: missing group '{fmt.CALIBRATION}' (required; it may be empty)")
        calibration = _read_group(f[fmt.CALIBRATION])
        names, R_c2w, t_c2w = _read_poses(f, ann, calibration)
        n = len(names)
        mocap = _read_mocap(f, n)
        cloud, raw_cloud = _read_cloud(f, ann)
        imu = _read_imu(f, n)
        depth = _depth_fields(f, ann, n)
        metadata = _read_group(f[fmt.METADATA]) if fmt.METADATA in f else {}
        ground = _ground_height(f, metadata)
        caption = read_caption_text(f, folder)
        episode = Episode(
            path=folder, n_frames=n, frame_names=names, timestamps_ns=_timestamps(f, names, n), R_c2w=R_c2w,
            t_c2w=t_c2w, point_cloud=cloud, calibration=calibration, **mocap, imu=imu, captions=None, **depth,
            metadata=metadata, ground_height=ground, is_synthetic=fmt.SYNTHETIC_KEY in f,
            raw_point_cloud_size=raw_cloud,
        )
    if caption is not None:
        text, where = caption
        episode.captions = resolve_captions(parse_caption_document(text, where), names, where, strict)
    _warn_invalid_mocap(episode, ann)
    return episode


def _read_imu(f: h5py.File, n: int) -> Imu | None:
    """IMU arrays when timestamp, accel and gyro all exist."""
    if not all(k in f for k in (fmt.IMU_TS, fmt.IMU_ACCEL, fmt.IMU_GYRO)):
        return None
    ts = np.ravel(f[fmt.IMU_TS][()]).astype(np.int64)
    accel = np.asarray(f[fmt.IMU_ACCEL][()], dtype=np.float64).reshape(-1, 3)
    gyro = np.asarray(f[fmt.IMU_GYRO][()], dtype=np.float64).reshape(-1, 3)
    if not len(ts) == len(accel) == len(gyro):
        raise RobotaskError(f"{f.filename}: imu/* lengths disagree (timestamps {len(ts)}, accel {len(accel)}, "
                            f"gyro {len(gyro)})")
    ki = None
    if fmt.IMU_KEYFRAMES in f:
        ki = np.ravel(f[fmt.IMU_KEYFRAMES][()]).astype(np.int64)
        if len(ki) < n:
            warnings.warn(f"{f.filename}: {fmt.IMU_KEYFRAMES} has {len(ki)} entries, {n} frames; "
                          "the suite drops the IMU block", stacklevel=3)
    return Imu(ts, accel, gyro, ki)
