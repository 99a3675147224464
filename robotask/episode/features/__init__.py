"""Per-frame features and windows: the options and the block layout (``layout``), the per-frame extractors
(``extractors``, ``hashtext``) and their cached run over an episode (``perframe``), window statistics and the
chronological split (``windows``), the window set of an episode (``windowset``: ``load_window_set`` →
``WindowSet``), a collection's features on Dask (``distributed``), a running cluster's connection and the
checks of its workers (``connection``) and ``robotask features`` (``cli``).

The Dask workers import :mod:`.windowset`, hence this file: it names only what the modules define."""

from .connection import cluster_lost
from .distributed import check_cluster, close_client, extract_collection, open_client
from .layout import FeatureOptions
from .perframe import per_frame_features
from .windows import (
    REAL_SAMPLE_COVERAGE,
    block_columns,
    chronological_split,
    group_columns,
    split_coverage,
    split_point,
    window_starts,
)
from .windowset import WindowSet, episode_labels, episode_windows, load_window_set, write_artifacts

__all__ = [
    "FeatureOptions", "REAL_SAMPLE_COVERAGE", "WindowSet", "block_columns", "check_cluster", "chronological_split",
    "close_client", "cluster_lost",
    "episode_labels", "episode_windows", "extract_collection", "group_columns", "load_window_set", "open_client",
    "per_frame_features", "split_coverage", "split_point", "window_starts", "write_artifacts",
]
