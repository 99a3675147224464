"""Fit the heads of one task: the minimal head, the MLP and the trivial baseline, on the same split.

Inputs are z-scored with train statistics (:func:`standardize`); each runner returns a
:class:`HeadOutput` (test predictions, probabilities, final training figures, history, a model writer).
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

import robotask.episode.models.streamed as S
import robotask.episode.models.streamed_ridge as SR

from ...io import write_json, write_npz
from ...words import count
from ..models.minimal import (
    SOFTMAX_EPOCHS,
    DualRidge,
    MultiLabelHead,
    SoftmaxHead,
    ZScaler,
    fit_dual_ridge,
    positive_weights,
    softmax,
    threshold_multilabel,
)
from ..models.mlp import MLPConfig, n_parameters, train_mlp
from ..models.mlp_input import subset_rows
from ..models.row_blocks import LazyRows, RowBlocks, streamed_moments
from ..models.shortcuts import dual_ridge_predictions
from ..models.streamed import GradientFactory
from ..tasks import baselines as B
from ..tasks.builders import TaskData
from ..tasks.protocols import Protocol


@dataclass(frozen=True, kw_only=True)
class SuiteConfig:
    """Run settings shared by every task (defaults = the published suite)."""

    softmax_epochs: int = SOFTMAX_EPOCHS
    mlp: MLPConfig = field(default_factory=MLPConfig)
    save_models: bool = True  # write model.npz / model.pt (the ridge weights are large)
    shared_fits: bool = False  # keep fits of tasks with a fit_key in the cache for other processes (shared_fits)
    dual_float32: bool = False  # the linear heads' dual iterates in float32 (``models.minimal.DualIterates``)


@dataclass
class HeadOutput:
    """Test-set output of one head (or baseline)."""

    pred: np.ndarray  # class ids, multi-hot rows or target-unit values
    proba: np.ndarray | None = None  # class probabilities / label probabilities
    train_final: dict = field(default_factory=dict)
    history: list = field(default_factory=list)
    save: Callable[[Path], None] | None = None  # writes the model files


@functools.cache
def _blas_pools() -> ThreadpoolController:
    """The process's thread pools, found once: ``threadpool_limits`` scans every loaded library on each call
    (27 ms, twelve times a setting in chapter 14); BLAS is loaded with NumPy, before the first call."""
    return ThreadpoolController()


def one_blas_thread(run: Callable) -> Callable:
    """Run a task on one BLAS thread: the heads' bits (the Gram matrices, the ridge solve) then do not
    depend on the machine's core count, and two runs side by side do not fight over the cores."""
    @functools.wraps(run)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with _blas_pools().limit(limits=1, user_api="blas"):
            return run(*args, **kwargs)
    return wrapper


