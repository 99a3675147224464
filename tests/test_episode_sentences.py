"""What the task pages compute to explain their numbers agrees with those numbers."""

from types import SimpleNamespace

import numpy as np
import pytest

from robotask.episode.report import diagnostics as F
from robotask.episode.report import phrases
from robotask.episode.report import phrases as S


def test_not_run_names_the_one_class_or_the_reason():
    degenerate = SimpleNamespace(status="degenerate", reason="one class",
                                 details={"class_counts": {"contact": 1161, "no_contact": 0},
                                          "train_class_counts": {"contact": 811}})
    text = S.not_run(degenerate)
    assert "all 1,161 samples are *contact*" in text and "holds only *contact*" in text
    skipped = SimpleNamespace(status="skipped", reason="no hands", details={})
    assert S.not_run(skipped) == "The task did not run (skipped): no hands."
    assert "{" not in S.class_counts({"a": 3, "b": 1}) and S.class_counts({"a": 3, "b": 1}) == "3 *a* and 1 *b*"


def test_r2_without_tiny_agrees_with_the_pooled_r2_it_explains():
    rng = np.random.default_rng(1)
    y_train = rng.normal(size=(60, 6))
    y_train[:, :2] = 1e-4 * rng.normal(size=(60, 2))  # two near-constant columns
    y_test = rng.normal(size=(30, 6))
    y_test[:, :2] = 1e-4 * rng.normal(size=(30, 2))
    pred = y_test + 0.2 * rng.normal(size=y_test.shape)
    pred[:, :2] = 3.0  # far off on the near-constant columns only
    cause = F.r2_without_tiny(y_train, y_test, pred, floor=1e-3)
    sse, sst = ((y_test - pred) ** 2).sum(), ((y_test - y_test.mean(axis=0)) ** 2).sum()
    assert cause["r2_all"] == pytest.approx(1 - sse / sst)
    assert cause["n_tiny"] == 2 and cause["error_share"] > 0.9 and cause["variance_share"] < 1e-6
    rest = ((y_test[:, 2:] - pred[:, 2:]) ** 2).sum() / ((y_test[:, 2:] - y_test[:, 2:].mean(axis=0)) ** 2).sum()
    assert cause["r2_rest"] == pytest.approx(1 - rest)
    text = phrases.pooled_r2_note("On x under the improved protocol", "MLP", cause, 7)
    assert phrases.number(cause["r2_all"]) in text and phrases.number(cause["r2_rest"]) in text
    assert "epoch 7" in text and "2 of the 6 target columns hardly vary" in text
    assert phrases.pooled_r2_note("x", "MLP", {**cause, "r2_all": 0.1}, 7) == ""


def test_standardized_r2_without_tiny_finds_the_blow_up():
    rng = np.random.default_rng(0)
    y_train = rng.normal(size=(50, 5))
    y_train[:, 0] = 1.0 + 1e-7 * rng.normal(size=50)
    y_test = rng.normal(size=(20, 5))
    y_test[:, 0] = 1.0
    pred = y_test + 0.1 * rng.normal(size=y_test.shape)
    pred[:, 0] = 1.001
    cause = F.r2_without_tiny(y_train, y_test, pred, standardized=True)
    assert cause["n_tiny"] == 1 and cause["r2_all"] < -1 and cause["r2_rest"] > 0.9


def test_zero_score_note_states_the_fitted_share():
    text = phrases.zero_score_note("On sample-like under the improved protocol", "MLP", "macro-F1", 0.0, 343, 1)
    assert "0.0 % of the 343 test samples" in text and "epoch 1" in text and "macro-F1 of 0.000" in text
