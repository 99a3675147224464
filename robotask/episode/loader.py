"""Read an Xperience-10M episode folder as the public sample ships it (spec §1).

``load_episode(path) -> Episode`` reads calibration, SLAM poses (camera-to-world as §1.8), the
filtered point cloud, hands, body, contacts, IMU and captions eagerly (all small), and depth
lazily in chunks; videos and audio stay on disk (``robotask.episode.media`` decodes them).
Used by the features, the tasks and notebook ``10_episode``.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import h5py
import numpy as np

from ..errors import RobotaskError
from . import format as fmt


# ---------------------------------------------------------------- data classes
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
class Captions:
    """Per-frame caption labels resolved as the official toolkit does (spec §1.5)."""

    main_task: str
    theme: list[str]  # subtask label per frame ("" = none)
    action_label: list[str]
    action_desc: list[str]
    interaction: list[str]
    objects: list[list[str]]
    segments: list[tuple[int, int, str, int]]  # (start, end inclusive, theme, segment_id)
    task_to_id: dict[str, int]  # theme -> 1-based id in order of first appearance
    raw: dict = field(default_factory=dict, repr=False)  # the parsed JSON document

    @property
    def n_frames(self) -> int:
        """Number of frames the labels cover."""
        return len(self.theme)


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

    @property
    def pose_valid(self) -> np.ndarray:
        """(N,) bool: camera pose finite."""
        return np.isfinite(self.R_c2w).all(axis=(1, 2)) & np.isfinite(self.t_c2w).all(axis=1)

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
            warnings.warn(f"{p}: video missing; its features fall back to zeros", stacklevel=2)
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


def _decode_str(value: Any) -> str:
    """A stored string (bytes, numpy bytes or str) as NUL-stripped str."""
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size else b""
    if isinstance(value, (bytes, np.bytes_)):
        value = bytes(value).decode("utf-8", errors="replace")
    return str(value).rstrip("\x00")


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
            out[key] = _decode_str(value) if item.ndim == 0 else [_decode_str(v) for v in np.ravel(value)]
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


def quat_wxyz_to_matrix(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (…, 3, 3) from unit quaternions (…, 4) in (w, x, y, z) order."""
    q = np.asarray(q, dtype=np.float64)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    w, x, y, z = np.moveaxis(q, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def camera_poses(quat_wxyz: np.ndarray, trans_xyz: np.ndarray,
                 T_c0_b: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Camera-to-world (R, t) from world→body SLAM poses and camera←body extrinsics (spec §1.8)."""
    n = len(quat_wxyz)
    T = np.zeros((n, 4, 4))
    T[:, :3, :3] = quat_wxyz_to_matrix(quat_wxyz)
    T[:, :3, 3] = trans_xyz
    T[:, 3, 3] = 1.0
    if T_c0_b is not None:
        T = np.asarray(T_c0_b, dtype=np.float64) @ T
    R_c2w = np.transpose(T[:, :3, :3], (0, 2, 1))
    t_c2w = -np.einsum("nij,nj->ni", R_c2w, T[:, :3, 3])
    return R_c2w, t_c2w


def filter_point_cloud(points: np.ndarray, percentile: float = 95.0) -> np.ndarray:
    """Keep points whose distance from the per-axis median is ≤ the given percentile of distances."""
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 3 or len(pts) == 0:
        return pts
    d = np.linalg.norm(pts - np.median(pts, axis=0), axis=1)
    return pts[d <= np.percentile(d, percentile)]


def _stem(name: str) -> str:
    """Frame name without extension."""
    return name.rsplit(".", 1)[0] if "." in name else name


class _FrameRefs:
    """Resolve caption frame references to indices as the official toolkit (HT) does."""

    def __init__(self, names: list[str]) -> None:
        self.exact = {n: i for i, n in enumerate(names)}
        self.lookup = dict(self.exact)
        for i, n in enumerate(names):
            self.lookup.setdefault(_stem(n), i)
        stems = [_stem(n) for n in names]
        self.numeric = np.array([int(s) if s.isdigit() else -1 for s in stems], dtype=np.int64)
        self.n = len(names)

    def by_name(self, ref: Any) -> int | None:
        """Exact or stem lookup."""
        return self.lookup.get(str(ref))

    def nearest(self, ref: Any) -> int | None:
        """Frame whose name-as-integer is nearest to an all-digit reference."""
        s = str(ref).strip()
        if not s.isdigit() or not (self.numeric >= 0).any():
            return None
        valid = np.flatnonzero(self.numeric >= 0)
        return int(valid[np.argmin(np.abs(self.numeric[valid] - int(s)))])

    def name_or_nearest(self, ref: Any) -> int | None:
        """Exact/stem lookup, else nearest timestamp."""
        i = self.by_name(ref)
        return self.nearest(ref) if i is None else i

    def segment(self, ref: Any) -> int | None:
        """Segment bound: a direct 0-based index if in range, else name, else nearest timestamp."""
        try:
            i = int(ref)
            if 0 <= i < self.n:
                return i
        except (TypeError, ValueError):
            pass
        return self.name_or_nearest(ref)


def _as_objects(value: Any) -> list[str]:
    """Objects of one frame as a list of strings."""
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)] if value else []


def parse_caption_document(text: str, where: str) -> dict:
    """Parse the caption JSON, or raise RobotaskError naming ``where`` and the JSON error."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RobotaskError(f"{where}: malformed caption JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(doc, dict):
        raise RobotaskError(f"{where}: caption JSON must be an object with 'segments', got {type(doc).__name__}")
    return doc


def resolve_captions(doc: dict, frame_names: list[str], where: str = "caption",
                     strict: bool = False) -> Captions:
    """Expand a caption document to per-frame labels and segments (spec §1.5, HT rules).

    Parameters
    ----------
    doc : parsed caption JSON.
    frame_names : ``slam/frame_names`` of the episode.
    where : file/key named in warnings and errors.
    strict : raise RobotaskError on an unresolvable frame reference instead of warning and skipping it.
    """
    n = len(frame_names)
    refs = _FrameRefs(frame_names)
    info: dict[int, dict[str, Any]] = {}
    boundaries: list[tuple[int, int, str, int]] = []

    def unresolved(what: str, ref: Any) -> None:
        """Warn about (or, strict, raise on) a frame reference that names no frame."""
        msg = f"{where}: {what} frame reference {ref!r} matches no slam/frame_names entry"
        if strict:
            raise RobotaskError(msg)
        warnings.warn(msg + "; skipped", stacklevel=3)

    segments = doc.get("segments") or []
    if not isinstance(segments, list):
        raise RobotaskError(f"{where}: 'segments' must be a list, got {type(segments).__name__}")
    for k, seg in enumerate(segments):
        if not isinstance(seg, dict):
            raise RobotaskError(f"{where}: segments[{k}] must be an object")
        theme = str(seg.get("Sub Task", "") or "")
        seg_id = int(seg.get("segment_id", k)) if str(seg.get("segment_id", k)).lstrip("-").isdigit() else k
        touched: list[int] = []
        actions = []
        for a in seg.get("Current Action") or []:
            s_ref = a.get("start_frame_name", a.get("start_frame"))
            e_ref = a.get("end_frame_name", a.get("end_frame"))
            si, ei = refs.by_name(str(s_ref)), refs.by_name(str(e_ref))
            if (si is None or ei is None) and str(s_ref).strip().isdigit():
                si = refs.nearest(s_ref) if si is None else si
                ei = refs.nearest(e_ref) if ei is None else ei
            if si is None or ei is None:
                unresolved(f"segments[{k}] action {a.get('label', '')!r}", s_ref if si is None else e_ref)
                continue
            actions.append((si, ei, str(a.get("label", "") or ""), str(a.get("description", "") or "")))
        actions.sort(key=lambda x: x[0])
        for si, ei, label, desc in actions:
            for i in range(si, ei + 1):
                info.setdefault(i, {}).update(theme=theme, action_label=label, action_desc=desc)
            touched += [si, ei]
        exact_objects, exact_inter = {}, {}
        for key_name, store, conv in (("objects", exact_objects, _as_objects),
                                      ("interaction", exact_inter, lambda v: str(v or ""))):
            for ref, value in (seg.get(key_name) or {}).items():
                i = refs.name_or_nearest(ref)
                if i is None:
                    unresolved(f"segments[{k}] {key_name}", ref)
                    continue
                entry = info.setdefault(i, {})
                entry[key_name] = conv(value)
                entry.setdefault("theme", theme)
                touched.append(i)
                if ref in refs.exact:
                    store[i] = conv(value)
        s0, s1 = refs.segment(seg.get("start_frame")), refs.segment(seg.get("end_frame"))
        if s0 is None:
            s0 = min(touched) if touched else None
        if s1 is None:
            s1 = max(touched) if touched else None
        if s0 is None or s1 is None:
            unresolved(f"segments[{k}] bounds", seg.get("start_frame") if s0 is None else seg.get("end_frame"))
            continue
        for i in range(s0, s1 + 1):
            entry = info.setdefault(i, {})
            if not entry.get("action_label") and actions:
                before = [a for a in actions if a[1] < i]
                si, ei, label, desc = before[-1] if before else actions[0]
                entry.update(theme=entry.get("theme") or theme, action_label=label, action_desc=desc)
            for key_name, store in (("objects", exact_objects), ("interaction", exact_inter)):
                if key_name not in entry:
                    prior = [j for j in store if s0 <= j <= i]
                    if prior:
                        entry[key_name] = store[max(prior)]
        boundaries.append((s0, s1, theme, seg_id))

    theme, label, desc, inter, objects = [], [], [], [], []
    prev = {"theme": "", "action_label": "", "action_desc": ""}
    for i in range(n):
        entry = info.get(i, {})
        for key in prev:
            if entry.get(key):
                prev[key] = entry[key]
        theme.append(prev["theme"])
        label.append(prev["action_label"])
        desc.append(prev["action_desc"])
        inter.append(str(entry.get("interaction", "") or ""))
        objects.append(list(entry.get("objects", [])))
    task_to_id: dict[str, int] = {}
    for t in theme:
        if t and t not in task_to_id:
            task_to_id[t] = len(task_to_id) + 1
    config = doc.get("config") or {}
    main_task = str(config.get("Main Task", "") if isinstance(config, dict) else "")
    return Captions(main_task, theme, label, desc, inter, objects, boundaries, task_to_id, raw=doc)


# ---------------------------------------------------------------- the loader
def _read_caption_text(f: h5py.File, folder: Path) -> tuple[str, str] | None:
    """The caption JSON text and where it came from, or None when the episode has no caption."""
    for key in fmt.CAPTION_KEYS:
        if key in f:
            text = _decode_str(f[key][()]).strip()
            if not text:
                return None
            if text.startswith("{"):
                return text, f"{f.filename}:{key}"
            p = folder / text
            if not p.is_file():
                raise RobotaskError(f"{f.filename}:{key} holds neither JSON nor the path of an existing file ({text[:80]!r})")
            return p.read_text(encoding="utf-8"), str(p)
    return None


def _frame_names(f: h5py.File, key: str) -> list[str]:
    """Decode ``slam/frame_names``; numbers are rejected (they give garbage names in the original)."""
    raw = f[key][()]
    if np.asarray(raw).dtype.kind in "iuf":
        raise RobotaskError(f"{f.filename}: {key} holds numbers; expected byte strings such as b'75294505147569.jpg'")
    return [_decode_str(v) for v in np.ravel(raw)]


def _timestamps(f: h5py.File, names: list[str], n: int) -> np.ndarray | None:
    """Per-frame device timestamps (ns) from ``video/device_timestamp`` or digit frame names."""
    if fmt.VIDEO_TS in f:
        raw = np.ravel(f[fmt.VIDEO_TS][()])
        try:
            ts = np.array([int(_decode_str(v)) if isinstance(v, (bytes, np.bytes_, str)) else int(v) for v in raw],
                          dtype=np.int64)
            if len(ts) == n:
                return ts
        except ValueError:
            pass
    stems = [_stem(s) for s in names]
    return np.array([int(s) for s in stems], dtype=np.int64) if stems and all(s.isdigit() for s in stems) else None


def load_episode(path: str | Path, strict: bool = False) -> Episode:
    """Load an episode folder (``annotation.hdf5`` + six MP4s).

    Parameters
    ----------
    path : folder holding ``annotation.hdf5``.
    strict : raise instead of warning on unresolvable caption frame references.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise RobotaskError(f"{folder}: episode folder not found")
    ann = folder / fmt.ANNOTATION
    if not ann.is_file():
        raise RobotaskError(f"{folder}: no {fmt.ANNOTATION} in the episode folder")
    try:
        f = h5py.File(ann, "r")
    except OSError as exc:
        raise RobotaskError(f"{ann}: not a readable HDF5 file ({exc})") from None
    with f:
        if fmt.CALIBRATION not in f:
            raise RobotaskError(f"{ann}: missing group '{fmt.CALIBRATION}' (required; it may be empty)")
        calibration = _read_group(f[fmt.CALIBRATION])
        slam = [k in f for k in (fmt.SLAM_QUAT, fmt.SLAM_TRANS, fmt.SLAM_NAMES)]
        if any(slam) and not all(slam):
            missing = [k for k, ok in zip((fmt.SLAM_QUAT, fmt.SLAM_TRANS, fmt.SLAM_NAMES), slam) if not ok]
            raise RobotaskError(f"{ann}: {', '.join(missing)} missing; slam/quat_wxyz, trans_xyz and frame_names come as a set")
        T_c0_b = calibration.get(fmt.STEREO_CAMERA, {}).get("T_c0_b") if isinstance(
            calibration.get(fmt.STEREO_CAMERA), dict) else None
        if T_c0_b is not None and np.shape(T_c0_b) != (4, 4):
            raise RobotaskError(f"{ann}: calibration/cam01/T_c0_b has shape {np.shape(T_c0_b)}; expected (4, 4)")
        if all(slam):
            names = _frame_names(f, fmt.SLAM_NAMES)
            n = len(names)
            quat = _frame_array(f, fmt.SLAM_QUAT, n, (4,))
            trans = _frame_array(f, fmt.SLAM_TRANS, n, (3,))
            R_c2w, t_c2w = camera_poses(quat, trans, T_c0_b)
        else:
            n = next((int(f[k].shape[0]) for k in (fmt.LEFT_JOINTS, fmt.DEPTH, fmt.BODY_KEYPOINTS) if k in f), None)
            if n is None:
                raise RobotaskError(f"{ann}: no slam/* datasets and none of hand_mocap/left_joints_3d, depth/depth, "
                                    "full_body_mocap/keypoints to infer the frame count from")
            names = [f"frame_{i:06d}.jpg" for i in range(n)]
            R_c2w, t_c2w = np.repeat(np.eye(3)[None], n, 0), np.zeros((n, 3))
        left = _frame_array(f, fmt.LEFT_JOINTS, n, (fmt.N_HAND_JOINTS, 3))
        right = _frame_array(f, fmt.RIGHT_JOINTS, n, (fmt.N_HAND_JOINTS, 3))
        if left is not None and right is None:
            right = np.zeros_like(left)
        body = _frame_array(f, fmt.BODY_KEYPOINTS, n, (fmt.N_BODY_JOINTS, 3))
        contacts = _frame_array(f, fmt.BODY_CONTACTS, n, (fmt.N_CONTACTS,))
        cloud, raw_cloud = None, 0
        if fmt.SLAM_CLOUD in f:
            pts = np.asarray(f[fmt.SLAM_CLOUD][()], dtype=np.float64)
            if pts.ndim != 2 or pts.shape[1] != 3:
                raise RobotaskError(f"{ann}: {fmt.SLAM_CLOUD} has shape {pts.shape}; expected (P, 3)")
            raw_cloud, cloud = len(pts), filter_point_cloud(pts)
        imu = _read_imu(f, n)
        depth_shape = tuple(f[fmt.DEPTH].shape) if fmt.DEPTH in f else None
        if depth_shape is not None and depth_shape[0] != n:
            warnings.warn(f"{ann}: {fmt.DEPTH} has {depth_shape[0]} frames, {n} expected; "
                          "frames beyond it have no depth", stacklevel=2)

        def scalar(key: str) -> float | None:
            """A stored scalar (or 1-element array) as float, None when absent."""
            return float(np.ravel(f[key][()])[0]) if key in f else None

        scale = scalar(fmt.DEPTH_SCALE_KEY) or 1.0
        metadata = _read_group(f[fmt.METADATA]) if fmt.METADATA in f else {}
        ground = next((float(src[k]) for src in (metadata,) for k in fmt.GROUND_KEYS
                       if isinstance(src.get(k), float)), None)
        if ground is None:
            ground = next((scalar(k) for k in fmt.GROUND_KEYS if k in f), fmt.DEFAULT_GROUND_HEIGHT)
        caption = _read_caption_text(f, folder)
        ts = _timestamps(f, names, n)
        episode = Episode(
            path=folder, n_frames=n, frame_names=names, timestamps_ns=ts, R_c2w=R_c2w, t_c2w=t_c2w,
            point_cloud=cloud, calibration=calibration, left_joints=left, right_joints=right,
            body_keypoints=body, contacts=contacts, imu=imu, captions=None,
            depth_min=scalar(fmt.DEPTH_MIN), depth_max=scalar(fmt.DEPTH_MAX), depth_scale=float(scale),
            depth_shape=depth_shape, has_confidence=depth_shape is not None and fmt.DEPTH_CONF in f,
            metadata=metadata, ground_height=float(ground),
            is_synthetic=fmt.SYNTHETIC_KEY in f, raw_point_cloud_size=raw_cloud,
        )
    if caption is not None:
        text, where = caption
        episode.captions = resolve_captions(parse_caption_document(text, where), names, where, strict)
    bad = {k: v for k, v in episode.invalid_mocap().items() if v and k == "body_keypoints"}
    for arr, key in ((left, fmt.LEFT_JOINTS), (right, fmt.RIGHT_JOINTS)):
        if arr is not None and not np.isfinite(arr).all():
            bad[key] = int((~np.isfinite(arr.reshape(n, -1)).all(1)).sum())
    if bad:
        warnings.warn(f"{ann}: invalid mocap frames (NaN or all-zero) {bad}; see Episode.body_valid / "
                      "left_hand_valid / right_hand_valid", stacklevel=2)
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
