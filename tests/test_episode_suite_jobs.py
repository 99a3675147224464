"""``run_suite(jobs=2)`` (``robotask suite --jobs 2``) writes exactly what one process writes."""

from __future__ import annotations

import filecmp

from test_episode_tasks import fake_window_set  # the tests' small WindowSet on which every task runs

from robotask.episode.models.mlp import MLPConfig
from robotask.episode.suite.execution import run_suite
from robotask.episode.suite.fit import SuiteConfig
from robotask.episode.suite.jobs import task_groups
from robotask.episode.tasks.registry import TASK_IDS


def _tree(root):
    return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())


def test_two_processes_write_the_same_files_as_one(tmp_path):
    ws = fake_window_set()
    cfg = SuiteConfig(softmax_epochs=40, mlp=MLPConfig(epochs=2), save_models=True)
    tasks = "timeline_action,cross_modal_retrieval,modality_reconstruction,temporal_order,contact_prediction"
    one = run_suite(ws, tasks, "minimal,mlp", "improved", tmp_path / "one", cfg, progress=False, jobs=1)
    two = run_suite(ws, tasks, "minimal,mlp", "improved", tmp_path / "two", cfg, progress=False, jobs=2)
    assert list(two["results"]) == list(one["results"])  # the report keeps the registry order
    assert two["primary"] == one["primary"]
    assert sum(r.ok for r in two["results"].values()) >= 4
    files = _tree(tmp_path / "one")
    assert files == _tree(tmp_path / "two") and len(files) > 20
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "one", tmp_path / "two", files, shallow=False)
    assert not mismatch and not errors


def test_tasks_that_share_a_model_stay_in_one_group():
    groups = task_groups(list(TASK_IDS))
    assert sorted(t for g in groups for t in g) == sorted(TASK_IDS)
    assert ["cross_modal_retrieval", "modality_reconstruction"] in groups
    assert {groups[0][0], groups[1][0]} == {"temporal_order", "misalignment_detection"}  # the widest first


def test_a_task_process_that_dies_gives_a_clear_error(monkeypatch):
    import os

    import pytest

    from robotask.episode.suite import jobs as suite_jobs
    from robotask.errors import RobotaskError

    def die(group):
        os._exit(9)  # as the kernel's out-of-memory killer would end it

    with pytest.raises(RobotaskError, match="--jobs 1"):
        list(suite_jobs.map_groups(die, [["a"], ["b"]], 2))

