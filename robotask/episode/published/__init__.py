"""Published prediction files of the original suite: reading them, recomputing every published metric with
the suite's metric functions, baselines, intervals with the unit that fits (moving blocks of consecutive
windows on one episode, whole episodes across many), paired verdicts, projections and label coverage.

Chapter 15 scores the shipped extraction (``data/original_results``, written by
``python -m robotask.episode.published.extract``); ``robotask score`` scores any files in the original's
formats (:mod:`.cli`).
"""

from .figures import figure_block_choice, figure_coverage, figure_differences
from .scorecard import Scorecard, score_extracted
from .tables import (
    coverage_display,
    projection_table,
    recomputed_rows,
    recomputed_summary,
    results_beside_baselines,
    verdict_table,
)
from .units import errors
from .values import (
    coverage_values,
    data_values,
    headline_values,
    home_values,
    projection_values,
    recompute_values,
    summary_record,
    verdict_values,
)

__all__ = [
    "Scorecard",
    "score_extracted",
    "errors",
    "figure_block_choice",
    "figure_coverage",
    "figure_differences",
    "coverage_display",
    "projection_table",
    "recomputed_rows",
    "recomputed_summary",
    "results_beside_baselines",
    "verdict_table",
    "coverage_values",
    "data_values",
    "headline_values",
    "home_values",
    "projection_values",
    "recompute_values",
    "summary_record",
    "verdict_values",
]
