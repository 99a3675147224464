"""Running the suite and scoring it: one head on one task's data (``fit``: ``SuiteConfig``), the scores and
artifacts of a run (``scoring``), a task and the suite (``execution``: ``run_task`` → ``TaskResult``,
``run_suite``), the fits two tasks share kept in the cache for other processes (``shared_fits``: the task
pages), the plain notes on a run's numbers (``phrases``), task groups in processes (``jobs``) and the
options of ``robotask suite`` (``cli``, registered by :mod:`robotask.episode.cli`)."""

from .execution import (
    PUBLISHED_COVERAGE,
    PUBLISHED_REAL_SAMPLE,
    TaskResult,
    parse_heads,
    primary_table,
    run_suite,
    run_task,
)
from .fit import HeadOutput, SuiteConfig
from .jobs import default_jobs, map_groups

__all__ = [
    "HeadOutput", "PUBLISHED_COVERAGE", "PUBLISHED_REAL_SAMPLE", "SuiteConfig", "TaskResult", "default_jobs",
    "map_groups", "parse_heads", "primary_table", "run_suite", "run_task",
]
