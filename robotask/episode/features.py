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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from .. import paths
from ..errors import RobotaskError
from ..io import write_csv, write_json, write_npz
from . import format as fmt
from . import windows as W
from .format import VIDEO_STREAMS  # the six streams, in manifest order

FEATURE_VERSION = 2  # bump when an extractor's output changes: it invalidates the caches
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
    x = np.asarray(images)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    h, w = x.shape[-2:]
    if h == out_h and w == out_w:
        return x.astype(np.float64)
    if h % out_h == 0 and w % out_w == 0:  # exact block means (float64 accumulation), fast path
        fh, fw = h // out_h, w // out_w
        return x.reshape(*x.shape[:-2], out_h, fh, out_w, fw).mean(axis=(-3, -1), dtype=np.float64)
    return _area_weights(h, out_h) @ x.astype(np.float64) @ _area_weights(w, out_w).T


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
    flat = frames.reshape(c, h * w, 3).astype(np.float64) / 255.0
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
        a, b = sorted_vals[rows, lo].astype(np.float64), sorted_vals[rows, hi].astype(np.float64)
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
    vals = np.where(valid, flat, np.float32(0.0))
    mean = vals.sum(axis=1, dtype=np.float64) / safe_k
    var = np.maximum(np.einsum("ij,ij->i", vals, vals, dtype=np.float64) / safe_k - mean ** 2, 0.0)
    srt = np.sort(np.where(valid, flat, np.float32(np.inf)), axis=1)  # float32 sort is SIMD-fast
    srt[k == 0] = 0.0  # no valid pixel: every statistic is 0
    rows = np.arange(c)
    vmin, vmax = srt[:, 0].astype(np.float64), srt[rows, np.maximum(k - 1, 0)].astype(np.float64)
    pct = _sorted_percentiles(srt, k, (10, 50, 90))
    stats = np.column_stack([mean, np.sqrt(var), vmin, vmax, pct, k / flat.shape[1]])
    stats[k == 0] = 0.0
    span = max(float(depth_max) - float(depth_min), 1e-6)
    norm = d - np.float32(depth_min)
    norm /= np.float32(span)
    np.clip(norm, np.float32(0.0), np.float32(1.0), out=norm)
    norm[np.isnan(norm)] = np.clip(-float(depth_min) / span, 0.0, 1.0)  # NaN depth counts as 0 m
    depth_grid = area_resize(norm, grid, grid).reshape(c, -1)
    if confidence is None:
        conf_feats = np.zeros((c, 4 + grid * grid))
    else:
        conf = np.asarray(confidence, dtype=np.float32)
        if conf.shape != d.shape:
            raise RobotaskError(f"confidence chunk {conf.shape} does not match depth chunk {d.shape}")
        cflat = conf.reshape(c, -1).copy() if conf is confidence else conf.reshape(c, -1)
        scale = np.where(cflat.max(axis=1) > 1.0, np.float32(1 / 255.0), np.float32(1.0)).astype(np.float32)
        cflat *= scale[:, None]  # a frame whose max exceeds 1 is in 0–255 units
        np.clip(cflat, np.float32(0.0), np.float32(1.0), out=cflat)
        cmean = cflat.mean(axis=1, dtype=np.float64)
        cdev = cflat - cmean[:, None].astype(np.float32)
        cstd = np.sqrt(np.einsum("ij,ij->i", cdev, cdev, dtype=np.float64) / cflat.shape[1])
        cstats = np.column_stack([cmean, cstd, cflat.min(1), cflat.max(1)])
        cgrid = area_resize(cflat.reshape(d.shape), grid, grid).reshape(c, -1)
        conf_feats = np.concatenate([cstats, cgrid], axis=1)
    return np.concatenate([stats, depth_grid, conf_feats], axis=1).astype(np.float32)


