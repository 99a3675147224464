"""Per-frame feature extractors, the 18-block 8546-d window features, caches and artifacts.

Written from spec §3–4 (`shared/spec/episode-suite.md`). The defaults keep the original suite's
definitions; every documented flaw fix (§8) is an option of :class:`FeatureOptions`, the scaler
(:class:`robotask.episode.windows.Scaler`) or the split (``chronological_split(gap=...)``).

Deliberate layout choice: the original silently drops the hand, body, contact, IMU and point-cloud
blocks when their input is missing (changing the dimension) and crashes without captions. Here the
layout is always the 18 blocks / 8546 dims; a missing input gives zeros, a warning, and
``present: false`` for that block in ``available_modalities.json`` (§8.15).

Used by notebook ``11_windows_features`` and by the task chapters (``12_task``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

from .. import paths
from ..errors import RobotaskError
from ..io import write_csv, write_json, write_npz
from . import windows as W

FEATURE_VERSION = 1  # bump when an extractor's output changes: it invalidates the caches
VIDEO_STREAMS = ("fisheye_cam0", "fisheye_cam1", "fisheye_cam2", "fisheye_cam3",
                 "stereo_left", "stereo_right")
TOKEN_RE = re.compile(r"[a-zA-Z0-9_]+")
# OpenCV's fixed-point BGR→GRAY for 8-bit images: (R·4899 + G·9617 + B·1868 + 2^13) >> 14,
# i.e. the luma weights 0.299 / 0.587 / 0.114 rounded to 14 bits.
GRAY_WEIGHTS_Q14 = (4899, 9617, 1868)


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
    window: int = 20  # window length in frames
    stride: int = 5  # window stride in frames
    min_label_fraction: float = 0.6  # majority label threshold
    chunk: int = 256  # frames per vectorised chunk (video, depth)

    def __post_init__(self) -> None:
        if self.hand_frame not in ("camera", "world"):
            raise RobotaskError(f"FeatureOptions.hand_frame must be 'camera' or 'world', got {self.hand_frame!r}")
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


# --------------------------------------------------------------------------- area resize

def _area_weights(n_in: int, n_out: int) -> np.ndarray:
    """(n_out, n_in) overlap weights of output cells [i·s, (i+1)·s) with input pixels, s = n_in/n_out."""
    scale = n_in / n_out
    lo = np.arange(n_out)[:, None] * scale
    hi = lo + scale
    j = np.arange(n_in)[None, :]
    overlap = np.clip(np.minimum(j + 1, hi) - np.maximum(j, lo), 0.0, None)
    return overlap / overlap.sum(axis=1, keepdims=True)


def area_resize(images: np.ndarray, out_h: int, out_w: int) -> np.ndarray:
    """Area-average resize of the last two axes (OpenCV INTER_AREA semantics when shrinking).

    Each output cell is the mean of the input over its footprint, fractional pixels weighted by their
    overlap; integer factors give exact block means.

    Parameters
    ----------
    images : np.ndarray
        (..., h, w) array.
    out_h, out_w : int
        Output size.
    """
    x = np.asarray(images, dtype=np.float64)
    h, w = x.shape[-2:]
    if h == out_h and w == out_w:
        return x.copy()
    if h % out_h == 0 and w % out_w == 0:  # exact block means, fast path
        fh, fw = h // out_h, w // out_w
        return x.reshape(*x.shape[:-2], out_h, fh, out_w, fw).mean(axis=(-3, -1))
    return _area_weights(h, out_h) @ x @ _area_weights(w, out_w).T


# --------------------------------------------------------------------------- per-frame extractors

def gray_from_rgb(frames: np.ndarray) -> np.ndarray:
    """8-bit gray of RGB uint8 frames with OpenCV's fixed-point luma (0.299 R + 0.587 G + 0.114 B).

    Parameters
    ----------
    frames : np.ndarray
        (..., 3) uint8 RGB.
    """
    f = np.asarray(frames, dtype=np.int32)
    r, g, b = GRAY_WEIGHTS_Q14
    return ((f[..., 0] * r + f[..., 1] * g + f[..., 2] * b + (1 << 13)) >> 14).astype(np.uint8)


def video_frame_features(frames: np.ndarray, grid: int = 8, bins: int = 8) -> np.ndarray:
    """Per-frame video vector (98): RGB mean/std, per-channel histograms, gray grid, edge stats.

    Parameters
    ----------
    frames : np.ndarray
        (c, s, s, 3) uint8 RGB frames already resized (32×32 by default).
    grid : int
        Gray grid size (8 → 64 values, area resize).
    bins : int
        Histogram bins per channel on [0, 1].
    """
    frames = np.asarray(frames)
    if frames.ndim != 4 or frames.shape[-1] != 3 or frames.dtype != np.uint8:
        raise RobotaskError(f"video frames must be (c, h, w, 3) uint8, got {frames.shape} {frames.dtype}")
    c, h, w, _ = frames.shape
    rgb = frames.astype(np.float32) / np.float32(255.0)
    flat = rgb.reshape(c, h * w, 3)
    mean, std = flat.mean(axis=1), flat.std(axis=1)
    # bin k holds v in [k/bins, (k+1)/bins); v = x/255 never falls on an inner edge for bins = 8
    idx = np.minimum((frames.reshape(c, h * w, 3).astype(np.int32) * bins) // 255, bins - 1)
    idx = idx + np.arange(3)[None, None, :] * bins + np.arange(c)[:, None, None] * (3 * bins)
    hist = np.bincount(idx.ravel(), minlength=c * 3 * bins).reshape(c, 3 * bins) / float(h * w)
    gray = gray_from_rgb(frames).astype(np.float32) / np.float32(255.0)
    gray_grid = area_resize(gray, grid, grid).reshape(c, grid * grid)
    gy, gx = np.gradient(gray, axis=(1, 2))
    ax, ay = np.abs(gx).reshape(c, -1), np.abs(gy).reshape(c, -1)
    edges = np.stack([ax.mean(1), ay.mean(1), ax.std(1), ay.std(1)], axis=1)
    return np.concatenate([mean, std, hist, gray_grid, edges], axis=1).astype(np.float32)


def _sorted_percentiles(sorted_vals: np.ndarray, k: np.ndarray, qs: Sequence[float]) -> np.ndarray:
    """Linear-interpolated percentiles of the first k[r] values of each sorted row (numpy 'linear')."""
    rows = np.arange(len(sorted_vals))
    out = []
    for q in qs:
        pos = np.maximum(k - 1, 0) * (q / 100.0)
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, np.maximum(k - 1, 0))
        a, b = sorted_vals[rows, lo], sorted_vals[rows, hi]
        out.append(a + (b - a) * (pos - lo))
    return np.stack(out, axis=1)


def depth_frame_features(depth: np.ndarray, confidence: np.ndarray | None, depth_min: float,
                         depth_max: float, grid: int = 8) -> np.ndarray:
    """Per-frame depth vector (140): valid-pixel stats, normalised depth grid, confidence stats + grid.

    Valid pixels are finite and > 0: mean, std, min, max, p10, p50, p90, valid fraction (zeros if none).

    Parameters
    ----------
    depth : np.ndarray
        (c, h, w) metric depth at stored resolution.
    confidence : np.ndarray or None
        (c, h, w) confidence (uint8 0–255 or float 0–1); None gives zero confidence features.
    depth_min, depth_max : float
        Range that normalises the depth grid.
    grid : int
        Grid size (8 → 64 values).
    """
    d = np.asarray(depth, dtype=np.float32)
    if d.ndim != 3:
        raise RobotaskError(f"depth chunk must be (c, h, w), got shape {d.shape}")
    c = len(d)
    flat = d.reshape(c, -1)
    valid = np.isfinite(flat) & (flat > 0)
    k = valid.sum(axis=1)
    safe_k = np.maximum(k, 1)
    vals = np.where(valid, flat, 0.0).astype(np.float64)
    mean = vals.sum(axis=1) / safe_k
    var = (np.where(valid, vals - mean[:, None], 0.0) ** 2).sum(axis=1) / safe_k
    srt = np.sort(np.where(valid, flat, np.inf), axis=1).astype(np.float64)
    rows = np.arange(c)
    vmin, vmax = srt[:, 0], srt[rows, np.maximum(k - 1, 0)]
    pct = _sorted_percentiles(srt, k, (10, 50, 90))
    stats = np.column_stack([mean, np.sqrt(var), vmin, vmax, pct, k / flat.shape[1]])
    stats[k == 0] = 0.0
    span = max(float(depth_max) - float(depth_min), 1e-6)
    norm = np.clip((np.nan_to_num(d, nan=0.0) - np.float32(depth_min)) / np.float32(span), 0.0, 1.0)
    depth_grid = area_resize(norm, grid, grid).reshape(c, -1)
    if confidence is None:
        conf_feats = np.zeros((c, 4 + grid * grid))
    else:
        conf = np.asarray(confidence, dtype=np.float32)
        if conf.shape != d.shape:
            raise RobotaskError(f"confidence chunk {conf.shape} does not match depth chunk {d.shape}")
        cflat = conf.reshape(c, -1)
        cflat = np.where(cflat.max(axis=1, keepdims=True) > 1.0, cflat / np.float32(255.0), cflat)
        cflat = np.clip(cflat, 0.0, 1.0)
        cstats = np.column_stack([cflat.mean(1), cflat.std(1), cflat.min(1), cflat.max(1)])
        cgrid = area_resize(cflat.reshape(d.shape), grid, grid).reshape(c, -1)
        conf_feats = np.concatenate([cstats, cgrid], axis=1)
    return np.concatenate([stats, depth_grid, conf_feats], axis=1).astype(np.float32)


def audio_segment_bounds(n_frames: int, fps: float, sr: int, n_samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample range of frame i: [round(i/fps·sr), round((i+1)/fps·sr)), start in [0, L], end in [start+1, L].

    Parameters
    ----------
    n_frames : int
        Number of frames N.
    fps : float
        Video frame rate.
    sr : int
        Audio sample rate.
    n_samples : int
        Audio length L.
    """
    i = np.arange(n_frames, dtype=np.float64)
    start = np.array([round(v) for v in i / fps * sr], dtype=np.int64)
    end = np.array([round(v) for v in (i + 1) / fps * sr], dtype=np.int64)
    start = np.clip(start, 0, n_samples)
    end = np.minimum(np.maximum(end, start + 1), n_samples)
    return start, end


