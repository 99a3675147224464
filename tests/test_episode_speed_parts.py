"""The pieces behind the faster episode pipeline compute what they replace.

- the dual-form gradient descent of the linear heads follows the primal iterates (in float64 and float32);
- the NumPy metrics equal scikit-learn's definitions;
- one shared video reformatter gives the frames ``frame.reformat`` gives;
- importing the suite loads neither PyTorch nor scikit-learn; no ``torch.load`` without ``weights_only=True``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest

from robotask.episode.badinput import template
from robotask.episode.files import media
from robotask.episode.models import minimal as H
from robotask.episode.tasks import metrics as M


def _primal_softmax(x, y, c, epochs=400, lr=H.SOFTMAX_LR, l2=H.L2):
    """The update of the original loop, written out in float64."""
    W = np.random.default_rng(H.SEED).normal(0.0, 0.01, size=(x.shape[1], c)).astype(np.float32).astype(np.float64)
    b = np.zeros(c)
    onehot, w = np.eye(c)[y], H.sample_weights(y, c).astype(np.float64)
    for _ in range(epochs):
        p = H.softmax(x @ W + b)
        resid = (p - onehot) * (w / len(x))[:, None]
        W, b = W - lr * (x.T @ resid + l2 * W), b - lr * resid.sum(axis=0)
    return W, b


def test_dual_softmax_follows_the_primal_iterates():
    rng = np.random.default_rng(0)
    x = (rng.normal(size=(60, 300)) / 10).astype(np.float32)  # n < d: the dual runs; small curvature: stable
    y = rng.integers(0, 3, 60)
    head = H.SoftmaxHead(3).fit(x, y)
    assert head.step * head.smoothness < 2.0
    W, b = _primal_softmax(x.astype(np.float64), y, 3)
    assert np.abs(head.W - W).max() < 1e-5 and np.abs(head.b - b).max() < 1e-5


def test_float32_dual_follows_the_primal_iterates_too():
    """Chapter 14's heads (``SuiteConfig.dual_float32``): the same iterates to float32 rounding."""
    rng = np.random.default_rng(0)
    x = (rng.normal(size=(60, 300)) / 10).astype(np.float32)
    y = rng.integers(0, 3, 60)
    head, exact = H.SoftmaxHead(3, dual_dtype=np.float32).fit(x, y), H.SoftmaxHead(3).fit(x, y)
    W, b = _primal_softmax(x.astype(np.float64), y, 3)
    assert head.W.dtype == np.float32 and not np.array_equal(head.W, exact.W)  # the float32 path ran
    assert np.abs(head.W - W).max() < 1e-4 and np.abs(head.b - b).max() < 1e-4
    assert np.array_equal(head.predict_proba(x).argmax(1), exact.predict_proba(x).argmax(1))
    multi = (rng.random((60, 4)) < 0.3).astype(int)
    fast, slow = H.MultiLabelHead(dual_dtype=np.float32).fit(x, multi), H.MultiLabelHead().fit(x, multi)
    assert np.abs(fast.W - slow.W).max() < 1e-4 and np.abs(fast.b - slow.b).max() < 1e-4


def test_primal_path_and_logged_loss_with_the_l2_term():
    rng = np.random.default_rng(1)
    for n, d in ((40, 30), (40, 90)):  # the primal loop (n ≥ d) and the dual (n < d)
        x = (rng.normal(size=(n, d)) / 5).astype(np.float32)
        y = rng.integers(0, 2, n)
        head = H.SoftmaxHead(2).fit(x, y)
        W, b = _primal_softmax(x.astype(np.float64), y, 2,
                               epochs=H.SOFTMAX_EPOCHS - 1)  # loss is logged before step 400
        nll = -np.log(H.softmax(x @ W + b)[np.arange(n), y])
        loss = np.mean(H.sample_weights(y, 2) * nll) + 0.5 * H.L2 * np.sum(W ** 2)
        assert head.history[-1]["loss"] == pytest.approx(loss, rel=1e-5)
        assert len(head.history) == 11


