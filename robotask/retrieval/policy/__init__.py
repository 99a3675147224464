"""Retrieval beside a robot policy (chapter 09.3): does a wording that breaks retrieval also break the policy?

The data are LIBERO-Para's 4,092 paraphrases of the 10 LIBERO-Goal instructions with one policy's logged outcome
on each (``data/libero_para``). The package scores every paraphrase against two galleries and relates where the
rankers place it to whether the policy succeeded:

- ``paraphrases``: the paraphrases with their LIBERO task ids, and the two galleries (10 originals; the 130
  LIBERO task files);
- ``placements``: each paraphrase's prediction, margin and rank per gallery and ranker (the fixed-gallery mode
  of ``robotask retrieval``);
- ``resampling``: the bootstrap over tasks and, within them, paraphrases (seeded replicate weights);
- ``by_type``: accuracy per paraphrase type; ``association``: the policy's success when retrieved and when
  missed, odds ratios, Mantel–Haenszel within task; ``discrimination``: ROC AUCs for the policy's failure,
  pooled and within task, and their paired differences;
- ``probe``: all of it in one call on one set of replicates (``run_policy_study``);
- ``values`` (``summary.json``, what the chapter glues, the home page's values), ``phrases`` (verdict words,
  from :func:`robotask.words.verdict`), ``tables``, ``figures``.

Imports only the core and the retrieval rooms ``libraries``, ``protocol`` and ``rankers``.
"""

from .association import MEASURES, association_measures, crude, gap_by_type, mantel_haenszel
from .by_type import (
    ACCURACY_COLUMNS,
    accuracy_by_type,
    difference,
    success_by_type,
    success_difference,
    type_masks,
)
from .discrimination import auc_intervals, paired_difference, pride_distance, weighted_auc
from .figures import figure_accuracy_by_type, figure_success_by_retrieval
from .paraphrases import (
    GALLERIES,
    GALLERY_TITLES,
    HIGH_TITLES,
    HIGH_TYPES,
    gallery_frame,
    gallery_sizes,
    goal_task,
    load_paraphrases,
)
from .phrases import difference_word, gap_word, odds_word, share, signal_label, type_label
from .placements import PLACEMENT_COLUMNS, Placements, place_all
from .probe import SOURCE_SIGNALS, PolicyStudy, margin_signal, run_policy_study, signals_of
from .resampling import Interval, interval, two_stage_weights, weighted_mean
from .tables import accuracy_table, association_table, auc_table, data_table, mid_table, shown, type_gap_table
from .values import (
    association_values,
    headline,
    policy_answer_values,
    policy_values,
    retrieval_values,
    signal_values,
    summary,
)

__all__ = [
    "ACCURACY_COLUMNS", "GALLERIES", "GALLERY_TITLES", "HIGH_TITLES", "HIGH_TYPES", "Interval", "MEASURES",
    "PLACEMENT_COLUMNS", "Placements", "PolicyStudy", "SOURCE_SIGNALS", "accuracy_by_type", "accuracy_table",
    "association_measures", "association_table", "association_values", "auc_intervals", "auc_table", "crude",
    "data_table", "difference", "difference_word", "figure_accuracy_by_type", "figure_success_by_retrieval",
    "gallery_frame", "gallery_sizes", "gap_by_type", "gap_word", "goal_task", "headline", "interval",
    "load_paraphrases", "mantel_haenszel", "margin_signal", "mid_table", "odds_word", "paired_difference",
    "place_all", "policy_answer_values", "policy_values", "pride_distance", "retrieval_values",
    "run_policy_study", "share", "shown", "signal_label", "signal_values", "signals_of", "success_by_type",
    "success_difference", "summary", "two_stage_weights", "type_gap_table", "type_label", "type_masks",
    "weighted_auc", "weighted_mean",
]
