"""The MLP's inputs: the rows of a matrix in memory or of a raw file on disk (``row_blocks.RowBlocks``),
and its input block, LayerNorm(d) → Linear(d, h), as the training loop of ``mlp.py`` computes it.

The block's function and parameters are PyTorch's (``model[0]``, ``model[1]``); only the arithmetic is
arranged for a wide input (d up to 25,638 on temporal order, against h = 128 and batches of 128):

* the LayerNorm's normalisation depends on the input row alone, so x̂ = (x − mean) / √(var + ε) is
  computed once for the training set instead of once per step (in memory, :class:`FoldedInput`), or
  on each batch's rows as they are read from disk (:class:`StreamedInput`: the same bits, since
  PyTorch normalises each row by itself whatever the rows around it);
* its affine part folds into the Linear: Linear(x̂ ⊙ γ + β) = x̂ (W ⊙ γ)ᵀ + (W β + b);
* the backward pass needs no gradient with respect to the d-wide input, so each step makes two
  (batch × d × h) products instead of three, and the gradients of W, γ, β and b follow from
  G = δᵀ x̂ (δ the gradient at the block's output, s = Σ rows of δ):

      ∂W = G ⊙ γ + s βᵀ,   ∂γ = Σₖ Wₖ ⊙ Gₖ,   ∂β = Wᵀ s,   ∂b = s.

Buffers of the (h × d) size are reused from step to step: a fresh 13 MB tensor costs page faults that
take as long as the arithmetic on it. The results equal the layer-by-layer computation to rounding.

The backward pass works in panels of :data:`PANEL` columns: G's panel is formed into a buffer that stays
in the core's cache and the panel's ∂W and ∂γ are finished from it, instead of three passes over the
whole (h × d) G in memory (18 against 26 ms a step on temporal order's 25,638 columns). Each entry of G
is the same sum over the batch's rows in the same order whatever the panel (MKL on one thread, every
batch size from 1 to 128 and every task's width checked), and the rest is elementwise or sums over rows
of one column, so the gradients are the whole-matrix computation's bits
(``tests/test_episode_mlp.py``).

On disk, memory is one batch of rows (and, for validation and predictions, one block of
:data:`EVAL_ROWS` rows), whatever the number of rows: :class:`RowReader` reads the rows a batch names
in the file's order, a run of consecutive file rows in one ``preadv`` that scatters them to their places
in the batch, so the batch's rows are in the shuffled order the in-memory gather gives them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .row_blocks import RowBlocks

if TYPE_CHECKING:  # annotations only
    import torch
    from torch import nn

EVAL_ROWS = 1024  # rows per forward pass of validation and predictions (MLPResult.predict's batch)
# A forward pass on at most 3 rows rounds differently from the same rows inside a taller pass (measured with
# this PyTorch's MKL on one thread; from 4 rows on, a row's outputs do not depend on the rows beside it): a
# block of validation rows read from disk is never that short (a shorter tail joins the block before it),
# so its outputs are those of the whole validation matrix in one pass, the in-memory run's.
LEAST_ROWS = 16
PANEL = 2048  # columns of G formed and used at a time in the backward pass (1 MB at h = 128)

Rows = np.ndarray | RowBlocks  # an (n, d) float32 input, in memory or on disk


def shape_of(x: Rows) -> tuple[int, int]:
    """(rows, columns) of an input."""
    return (x.n_rows, x.width) if isinstance(x, RowBlocks) else (len(x), int(x.shape[1]))


def subset_rows(rows: RowBlocks, idx: np.ndarray) -> RowBlocks:
    """Rows ``idx`` (positions over all of ``rows``' ranges, in that order) as RowBlocks of the same file:
    one range per run of consecutive file rows. Nothing is read."""
    file_rows = _file_rows(rows)[np.asarray(idx, dtype=np.int64)]
    if not len(file_rows):
        return replace(rows, ranges=())
    starts = np.flatnonzero(np.diff(file_rows) != 1) + 1
    ranges = tuple((int(run[0]), len(run)) for run in np.split(file_rows, starts))
    return replace(rows, ranges=ranges)


def _file_rows(rows: RowBlocks) -> np.ndarray:
    """The file row of each position over ``rows``' ranges (int64)."""
    parts = [np.arange(first, first + n, dtype=np.int64) for first, n in rows.ranges]
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)


def spans(n: int, size: int, least: int = 1) -> list[tuple[int, int]]:
    """(start, stop) of consecutive blocks of ``size`` rows over ``n`` rows; a last block shorter than
    ``least`` joins the one before it."""
    out = [(s, min(s + size, n)) for s in range(0, n, max(size, 1))]
    if len(out) > 1 and out[-1][1] - out[-1][0] < least:
        out[-2:] = [(out[-2][0], n)]
    return out