def audio_segment_bounds(n_frames: int, fps: float, sr: int, n_samples: int,
                         frame_times: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
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
    frame_times : np.ndarray, optional
        Frame start times in seconds from the first frame (the timestamp fix of §8.16); frame i then
        spans [t_i, t_{i+1}), the last frame 1/fps.
    """
    if frame_times is None:
        i = np.arange(n_frames + 1, dtype=np.float64)
        edges = i / fps * sr
    else:
        t = np.asarray(frame_times, dtype=np.float64)[:n_frames]
        edges = np.append(t, t[-1] + 1.0 / fps) * sr
    rounded = np.array([round(v) for v in edges], dtype=np.int64)  # Python round, as the original
    start, end = rounded[:-1], rounded[1:]
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
                         bands: int = 16, frame_times: np.ndarray | None = None) -> np.ndarray:
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
    frame_times : np.ndarray, optional
        Frame times in seconds (see :func:`audio_segment_bounds`).
    """
    if not fps or fps <= 0 or not np.isfinite(fps):
        raise RobotaskError(f"audio frame rate must be positive, got fps={fps}")
    x = np.nan_to_num(np.asarray(audio, dtype=np.float32).ravel(), nan=0.0, posinf=0.0, neginf=0.0)
    out = np.zeros((n_frames, 8 + bands), dtype=np.float64)
    start, end = audio_segment_bounds(n_frames, fps, sr, len(x), frame_times)
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


# --------------------------------------------------------------------------- caches

FULL_HASH_LIMIT = 64 << 20  # files up to 64 MiB are hashed in full
SAMPLE_BYTES = 1 << 20  # larger files: size + 16 evenly spaced 1 MiB samples (first and last included)
N_SAMPLES = 16
_FINGERPRINTS: dict[tuple[str, int, int], str] = {}


def file_fingerprint(path: str | os.PathLike) -> str:
    """Content hash of a file: sha256 of all bytes (≤ 64 MiB) or of its size + 16 sampled 1 MiB blocks.

    The sampled form keeps multi-GB annotation files cheap to key; it is memoised per process on
    (path, size, mtime).

    Parameters
    ----------
    path : path-like
        The input file.
    """
    path = Path(path)
    st = path.stat()
    memo_key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if memo_key in _FINGERPRINTS:
        return _FINGERPRINTS[memo_key]
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        if st.st_size <= FULL_HASH_LIMIT:
            for block in iter(lambda: fh.read(4 << 20), b""):
                h.update(block)
        else:
            h.update(f"size={st.st_size}".encode())
            for off in np.linspace(0, st.st_size - SAMPLE_BYTES, N_SAMPLES).astype(np.int64):
                fh.seek(int(off))
                h.update(fh.read(SAMPLE_BYTES))
    _FINGERPRINTS[memo_key] = h.hexdigest()
    return _FINGERPRINTS[memo_key]


def feature_cache_dir() -> Path:
    """Folder of the per-frame feature caches: ``paths.cache_dir()/features``."""
    return paths.cache_dir() / "features"


def cache_key(inputs: Sequence[str | os.PathLike], params: dict) -> str:
    """Cache key: sha256 over the input files' content hashes, the parameters and FEATURE_VERSION.

    Parameters
    ----------
    inputs : sequence of path-like
        Input files.
    params : dict
        Extractor parameters (JSON-serialisable).
    """
    doc = {"files": [file_fingerprint(p) for p in inputs], "params": params, "version": FEATURE_VERSION}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:20]


def cached_per_frame(kind: str, inputs: Sequence[str | os.PathLike], params: dict,
                     compute: Callable[[], tuple[np.ndarray, dict]], use_cache: bool = True) -> tuple[np.ndarray, dict]:
    """Load per-frame features from the cache, or compute and store them (atomically).

    Parameters
    ----------
    kind : str
        File-name prefix, e.g. ``video_fisheye_cam0``.
    inputs : sequence of path-like
        Files the features are computed from (their content is part of the key).
    params : dict
        Extractor parameters that are part of the key.
    compute : callable
        Returns (features, metadata dict).
    use_cache : bool
        False recomputes and does not write.
    """
    if not use_cache:
        return compute()
    path = feature_cache_dir() / f"{kind}_n{params.get('n_frames', 'x')}_{cache_key(inputs, params)}.npz"
    if path.is_file():
        try:
            with np.load(path) as z:
                return z["features"], json.loads(str(z["meta"]))
        except (OSError, ValueError, KeyError):
            warnings.warn(f"{path}: unreadable feature cache; recomputing")
    feats, meta = compute()
    write_npz(path, features=feats, meta=np.array(json.dumps(meta, default=str)))
    return feats, meta


