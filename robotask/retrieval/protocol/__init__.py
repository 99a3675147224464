"""The paper's retrieval protocol: a study corpus and its gallery draws, the study, and a plain reference.

- ``corpus_file``: read any corpus a user brings (a CSV, or a YAML task library), validated;
- ``draws``: the validated corpus of a study and its gallery draws;
- ``study``: designs, scoring policies, per-trial results (``robotask retrieval``);
- ``fixed_gallery``: given queries against a given gallery, no draws (``robotask retrieval --gallery --queries``);
- ``reference``: a plain implementation of the study, and the benchmark that times the fast path against it.
"""

from .corpus_file import (
    EXPECTED,
    LABELS,
    LIBRARY_COLUMNS,
    MIN_TEXTS,
    YAML_SUFFIXES,
    check_label,
    parse_library,
    read_corpus_file,
    read_library,
    read_utf8,
    too_few,
)
from .draws import (
    MATCHED_DRAWS,
    Corpus,
    Draws,
    check_corpus,
    design_rows,
    draw_permutations,
    load_study_corpus,
    make_draws,
)
from .reference import (
    PLAIN_SCORERS,
    WORD_TFIDF,
    bm25_direct,
    fast_predictions,
    plain_scorer,
    reference_predictions,
    time_against_reference,
)
from .study import (
    CONDITIONS,
    PARTS,
    PER_TRIAL_COLUMNS,
    POLICIES,
    STUDY_FIELDS,
    TIE_DECIMALS,
    StudyConfig,
    StudyResult,
    cli_main,
    config_from_parameters,
    designs,
    evaluate,
    other_reading,
    policy_counts,
    predict,
    register_cli,
    run_study,
    run_timed,
    task_scores,
)

__all__ = [
    "CONDITIONS", "Corpus", "Draws", "EXPECTED", "LABELS", "LIBRARY_COLUMNS", "MATCHED_DRAWS", "MIN_TEXTS", "PARTS",
    "PER_TRIAL_COLUMNS", "PLAIN_SCORERS", "POLICIES", "STUDY_FIELDS", "StudyConfig", "StudyResult", "TIE_DECIMALS",
    "WORD_TFIDF", "YAML_SUFFIXES", "bm25_direct", "check_corpus", "check_label", "cli_main",
    "config_from_parameters", "design_rows", "designs", "draw_permutations", "evaluate", "fast_predictions",
    "load_study_corpus", "make_draws", "other_reading", "parse_library", "plain_scorer", "policy_counts", "predict",
    "read_corpus_file", "read_library", "read_utf8", "reference_predictions", "register_cli", "run_study", "run_timed",
    "task_scores", "time_against_reference", "too_few",
]
