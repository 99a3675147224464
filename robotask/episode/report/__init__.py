"""Figures and computed text of the episode chapters: the figures of chapters 10–13 (``figures_*``), what bounds
a task run's scores (``diagnostics``), a head against the baseline on one run (``head_intervals``), what the
pages glue (``values_task``, ``values_suite``) and their short phrases (``phrases``), the task pages' written
results and the suite summary (``summary``), its reader tables (``tables``) and the home page's Part III answers
(``answers``). The front door lists what the notebooks and other rooms use."""

from .answers import suite_values, unseen_values
from .diagnostics import (
    PUBLISHED_HAND,
    anomaly_records,
    anomaly_table,
    baselines_table,
    diagnostics_table,
    published_table,
    recap_table,
    target_text,
)
from .figures_episode import (
    depth_summary,
    figure_camera_frames,
    figure_depth,
    figure_imu,
    figure_spectrogram,
    figure_timeline,
    figure_trajectories,
    imu_summary,
    label_statistics,
    label_values,
    modality_table,
    motion_summary,
)
from .figures_suite import bar_order, figure_summary, off_scale_values, summary_caption
from .figures_tasks import (
    EXAMPLE_HEADERS,
    TABLE_HEADERS,
    examples_table,
    figure_caption,
    metrics_table,
    ok_results,
    task_figures,
)
from .figures_windows import (
    coverage_display,
    coverage_table,
    figure_block_sizes,
    figure_schedule_coverage,
    figure_window_labels,
    layout_table,
    spread_counts,
)
from .head_intervals import deciding_metric, head_words, interval_values, run_intervals, strongest_baseline
from .phrases import (
    contact_label,
    episode_kind,
    frame_range,
    moves,
    not_run,
    readable,
    runs_without,
    scores_phrase,
    targets,
    verdicts_phrase,
)
from .summary import (
    METRIC_LABELS,
    chapter_id,
    metric_name,
    primary_long,
    protocols_of,
    read_task_summaries,
    schedules_of,
    summary_table,
    task_summary,
    verdict_rows,
)
from .tables import (
    anomalies_table,
    as_text,
    informed_share,
    label_task_means,
    protocol_changes,
    published_coverage_table,
    strongest_table,
    wins_table,
)
from .values_suite import by_schedule, recap_values
from .values_task import anomaly_values, episode_values, page_heads

__all__ = [
    "anomalies_table", "anomaly_records", "anomaly_table", "anomaly_values", "as_text", "bar_order",
    "baselines_table", "by_schedule", "chapter_id", "contact_label", "coverage_display", "deciding_metric",
    "coverage_table", "depth_summary", "diagnostics_table", "episode_kind", "episode_values", "EXAMPLE_HEADERS",
    "examples_table", "figure_block_sizes", "figure_camera_frames", "figure_caption", "figure_depth", "figure_imu",
    "figure_schedule_coverage", "figure_spectrogram", "figure_summary", "figure_timeline", "figure_trajectories",
    "figure_window_labels", "frame_range", "head_words", "imu_summary", "informed_share", "interval_values",
    "label_statistics", "label_task_means", "label_values", "layout_table", "METRIC_LABELS", "metric_name",
    "metrics_table", "modality_table", "motion_summary", "moves", "not_run", "off_scale_values", "ok_results",
    "page_heads", "primary_long", "protocol_changes", "protocols_of", "published_coverage_table", "PUBLISHED_HAND",
    "published_table", "read_task_summaries", "readable", "recap_table", "recap_values", "run_intervals",
    "runs_without", "schedules_of", "spread_counts", "strongest_baseline", "strongest_table", "suite_values",
    "summary_caption", "summary_table", "TABLE_HEADERS", "target_text", "targets", "task_figures", "task_summary",
    "unseen_values", "verdict_rows", "wins_table", "scores_phrase", "verdicts_phrase"
]