def audio_band_edges(bands: int = 16, lo: float = 50.0, hi: float = 8000.0) -> np.ndarray:
    """The bands + 1 log-spaced band edges from ``lo`` to ``hi`` Hz.

    Parameters
    ----------
    bands : int
        Number of bands.
    lo, hi : float
        Lowest and highest edge (Hz).
    """
    return np.geomspace(lo, hi, bands + 1)


def _audio_group_features(segs: np.ndarray, sr: int, bands: int) -> np.ndarray:
    """Audio features of equal-length segments (g, L) -> (g, 8 + bands)."""
    g, length = segs.shape
    x = segs.astype(np.float64)
    rms = np.sqrt((x ** 2).mean(axis=1))
    mabs = np.abs(x).mean(axis=1)
    peak = np.abs(x).max(axis=1)
    zcr = (x[:, :-1] * x[:, 1:] < 0).sum(axis=1) / max(length - 1, 1)
    power = np.abs(np.fft.rfft(x * np.hanning(length)[None, :], axis=1)) ** 2
    total = power.sum(axis=1)
    log_energy = np.log1p(total / length)
    freqs = np.fft.rfftfreq(length, 1.0 / sr)
    ok = total > 1e-12
    safe = np.where(ok, total, 1.0)
    centroid = (power * freqs).sum(axis=1) / safe
    bandwidth = np.sqrt((power * (freqs[None, :] - centroid[:, None]) ** 2).sum(axis=1) / safe)
    reach = np.cumsum(power, axis=1) >= 0.85 * total[:, None]
    rolloff = freqs[np.argmax(reach, axis=1)]
    edges = audio_band_edges(bands)
    member = (freqs[None, :] >= edges[:-1, None]) & (freqs[None, :] < edges[1:, None])  # (bands, F)
    band = np.log1p(power @ member.T.astype(np.float64))
    norm = np.linalg.norm(band, axis=1, keepdims=True)
    band = np.where(norm > 0, band / np.where(norm > 0, norm, 1.0), 0.0)
    spectral = np.column_stack([centroid, bandwidth, rolloff]) / 8000.0
    spectral[~ok] = 0.0
    band[~ok] = 0.0
    return np.column_stack([rms, mabs, peak, zcr, log_energy, spectral, band])


