"""Windows over an episode: temporal statistics, majority labels, the chronological split, block columns.

Spec §3.1 and §4 (TS `episode_task_suite.py` + `train_min_action_model.py`), written from the spec.
Used by notebook ``11_windows_features`` and by every task chapter (``12_task``) through
:mod:`robotask.episode.features.windowset`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from ...errors import RobotaskError

N_STATS = 7  # mean, std, min, max, delta, mean diff, std diff
IMU_BLOCK = 256  # IMU windows whose samples are copied and reduced at once
WINDOW_BLOCK_VALUES = 1 << 18  # float64 values of the window copies window_stats makes at a time (2 MB)
STAT_NAMES = ("mean", "std", "min", "max", "delta", "diff_mean", "diff_std")

# Block groups the twelve tasks select (include, exclude): names or name prefixes, see block_columns.
BLOCK_GROUPS: dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]] = {
    "all": (None, ()),
    "no_contacts_text": (None, ("body_contacts", "caption_")),
    "no_text": (None, ("caption_",)),
    "motion": (("hand_", "body_joints", "body_contacts", "camera_", "imu_", "audio_"), ()),
    "visual": (("depth_confidence", "video_"), ()),
    "text": (("caption_",), ()),
}

# The real sample's number (spec §7, derived from TS windows.csv): 64 of 343 test windows carry an
# action label seen in training; 16.6 % for subtasks. Other data: shown next to ours, never as ours.
REAL_SAMPLE_COVERAGE = {"action": 64 / 343, "subtask": 0.166, "action_test_windows": 343}


def is_empty_label(label: object) -> bool:
    """True for labels the suite treats as "no label": None, "" and "N/A" (any case).

    Parameters
    ----------
    label : object
        A per-frame label.
    """
    if label is None:
        return True
    text = str(label).strip()
    return text == "" or text.lower() == "n/a"


def clean_labels(labels: Iterable[object]) -> np.ndarray:
    """Per-frame labels as a str array with every empty / "N/A" label replaced by "".

    Parameters
    ----------
    labels : iterable
        Per-frame labels (str or None).
    """
    return np.array(["" if is_empty_label(x) else str(x) for x in labels], dtype=object)


def window_starts(n_frames: int, window: int = 20, stride: int = 5) -> np.ndarray:
    """Start frames s = 0, stride, … with s + window ≤ n_frames (1161 windows for 5821 frames).

    Parameters
    ----------
    n_frames : int
        Number of annotation frames N.
    window, stride : int
        Window length and stride in frames.
    """
    if window < 1 or stride < 1:
        raise RobotaskError(f"window ({window}) and stride ({stride}) must be positive integers")
    if n_frames < window:
        raise RobotaskError(f"episode has {n_frames} frames; a window needs at least {window}")
    return np.arange(0, n_frames - window + 1, stride, dtype=np.int64)


def stacked_stats(w: np.ndarray) -> np.ndarray:
    """The 7 temporal statistics of many equal-length windows: (n_w, T, D) -> (n_w, 7·D) float64.

    Parameters
    ----------
    w : np.ndarray
        Stacked windows, axis 1 is time.
    """
    return _finite_stats(np.nan_to_num(np.asarray(w, dtype=np.float64), nan=0.0, posinf=0.0, neginf=0.0))


def _finite_stats(w: np.ndarray) -> np.ndarray:
    """:func:`stacked_stats` of a float64 array with no NaN or ±inf (not copied again)."""
    n, t, d = w.shape
    out = np.zeros((n, N_STATS, d), dtype=np.float64)
    mean = w.mean(axis=1, keepdims=True)  # std is handed the mean it would compute again
    out[:, 0] = mean[:, 0]
    out[:, 1] = w.std(axis=1, mean=mean)
    out[:, 2] = w.min(axis=1)
    out[:, 3] = w.max(axis=1)
    out[:, 4] = w[:, -1] - w[:, 0]
    if t > 1:
        diff = np.diff(w, axis=1)
        mean = diff.mean(axis=1, keepdims=True)
        out[:, 5] = mean[:, 0]
        out[:, 6] = diff.std(axis=1, mean=mean)
    return np.nan_to_num(out.reshape(n, N_STATS * d), nan=0.0, posinf=0.0, neginf=0.0)


def window_stats(per_frame: np.ndarray, starts: np.ndarray, window: int = 20,
                 relative_to_start: bool = False) -> np.ndarray:
    """Temporal statistics of a per-frame array over every window: (N, …) -> (n_w, 7·D).

    Parameters
    ----------
    per_frame : np.ndarray
        Per-frame values, frame axis first.
    starts : np.ndarray
        Window start frames.
    window : int
        Window length in frames.
    relative_to_start : bool
        Subtract each window's first frame first (the camera-translation block).
    """
    f = np.asarray(per_frame).reshape(len(per_frame), -1)
    idx = np.asarray(starts)[:, None] + np.arange(window)[None, :]
    if idx.size and idx.max() >= len(f):
        raise RobotaskError(f"window ends at frame {idx.max()} but the array has {len(f)} frames")
    if relative_to_start:
        w = f[idx].astype(np.float64)
        return stacked_stats(np.nan_to_num(w) - np.nan_to_num(w[:, :1]))
    # Each frame sits in window/stride windows: convert and clean the frames once, then copy them
    # into windows (the same float64 values as converting and cleaning the window copies).
    clean = np.nan_to_num(f.astype(np.float64), copy=False, nan=0.0, posinf=0.0, neginf=0.0)
    # A block of windows at a time (at most 2 MB of window copies): each statistic reduces one
    # window's frames alone, so the bytes are those of all windows at once; the copies stay in the
    # cache (a 140-column block: 25 ms instead of 43).
    step = max(16, WINDOW_BLOCK_VALUES // max(1, window * f.shape[1]))
    if len(idx) <= step:
        return _finite_stats(clean[idx])
    return np.concatenate([_finite_stats(clean[idx[lo:lo + step]]) for lo in range(0, len(idx), step)])


def imu_sample_ranges(keyframe_indices: np.ndarray, starts: np.ndarray, window: int,
                      n_samples: int) -> list[tuple[int, int]]:
    """IMU sample range [ki[s], max(ki[s]+1, ki[s+T-1]+1)) of each window, clipped to [0, M].

    Parameters
    ----------
    keyframe_indices : np.ndarray
        IMU sample index of each annotation frame.
    starts : np.ndarray
        Window start frames.
    window : int
        Window length in frames.
    n_samples : int
        Number of IMU samples M.
    """
    ki = np.asarray(keyframe_indices, dtype=np.int64)
    ranges = []
    for s in np.asarray(starts):
        a = int(ki[s])
        b = max(a + 1, int(ki[s + window - 1]) + 1)
        a = min(max(a, 0), n_samples)
        b = min(max(b, a), n_samples)
        ranges.append((a, b))
    return ranges


def imu_window_stats(samples: np.ndarray, ranges: Sequence[tuple[int, int]]) -> np.ndarray:
    """Temporal statistics over IMU samples (not frames) per window: -> (n_w, 7·6); empty → zeros.

    Parameters
    ----------
    samples : np.ndarray
        (M, 6) accel xyz + gyro xyz.
    ranges : sequence of (int, int)
        Per-window sample ranges from :func:`imu_sample_ranges`.
    """
    d = samples.shape[1]
    out = np.zeros((len(ranges), N_STATS * d), dtype=np.float64)
    bounds = np.asarray(ranges, dtype=np.int64).reshape(-1, 2)
    lengths = bounds[:, 1] - bounds[:, 0]
    for length in np.unique(lengths[lengths > 0]):  # windows of one length together, in blocks
        rows = np.flatnonzero(lengths == length)
        for block in np.array_split(rows, -(-len(rows) // IMU_BLOCK)):
            take = bounds[block, :1] + np.arange(length)[None, :]
            out[block] = stacked_stats(np.asarray(samples)[take].reshape(len(block), int(length), -1))
    return out


def majority_label(labels: Sequence[object], min_fraction: float = 0.6) -> tuple[str, float]:
    """Most common non-empty label (ties → first encountered) and its fraction of the non-empty labels.

    The label is "" when its fraction is below ``min_fraction`` or every label is empty.

    Parameters
    ----------
    labels : sequence
        The window's per-frame labels; "" and "N/A" are empty.
    min_fraction : float
        Threshold on count / number of non-empty labels.
    """
    kept = [str(x) for x in labels if not is_empty_label(x)]
    if not kept:
        return "", 0.0
    counts = Counter(kept)
    best = max(counts.values())
    label = next(x for x in kept if counts[x] == best)  # first encountered among the tied
    fraction = best / len(kept)
    return (label if fraction >= min_fraction else ""), float(fraction)


def window_table(frame_action: Sequence[object], frame_subtask: Sequence[object], window: int = 20,
                 stride: int = 5, min_fraction: float = 0.6) -> pd.DataFrame:
    """The windows.csv table: index, start/end (inclusive)/center frames, majority labels and fractions.

    Parameters
    ----------
    frame_action, frame_subtask : sequence of str
        Per-frame action and subtask labels (length N).
    window, stride : int
        Window length and stride in frames.
    min_fraction : float
        Minimum majority fraction for a window label.
    """
    if len(frame_action) != len(frame_subtask):
        raise RobotaskError(f"frame_action has {len(frame_action)} frames but frame_subtask has "
                            f"{len(frame_subtask)}; expected equal lengths")
    starts = window_starts(len(frame_action), window, stride)
    rows = []
    for i, s in enumerate(starts):
        a_lab, a_frac = majority_label(frame_action[s:s + window], min_fraction)
        s_lab, s_frac = majority_label(frame_subtask[s:s + window], min_fraction)
        rows.append((i, int(s), int(s + window - 1), int((2 * s + window - 1) // 2),
                     a_lab, a_frac, s_lab, s_frac))
    cols = ["window_index", "start_frame", "end_frame", "center_frame", "action_label",
            "action_fraction", "subtask_label", "subtask_fraction"]
    return pd.DataFrame(rows, columns=cols)


def split_point(n: int, test_fraction: float = 0.3) -> int:
    """Number of training samples: Python ``round(n·(1 − test_fraction))`` clamped to [1, n − 1].

    Python's round is banker's rounding (round(10.5) = 10), as in the original.

    Parameters
    ----------
    n : int
        Number of samples (n ≥ 2).
    test_fraction : float
        Fraction of samples held out at the end.
    """
    if n < 2:
        raise RobotaskError(f"a chronological split needs at least 2 samples, got n={n}")
    if not 0.0 < test_fraction < 1.0:
        raise RobotaskError(f"test_fraction must lie in (0, 1), got {test_fraction}")
    return int(min(max(round(n * (1 - test_fraction)), 1), n - 1))


def chronological_split(n: int, test_fraction: float = 0.3, gap: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Train = the first split samples, test = the rest in time order; ``gap`` purges test samples.

    ``gap`` (in samples, i.e. windows for window tasks) drops the first ``gap`` test samples so that
    train and test windows share no frames (spec §8.2; the original has gap = 0). The train set is the
    original's for every gap.

    Parameters
    ----------
    n : int
        Number of samples, in time order.
    test_fraction : float
        Fraction of samples held out at the end.
    gap : int
        Number of samples removed between train and test.
    """
    if gap < 0:
        raise RobotaskError(f"gap must be ≥ 0 samples, got {gap}")
    split = split_point(n, test_fraction)
    test = np.arange(min(split + gap, n), n, dtype=np.int64)
    if len(test) == 0:
        raise RobotaskError(f"gap={gap} leaves no test samples out of n={n} (split at {split})")
    return np.arange(split, dtype=np.int64), test


