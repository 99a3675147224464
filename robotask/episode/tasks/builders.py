"""Task builders of the episode suite: each turns a ``WindowSet`` into one task's :class:`TaskData`.

A builder selects the input columns (with the leakage filters), builds the targets and the per-sample
frame spans, in time order; ``robotask.episode.tasks.registry`` registers them. Heads, baselines and metrics are
shared per task kind (``robotask.episode.suite.execution``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ..features import windows as W
from ..features.windowset import WindowSet
from ..files.loader import Episode
from .protocols import Protocol

FORECAST_FRAMES = 10
FUTURE_FRAMES = 20
BOUNDARY_TOLERANCE = 10
MISALIGNMENT_SHIFT = 8


class TaskUnavailable(RobotaskError):
    """The episode lacks what a task needs (a modality, labels, enough samples); the suite skips it."""


@dataclass(kw_only=True)
class TaskData:
    """One task's samples, in time order: inputs, targets, split and per-sample frame spans."""

    kind: str
    X: np.ndarray  # (n, d) raw float32 inputs (a view of the shared X or an array owned by the task)
    y: np.ndarray  # int labels (n,), multi-hot (n, k) or float targets (n, k)
    rows: pd.DataFrame  # sample_index, window_index, start_frame, end_frame, center_frame, span_end
    class_names: list[str] = field(default_factory=list)
    owns_x: bool = False  # X may be standardised in place
    extra: dict[str, Any] = field(default_factory=dict)
    train: np.ndarray | None = None
    test: np.ndarray | None = None
    val: np.ndarray | None = None  # subset of train rows held out for MLP early stopping


# ----------------------------------------------------------------------------------------- helpers
def columns(ws: WindowSet, group: str | None = None, include: tuple[str, ...] | None = None,
            exclude: tuple[str, ...] = ()) -> np.ndarray:
    """Column indices of a block group (or include/exclude prefixes); a missing block → TaskUnavailable."""
    try:
        if group is not None:
            return W.group_columns(ws.manifest, group)
        return W.block_columns(ws.manifest, include, exclude)
    except RobotaskError as exc:
        raise TaskUnavailable(f"missing feature block: {exc}") from None