def audio_frame_features(audio: np.ndarray, sr: int, fps: float, n_frames: int,
                         bands: int = 16) -> np.ndarray:
    """Per-frame audio vector (24): rms, mean|x|, peak, ZCR, log-energy, centroid, bandwidth, roll-off, bands.

    Segments of equal length are processed together (one rFFT per length).

    Parameters
    ----------
    audio : np.ndarray
        Mono samples (float); NaN/inf become 0.
    sr : int
        Sample rate (16000).
    fps : float
        Video frame rate that cuts the audio into frames.
    n_frames : int
        Number of frames N.
    bands : int
        Number of log-spaced band energies.
    """
    if not fps or fps <= 0 or not np.isfinite(fps):
        raise RobotaskError(f"audio frame rate must be positive, got fps={fps}")
    x = np.nan_to_num(np.asarray(audio, dtype=np.float32).ravel(), nan=0.0, posinf=0.0, neginf=0.0)
    out = np.zeros((n_frames, 8 + bands), dtype=np.float64)
    start, end = audio_segment_bounds(n_frames, fps, sr, len(x))
    length = end - start
    for seg_len in np.unique(length[length > 0]):
        rows = np.flatnonzero(length == seg_len)
        segs = x[start[rows, None] + np.arange(seg_len)[None, :]]
        out[rows] = _audio_group_features(segs, sr, bands)
    return out.astype(np.float32)


