"""Chapter 09.3's intervals cover with ten tasks: a simulation from known models (synthetic data).

Ten clusters ("tasks") of twenty items each, as in the chapter's design (tasks with replacement, then items
within each drawn task). For each of many simulated data sets, the studentised (bootstrap-t) interval of
:mod:`robotask.retrieval.policy.resampling` and the plain percentile interval of the same replicates are
checked against the true value. One design serves every data set (the replicate draws do not depend on the
data), which keeps the test to a few seconds.
"""

from __future__ import annotations

import numpy as np
import pytest

from robotask.retrieval.policy import association, resampling

K, M, REPLICATES = 10, 20, 200


@pytest.fixture(scope="module")
def design() -> resampling.Design:
    return resampling.task_design(np.repeat(np.arange(K), M), REPLICATES, seed=11)


def _coverage(design: resampling.Design, values: np.ndarray, truth: float,
              bounds: tuple[float, float]) -> tuple[float, float]:
    """Share of data sets (columns of ``values``) whose studentised interval (on the arcsine square-root scale
    within ``bounds``, as the chapter computes it) and percentile interval hold ``truth``."""
    student = [design.interval(values[:, s], bounds=bounds) for s in range(values.shape[1])]
    percentile = [design.percentile(values[:, s]) for s in range(values.shape[1])]
    return (float(np.mean([iv.low <= truth <= iv.high for iv in student])),
            float(np.mean([iv.low <= truth <= iv.high for iv in percentile])))


def test_a_success_rate_over_ten_heterogeneous_tasks(design):
    # each task's success probability drawn from Beta(0.8, 1.6): the true mean rate is 100 * 0.8 / 2.4 %
    rng = np.random.default_rng(3)
    n_sets = 1000
    rate = rng.beta(0.8, 1.6, (n_sets, K))
    outcome = (rng.random((n_sets, K * M)) < np.repeat(rate, M, axis=1)).astype(float)
    w = design.weights
    values = 100 * (w @ outcome.T) / w.sum(axis=1, keepdims=True)
    student, percentile = _coverage(design, values, 100 * 0.8 / 2.4, (0.0, 100.0))
    assert 0.93 <= student <= 0.975  # near the nominal 95 % (Monte Carlo standard error 0.7 points)
    assert percentile < 0.92  # the former percentile interval under-covers with ten tasks
    assert percentile < student - 0.03


def test_a_gap_between_retrieved_and_missed(design):
    # success probability p_task + 0.25 when "retrieved": the true gap is 25 points in every task
    rng = np.random.default_rng(4)
    n_sets = 600
    base = rng.uniform(0.1, 0.6, (n_sets, K))
    retrieved = (rng.random((n_sets, K * M)) < 0.5).astype(float)
    success = (rng.random((n_sets, K * M)) < np.repeat(base, M, axis=1) + 0.25 * retrieved).astype(float)
    values = np.stack([association.crude(design, retrieved[s], success[s])["gap"]
                       for s in range(n_sets)], axis=1)
    student, percentile = _coverage(design, values, 25.0, (-100.0, 100.0))
    assert 0.925 <= student <= 0.975
    # resampling items within each drawn task as well counts the within-task noise twice, so for a
    # within-task contrast the percentile interval is too wide rather than too narrow
    assert percentile > student


def test_studentised_interval_edge_cases(design):
    constant = np.full(design.weights.shape[0], 3.0)
    assert design.interval(constant) == resampling.Interval(3.0, 3.0, 3.0)
    missing = np.full(design.weights.shape[0], np.nan)
    iv = design.interval(missing)
    assert np.isnan(iv.low) and np.isnan(iv.high)
    shares = 100 * design.weights[:, :5].sum(axis=1) / design.weights.sum(axis=1)
    bounded = design.interval(shares, bounds=(0.0, 100.0))
    assert 0.0 <= bounded.low <= bounded.estimate <= bounded.high <= 100.0
    assert design.replicates(shares).shape == (REPLICATES, K + 1)


def test_holm_widens_a_family_and_rejects_step_down(design):
    rng = np.random.default_rng(6)
    noise = rng.normal(size=(K, M)).ravel()
    w = design.weights
    strong, null = (w @ (noise + 3.0)) / w.sum(axis=1), (w @ noise) / w.sum(axis=1)
    values = {"strong": strong, "null": null, "null2": (w @ noise[::-1]) / w.sum(axis=1)}
    plain = {k: design.interval(v) for k, v in values.items()}
    holm = resampling.holm_levels(plain, values, K)
    assert holm["strong"].low > 0  # a large effect survives the correction
    for k in values:  # every adjusted interval holds the plain one
        assert holm[k].low <= plain[k].low and holm[k].high >= plain[k].high