# --------------------------------------------------------------------------- per-episode per-frame features

def _progress(total: int, desc: str):
    from robotask.progress import tqdm

    return tqdm(total=total, desc=desc, unit="frame", leave=False, mininterval=1.0)


def _annotation_file(episode: Any) -> Path:
    base = Path(episode.path)
    return base if base.is_file() else base / fmt.ANNOTATION


def video_features(episode: Any, stream: str, options: FeatureOptions = FeatureOptions(),
                   cache: bool = True) -> tuple[np.ndarray, dict]:
    """Per-frame video features (N, 98) of one stream; zeros with a warning if the file is missing.

    Decodes the file once (frames resized in the decoder) and extracts features over chunks.

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    stream : str
        One of VIDEO_STREAMS.
    options : FeatureOptions
        Extractor parameters.
    cache : bool
        Use the on-disk cache.
    """
    n = int(episode.n_frames)
    path = episode.video_path(stream)
    if path is None or not Path(path).is_file():
        warnings.warn(f"video {stream}: file missing; its {video_dim(options)} features are zeros")
        return np.zeros((n, video_dim(options)), np.float32), {"path": str(path), "exists": False}
    params = {"n_frames": n, "img": options.image_size, "grid": options.grid, "hist": options.hist_bins}
    try:
        return cached_per_frame(f"video_{stream}", [path], params,
                                lambda: _video_compute(Path(path), stream, n, options), cache)
    except RobotaskError as exc:  # unreadable file: the original's failed reads give zero vectors
        warnings.warn(f"video {stream}: {exc}; its {video_dim(options)} features are zeros")
        return np.zeros((n, video_dim(options)), np.float32), {"path": Path(path).name, "exists": False}


def _video_compute(path: Path, stream: str, n: int, options: FeatureOptions) -> tuple[np.ndarray, dict]:
    """Decode one video and compute its per-frame features in chunks (missing frames repeat the last)."""
    from . import media

    size, chunk = options.image_size, options.chunk
    out = np.zeros((n, video_dim(options)), np.float32)
    buf = np.zeros((chunk, size, size, 3), np.uint8)
    filled, fill_from, n_decoded = 0, 0, 0
    with _progress(n, stream) as bar:
        for frame in media.iter_video_frames(path, size, n, fill="none"):
            if frame is None:  # short/unreadable video: the original repeats the previous vector
                break
            buf[filled] = frame
            filled += 1
            n_decoded += 1
            if filled == chunk:
                out[fill_from:fill_from + filled] = video_frame_features(buf, options.grid, options.hist_bins)
                fill_from, filled = fill_from + filled, 0
                bar.update(chunk)
        if filled:
            out[fill_from:fill_from + filled] = video_frame_features(buf[:filled], options.grid, options.hist_bins)
            bar.update(filled)
    if 0 < n_decoded < n:
        out[n_decoded:] = out[n_decoded - 1]
    return out, {"path": path.name, "exists": True, "decoded_frames": n_decoded}


def depth_range(episode: Any, options: FeatureOptions = FeatureOptions()) -> tuple[float, float]:
    """(depth_min, depth_max) for the depth grid: the stored values, else the suite's 0.0 / 4.0.

    (The official loader defaults to 0.0 / 1.0; the suite normalises with its own 0.0 / 4.0.)

    Parameters
    ----------
    episode : Episode
        The loaded episode (``depth_min`` / ``depth_max`` None when absent).
    options : FeatureOptions
        ``default_depth_range``.
    """
    lo_default, hi_default = options.default_depth_range
    if hasattr(episode, "depth_min"):
        lo = lo_default if episode.depth_min is None else float(episode.depth_min)
        hi = hi_default if episode.depth_max is None else float(episode.depth_max)
        return lo, hi
    return tuple(float(v) for v in episode.depth_range)


