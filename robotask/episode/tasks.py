"""The registry of the twelve episode tasks (spec §5.1) and the two evaluation protocols (§8).

Each :class:`TaskSpec` declares its input blocks (with the leakage filters), a target builder, the kind
of head, the primary metric and its direction, the artifacts it writes and the text the notebook shows.
``robotask.episode.suite`` runs them; notebook ``12_task`` executes once per task id and notebook
``13_suite_summary`` compares protocols. No task re-implements shared logic: a builder only turns a
``WindowSet`` into a :class:`TaskData` (samples, inputs, targets, time spans); heads, baselines and
metrics are shared per task kind.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Callable

import numpy as np
import pandas as pd

from ..errors import RobotaskError
from . import windows as W
from .heads import RIDGE_LAMBDA

FORECAST_FRAMES = 10
FUTURE_FRAMES = 20
BOUNDARY_TOLERANCE = 10
MISALIGNMENT_SHIFT = 8
TEST_FRACTION = 0.30
VALIDATION_FRACTION = 0.15

KINDS = ("classification", "binary", "multilabel", "regression", "retrieval")


class TaskUnavailable(RobotaskError):
    """The episode lacks what a task needs (a modality, labels, enough samples); the suite skips it."""


@dataclass(frozen=True)
class Protocol:
    """Evaluation protocol: ``original`` (as published) or ``improved`` with each §8 fix switchable.

    Every flag is False in the original protocol and True in the improved one.
    """

    name: str = "original"
    purge_gap: bool = False  # §8.2 drop test samples that share frames (inputs or targets) with train
    validation_early_stopping: bool = False  # §8.3 MLP: last 15 % of train as validation, early stopping
    grounding_identical_text: bool = False  # §8.11 windows with identical caption text count as correct
    contact_varying_channels: bool = False  # §8.6 contact = channel > 0.5 on channels that vary
    next_different_action: bool = False  # §8.7 target = next *different* action after the window
    boundary_nms: bool = False  # §8.5 non-maximum suppression of predicted boundaries
    hand_world_frame: bool = False  # §8.8 hands to world with R_c2w, t_c2w before subtracting the root
    robust_std_floor: bool = False  # §8.9 std floor 1e-3 instead of 1e-6, float64 ridge solve
    coverage_ceiling: bool = False  # §8.1 report the label-coverage ceiling with classification metrics

    @property
    def std_floor(self) -> float:
        """Scaler std floor of this protocol."""
        return 1e-3 if self.robust_std_floor else 1e-6

    def fixes(self) -> dict[str, bool]:
        """The fix flags by name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "name"}


PROTOCOLS = ("original", "improved")


def get_protocol(name: str, **overrides: bool) -> Protocol:
    """``original`` (all fixes off) or ``improved`` (all on); ``overrides`` switch single fixes."""
    if name not in PROTOCOLS:
        raise RobotaskError(f"unknown protocol {name!r}; expected one of: {', '.join(PROTOCOLS)}")
    base = Protocol(name)
    if name == "improved":
        base = replace(base, **{k: True for k in base.fixes()})
    unknown = set(overrides) - set(base.fixes())
    if unknown:
        raise RobotaskError(f"unknown protocol fix(es) {sorted(unknown)}; expected: {', '.join(base.fixes())}")
    return replace(base, **overrides)


@dataclass
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


@dataclass(frozen=True)
class TaskSpec:
    """One registry entry."""

    id: str
    display_name: str
    kind: str
    question: str
    input_desc: str
    target_desc: str
    build: Callable[["W_Set", Protocol], TaskData]  # noqa: F821 (WindowSet duck type)
    primary_metric: str
    higher_is_better: bool = True
    head: str = ""  # the minimal head
    figures: tuple[str, ...] = ()
    artifacts: tuple[str, ...] = ()
    fit_key: str = ""  # tasks with equal fit_key fit the identical model (§8.17)


