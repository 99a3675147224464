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


class BatchActor:
    """One batch of episode partitions, kept for a head's fit on the worker that computes its share of every
    epoch (a Dask actor: each epoch's call goes straight to that worker, not through the scheduler)."""

    def __init__(self, kind: str, part: tuple[RowBlocks, np.ndarray, np.ndarray]) -> None:  # noqa: D107
        self.kind = kind
        self.rows, self.target, self.weight = part

    def gradient(self, W32: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
        """This batch's share of the epoch at weights ``W32``, bias ``b`` (on one BLAS thread)."""
        with threadpool_limits(1, user_api="blas"):
            return batch_gradient(self.kind, self.rows, self.target, self.weight, W32, b)


def batch_actors(client: Any, kind: str, rows: RowBlocks, target: np.ndarray, weight: np.ndarray) -> list[Any]:
    """A :class:`BatchActor` per batch of ``rows``' partitions, batch i on worker thread i (:func:`worker_slots`)."""
    slots = worker_slots(client)
    return [client.submit(BatchActor, kind, (blocks, target[sl], weight[sl]), workers=[slots[i % len(slots)]],
                          actor=True, pure=False).result()
            for i, (blocks, sl) in enumerate(batches(rows, len(slots)))]


def dask_gradients(client: Any) -> S.GradientFactory:
    """A gradient factory for ``suite.fit.run_minimal_streamed``: each epoch's sums computed on ``client``.

    Each batch is an actor pinned to its own worker (:func:`batch_actors`), which keeps the batch's targets and
    weights and reads its rows from the shared folder. An epoch is one call to each actor, in flight side by
    side, and the sums in batch order. Measured on two local workers: a call's round trip took about 8 ms where
    a task (weights scattered, task submitted, result gathered) took 28 ms, and left to itself the scheduler
    had run both batches' tasks on one worker, one after another. A lost worker fails its head's fit, which
    the suite reports as that task's failure.
    """
    def factory(kind: str, rows: RowBlocks, target: np.ndarray, weight: np.ndarray) -> S.Gradient:
        actors = batch_actors(client, kind, rows, target, weight)

        def gradient(W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
            w32 = W.astype(np.float32)
            calls = [actor.gradient(w32, b) for actor in actors]
            return S.summed_gradient(W, b, [call.result() for call in calls])
        return gradient
    return factory