class RowReader:
    """Rows of a RowBlocks at given positions, read into a reused float32 buffer (never all rows)."""

    def __init__(self, rows: RowBlocks) -> None:
        if rows.mean is not None:
            raise ValueError("RowReader reads rows as stored: z-score them into a file first (RowBlocks.copied)")
        self.rows, self.file_rows = rows, _file_rows(rows)
        self._buffer = np.empty((0, rows.width), dtype=np.float32)

    def read(self, idx: np.ndarray) -> np.ndarray:
        """Rows at positions ``idx`` in ``idx``'s order (a view of the buffer, valid until the next read)."""
        idx = np.asarray(idx, dtype=np.int64)
        if len(self._buffer) < len(idx):
            self._buffer = np.empty((len(idx), self.rows.width), dtype=np.float32)
        out = self._buffer[:len(idx)]
        wanted = self.file_rows[idx]
        order = np.argsort(wanted, kind="stable")  # read in the file's order, each row to its place
        ordered = wanted[order]
        row_bytes = 4 * self.rows.width
        fd = os.open(self.rows.path, os.O_RDONLY)
        try:
            for run in np.split(np.arange(len(order)), np.flatnonzero(np.diff(ordered) != 1) + 1):
                places = order[run]
                if places[-1] - places[0] + 1 == len(places) and np.all(np.diff(places) == 1):
                    views = [memoryview(out[places[0]:places[-1] + 1]).cast("B")]  # one piece: rows in order
                else:
                    views = [memoryview(out[k]).cast("B") for k in places]
                self._scatter(fd, int(ordered[run[0]]) * row_bytes, views)
        finally:
            os.close(fd)
        return out

    def span(self, start: int, stop: int) -> np.ndarray:
        """Rows ``start:stop`` (a view of the buffer, valid until the next read)."""
        return self.read(np.arange(start, stop, dtype=np.int64))

    def _scatter(self, fd: int, offset: int, views: list[memoryview]) -> None:
        """Fill ``views`` in turn from consecutive file bytes at ``offset`` (at most 512 views a call)."""
        for at in range(0, len(views), 512):
            group = views[at:at + 512]
            want = sum(v.nbytes for v in group)
            if os.preadv(fd, group, offset) != want:
                raise OSError(f"{self.rows.path}: short read of {want} bytes at byte {offset}")
            offset += want


def input_blocks(x: Rows, blocks: list[tuple[int, int]]) -> Iterator[np.ndarray]:
    """The rows of each (start, stop) block of an input, float32 and C-contiguous (on disk: one reused buffer)."""
    reader = RowReader(x) if isinstance(x, RowBlocks) else None
    for start, stop in blocks:
        yield (reader.span(start, stop) if reader is not None
               else np.ascontiguousarray(x[start:stop], dtype=np.float32))


class FoldedInput:
    """Forward and backward of ``model[0:2]`` on rows of a fixed training matrix ``x`` (None: a subclass
    supplies each batch's x̂, :meth:`_rows_of`)."""

    def __init__(self, model: nn.Sequential, x: torch.Tensor | None):
        import torch

        self.norm, self.first = model[0], model[1]
        h, d = self.first.weight.shape
        self._folded, self._grad = torch.empty(h, d), torch.empty(h, d)
        self._panel, self._panel_product = torch.empty(h, min(PANEL, d)), torch.empty(h, min(PANEL, d))
        if x is not None:
            self.x_hat = self._normalised(x)
            self._rows = torch.empty(0)
            self._batch = self.x_hat[:0]

    def _normalised(self, x: torch.Tensor) -> torch.Tensor:
        """x̂ of each row of ``x`` (the LayerNorm without its affine part)."""
        import torch

        return torch.nn.functional.layer_norm(x, self.norm.normalized_shape, None, None, self.norm.eps)

    def _rows_of(self, idx: torch.Tensor) -> torch.Tensor:
        """x̂ of training rows ``idx``, in that order."""
        import torch

        if len(self._rows) < len(idx):
            self._rows = torch.empty(len(idx), self.x_hat.shape[1])
        return torch.index_select(self.x_hat, 0, idx, out=self._rows[:len(idx)])

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """The block's output for training rows ``idx``, a leaf whose ``grad`` feeds :meth:`backward`."""
        import torch

        self._batch = self._rows_of(idx)
        with torch.no_grad():
            w, norm = self.first.weight, self.norm
            torch.mul(w, norm.weight, out=self._folded)
            out = torch.addmm(torch.addmv(self.first.bias, w, norm.bias), self._batch, self._folded.t())
        return out.requires_grad_()

    def backward(self, out: torch.Tensor) -> None:
        """Set the gradients of γ, β, W and b from the gradient that reached ``out``."""
        import torch

        delta = out.grad
        with torch.no_grad():
            w, norm = self.first.weight, self.norm
            s, delta_t = delta.sum(0), delta.t()
            gamma_grad = torch.empty_like(norm.weight)
            for start in range(0, w.shape[1], PANEL):  # one panel of G's columns at a time, in the cache
                stop = min(start + PANEL, w.shape[1])
                g = torch.mm(delta_t, self._batch[:, start:stop], out=self._panel[:, :stop - start])
                product = torch.mul(w[:, start:stop], g, out=self._panel_product[:, :stop - start])
                torch.sum(product, 0, out=gamma_grad[start:stop])
                torch.mul(g, norm.weight[start:stop], out=self._grad[:, start:stop]).addr_(s, norm.bias[start:stop])
            norm.weight.grad = gamma_grad
            norm.bias.grad = torch.mv(w.t(), s)
            self.first.bias.grad = s
            self.first.weight.grad = self._grad


class StreamedInput(FoldedInput):
    """:class:`FoldedInput` on training rows that stay on disk: each step reads the batch's rows and
    normalises them (x̂ is never formed for the whole training set)."""

    def __init__(self, model: nn.Sequential, rows: RowBlocks):
        super().__init__(model, None)
        self.reader = RowReader(rows)

    def _rows_of(self, idx: torch.Tensor) -> torch.Tensor:
        """x̂ of training rows ``idx``, in that order: the rows read from the file, normalised."""
        import torch

        return self._normalised(torch.from_numpy(self.reader.read(idx.numpy())))


def folded_input(model: nn.Sequential, x: Rows) -> FoldedInput:
    """The training loop's input block over an input in memory or on disk."""
    import torch

    if isinstance(x, RowBlocks):
        return StreamedInput(model, x)
    return FoldedInput(model, torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32)))
