"""The 18-block window-feature layout: extractor options, block sizes, manifest, static blocks.

Written from spec §3–4 (`shared/spec/episode-suite.md`). The defaults keep the original suite's
definitions; every documented flaw fix (§8) is an option of :class:`FeatureOptions`, the scaler
(:class:`robotask.episode.models.minimal.ZScaler`) or the split (``chronological_split(gap=...)``).

Deliberate layout choice: the original silently drops the hand, body, contact, IMU and point-cloud
blocks when their input is missing (changing the dimension) and crashes without captions. Here the
layout is always the 18 blocks / 8546 dims; a missing input gives zeros, a warning, and
``present: false`` for that block in ``available_modalities.json`` (§8.15).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

import robotask.episode.features.windows as W

from ...errors import RobotaskError
from ..files.format import VIDEO_STREAMS  # the six streams, in manifest order

FEATURE_VERSION = 2  # bump when an extractor's output changes: it invalidates the caches


@dataclass(frozen=True)
class FeatureOptions:
    """Extractor and window parameters; defaults reproduce the original suite (spec §3.5, §4)."""

    image_size: int = 32  # video frames are resized to this square size in the decoder (AREA)
    grid: int = 8  # gray / depth / confidence grids are grid×grid (area resize)
    hist_bins: int = 8  # per-channel colour histogram bins on [0, 1]
    text_dim: int = 128  # hashed caption-text dimension
    audio_source: str = "fisheye_cam0"  # stream whose audio is used
    sample_rate: int = 16000  # audio resampling rate (Hz)
    audio_bands: int = 16  # log-spaced band energies, 50 Hz … 8 kHz
    default_depth_range: tuple[float, float] = (0.0, 4.0)  # when depth_min/max are absent (TS default)
    hand_frame: str = "camera"  # "camera" = original (camera-frame hands − world root), "world" = fixed
    include_label_text: bool = False  # debug flag of the original: appends theme/action (leaks labels)
    camera_rotation: str = "absolute"  # "absolute" = original world-frame R; "relative" = R_start^T R_i (§8.13)
    audio_timing: str = "fps"  # "fps" = original cut at i/fps; "timestamps" = cut at the frame timestamps (§8.16)
    window: int = 20  # window length in frames
    stride: int = 5  # window stride in frames
    min_label_fraction: float = 0.6  # majority label threshold
    chunk: int = 256  # frames per vectorised chunk (video, depth)

    def __post_init__(self) -> None:
        choices = {"hand_frame": ("camera", "world"), "camera_rotation": ("absolute", "relative"),
                   "audio_timing": ("fps", "timestamps")}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise RobotaskError(f"FeatureOptions.{name} must be one of {allowed}, got {getattr(self, name)!r}")
        for name in ("image_size", "grid", "hist_bins", "text_dim", "sample_rate", "audio_bands",
                     "window", "stride", "chunk"):
            if int(getattr(self, name)) < 1:
                raise RobotaskError(f"FeatureOptions.{name} must be a positive integer")


def block_dims(options: FeatureOptions = FeatureOptions()) -> list[tuple[str, int]]:
    """The 18 blocks (name, dim) in manifest order; 8546 dims with the default options.

    Parameters
    ----------
    options : FeatureOptions
        Extractor parameters (they set the per-frame dims).
    """
    s = W.N_STATS
    video, depth = video_dim(options), depth_dim(options)
    blocks = [("hand_left_joints", 63 * s), ("hand_right_joints", 63 * s), ("body_joints", 156 * s),
              ("body_contacts", 21 * s), ("camera_translation", 3 * s), ("camera_rotation_matrix", 9 * s),
              ("imu_accel_gyro", 6 * s), ("depth_confidence", depth * s)]
    blocks += [(f"video_{v}", video * s) for v in VIDEO_STREAMS]
    blocks += [(f"audio_{options.audio_source}_aac", (8 + options.audio_bands) * s),
               ("caption_objects_interaction_text", options.text_dim * s),
               ("slam_point_cloud", 22), ("calibration", 117)]
    return blocks


def make_manifest(options: FeatureOptions = FeatureOptions()) -> list[dict]:
    """feature_manifest.json: [{name, start, end, dim}] with [start, end) column offsets.

    Parameters
    ----------
    options : FeatureOptions
        Extractor parameters.
    """
    manifest, start = [], 0
    for name, dim in block_dims(options):
        manifest.append({"name": name, "start": start, "end": start + dim, "dim": dim})
        start += dim
    return manifest


def video_dim(options: FeatureOptions = FeatureOptions()) -> int:
    """Per-frame video dims: 6 + 3·bins + grid² + 4 (98 by default)."""
    return 6 + 3 * options.hist_bins + options.grid ** 2 + 4


def depth_dim(options: FeatureOptions = FeatureOptions()) -> int:
    """Per-frame depth dims: 8 + grid² + 4 + grid² (140 by default)."""
    return 12 + 2 * options.grid ** 2


def point_cloud_features(cloud: np.ndarray | None) -> np.ndarray:
    """Static point-cloud block (22): per-axis mean, std, min, max, p10, p50, p90, then log1p(count).

    Parameters
    ----------
    cloud : np.ndarray or None
        (P, 3) loader-filtered cloud; None or empty gives zeros.
    """
    if cloud is None or len(cloud) == 0:
        return np.zeros(22, dtype=np.float32)
    p = np.nan_to_num(np.asarray(cloud, dtype=np.float64).reshape(-1, 3))
    stats = [p.mean(0), p.std(0), p.min(0), p.max(0), *np.percentile(p, [10, 50, 90], axis=0)]
    return np.concatenate(stats + [np.array([np.log1p(len(p))])]).astype(np.float32)


def calibration_features(calibration: dict) -> np.ndarray:
    """Static calibration block: numeric values of camera subgroups, sorted cameras then sorted keys.

    Strings, nested groups and datasets directly under ``calibration/`` are skipped; the real layout
    gives 117 values (spec §1.4).

    Parameters
    ----------
    calibration : dict
        The loader's calibration dict (camera name → {key: value}).
    """
    values: list[np.ndarray] = []
    for cam in sorted(k for k, v in calibration.items() if isinstance(v, dict)):
        group = calibration[cam]
        for key in sorted(group):
            val = group[key]
            if isinstance(val, (dict, str, bytes)):
                continue
            try:
                arr = np.asarray(val, dtype=np.float32).ravel()
            except (TypeError, ValueError):
                continue
            values.append(arr)
    return np.concatenate(values).astype(np.float32) if values else np.zeros(0, dtype=np.float32)


def fit_length(vec: np.ndarray, dim: int, what: str) -> np.ndarray:
    """Pad with zeros or truncate ``vec`` to ``dim`` values, warning when the length differs.

    Parameters
    ----------
    vec : np.ndarray
        A static feature vector.
    dim : int
        Expected length.
    what : str
        Block name for the warning.
    """
    if len(vec) != dim:
        warnings.warn(f"{what}: {len(vec)} values instead of {dim}; padded/truncated to keep the layout", stacklevel=2)
        out = np.zeros(dim, dtype=np.float32)
        out[:min(dim, len(vec))] = vec[:dim]
        return out
    return vec