def _matches(name: str, patterns: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p) for p in patterns)


def block_columns(manifest: Sequence[dict], include: Iterable[str] | None = None,
                  exclude: Iterable[str] | None = None) -> np.ndarray:
    """Column indices of the manifest blocks whose name equals or starts with an ``include`` entry.

    ``include=None`` selects every block; blocks matching ``exclude`` are then removed.

    Parameters
    ----------
    manifest : sequence of dict
        Blocks {name, start, end, dim} in column order.
    include, exclude : iterable of str, optional
        Block names or name prefixes (e.g. ``"video_"``).
    """
    include = None if include is None else list(include)
    exclude = list(exclude or [])
    names = [b["name"] for b in manifest]
    for pattern in (include or []) + exclude:
        if not any(_matches(n, [pattern]) for n in names):
            raise RobotaskError(f"block pattern {pattern!r} matches no block; blocks are: {', '.join(names)}")
    cols = [np.arange(b["start"], b["end"], dtype=np.int64) for b in manifest
            if (include is None or _matches(b["name"], include)) and not _matches(b["name"], exclude)]
    return np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)


def group_columns(manifest: Sequence[dict], group: str) -> np.ndarray:
    """Column indices of a named block group of :data:`BLOCK_GROUPS` (e.g. "motion": 2415 columns).

    Parameters
    ----------
    manifest : sequence of dict
        Blocks {name, start, end, dim}.
    group : str
        A key of :data:`BLOCK_GROUPS`.
    """
    if group not in BLOCK_GROUPS:
        raise RobotaskError(f"unknown block group {group!r}; expected one of {', '.join(BLOCK_GROUPS)}")
    include, exclude = BLOCK_GROUPS[group]
    return block_columns(manifest, include, exclude)


