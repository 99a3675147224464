"""The streamed ridge's linear algebra in place: sums of matrix products added into the matrix itself (no
temporary the size of the sum), and the solve that overwrites its matrix and right-hand side.

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


def factor_in_place(a: np.ndarray) -> tuple:
    """LU factors of a symmetric float64 ``a``, overwriting ``a`` (LAPACK getrf on ``aᵀ``, which is ``a`` and
    Fortran-ordered): the factors :func:`solve_factored` takes."""
    return scipy.linalg.lu_factor(a.T, overwrite_a=True, check_finite=False)


def solve_factored(lu: tuple, b: np.ndarray) -> np.ndarray:
    """The solution for a float64 right-hand side ``b``, written over ``b`` when it is Fortran-ordered (getrs)."""
    overwrite = bool(b.flags.f_contiguous and b.dtype == np.float64)  # LAPACK solves such a b where it is
    return scipy.linalg.lu_solve(lu, b, overwrite_b=overwrite, check_finite=False)


def solve_in_place(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.linalg.solve(a, b)`` for a symmetric ``a``, overwriting ``a`` in float64.

    NumPy's solve copies ``a`` first (a second n × n or d × d matrix at the peak). In float64 LAPACK's LU
    runs here on ``a`` itself (:func:`factor_in_place`): the getrf / getrs NumPy calls, through SciPy's
    LAPACK. The values agree to rounding: bit for bit in the tests, within 4e-12 relative in the suite's
    metrics at 16 synthetic episodes (SciPy and NumPy bundle their own BLAS). Float32, the published solve,
    keeps NumPy's.
    """
    if a.dtype != np.float64:
        return np.linalg.solve(a, b)
    return solve_factored(factor_in_place(a), b)


SOLVE_COLUMNS = 256  # columns of a right-hand side solved at a time (:func:`solve_columns`, the streamed dual ridge)


def solve_columns(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`solve_in_place` for a float64 C-ordered ``b`` (d, k), overwriting ``b`` with the solution.

    LAPACK needs a Fortran-ordered right-hand side: SciPy would copy the whole of ``b`` and return the
    solution as a third d × k matrix. Here :data:`SOLVE_COLUMNS` columns at a time are copied out, solved
    in place and written back: each column's solution is the same substitution through the same factors,
    so the bits are those of the whole solve on one BLAS thread, as the suite solves (tested; on more
    threads OpenBLAS may share the whole solve's columns out otherwise: within 1e-15 relative).
    """
    lu = factor_in_place(a)
    for j in range(0, b.shape[1], SOLVE_COLUMNS):
        b[:, j:j + SOLVE_COLUMNS] = solve_factored(lu, np.asfortranarray(b[:, j:j + SOLVE_COLUMNS]))
    return b
