"""Per-frame signal extractors: video (colour, histogram, gray grid, edges), depth + confidence, audio.

Pure array functions of spec §3: each takes decoded frames / samples and returns one vector per frame.
``robotask.episode.features.perframe`` feeds them from an episode's files.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ...errors import RobotaskError

# OpenCV's fixed-point BGR→GRAY for 8-bit images: (R·4899 + G·9617 + B·1868 + 2^13) >> 14,
# i.e. the luma weights 0.299 / 0.587 / 0.114 rounded to 14 bits.
GRAY_WEIGHTS_Q14 = (4899, 9617, 1868)


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


def gray_levels(frames: np.ndarray) -> np.ndarray:
    """Gray levels k/255 in float32 of RGB uint8 frames, k being OpenCV's fixed-point 8-bit luma
    ``(R·4899 + G·9617 + B·1868 + 2¹³) >> 14`` (0.299 R + 0.587 G + 0.114 B), bit for bit, in float32
    arithmetic throughout.

    That sum is an integer below 2²², so each product and sum is exact in float32 (24-bit significand);
    the scaling by 2⁻¹⁴ is exact and its floor is the shift ``>> 14``; the level k is then divided by 255
    in float32. A third faster than the int32 arithmetic and the conversion after it (the tests hold
    that int32 route as the oracle).

    Parameters
    ----------
    frames : np.ndarray
        (..., 3) uint8 RGB.
    """
    f = np.asarray(frames, dtype=np.float32)
    r, g, b = (np.float32(w) for w in GRAY_WEIGHTS_Q14)
    s = f[..., 0] * r
    s += f[..., 1] * g
    s += f[..., 2] * b
    s += np.float32(1 << 13)
    s *= np.float32(2.0 ** -14)
    np.floor(s, out=s)
    s /= np.float32(255.0)
    return s


@functools.lru_cache(maxsize=8)
def _histogram_offsets(c: int, n: int) -> np.ndarray:
    """(c, 3n) offsets 256·channel + 768·frame of the bytes of c RGB frames of n pixels (read-only).

    int32 while the largest code fits (a chunk of 256 frames: below 2¹⁸): the codes take half the
    memory of intp ones, and they and their bincount run in 60 % of the time; the counts are the same.
    """
    kind = np.int32 if c * 768 < 2 ** 31 else np.intp
    offsets = np.arange(c, dtype=kind)[:, None] * 768 + np.tile(np.arange(3, dtype=kind) * 256, n)
    offsets.flags.writeable = False
    return offsets


def gray_block_means(gray: np.ndarray, grid: int) -> np.ndarray:
    """:func:`area_resize` of 8-bit gray levels k/255 (float32, (c, h, w)) to grid × grid, bit for bit.

    Each level is 0 or a float32 of at least 2⁻⁸, so a multiple of 2⁻³¹, and a block of at most 2²¹
    pixels sums to less than 2²¹: every partial sum is exact in float64, whatever the order of the
    additions. Strided additions (the columns of a block, then its rows) give the block sums in a
    quarter of the time of the reduction over two axes with a cast, and without BLAS (whose threads cost
    more than such small products); sizes the grid does not divide go to :func:`area_resize`.
    """
    h, w = gray.shape[-2:]
    fh, fw = h // grid if grid else 0, w // grid if grid else 0
    if not fh or not fw or h % grid or w % grid or fh * fw > 2 ** 21:
        return area_resize(gray, grid, grid)
    x = gray.astype(np.float64)
    cols = x[..., 0::fw].copy()  # (c, h, grid): sums of fw neighbouring columns
    for j in range(1, fw):
        cols += x[..., j::fw]
    sums = cols[..., 0::fh, :].copy()  # (c, grid, grid)
    for i in range(1, fh):
        sums += cols[..., i::fh, :]
    return sums / float(fh * fw)


def channel_statistics(frames: np.ndarray, bins: int = 8) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per frame and RGB channel of uint8 frames (c, h, w, 3): mean and population std of v = x/255,
    and the share of pixels in each of ``bins`` equal bins of [0, 1] (c, 3·bins).

    All three come from one 256-value histogram per frame and channel, so the sums Σx and Σx² are exact
    integers: mean = Σx / (255·n) and std = √(n·Σx² − (Σx)²) / (255·n) are rounded once (float64), and
    bin k holds the values with ⌊8x/255⌋ = k (v never falls on an inner edge for bins = 8). Three times
    faster than float64 reductions over the pixel axis, and the same float32 features on every frame of
    the synthetic episodes; on a constant channel the std is exactly 0 where two-pass float64 left ~1e-15.
    """
    c, h, w, _ = frames.shape
    n = h * w
    codes = frames.reshape(c, 3 * n) + _histogram_offsets(c, n)  # one pass over contiguous rows
    counts = np.bincount(codes.ravel(), minlength=c * 768).reshape(c, 3, 256)
    values = np.arange(256, dtype=np.int64)
    total, squares = counts @ values, counts @ (values * values)  # exact (≤ 255² · n per channel)
    mean = total / (255.0 * n)
    std = np.sqrt((n * squares - total * total).astype(np.float64)) / (255.0 * n)
    to_bin = np.minimum(values * bins // 255, bins - 1)  # non-decreasing: each bin is a run of values
    hist = np.add.reduceat(counts, np.searchsorted(to_bin, np.arange(bins)), axis=2)
    return mean, std, hist.reshape(c, 3 * bins) / float(n)


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
    mean, std, hist = channel_statistics(frames, bins)
    gray = gray_levels(frames)  # the 8-bit luma / 255 in float32, bit for bit
    gray_grid = gray_block_means(gray, grid).reshape(c, grid * grid)
    gy, gx = np.gradient(gray, axis=(1, 2))
    ax, ay = np.abs(gx).reshape(c, -1), np.abs(gy).reshape(c, -1)
    mx, my = ax.mean(1, keepdims=True), ay.mean(1, keepdims=True)  # std is handed the mean it would compute
    edges = np.stack([mx[:, 0], my[:, 0], ax.std(1, mean=mx), ay.std(1, mean=my)], axis=1)
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


AUDIO_BLOCK = 512  # segments per pass: temporaries of ~3 MB for 800-sample segments, not ~37 MB


def _audio_group_features(x: np.ndarray, starts: np.ndarray, length: int, sr: int, bands: int) -> np.ndarray:
    """Audio features of the g equal-length segments ``x[s:s + length]`` (s in ``starts``) -> (g, 8 + bands).

    All but the band energies are computed :data:`AUDIO_BLOCK` segments at a time: the same row-wise
    operations on fewer rows (each row's sums, rFFT and cumulative sum do not depend on the others),
    so the same bytes, with temporaries that stay in the cache and out of fresh memory pages (at
    5,821 frames the whole group's took 0.15 s of page faults). The band energies' matrix product
    runs once over the whole group, as before (a BLAS product's rounding may depend on its shape).
    """
    g = len(starts)
    window = np.hanning(length)[None, :]
    freqs = np.fft.rfftfreq(length, 1.0 / sr)
    offsets = np.arange(length)[None, :]
    power = np.empty((g, length // 2 + 1))
    head = np.empty((8, g))  # rms, mean |x|, peak, ZCR, log-energy, centroid, bandwidth, roll-off
    total = np.empty(g)
    for lo in range(0, g, AUDIO_BLOCK):
        hi = min(lo + AUDIO_BLOCK, g)
        seg = x[starts[lo:hi, None] + offsets].astype(np.float64)
        head[0, lo:hi] = np.sqrt((seg ** 2).mean(axis=1))
        magnitude = np.abs(seg)
        head[1, lo:hi] = magnitude.mean(axis=1)
        head[2, lo:hi] = magnitude.max(axis=1)
        del magnitude
        head[3, lo:hi] = (seg[:, :-1] * seg[:, 1:] < 0).sum(axis=1) / max(length - 1, 1)
        p = power[lo:hi]
        p[...] = np.abs(np.fft.rfft(seg * window, axis=1)) ** 2
        tot = total[lo:hi] = p.sum(axis=1)
        head[4, lo:hi] = np.log1p(tot / length)
        safe = np.where(tot > 1e-12, tot, 1.0)
        centroid = head[5, lo:hi] = (p * freqs).sum(axis=1) / safe
        head[6, lo:hi] = np.sqrt((p * (freqs[None, :] - centroid[:, None]) ** 2).sum(axis=1) / safe)
        reach = np.cumsum(p, axis=1) >= 0.85 * tot[:, None]
        head[7, lo:hi] = freqs[np.argmax(reach, axis=1)]
    ok = total > 1e-12
    edges = audio_band_edges(bands)
    member = (freqs[None, :] >= edges[:-1, None]) & (freqs[None, :] < edges[1:, None])  # (bands, F)
    band = np.log1p(power @ member.T.astype(np.float64))
    norm = np.linalg.norm(band, axis=1, keepdims=True)
    band = np.where(norm > 0, band / np.where(norm > 0, norm, 1.0), 0.0)
    spectral = np.column_stack([head[5], head[6], head[7]]) / 8000.0
    spectral[~ok] = 0.0
    band[~ok] = 0.0
    return np.column_stack([head[0], head[1], head[2], head[3], head[4], spectral, band])


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
    x = np.asarray(audio, dtype=np.float32).ravel()
    if not np.isfinite(x).all():  # one pass; read_audio's samples are finite already
        x = np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)
    out = np.zeros((n_frames, 8 + bands), dtype=np.float64)
    start, end = audio_segment_bounds(n_frames, fps, sr, len(x), frame_times)
    length = end - start
    for seg_len in np.unique(length[length > 0]):
        rows = np.flatnonzero(length == seg_len)
        out[rows] = _audio_group_features(x, start[rows], int(seg_len), sr, bands)
    return out.astype(np.float32)