def encode(labels: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Integer ids of labels with classes in order of first appearance."""
    names: list[str] = list(dict.fromkeys(str(x) for x in labels))
    lookup = {n: i for i, n in enumerate(names)}
    return np.array([lookup[str(x)] for x in labels], dtype=np.int64), names


def window_rows(ws: WindowSet, idx: np.ndarray, span_end: np.ndarray | None = None) -> pd.DataFrame:
    """Per-sample info of windows ``idx``; ``span_end`` is the last frame the sample's target touches."""
    win = ws.windows.iloc[idx]
    rows = pd.DataFrame({"sample_index": np.arange(len(idx)), "window_index": win["window_index"].to_numpy(),
                         "start_frame": win["start_frame"].to_numpy(), "end_frame": win["end_frame"].to_numpy(),
                         "center_frame": win["center_frame"].to_numpy()})
    rows["span_end"] = rows["end_frame"] if span_end is None else span_end
    return rows


def subset_x(ws: WindowSet, rows_idx: np.ndarray | None, cols: np.ndarray | None) -> tuple[np.ndarray, bool]:
    """``ws.X`` restricted to rows/columns; returns (array, owned). No copy when nothing is selected."""
    X = ws.X
    if rows_idx is None and cols is None:
        return X, False
    if cols is None:
        return X[rows_idx], True
    if rows_idx is None:
        return X[:, cols], True
    return X[np.ix_(rows_idx, cols)], True


def frame_labels(labels: Any) -> np.ndarray:
    """Per-frame labels as a str array with empty / "N/A" → ""."""
    return np.array(W.clean_labels(labels), dtype=object)


# ------------------------------------------------------------------------------------- builders
def timeline_builder(column: str) -> Callable[[WindowSet, Protocol], TaskData]:
    """Builder of the window-majority label tasks (action, subtask)."""

    def build(ws: WindowSet, protocol: Protocol) -> TaskData:
        labels = ws.windows[column].fillna("").astype(str).to_numpy()
        keep = np.flatnonzero([not W.is_empty_label(x) for x in labels])
        if len(keep) < 2:
            raise TaskUnavailable(f"only {len(keep)} windows carry a {column}; expected ≥ 2")
        y, names = encode(labels[keep])
        X, owned = subset_x(ws, None if len(keep) == len(labels) else keep, None)
        return TaskData(kind="classification", X=X, y=y, rows=window_rows(ws, keep), class_names=names, owns_x=owned)

    return build


def true_boundaries(frame_action: np.ndarray) -> np.ndarray:
    """Frames i ≥ 1 whose action label and that of i − 1 are both non-empty and differ."""
    fa = frame_labels(frame_action)
    i = np.arange(1, len(fa))
    ok = (fa[1:] != "") & (fa[:-1] != "") & (fa[1:] != fa[:-1])
    return i[ok]


def build_transition(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Steady vs transition (|centre − boundary| ≤ 10 frames) for every window."""
    bounds = true_boundaries(ws.frame_action)
    centers = ws.windows["center_frame"].to_numpy()
    near = np.zeros(len(centers), dtype=bool)
    for b in bounds:
        near |= np.abs(centers - b) <= BOUNDARY_TOLERANCE
    y, names = encode(np.where(near, "transition", "steady"))
    idx = np.arange(len(centers))
    return TaskData(kind="classification", X=ws.X, y=y, rows=window_rows(ws, idx), class_names=names,
                    extra={"boundaries": bounds})


def next_different(fa: np.ndarray, frame: int) -> tuple[str, int]:
    """The first non-empty label after ``frame`` that differs from the label at ``frame`` ("" if none)."""
    current = fa[frame]
    later = np.flatnonzero((fa[frame + 1:] != "") & (fa[frame + 1:] != current))
    if len(later) == 0:
        return "", -1
    j = frame + 1 + int(later[0])
    return str(fa[j]), j


def build_next_action(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Action label at min(N − 1, end + 20) (original) or the next different action (improved)."""
    fa = frame_labels(ws.frame_action)
    ends = ws.windows["end_frame"].to_numpy()
    n = len(fa)
    if protocol.next_different_action:
        pairs = [next_different(fa, int(e)) for e in ends]
        target = np.array([p[0] for p in pairs], dtype=object)
    else:
        target = fa[np.minimum(n - 1, ends + FUTURE_FRAMES)]
    keep = np.flatnonzero(target != "")
    if len(keep) < 2:
        raise TaskUnavailable(f"only {len(keep)} windows have a next-action label; expected ≥ 2")
    y, names = encode(target[keep])
    X, owned = subset_x(ws, None if len(keep) == len(ends) else keep, None)
    rows = window_rows(ws, keep, np.minimum(n - 1, ends[keep] + FUTURE_FRAMES))
    current = fa[ends[keep]]
    return TaskData(kind="classification", X=X, y=y, rows=rows, class_names=names, owns_x=owned,
                    extra={"current_label": current,
                           "target": "next different action" if protocol.next_different_action
                           else f"action {FUTURE_FRAMES} frames after the window"})


def hand_positions(episode: Episode, world: bool) -> np.ndarray:
    """(N, 42, 3) left+right hand joints minus the body root (world root), camera or world frame."""
    left = getattr(episode, "left_joints", None)
    if left is None:
        raise TaskUnavailable("the episode has no hand_mocap/left_joints_3d")
    right = episode.right_joints if episode.right_joints is not None else np.zeros_like(left)
    hands = np.nan_to_num(np.concatenate([left, right], axis=1).astype(np.float64))
    if world:
        hands = np.einsum("nij,nkj->nki", episode.R_c2w, hands) + episode.t_c2w[:, None, :]
    body = getattr(episode, "body_keypoints", None)
    if body is not None:
        hands = hands - np.nan_to_num(body[:, 0].astype(np.float64))[:, None, :]
    return hands


def build_hand_forecast(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Future 10 frames of both hands (1260 values), root-relative; last observed pose for the baseline."""
    hands = hand_positions(ws.episode, protocol.hand_world_frame)
    n = len(hands)
    ends = ws.windows["end_frame"].to_numpy()
    keep = np.flatnonzero(ends + FORECAST_FRAMES < n)
    if len(keep) < 2:
        raise TaskUnavailable("fewer than 2 windows have 10 future frames")
    future = ends[keep, None] + np.arange(1, FORECAST_FRAMES + 1)[None, :]
    y = hands[future].reshape(len(keep), -1).astype(np.float32)
    last = hands[ends[keep]].reshape(len(keep), -1).astype(np.float32)
    X, owned = subset_x(ws, None if len(keep) == len(ends) else keep, None)
    return TaskData(kind="regression", X=X, y=y, rows=window_rows(ws, keep, ends[keep] + FORECAST_FRAMES),
                    class_names=[], owns_x=owned,
                    extra={"last_pose": last, "n_future": FORECAST_FRAMES,
                           "frame": "world" if protocol.hand_world_frame else "camera (root in world)"})


def window_any(per_frame: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Whether a boolean per-frame signal is true anywhere in each [start, end] window."""
    csum = np.concatenate([[0], np.cumsum(per_frame.astype(np.int64))])
    return (csum[ends + 1] - csum[starts]) > 0


def build_contact(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Any contact in the window, from non-contact, non-text inputs (7503 columns)."""
    contacts = getattr(ws.episode, "contacts", None)
    if contacts is None:
        raise TaskUnavailable("the episode has no full_body_mocap/contacts")
    c = np.nan_to_num(np.asarray(contacts, dtype=np.float64))
    if protocol.contact_varying_channels:
        state = c > 0.5
        varying = state.any(axis=0) & ~state.all(axis=0)
        per_frame = state[:, varying].any(axis=1)
        rule = f"channel > 0.5 on the {int(varying.sum())} channels that vary"
    else:
        per_frame = (c > 0).any(axis=1)
        rule = "any channel > 0"
    starts = ws.windows["start_frame"].to_numpy()
    ends = ws.windows["end_frame"].to_numpy()
    y, names = encode(np.where(window_any(per_frame, starts, ends), "contact", "no_contact"))
    cols = columns(ws, "no_contacts_text")
    X, owned = subset_x(ws, None, cols)
    return TaskData(kind="classification", X=X, y=y, rows=window_rows(ws, np.arange(len(starts))), class_names=names,
                    owns_x=owned,
                    extra={"rule": rule})


def window_objects(ws: WindowSet) -> tuple[list[list[str]], list[str]]:
    """Union of per-frame objects per window (frame order) and the vocabulary in first-appearance order."""
    per_window: list[list[str]] = []
    for s, e in zip(ws.windows["start_frame"], ws.windows["end_frame"]):
        seen: dict[str, None] = {}
        for f in range(int(s), int(e) + 1):
            for obj in ws.frame_objects[f] or []:
                text = str(obj).strip()
                if text:
                    seen[text] = None
        per_window.append(list(seen))
    vocab = list(dict.fromkeys(o for objs in per_window for o in objs))
    return per_window, vocab


def build_objects(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Multi-hot relevant objects (vocabulary over all windows) from non-text inputs (7650 columns)."""
    per_window, vocab = window_objects(ws)
    if not vocab:
        raise TaskUnavailable("no window has caption objects")
    lookup = {o: i for i, o in enumerate(vocab)}
    y = np.zeros((len(per_window), len(vocab)), dtype=np.int8)
    for i, objs in enumerate(per_window):
        y[i, [lookup[o] for o in objs]] = 1
    X, owned = subset_x(ws, None, columns(ws, "no_text"))
    return TaskData(kind="multilabel", X=X, y=y, rows=window_rows(ws, np.arange(len(y))), class_names=vocab,
                    owns_x=owned)


def build_grounding(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Ridge sensor (7650) → caption text (896); queries = true text, candidates = predicted text."""
    text = ws.X[:, columns(ws, "text")].astype(np.float32)
    X, owned = subset_x(ws, None, columns(ws, "no_text"))
    _, groups = np.unique(text, axis=0, return_inverse=True)
    return TaskData(kind="retrieval", X=X, y=text, rows=window_rows(ws, np.arange(len(text))), class_names=[],
                    owns_x=owned,
                    extra={"query_side": "truth", "groups": groups.ravel(),
                           "n_distinct_text": int(groups.max() + 1) if len(groups) else 0})


def build_motion_visual(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Ridge motion (2415) → visual (5096): the shared fit of retrieval and reconstruction."""
    X, _ = subset_x(ws, None, columns(ws, "motion"))
    y = ws.X[:, columns(ws, "visual")]
    return TaskData(kind="retrieval", X=X, y=y, rows=window_rows(ws, np.arange(len(y))), class_names=[], owns_x=True,
                    extra={"query_side": "prediction"})


def build_reconstruction(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Motion (2415) → raw visual features (5096), scored as regression."""
    data = build_motion_visual(ws, protocol)
    data.kind = "regression"
    data.extra = {}
    return data


def build_temporal_order(ws: WindowSet, protocol: Protocol) -> TaskData:
    """Adjacent-window pairs [x_i, x_j, x_j − x_i] (25638 columns), correct (1) vs reversed (0) order."""
    X0 = ws.X
    n, d = X0.shape
    if n < 3:
        raise TaskUnavailable(f"{n} windows give too few pairs")
    m = 2 * (n - 1)
    X = np.empty((m, 3 * d), dtype=np.float32)
    a, b = X0[:-1], X0[1:]
    X[0::2, :d], X[0::2, d:2 * d] = a, b
    np.subtract(b, a, out=X[0::2, 2 * d:])
    X[1::2, :d], X[1::2, d:2 * d] = b, a
    np.subtract(a, b, out=X[1::2, 2 * d:])
    y = np.tile([1, 0], n - 1).astype(np.int64)
    pair = np.repeat(np.arange(n - 1), 2)
    rows = window_rows(ws, pair, ws.windows["end_frame"].to_numpy()[pair + 1])
    rows["sample_index"] = np.arange(m)
    return TaskData(kind="binary", X=X, y=y, rows=rows, class_names=["reversed", "correct"], owns_x=True)


def build_misalignment(ws: WindowSet, protocol: Protocol) -> TaskData:
    """[motion(x_i), visual+audio(x_i)] aligned (1) vs [motion(x_i), visual+audio(x_{i+8})] shifted (0)."""
    motion = columns(ws, include=("hand_", "body_joints", "body_contacts", "camera_", "imu_"))
    visual = columns(ws, include=("depth_confidence", "video_", "audio_"))
    n = len(ws.X)
    k = n - MISALIGNMENT_SHIFT
    if k < 2:
        raise TaskUnavailable(f"{n} windows are too few for a shift of {MISALIGNMENT_SHIFT} windows")
    X = np.empty((2 * k, len(motion) + len(visual)), dtype=np.float32)
    mot = ws.X[:k][:, motion]
    X[0::2, :len(motion)] = mot
    X[1::2, :len(motion)] = mot
    del mot
    X[0::2, len(motion):] = ws.X[:k][:, visual]
    X[1::2, len(motion):] = ws.X[MISALIGNMENT_SHIFT:][:, visual]
    y = np.tile([1, 0], k).astype(np.int64)
    base = np.repeat(np.arange(k), 2)
    shifted = base + np.tile([0, MISALIGNMENT_SHIFT], k)
    rows = window_rows(ws, base, ws.windows["end_frame"].to_numpy()[shifted])
    rows["sample_index"] = np.arange(2 * k)
    # motion halves are identical across the two classes; visual(x_j) is aligned at i = j and shifted at i = j − shift
    shared = (k - MISALIGNMENT_SHIFT) / k
    return TaskData(kind="binary", X=X, y=y, rows=rows, class_names=["shifted", "aligned"], owns_x=True,
                    extra={"shared_visual_fraction": shared})
