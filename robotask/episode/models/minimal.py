"""The minimal heads of the episode task suite (spec §5.0), in NumPy; used by ``robotask.episode.tasks.registry``.

- :class:`SoftmaxHead`: class-weighted linear softmax by full-batch gradient descent
  (400 epochs, lr 0.12, L2 2e-3 on W, W ~ N(0, 0.01) from ``default_rng(7)``, float32);
- :func:`fit_dual_ridge`: dual ridge on z-scored X (with a regularised constant-1 column) and z-scored Y;
- :class:`MultiLabelHead`: weighted multi-label logistic regression (fixed lr 0.05, 400 epochs).

Every head works on inputs already z-scored with :class:`ZScaler` fitted on train rows.
Notebook ``12_task`` shows what they produce.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

SOFTMAX_EPOCHS = 400
SOFTMAX_LR = 0.12
L2 = 2e-3
SEED = 7
RIDGE_LAMBDA = 10.0
MULTILABEL_LR = 0.05
ORIGINAL_STD_FLOOR = 1e-6
ROBUST_STD_FLOOR = 1e-3


def column_mean_std(x: np.ndarray, chunk: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """Per-column mean and population std (ddof 0) in float64, summed over row chunks.

    The chunks avoid a full float64 copy of a wide float32 matrix (the 25638-d pair task); one buffer
    serves every chunk (a fresh 100 MB array per chunk cost more in page faults than the arithmetic).
    """
    mean = x.mean(axis=0, dtype=np.float64)
    var = np.zeros_like(mean)
    buffer = np.empty((min(chunk, len(x)), x.shape[1]))
    for start in range(0, len(x), chunk):
        rows = x[start:start + chunk]
        part = np.subtract(rows, mean, out=buffer[:len(rows)])
        var += np.einsum("ij,ij->j", part, part)
    return mean, np.sqrt(var / max(len(x), 1))


@dataclass
class ZScaler:
    """Per-column mean and std of train rows; std below ``floor`` is replaced by 1 (spec §4)."""

    mean: np.ndarray
    std: np.ndarray

    @classmethod
    def fit(cls, x_train: np.ndarray, floor: float = ORIGINAL_STD_FLOOR) -> ZScaler:
        """Fit on the train rows ``x_train`` (any float dtype; statistics in float64, stored float32)."""
        return cls.of(*column_mean_std(x_train), floor)

    @classmethod
    def of(cls, mean: np.ndarray, std: np.ndarray, floor: float = ORIGINAL_STD_FLOOR) -> ZScaler:
        """From float64 column statistics (:func:`column_mean_std`, :func:`pooled_mean_std`)."""
        std = np.where(std < floor, 1.0, std)
        return cls(mean.astype(np.float32), std.astype(np.float32))

    def transform(self, x: np.ndarray, inplace: bool = False) -> np.ndarray:
        """Return (x − mean) / std as float32; ``inplace`` overwrites ``x`` (must be float32)."""
        if inplace:
            x -= self.mean
            x /= self.std
            return x
        return ((x - self.mean) / self.std).astype(np.float32, copy=False)

    def inverse(self, z: np.ndarray) -> np.ndarray:
        """Undo :meth:`transform`."""
        return z * self.std + self.mean


def class_weights(y: np.ndarray, n_classes: int) -> np.ndarray:
    """w_c = n / max(count_c, 1) / C from train labels ``y`` (spec §5.0)."""
    counts = np.bincount(y, minlength=n_classes).astype(np.float64)
    return len(y) / np.maximum(counts, 1.0) / n_classes


def sample_weights(y: np.ndarray, n_classes: int, use_class_weights: bool = True) -> np.ndarray:
    """Per-sample weights: the class weight of each label, normalised to mean 1 (all ones if off)."""
    if not use_class_weights:
        return np.ones(len(y), dtype=np.float32)
    w = class_weights(y, n_classes)[y]
    return (w / w.mean()).astype(np.float32)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax, numerically stable."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def softmax_loss_grad(x: np.ndarray, onehot: np.ndarray, w_sample: np.ndarray, W: np.ndarray, b: np.ndarray,
                      l2: float) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """Weighted NLL + ½·L2·‖W‖² and its gradients (spec §5.0).

    Returns
    -------
    loss, grad_W, grad_b, probabilities
    """
    n = len(x)
    p = softmax(x @ W + b)
    nll = -np.log(np.maximum((p * onehot).sum(axis=1), 1e-12))
    loss = float(np.mean(w_sample * nll) + 0.5 * l2 * np.sum(W.astype(np.float64) ** 2))
    resid = (p - onehot) * (w_sample / n)[:, None]
    grad_W = x.T @ resid + l2 * W
    grad_b = resid.sum(axis=0)
    return loss, grad_W, grad_b, p


def softmax_smoothness(x: np.ndarray, w_sample: np.ndarray, l2: float, iterations: int = 60,
                       gram: np.ndarray | None = None) -> float:
    """L, a bound on the curvature of the weighted softmax loss in (W, b): ½·λ_max(X̃ᵀ D X̃)/n + l2.

    X̃ is X with a constant-1 column (the bias), D the sample weights; the softmax Jacobian
    diag(p) − ppᵀ has eigenvalues ≤ ½. Full-batch gradient descent converges for steps below 2/L.
    λ_max comes from power iteration on the smaller of the two Gram matrices (deterministic start);
    ``gram`` = X Xᵀ when already computed.
    """
    x = np.asarray(x, dtype=np.float32)
    n, d = x.shape
    sw = np.sqrt(np.asarray(w_sample, dtype=np.float64) / n)
    if n <= d:
        gram = (x @ x.T).astype(np.float64) if gram is None else gram
        m = sw[:, None] * (gram + 1.0) * sw[None, :]
    else:
        xs = np.hstack([x.astype(np.float64), np.ones((n, 1))]) * sw[:, None]
        m = xs.T @ xs
    v = np.ones(len(m)) / np.sqrt(len(m))
    lam = 0.0
    for _ in range(iterations):
        u = m @ v
        lam = float(np.linalg.norm(u))
        if lam == 0.0:
            break
        v = u / lam
    return 0.5 * lam + l2


class DualIterates:
    """Full-batch gradient descent on a linear model, tracked in the n-dimensional dual.

    The update W ← W − lr·(Xᵀ R + l2·W) = decay·W − lr·Xᵀ R (decay = 1 − lr·l2) keeps
    W_t = s_t·W₀ + Xᵀ A_t with s_t = decayᵗ: the initial weights shrink and every gradient lies in
    the row space of X. The logits X W_t = s_t·(X W₀) + K A_t need only the Gram matrix K = X Xᵀ,
    so a step costs O(n²·c) instead of O(n·d·c). Same algorithm and iterates as the primal loop;
    the values agree to floating-point rounding (the dual runs in float64, or in float32 as the primal does,
    with ``dtype``: half the memory the Gram matrix streams each step).
    """

    def __init__(self, x: np.ndarray, w0: np.ndarray, dtype: type = np.float64) -> None:
        self.x, self.w0 = x, w0
        self.gram = (x @ x.T).astype(dtype, copy=False)
        self.xw0 = (x @ w0).astype(dtype, copy=False)
        self.A = np.zeros((len(x), w0.shape[1]), dtype=dtype)
        self.s = 1.0

    def logits(self) -> np.ndarray:
        """X W_t (n, c) without the bias.

        K A is computed as (Aᵀ K)ᵀ (K is symmetric): BLAS streams the n × n Gram matrix ~1.5× faster in
        that orientation, and each entry is the same sum Σₖ Kᵢₖ Aₖⱼ.
        """
        return self.s * self.xw0 + (self.A.T @ self.gram).T

    def step(self, lr: float, l2: float, resid: np.ndarray) -> None:
        """W ← W − lr·(Xᵀ resid + l2·W) = decay·W − lr·Xᵀ resid with decay = 1 − lr·l2."""
        decay = 1.0 - lr * l2
        self.A = (decay * self.A - lr * resid).astype(self.A.dtype, copy=False)
        self.s *= decay

    def squared_norm(self) -> float:
        """‖W_t‖² = s²‖W₀‖² + 2s·⟨X W₀, A⟩ + tr(Aᵀ K A)."""
        w0 = float(np.sum(self.w0.astype(np.float64) ** 2))
        cross = float(np.sum(self.xw0 * self.A))
        return self.s ** 2 * w0 + 2 * self.s * cross + float(np.sum(self.A * (self.gram @ self.A)))

    def weights(self) -> np.ndarray:
        """The primal weights W_t (d, c) as float32."""
        if self.A.dtype == np.float32:
            return np.float32(self.s) * self.w0 + self.x.T @ self.A
        w = self.s * self.w0.astype(np.float64)
        buffer = np.empty((min(256, len(self.x)), self.x.shape[1]))
        for start in range(0, len(self.x), 256):  # row chunks: no float64 copy of a wide X
            rows = self.x[start:start + 256]
            np.copyto(buffer[:len(rows)], rows)
            w += buffer[:len(rows)].T @ self.A[start:start + 256]
        return w.astype(np.float32)


@dataclass
class SoftmaxHead:
    """Class-weighted linear softmax trained by full-batch gradient descent (no momentum)."""

    n_classes: int
    epochs: int = SOFTMAX_EPOCHS
    lr: float = SOFTMAX_LR
    l2: float = L2
    seed: int = SEED
    use_class_weights: bool = True
    stable_step: bool = False  # cap the step at 1/L, L = smoothness of the loss (improved protocol)
    dual_dtype: type = np.float64  # of the dual iterates (:class:`DualIterates`); float32 is faster
    W: np.ndarray | None = None
    b: np.ndarray | None = None
    history: list[dict] = field(default_factory=list)
    smoothness: float | None = None  # L: gradient-descent steps above 2/L cannot converge
    step: float | None = None  # the step size used

    def fit(self, x: np.ndarray, y: np.ndarray) -> SoftmaxHead:
        """Train on z-scored float32 ``x`` (n, d) and integer labels ``y``.

        With fewer rows than columns the same gradient-descent iterates are computed in the dual
        (:class:`DualIterates`); otherwise in the primal. Both follow the update of
        :func:`softmax_loss_grad`.
        """
        rng = np.random.default_rng(self.seed)
        d, c = x.shape[1], self.n_classes
        self.W = rng.normal(0.0, 0.01, size=(d, c)).astype(np.float32)
        self.b = np.zeros(c, dtype=np.float32)
        onehot = np.eye(c, dtype=np.float32)[y]
        w = sample_weights(y, c, self.use_class_weights)
        log_every = max(self.epochs // 10, 1)
        it = DualIterates(x, self.W, self.dual_dtype) if len(x) < d else None
        self.smoothness = softmax_smoothness(x, w, self.l2, gram=None if it is None else it.gram)
        self.step = min(self.lr, 1.0 / self.smoothness) if self.stable_step else self.lr
        if it is not None:
            self.W, self.b = self._fit_dual(it, y, onehot, w, log_every)
            return self
        for epoch in range(1, self.epochs + 1):
            loss, gW, gb, p = softmax_loss_grad(x, onehot, w, self.W, self.b, self.l2)
            if epoch == 1 or epoch % log_every == 0 or epoch == self.epochs:
                self.history.append({"epoch": epoch, "loss": loss,
                                     "train_accuracy": float(np.mean(p.argmax(axis=1) == y))})
            self.W -= (self.step * gW).astype(np.float32)
            self.b -= (self.step * gb).astype(np.float32)
        return self

    def _fit_dual(self, it: DualIterates, y: np.ndarray, onehot: np.ndarray, w: np.ndarray,
                  log_every: int) -> tuple[np.ndarray, np.ndarray]:
        """The gradient-descent iterates of :meth:`fit` in the dual; returns the final (W, b)."""
        b = np.zeros(self.n_classes)
        scale = (w / len(y)).astype(np.float64)[:, None]
        for epoch in range(1, self.epochs + 1):
            p = softmax(it.logits() + b)
            if epoch == 1 or epoch % log_every == 0 or epoch == self.epochs:
                nll = -np.log(np.maximum((p * onehot).sum(axis=1), 1e-12))
                loss = float(np.mean(w * nll) + 0.5 * self.l2 * it.squared_norm())
                self.history.append({"epoch": epoch, "loss": loss,
                                     "train_accuracy": float(np.mean(p.argmax(axis=1) == y))})
            resid = (p - onehot) * scale
            it.step(self.step, self.l2, resid)
            b -= self.step * resid.sum(axis=0)
        return it.weights(), b.astype(np.float32)

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities (n, C)."""
        return softmax(x @ self.W + self.b)


