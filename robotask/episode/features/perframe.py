"""Per-frame features of one episode: six videos, depth, audio and caption text, cached by content.

Each extractor of ``robotask.episode.features.extractors`` / ``hashtext`` is fed from the episode's files; the
results are cached under ``paths.cache_dir()/features`` (``robotask.cache``), keyed on the input
files' content, the extractor parameters and ``FEATURE_VERSION``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import robotask.episode.files.format as fmt
import robotask.episode.files.media as media

from ...cache import Cache, content_key
from ...errors import RobotaskError, RobotaskWarning
from ...progress import tqdm
from ..files.format import VIDEO_STREAMS
from .extractors import audio_frame_features, depth_frame_features, video_frame_features
from .hashtext import text_frame_features
from .layout import FEATURE_VERSION, FeatureOptions, depth_dim, video_dim

FEATURE_CACHE = Cache("features")
DECODED_FRACTION_MIN = 0.9  # a video stream with fewer decoded frames than this fraction is "degraded"


def cached_per_frame(kind: str, inputs: Sequence[str | Path], params: dict,
                     compute: Callable[[], tuple[np.ndarray, dict]], use_cache: bool = True) -> tuple[np.ndarray, dict]:
    """Per-frame features from the feature cache, or ``compute()`` them and store them (atomically).

    The entry ``<kind>_n<N>_<key>.npz`` is keyed on the content of ``inputs``, ``params`` and
    ``FEATURE_VERSION``; it holds ``features`` and the JSON of the metadata dict.

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
    key = content_key({**params, "feature_version": FEATURE_VERSION}, inputs)
    name = f"{kind}_n{params.get('n_frames', 'x')}_{key}.npz"
    found = FEATURE_CACHE.load_npz(name)
    if found is not None and {"features", "meta"} <= found.keys():
        return found["features"], json.loads(str(found["meta"]))
    feats, meta = compute()
    FEATURE_CACHE.keep_npz(name, {"features": feats, "meta": np.array(json.dumps(meta, default=str))})
    return feats, meta


def _progress(total: int, desc: str):
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
    if path is None or not Path(path).is_file():  # Episode.video_path has warned
        return np.zeros((n, video_dim(options)), np.float32), {"path": None if path is None else Path(path).name,
                                                                 "exists": False, "decoded_frames": 0,
                                                                 "expected_frames": n, "status": "missing"}
    params = {"n_frames": n, "img": options.image_size, "grid": options.grid, "hist": options.hist_bins}
    try:
        feats, meta = cached_per_frame(f"video_{stream}", [path], params,
                                       lambda: _video_compute(Path(path), stream, n, options), cache)
    except RobotaskError as exc:  # unreadable file: the original's failed reads give zero vectors
        warnings.warn(f"video {stream}: {exc}; its {video_dim(options)} features are zeros", stacklevel=2)
        return np.zeros((n, video_dim(options)), np.float32), {"path": Path(path).name, "exists": False,
                                                                 "decoded_frames": 0, "expected_frames": n,
                                                                 "status": "missing"}
    check_frame_rate(Path(path), float(getattr(episode, "fps", fmt.FPS)))
    return feats, decode_report(meta, n)


def check_frame_rate(path: Path, annotation_fps: float, tolerance: float = 0.01) -> None:
    """Warn when a video's frame rate differs from the annotation's by more than ``tolerance`` (relative).

    Frame i of the video is taken as annotation frame i (as the original does), so a different rate
    misaligns the video blocks in time by the ratio of the rates.
    """
    try:
        fps = media.video_fps(path)
    except RobotaskError:
        return
    if np.isfinite(fps) and abs(fps / annotation_fps - 1.0) > tolerance:
        warnings.warn(RobotaskWarning(
            f"{path.name}: {fps:g} fps, the annotation {annotation_fps:g} fps; video frame i is used as annotation "
            f"frame i, so the video runs {fps / annotation_fps:.2f}× the annotation's time"), stacklevel=2)


def decode_report(meta: dict, n: int) -> dict:
    """``meta`` with ``expected_frames``, ``decoded_fraction`` and ``status``; warns once if frames are missing.

    ``status`` is "present" when at least :data:`DECODED_FRACTION_MIN` of the frames decoded,
    "degraded" below that, "missing" when none did. Frames after the last decoded one repeat its
    features (the original's behaviour); with none decoded they are zeros.
    """
    decoded = int(meta.get("decoded_frames", n))
    frac = decoded / n if n else 1.0
    status = "present" if frac >= DECODED_FRACTION_MIN else ("degraded" if decoded else "missing")
    meta = {**meta, "expected_frames": n, "decoded_fraction": frac, "status": status}
    if decoded < n:
        rest = "repeat the last decoded frame's features" if decoded else "are zeros"
        why = f" ({meta['decode_error']})" if meta.get("decode_error") else ""
        warnings.warn(RobotaskWarning(
            f"{meta.get('path')}: decoded {decoded} of {n} frames ({100 * frac:.0f} %){why}; the other "
            f"{n - decoded} {rest}; stream {status} (threshold {100 * DECODED_FRACTION_MIN:.0f} % "
            "decoded)"), stacklevel=2)
    return meta


