"""Do the tasks carry over to episodes the heads never saw? The suite over a collection of episodes
(chapter 14): the tasks' data merged across episodes (``task_data``), the suite on a split of held-out
episodes (``held_out``), the suite's ``--collection`` option (``cli``), the collection of chapter 14 and its
costs (``costs``), the splits it runs (``design``), its paired comparisons (``comparisons``) and the strongest
baseline they read (``strongest``), its tables (``tables``), its figure (``figures``), the numbers it glues
(``values``) and its phrases (``phrases``)."""

from .cli import run_suite_on_collection
from .comparisons import (
    chronological_drop,
    curve_steps,
    curve_summary,
    epoch_check,
    fold_coverage,
    fold_summary,
    shift_drop,
    shifts_not_run,
    transfer_rows,
    verdict_index,
)
from .costs import feature_sizes, measure_scaling, project_full_dataset, study_collection
from .design import (
    aligned_share_values,
    chapter_config,
    chronological_settings,
    curve_settings,
    cv_settings,
    matched_settings,
    run_settings,
    shift_settings,
    usable_shifts,
)
from .figures import figure_learning_curves
from .held_out import run_collection_suite
from .phrases import ceiling_phrase, epoch_check_phrase, repeats_phrase, run_notes, span_phrase, speedup_phrase
from .tables import (
    NOT_RUN_HEADERS,
    SCALING_HEADERS,
    answer_table,
    chronological_table,
    coverage_table,
    curve_table,
    epoch_table,
    mlp_table,
    not_run_table,
    protocol_table,
    shift_table,
)
from .task_data import load_window_sets
from .values import (
    collection_values,
    curve_values,
    drop_values,
    head_values,
    shift_values,
    summary_values,
    transfer_values,
)

__all__ = [
    "run_suite_on_collection",
    "chronological_drop", "curve_steps", "curve_summary", "epoch_check", "fold_coverage", "fold_summary",
    "shift_drop", "shifts_not_run", "transfer_rows", "verdict_index",
    "feature_sizes", "measure_scaling", "project_full_dataset", "study_collection",
    "aligned_share_values", "chapter_config", "chronological_settings", "curve_settings", "cv_settings",
    "matched_settings", "run_settings",
    "shift_settings", "usable_shifts",
    "figure_learning_curves",
    "run_collection_suite",
    "ceiling_phrase", "epoch_check_phrase", "repeats_phrase", "run_notes", "span_phrase", "speedup_phrase",
    "NOT_RUN_HEADERS", "SCALING_HEADERS", "answer_table", "chronological_table", "coverage_table", "curve_table",
    "epoch_table", "mlp_table", "not_run_table", "protocol_table", "shift_table",
    "load_window_sets",
    "collection_values", "curve_values", "drop_values", "head_values", "shift_values", "summary_values",
    "transfer_values",
]
