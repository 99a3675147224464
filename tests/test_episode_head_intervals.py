"""The paired block bootstrap of a head against the baseline on one task run (chapter 12's verdicts)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robotask.episode.features import load_window_set
from robotask.episode.models import MLPConfig
from robotask.episode.report import head_intervals as H
from robotask.episode.suite import SuiteConfig, run_task
from robotask.episode.synthesis import ensure_episode
from robotask.episode.tasks import TASKS, get_protocol
from robotask.words import verdict


@pytest.fixture(scope="module")
def window_set():
    return load_window_set(ensure_episode(200, 0, 32, "repeating"))


def test_block_weights_resample_n_samples_in_consecutive_blocks():
    w = H.block_weights(10, 50, 3, seed=1)
    assert w.shape == (50, 10) and (w.sum(axis=1) == 10).all()
    assert np.array_equal(w, H.block_weights(10, 50, 3, seed=1))


# one task per kind of primary metric: macro-F1, MPJPE, micro-F1, MRR, top-5, pooled R², binary F1
@pytest.mark.parametrize("task", ["timeline_action", "hand_trajectory_forecast", "object_relevance",
                                  "caption_grounding", "cross_modal_retrieval", "modality_reconstruction",
                                  "temporal_order"])
def test_the_point_difference_is_the_difference_of_the_reported_metrics(window_set, task):
    cfg = SuiteConfig(softmax_epochs=20, mlp=MLPConfig(epochs=2))
    r = run_task(task, window_set, get_protocol("original"), ["minimal", "mlp"], None, cfg)
    sign = 1 if TASKS[task].higher_is_better else -1
    for head in ("minimal", "mlp"):
        iv = H.head_interval(r, head, against=r.info["baseline_name"], metric=TASKS[task].primary_metric,
                             n_boot=200).interval
        assert iv.mean == pytest.approx(sign * (r.primary[head] - r.primary["baseline"]), abs=1e-9)
        assert iv.n == len(r.data.test)
        assert (iv.low <= iv.mean <= iv.high) or not math.isfinite(iv.low)


def test_a_clear_gap_is_resolved_and_few_samples_resolve_nothing(window_set, monkeypatch):
    r = run_task("temporal_order", window_set, get_protocol("original"), ["minimal"], None,
                 SuiteConfig(softmax_epochs=20))
    n = len(r.data.test)
    r.outputs["minimal"].pred = np.asarray(r.data.y[r.data.test]).copy()  # a perfect head
    iv = H.head_interval(r, "minimal", n_boot=200).interval
    assert verdict(iv.low, iv.high, above="ahead", below="behind") == "ahead"
    monkeypatch.setattr(H, "MIN_TEST", n + 1)
    iv = H.head_interval(r, "minimal", n_boot=200).interval
    assert verdict(iv.low, iv.high) == "not resolved" and iv.mean > 0
