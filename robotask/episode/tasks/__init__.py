"""The twelve tasks and the two protocols: the registry (``registry``: ``TaskSpec``, ``TASKS``), the task
builders (``builders``: ``TaskData``), the protocols (``protocols``), episode splits (``splits``), the
metrics (``metrics``) and the trivial baselines (``baselines``)."""

from .builders import FUTURE_FRAMES, TaskData, TaskUnavailable
from .protocols import PROTOCOLS, Protocol, describe_fixes, get_protocol
from .registry import TASKS, TEST_FRACTION, VALIDATION_FRACTION, TaskSpec, parse_tasks, split
from .splits import SPLITS, EpisodeSplit, check_disjoint, doubling_sizes, episode_split, group_kfold

__all__ = [
    "EpisodeSplit", "FUTURE_FRAMES", "PROTOCOLS", "Protocol", "SPLITS", "TASKS", "TEST_FRACTION", "TaskData",
    "TaskSpec", "TaskUnavailable", "VALIDATION_FRACTION", "check_disjoint", "describe_fixes", "doubling_sizes",
    "episode_split", "get_protocol", "group_kfold", "parse_tasks", "split",
]
