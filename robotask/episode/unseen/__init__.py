"""Do the tasks carry over to episodes the heads never saw? The suite over a collection of episodes
(chapter 14): the tasks' data merged across episodes (``task_data``), the suite on a split of held-out
episodes (``held_out``), the suite's ``--collection`` option (``cli``), the collection of chapter 14 and its
costs (``costs``), the splits it runs (``design``), its tables (``tables``, ``shown``), its figure
(``figures``), the numbers it glues (``values``) and its phrases (``phrases``)."""

from .cli import fold_means, fold_rows, run_suite_on_collection
from .costs import (
    FULL_DATASET_EPISODES,
    RELEASE_GIB_PER_EPISODE,
    feature_bytes,
    feature_sizes,
    measure_scaling,
    project_full_dataset,
    study_collection,
)
from .design import (
    Setting,
    aligned_shares,
    chapter_config,
    chronological_settings,
    curve_settings,
    cv_settings,
    positive_share,
    random_folds_like,
    run_settings,
    shift_settings,
    study_settings,
    usable_shifts,
)
from .figures import figure_learning_curves
from .held_out import run_collection_suite, run_collection_task
from .phrases import run_notes
from .shown import (
    NOT_RUN_HEADERS,
    SCALING_HEADERS,
    answer_table,
    chronological_table,
    coverage_table,
    curve_table,
    epoch_table,
    mlp_table,
    protocol_table,
    shift_display,
)
from .tables import (
    beaten,
    chronological_drop,
    curve_steps,
    curve_summary,
    episodes_needed,
    epoch_check,
    epoch_effect,
    fold_coverage,
    fold_summary,
    headline,
    hurt_tasks,
    not_run_table,
    shift_table,
    subject_scene_table,
    transfer_table,
)
from .task_data import load_window_sets
from .values import (
    SUMMARY_SIZES,
    collection_facts,
    cost_facts,
    design_facts,
    head_facts,
    results_facts,
    summary_sizes,
    sync_facts,
)

__all__ = [
    "fold_means", "fold_rows", "run_suite_on_collection",
    "FULL_DATASET_EPISODES", "RELEASE_GIB_PER_EPISODE", "feature_bytes", "feature_sizes", "measure_scaling",
    "project_full_dataset", "study_collection",
    "Setting", "aligned_shares", "chapter_config", "chronological_settings", "curve_settings", "cv_settings",
    "positive_share", "random_folds_like", "run_settings", "shift_settings", "study_settings", "usable_shifts",
    "figure_learning_curves",
    "run_collection_suite", "run_collection_task",
    "run_notes",
    "NOT_RUN_HEADERS", "SCALING_HEADERS", "answer_table", "chronological_table", "coverage_table", "curve_table",
    "epoch_table", "mlp_table", "protocol_table", "shift_display",
    "beaten", "chronological_drop", "curve_steps", "curve_summary", "epoch_check", "epoch_effect",
    "episodes_needed",
    "fold_coverage", "fold_summary", "hurt_tasks", "not_run_table", "shift_table", "subject_scene_table",
    "transfer_table",
    "load_window_sets",
    "SUMMARY_SIZES", "collection_facts", "cost_facts", "design_facts", "head_facts", "headline", "results_facts",
    "summary_sizes", "sync_facts",
]
