"""Sums of matrix products added into the matrix itself: no temporary the size of the sum.

NumPy's ``out += a.T @ b`` first forms the product beside ``out``; for the streamed ridge's d × d primal
matrix (d = 8,547 for the hand forecast: 584 MB in float64) that is a second matrix at the peak. BLAS
adds in place (gemm and syrk with β = 1); SciPy writes into a Fortran-ordered ``c`` of its dtype, so
the C-ordered matrix is passed transposed.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg


def add_product(out: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``out += aᵀ b`` in place, with no temporary of ``out``'s size (BLAS gemm with β = 1 on ``outᵀ``).

    ``out`` is C-ordered (m, k), ``a`` (r, m), ``b`` (r, k), all of ``out``'s float dtype. NumPy's
    ``out += a.T @ b`` would first form the (m, k) product: a second d × d matrix in the ridge's primal.
    """
    gemm = scipy.linalg.blas.get_blas_funcs("gemm", (out,))
    result = gemm(1.0, np.ascontiguousarray(b, dtype=out.dtype).T, np.ascontiguousarray(a, dtype=out.dtype).T,
                  beta=1.0, c=out.T, trans_b=1, overwrite_c=1)
    if not np.shares_memory(result, out):  # not expected: SciPy writes into a Fortran-ordered c of its dtype
        out[...] = result.T
    return out


def add_gram(out: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``out += aᵀ a`` in place on the upper triangle of the C-ordered symmetric ``out`` (BLAS syrk with
    β = 1, no temporary); :func:`mirror_upper` completes the matrix once the sum is done."""
    syrk = scipy.linalg.blas.get_blas_funcs("syrk", (out,))
    result = syrk(1.0, np.ascontiguousarray(a, dtype=out.dtype).T, beta=1.0, c=out.T, lower=1, overwrite_c=1)
    if not np.shares_memory(result, out):  # not expected, as in add_product
        out[...] = result.T
    return out


def mirror_upper(a: np.ndarray, panel: int = 1024) -> np.ndarray:
    """Copy the upper triangle of the square ``a`` onto its lower one in place, one panel of rows at a time
    (no second matrix): ``a`` is then exactly symmetric."""
    for i in range(0, len(a), panel):
        j = min(i + panel, len(a))
        a[i:j, :i] = a[:i, i:j].T
        block = a[i:j, i:j]
        lower = np.tril_indices(j - i, -1)
        block[lower] = block.T[lower]
    return a
