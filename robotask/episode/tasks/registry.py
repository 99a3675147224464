"""The registry of the twelve episode tasks (spec §5.1), the chronological split and its purge gap.

Each :class:`TaskSpec` declares its input blocks (with the leakage filters), a target builder, the kind
of head, the primary metric and its direction, the artifacts it writes and the text the notebook shows.
``robotask.episode.suite.execution`` runs them; notebook ``12_task`` executes once per task id and notebook
``13_suite_summary`` compares protocols. No task re-implements shared logic: a builder only turns a
``WindowSet`` into a :class:`TaskData` (samples, inputs, targets, time spans); heads, baselines and
metrics are shared per task kind. The builders live in ``task_builders``, the protocols in ``fixes``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ...task_names import TASK_TITLES
from ..features import windows as W
from ..features.windowset import WindowSet
from ..models.minimal import RIDGE_LAMBDA
from .builders import (
    BOUNDARY_TOLERANCE,
    FORECAST_FRAMES,
    FUTURE_FRAMES,
    MISALIGNMENT_SHIFT,
    TaskData,
    TaskUnavailable,
    build_contact,
    build_grounding,
    build_hand_forecast,
    build_misalignment,
    build_motion_visual,
    build_next_action,
    build_objects,
    build_reconstruction,
    build_temporal_order,
    build_transition,
    timeline_builder,
)
from .protocols import Protocol

TEST_FRACTION = 0.30
VALIDATION_FRACTION = 0.15


@dataclass(frozen=True, kw_only=True)
class TaskSpec:
    """One registry entry."""

    id: str
    display_name: str
    kind: str
    question: str
    input_desc: str
    target_desc: str
    build: Callable[[WindowSet, Protocol], TaskData]
    primary_metric: str
    higher_is_better: bool = True
    head: str = ""  # the minimal head
    figures: tuple[str, ...] = ()
    artifacts: tuple[str, ...] = ()
    fit_key: str = ""  # tasks with equal fit_key fit the identical model (§8.17)


# ------------------------------------------------------------------------------------ registry
_CLS_FIG = ("confusion",)
_CLS_ART = ("metrics.json", "predictions.csv", "per_class_metrics.csv", "confusion_matrix.csv", "model")

TASKS: dict[str, TaskSpec] = {t.id: t for t in (
    TaskSpec(id="timeline_action", display_name=TASK_TITLES["timeline_action"], kind="classification",
             question="Can the current action be read from one 20-frame window of all modalities?",
             input_desc="all 18 feature blocks", target_desc="window-majority action label (≥ 60 % of frames)",
             build=timeline_builder("action_label"), primary_metric="macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("timeline",), artifacts=_CLS_ART),
    TaskSpec(id="timeline_subtask", display_name=TASK_TITLES["timeline_subtask"], kind="classification",
             question="Can the current procedure step (caption sub-task) be read from one window?",
             input_desc="all 18 feature blocks", target_desc="window-majority subtask label",
             build=timeline_builder("subtask_label"), primary_metric="macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("timeline",), artifacts=_CLS_ART),
    TaskSpec(id="transition_detection", display_name=TASK_TITLES["transition_detection"], kind="classification",
             question=f"Does a window sit within {BOUNDARY_TOLERANCE} frames of an action boundary?",
             input_desc="all 18 feature blocks",
             target_desc=f"transition if |centre − boundary| ≤ {BOUNDARY_TOLERANCE} frames, else steady",
             build=build_transition, primary_metric="macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("boundaries",), artifacts=_CLS_ART + ("true_boundaries.csv",)),
    TaskSpec(id="next_action", display_name=TASK_TITLES["next_action"], kind="classification",
             question="Which action comes next, judged from the current window?", input_desc="all 18 feature blocks",
             target_desc=f"action {FUTURE_FRAMES} frames after the window (original) or the next different action "
                         "(improved)",
             build=build_next_action, primary_metric="macro_f1", head="class-weighted linear softmax",
             figures=_CLS_FIG + ("timeline",), artifacts=_CLS_ART),
    TaskSpec(id="hand_trajectory_forecast", display_name=TASK_TITLES["hand_trajectory_forecast"], kind="regression",
             question=f"Where will both hands be over the next {FORECAST_FRAMES} frames?",
             input_desc="all 18 feature blocks",
             target_desc=f"{FORECAST_FRAMES} future frames × 42 joints × xyz, root-relative",
             build=build_hand_forecast, primary_metric="mpjpe", higher_is_better=False,
             head=f"dual ridge (λ = {RIDGE_LAMBDA:g})", figures=("trajectories",),
             artifacts=("metrics.json", "predictions.npz", "model")),
    TaskSpec(id="contact_prediction", display_name=TASK_TITLES["contact_prediction"], kind="classification",
             question="Is any body joint in contact during the window, judged without the contact and text blocks?",
             input_desc="all blocks except body_contacts and caption text", target_desc="contact vs no_contact",
             build=build_contact, primary_metric="macro_f1", head="class-weighted linear softmax", figures=_CLS_FIG,
             artifacts=_CLS_ART),
    TaskSpec(id="object_relevance", display_name=TASK_TITLES["object_relevance"], kind="multilabel",
             question="Which caption objects are relevant in the window, judged without the caption text?",
             input_desc="all blocks except caption text",
             target_desc="multi-hot object set (vocabulary over all windows)", build=build_objects,
             primary_metric="micro_f1", head="multi-label logistic regression", figures=("object_f1",),
             artifacts=("metrics.json", "predictions.csv", "object_vocab.json", "model")),
    TaskSpec(id="caption_grounding", display_name=TASK_TITLES["caption_grounding"], kind="retrieval",
             question="Given a window's caption text, can the sensors find that window among the test windows?",
             input_desc="sensor blocks without text, projected into the caption-text feature space",
             target_desc="the matching test window (queries: true text; candidates: predicted text)",
             build=build_grounding, primary_metric="mrr", head="dual ridge projection + cosine ranking",
             figures=("rank_histogram",), artifacts=("metrics.json", "predictions.npz", "model")),
    TaskSpec(id="cross_modal_retrieval", display_name=TASK_TITLES["cross_modal_retrieval"], kind="retrieval",
             question="Can motion, IMU, camera and audio features retrieve the matching depth/video window?",
             input_desc="motion group (hands, body, contacts, camera, IMU, audio) projected into the visual (depth "
                        "+ video) space",
             target_desc="the matching test window (queries: predicted visual; candidates: true visual)",
             build=build_motion_visual, primary_metric="top5_accuracy", head="dual ridge projection + cosine ranking",
             figures=("rank_histogram",), artifacts=("metrics.json", "predictions.npz", "model"),
             fit_key="motion_to_visual"),
    TaskSpec(id="modality_reconstruction", display_name=TASK_TITLES["modality_reconstruction"], kind="regression",
             question="Can the visual feature vector be reconstructed from motion, IMU, camera and audio?",
             input_desc="motion group (hands, body, contacts, camera, IMU, audio)",
             target_desc="raw visual (depth + video) feature vector", build=build_reconstruction, primary_metric="r2",
             head=f"dual ridge (λ = {RIDGE_LAMBDA:g})", figures=("reconstruction",),
             artifacts=("metrics.json", "predictions.npz", "model"), fit_key="motion_to_visual"),
    TaskSpec(id="temporal_order", display_name=TASK_TITLES["temporal_order"], kind="binary",
             question="Are two adjacent windows in the correct order?",
             input_desc="[x_i, x_j, x_j − x_i] of adjacent windows (three copies of all blocks)",
             target_desc="correct vs reversed", build=build_temporal_order, primary_metric="f1",
             head="binary linear softmax", figures=_CLS_FIG, artifacts=_CLS_ART),
    TaskSpec(id="misalignment_detection", display_name=TASK_TITLES["misalignment_detection"], kind="binary",
             question="Are motion and visual/audio features from the same moment, or shifted by "
                      f"{MISALIGNMENT_SHIFT} windows?",
             input_desc="motion without audio + visual with audio", target_desc="aligned vs shifted",
             build=build_misalignment, primary_metric="f1", head="binary linear softmax", figures=_CLS_FIG,
             artifacts=_CLS_ART),
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
