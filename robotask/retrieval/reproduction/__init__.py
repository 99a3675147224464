"""The reproduction report: the paper's numbers, ours beside them, and where the rankers fail.

- ``paper``: every number the paper states, as data;
- ``versus_paper``: our numbers under the paper's keys, the comparison and the claim checks, and the
  extraction's counts and alternative rules beside the paper's;
- ``claim_intervals``: the paired intervals (galleries and descriptions resampled) that decide the claims;
- ``error_analysis``: query-level comparisons of two rankers (chapter ``06_sentence_embeddings``).
"""

from .claim_intervals import chapter_verdicts, claim_comparisons, claim_status, claim_values
from .error_analysis import fail_examples, help_examples, opposite_confusions, paired_predictions
from .paper import CORPUS, FIRST_LISTED, NAMED_ERRORS, PAIRED, RANKER_ORDER, SETTINGS, TABLE2, TABLE3, TABLE4
from .versus_paper import (
    TIE_HEADERS,
    check_claims,
    compare,
    compare_with_paper,
    corpora_under_readings,
    evaluate_corpora,
    file_counts,
    our_numbers,
    rule_alternatives,
    table2_under_ties,
)

__all__ = [
    "CORPUS", "FIRST_LISTED", "NAMED_ERRORS", "PAIRED", "RANKER_ORDER", "SETTINGS", "TABLE2", "TABLE3", "TABLE4",
    "TIE_HEADERS", "chapter_verdicts", "check_claims", "claim_comparisons", "claim_status", "claim_values", "compare",
    "compare_with_paper",
    "corpora_under_readings", "evaluate_corpora", "fail_examples", "file_counts", "help_examples",
    "opposite_confusions", "our_numbers", "paired_predictions", "rule_alternatives", "table2_under_ties",
]