@dataclass
class DualRidge:
    """Dual ridge regression on z-scored X (plus a constant-1 column) and z-scored Y."""

    y_scaler: ZScaler
    alpha: np.ndarray  # (n_train, k) dual coefficients
    z_train: np.ndarray  # (n_train, d + 1) z-scored train inputs with the constant column

    @functools.cached_property
    def W(self) -> np.ndarray:
        """Primal weights (d + 1, k) = Z_trᵀ α (computed once: tasks that share the fit save the same W)."""
        return self.z_train.T @ self.alpha

    def predict(self, z: np.ndarray) -> np.ndarray:
        """Predictions in the original target units for z-scored inputs ``z``."""
        kernel = with_bias(z).astype(self.alpha.dtype, copy=False) @ self.z_train.T
        return self.y_scaler.inverse(kernel @ self.alpha).astype(np.float32)


def with_bias(z: np.ndarray) -> np.ndarray:
    """Append a constant-1 column."""
    return np.hstack([z, np.ones((len(z), 1), dtype=z.dtype)])


def fit_dual_ridge(z_train: np.ndarray, y_train: np.ndarray, lam: float = RIDGE_LAMBDA,
                   std_floor: float = ORIGINAL_STD_FLOOR, dtype: type = np.float32) -> DualRidge:
    """Fit α = (K + λI)⁻¹ Y_z on K = Z Zᵀ (spec §5.0 "Dual ridge").

    Parameters
    ----------
    z_train : z-scored train inputs (n, d) (see :class:`ZScaler`).
    y_train : raw train targets (n, k); z-scored here with their own train statistics.
    lam : ridge λ (also applied to the intercept column).
    std_floor : std below which a target column is left unscaled.
    dtype : float32 as published, float64 for a stable solve.
    """
    ys = ZScaler.fit(y_train, std_floor)
    z = with_bias(np.asarray(z_train)).astype(dtype, copy=False)
    yz = ys.transform(y_train).astype(dtype, copy=False)
    kernel = z @ z.T
    kernel[np.diag_indices_from(kernel)] += lam
    alpha = np.linalg.solve(kernel, yz).astype(dtype, copy=False)
    return DualRidge(ys, alpha, z)