def label_coverage(train_labels: Sequence[object], test_labels: Sequence[object]) -> float:
    """Fraction of (labelled) test samples whose label occurs among the (labelled) training samples.

    Empty labels are dropped from both sides first, as the timeline tasks drop unlabelled windows.

    Parameters
    ----------
    train_labels, test_labels : sequence of str
        Window labels in the training and test parts.
    """
    seen = {str(x) for x in train_labels if not is_empty_label(x)}
    test = [str(x) for x in test_labels if not is_empty_label(x)]
    if not test:
        return float("nan")
    return sum(x in seen for x in test) / len(test)


def split_coverage(windows: pd.DataFrame, column: str = "action_label", test_fraction: float = 0.3,
                   gap: int = 0) -> dict:
    """Label coverage of a task's own chronological split: labelled windows only, in time order.

    Parameters
    ----------
    windows : pd.DataFrame
        The window table (:func:`window_table`).
    column : str
        "action_label" or "subtask_label".
    test_fraction : float
        Fraction of labelled windows held out at the end.
    gap : int
        Purge gap in windows.
    """
    if column not in windows:
        raise RobotaskError(f"window table has no column {column!r}")
    labels = [x for x in windows[column] if not is_empty_label(x)]
    train, test = chronological_split(len(labels), test_fraction, gap)
    tr, te = [labels[i] for i in train], [labels[i] for i in test]
    seen = set(tr)
    return {"n_labelled": len(labels), "n_train": len(tr), "n_test": len(te),
            "n_test_seen": sum(x in seen for x in te), "coverage": label_coverage(tr, te),
            "n_classes_train": len(seen), "n_classes_test": len(set(te)),
            "unseen_test_classes": sorted(set(te) - seen)}
