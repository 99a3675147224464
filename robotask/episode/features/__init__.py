"""Per-frame features and windows: the options and the block layout (``layout``), the per-frame extractors
(``extractors``, ``hashtext``) and their cached run over an episode (``perframe``), window statistics and the
chronological split (``windows``), the window set of an episode (``windowset``: ``load_window_set`` →
``WindowSet``), a collection's features on Dask (``distributed``) and ``robotask features`` (``cli``).

The Dask workers import :mod:`.windowset`, hence this file: it names only what the modules define."""

from .distributed import close_client, extract_collection, open_client
from .layout import FEATURE_VERSION, FeatureOptions, make_manifest
from .perframe import per_frame_features
from .windows import (
    REAL_SAMPLE_COVERAGE,
    block_columns,
    chronological_split,
    group_columns,
    majority_label,
    split_coverage,
    split_point,
    window_starts,
    window_table,
)
from .windowset import WindowSet, episode_labels, episode_windows, load_window_set, write_artifacts

__all__ = [
    "close_client",
    "extract_collection",
    "open_client",
    "FEATURE_VERSION",
    "FeatureOptions",
    "make_manifest",
    "per_frame_features",
    "REAL_SAMPLE_COVERAGE",
    "block_columns",
    "chronological_split",
    "group_columns",
    "majority_label",
    "split_coverage",
    "split_point",
    "window_starts",
    "window_table",
    "WindowSet",
    "episode_labels",
    "episode_windows",
    "load_window_set",
    "write_artifacts",
]
