"""The perturbation study (chapter ``08_perturbations``): queries changed on purpose, scored in the same galleries.

- ``vocabulary``: word lists, directional swaps and opposite tasks;
- ``transforms``: the deterministic perturbations of a query;
- ``robustness``: the paired study of original and perturbed queries, and its table;
- ``robustness_stats``: the numbers of that table computed on arrays (bit-identical to the pandas route).
"""

from .robustness import (
    PER_QUERY_COLUMNS,
    no_opposite_stay_rate,
    perturbation_gold,
    perturbation_table,
    run_perturbations,
    swap_by_task,
    swap_overlap,
)
from .robustness_stats import (
    WHERE,
    PairedOutcomes,
    description_columns,
    mean_over_trials,
    paired_change,
    paired_outcomes,
    table_rows,
    trial_means,
)
from .transforms import (
    PERTURBATIONS,
    Perturbation,
    check_perturbations,
    clause_initial,
    gerund,
    is_verb,
    object_spans,
    perturb,
    perturb_direction_swap,
    perturb_inflection,
    perturb_object_generic,
    perturb_object_removed,
    perturb_spelling,
    perturbation_examples,
    perturbed_texts,
    text_rng,
    third_person,
    tokens,
)
from .vocabulary import (
    CLAUSE_MARKERS,
    CURATED_OPPOSITES,
    DIRECTION_SWAPS,
    DOUBLE_FINAL,
    FUNCTION_WORDS,
    IMPERATIVE_MARKERS,
    NON_OBJECT,
    SPELLING_MIN_LENGTH,
    VERBS,
    match_case,
    opposite_tasks,
    swap_directions,
)

__all__ = [
    "CLAUSE_MARKERS", "CURATED_OPPOSITES", "DIRECTION_SWAPS", "DOUBLE_FINAL", "FUNCTION_WORDS",
    "IMPERATIVE_MARKERS", "NON_OBJECT", "PERTURBATIONS", "PER_QUERY_COLUMNS", "PairedOutcomes", "Perturbation",
    "SPELLING_MIN_LENGTH", "VERBS", "WHERE", "check_perturbations", "clause_initial", "description_columns",
    "gerund", "is_verb", "match_case", "mean_over_trials", "no_opposite_stay_rate", "object_spans",
    "opposite_tasks", "paired_change", "paired_outcomes", "perturb", "perturb_direction_swap", "perturb_inflection",
    "perturb_object_generic", "perturb_object_removed", "perturb_spelling", "perturbation_examples",
    "perturbation_gold", "perturbation_table", "perturbed_texts", "run_perturbations", "swap_by_task",
    "swap_directions", "swap_overlap",
    "table_rows", "text_rng", "third_person", "tokens", "trial_means",
]