def depth_features(episode: Any, options: FeatureOptions = FeatureOptions(),
                   cache: bool = True) -> tuple[np.ndarray, dict]:
    """Per-frame depth + confidence features (N, 140), read in chunks; zeros if the episode has no depth.

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    options : FeatureOptions
        Extractor parameters.
    cache : bool
        Use the on-disk cache.
    """
    n = int(episode.n_frames)
    if not getattr(episode, "has_depth", False):
        warnings.warn(f"depth: {episode.path} has no depth; the {depth_dim(options)} depth features are zeros")
        return np.zeros((n, depth_dim(options)), np.float32), {"exists": False}
    lo, hi = depth_range(episode, options)
    params = {"n_frames": n, "grid": options.grid, "range": [float(lo), float(hi)]}

    def compute() -> tuple[np.ndarray, dict]:
        out = np.zeros((n, depth_dim(options)), np.float32)
        shape = None
        with _progress(n, "depth") as bar:
            for start, depth, conf in episode.iter_depth(chunk=options.chunk):
                stop = min(start + len(depth), n)
                if stop <= start:
                    break
                shape = list(depth.shape[1:])
                out[start:stop] = depth_frame_features(depth[:stop - start], None if conf is None else
                                                       conf[:stop - start], lo, hi, options.grid)
                bar.update(stop - start)
        return out, {"exists": True, "depth_shape": shape, "depth_min": float(lo), "depth_max": float(hi)}

    return cached_per_frame("depth", [_annotation_file(episode)], params, compute, cache)


def audio_features(episode: Any, options: FeatureOptions = FeatureOptions(),
                   cache: bool = True) -> tuple[np.ndarray, dict]:
    """Per-frame audio features (N, 24) from the audio stream; zeros with a warning if there is none.

    fps comes from the same file's video stream, else N / audio duration (as the original).

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    options : FeatureOptions
        Extractor parameters.
    cache : bool
        Use the on-disk cache.
    """
    from . import media

    n = int(episode.n_frames)
    dim = 8 + options.audio_bands
    path = episode.audio_path if options.audio_source == fmt.AUDIO_STREAM else episode.video_path(options.audio_source)
    meta = {"source": options.audio_source, "exists": bool(path and Path(path).is_file()), "has_audio": False,
            "sample_rate": options.sample_rate, "per_frame_dim": dim, "band_count": options.audio_bands}
    if not meta["exists"]:
        warnings.warn(f"audio: {options.audio_source} file missing; the {dim} audio features are zeros")
        return np.zeros((n, dim), np.float32), meta
    params = {"n_frames": n, "sr": options.sample_rate, "bands": options.audio_bands, "timing": options.audio_timing}
    times = None
    if options.audio_timing == "timestamps":
        ts = getattr(episode, "timestamps_ns", None)
        if ts is None:
            warnings.warn("audio_timing='timestamps' but the episode has no frame timestamps; using i/fps")
        else:
            times = (np.asarray(ts, dtype=np.int64) - int(ts[0])) / 1e9

    def compute() -> tuple[np.ndarray, dict]:
        decoded = media.read_audio(path, sample_rate=options.sample_rate)
        if decoded is None or len(decoded[0]) == 0:
            warnings.warn(f"audio: {Path(path).name} has no audio; the {dim} audio features are zeros")
            return np.zeros((n, dim), np.float32), meta
        samples, sr = decoded
        try:
            fps = float(media.video_fps(path))
        except RobotaskError:
            fps = float("nan")
        if not np.isfinite(fps) or fps <= 0:
            fps = n / (len(samples) / sr)
        feats = audio_frame_features(samples, sr, fps, n, options.audio_bands, times)
        return feats, {**meta, "has_audio": True, "fps": fps, "num_samples": int(len(samples))}

    try:
        return cached_per_frame(f"audio_{options.audio_source}", [path], params, compute, cache)
    except RobotaskError as exc:  # unreadable file: zero audio features, as the original
        warnings.warn(f"audio: {exc}; the {dim} audio features are zeros")
        return np.zeros((n, dim), np.float32), {**meta, "exists": False}


