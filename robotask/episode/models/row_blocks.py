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
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

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
                    f.seek(first * self.width * 4)
                    view = memoryview(buffer[filled:filled + n]).cast("B")
                    if f.readinto(view) != view.nbytes:
                        raise OSError(f"{self.path}: short read of rows {first}..{first + n}")
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
