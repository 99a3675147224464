"""Shortcuts for a run of many splits over the same episodes, equal to the full computation to float64 rounding.

- :class:`ColumnMoments` and :func:`pooled_mean_std`: a split's train mean and std pooled from each episode's
  column moments (computed once per run), instead of two passes over the merged train rows;
- :func:`dual_ridge_predictions`: the dual ridge's test predictions solved with the test rows' kernel as
  right-hand side, instead of the k target columns (the 5,096 visual targets), when no weights are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .minimal import ORIGINAL_STD_FLOOR, RIDGE_LAMBDA, ZScaler, column_mean_std, with_bias


@dataclass(frozen=True)
class ColumnMoments:
    """Per-column sum and sum of squared deviations from the column mean (float64) of ``n`` rows: what
    :func:`pooled_mean_std` needs to give the mean and std of several row sets stacked, without the rows."""

    n: int
    total: np.ndarray
    m2: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> ColumnMoments:
        """The moments of the rows of ``x`` (two passes, as :func:`column_mean_std`)."""
        mean, std = column_mean_std(x)
        return cls(len(x), mean * len(x), std ** 2 * len(x))


def pooled_mean_std(parts: list[ColumnMoments]) -> tuple[np.ndarray, np.ndarray]:
    """Mean and population std of the stacked rows of ``parts`` (Chan et al.'s pairwise update, float64):
    m2 = Σ m2ᵢ + nᵢ (meanᵢ − mean)². Equal to :func:`column_mean_std` of the stack to float64 rounding."""
    parts = [p for p in parts if p.n]
    n = sum(p.n for p in parts)
    mean = sum(p.total for p in parts) / max(n, 1)
    m2 = sum(p.m2 + p.n * (p.total / p.n - mean) ** 2 for p in parts)
    return mean, np.sqrt(m2 / max(n, 1))



def dual_ridge_predictions(z_train: np.ndarray, y_train: np.ndarray, z_test: np.ndarray, lam: float = RIDGE_LAMBDA,
                           std_floor: float = ORIGINAL_STD_FLOOR, dtype: type = np.float64) -> np.ndarray:
    """``fit_dual_ridge(z_train, y_train, ...).predict(z_test)`` without α: Ŷ = K_te (K + λI)⁻¹ Y_z is solved
    with the test rows' kernel as right-hand side (n_test columns) instead of the k target columns, cheaper
    when n_test < k (the 5,096 visual targets). The same numbers to the solve's rounding: in float64 they
    agree to ~1e-12 relative; in float32 the two orders can differ far more (use float64)."""
    ys = ZScaler.fit(y_train, std_floor)
    z = with_bias(np.asarray(z_train)).astype(dtype, copy=False)
    kernel = z @ z.T
    kernel[np.diag_indices_from(kernel)] += lam
    cross = with_bias(z_test).astype(dtype, copy=False) @ z.T
    weights = np.linalg.solve(kernel, cross.T)  # (n_train, n_test); the kernel is symmetric
    yz = ys.transform(y_train).astype(dtype, copy=False)
    return ys.inverse(weights.T @ yz).astype(np.float32)