def test_dual_multilabel_follows_the_primal_iterates():
    rng = np.random.default_rng(2)
    x = (rng.normal(size=(50, 200)) / 10).astype(np.float32)
    y = (rng.random((50, 4)) < 0.3).astype(int)
    head = H.MultiLabelHead().fit(x, y)
    W = np.random.default_rng(H.SEED).normal(0.0, 0.01, size=(200, 4)).astype(np.float32).astype(np.float64)
    b = np.zeros(4)
    weight = np.where(y > 0, H.positive_weights(y)[None, :], 1.0)
    xd = x.astype(np.float64)
    for _ in range(H.SOFTMAX_EPOCHS):
        p = 1 / (1 + np.exp(-np.clip(xd @ W + b, -60, 60)))
        resid = (p - y) * weight / 50
        W, b = W - H.MULTILABEL_LR * (xd.T @ resid + H.L2 * W), b - H.MULTILABEL_LR * resid.sum(axis=0)
    assert np.abs(head.W - W).max() < 1e-5 and np.abs(head.b - b).max() < 1e-5


def test_stable_step_caps_the_step_at_one_over_l():
    rng = np.random.default_rng(3)
    x = (rng.normal(size=(80, 5)) @ rng.normal(size=(5, 400))).astype(np.float32)  # correlated columns, like windows
    y = rng.integers(0, 2, 80)
    wild, calm = H.SoftmaxHead(2).fit(x, y), H.SoftmaxHead(2, stable_step=True).fit(x, y)
    assert wild.step == H.SOFTMAX_LR and wild.step * wild.smoothness > 2.0
    assert calm.step == pytest.approx(1.0 / calm.smoothness)
    losses = [h["loss"] for h in calm.history]
    assert all(b <= a + 1e-7 for a, b in zip(losses, losses[1:]))  # monotone descent at step 1/L
    assert calm.history[-1]["loss"] < calm.history[0]["loss"]


def test_numpy_metrics_equal_scikit_learn():
    sk = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(4)
    for _ in range(100):
        k, n = int(rng.integers(2, 7)), int(rng.integers(1, 30))
        t, p = rng.integers(0, k, n), rng.integers(0, k, n)
        table = M.per_class_table(t, p, [str(i) for i in range(k)])
        ref = sk.precision_recall_fscore_support(t, p, labels=np.arange(k), zero_division=0)
        for got, want in zip((table["precision"], table["recall"], table["f1"], table["support"]), ref):
            assert np.allclose(got, want, atol=1e-15)
        assert (M.confusion_matrix(t, p, k) == sk.confusion_matrix(t, p, labels=np.arange(k))).all()
        T, P = (rng.random((n, k)) < 0.3).astype(int), (rng.random((n, k)) < 0.3).astype(int)
        micro = sk.precision_recall_fscore_support(T, P, average="micro", zero_division=0)
        got = M.multilabel_metrics(T, P)
        assert np.allclose([got["micro_precision"], got["micro_recall"], got["micro_f1"]], micro[:3], atol=1e-15)
        assert np.allclose(M.per_label_f1(T, P), sk.f1_score(T, P, average=None, zero_division=0), atol=1e-15)


def test_shared_reformatter_gives_the_frames_of_frame_reformat():
    path = template() / "stereo_left.mp4"
    ours = np.stack(list(media.iter_video_frames(path, 8, 60, width=10)))
    with av.open(str(path)) as c:
        theirs = np.stack([f.reformat(width=10, height=8, format="rgb24", interpolation="AREA").to_ndarray()
                           for f in c.decode(c.streams.video[0])])
    assert ours.shape == (60, 8, 10, 3) and np.array_equal(ours, theirs)


def test_importing_the_suite_loads_neither_torch_nor_sklearn_nor_scipy_linalg():
    code = ("import sys, robotask.episode.suite.cli, robotask.episode.features.windowset; "
            "print(sorted(m for m in ('torch', 'sklearn', 'scipy.linalg') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_torch_load_only_with_weights_only():
    root = Path(__file__).resolve().parent.parent / "robotask"
    for path in root.rglob("*.py"):
        for call in re.findall(r"torch\.load\([^)]*\)", path.read_text(encoding="utf-8")):
            assert "weights_only=True" in call, f"{path}: {call}"
