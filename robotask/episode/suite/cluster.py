"""The minimal heads' epoch gradients on a Dask cluster (``robotask suite --collection --workers / --scheduler``).

A head's training rows stay where ``models.row_blocks`` wrote them (a folder every worker sees, as the
feature cache must be). They are cut into one batch per worker thread, in order, at the boundaries of the
cache-sized blocks that ``models.streamed`` sums over in one process (a batch may end inside an episode).
For each epoch the driver sends the weights (d × c) to every batch; each computes its blocks' shares
``Rᵀ X``, ``Σ R``, the loss and the correct count (``models.streamed.partial_gradient``) side by side
with the others. The shares are then added in block order, as one process adds them: the first batch
sums its own from zero, and each next batch adds its kept shares to the running sum it is handed. Only
weights and sums cross the network, never a feature matrix, and the fit is bit for bit the one process's,
whatever the number of workers or which worker ran what. The price: each batch but the first keeps its
blocks' shares until its turn (c × d float32 per block: 1 MB per 122 rows of the 8,546-d features with
29 classes), and an epoch is one round trip to every batch side by side plus one more to each batch
after the first, one after another.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import robotask.episode.models.streamed as S
from robotask.episode.models.row_blocks import RowBlocks

Sums = tuple[np.ndarray, np.ndarray, float, int]  # (Σ Rᵀ X (c, d) float64, Σ R, Σ loss, correct), in block order


def _rows_between(rows: RowBlocks, start: int, stop: int) -> RowBlocks:
    """The rows ``start`` to ``stop`` (counted over all ranges) of ``rows``, as ranges of the same file."""
    ranges, at = [], 0
    for first, n in rows.ranges:
        lo, hi = max(start, at), min(stop, at + n)
        if lo < hi:
            ranges.append((first + lo - at, hi - lo))
        at += n
    return replace(rows, ranges=tuple(ranges))


def batches(rows: RowBlocks, n: int) -> list[tuple[RowBlocks, slice]]:
    """At most ``n`` batches of consecutive rows, in order, of about equal numbers of whole blocks of
    ``models.streamed``'s size: each batch's blocks are the one process's blocks, so are their sums."""
    size, total = S.block_rows(rows.width), rows.n_rows
    blocks = -(-total // size)
    m = max(1, min(n, blocks))
    cuts = sorted({min(total, (k * blocks // m) * size) for k in range(m + 1)})
    return [(_rows_between(rows, a, b), slice(a, b)) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]


def worker_slots(client: Any) -> list[str]:
    """One worker address per worker thread, in a stable order: the place of each batch."""
    return [address for address, threads in sorted(client.nthreads().items()) for _ in range(threads)]


def _zero_sums(W32: np.ndarray, b: np.ndarray) -> Sums:
    """The running sum before any block, as :func:`models.streamed.summed_gradient` starts it."""
    return np.zeros((W32.shape[1], W32.shape[0])), np.zeros_like(b), 0.0, 0


def _added(sums: Sums, parts: Any) -> Sums:
    """``sums`` plus each share of ``parts`` in order, each entry added as ``summed_gradient`` adds it."""
    gWt, gb, loss, correct = sums
    for part in parts:
        gWt += part[0]
        gb += part[1]
        loss += part[2]
        correct += part[3]
    return gWt, gb, loss, correct


class BatchActor:
    """One batch of rows, kept for a head's fit on the worker that computes its share of every epoch (a
    Dask actor: each epoch's calls go straight to that worker, not through the scheduler)."""

    def __init__(self, kind: str, part: tuple[RowBlocks, np.ndarray, np.ndarray]) -> None:  # noqa: D107
        self.kind = kind
        self.rows, self.target, self.weight = part
        self.parts: list[tuple] = []

    def _shares(self, W32: np.ndarray, b: np.ndarray) -> Any:
        for sl, x in S._blocks(self.rows):  # noqa: SLF001 - the very blocks of the one-process sum
            yield S.partial_gradient(self.kind, x, self.target[sl], self.weight[sl], W32, b)

    def first(self, W32: np.ndarray, b: np.ndarray) -> Sums:
        """The first batch: its blocks' shares summed from zero (on one BLAS thread)."""
        with threadpool_limits(1, user_api="blas"):
            return _added(_zero_sums(W32, b), self._shares(W32, b))

    def keep(self, W32: np.ndarray, b: np.ndarray) -> int:
        """A later batch: compute its blocks' shares and keep them for :meth:`add`; returns their count."""
        with threadpool_limits(1, user_api="blas"):
            self.parts = list(self._shares(W32, b))
        return len(self.parts)

    def add(self, sums: Sums) -> Sums:
        """The running sum of the batches before this one, plus this batch's kept shares in order."""
        parts, self.parts = self.parts, []
        return _added(sums, parts)


POLL_SECONDS = 0.5  # how often a wait for a worker looks whether the worker is still there


class WorkerLost(RuntimeError):
    """A batch's worker (or the scheduler) went away: the head's fit fails, the suite reports that task failed."""


ACTOR_LOST = "Worker holding Actor was lost"
"""Distributed's ``RuntimeError`` for an actor whose worker died: from the scheduler, for the actor's creation,
or from the actor's handle, for a call made after the death is known."""


def _wait(client: Any, future: Any, address: str) -> Any:
    """``future.result()``, or :class:`WorkerLost` once the worker at ``address`` or the scheduler is gone (a
    task pinned to a worker that died would wait for it forever; an actor's call to a worker that died raises
    ``OSError``, "Unable to contact Actor's worker", and an actor whose worker died, :data:`ACTOR_LOST`)."""
    while True:
        try:
            return future.result(timeout=POLL_SECONDS)
        except TimeoutError:  # a subclass of OSError: first
            if client.status != "running":
                raise WorkerLost("the scheduler was lost") from None
            try:
                here = address in client.nthreads()
            except OSError:
                here = False
            if not here:
                raise WorkerLost(f"worker {address} was lost") from None
        except OSError:
            raise WorkerLost(f"worker {address} was lost") from None
        except RuntimeError as exc:
            if ACTOR_LOST not in str(exc):
                raise
            raise WorkerLost(f"worker {address} was lost") from None


def _call(actor: Any, method: str, address: str, *args: Any) -> Any:
    """``actor.method(*args)`` (its future), or :class:`WorkerLost` when the actor's worker is known dead (the
    handle then raises :data:`ACTOR_LOST` on the attribute)."""
    try:
        return getattr(actor, method)(*args)
    except RuntimeError as exc:
        if ACTOR_LOST not in str(exc):
            raise
        raise WorkerLost(f"worker {address} was lost") from None


def batch_actors(client: Any, kind: str, rows: RowBlocks, target: np.ndarray, weight: np.ndarray) -> list[Any]:
    """A :class:`BatchActor` per batch of ``rows`` (:func:`batches`), batch i on worker thread i
    (:func:`worker_slots`)."""
    slots = worker_slots(client)
    if not slots:
        raise WorkerLost("the cluster has no worker left")
    return [_wait(client, client.submit(BatchActor, kind, (blocks, target[sl], weight[sl]), workers=[slots[i]],
                                        actor=True, pure=False), slots[i])
            for i, (blocks, sl) in enumerate(batches(rows, len(slots)))]


def dask_gradients(client: Any) -> S.GradientFactory:
    """A gradient factory for ``suite.fit.run_minimal_streamed``: each epoch's sums computed on ``client``.

    Each batch is an actor pinned to its own worker (:func:`batch_actors`), which keeps the batch's targets and
    weights and reads its rows from the shared folder. Measured on two local workers: a call's round trip took
    about 8 ms where a task (weights scattered, task submitted, result gathered) took 28 ms, and left to itself
    the scheduler had run both batches' tasks on one worker, one after another. A lost worker fails its head's
    fit, which the suite reports as that task's failure.
    """
    def factory(kind: str, rows: RowBlocks, target: np.ndarray, weight: np.ndarray) -> S.Gradient:
        actors = batch_actors(client, kind, rows, target, weight)
        places = [actor._address for actor in actors]  # noqa: SLF001 - where each batch lives

        def gradient(W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, int]:
            w32 = W.astype(np.float32)
            head = _call(actors[0], "first", places[0], w32, b)
            later = [_call(actor, "keep", place, w32, b)  # in flight side by side with the first
                     for actor, place in zip(actors[1:], places[1:])]
            sums = _wait(client, head, places[0])
            for call, place in zip(later, places[1:]):
                _wait(client, call, place)
            for actor, place in zip(actors[1:], places[1:]):
                sums = _wait(client, _call(actor, "add", place, sums), place)
            gWt, gb, loss, correct = sums
            return gWt.T, gb, loss, correct
        return gradient
    return factory
