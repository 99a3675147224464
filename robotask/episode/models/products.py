"""The streamed ridge's linear algebra in place: sums of matrix products added into the matrix itself (no
temporary the size of the sum), and a symmetric matrix held, factored and solved as its packed lower triangle.

NumPy's ``out += a.T @ b`` first forms the product beside ``out``; for the float32 ridge's d × d primal
matrix (d = 8,547 for the hand forecast) or a d × k right-hand side that is a second matrix at the peak. BLAS
adds in place (gemm and syrk with β = 1); SciPy writes into a Fortran-ordered ``c`` of its dtype, so
the C-ordered matrix is passed transposed. The float64 ridge keeps its Gram matrix in a :class:`PackedGram`
(8,547 · 8,548 / 2 numbers for the hand forecast: 292 MB instead of the square's 584 MB).
"""

from __future__ import annotations

import numpy as np

# SciPy's BLAS and LAPACK wrappers are imported where they are called: only the streamed ridge of a collection
# needs them, and importing scipy.linalg costs every `robotask suite` process 0.2 s before its first task.


def add_product(out: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``out += aᵀ b`` in place, with no temporary of ``out``'s size (BLAS gemm with β = 1 on ``outᵀ``).

    ``out`` is C-ordered (m, k), ``a`` (r, m), ``b`` (r, k), all of ``out``'s float dtype. NumPy's
    ``out += a.T @ b`` would first form the (m, k) product: a second d × d matrix in the ridge's primal.
    """
    from scipy.linalg import blas

    gemm = blas.get_blas_funcs("gemm", (out,))
    result = gemm(1.0, np.ascontiguousarray(b, dtype=out.dtype).T, np.ascontiguousarray(a, dtype=out.dtype).T,
                  beta=1.0, c=out.T, trans_b=1, overwrite_c=1)
    if not np.shares_memory(result, out):  # not expected: SciPy writes into a Fortran-ordered c of its dtype
        out[...] = result.T
    return out


def add_gram(out: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``out += aᵀ a`` in place on the upper triangle of the C-ordered symmetric ``out`` (BLAS syrk with
    β = 1, no temporary); :func:`mirror_upper` completes the matrix once the sum is done."""
    from scipy.linalg import blas

    syrk = blas.get_blas_funcs("syrk", (out,))
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


SOLVE_COLUMNS = 256  # columns of a right-hand side solved at a time (the streamed float64 ridge)


class PackedGram:
    """A symmetric positive definite float64 matrix of order n held as its lower triangle, n(n + 1)/2 numbers,
    in LAPACK's rectangular full packed format (RFP, ``transr`` 'N'), built, factored (Cholesky) and solved in
    place: the streamed ridge's Gram matrix in half the memory of the full square.

    RFP keeps the triangle in a (k, lda) array, k = ⌈n/2⌉ (C order here; LAPACK's (lda, k) columns): entry
    (i, j), i ≥ j, is at ``[j, i + e]`` for j < k and at ``[i − k + 1 − e, j − k]`` after, e = 1 for even n
    (lda = n + 1), 0 for odd (lda = n). Its blocked routines (sfrk, pftrf, pftrs) run at the speed of the
    full-storage ones (syrk, potrf, potrs). A Cholesky solve agrees with an LU solve to rounding.
    """

    def __init__(self, n: int) -> None:  # noqa: D107 — the zero matrix of order n
        self.n, self.even = n, n % 2 == 0
        self.k, self.lda = (n // 2, n + 1) if self.even else ((n + 1) // 2, n)
        self.data = np.zeros(n * (n + 1) // 2)
        self.rfp = self.data.reshape(self.k, self.lda)

    def add_gram(self, a: np.ndarray) -> PackedGram:
        """``+= aᵀ a`` for ``a`` (rows, n), in place (LAPACK sfrk; ``aᵀ`` of a C-ordered ``a`` is Fortran-ordered)."""
        from scipy.linalg import lapack

        out = lapack.dsfrk(self.n, len(a), 1.0, np.ascontiguousarray(a, dtype=np.float64).T, 1.0,
                           self.data, transr="N", uplo="L", trans="N", overwrite_c=1)
        if not np.shares_memory(out, self.data):  # not expected: the packed array is contiguous float64
            self.data[...] = out
        return self

    def set_block(self, i0: int, j0: int, block: np.ndarray) -> PackedGram:
        """Entries (i0 + r, j0 + c) of ``block`` with i ≥ j (the lower triangle) written in; the rest ignored."""
        e, k = int(self.even), self.k
        rows, cols = i0 + np.arange(len(block)), j0 + np.arange(block.shape[1])
        left = min(j0 + block.shape[1], k) - j0  # columns j < k: [j, i + e]
        if left > 0:
            _write_lower(self.rfp[j0:j0 + left, i0 + e:i0 + e + len(block)].T, block[:, :left], rows, cols[:left])
        first = max(i0, j0, k)  # columns j ≥ k: [i − k + 1 − e, j − k], rows i ≥ j ≥ k only
        if j0 + block.shape[1] > k and i0 + len(block) > first:
            c0, r0 = max(j0, k) - j0, first - i0
            target = self.rfp[first - k + 1 - e:i0 + len(block) - k + 1 - e, j0 + c0 - k:j0 + block.shape[1] - k]
            _write_lower(target, block[r0:, c0:], rows[r0:], cols[c0:])
        return self

    def diagonal(self) -> np.ndarray:
        """The flat positions of the diagonal in :attr:`data`."""
        j = np.arange(self.n)
        e = int(self.even)
        return np.where(j < self.k, j * self.lda + j + e, (j - self.k + 1 - e) * self.lda + (j - self.k))

    def factor(self) -> PackedGram:
        """Cholesky factor in place (LAPACK pftrf); raises ``LinAlgError`` if the matrix is not positive definite."""
        from scipy.linalg import lapack

        out, info = lapack.dpftrf(self.n, self.data, transr="N", uplo="L", overwrite_a=1)
        if info != 0:
            raise np.linalg.LinAlgError(f"the ridge's Gram matrix is not positive definite (pftrf info {info})")
        if not np.shares_memory(out, self.data):
            self.data[...] = out
        return self

    def solve(self, b: np.ndarray) -> np.ndarray:
        """The solution for a float64 right-hand side (n, k), after :meth:`factor`; written over ``b`` when it is
        Fortran-ordered (LAPACK pftrs)."""
        from scipy.linalg import lapack

        x, info = lapack.dpftrs(self.n, self.data, b, transr="N", uplo="L",
                                overwrite_b=int(b.flags.f_contiguous and b.dtype == np.float64))
        if info != 0:
            raise np.linalg.LinAlgError(f"pftrs info {info}")
        return x

    def full(self) -> np.ndarray:
        """The whole symmetric matrix (n × n; for tests and small n)."""
        from scipy.linalg import lapack

        low = lapack.dtfttr(self.n, self.data, transr="N", uplo="L")[0]
        return np.tril(low) + np.tril(low, -1).T


def _write_lower(target: np.ndarray, block: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> None:
    """``target[...] = block`` where row index ≥ column index (a view into the packed array)."""
    if rows[0] >= cols[-1]:
        target[...] = block
        return
    keep = rows[:, None] >= cols[None, :]
    target[keep] = block[keep]
