"""NumPy's sums over a matrix, formed one block of rows at a time and equal to NumPy's bit for bit.

The metrics of wide targets (5,096 columns over thousands of test rows) sum float64 expressions of the
whole test set; formed at once, each expression is a copy of it. Here a caller gives the expression of
rows ``start:stop`` and the sums are NumPy's own, so the metrics keep every bit:

- :func:`total` is ``np.sum`` of the whole C-ordered matrix: NumPy adds its flat entries pairwise,
  splitting a run of n > 128 entries at n // 2 rounded down to a multiple of 8. :func:`total` makes the
  same splits down to runs of at most :data:`LEAF` entries and lets ``np.sum`` add each run, so every
  partial sum is one NumPy forms.
- :func:`column_total` is ``np.sum(axis=0)``: NumPy adds the rows in order into one running row, which
  here is carried from block to block (a single column, which NumPy sums pairwise, is summed whole).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

BLOCK_BYTES = 4 << 20  # bytes of one block of an expression's rows
LEAF = 1 << 16  # entries of the longest run :func:`total` hands to np.sum (a multiple of 8, above 128)

Rows = Callable[[int, int], np.ndarray]  # (start, stop) -> the expression's rows start:stop


def block_rows(width: int, itemsize: int = 8) -> int:
    """Rows of an expression of ``width`` columns in :data:`BLOCK_BYTES` (at least 1)."""
    return max(1, BLOCK_BYTES // (itemsize * max(width, 1)))


def total(rows: Rows, n_rows: int, width: int) -> float:
    """``np.sum`` of the (n_rows, width) matrix whose rows ``rows(start, stop)`` gives, in the same bits."""
    def run(first: int, n: int) -> float:
        if n <= LEAF:
            top, bottom = first // width, -(-(first + n) // width)
            flat = np.ascontiguousarray(rows(top, bottom)).reshape(-1)
            return float(np.sum(flat[first - top * width:first - top * width + n]))
        half = n // 2
        half -= half % 8
        return run(first, half) + run(first + half, n - half)

    return run(0, n_rows * width) if n_rows * width else 0.0


def column_total(rows: Rows, n_rows: int, width: int, dtype: type = np.float64) -> np.ndarray:
    """``np.sum(axis=0)`` of the matrix whose rows ``rows(start, stop)`` gives (in ``dtype``), in the same bits."""
    if width == 1:  # one column: NumPy sums it as a flat array (pairwise), and it is small
        return np.sum(np.asarray(rows(0, n_rows), dtype=dtype), axis=0)
    out = np.zeros(width, dtype=dtype)
    step = block_rows(width, np.dtype(dtype).itemsize)
    for start in range(0, n_rows, step):
        for row in np.asarray(rows(start, min(start + step, n_rows))):
            out += row
    return out


def column_std(x: np.ndarray) -> np.ndarray:
    """``x.std(axis=0)`` of a float matrix, one block of rows at a time: the same bits, no copy of ``x``
    (which may be any matrix whose row slices ``np.asarray`` reads: targets on disk)."""
    n, width = x.shape
    mean = (column_total(lambda a, b: x[a:b], n, width, x.dtype) / n).astype(x.dtype)
    squares = column_total(lambda a, b: np.square(np.asarray(x[a:b]) - mean), n, width, x.dtype)
    return np.sqrt((squares / n).astype(x.dtype))
