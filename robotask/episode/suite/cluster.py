"""The minimal heads' epoch gradients on a Dask cluster (``robotask suite --collection --workers / --scheduler``).

A head's training rows stay where ``models.row_blocks`` wrote them (a folder every worker sees, as the
feature cache must be); the partitions are episodes (their row ranges), dealt in order into one batch
per worker thread. For each epoch the driver sends the weights (d × c) to every batch and receives
``Rᵀ X``, ``Σ R``, the loss and the correct count (``models.streamed.partial_gradient`` summed over the
batch's blocks): only weights and gradients cross the network, never a feature matrix. The sums are
added in batch order, so the fit does not depend on which worker ran what.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import robotask.episode.models.streamed as S
from robotask.episode.models.row_blocks import RowBlocks


def batch_gradient(kind: str, rows: RowBlocks, target: np.ndarray, weight: np.ndarray, W32: np.ndarray,
                   b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
    """One batch of episode partitions' share of an epoch (runs on a worker), its product as Rᵀ X (c, d), the
    layout :func:`models.streamed.summed_gradient` adds."""
    gW, gb, loss, correct = S.local_gradient(kind, rows, target, weight)(W32.astype(np.float64), b)
    return gW.T, gb, loss, correct


def batches(rows: RowBlocks, n: int) -> list[tuple[RowBlocks, slice]]:
    """The partitions (row ranges) dealt in order into at most ``n`` batches of about equal rows."""
    sizes = np.array([size for _, size in rows.ranges])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    which = (starts * n) // max(int(sizes.sum()), 1)
    out = []
    for k in dict.fromkeys(which.tolist()):
        pick = np.flatnonzero(which == k)
        first, stop = int(starts[pick[0]]), int(starts[pick[-1]] + sizes[pick[-1]])
        out.append((replace(rows, ranges=tuple(rows.ranges[i] for i in pick)), slice(first, stop)))
    return out


def worker_slots(client: Any) -> list[str]:
    """One worker address per worker thread, in a stable order: the place of each batch."""
    return [address for address, threads in sorted(client.nthreads().items()) for _ in range(threads)]


def dask_gradients(client: Any) -> S.GradientFactory:
    """A gradient factory for ``suite.fit.run_minimal_streamed``: each epoch's sums computed on ``client``.

    Batch i is placed on worker thread i (:func:`worker_slots`), its data and every epoch's task: left to
    itself the scheduler ran all the batches on one worker, one after another (measured: two workers slower
    than one process). The placement is a preference (``allow_other_workers``): when a worker is lost, its
    batch runs elsewhere.
    """
    def factory(kind: str, rows: RowBlocks, target: np.ndarray, weight: np.ndarray) -> S.Gradient:
        slots = worker_slots(client)
        parts = [(slots[i % len(slots)], client.scatter((blocks, target[sl], weight[sl]), direct=False,
                                                         workers=[slots[i % len(slots)]], hash=False))
                 for i, (blocks, sl) in enumerate(batches(rows, len(slots)))]

        def gradient(W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
            # a new key each epoch: equal weights in two epochs would share one that the first release drops
            w32 = client.scatter(W.astype(np.float32), broadcast=True, hash=False)
            futures = [client.submit(_on_worker, kind, part, w32, b, pure=False, workers=[where],
                                     allow_other_workers=True) for where, part in parts]
            return S.summed_gradient(W, b, client.gather(futures))
        return gradient
    return factory


def _on_worker(kind: str, part: tuple[RowBlocks, np.ndarray, np.ndarray], W32: np.ndarray,
               b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
    rows, target, weight = part
    with threadpool_limits(1, user_api="blas"):
        return batch_gradient(kind, rows, target, weight, W32, b)
