"""Instruction libraries beyond RLBench, and the paper's protocol run on them.

- ``calvin``, ``robocasa``, ``robotwin``, ``libero``: derive ``data/<library>/`` from a checkout (``extracted``:
  the committed tables they wrote);
- ``libero_para``: derive ``data/libero_para/`` (LIBERO-Para's paraphrases, taxonomy and one policy's logged
  outcome on each);
- ``transfer`` (chapter ``09_transfer``) and ``transfer_tables`` (its tables and claim checks).
"""

from .libero import instruction_key
from .transfer import (
    CATEGORIES,
    COLOURS,
    LIBRARIES,
    OPPOSITES,
    Library,
    LibraryRun,
    LibrarySpec,
    category,
    error_counts,
    error_examples,
    first_gallery,
    load_library,
    lsa_components,
    matched_subset,
    one_word_neighbours,
    overview,
    run_library,
    run_transfer,
    verify_examples,
)
from .transfer_tables import (
    CONFUSIONS,
    NEARLY_ALL,
    PAIRS,
    claim_verdicts,
    claims,
    error_shares,
    examples,
    gains,
    leader_table,
    long_summary,
    matched,
    near_shares,
    nearly_all_verdict,
    paired,
    ranker_table,
    sensitivity,
    signed,
    variation_numbers,
)

__all__ = [
    "CATEGORIES", "COLOURS", "CONFUSIONS", "LIBRARIES", "Library", "LibraryRun", "LibrarySpec", "NEARLY_ALL",
    "OPPOSITES", "PAIRS", "category", "claim_verdicts", "claims", "error_counts", "error_examples", "error_shares",
    "examples", "first_gallery", "gains", "instruction_key", "leader_table", "load_library", "long_summary",
    "lsa_components", "matched", "matched_subset", "near_shares", "nearly_all_verdict", "one_word_neighbours",
    "overview", "paired", "ranker_table", "run_library", "run_transfer", "sensitivity", "signed", "variation_numbers",
    "verify_examples",
]
