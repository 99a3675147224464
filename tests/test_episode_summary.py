"""The suite summary reads the task chapters' written results: one row per task and schedule."""

import pytest

from robotask.episode.report import summary
from robotask.episode.suite import execution as suite
from robotask.episode.tasks.registry import TASKS
from robotask.errors import RobotaskError
from robotask.io import write_json


def _write(root, schedules=("repeating", "sample-like"), protocols=("improved", "original")):
    for k, task in enumerate(TASKS):
        spec = TASKS[task]
        runs = {s: {p: {"status": "ok", "notes": [],
                        "primary": {"metric": spec.primary_metric, "higher_is_better": spec.higher_is_better,
                                    "baseline": 0.1, "minimal": 0.01 * k, "mlp": 0.02 * k + j}}
                    for j, p in enumerate(protocols)} for s in schedules}
        write_json(root / summary.chapter_id(task) / "summary.json", {"task": task, "runs": runs})


def test_one_row_per_task_and_schedule(tmp_path):
    _write(tmp_path)
    docs = summary.read_task_summaries(tmp_path)
    long = summary.primary_long(docs)
    assert summary.schedules_of(long) == ["repeating", "sample-like"]
    for schedule in summary.schedules_of(long):
        table = summary.summary_table(long, schedule, suite.PUBLISHED_REAL_SAMPLE)
        assert len(table) == len(TASKS)
        assert [t.split(" (")[0] for t in table["task"]] == [t.display_name for t in TASKS.values()]
        assert summary.protocols_of(long) == ["original", "improved"]
        pub = suite.PUBLISHED_REAL_SAMPLE
        assert table[summary.PUBLISHED_COLUMN].tolist() == [  # a true minus: "−0.015 / −0.010"
            f"{pub[t]['minimal']:.3f} / {pub[t]['mlp']:.3f}".replace("-", "−") for t in TASKS]
    table = summary.summary_table(long, "repeating")
    k = list(TASKS).index("next_action")
    assert table.loc[k, summary.column_name("improved", "mlp")] == pytest.approx(0.02 * k)
    assert table.loc[k, summary.column_name("original", "minimal")] == pytest.approx(0.01 * k)


def test_reads_written_results_and_names_what_is_missing(tmp_path):
    _write(tmp_path)
    (tmp_path / summary.chapter_id("temporal_order") / "summary.json").unlink()
    with pytest.raises(RobotaskError, match="12_task_temporal_order"):
        summary.read_task_summaries(tmp_path)