def _video_compute(path: Path, stream: str, n: int, options: FeatureOptions) -> tuple[np.ndarray, dict]:
    """Decode one video and compute its per-frame features in chunks (missing frames repeat the last)."""
    out = np.zeros((n, video_dim(options)), np.float32)
    n_decoded = 0
    report: dict = {}
    with _progress(n, stream) as bar:
        for block in media.read_video_chunks(path, options.image_size, n, options.chunk, report=report):
            out[n_decoded:n_decoded + len(block)] = video_frame_features(block, options.grid, options.hist_bins)
            n_decoded += len(block)
            bar.update(len(block))
    if 0 < n_decoded < n:  # short/unreadable video: the original repeats the previous vector
        out[n_decoded:] = out[n_decoded - 1]
    return out, {"path": path.name, "exists": True, "decoded_frames": n_decoded, "decode_error": report.get("error")}


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
        warnings.warn(f"depth: {episode.path} has no depth; the {depth_dim(options)} depth features are zeros",
                      stacklevel=2)
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


    Parameters as :func:`video_features` (without ``stream``).
    """
    n = int(episode.n_frames)
    dim = 8 + options.audio_bands
    path = episode.audio_path if options.audio_source == fmt.AUDIO_STREAM else episode.video_path(options.audio_source)
    meta = {"source": options.audio_source, "exists": bool(path and Path(path).is_file()), "has_audio": False,
            "sample_rate": options.sample_rate, "per_frame_dim": dim, "band_count": options.audio_bands}
    if not meta["exists"]:
        warnings.warn(f"audio: {options.audio_source} file missing; the {dim} audio features are zeros", stacklevel=2)
        return np.zeros((n, dim), np.float32), meta
    params = {"n_frames": n, "sr": options.sample_rate, "bands": options.audio_bands, "timing": options.audio_timing}
    times = None
    if options.audio_timing == "timestamps":
        ts = getattr(episode, "timestamps_ns", None)
        if ts is None:
            warnings.warn("audio_timing='timestamps' but the episode has no frame timestamps; using i/fps",
                          stacklevel=2)
        else:
            times = (np.asarray(ts, dtype=np.int64) - int(ts[0])) / 1e9

    def compute() -> tuple[np.ndarray, dict]:
        decoded = media.read_audio(path, sample_rate=options.sample_rate)
        if decoded is None or len(decoded[0]) == 0:
            warnings.warn(f"audio: {Path(path).name} has no audio; the {dim} audio features are zeros", stacklevel=2)
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
        warnings.warn(f"audio: {exc}; the {dim} audio features are zeros", stacklevel=2)
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
        warnings.warn(f"captions: {episode.path} has no captions; text features are zeros and labels empty",
                      stacklevel=2)
        return np.zeros((n, options.text_dim), np.float32), meta
    extra = None
    if options.include_label_text:
        extra = list(zip(cap.theme, cap.action_label, cap.action_desc))
    return text_frame_features(cap.objects, cap.interaction, options.text_dim, extra), meta


def per_frame_features(episode: Any, options: FeatureOptions = FeatureOptions(), cache: bool = True,
                       workers: int = 2, then: Callable[[str, np.ndarray], None] | None = None,
                       ) -> dict[str, tuple[np.ndarray, dict]]:
    """All per-frame features: video ×6, depth, audio, caption text -> {block name: (array, meta)}.

    Depth, the six videos and audio run in ``workers`` threads (PyAV, h5py reads and numpy release the GIL),
    on one BLAS thread: the products here are small, and idle OpenBLAS threads spin beside the decoders
    (on the busy 2-core machine a build took 1–2 s more system time and some 60 times the involuntary
    context switches with them; the features are the same bytes).
    ``then(name, features)``, if given, runs in the block's thread as soon as its features are ready
    (the window statistics of a build without cache overlap the decoding of the other blocks).

    Parameters
    ----------
    episode : Episode
        The loaded episode.
    options : FeatureOptions
        Extractor parameters.
    cache : bool
        Use the on-disk caches.
    workers : int
        Threads for the per-frame jobs (1 = sequential; ``windowset.load_window_set`` says when to use
        which). The pool is made and shut down by this call; the results are joined by block name in a
        fixed order, whatever the order the jobs finish in.
    then : callable, optional
        Called with each block's name and per-frame features, in the thread that made them.
    """
    jobs: dict[str, Callable[[], tuple[np.ndarray, dict]]] = {
        "depth_confidence": lambda: depth_features(episode, options, cache),
        **{f"video_{v}": (lambda v=v: video_features(episode, v, options, cache)) for v in VIDEO_STREAMS},
        f"audio_{options.audio_source}_aac": lambda: audio_features(episode, options, cache),
    }

    def run(name: str) -> tuple[np.ndarray, dict]:
        result = jobs[name]()
        if then is not None:
            then(name, result[0])
        return result

    with threadpool_limits(1, user_api="blas"):
        if workers > 1:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                futures = {name: pool.submit(run, name) for name in jobs}
                out = {name: fut.result() for name, fut in futures.items()}
        else:
            out = {name: run(name) for name in jobs}
    out["caption_objects_interaction_text"] = text = text_features(episode, options)
    if then is not None:
        then("caption_objects_interaction_text", text[0])
    return out
