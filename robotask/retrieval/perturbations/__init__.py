"""The perturbation study (chapter ``08_perturbations``): queries changed on purpose, scored in the same galleries.

- ``vocabulary``: word lists, directional swaps and opposite tasks;
- ``transforms``: the deterministic perturbations of a query;
- ``robustness``: the paired study of original and perturbed queries, and its table;
- ``robustness_stats``: the numbers of that table computed on arrays (bit-identical to the pandas route);
- ``leaders``: which ranker a perturbation moves most, decided by the paired interval against the runner-up.
"""

from .leaders import chapter_verdicts, leader_comparisons, leader_phrase
from .robustness import no_opposite_stay_rate, perturbation_table, run_perturbations, swap_by_task, swap_overlap
from .transforms import PERTURBATIONS, check_perturbations, perturbation_examples
from .vocabulary import FUNCTION_WORDS, opposite_tasks

__all__ = [
    "FUNCTION_WORDS", "PERTURBATIONS", "chapter_verdicts", "check_perturbations", "leader_comparisons",
    "leader_phrase", "no_opposite_stay_rate", "opposite_tasks", "perturbation_examples", "perturbation_table",
    "run_perturbations", "swap_by_task", "swap_overlap",
]
