"""Minimal heads against finite differences and closed forms (spec §5.0)."""

from __future__ import annotations

import numpy as np
import pytest

from robotask.episode.models import minimal as H
from robotask.episode.models import shortcuts as S


def _ridge_closed_form(z_train: np.ndarray, y_train: np.ndarray, lam: float) -> np.ndarray:
    """Primal ridge W = (ZᵀZ + λI)⁻¹ ZᵀY, the reference the dual solution is checked against."""
    return np.linalg.solve(z_train.T @ z_train + lam * np.eye(z_train.shape[1]), z_train.T @ y_train)


def test_softmax_gradient_matches_finite_differences_on_two_class_toy():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(6, 3))
    y = np.array([0, 1, 1, 0, 1, 1])
    onehot = np.eye(2)[y]
    w = H.sample_weights(y, 2).astype(np.float64)
    W = rng.normal(size=(3, 2))
    b = rng.normal(size=2)
    _, gW, gb, _ = H.softmax_loss_grad(x, onehot, w, W, b, l2=0.1)
    eps = 1e-6
    for i in range(3):
        for j in range(2):
            Wp, Wm = W.copy(), W.copy()
            Wp[i, j] += eps
            Wm[i, j] -= eps
            num = (H.softmax_loss_grad(x, onehot, w, Wp, b, 0.1)[0] - H.softmax_loss_grad(x, onehot, w, Wm, b, 0.1)[0])
            assert gW[i, j] == pytest.approx(num / (2 * eps), rel=1e-5, abs=1e-8)
    for j in range(2):
        bp, bm = b.copy(), b.copy()
        bp[j] += eps
        bm[j] -= eps
        num = H.softmax_loss_grad(x, onehot, w, W, bp, 0.1)[0] - H.softmax_loss_grad(x, onehot, w, W, bm, 0.1)[0]
        assert gb[j] == pytest.approx(num / (2 * eps), rel=1e-5, abs=1e-8)


def test_class_weights_follow_spec():
    y = np.array([0, 0, 0, 1])
    assert H.class_weights(y, 3).tolist() == pytest.approx([4 / 3 / 3, 4 / 1 / 3, 4 / 1 / 3])
    w = H.sample_weights(y, 2)
    assert w.mean() == pytest.approx(1.0) and w[3] / w[0] == pytest.approx(3.0)


def test_softmax_head_learns_separable_toy_and_is_seeded():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(40, 5)).astype(np.float32)
    y = (x[:, 0] > 0).astype(int)
    a = H.SoftmaxHead(2, epochs=200).fit(x, y)
    b = H.SoftmaxHead(2, epochs=200).fit(x, y)
    assert np.array_equal(a.W, b.W)
    assert np.mean(a.predict_proba(x).argmax(1) == y) > 0.9
    assert a.history[0]["epoch"] == 1 and a.history[-1]["epoch"] == 200


def test_dual_ridge_equals_primal_closed_form():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(12, 30))
    y = rng.normal(size=(12, 4)) * 3 + 1
    scaler = H.ZScaler.fit(x)
    z = scaler.transform(x).astype(np.float64)
    ridge = H.fit_dual_ridge(z, y, lam=10.0, dtype=np.float64)
    yz = (y - y.mean(0)) / y.std(0)
    W = _ridge_closed_form(H.with_bias(z), yz, 10.0)
    assert np.allclose(ridge.W, W, atol=1e-8)
    xt = rng.normal(size=(3, 30))
    zt = scaler.transform(xt).astype(np.float64)
    expected = (H.with_bias(zt) @ W) * y.std(0) + y.mean(0)
    assert np.allclose(ridge.predict(zt), expected, atol=1e-4)


def test_scaler_floor_and_inplace():
    x = np.array([[1.0, 5.0], [3.0, 5.0 + 1e-8]], dtype=np.float32)
    s = H.ZScaler.fit(x, floor=1e-6)
    assert s.std.tolist() == pytest.approx([1.0, 1.0]) and s.mean[0] == pytest.approx(2.0)
    y = x.copy()
    out = s.transform(y, inplace=True)
    assert out is y and y[:, 0].tolist() == pytest.approx([-1.0, 1.0])


def test_multilabel_weights_threshold_and_training():
    y = np.array([[1, 0], [0, 0], [0, 0], [0, 1]])
    assert H.positive_weights(y).tolist() == pytest.approx([3.0, 3.0])
    assert H.positive_weights(np.array([[1], [1]])).tolist() == [1.0]  # clipped below at 1
    pred = H.threshold_multilabel(np.array([[0.2, 0.4], [0.6, 0.7]]))
    assert pred.tolist() == [[0, 1], [1, 1]]  # empty row gets its argmax
    rng = np.random.default_rng(3)
    x = rng.normal(size=(50, 4)).astype(np.float32)
    yy = np.stack([x[:, 0] > 0, x[:, 1] > 0], axis=1).astype(np.int8)
    head = H.MultiLabelHead(epochs=300).fit(x, yy)
    assert np.mean(H.threshold_multilabel(head.predict_proba(x)) == yy) > 0.85


def test_zscaler_train_only_population_std_and_floor():
    x = np.array([[1.0, 5.0, 0.0], [3.0, 5.0, 1e-8]])
    sc = H.ZScaler.fit(x)
    assert np.allclose(sc.mean, [2, 5, 5e-9]) and np.allclose(sc.std, [1, 1, 1])  # std 1 (pop), 0 → 1, 5e-9 → 1
    assert np.allclose(sc.transform(np.array([[5.0, 6.0, 0.0]])), [[3, 1, -5e-9]])
    assert np.allclose(H.ZScaler.fit(x, floor=2.0).std, [1, 1, 1])
    mean, std = H.column_mean_std(np.arange(12.0).reshape(6, 2), chunk=4)  # chunked sums equal the direct ones
    assert np.allclose(mean, [5, 6]) and np.allclose(std, np.arange(12.0).reshape(6, 2).std(axis=0))


def test_pooled_moments_equal_the_stacked_rows_statistics():
    rng = np.random.default_rng(3)
    parts = [(rng.normal(5.0, 2.0, size=(n, 7)) * rng.uniform(0.5, 3.0, size=7)).astype(np.float32)
             for n in (9, 1, 0, 30)]
    mean, std = S.pooled_mean_std([S.ColumnMoments.of(p) for p in parts])
    ref_mean, ref_std = H.column_mean_std(np.concatenate(parts))
    np.testing.assert_allclose(mean, ref_mean, rtol=1e-13)
    np.testing.assert_allclose(std, ref_std, rtol=1e-12)
    scaler, ref = H.ZScaler.of(mean, std, 1e-3), H.ZScaler.fit(np.concatenate(parts), 1e-3)
    np.testing.assert_array_equal(scaler.mean, ref.mean)
    np.testing.assert_allclose(scaler.std, ref.std, rtol=1e-7)


def test_dual_ridge_predictions_equal_the_fitted_ridge_in_float64():
    rng = np.random.default_rng(4)
    z, zte = rng.normal(size=(12, 30)).astype(np.float32), rng.normal(size=(5, 30)).astype(np.float32)
    y = rng.normal(size=(12, 40)) * 3 + 1
    ref = H.fit_dual_ridge(z, y, std_floor=1e-3, dtype=np.float64).predict(zte)
    got = S.dual_ridge_predictions(z, y, zte, std_floor=1e-3)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)
