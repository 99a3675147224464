"""``robotask suite --collection --heads mlp``: the MLP reads its minibatches from a scratch file beside the
store (never the gathered rows) and gives the bits of the MLP trained on the gathered rows."""

from __future__ import annotations

import numpy as np
import pytest

from robotask.episode.models.mlp import MLPConfig
from robotask.episode.models.row_blocks import RowBlocks
from robotask.episode.suite.fit import SuiteConfig, run_mlp, split_rows, standardize_streamed
from robotask.episode.tasks.splits import episode_split
from robotask.episode.unseen.held_out import run_store_task

# a classifier, the wide regression targets on disk (hand future), a multi-label head, retrieval's wide targets
TASKS = ["timeline_action", "hand_trajectory_forecast", "object_relevance", "cross_modal_retrieval"]
CFG = SuiteConfig(softmax_epochs=5, mlp=MLPConfig(epochs=4, patience=2), save_models=False)


def _gathered_mlp(store, task, split, proto):
    """The MLP as the collection suite trained it before: on all z-scored rows gathered in memory."""
    data, rows = store.task_data(task, split, proto, with_validation=True)
    train, _ = split_rows(rows, data)
    return run_mlp(data, rows.scaled(standardize_streamed(data, train, proto)).gather(), proto, CFG), rows


@pytest.mark.parametrize("task", TASKS)
def test_store_mlp_reads_minibatches_from_disk_with_the_gathered_rows_bits(small_store, task, monkeypatch):
    collection, _, store, proto = small_store
    split = episode_split(collection.episodes, 0.3, None, 0)
    expected, rows = _gathered_mlp(store, task, split, proto)
    monkeypatch.setattr(RowBlocks, "gather", lambda self: pytest.fail("the MLP gathered its rows"))
    result, _ = run_store_task(task, store, split, proto, ["mlp"], None, CFG)
    assert result.status == "ok"
    got = result.outputs["mlp"]
    assert np.array_equal(np.asarray(got.pred), np.asarray(expected.pred))
    assert (got.proba is None) == (expected.proba is None)
    if got.proba is not None:
        assert np.array_equal(got.proba, expected.proba)
    scored = {k: v for k, v in got.train_final.items() if k != "ranks"}  # scoring adds retrieval's ranks
    assert scored == expected.train_final and got.history == expected.history
    assert result.metrics["mlp"]["best_epoch"] == expected.train_final["best_epoch"]
    assert not list(rows.path.parent.glob("*.mlp.z"))  # the scratch rows are deleted after the fit
