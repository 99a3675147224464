"""Statistics and uncertainty of the retrieval accuracies.

- ``across_galleries``: spread over reference galleries, and paired method comparisons per gallery;
- ``bootstrap``: bootstrap intervals from per-query outcomes;
- ``uncertainty``: paired tests between rankers (sign test, permutation test, Holm) and ordering verdicts.
"""

from .across_galleries import (
    PERCENTILE_METHOD,
    exclusion_counts,
    identical_queries,
    matched_table,
    paired,
    paired_table,
    policy_table,
    spread,
    summary_table,
)
from .bootstrap import (
    PER_QUERY_COLUMNS,
    SCHEMES,
    CorrectnessMatrix,
    bootstrap_replicates,
    bootstrap_table,
    check_count,
    check_per_query,
    correctness_matrix,
    description_weights,
    per_query_from_predictions,
    percentile_interval,
    replicate_means,
    trial_accuracy,
    trial_weights,
)
from .uncertainty import (
    EXACT_LIMIT,
    all_pairs,
    format_p,
    holm,
    ordering_verdicts,
    paired_comparisons,
    paired_permutation_test,
    pairs_among,
    paper_orderings,
    sign_test,
)

__all__ = [
    "CorrectnessMatrix", "EXACT_LIMIT", "PERCENTILE_METHOD", "PER_QUERY_COLUMNS", "SCHEMES", "all_pairs",
    "bootstrap_replicates", "bootstrap_table", "check_count", "check_per_query", "correctness_matrix",
    "description_weights", "exclusion_counts", "format_p", "holm", "identical_queries", "matched_table",
    "ordering_verdicts", "paired",
    "paired_comparisons", "paired_permutation_test", "paired_table", "pairs_among", "paper_orderings",
    "per_query_from_predictions", "percentile_interval", "policy_table", "replicate_means", "sign_test", "spread",
    "summary_table", "trial_accuracy", "trial_weights",
]
