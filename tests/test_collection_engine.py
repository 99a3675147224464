"""``robotask suite --collection`` with inputs on disk: the in-memory run's numbers, on Dask too, failures alone."""

from __future__ import annotations

import numpy as np
import pytest

import robotask.episode.models.streamed as S
from robotask.episode.features.distributed import close_client, open_client
from robotask.episode.suite.cluster import batch_actors, batches, dask_gradients, worker_slots
from robotask.episode.suite.fit import SuiteConfig
from robotask.episode.tasks.splits import episode_split
from robotask.episode.unseen.held_out import run_collection_suite, run_store_suite
from robotask.episode.unseen.task_data import load_window_sets

TASKS = ["timeline_action", "hand_trajectory_forecast", "object_relevance", "cross_modal_retrieval"]
CFG = SuiteConfig(softmax_epochs=25, save_models=False)


def _values(report: dict) -> dict:
    return {(t, h): p[h] for t, p in report["primary"].items() for h in ("baseline", "minimal")}


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], rel=1e-6, abs=1e-12), key


def test_store_run_equals_in_memory_run(small_store, monkeypatch):
    collection, root, store, proto = small_store
    split = episode_split(collection.episodes, 0.3, None, 0)
    before = run_collection_suite(load_window_sets(collection, root / "features"), split, TASKS, "minimal", proto,
                                  None, CFG, progress=False)
    after = run_store_suite(store, split, TASKS, "minimal", proto, None, CFG, progress=False)
    _same(_values(after), _values(before))
    assert after["num_windows"] == before["num_windows"] and after["num_frames"] == before["num_frames"]
    monkeypatch.setattr(S, "DUAL_BYTES", 0)  # streamed primal epochs: the same iterates to rounding
    primal = run_store_suite(store, split, TASKS, "minimal", proto, None, CFG, progress=False, keep=False)
    _same(_values(primal), _values(before))
    assert all(r.data is None and not r.outputs for r in primal["results"].values())  # the command keeps none


def test_on_two_dask_workers_only_gradients_travel_side_by_side_and_failures_stay_alone(small_store, monkeypatch):
    collection, _, store, proto = small_store
    split = episode_split(collection.episodes, 0.3, None, 0)
    monkeypatch.setattr(S, "DUAL_BYTES", 0)
    here = run_store_suite(store, split, TASKS, "minimal", proto, None, CFG, progress=False)
    client = open_client(workers=2)
    try:
        there = run_store_suite(store, split, TASKS, "minimal", proto, None, CFG, progress=False,
                                gradients=dask_gradients(client))

        def broken(kind, rows, target, weight):
            if kind == "multilabel":
                raise RuntimeError("worker lost")
            return dask_gradients(client)(kind, rows, target, weight)

        partly = run_store_suite(store, split, TASKS, "minimal", proto, None, CFG, progress=False, gradients=broken)
        _, rows = store.task_data("timeline_action", split, proto)
        monkeypatch.setattr(S, "block_rows", lambda width, *args, **kwargs: 32)  # batches are whole blocks: 2 here
        n, c = rows.n_rows, 3
        actors = batch_actors(client, "softmax", rows, np.eye(c)[np.arange(n) % c], np.full(n, 1 / n))
        placed = [actor._address for actor in actors]
        slots = worker_slots(client)
    finally:
        close_client(client)
    _same(_values(there), _values(here))
    assert partly["status"]["object_relevance"]["status"] == "failed"
    assert "worker lost" in partly["status"]["object_relevance"]["reason"]
    assert placed == slots and len(set(slots)) == 2  # one batch per worker, each pinned where it was put
    ok = partly["primary"]["timeline_action"]["minimal"]
    assert ok == pytest.approx(here["primary"]["timeline_action"]["minimal"], rel=1e-6)


def test_batches_deal_episode_ranges_in_order(small_store):
    _, _, store, proto = small_store
    data, rows = store.task_data("timeline_action", episode_split(small_store[0].episodes, 0.3, None, 0), proto)
    parts = batches(rows, 2)
    assert all(sl.start % S.block_rows(rows.width) == 0 for _, sl in parts)  # whole blocks of the one-process sum
    assert parts[0][1].start == 0 and parts[-1][1].stop == rows.n_rows
    assert np.array_equal(np.concatenate([b.gather() for b, _ in parts]), rows.gather())


def test_an_actor_whose_worker_died_is_a_lost_worker_however_distributed_says_it():
    """Distributed reports a dead actor's worker three ways (an OSError on a call, a RuntimeError from the scheduler
    for the actor's future, a RuntimeError from the handle's attribute); each is the one WorkerLost of a lost worker,
    which the suite reports as that task's failure. Any other error passes through."""
    from robotask.episode.suite import cluster

    class Failing:
        def __init__(self, exc: BaseException) -> None:
            self.exc = exc

        def result(self, timeout: float) -> None:
            raise self.exc

        def __getattr__(self, name: str):
            raise self.exc

    for exc in (OSError("Unable to contact Actor's worker"), RuntimeError("Worker holding Actor was lost")):
        with pytest.raises(cluster.WorkerLost, match="worker tcp://w:1 was lost"):
            cluster._wait(None, Failing(exc), "tcp://w:1")
    with pytest.raises(cluster.WorkerLost, match="worker tcp://w:1 was lost"):
        cluster._call(Failing(RuntimeError("Worker holding Actor was lost.  Status: lost")), "first", "tcp://w:1")
    for call in (lambda f: cluster._wait(None, f, "tcp://w:1"), lambda f: cluster._call(f, "first", "tcp://w:1")):
        with pytest.raises(RuntimeError, match="a bug") as info:
            call(Failing(RuntimeError("a bug")))
        assert not isinstance(info.value, cluster.WorkerLost)
