"""Trivial baselines reported beside both heads for every episode task (notebooks ``12_task``, ``13_suite_summary``).

Without them no score can be read: a macro-F1 of 0.05 or an MPJPE of 0.1 m means little until one knows
what predicting the majority class or holding the last pose gives.
"""

from __future__ import annotations

import numpy as np

from ..models.minimal import threshold_multilabel


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
