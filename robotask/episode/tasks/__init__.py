"""The twelve tasks and the two protocols: the registry (``registry``: ``TaskSpec``, ``TASKS``), the task
builders (``builders``: ``TaskData``), the protocols (``protocols``), episode splits (``splits``), the
metrics (``metrics``) and the trivial baselines (``baselines``)."""

from .builders import FUTURE_FRAMES, TaskData, TaskUnavailable
from .protocols import PROTOCOLS, Protocol, describe_fixes, get_protocol
from .registry import TASK_IDS, TASKS, TEST_FRACTION, VALIDATION_FRACTION, TaskSpec, get_task, parse_tasks, split
from .splits import (
    SPLITS,
    EpisodeSplit,
    check_disjoint,
    doubling_sizes,
    episode_split,
    group_kfold,
    learning_curve_splits,
)

__all__ = [
    "FUTURE_FRAMES",
    "TaskData",
    "TaskUnavailable",
    "PROTOCOLS",
    "Protocol",
    "describe_fixes",
    "get_protocol",
    "TASKS",
    "TASK_IDS",
    "TEST_FRACTION",
    "VALIDATION_FRACTION",
    "TaskSpec",
    "get_task",
    "parse_tasks",
    "split",
    "SPLITS",
    "EpisodeSplit",
    "check_disjoint",
    "doubling_sizes",
    "episode_split",
    "group_kfold",
    "learning_curve_splits",
]