# ----------------------------------------------------------------------------------------- helpers
def columns(ws: Any, group: str | None = None, include: tuple[str, ...] | None = None,
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


def window_rows(ws: Any, idx: np.ndarray, span_end: np.ndarray | None = None) -> pd.DataFrame:
    """Per-sample info of windows ``idx``; ``span_end`` is the last frame the sample's target touches."""
    win = ws.windows.iloc[idx]
    rows = pd.DataFrame({"sample_index": np.arange(len(idx)), "window_index": win["window_index"].to_numpy(),
                         "start_frame": win["start_frame"].to_numpy(), "end_frame": win["end_frame"].to_numpy(),
                         "center_frame": win["center_frame"].to_numpy()})
    rows["span_end"] = rows["end_frame"] if span_end is None else span_end
    return rows


def subset_x(ws: Any, rows_idx: np.ndarray | None, cols: np.ndarray | None) -> tuple[np.ndarray, bool]:
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
def _timeline(column: str) -> Callable[[Any, Protocol], TaskData]:
    """Builder of the window-majority label tasks (action, subtask)."""

    def build(ws: Any, protocol: Protocol) -> TaskData:
        labels = ws.windows[column].fillna("").astype(str).to_numpy()
        keep = np.flatnonzero([not W.is_empty_label(x) for x in labels])
        if len(keep) < 2:
            raise TaskUnavailable(f"only {len(keep)} windows carry a {column}; expected ≥ 2")
        y, names = encode(labels[keep])
        X, owned = subset_x(ws, None if len(keep) == len(labels) else keep, None)
        return TaskData("classification", X, y, window_rows(ws, keep), names, owned)

    return build


def true_boundaries(frame_action: np.ndarray) -> np.ndarray:
    """Frames i ≥ 1 whose action label and that of i − 1 are both non-empty and differ."""
    fa = frame_labels(frame_action)
    i = np.arange(1, len(fa))
    ok = (fa[1:] != "") & (fa[:-1] != "") & (fa[1:] != fa[:-1])
    return i[ok]


def build_transition(ws: Any, protocol: Protocol) -> TaskData:
    """Steady vs transition (|centre − boundary| ≤ 10 frames) for every window."""
    bounds = true_boundaries(ws.frame_action)
    centers = ws.windows["center_frame"].to_numpy()
    near = np.zeros(len(centers), dtype=bool)
    for b in bounds:
        near |= np.abs(centers - b) <= BOUNDARY_TOLERANCE
    y, names = encode(np.where(near, "transition", "steady"))
    idx = np.arange(len(centers))
    return TaskData("classification", ws.X, y, window_rows(ws, idx), names,
                    extra={"boundaries": bounds})


def next_different(fa: np.ndarray, frame: int) -> tuple[str, int]:
    """The first non-empty label after ``frame`` that differs from the label at ``frame`` ("" if none)."""
    current = fa[frame]
    later = np.flatnonzero((fa[frame + 1:] != "") & (fa[frame + 1:] != current))
    if len(later) == 0:
        return "", -1
    j = frame + 1 + int(later[0])
    return str(fa[j]), j


def build_next_action(ws: Any, protocol: Protocol) -> TaskData:
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
    return TaskData("classification", X, y, rows, names, owned,
                    extra={"current_label": current,
                           "target": "next different action" if protocol.next_different_action
                           else f"action {FUTURE_FRAMES} frames after the window"})


def hand_positions(episode: Any, world: bool) -> np.ndarray:
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


def build_hand_forecast(ws: Any, protocol: Protocol) -> TaskData:
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
    return TaskData("regression", X, y, window_rows(ws, keep, ends[keep] + FORECAST_FRAMES), [], owned,
                    extra={"last_pose": last, "n_future": FORECAST_FRAMES,
                           "frame": "world" if protocol.hand_world_frame else "camera (root in world)"})


def window_any(per_frame: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Whether a boolean per-frame signal is true anywhere in each [start, end] window."""
    csum = np.concatenate([[0], np.cumsum(per_frame.astype(np.int64))])
    return (csum[ends + 1] - csum[starts]) > 0


def build_contact(ws: Any, protocol: Protocol) -> TaskData:
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
    return TaskData("classification", X, y, window_rows(ws, np.arange(len(starts))), names, owned,
                    extra={"rule": rule})


def window_objects(ws: Any) -> tuple[list[list[str]], list[str]]:
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


def build_objects(ws: Any, protocol: Protocol) -> TaskData:
    """Multi-hot relevant objects (vocabulary over all windows) from non-text inputs (7650 columns)."""
    per_window, vocab = window_objects(ws)
    if not vocab:
        raise TaskUnavailable("no window has caption objects")
    lookup = {o: i for i, o in enumerate(vocab)}
    y = np.zeros((len(per_window), len(vocab)), dtype=np.int8)
    for i, objs in enumerate(per_window):
        y[i, [lookup[o] for o in objs]] = 1
    X, owned = subset_x(ws, None, columns(ws, "no_text"))
    return TaskData("multilabel", X, y, window_rows(ws, np.arange(len(y))), vocab, owned)


def build_grounding(ws: Any, protocol: Protocol) -> TaskData:
    """Ridge sensor (7650) → caption text (896); queries = true text, candidates = predicted text."""
    text = ws.X[:, columns(ws, "text")].astype(np.float32)
    X, owned = subset_x(ws, None, columns(ws, "no_text"))
    _, groups = np.unique(text, axis=0, return_inverse=True)
    return TaskData("retrieval", X, text, window_rows(ws, np.arange(len(text))), [], owned,
                    extra={"query_side": "truth", "groups": groups.ravel(),
                           "n_distinct_text": int(groups.max() + 1) if len(groups) else 0})


def build_motion_visual(ws: Any, protocol: Protocol) -> TaskData:
    """Ridge motion (2415) → visual (5096): the shared fit of retrieval and reconstruction."""
    X, _ = subset_x(ws, None, columns(ws, "motion"))
    y = ws.X[:, columns(ws, "visual")]
    return TaskData("retrieval", X, y, window_rows(ws, np.arange(len(y))), [], True,
                    extra={"query_side": "prediction"})


def build_reconstruction(ws: Any, protocol: Protocol) -> TaskData:
    """Motion (2415) → raw visual features (5096), scored as regression."""
    data = build_motion_visual(ws, protocol)
    data.kind = "regression"
    data.extra = {}
    return data


def build_temporal_order(ws: Any, protocol: Protocol) -> TaskData:
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
    return TaskData("binary", X, y, rows, ["reversed", "correct"], True)


def build_misalignment(ws: Any, protocol: Protocol) -> TaskData:
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
    return TaskData("binary", X, y, rows, ["shifted", "aligned"], True)


# ------------------------------------------------------------------------------------ registry
_CLS_FIG = ("confusion", "per_class_f1")
_CLS_ART = ("metrics.json", "predictions.csv", "per_class_metrics.csv", "confusion_matrix.csv", "model")

TASKS: dict[str, TaskSpec] = {t.id: t for t in (
    TaskSpec("timeline_action", "Action Recognition", "classification",
             "Can the current action be read from one 20-frame window of all modalities?",
             "all 18 feature blocks", "window-majority action label (≥ 60 % of frames)",
             _timeline("action_label"), "macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("timeline",), artifacts=_CLS_ART),
    TaskSpec("timeline_subtask", "Procedure Step Recognition", "classification",
             "Can the current procedure step (caption sub-task) be read from one window?",
             "all 18 feature blocks", "window-majority subtask label",
             _timeline("subtask_label"), "macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("timeline",), artifacts=_CLS_ART),
    TaskSpec("transition_detection", "Action Boundary Detection", "classification",
             f"Does a window sit within {BOUNDARY_TOLERANCE} frames of an action boundary?",
             "all 18 feature blocks", f"transition if |centre − boundary| ≤ {BOUNDARY_TOLERANCE} frames, else steady",
             build_transition, "macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("boundaries",), artifacts=_CLS_ART + ("true_boundaries.csv",)),
    TaskSpec("next_action", "Next-Action Prediction", "classification",
             "Which action comes next, judged from the current window?",
             "all 18 feature blocks",
             f"action {FUTURE_FRAMES} frames after the window (original) or the next different action (improved)",
             build_next_action, "macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("timeline",), artifacts=_CLS_ART),
    TaskSpec("hand_trajectory_forecast", "Hand Trajectory Forecasting", "regression",
             f"Where will both hands be over the next {FORECAST_FRAMES} frames?",
             "all 18 feature blocks", f"{FORECAST_FRAMES} future frames × 42 joints × xyz, root-relative",
             build_hand_forecast, "mpjpe", higher_is_better=False, head=f"dual ridge (λ = {RIDGE_LAMBDA:g})",
             figures=("trajectories",), artifacts=("metrics.json", "predictions.npz", "model")),
    TaskSpec("contact_prediction", "Contact State Prediction", "classification",
             "Is any body joint in contact during the window, judged without the contact and text blocks?",
             "all blocks except body_contacts and caption text", "contact vs no_contact",
             build_contact, "macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG, artifacts=_CLS_ART),
    TaskSpec("object_relevance", "Object Relevance Prediction", "multilabel",
             "Which caption objects are relevant in the window, judged without the caption text?",
             "all blocks except caption text", "multi-hot object set (vocabulary over all windows)",
             build_objects, "micro_f1", head="multi-label logistic regression",
             figures=("object_f1",), artifacts=("metrics.json", "predictions.csv", "object_vocab.json", "model")),
    TaskSpec("caption_grounding", "Language Grounding", "retrieval",
             "Given a window's caption text, can the sensors find that window among the test windows?",
             "sensor blocks without text, projected into the caption-text feature space",
             "the matching test window (queries: true text; candidates: predicted text)",
             build_grounding, "mrr", head="dual ridge projection + cosine ranking",
             figures=("rank_histogram",), artifacts=("metrics.json", "predictions.npz", "model")),
    TaskSpec("cross_modal_retrieval", "Cross-Modal Retrieval", "retrieval",
             "Can motion, IMU, camera and audio features retrieve the matching depth/video window?",
             "motion group (hands, body, contacts, camera, IMU, audio) projected into the visual (depth + video) space",
             "the matching test window (queries: predicted visual; candidates: true visual)",
             build_motion_visual, "top5_accuracy", head="dual ridge projection + cosine ranking",
             figures=("rank_histogram",), artifacts=("metrics.json", "predictions.npz", "model"),
             fit_key="motion_to_visual"),
    TaskSpec("modality_reconstruction", "Cross-Modal Reconstruction", "regression",
             "Can the visual feature vector be reconstructed from motion, IMU, camera and audio?",
             "motion group (hands, body, contacts, camera, IMU, audio)", "raw visual (depth + video) feature vector",
             build_reconstruction, "r2", head=f"dual ridge (λ = {RIDGE_LAMBDA:g})",
             figures=("reconstruction",), artifacts=("metrics.json", "predictions.npz", "model"),
             fit_key="motion_to_visual"),
    TaskSpec("temporal_order", "Temporal Order Verification", "binary",
             "Are two adjacent windows in the correct order?",
             "[x_i, x_j, x_j − x_i] of adjacent windows (three copies of all blocks)", "correct vs reversed",
             build_temporal_order, "f1", head="binary linear softmax",
             figures=_CLS_FIG, artifacts=_CLS_ART),
    TaskSpec("misalignment_detection", "Multimodal Synchronization Detection", "binary",
             f"Are motion and visual/audio features from the same moment, or shifted by {MISALIGNMENT_SHIFT} windows?",
             "motion without audio + visual with audio", "aligned vs shifted",
             build_misalignment, "f1", head="binary linear softmax",
             figures=_CLS_FIG, artifacts=_CLS_ART),
)}

TASK_IDS = tuple(TASKS)


def get_task(task_id: str) -> TaskSpec:
    """The registry entry of ``task_id``; unknown → RobotaskError listing the valid ids."""
    if task_id not in TASKS:
        raise RobotaskError(f"unknown task {task_id!r}; expected one of: {', '.join(TASKS)}")
    return TASKS[task_id]


def parse_tasks(spec: str | list[str]) -> list[str]:
    """``"all"`` or a comma list / list of task ids → validated list in registry order."""
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    items = [s.strip() for s in items if s.strip()]
    if items == ["all"] or not items:
        return list(TASK_IDS)
    for t in items:
        get_task(t)
    return [t for t in TASK_IDS if t in items]


# ------------------------------------------------------------------------------------- splits
def split(data: TaskData, protocol: Protocol, with_validation: bool = False) -> TaskData:
    """Chronological 70/30 split of the task's own samples; purge and validation per protocol."""
    n = len(data.y)
    if n < 2:
        raise TaskUnavailable(f"{n} samples; a split needs at least 2")
    train, test = W.chronological_split(n, TEST_FRACTION)
    if protocol.purge_gap:
        test = purge(data.rows, train, test)
        if len(test) < 2:
            raise TaskUnavailable("the purge gap leaves fewer than 2 test samples")
    data.train, data.test = train, test
    data.val = None
    if with_validation and protocol.validation_early_stopping:
        n_val = max(int(round(len(train) * VALIDATION_FRACTION)), 1)
        core, val = train[:-n_val], train[-n_val:]
        val = purge(data.rows, core, val)
        if len(core) >= 2 and len(val) >= 1:
            data.val = val
            data.extra["train_core"] = core
    return data


def purge(rows: pd.DataFrame, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Samples of ``second`` whose frames (inputs and targets) start after every frame of ``first``."""
    last = int(rows["span_end"].to_numpy()[first].max())
    starts = rows["start_frame"].to_numpy()[second]
    return second[starts > last]


def describe(spec: TaskSpec) -> dict:
    """The registry entry as plain data (for metrics.json and the notebook)."""
    return {"task": spec.id, "task_display_name": spec.display_name, "kind": spec.kind,
            "question": spec.question, "input": spec.input_desc, "target": spec.target_desc,
            "head": spec.head, "primary_metric": spec.primary_metric,
            "higher_is_better": spec.higher_is_better, "split": "chronological"}


FIX_DESCRIPTIONS = {
    "purge_gap": "a purge gap so that no test sample shares a frame with a train sample",
    "validation_early_stopping": "a validation split with early stopping for the MLP",
    "grounding_identical_text": "windows with identical caption text counted as correct in grounding",
    "contact_varying_channels": "a contact label on channels that actually vary",
    "next_different_action": "the next *different* action as the next-action target",
    "boundary_nms": "non-maximum suppression of predicted boundaries",
    "hand_world_frame": "hand targets in one consistent (world) frame",
    "robust_std_floor": "a robust std floor",
    "coverage_ceiling": "the label-coverage ceiling reported with every classification metric",
}


def describe_fixes(protocol: Protocol | None = None) -> list[str]:
    """Plain-language descriptions of the fixes switched on in ``protocol`` (all fixes by default)."""
    protocol = protocol or get_protocol("improved")
    return [FIX_DESCRIPTIONS[name] for name, on in protocol.fixes().items() if on]


def protocol_dict(protocol: Protocol) -> dict:
    """The protocol as plain data."""
    return asdict(protocol)
