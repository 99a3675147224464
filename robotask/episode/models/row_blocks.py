"""Rows of a task's inputs kept on disk and read in pieces: one block at a time, never the whole matrix.

A task's float32 inputs over a collection live in one raw row-major file per task (``RowFile``): each
episode appends its rows once, and a :class:`RowBlocks` names the row ranges of a split's side (one range
per episode, in the order of the merged task). Iterating reads one block at a time into one reused
buffer with ``readinto`` (no memory map: mapped pages would count in the process's resident memory until
unmapped, so a pass over the collection would look like holding it), z-scores it in place when a scaler
is attached, and yields it. A block is one range, or, given a number of rows, that many consecutive rows
whatever the episode boundaries (the last block shorter): memory is one block whatever the collection's or
an episode's size, and a block of a few MB stays in the CPU's cache while a head passes over it twice.

Raw float32 and not ``.npz`` or Zarr: a row range is one contiguous read at a computed offset, with no
decompression and no chunk index; the file is scratch, written and read by one run.
:func:`streamed_moments` is the z-scaler of :class:`minimal.ZScaler` from two streamed passes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

import numpy as np

from .minimal import ORIGINAL_STD_FLOOR, ZScaler


class RowFile:
    """An append-only raw float32 row file of a fixed width; :meth:`append` returns the rows' range."""

    def __init__(self, path: str | os.PathLike, width: int) -> None:
        self.path, self.width, self.rows = Path(path), int(width), 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_bytes(b"")

    def append(self, x: np.ndarray) -> tuple[int, int]:
        """Append ``x`` (n, width) as float32; returns (first row, n)."""
        x = np.ascontiguousarray(x, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.width:
            raise ValueError(f"{self.path.name}: rows of width {x.shape[1:]} appended to a file of width {self.width}")
        with open(self.path, "ab") as f:
            f.write(x.tobytes())
        first, self.rows = self.rows, self.rows + len(x)
        return first, len(x)


@dataclass(frozen=True)
class RowBlocks:
    """Row ranges ``(first, n)`` of a raw float32 file of ``width`` columns, read one block at a time.

    ``mean`` / ``std`` (float32) z-score each block on read exactly as ``ZScaler.transform`` does.
    """

    path: Path
    width: int
    ranges: tuple[tuple[int, int], ...]
    mean: np.ndarray | None = field(default=None, compare=False)
    std: np.ndarray | None = field(default=None, compare=False)

    @property
    def n_rows(self) -> int:
        """Rows over all ranges."""
        return int(sum(n for _, n in self.ranges))

    def largest_block(self, max_rows: int = 0) -> int:
        """Rows of the largest block :meth:`blocks` yields with ``max_rows`` (at most ``max_rows``; 0: the
        longest range), for buffers that must hold any block."""
        return max((sum(n for _, n in g) for g in _group(self.ranges, max_rows)), default=0)

    def scaled(self, scaler: ZScaler) -> RowBlocks:
        """The same rows, z-scored with ``scaler`` on read."""
        return replace(self, mean=scaler.mean, std=scaler.std)

    def blocks(self, max_rows: int = 0, from_row: int = 0) -> Iterator[tuple[slice, np.ndarray]]:
        """(row slice over all ranges, float32 block) per range, or with ``max_rows`` > 0 per ``max_rows``
        consecutive rows over all ranges (block k holds rows k·max_rows to (k + 1)·max_rows).

        Blocks that end at or before ``from_row`` are skipped unread. The block is a reused buffer: use it
        before asking for the next one.
        """
        groups = _group(self.ranges, max_rows)
        if not groups:
            return
        buffer = np.empty((self.largest_block(max_rows), self.width), dtype=np.float32)
        at = 0
        with open(self.path, "rb", buffering=0) as f:
            for group in groups:
                size = sum(n for _, n in group)
                if at + size <= from_row:
                    at += size
                    continue
                filled = 0
                for first, n in group:
                    self._read_into(f, first, buffer[filled:filled + n])
                    filled += n
                block = buffer[:filled]
                if self.mean is not None:
                    block -= self.mean
                    block /= self.std
                yield slice(at, at + filled), block
                at += filled

    def copied(self, path: str | os.PathLike) -> RowBlocks:
        """These rows as read (z-scored if a scaler is attached) written once to a new file, range by range:
        a head's passes then read them without scaling each time."""
        file = RowFile(path, self.width)
        ranges = [file.append(block) for _, block in self.blocks()]
        return RowBlocks(file.path, self.width, tuple(ranges))

    def __iter__(self) -> Iterator[np.ndarray]:
        for _, block in self.blocks():
            yield block

    def gather(self) -> np.ndarray:
        """All rows in memory (for the MLP only; the minimal heads stream)."""
        out = np.empty((self.n_rows, self.width), dtype=np.float32)
        for rows, block in self.blocks():
            out[rows] = block
        return out

    def read(self, start: int, stop: int) -> np.ndarray:
        """Rows ``start:stop`` over all ranges (unscaled), read into a new array."""
        out = np.empty((max(stop - start, 0), self.width), dtype=np.float32)
        at, filled = 0, 0
        with open(self.path, "rb", buffering=0) as f:
            for first, n in self.ranges:
                lo, hi = max(start, at), min(stop, at + n)
                if lo < hi:
                    self._read_into(f, first + lo - at, out[filled:filled + hi - lo])
                    filled += hi - lo
                at += n
                if at >= stop:
                    break
        return out

    def _read_into(self, f: BinaryIO, first: int, dest: np.ndarray) -> None:
        """Read ``len(dest)`` file rows from row ``first`` of the open file ``f`` into ``dest`` (float32 rows)."""
        f.seek(first * self.width * 4)
        view = memoryview(dest).cast("B")
        if f.readinto(view) != view.nbytes:
            raise OSError(f"{self.path}: short read of rows {first}..{first + len(dest)}")

    def matrix(self, owned: bool = False) -> LazyRows:
        """These rows as a :class:`LazyRows` matrix read from the file a slice at a time (``owned``: the
        matrix owns the file, which its :meth:`LazyRows.discard` deletes)."""
        return LazyRows(self.n_rows, self.width, np.dtype(np.float32), self.read, self.path if owned else None)


class LazyRows:
    """A read-only (n, width) matrix whose rows are produced on demand: ``read(start, stop)`` returns rows
    ``start:stop`` as a new array (from a file, or computed from other rows).

    Slicing rows gives another LazyRows (nothing is read); an index array or a boolean mask reads those
    rows; ``np.asarray`` reads them all (for the small ones: one episode's rows). :meth:`mean` is
    ``ndarray.mean`` over rows with NumPy's order of additions (rows added in order into one running
    row), so the column means keep their bits. ``path`` is the file it reads, when it owns one
    (:meth:`discard` deletes it).
    """

    ndim = 2

    def __init__(self, n_rows: int, width: int, dtype: np.dtype, read: Callable[[int, int], np.ndarray],
                 path: Path | None = None, start: int = 0) -> None:
        self.shape, self.dtype, self.path = (int(n_rows), int(width)), np.dtype(dtype), path
        self._read, self._start = read, start

    def __len__(self) -> int:
        return self.shape[0]

    def rows(self, start: int, stop: int) -> np.ndarray:
        """Rows ``start:stop`` (clipped to the matrix) in memory."""
        start, stop = max(start, 0), min(stop, self.shape[0])
        if stop <= start:
            return np.empty((0, self.shape[1]), dtype=self.dtype)
        return np.asarray(self._read(self._start + start, self._start + stop), dtype=self.dtype)

    def __getitem__(self, key: slice | np.ndarray) -> LazyRows | np.ndarray:
        if isinstance(key, slice):
            start, stop, step = key.indices(self.shape[0])
            if step != 1:
                raise IndexError("LazyRows: row slices take no step")
            stop = max(stop, start)
            return LazyRows(stop - start, self.shape[1], self.dtype, self._read, None, self._start + start)
        idx = np.asarray(key)
        if idx.dtype == bool:
            idx = np.flatnonzero(idx)
        idx = idx.astype(np.int64, copy=False).reshape(-1)
        if len(idx) == 0:
            return self.rows(0, 0)
        lo, hi = int(idx.min()), int(idx.max()) + 1
        if hi - lo == len(idx) and np.all(np.diff(idx) == 1):
            return self.rows(lo, hi)
        out = np.empty((len(idx), self.shape[1]), dtype=self.dtype)
        for at in range(0, len(idx), 256):  # rows read in order of their position, 256 at a time
            part = idx[at:at + 256]
            a, b = int(part.min()), int(part.max()) + 1
            out[at:at + 256] = self.rows(a, b)[part - a]
        return out

    def __array__(self, dtype: np.dtype | None = None, copy: bool | None = None) -> np.ndarray:
        whole = self.rows(0, self.shape[0])
        return whole if dtype is None else whole.astype(dtype, copy=False)

    def blocks(self, max_rows: int) -> Iterator[tuple[slice, np.ndarray]]:
        """(row slice, rows in memory) per ``max_rows`` consecutive rows."""
        for start in range(0, self.shape[0], max(max_rows, 1)):
            stop = min(start + max_rows, self.shape[0])
            yield slice(start, stop), self.rows(start, stop)

    def mean(self, axis: int = 0, dtype: type | None = None, keepdims: bool = False) -> np.ndarray:
        """``ndarray.mean(axis=0)`` in the same bits: rows added in order into one running row (in ``dtype``,
        else the rows' float dtype), divided by the number of rows as NumPy divides."""
        if axis != 0:
            raise ValueError("LazyRows.mean: rows only (axis 0)")
        total = None
        for _, block in self.blocks(max(1, (4 << 20) // (4 * max(self.shape[1], 1)))):
            for row in block:
                if total is None:  # NumPy starts from the first row, not from zeros
                    total = row.astype(dtype or self.dtype)
                else:
                    total += row
        if total is None:
            total = np.zeros(self.shape[1], dtype=dtype or self.dtype)
        total = np.true_divide(total, np.intp(self.shape[0]), out=total, casting="unsafe")
        return total[None, :] if keepdims else total

    def discard(self) -> None:
        """Delete the file this matrix owns (its rows cannot be read after)."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)

    @classmethod
    def computed(cls, n_rows: int, width: int, dtype: type, rows: Callable[[int, int], np.ndarray]) -> LazyRows:
        """A matrix whose rows ``rows(start, stop)`` computes (e.g. a difference of two matrices' rows)."""
        return cls(n_rows, width, np.dtype(dtype), rows)


def _group(ranges: tuple[tuple[int, int], ...], max_rows: int) -> list[list[tuple[int, int]]]:
    """The pieces of file rows each block reads: one range per block (``max_rows`` 0), or the ranges' rows
    in order cut every ``max_rows`` rows (a block may join the end of one range to the start of the next)."""
    if max_rows <= 0:
        return [[(first, n)] for first, n in ranges if n > 0]
    groups: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    size = 0
    for first, n in ranges:
        while n > 0:
            take = min(n, max_rows - size)
            current.append((first, take))
            first, n, size = first + take, n - take, size + take
            if size == max_rows:
                groups.append(current)
                current, size = [], 0
    if current:
        groups.append(current)
    return groups


def streamed_moments(rows: RowBlocks, floor: float = ORIGINAL_STD_FLOOR) -> ZScaler:
    """``ZScaler.fit`` over all rows, from two streamed passes (float64 sums, then centred squares)."""
    total = np.zeros(rows.width)
    for block in rows:
        total += block.sum(axis=0, dtype=np.float64)
    mean = total / max(rows.n_rows, 1)
    var = np.zeros(rows.width)
    buffer = np.empty((0, rows.width))
    for block in rows:
        if len(buffer) < len(block):
            buffer = np.empty((len(block), rows.width))
        part = np.subtract(block, mean, out=buffer[:len(block)])
        var += np.einsum("ij,ij->j", part, part)
    std = np.sqrt(var / max(rows.n_rows, 1))
    std = np.where(std < floor, 1.0, std)
    return ZScaler(mean.astype(np.float32), std.astype(np.float32))
