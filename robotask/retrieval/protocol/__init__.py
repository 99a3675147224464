"""The paper's retrieval protocol: a study corpus and its gallery draws, the study, and a plain reference.

- ``corpus_file``: read any corpus a user brings (a CSV, or a YAML task library), validated;
- ``draws``: the validated corpus of a study and its gallery draws;
- ``prediction``: task scores, the prediction, the tie rule and the counts of each scoring policy;
- ``study``: designs, scoring policies, per-trial results (``robotask retrieval``);
- ``fixed_gallery``: given queries against a given gallery, no draws (``robotask retrieval --gallery --queries``);
- ``reference``: a plain implementation of the study, and the benchmark that times the fast path against it.
"""

from .corpus_file import parse_library, read_corpus_file
from .draws import Corpus, check_corpus, design_rows, draw_permutations, load_study_corpus, make_draws
from .reference import time_against_reference
from .study import (
    POLICIES,
    StudyConfig,
    StudyResult,
    config_from_parameters,
    other_reading,
    predict,
    register_cli,
    run_study,
    run_timed,
    study_config,
)

__all__ = [
    "Corpus", "POLICIES", "StudyConfig", "StudyResult", "check_corpus", "config_from_parameters", "design_rows",
    "draw_permutations", "load_study_corpus", "make_draws", "other_reading", "parse_library", "predict",
    "read_corpus_file", "register_cli", "run_study", "run_timed", "study_config", "time_against_reference",
]