def text_features(episode: Any, options: FeatureOptions = FeatureOptions()) -> tuple[np.ndarray, dict]:
    """Per-frame hashed caption text (N, 128) from objects + interaction; zeros if there are no captions.

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    options : FeatureOptions
        ``text_dim`` and ``include_label_text``.
    """
    n = int(episode.n_frames)
    cap = episode.captions
    meta = {"fields": "objects,interaction" + (",theme,action_label,action_desc" if options.include_label_text
                                                else ""), "exists": cap is not None}
    if cap is None:
        warnings.warn(f"captions: {episode.path} has no captions; text features are zeros and labels empty")
        return np.zeros((n, options.text_dim), np.float32), meta
    extra = None
    if options.include_label_text:
        extra = list(zip(cap.theme, cap.action_label, cap.action_desc))
    return text_frame_features(cap.objects, cap.interaction, options.text_dim, extra), meta


# --------------------------------------------------------------------------- motion per-frame arrays

def _or_zeros(arr: np.ndarray | None, shape: tuple[int, ...], what: str) -> tuple[np.ndarray, bool]:
    """``arr`` as float64, or zeros of ``shape`` with a warning when it is missing."""
    if arr is None:
        warnings.warn(f"{what}: missing; its block is zeros (the original drops it or fills zeros)")
        return np.zeros(shape), False
    arr = np.asarray(arr, dtype=np.float64)
    if arr.shape[0] != shape[0]:
        raise RobotaskError(f"{what}: {arr.shape[0]} frames, expected {shape[0]} (one per annotation frame)")
    return arr.reshape(shape), True


def hand_per_frame(episode: Any, options: FeatureOptions = FeatureOptions()) -> dict[str, tuple[np.ndarray, bool]]:
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
            joints = np.einsum("nij,nkj->nki", np.asarray(episode.R_c2w), joints) + np.asarray(episode.t_c2w)[:, None, :]
        if present and root is not None:
            joints = joints - root[:, None, :]
        out[side] = (joints.reshape(n, 63), present)
    return out


def motion_blocks(episode: Any, starts: np.ndarray, options: FeatureOptions = FeatureOptions()) -> dict[str, tuple[np.ndarray, bool]]:
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
        warnings.warn("imu: missing or fewer keyframe_indices than frames; the IMU block is zeros")
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


# --------------------------------------------------------------------------- the window set

@dataclass
class WindowSet:
    """Window features and labels of one episode (DEVELOPING.md "Episode" contract)."""

    X: np.ndarray  # (n_w, 8546) float32
    manifest: list[dict]  # [{name, start, end, dim}]
    windows: pd.DataFrame  # window_index, start/end/center frame, action/subtask label + fraction
    frame_action: np.ndarray  # (N,) str, "" = no label ("N/A" normalised to "")
    frame_subtask: np.ndarray  # (N,) str
    frame_objects: list[list[str]]  # per-frame objects
    episode: Any  # the Episode
    modalities: dict = field(default_factory=dict)  # available_modalities.json content
    options: FeatureOptions = field(default_factory=FeatureOptions)

    @property
    def starts(self) -> np.ndarray:
        """Window start frames."""
        return self.windows["start_frame"].to_numpy()

    def columns(self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None) -> np.ndarray:
        """Column indices of the selected blocks (see windows.block_columns)."""
        return W.block_columns(self.manifest, include, exclude)


def episode_labels(episode: Any) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
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