def rows_of(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` as a view when ``idx`` is a contiguous ascending range (no copy of wide matrices)."""
    if len(idx) and idx[-1] - idx[0] + 1 == len(idx) and np.all(np.diff(idx) == 1):
        return a[idx[0]:idx[-1] + 1]
    return a[idx]


def standardize(data: TaskData, protocol: Protocol) -> np.ndarray:
    """z-score the task inputs with train statistics (in place when the task owns X).

    ``data.extra["train_stats"]`` (float64 mean and std of the train rows, pooled from per-episode moments by
    ``unseen.task_data``) spares the two passes over the train rows; it is used once and dropped."""
    stats = data.extra.pop("train_stats", None)
    scaler = (ZScaler.fit(rows_of(data.X, data.train), protocol.std_floor) if stats is None
              else ZScaler.of(*stats, protocol.std_floor))
    data.extra["x_mean"], data.extra["x_std"] = scaler.mean, scaler.std
    if data.owns_x:
        return scaler.transform(data.X, inplace=True)
    return scaler.transform(data.X)


def check_degenerate(data: TaskData) -> dict | None:
    """For label tasks: a dict describing a degenerate label (fewer than 2 train classes), else None."""
    if data.kind not in ("classification", "binary"):
        return None
    train_counts = np.bincount(data.y[data.train], minlength=len(data.class_names))
    if np.count_nonzero(train_counts) >= 2:
        return None
    all_counts = np.bincount(data.y, minlength=len(data.class_names))
    return {"status": "degenerate",
            "reason": f"label has {count(np.count_nonzero(train_counts), 'class')} in train; expected ≥ 2",
            "class_counts": {n: int(c) for n, c in zip(data.class_names, all_counts)},
            "train_class_counts": {n: int(c) for n, c in zip(data.class_names, train_counts)}}


def run_minimal(data: TaskData, z: np.ndarray, protocol: Protocol, cfg: SuiteConfig) -> HeadOutput:
    """The §5.0 minimal head of the task's kind, fitted on train rows and applied to test rows."""
    ztr, zte = rows_of(z, data.train), rows_of(z, data.test)
    ytr = data.y[data.train]
    dual = np.float32 if cfg.dual_float32 else np.float64
    if data.kind in ("classification", "binary"):
        head = SoftmaxHead(len(data.class_names), epochs=cfg.softmax_epochs, stable_step=protocol.stable_step_size,
                           dual_dtype=dual).fit(ztr, ytr)
        proba = head.predict_proba(zte)
        last = head.history[-1]
        steps = {"step_size": head.step, "loss_smoothness": head.smoothness,
                 "step_over_stability_limit": head.step * head.smoothness / 2.0}
        save = _saver(mean=data.extra["x_mean"], std=data.extra["x_std"], W=head.W, b=head.b,
                      class_names=np.array(data.class_names))
        return HeadOutput(proba.argmax(axis=1), proba, {"train_final_accuracy": last["train_accuracy"],
                                                        "train_final_loss": last["loss"], **steps},
                          head.history, save)
    if data.kind == "multilabel":
        head = MultiLabelHead(epochs=cfg.softmax_epochs, dual_dtype=dual).fit(ztr, ytr)
        proba = head.predict_proba(zte)
        save = _saver(mean=data.extra["x_mean"], std=data.extra["x_std"], W=head.W, b=head.b,
                      object_vocab=np.array(data.class_names))
        return HeadOutput(threshold_multilabel(proba), proba, {"train_final_loss": head.history[-1]["loss"]},
                          head.history, save)
    dtype = np.float64 if protocol.robust_std_floor else np.float32
    base = residual_base(data, protocol)
    ytr = data.y[data.train] if base is None else data.y[data.train] - base[data.train]
    if dtype == np.float64 and not cfg.save_models and ytr.ndim == 2 and len(zte) < ytr.shape[1]:  # no α, W
        pred = dual_ridge_predictions(ztr, ytr, zte, std_floor=protocol.std_floor)
        return HeadOutput(pred if base is None else (pred + base[data.test]).astype(np.float32), None, {}, [], None)
    ridge = fit_dual_ridge(ztr, ytr, std_floor=protocol.std_floor, dtype=dtype)
    pred = ridge.predict(zte) if base is None else (ridge.predict(zte) + base[data.test]).astype(np.float32)
    return HeadOutput(pred, None, {}, [], _ridge_saver(cfg, data, ridge))


def _ridge_saver(cfg: SuiteConfig, data: TaskData, ridge: DualRidge | SR.StreamedRidge
                 ) -> Callable[[Path], None] | None:
    """What writes a fitted ridge head's ``model.npz`` (None when models are not saved)."""
    if not cfg.save_models:
        return None

    def save(out: Path) -> None:
        write_npz(out / "model.npz", x_mean=data.extra["x_mean"], x_std=data.extra["x_std"],
                  y_mean=ridge.y_scaler.mean, y_std=ridge.y_scaler.std,
                  W=ridge.W.astype(np.float32, order=getattr(ridge, "order", "K")))
    return save


def residual_base(data: TaskData, protocol: Protocol) -> np.ndarray | None:
    """With ``hand_residual_target``: the last observed pose repeated per future frame (rows × k), else None.

    The heads then fit the displacement from it, so a head that learns nothing falls back to the
    zero-velocity baseline instead of to the train mean.
    """
    rows = _residual_rows(data, protocol)
    return None if rows is None else rows(data.extra["last_pose"])


def _saver(**arrays: Any) -> Callable[[Path], None]:
    """A model writer for ``model.npz``."""
    return lambda out: write_npz(out / "model.npz", **arrays)


def mlp_class_weights(y: np.ndarray, n_classes: int) -> np.ndarray:
    """§6: w_c = n / max(count_c, 1) / C, divided by the mean over all C classes."""
    w = len(y) / np.maximum(np.bincount(y, minlength=n_classes), 1) / n_classes
    return (w / w.mean()).astype(np.float32)


def run_mlp(data: TaskData, z: np.ndarray | RowBlocks, protocol: Protocol, cfg: SuiteConfig) -> HeadOutput:
    """The §6 MLP on the same z-scored inputs and split; optional validation early stopping.

    ``z`` is in memory, or on disk: RowBlocks of all the task's rows in order, z-scored in their file (no
    scaler attached), whose fit / validation / test rows the MLP reads a batch or block at a time."""
    take = functools.partial(subset_rows, z) if isinstance(z, RowBlocks) else functools.partial(rows_of, z)
    fit_idx = data.extra.get("train_core", data.train) if data.val is not None else data.train
    ztr, zte = take(fit_idx), take(data.test)
    zval = take(data.val) if data.val is not None else None
    ytr = data.y[fit_idx]
    yval = data.y[data.val] if data.val is not None else None
    extra: dict[str, Any] = {"scaler": {"mean": data.extra["x_mean"], "std": data.extra["x_std"]}}
    if data.kind in ("classification", "binary"):
        c = len(data.class_names)
        res = train_mlp(ztr, ytr, "classifier", c, cfg.mlp, class_weight=mlp_class_weights(ytr, c),
                        x_val=zval, y_val=yval)
        proba = softmax(res.predict(zte).astype(np.float64))
        pred, extra["config"] = proba.argmax(axis=1), {"class_names": data.class_names}
    elif data.kind == "multilabel":
        res = train_mlp(ztr, ytr, "multilabel", ytr.shape[1], cfg.mlp, pos_weight=positive_weights(ytr),
                        x_val=zval, y_val=yval)
        proba = 1.0 / (1.0 + np.exp(-res.predict(zte).astype(np.float64)))
        pred, extra["config"] = threshold_multilabel(proba), {"object_vocab": data.class_names}
    else:
        base = residual_base(data, protocol)
        if base is not None:
            ytr = ytr - base[fit_idx]
            yval = None if yval is None else yval - base[data.val]
        ys = ZScaler.fit(ytr, protocol.std_floor)
        res = train_mlp(ztr, ys.transform(ytr), "regressor", ytr.shape[1], cfg.mlp,
                        x_val=zval, y_val=None if yval is None else ys.transform(yval))
        proba, pred = None, ys.inverse(res.predict(zte)).astype(np.float32)
        if base is not None:
            pred = (pred + base[data.test]).astype(np.float32)
        extra["scaler"].update({"y_mean": ys.mean, "y_std": ys.std})
        extra["config"] = {"target_dim": int(ytr.shape[1])}
    last = res.history[-1]
    train_final = {f"train_final_{k}": v for k, v in last.items() if k != "epoch"}
    train_final.update({"best_epoch": res.best_epoch, "num_parameters": n_parameters(res.model)})
    save = (lambda out: res.save(out, extra)) if cfg.save_models else (lambda out: write_json(
        out / "history.json", res.history))
    return HeadOutput(pred, proba, train_final, res.history, save)


def run_baseline(data: TaskData) -> HeadOutput | None:
    """The trivial baseline of the task kind (None for retrieval: its expectation is analytic)."""
    # a view of C-ordered targets (the collection's wide ones): its column means are the copy's bits;
    # other layouts are copied, since NumPy would sum their columns in another order
    lazy = not isinstance(data.y, np.ndarray)  # wide targets on disk (``row_blocks.LazyRows``): read in blocks
    ytr = rows_of(data.y, data.train) if lazy or data.y.flags.c_contiguous else data.y[data.train]
    n = len(data.test)
    if data.kind == "classification":
        pred = B.majority_class(ytr, n)
    elif data.kind == "binary":
        pred = B.always_positive(n)
    elif data.kind == "multilabel":
        return HeadOutput(B.label_prevalence(ytr, n))
    elif data.kind == "regression":
        if "last_pose" in data.extra:
            return HeadOutput(B.zero_velocity(data.extra["last_pose"][data.test], data.extra["n_future"]))
        return HeadOutput(B.train_mean(ytr, n))
    else:
        return None
    proba = np.eye(len(data.class_names))[pred]
    return HeadOutput(pred, proba)


BASELINE_NAMES = {"classification": "majority class", "binary": "always positive",
                  "multilabel": "objects present in ≥ half the train windows",
                  "regression": "train mean", "retrieval": "random ranking (expected)"}


def baseline_name(data: TaskData) -> str:
    """Display name of the task's trivial baseline."""
    if "last_pose" in data.extra:
        return "zero velocity (last observed pose)"
    return BASELINE_NAMES[data.kind]


# --------------------------------------------------------------- the same heads over inputs on disk
def split_rows(rows: RowBlocks, data: TaskData) -> tuple[RowBlocks, RowBlocks]:
    """The train and test RowBlocks of a merged task whose parts are all-train or all-test row ranges."""
    sides, at, train, test = np.zeros(sum(n for _, n in rows.ranges), dtype=bool), 0, [], []
    sides[data.train] = True
    for first, n in rows.ranges:
        if n and not (sides[at:at + n].all() or not sides[at:at + n].any()):
            raise ValueError("a row range mixes train and test rows")
        (train if n and sides[at] else test).append((first, n))
        at += n
    return replace(rows, ranges=tuple(train)), replace(rows, ranges=tuple(test))


def standardize_streamed(data: TaskData, train: RowBlocks, protocol: Protocol) -> ZScaler:
    """:func:`standardize` from streamed moments of the train rows (the inputs stay on disk)."""
    scaler = streamed_moments(train, protocol.std_floor)
    data.extra["x_mean"], data.extra["x_std"] = scaler.mean, scaler.std
    return scaler


def run_minimal_streamed(data: TaskData, train: RowBlocks, test: RowBlocks, protocol: Protocol, cfg: SuiteConfig,
                         gradients: GradientFactory | None = None) -> HeadOutput:
    """:func:`run_minimal` on z-scored train / test RowBlocks (``models.streamed``); ``gradients`` makes the
    epochs' gradients elsewhere (``suite.cluster``, on Dask), None here."""
    ytr = rows_of(data.y, data.train)  # a view: the train parts come first (no copy of a wide target)
    saver = {"mean": data.extra["x_mean"], "std": data.extra["x_std"]}
    if data.kind in ("classification", "binary"):
        head = S.fit_softmax(train, ytr, len(data.class_names), epochs=cfg.softmax_epochs,
                             stable_step=protocol.stable_step_size, gradients=gradients)
        proba = head.predict_proba(test).astype(np.float32)
        last = head.history[-1]
        steps = {"step_size": head.step, "loss_smoothness": head.smoothness,
                 "step_over_stability_limit": head.step * head.smoothness / 2.0}
        return HeadOutput(proba.argmax(axis=1), proba, {"train_final_accuracy": last["train_accuracy"],
                                                        "train_final_loss": last["loss"], **steps},
                          head.history, _saver(**saver, W=head.W, b=head.b, class_names=np.array(data.class_names)))
    if data.kind == "multilabel":
        head = S.fit_multilabel(train, ytr, epochs=cfg.softmax_epochs, gradients=gradients)
        proba = head.predict_proba(test).astype(np.float32)
        return HeadOutput(threshold_multilabel(proba), proba, {"train_final_loss": head.history[-1]["loss"]},
                          head.history, _saver(**saver, W=head.W, b=head.b, object_vocab=np.array(data.class_names)))
    dtype = np.float64 if protocol.robust_std_floor else np.float32
    base = _residual_rows(data, protocol)
    if base is not None:  # the displacement from the last observed pose, formed one block of rows at a time
        ytr = _minus_base(ytr, data.extra["last_pose"][data.train], base)
    ridge = SR.fit_ridge(train, ytr, std_floor=protocol.std_floor, dtype=dtype)
    with tempfile.NamedTemporaryFile(dir=test.path.parent, suffix=".pred", delete=False) as handle:
        path = Path(handle.name)  # the test predictions wait on disk beside the inputs (deleted with the task)
    test_last = None if base is None else data.extra["last_pose"][data.test]
    pred = ridge.predict_to(test, path, None if base is None else lambda sl: base(test_last[sl]))
    return HeadOutput(pred, None, {}, [], _ridge_saver(cfg, data, ridge))


def _minus_base(y: np.ndarray | LazyRows, last_pose: np.ndarray, base: Callable[[np.ndarray], np.ndarray]
                ) -> LazyRows:
    """``y − residual_base`` of the same rows, formed a block of rows at a time (``last_pose`` of y's rows)."""
    return LazyRows.computed(len(last_pose), y.shape[1], np.result_type(y.dtype, last_pose.dtype),
                             lambda a, b: np.asarray(y[a:b]) - base(last_pose[a:b]))


def _residual_rows(data: TaskData, protocol: Protocol) -> Callable[[np.ndarray], np.ndarray] | None:
    """:func:`residual_base` of some rows: their last observed poses → those rows of the base (None: no base)."""
    if not protocol.hand_residual_target or "last_pose" not in data.extra:
        return None
    n_future = int(data.extra["n_future"])
    return lambda last_pose: np.tile(last_pose, (1, n_future))
