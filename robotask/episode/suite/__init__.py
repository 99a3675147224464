"""Running the suite and scoring it: one head on one task's data (``fit``: ``SuiteConfig``), the scores and
artifacts of a run (``scoring``), a task and the suite (``execution``: ``run_task`` → ``TaskResult``,
``run_suite``), the plain notes on a run's numbers (``phrases``), task groups in processes (``jobs``) and the
options of ``robotask suite`` (``cli``, registered by :mod:`robotask.episode.cli`)."""

from .execution import (
    HEADS,
    PUBLISHED_COVERAGE,
    PUBLISHED_REAL_SAMPLE,
    TaskResult,
    load_windows,
    parse_heads,
    primary_table,
    run_suite,
    run_task,
)
from .fit import HeadOutput, SuiteConfig
from .jobs import default_jobs, map_groups, task_groups
from .phrases import task_notes

__all__ = [
    "HEADS",
    "PUBLISHED_COVERAGE",
    "PUBLISHED_REAL_SAMPLE",
    "TaskResult",
    "load_windows",
    "parse_heads",
    "primary_table",
    "run_suite",
    "run_task",
    "HeadOutput",
    "SuiteConfig",
    "default_jobs",
    "map_groups",
    "task_groups",
    "task_notes",
]
