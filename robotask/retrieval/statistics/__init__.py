"""Statistics and uncertainty of the retrieval accuracies.

- ``across_galleries``: spread over reference galleries, and paired method comparisons per gallery;
- ``bootstrap``: bootstrap intervals from per-query outcomes;
- ``comparison_intervals``: one interval per comparison of two rankers (galleries and descriptions resampled, paired),
  cached, and the rows of a chapter's ``verdicts.csv``;
- ``uncertainty``: paired tests between rankers (sign test, permutation test, Holm) and ordering verdicts.
"""

from .across_galleries import (
    exclusion_counts,
    identical_queries,
    matched_table,
    paired,
    paired_table,
    policy_table,
    summary_table,
)
from .bootstrap import (
    bootstrap_table,
    check_count,
    description_weights,
    per_query_from_predictions,
    percentile_interval,
    replicate_means,
    trial_accuracy,
    trial_weights,
)
from .comparison_intervals import (
    N_BOOTSTRAP,
    arm_comparison,
    comparison,
    gain_differences,
    matched_comparisons,
    ranker_comparisons,
    verdict_rows,
)
from .uncertainty import (
    all_pairs,
    format_p,
    ordering_verdicts,
    paired_comparisons,
    paired_permutation_test,
    pairs_among,
    paper_orderings,
)

__all__ = [
    "N_BOOTSTRAP", "all_pairs", "arm_comparison", "bootstrap_table", "check_count", "comparison", "description_weights",
    "exclusion_counts", "format_p", "gain_differences", "ranker_comparisons", "verdict_rows",
    "identical_queries", "matched_comparisons", "matched_table", "ordering_verdicts", "paired", "paired_comparisons",
    "paired_permutation_test", "paired_table", "pairs_among", "paper_orderings", "per_query_from_predictions",
    "percentile_interval", "policy_table", "replicate_means", "summary_table", "trial_accuracy", "trial_weights",
]
