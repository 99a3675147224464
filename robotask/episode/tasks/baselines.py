"""Trivial baselines reported beside both heads for every episode task (notebooks ``12_task``, ``13_suite_summary``).

Without them no score can be read: a macro-F1 of 0.05 or an MPJPE of 0.1 m means little until one knows
what predicting the majority class or holding the last pose gives.
"""

from __future__ import annotations

import numpy as np

from ..models.minimal import threshold_multilabel
from .builders import TaskData


def majority_class(y_train: np.ndarray, n_test: int) -> np.ndarray:
    """Predict the most frequent train class (lowest id on ties) for every test sample."""
    return np.full(n_test, int(np.bincount(y_train).argmax()), dtype=np.int64)


def always_positive(n_test: int) -> np.ndarray:
    """Predict class 1 for every test sample."""
    return np.ones(n_test, dtype=np.int64)


def train_mean(y_train: np.ndarray, n_test: int) -> np.ndarray:
    """Predict the per-column train mean for every test row (a read-only view of one float32 row)."""
    return np.broadcast_to(y_train.mean(axis=0, keepdims=True).astype(np.float32), (n_test, y_train.shape[1]))


def zero_velocity(last_pose: np.ndarray, n_future: int) -> np.ndarray:
    """Hold the last observed pose (n, J·3) for ``n_future`` frames → flat (n, n_future·J·3)."""
    return np.tile(last_pose, (1, n_future)).astype(np.float32)


def label_prevalence(y_train: np.ndarray, n_test: int) -> np.ndarray:
    """Multi-label baseline: objects present in ≥ half the train rows (else the most frequent one)."""
    prob = np.repeat(y_train.mean(axis=0, keepdims=True), n_test, axis=0)
    return threshold_multilabel(prob)


# ------------------------------------------------------------------------------ baselines that read the timeline
# The trivial baselines above ignore time. The ones below are what a reader tries first on a timeline: that the
# target persists, or that the next action is the current one. They read true targets or labels that the heads do
# not see (the target of an earlier window, the current action), so a head behind them is not worthless: it
# does not yet know more than the label's persistence.

def previous_window(starts: np.ndarray, ends: np.ndarray, test: np.ndarray) -> np.ndarray:
    """For each test sample, the index of the latest sample whose window ends before this one's window starts
    (the previous window that shares no frame with it); -1 where no sample ends that early."""
    order = np.argsort(ends, kind="stable")
    k = np.searchsorted(ends[order], starts[test], side="left") - 1
    return np.where(k >= 0, order[np.maximum(k, 0)], -1)


def previous_target(y: np.ndarray, starts: np.ndarray, ends: np.ndarray, test: np.ndarray,
                    fallback: np.ndarray, episodes: np.ndarray | None = None) -> np.ndarray:
    """The target of the previous window that shares no frame with each test sample (``previous_window``), read
    from all samples, the earlier test ones included; ``fallback`` (one row or one value) where there is none.
    ``episodes`` (one id per sample; a collection's episodes stacked on one timeline, in order) keeps the
    previous window within the test sample's episode."""
    prev = previous_window(starts, ends, test)
    if episodes is not None:
        prev[np.asarray(episodes)[np.maximum(prev, 0)] != np.asarray(episodes)[test]] = -1
    out = np.asarray(y)[np.maximum(prev, 0)].copy()
    out[prev < 0] = fallback
    return out


def copy_current(current: np.ndarray, class_names: list[str]) -> np.ndarray:
    """The class id of each sample's current action; an action that is no class of the target gets the id
    ``len(class_names)`` (a wrong answer that belongs to no class)."""
    lookup = {name: i for i, name in enumerate(class_names)}
    return np.array([lookup.get(str(c), len(class_names)) for c in current], dtype=np.int64)


def usual_successor(current_train: np.ndarray, y_train: np.ndarray, current_test: np.ndarray) -> np.ndarray:
    """The target that followed each current action most often in training (lowest id on ties); the largest
    training class for an action training never showed."""
    fallback = int(np.bincount(y_train).argmax())
    table: dict[str, int] = {}
    for action in dict.fromkeys(map(str, current_train)):
        table[action] = int(np.bincount(y_train[np.asarray(current_train, dtype=object) == action]).argmax())
    return np.array([table.get(str(c), fallback) for c in current_test], dtype=np.int64)


def informed_baselines(data: TaskData) -> dict[str, np.ndarray]:
    """The test predictions of the baselines a reader would try first on this task, by display name, beside the
    trivial one (``suite.fit.run_baseline``): the previous window's target on a per-window task (its label, its
    objects, its visual features), the current action and its usual successor for the next action, and the
    largest training class for a pair task (scored by accuracy); none for retrieval or the hand forecast, whose
    trivial baselines (a random ranking, the last observed pose) already are the natural ones."""
    te, tr = data.test, data.train
    y = data.y
    if data.kind == "binary":
        return {"largest training class": majority_class(y[tr], len(te))}
    if "current_label" in data.extra:
        current = data.extra["current_label"]
        return {"copy the current action": copy_current(current[te], data.class_names),
                "the current action's usual successor": usual_successor(current[tr], y[tr], current[te])}
    if data.kind == "retrieval" or "last_pose" in data.extra or not isinstance(y, np.ndarray):
        return {}
    starts, ends = data.rows["start_frame"].to_numpy(), data.rows["end_frame"].to_numpy()
    episodes = data.rows["episode_id"].to_numpy() if "episode_id" in data.rows else None  # stacked episodes
    if data.kind == "classification":
        fallback = np.bincount(y[tr]).argmax()
        return {"previous window's label": previous_target(y, starts, ends, te, fallback, episodes)}
    name = "previous window's objects" if data.kind == "multilabel" else "previous window's features"
    return {name: previous_target(y, starts, ends, te, y[tr].mean(axis=0).astype(y.dtype), episodes)}