def episode_windows(episode: Any, options: FeatureOptions = FeatureOptions()) -> pd.DataFrame:
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


def per_frame_features(episode: Any, options: FeatureOptions = FeatureOptions(), cache: bool = True,
                       workers: int = 2) -> dict[str, tuple[np.ndarray, dict]]:
    """All per-frame features: video ×6, depth, audio, caption text -> {block name: (array, meta)}.

    Depth, the six videos and audio run in ``workers`` threads (PyAV, h5py reads and numpy release the GIL).

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    options : FeatureOptions
        Extractor parameters.
    cache : bool
        Use the on-disk caches.
    workers : int
        Threads for the per-frame jobs (1 = sequential).
    """
    from concurrent.futures import ThreadPoolExecutor

    jobs: dict[str, Callable[[], tuple[np.ndarray, dict]]] = {
        "depth_confidence": lambda: depth_features(episode, options, cache),
        **{f"video_{v}": (lambda v=v: video_features(episode, v, options, cache)) for v in VIDEO_STREAMS},
        f"audio_{options.audio_source}_aac": lambda: audio_features(episode, options, cache),
    }
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {name: pool.submit(job) for name, job in jobs.items()}
            out = {name: fut.result() for name, fut in futures.items()}
    else:
        out = {name: job() for name, job in jobs.items()}
    out["caption_objects_interaction_text"] = text_features(episode, options)
    return out


def load_window_set(episode_dir: str | os.PathLike | Any, options: FeatureOptions = FeatureOptions(),
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
        Threads for video decoding.
    """
    if isinstance(episode_dir, (str, os.PathLike)):
        from .loader import load_episode

        episode = load_episode(episode_dir)
    else:
        episode = episode_dir
    n = int(episode.n_frames)
    windows = episode_windows(episode, options)
    starts = windows["start_frame"].to_numpy()
    manifest = make_manifest(options)
    x = np.zeros((len(starts), manifest[-1]["end"]), dtype=np.float32)
    presence: dict[str, bool] = {}
    for name, (feats, present) in motion_blocks(episode, starts, options).items():
        presence[name] = present
        _put(x, manifest, name, feats)
    frames = per_frame_features(episode, options, cache, workers)
    meta: dict[str, dict] = {}
    for name, (feats, info) in frames.items():
        presence[name] = (bool(info.get("exists", True)) and bool(info.get("has_audio", True))
                          and info.get("decoded_frames", 1) > 0)
        meta[name] = {**info, "shape": list(feats.shape)}
        _put(x, manifest, name, W.window_stats(feats, starts, options.window))
    cloud = point_cloud_features(episode.point_cloud)
    presence["slam_point_cloud"] = episode.point_cloud is not None and len(episode.point_cloud) > 0
    calib = fit_length(calibration_features(episode.calibration or {}), 117, "calibration")
    presence["calibration"] = bool(episode.calibration)
    _put(x, manifest, "slam_point_cloud", np.broadcast_to(cloud, (len(starts), 22)))
    _put(x, manifest, "calibration", np.broadcast_to(calib, (len(starts), 117)))
    action, subtask, objects = episode_labels(episode)
    modalities = _modalities(episode, n, meta, presence, options, len(cloud), len(calib))
    return WindowSet(x, manifest, windows, action, subtask, objects, episode, modalities, options)


def _put(x: np.ndarray, manifest: list[dict], name: str, values: np.ndarray) -> None:
    """Write one block's window features into its manifest columns."""
    block = next((b for b in manifest if b["name"] == name), None)
    if block is None:
        raise RobotaskError(f"block {name!r} is not in the feature manifest")
    if values.shape != (len(x), block["dim"]):
        raise RobotaskError(f"block {name}: features {values.shape}, expected {(len(x), block['dim'])}")
    x[:, block["start"]:block["end"]] = np.nan_to_num(values, nan=0.0, posinf=0.0, neginf=0.0)


def _modalities(episode: Any, n: int, meta: dict, presence: dict, options: FeatureOptions,
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
