"""What a reader of the retrieval chapters sees: figures, tables, and the numbers and short phrases the
chapters' Markdown glues in.

- ``figures``: every figure of the retrieval chapters (``figure_<what>``);
- ``phrases``: short data-dependent words (ranker labels, orderings, signs, verdicts, per-library leads);
- ``values``: the values of one part of a chapter's table (``*_values``, ``perturbation_values``, ``library_values``);
- ``run_values``: the run-level values of chapters 03 to 05 (the other reading of the draws, duplicates, the run
  beside the paper's, the counts around the comparison);
- ``ranker_values``: the values of the rankers' tests (a sentence embedding, uncertainty, rewrites of the queries);
- ``reproduction_tables`` (chapters 01 to 05) and ``tables`` (chapters 06 to 08): tables shaped for a reader
  (columns, headers, readers' names for the ids);
- ``answers``: the home page's answers (and the part pages', which paste them).
"""

from .answers import char_vs_bm25, offset_answer_values, part_two_answer_values, ranking_answer_values
from .figures import (
    figure_descriptions_per_task,
    figure_matched,
    figure_means_with_intervals,
    figure_paired_differences,
    figure_paired_histograms,
    figure_paper_vs_ours,
    figure_perturbation_changes,
    figure_ranker_spread,
    figure_transfer_gains,
    figure_transfer_spread,
    figure_trial_distributions,
)
from .phrases import PAIRED_HEADERS, claim_label, label, labels, ordering, pair_list, premise, ranker_headers
from .ranker_values import (
    embedding_accuracy_values,
    embedding_pair_values,
    embedding_run_values,
    focus_values,
    no_overlap_row,
    no_overlap_values,
    opposite_values,
    ordering_values,
    perturbation_run_values,
    perturbations_values,
    separation_values,
    swap_values,
    uncertainty_run_values,
)
from .reproduction_tables import (
    DENOMINATOR_HEADERS,
    ERROR_HEADERS,
    EXCLUDED_HEADERS,
    GAP_HEADERS,
    LARGEST_HEADERS,
    NAMED_HEADERS,
    OVERVIEW_HEADERS,
    PAIR_HEADERS,
    POLICY_HEADERS,
    TABLE2_HEADERS,
    TABLE3_HEADERS,
    alternative_headers,
    claims_table,
    comparison_overview,
    draw_gap,
    error_counts,
    error_examples,
    excluded_files,
    first_listed_table,
    largest_differences,
    named_errors,
    number_label,
    paired,
    plain_reasons,
    quantities,
    ranker_table,
    reading_label,
    scoring_policy_table,
    second_description_table,
    two_readings,
)
from .run_values import (
    bench_values,
    comparison_values,
    duplicate_count_values,
    gap_values,
    other_reading_values,
    reproduction_run_values,
)
from .tables import (
    CONFUSION_HEADERS,
    INTERVAL_HEADERS,
    PERTURBATION_HEADERS,
    SWAP_TASK_HEADERS,
    WIDTH_COLUMNS,
    claim_rows,
    flip_table,
    in_paper_view,
    pair_labels,
    perturbation_view,
    second_text_claims,
    starred_labels,
    two_way_claims,
    two_way_leaders,
    with_in_paper,
    with_widths,
)
from .values import (
    alternative_values,
    char_lead_values,
    claim_values,
    corpus_size_values,
    corpus_values,
    duplicate_values,
    first_listed_values,
    library_values,
    matched_values,
    paired_values,
    rule_values,
    scoring_policy_values,
    spread_values,
    variation_values,
    widest_band_values,
)

__all__ = [
    "CONFUSION_HEADERS", "DENOMINATOR_HEADERS", "ERROR_HEADERS", "EXCLUDED_HEADERS", "GAP_HEADERS",
    "INTERVAL_HEADERS", "LARGEST_HEADERS", "NAMED_HEADERS", "OVERVIEW_HEADERS", "PAIRED_HEADERS", "PAIR_HEADERS",
    "PERTURBATION_HEADERS", "POLICY_HEADERS", "SWAP_TASK_HEADERS", "TABLE2_HEADERS", "TABLE3_HEADERS",
    "WIDTH_COLUMNS", "alternative_headers", "alternative_values", "bench_values", "char_lead_values", "char_vs_bm25",
    "claim_label", "claim_values", "claims_table", "comparison_overview", "comparison_values",
    "corpus_size_values", "corpus_values", "draw_gap", "duplicate_count_values", "duplicate_values",
    "embedding_accuracy_values", "embedding_pair_values", "embedding_run_values", "error_counts", "error_examples",
    "excluded_files", "figure_descriptions_per_task", "figure_matched", "figure_means_with_intervals",
    "figure_paired_differences", "figure_paired_histograms", "figure_paper_vs_ours", "figure_perturbation_changes",
    "figure_ranker_spread", "figure_transfer_gains", "figure_transfer_spread", "figure_trial_distributions",
    "first_listed_table", "first_listed_values", "flip_table", "focus_values", "gap_values", "in_paper_view", "label",
    "labels", "largest_differences", "library_values", "matched_values", "named_errors", "no_overlap_values",
    "number_label", "offset_answer_values", "opposite_values", "ordering", "ordering_values", "other_reading_values",
    "pair_labels", "pair_list", "paired", "paired_values", "part_two_answer_values", "perturbation_run_values",
    "perturbation_view", "perturbations_values", "plain_reasons", "premise", "quantities", "ranker_headers",
    "ranker_table", "ranking_answer_values", "reading_label", "reproduction_run_values", "rule_values",
    "claim_rows", "no_overlap_row", "scoring_policy_table", "scoring_policy_values", "second_description_table",
    "second_text_claims",
    "separation_values", "spread_values",
    "starred_labels", "swap_values", "two_readings", "two_way_claims", "two_way_leaders", "uncertainty_run_values",
    "variation_values",
    "widest_band_values", "with_in_paper", "with_widths",
]
