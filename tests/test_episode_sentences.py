"""What the task pages compute to explain their numbers agrees with those numbers."""

from types import SimpleNamespace

import numpy as np
import pytest

from robotask.episode.report import diagnostics as F


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


def _regression_run(pred_far: bool):
    """A regression TaskResult-like object whose MLP misses two near-constant columns."""
    rng = np.random.default_rng(2)
    y = rng.normal(size=(80, 5))
    y[:, 0] = 1.0 + 1e-6 * rng.normal(size=80)
    pred = y[60:] + 0.1 * rng.normal(size=(20, 5))
    pred[:, 0] = 1.01 if pred_far else y[60:, 0]
    data = SimpleNamespace(kind="regression", y=y, train=np.arange(60), test=np.arange(60, 80), val=None, extra={})
    r2s = float(1 - (((y[60:] - pred) / y[:60].std(0)) ** 2).sum()
                / (((y[60:] - y[60:].mean(0)) / y[:60].std(0)) ** 2).sum())
    metrics = {"minimal": {}, "mlp": {"r2": 0.9, "r2_standardized": r2s}}
    return SimpleNamespace(ok=True, task="modality_reconstruction", data=data, metrics=metrics, info={},
                           primary={"metric": "r2", "minimal": 0.9, "mlp": 0.9},
                           outputs={"mlp": SimpleNamespace(pred=pred)})


def test_anomaly_records_explain_a_standardised_r2_blow_up_by_near_constant_columns():
    records = F.anomaly_records({"repeating": {"improved": _regression_run(True)}})
    (rec,) = records
    assert rec["Head"] == "MLP" and rec["Metric"] == "R² (standardised)" and rec["Value"] < -100
    assert rec["Columns"] == 1 and rec["Error share (%)"] > 99 and rec["Without them"] > 0.9
    assert F.anomaly_records({"repeating": {"improved": _regression_run(False)}}) == []
    table = F.anomaly_table(records)  # the page reads the table: no paragraph of dashes when there is none
    assert table["Value"].iloc[0].startswith("−") and "-" not in table["Value"].iloc[0]
    assert len(table["Value"].iloc[0].replace("−", "").replace(",", "").replace(".", "").split(" ")[0]) <= 4


def test_anomaly_values_count_in_words_and_never_stand_for_a_missing_number():
    from robotask.episode.report.values_task import anomaly_values

    assert anomaly_values([]) == {"n_anomalies": "none on this page"}
    assert anomaly_values([{"Value": 0.0}, {"Value": -3.0}]) == {"n_anomalies": "2 on this page, in the table above"}
