"""The ridge of :func:`minimal.fit_dual_ridge`, fitted from sums over row blocks that stay on disk.

The ridge needs ``ZZᵀ`` (the dual, n × n) or ``ZᵀZ`` and ``ZᵀY`` (the primal, d × d): whichever is
smaller, summed block by block (:mod:`streamed` reads the blocks, :mod:`products` adds and solves in
place). Time: O(n²d) while n ≤ d and O(nd²) after, so linear beyond d rows. Memory: the Gram matrix,
min(n, d + 1)² in float64, and blocks or panels beside it; the exact ridge cannot hold less.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

from .minimal import ORIGINAL_STD_FLOOR, RIDGE_LAMBDA, ZScaler
from .products import SOLVE_COLUMNS, PackedGram, add_gram, add_product, mirror_upper
from .row_blocks import LazyRows, RowBlocks, RowFile
from .streamed import block_rows, later_blocks, panel_rows

RIDGE_PANEL_BYTES = 16 << 20  # the ridge's outer panel, held beside its n × n Gram matrix at the peak (the same
# bits as 64 MB at the suite's widths, measured; to rounding at any size)


@dataclass
class StreamedRidge:
    """Ridge weights (d + 1, k) on z-scored inputs with a constant column, and the target scaler."""

    y_scaler: ZScaler
    W: np.ndarray

    order: str = "C"  # the memory order the weights are saved in (``model.npz``)

    def predict_blocks(self, rows: RowBlocks) -> Iterator[tuple[slice, np.ndarray]]:
        """(row slice, predictions in target units, float32) per block of ``rows``."""
        for sl, x in rows.blocks(block_rows(rows.width)):
            xb = x.astype(self.W.dtype)
            yield sl, self.y_scaler.inverse(xb @ self.W[:-1] + self.W[-1]).astype(np.float32)

    def predict(self, rows: RowBlocks) -> np.ndarray:
        """Predictions in target units (float32) for every row."""
        out = np.empty((rows.n_rows, self.W.shape[1]), dtype=np.float32)
        for sl, pred in self.predict_blocks(rows):
            out[sl] = pred
        return out

    def predict_to(self, rows: RowBlocks, path: str | os.PathLike,
                   add: Callable[[slice], np.ndarray] | None = None) -> LazyRows:
        """The predictions of every row (plus ``add(rows)`` of each block, as float32) written one block at
        a time to the raw file ``path``; returned as a :class:`LazyRows` that owns the file."""
        file = RowFile(path, self.W.shape[1])
        for sl, pred in self.predict_blocks(rows):
            file.append(pred if add is None else (pred + add(sl)).astype(np.float32))
        return RowBlocks(file.path, file.width, ((0, file.rows),)).matrix(owned=True)


def _with_bias(x: np.ndarray, dtype: type, buffer: np.ndarray | None = None) -> np.ndarray:
    """``[x, 1]`` in ``dtype``, written into ``buffer`` (rows × (width + 1)) when given: no temporaries."""
    if buffer is None:
        return np.hstack([x.astype(dtype, copy=False), np.ones((len(x), 1), dtype=dtype)])
    out = buffer[:len(x)]
    out[:, :-1] = x
    out[:, -1] = 1.0
    return out


def fit_ridge(rows: RowBlocks, y: np.ndarray, lam: float = RIDGE_LAMBDA, std_floor: float = ORIGINAL_STD_FLOOR,
              dtype: type = np.float32) -> StreamedRidge:
    """:func:`minimal.fit_dual_ridge` over streamed rows: the dual (n ≤ d + 1) or the primal, as sums of blocks.

    Dual: K = Z̃Z̃ᵀ from pairs of blocks, α = (K + λI)⁻¹ Y_z, W = Σ Z̃_bᵀ α_b. Primal: W = (Z̃ᵀZ̃ + λI)⁻¹ Z̃ᵀY_z.
    Both are the same ridge solution (Z̃ᵀ(Z̃Z̃ᵀ + λI)⁻¹ = (Z̃ᵀZ̃ + λI)⁻¹Z̃ᵀ).

    Memory: the Gram matrix, min(n, d + 1)². In float64 (the improved protocol) only its lower triangle is
    held, packed, and it is factored by Cholesky in place (:class:`products.PackedGram`): half the square. The
    published float32 solve keeps NumPy's LU on the whole square. Beside it: one panel of rows while it is formed
    (the dual's targets are z-scored after it, once the panel is freed) and, in the primal, one block of
    z-scored targets at a time (a 5096-wide target is never held z-scored in full); sums of products are added
    in place (``products``), never formed beside the matrix they add to. The float64 right-hand side is
    solved in panels of columns, never held twice. ``y`` may be a :class:`row_blocks.LazyRows` (targets on disk):
    it is read one block of rows at a time.
    """
    ys = ZScaler.fit(y, std_floor)
    n, d1 = rows.n_rows, rows.width + 1
    size, panel = block_rows(rows.width), panel_rows(rows.width, np.dtype(dtype).itemsize, RIDGE_PANEL_BYTES)
    if n > d1:
        return _fit_primal(rows, y, ys, lam, dtype, size)
    K = _dual_gram(rows, dtype, panel, size)
    if not isinstance(K, PackedGram):  # the published float32 solve: NumPy's, on every target column at once
        K[np.diag_indices_from(K)] += lam
        yz = np.empty((n, y.shape[1]), dtype=dtype)
        for start in range(0, n, size):
            yz[start:start + size] = ys.transform(np.asarray(y[start:start + size]))
        alpha = np.linalg.solve(K, yz).astype(dtype, copy=False)
        del K, yz
        return StreamedRidge(ys, _dual_weights(rows, alpha, size, dtype))
    K.data[K.diagonal()] += lam
    with tempfile.TemporaryFile(dir=rows.path.parent) as scratch:
        spans = _dual_panels(rows, y, ys, K.factor(), size, scratch)
        del K  # the factors are freed before the weights are read back
        return StreamedRidge(ys, _read_panels(scratch, d1, spans))


def _dual_gram(rows: RowBlocks, dtype: type, panel: int, size: int) -> PackedGram | np.ndarray:
    """K = Z̃Z̃ᵀ of the rows with a constant column, from pairs of a panel and a later block: packed in float64
    (:class:`products.PackedGram`), the whole square in float32; the panel and the block are freed on return."""
    n, d1 = rows.n_rows, rows.width + 1
    K = PackedGram(n) if dtype == np.float64 else np.empty((n, n), dtype=dtype)
    outer = np.empty((rows.largest_block(panel), d1), dtype=dtype)
    inner = np.empty((rows.largest_block(size), d1), dtype=dtype)
    for si, xi in rows.blocks(panel):
        bi = _with_bias(xi, dtype, outer)
        for sj, xj in later_blocks(rows, si.start, size):
            product = bi @ _with_bias(xj, dtype, inner).T  # K[si, sj]
            if isinstance(K, PackedGram):
                K.set_block(sj.start, si.start, product.T)
            else:
                K[si, sj] = product
                K[sj, si] = product.T
    return K


def _fit_primal(rows: RowBlocks, y: np.ndarray, ys: ZScaler, lam: float, dtype: type, size: int) -> StreamedRidge:
    """The primal ridge (more rows than columns): W = (Z̃ᵀZ̃ + λI)⁻¹ Z̃ᵀY_z from sums over blocks of rows."""
    d1 = rows.width + 1
    A = PackedGram(d1) if dtype == np.float64 else np.zeros((d1, d1), dtype=dtype)
    rhs = np.zeros((d1, y.shape[1]), dtype=dtype)
    inner = np.empty((rows.largest_block(size), d1), dtype=dtype)
    for sl, x in rows.blocks(size):
        xb = _with_bias(x, dtype, inner)
        if isinstance(A, PackedGram):
            A.add_gram(xb)
        else:
            add_gram(A, xb)
        add_product(rhs, xb, ys.transform(np.asarray(y[sl])))
    if not isinstance(A, PackedGram):  # the published float32 solve: NumPy's
        mirror_upper(A)
        A[np.diag_indices_from(A)] += lam
        return StreamedRidge(ys, np.linalg.solve(A, rhs).astype(dtype, copy=False))
    A.data[A.diagonal()] += lam
    A.factor()
    for j in range(0, rhs.shape[1], SOLVE_COLUMNS):  # solved into rhs itself, a panel of columns at a time
        rhs[:, j:j + SOLVE_COLUMNS] = A.solve(np.asfortranarray(rhs[:, j:j + SOLVE_COLUMNS]))
    return StreamedRidge(ys, rhs, order="F")  # saved Fortran-ordered, as LAPACK's whole solve returned them


def _dual_weights(rows: RowBlocks, alpha: np.ndarray, size: int, dtype: type) -> np.ndarray:
    """W = Σ Z̃_bᵀ α_b over the blocks of ``rows`` (the dual ridge's primal weights)."""
    inner = np.empty((rows.largest_block(size), rows.width + 1), dtype=dtype)
    W = np.zeros((rows.width + 1, alpha.shape[1]), dtype=dtype)
    for sl, x in rows.blocks(size):
        add_product(W, _with_bias(x, dtype, inner), alpha[sl])
    return W


def _dual_panels(rows: RowBlocks, y: np.ndarray, ys: ZScaler, gram: PackedGram, size: int,
                 scratch: BinaryIO) -> list[tuple[int, int]]:
    """The float64 dual ridge :data:`products.SOLVE_COLUMNS` target columns at a time: each panel of targets
    z-scored a block of rows at a time, solved in place through the Cholesky factors ``gram`` and turned into its
    weights (:func:`_dual_weights`), which are written to ``scratch``; returns the panels' column spans.

    Beside the n × n factors only one panel's targets and weights are held, never the n × k targets and the
    d × k weights (the peak of the hand forecast's ridge at 64 episodes was the whole targets beside K).
    Each column's solution and weights are the same substitution and the same sums as in one whole solve: to
    1e-10 relative whatever the panels' widths (tested), bit for bit where they are multiples of the column tiles
    of the BLAS kernel the CPU selects (panels of 8 were on one machine; on another, of the widths 2 to 24, only
    24 was, the others differing by 6e-17).
    """
    k, spans = y.shape[1], []
    for j0 in range(0, k, SOLVE_COLUMNS):
        j1 = min(j0 + SOLVE_COLUMNS, k)
        yz = np.empty((rows.n_rows, j1 - j0), order="F")
        for start in range(0, rows.n_rows, size):
            yz[start:start + size] = ys.transform(np.asarray(y[start:start + size]))[:, j0:j1]
        scratch.write(memoryview(_dual_weights(rows, gram.solve(yz), size, np.float64)).cast("B"))
        spans.append((j0, j1))
    return spans


def _read_panels(scratch: BinaryIO, d1: int, spans: list[tuple[int, int]]) -> np.ndarray:
    """The d1 × k weights from the panels :func:`_dual_panels` wrote, in order."""
    W = np.empty((d1, spans[-1][1]))
    scratch.seek(0)
    for j0, j1 in spans:
        panel = np.empty((d1, j1 - j0))
        if scratch.readinto(memoryview(panel).cast("B")) != panel.nbytes:
            raise OSError("the ridge's scratch file of weights was cut short")
        W[:, j0:j1] = panel
    return W
