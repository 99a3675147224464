"""The reproduction report: the paper's numbers, ours beside them, and where the rankers fail.

- ``paper``: every number the paper states, as data;
- ``versus_paper``: our numbers under the paper's keys, the comparison and the claim checks, and the
  extraction's counts and alternative rules beside the paper's;
- ``error_analysis``: query-level comparisons of two rankers (chapter ``06_sentence_embeddings``).
"""

from .error_analysis import fail_examples, help_examples, opposite_confusions, paired_predictions
from .paper import CORPUS, FIRST_LISTED, NAMED_ERRORS, PAIRED, RANKER_ORDER, SETTINGS, TABLE2, TABLE3, TABLE4
from .versus_paper import (
    check_claims,
    compare,
    compare_with_paper,
    corpora_under_readings,
    evaluate_corpora,
    file_counts,
    our_numbers,
    rule_alternatives,
)

__all__ = [
    "CORPUS", "FIRST_LISTED", "NAMED_ERRORS", "PAIRED", "RANKER_ORDER", "SETTINGS", "TABLE2", "TABLE3", "TABLE4",
    "check_claims", "compare", "compare_with_paper", "corpora_under_readings", "evaluate_corpora", "fail_examples",
    "file_counts", "help_examples", "opposite_confusions", "our_numbers", "paired_predictions", "rule_alternatives",
]
