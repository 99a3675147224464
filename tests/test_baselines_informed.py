"""The baselines a reader tries first (issue 50): they carry information, and the verdicts read the strongest."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from robotask.episode.features import load_window_set
from robotask.episode.report import head_intervals as H
from robotask.episode.report.summary import VERDICT_COLUMNS, task_summary, verdict_rows
from robotask.episode.suite import SuiteConfig, run_task
from robotask.episode.synthesis import ensure_episode
from robotask.episode.tasks import baselines as B
from robotask.episode.tasks import get_protocol


@pytest.fixture(scope="module")
def window_set():
    return load_window_set(ensure_episode(200, 0, 32, "repeating"))


def test_the_previous_window_is_the_last_one_that_shares_no_frame():
    starts = np.arange(0, 50, 5)  # windows of 20 frames every 5: a window shares frames with the 3 before it
    ends = starts + 19
    prev = B.previous_window(starts, ends, np.arange(10))
    assert prev.tolist() == [-1, -1, -1, -1, 0, 1, 2, 3, 4, 5]
    y = np.array([0, 0, 1, 1, 2, 2, 2, 3, 3, 3])
    assert B.previous_target(y, starts, ends, np.array([4, 9]), fallback=7).tolist() == [0, 2]
    assert B.previous_target(y, starts, ends, np.array([0]), fallback=7).tolist() == [7]


def test_the_current_action_and_its_usual_successor():
    assert B.copy_current(np.array(["cut", "wash", "idle"], dtype=object), ["cut", "wash"]).tolist() == [0, 1, 2]
    current = np.array(["cut", "cut", "cut", "wash"], dtype=object)
    y = np.array([1, 1, 0, 2])
    assert B.usual_successor(current, y, np.array(["cut", "wash", "new"], dtype=object)).tolist() == [1, 2, 1]


def _run(ws, task, protocol="original"):
    return run_task(task, ws, get_protocol(protocol), ["minimal"], None, SuiteConfig(softmax_epochs=20))


@pytest.mark.parametrize("task, names", [
    ("timeline_action", ["majority class", "previous window's label"]),
    ("next_action", ["majority class", "copy the current action", "the current action's usual successor"]),
    ("object_relevance", ["objects present in ≥ half the train windows", "previous window's objects"]),
    ("modality_reconstruction", ["train mean", "previous window's features"]),
    ("temporal_order", ["always positive", "largest training class"]),
    ("hand_trajectory_forecast", ["zero velocity (last observed pose)"]),
    ("caption_grounding", ["random ranking (expected)"]),
])
def test_every_task_has_its_baselines_and_the_strongest_is_the_best_of_them(window_set, task, names):
    r = _run(window_set, task)
    scores = H.baseline_scores(r)
    assert list(scores) == names
    name, value = H.strongest_baseline(r)
    sign = 1 if H.higher_is_better(task, H.deciding_metric(task)) else -1
    assert value == scores[name] and all(sign * value >= sign * v for v in scores.values())
    # the trivial baseline's score on the primary metric is the one the suite reports
    primary = H.baseline_scores(r, r.primary["metric"])[names[0]]
    assert primary == pytest.approx(r.primary["baseline"], abs=1e-9)
    c = H.head_interval(r, "minimal", n_boot=100)
    assert c.against == name and c.metric == H.deciding_metric(task)


def test_a_pair_task_is_decided_on_accuracy_where_a_constant_answer_scores_one_half(window_set):
    r = _run(window_set, "temporal_order")
    assert H.deciding_metric("temporal_order") == "accuracy"
    assert H.baseline_scores(r) == {"always positive": 0.5, "largest training class": 0.5}
    assert H.baseline_scores(r, "f1")["always positive"] == pytest.approx(2 / 3)
    r.outputs["minimal"].pred = 1 - np.asarray(r.data.y[r.data.test])  # a head that is always wrong
    c = H.head_interval(r, "minimal", n_boot=200)
    assert c.interval.mean == pytest.approx(-0.5) and c.interval.high < 0


def test_a_baseline_that_scores_zero_is_not_what_a_head_is_measured_against(window_set):
    r = _run(window_set, "next_action")
    names = np.asarray(r.data.class_names, dtype=object)
    r.outputs["baseline"].pred[:] = len(names) - 1  # plant a majority class that no test window has
    r.data.y[r.data.test] = np.where(r.data.y[r.data.test] == len(names) - 1, 0, r.data.y[r.data.test])
    assert H.baseline_scores(r)["majority class"] == 0.0
    assert H.strongest_baseline(r)[0] != "majority class"


def test_verdicts_csv_rows_have_the_index_columns_and_block_units(window_set):
    runs = {"repeating": {"original": _run(window_set, "temporal_order")}}
    doc = task_summary("temporal_order", runs, H.run_intervals(runs, ["minimal"], n_boot=100))
    rows = verdict_rows("temporal_order", doc, 100, 0.95)
    assert list(rows.columns) == list(VERDICT_COLUMNS) and len(rows) == 1
    row = rows.iloc[0]
    n = len(runs["repeating"]["original"].data.test)
    block = math.ceil(math.sqrt(n))
    assert row["chapter"] == "12_task_temporal_order" and row["metric"] == "accuracy"
    assert row["unit"] == f"block of {block} consecutive test samples" and row["n_units"] == math.ceil(n / block)
    assert row["b"] == doc["runs"]["repeating"]["original"]["baselines"]["strongest"]
    assert row["verdict"] in ("ahead", "behind", "not resolved") and isinstance(rows, pd.DataFrame)
