"""The minimal heads of :mod:`minimal`, fitted from sums over row blocks that stay on disk.

A full-batch gradient is a sum over samples, so each epoch of :class:`minimal.SoftmaxHead` and
:class:`minimal.MultiLabelHead` is one pass over the training blocks (:class:`row_blocks.RowBlocks`):
per block, the logits, the residual and the block's share ``Xᵀ R`` of the gradient, added up in float64.
These are the iterates of the in-memory heads (the same initial weights from ``default_rng(7)``, step,
weights and decay; the in-memory dual runs them in float64 too), so the fitted weights agree to rounding.
The step bound (``softmax_smoothness``) is the same power iteration, carried out through passes over the
blocks instead of a Gram matrix. The ridge is :mod:`streamed_ridge`'s.

Memory: one block and the weights, whatever the number of rows. Time: linear in the rows.
:func:`partial_gradient` is one block's share of an epoch, the unit a Dask worker returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from .minimal import (
    L2,
    MULTILABEL_LR,
    SEED,
    SOFTMAX_EPOCHS,
    SOFTMAX_LR,
    DualIterates,
    SoftmaxHead,
    positive_weights,
    sample_weights,
    softmax,
    softmax_smoothness,
)
from .row_blocks import RowBlocks

BLOCK_BYTES = 4 << 20  # float32 bytes per block of consecutive rows, whatever the episodes (cache-sized)
PANEL_BYTES = 64 << 20  # bytes of the dual heads' outer panel of rows (in the solve's dtype)
POWER_ITERATIONS = 60  # as minimal.softmax_smoothness

Gradient = Callable[[np.ndarray, np.ndarray], tuple]  # (W, b) -> (Xᵀ R, Σ R, Σ loss, correct) over the rows
GradientFactory = Callable[[str, RowBlocks, np.ndarray, np.ndarray], Gradient]  # (kind, rows, target, weight)


def block_rows(width: int, size: int = BLOCK_BYTES, itemsize: int = 4) -> int:
    """Rows per block of ``size`` bytes for a matrix of ``width`` columns."""
    return max(32, size // (itemsize * max(width, 1)))


def panel_rows(width: int, itemsize: int = 4, size: int = PANEL_BYTES) -> int:
    """Rows of an outer panel of about ``size`` bytes: a whole number of :func:`block_rows` blocks, so a
    panel starts where a block starts and each pair of blocks of a Gram matrix is formed once."""
    rows = block_rows(width)
    return rows * max(1, block_rows(width, size, itemsize) // rows)


def _blocks(rows: RowBlocks) -> Iterator[tuple[slice, np.ndarray]]:
    """(slice, float32 block) per cache-sized block."""
    yield from rows.blocks(block_rows(rows.width))


def partial_gradient(kind: str, x: np.ndarray, target: np.ndarray, weight: np.ndarray, W: np.ndarray,
                     b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
    """One block's share of a full-batch epoch: (Rᵀ X, Σ R, Σ weighted loss, correct predictions); Rᵀ X is
    (c, d), the layout the product comes in, so that the sums over blocks add contiguous rows.

    ``kind`` "softmax": ``target`` one-hot, ``weight`` (n,) sample weight / n_total;
    "multilabel": ``target`` multi-hot, ``weight`` (n, k) positive weights / n_total.
    """
    logits = (x @ W.astype(x.dtype, copy=False)).astype(np.float64) + b
    if kind == "softmax":
        p = softmax(logits)
        resid = (p - target) * weight[:, None]
        nll = -np.log(np.maximum((p * target).sum(axis=1), 1e-12))
        loss = float(np.sum(weight * nll))
        correct = int(np.sum(p.argmax(axis=1) == target.argmax(axis=1)))
    else:
        p = 1.0 / (1.0 + np.exp(-np.clip(logits, -60, 60)))
        resid = (p - target) * weight
        eps = 1e-7
        loss = float(np.sum(-(target * np.log(p + eps) + (1 - target) * np.log(1 - p + eps)) * weight))
        correct = 0
    return resid.T.astype(x.dtype) @ x, resid.sum(axis=0), loss, correct


def local_gradient(kind: str, rows: RowBlocks, target: np.ndarray, weight: np.ndarray) -> Gradient:
    """The epoch gradient over ``rows`` in this process: sums of :func:`partial_gradient` over blocks."""
    def gradient(W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
        W32 = W.astype(np.float32)
        return summed_gradient(W, b, (partial_gradient(kind, x, target[sl], weight[sl], W32, b)
                                      for sl, x in _blocks(rows)))
    return gradient


def summed_gradient(W: np.ndarray, b: np.ndarray, parts: Iterable[tuple]) -> tuple[np.ndarray, np.ndarray, float, int]:
    """The sum, in order, of partial gradients ``(Rᵀ X, Σ R, Σ loss, correct)`` of blocks or partitions, in
    float64; returned as ``(Xᵀ R, Σ R, Σ loss, correct)``, Xᵀ R the (d, c) transpose of the summed Rᵀ X.

    Each entry is the same sum in the same order whichever the layout; summing (c, d) rows is contiguous
    (summing the (d, c) transposes of float32 products took 10 % of an epoch's time).
    """
    gWt, gb, loss, correct = np.zeros((W.shape[1], W.shape[0])), np.zeros_like(b), 0.0, 0
    for part in parts:
        gWt += part[0]
        gb += part[1]
        loss += part[2]
        correct += part[3]
    return gWt.T, gb, loss, correct


def smoothness(rows: RowBlocks, w_sample: np.ndarray, l2: float = L2, iterations: int = POWER_ITERATIONS) -> float:
    """``minimal.softmax_smoothness`` over streamed rows: ½·λ_max(X̃ᵀ D X̃)/n + l2 by power iteration.

    The in-memory version iterates on the smaller Gram matrix from a constant start. With n ≤ d it
    iterates v ← m v / ‖m v‖ on m = S(XXᵀ + 1)S (S = diag √(w/n)); here z = X̃ᵀ S v is carried instead:
    ‖m v‖² = ⟨z, M z⟩ with M = X̃ᵀ S² X̃, and the next z is M z / ‖m v‖, so each iteration is one pass.
    With n > d it iterates on M itself from the constant start, also one pass each.
    """
    n, d = rows.n_rows, rows.width
    sw = np.sqrt(np.asarray(w_sample, dtype=np.float64) / n)

    def times_m(z: np.ndarray) -> np.ndarray:
        out, z32 = np.zeros(d + 1), z[:d].astype(np.float32)
        for sl, x in _blocks(rows):
            q = ((x @ z32).astype(np.float64) + z[d]) * sw[sl] ** 2
            out[:d] += q.astype(np.float32) @ x
            out[d] += q.sum()
        return out

    dual = n <= d
    if dual:
        v0 = sw / np.sqrt(n)  # z₀ = X̃ᵀ S v₀ with v₀ = 1/√n
        z = np.zeros(d + 1)
        for sl, x in _blocks(rows):
            z[:d] += v0[sl].astype(np.float32) @ x
            z[d] += v0[sl].sum()
    else:
        z = np.ones(d + 1) / np.sqrt(d + 1)
    lam = 0.0
    for _ in range(iterations):
        u = times_m(z)
        lam = float(np.sqrt(max(float(z @ u), 0.0))) if dual else float(np.linalg.norm(u))
        if lam == 0.0:
            break
        z = u / lam
    return 0.5 * lam + l2


@dataclass
class StreamedLinear:
    """A linear head (W, b) fitted by full-batch gradient descent over streamed rows; predicts in blocks."""

    kind: str  # "softmax" or "multilabel"
    W: np.ndarray
    b: np.ndarray
    history: list[dict] = field(default_factory=list)
    smoothness: float | None = None
    step: float | None = None

    def predict_proba(self, rows: RowBlocks) -> np.ndarray:
        """Class or label probabilities of every row (float32 weights, as the in-memory heads)."""
        out = np.empty((rows.n_rows, self.W.shape[1]), dtype=np.float32)
        for sl, x in rows.blocks(block_rows(rows.width)):
            logits = x @ self.W + self.b
            out[sl] = softmax(logits) if self.kind == "softmax" else 1.0 / (1.0 + np.exp(-np.clip(logits, -60, 60)))
        return out


def descend(kind: str, gradient: Gradient, W0: np.ndarray, epochs: int, step: float, l2: float,
            n: int) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """Full-batch gradient descent W ← (1 − step·l2)·W − step·Xᵀ R, b ← b − step·Σ R, in float64.

    ``gradient(W, b)`` returns (Xᵀ R, Σ R, Σ weighted loss, correct); the history logs the first, every
    tenth and the last epoch, as the in-memory heads do.
    """
    W, b = W0.astype(np.float64), np.zeros(W0.shape[1])
    history, log_every = [], max(epochs // 10, 1)
    decay = 1.0 - step * l2
    for epoch in range(1, epochs + 1):
        gW, gb, loss, correct = gradient(W, b)
        if epoch == 1 or epoch % log_every == 0 or epoch == epochs:
            if kind == "softmax":
                history.append({"epoch": epoch, "loss": loss + 0.5 * l2 * float(np.sum(W ** 2)),
                                "train_accuracy": correct / n})
            else:
                history.append({"epoch": epoch, "loss": loss / W.shape[1]})
        W = decay * W - step * gW
        b = b - step * gb
    return W, b, history


DUAL_BYTES = 64 << 20  # the largest n × n float64 Gram matrix the dual may hold (n ≤ 2,896)
GRAM_NS_PER_MADD = 0.025  # forming a Gram matrix, a compute-bound product: ns per multiply-add (one core)
EPOCH_NS_PER_ENTRY = 0.9  # an epoch's memory-bound pass, ns per entry of X (primal) or of K (dual) ...
EPOCH_NS_PER_CLASS = 0.06  # ... and per class more


def use_dual(n: int, d: int, classes: int, epochs: int) -> bool:
    """Whether the gradient-descent heads run in the dual (as the in-memory heads do for n < d), here only
    while the dual is also the quicker and its Gram matrix fits :data:`DUAL_BYTES`.

    Predicted time, dual: n²d multiply-adds for the Gram matrix, then per epoch one pass over its n² entries;
    primal: per epoch one pass over the n·d entries of X on disk (the logits and Rᵀ X of each block while it
    is in cache). An epoch's pass is bound by memory, not by its multiply-adds: measured on this machine with
    one BLAS thread, a pass costs about the same per entry of K as per entry of X (0.9–1.0 ns with 2 classes,
    2.3–2.6 ns with 29), while the Gram matrix costs 0.021–0.028 ns per multiply-add (n 2,398–2,800, d
    7,511–25,638). Counting multiply-adds alone (2c per entry of X) had sent the 16-episode temporal-order and
    synchronisation heads to the primal, at 25 s and 7 s for 400 epochs where the dual takes 5.8 s and 3.2 s.
    """
    per_entry = EPOCH_NS_PER_ENTRY + EPOCH_NS_PER_CLASS * classes
    dual = n * n * d * GRAM_NS_PER_MADD + epochs * n * n * per_entry
    primal = epochs * n * d * per_entry
    return n < d and dual <= primal and 8 * n * n <= DUAL_BYTES


class StreamedDual(DualIterates):
    """:class:`minimal.DualIterates` with the Gram matrix K = XXᵀ and X W₀ summed from pairs of row blocks;
    the primal weights come back from one more pass (W = s·W₀ + Σ X_bᵀ A_b)."""

    def __init__(self, rows: RowBlocks, w0: np.ndarray) -> None:  # noqa: D107 — the parent's state, from disk
        n, panel = rows.n_rows, panel_rows(rows.width)
        self.rows, self.w0 = rows, w0
        self.gram = np.empty((n, n))
        self.xw0 = np.empty((n, w0.shape[1]))
        for si, xi in rows.blocks(panel):
            xi = xi.copy()
            self.xw0[si] = xi @ w0
            for sj, xj in later_blocks(rows, si.start, block_rows(rows.width)):
                self.gram[si, sj] = xi @ xj.T
                self.gram[sj, si] = self.gram[si, sj].T
        self.A = np.zeros((n, w0.shape[1]))
        self.s = 1.0

    def weights(self) -> np.ndarray:
        """The primal weights W_t (d, c) as float32."""
        w = self.s * self.w0.astype(np.float64)
        for sl, x in _blocks(self.rows):
            w += x.T.astype(np.float64) @ self.A[sl]
        return w.astype(np.float32)


def _dual_softmax(rows: RowBlocks, y: np.ndarray, n_classes: int, epochs: int, lr: float, l2: float, seed: int,
                  stable_step: bool) -> StreamedLinear:
    """:meth:`minimal.SoftmaxHead.fit` in the dual, on a Gram matrix summed from disk (the same iterates)."""
    head = SoftmaxHead(n_classes, epochs=epochs, lr=lr, l2=l2, seed=seed, stable_step=stable_step)
    W0 = np.random.default_rng(seed).normal(0.0, 0.01, size=(rows.width, n_classes)).astype(np.float32)
    onehot = np.eye(n_classes, dtype=np.float32)[y]
    w = sample_weights(y, n_classes, head.use_class_weights)
    it = StreamedDual(rows, W0)
    shape_only = np.broadcast_to(np.float32(0), (rows.n_rows, rows.width))  # softmax_smoothness reads its shape
    head.smoothness = softmax_smoothness(shape_only, w, l2, gram=it.gram)
    head.step = min(lr, 1.0 / head.smoothness) if stable_step else lr
    W, b = head._fit_dual(it, y, onehot, w, max(epochs // 10, 1))
    return StreamedLinear("softmax", W, b, head.history, head.smoothness, head.step)


def _dual_multilabel(rows: RowBlocks, y: np.ndarray, epochs: int, lr: float, l2: float, seed: int) -> StreamedLinear:
    """The dual loop of :meth:`minimal.MultiLabelHead.fit`, on a Gram matrix summed from disk."""
    n, k = len(y), y.shape[1]
    W0 = np.random.default_rng(seed).normal(0.0, 0.01, size=(rows.width, k)).astype(np.float32)
    yf = y.astype(np.float32)
    weight = np.where(yf > 0, positive_weights(y)[None, :], np.float32(1.0)).astype(np.float32)
    log_every, history = max(epochs // 10, 1), []
    it, b = StreamedDual(rows, W0), np.zeros(k)
    for epoch in range(1, epochs + 1):
        p = 1.0 / (1.0 + np.exp(-np.clip(it.logits() + b, -60, 60)))
        resid = (p - yf) * weight / n
        if epoch == 1 or epoch % log_every == 0 or epoch == epochs:
            eps = 1e-7
            bce = -(yf * np.log(p + eps) + (1 - yf) * np.log(1 - p + eps)) * weight
            history.append({"epoch": epoch, "loss": float(bce.mean())})
        it.step(lr, l2, resid)
        b -= lr * resid.sum(axis=0)
    return StreamedLinear("multilabel", it.weights(), b.astype(np.float32), history, None, lr)


def fit_softmax(rows: RowBlocks, y: np.ndarray, n_classes: int, epochs: int = SOFTMAX_EPOCHS,
                lr: float = SOFTMAX_LR, l2: float = L2, seed: int = SEED, stable_step: bool = False,
                gradients: GradientFactory | None = None) -> StreamedLinear:
    """:class:`minimal.SoftmaxHead` fitted on z-scored ``rows`` and labels ``y``: in the dual while
    :func:`use_dual`, else by streamed primal epochs whose gradient ``gradients`` makes (None: here)."""
    if use_dual(rows.n_rows, rows.width, n_classes, epochs):
        return _dual_softmax(rows, y, n_classes, epochs, lr, l2, seed, stable_step)
    W0 = np.random.default_rng(seed).normal(0.0, 0.01, size=(rows.width, n_classes)).astype(np.float32)
    w = sample_weights(y, n_classes)
    L = smoothness(rows, w, l2)
    step = min(lr, 1.0 / L) if stable_step else lr
    onehot = np.eye(n_classes)[y]
    gradient = (gradients or local_gradient)("softmax", rows, onehot, (w / len(y)).astype(np.float64))
    W, b, history = descend("softmax", gradient, W0, epochs, step, l2, len(y))
    return StreamedLinear("softmax", W.astype(np.float32), b.astype(np.float32), history, L, step)


def fit_multilabel(rows: RowBlocks, y: np.ndarray, epochs: int = SOFTMAX_EPOCHS, lr: float = MULTILABEL_LR,
                   l2: float = L2, seed: int = SEED, gradients: GradientFactory | None = None) -> StreamedLinear:
    """:class:`minimal.MultiLabelHead` fitted on z-scored ``rows`` and multi-hot ``y`` (dual or primal, as
    :func:`fit_softmax`)."""
    if use_dual(rows.n_rows, rows.width, y.shape[1], epochs):
        return _dual_multilabel(rows, y, epochs, lr, l2, seed)
    W0 = np.random.default_rng(seed).normal(0.0, 0.01, size=(rows.width, y.shape[1])).astype(np.float32)
    yf = y.astype(np.float32)
    weight = np.where(yf > 0, positive_weights(y)[None, :], np.float32(1.0)).astype(np.float32)
    gradient = (gradients or local_gradient)("multilabel", rows, yf.astype(np.float64),
                                             weight.astype(np.float64) / len(y))
    W, b, history = descend("multilabel", gradient, W0, epochs, lr, l2, len(y))
    return StreamedLinear("multilabel", W.astype(np.float32), b.astype(np.float32), history, None, lr)


def later_blocks(rows: RowBlocks, start: int, size: int) -> Iterator[tuple[slice, np.ndarray]]:
    """The blocks of ``rows`` from row ``start`` on (a second reader, so the outer block stays valid)."""
    yield from rows.blocks(size, from_row=start)