def positive_weights(y: np.ndarray) -> np.ndarray:
    """clip((n − pos)/max(pos, 1), 1, 20) per label column of a multi-hot train matrix."""
    pos = y.sum(axis=0).astype(np.float64)
    return np.clip((len(y) - pos) / np.maximum(pos, 1.0), 1.0, 20.0).astype(np.float32)


def threshold_multilabel(prob: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """prob ≥ threshold as 0/1; a row with nothing predicted gets its argmax label set."""
    pred = (prob >= threshold).astype(np.int8)
    empty = pred.sum(axis=1) == 0
    pred[np.flatnonzero(empty), prob[empty].argmax(axis=1)] = 1
    return pred


@dataclass
class MultiLabelHead:
    """Multi-label logistic regression with positive weights, full-batch GD at a fixed lr 0.05."""

    epochs: int = SOFTMAX_EPOCHS
    lr: float = MULTILABEL_LR
    l2: float = L2
    seed: int = SEED
    dual_dtype: type = np.float64  # of the dual iterates (:class:`DualIterates`); float32 is faster
    W: np.ndarray | None = None
    b: np.ndarray | None = None
    history: list[dict] = field(default_factory=list)

    def fit(self, x: np.ndarray, y: np.ndarray) -> MultiLabelHead:
        """Train on z-scored ``x`` (n, d) and multi-hot ``y`` (n, k)."""
        rng = np.random.default_rng(self.seed)
        n, d = x.shape
        k = y.shape[1]
        self.W = rng.normal(0.0, 0.01, size=(d, k)).astype(np.float32)
        self.b = np.zeros(k, dtype=np.float32)
        yf = y.astype(np.float32)
        weight = np.where(yf > 0, positive_weights(y)[None, :], np.float32(1.0)).astype(np.float32)
        log_every = max(self.epochs // 10, 1)
        it = DualIterates(x, self.W, self.dual_dtype) if n < d else None
        b = self.b.astype(np.float64) if it is not None else self.b
        for epoch in range(1, self.epochs + 1):
            p = self.predict_proba(x) if it is None else 1.0 / (1.0 + np.exp(-np.clip(it.logits() + b, -60, 60)))
            resid = (p - yf) * weight / n
            if epoch == 1 or epoch % log_every == 0 or epoch == self.epochs:
                eps = 1e-7
                bce = -(yf * np.log(p + eps) + (1 - yf) * np.log(1 - p + eps)) * weight
                self.history.append({"epoch": epoch, "loss": float(bce.mean())})
            if it is not None:
                it.step(self.lr, self.l2, resid)
                b -= self.lr * resid.sum(axis=0)
                continue
            self.W -= (self.lr * (x.T @ resid + self.l2 * self.W)).astype(np.float32)
            self.b -= (self.lr * resid.sum(axis=0)).astype(np.float32)
        if it is not None:
            self.W, self.b = it.weights(), b.astype(np.float32)
        return self

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        """σ(xW + b)."""
        return 1.0 / (1.0 + np.exp(-np.clip(x @ self.W + self.b, -60, 60)))