def hash_token(token: str, dim: int = 128) -> tuple[int, float]:
    """Bucket and sign of one token: BLAKE2b (8-byte digest), bucket = LE uint32 of bytes 1–4 mod dim,
    sign = +1 if the lowest bit of byte 5 (digest[4]) is 1 else −1.

    Parameters
    ----------
    token : str
        A lower-case token.
    dim : int
        Number of buckets.
    """
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
    bucket = int.from_bytes(digest[:4], "little") % dim
    return bucket, (1.0 if digest[4] & 1 else -1.0)


def hash_text(text: str, dim: int = 128) -> np.ndarray:
    """Signed feature-hashing vector of a text (lower-cased, tokens ``[a-zA-Z0-9_]+``), L2-normalised.

    Parameters
    ----------
    text : str
        Free text.
    dim : int
        Vector dimension.
    """
    vec = np.zeros(dim, dtype=np.float64)
    for token in TOKEN_RE.findall(text.lower()):
        bucket, sign = hash_token(token, dim)
        vec[bucket] += sign
    norm = np.linalg.norm(vec)
    return (vec / norm if norm > 0 else vec).astype(np.float32)


def frame_text(objects: object, interaction: object, extra: Sequence[str] = ()) -> str:
    """The text of one frame: its objects (list items, or str of a truthy non-list), then interaction.

    Parameters
    ----------
    objects : list or object
        The frame's objects.
    interaction : str
        The frame's interaction sentence ("" = none).
    extra : sequence of str
        Appended label text (only with ``include_label_text``).
    """
    parts: list[str] = []
    if isinstance(objects, (list, tuple)):
        parts.extend(str(o) for o in objects)
    elif objects:
        parts.append(str(objects))
    if interaction:
        parts.append(str(interaction))
    parts.extend(str(e) for e in extra if e)
    return " ".join(parts)


def text_frame_features(objects: Sequence[object], interaction: Sequence[object], dim: int = 128,
                        extra: Sequence[Sequence[str]] | None = None) -> np.ndarray:
    """Per-frame hashed caption text (N, dim); identical texts are hashed once.

    Parameters
    ----------
    objects, interaction : sequence
        Per-frame objects lists and interaction strings.
    dim : int
        Hash dimension.
    extra : sequence of sequence of str, optional
        Per-frame label text to append (the original's leaking debug flag).
    """
    memo: dict[str, np.ndarray] = {}
    out = np.zeros((len(objects), dim), dtype=np.float32)
    for i, (obj, inter) in enumerate(zip(objects, interaction)):
        text = frame_text(obj, inter, extra[i] if extra is not None else ())
        if text not in memo:
            memo[text] = hash_text(text, dim)
        out[i] = memo[text]
    return out


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
        warnings.warn(f"{what}: {len(vec)} values instead of {dim}; padded/truncated to keep the layout")
        out = np.zeros(dim, dtype=np.float32)
        out[:min(dim, len(vec))] = vec[:dim]
        return out
    return vec
