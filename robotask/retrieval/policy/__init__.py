"""Retrieval beside a robot policy (chapter 09.3): does a wording that breaks retrieval also break the policy?

The data are LIBERO-Para's 4,092 paraphrases of the 10 LIBERO-Goal instructions with one policy's logged outcome
on each (``data/libero_para``). The package gives the chapter's steps, which the notebook runs one by one on one
seed and one set of replicates; it scores every paraphrase against two galleries and relates where the rankers
place it to whether the policy succeeded:

- ``paraphrases``: the paraphrases with their LIBERO task ids, and the two galleries (10 originals; the 130
  LIBERO task files);
- ``placements``: each paraphrase's prediction, margin and rank per gallery and ranker (the fixed-gallery mode
  of ``robotask retrieval``);
- ``resampling``: the bootstrap over tasks and, within them, paraphrases (seeded replicate weights with their
  jackknife over tasks, a :class:`Design`), its studentised (bootstrap-t) and Holm-adjusted intervals, and the
  :class:`Interval` every estimate carries;
- ``by_type``: accuracy and the policy's success per paraphrase type, and their paired differences;
  ``association``: the policy's success when retrieved and when missed, odds ratios, Mantel–Haenszel within
  task; ``discrimination``: the signals, their ROC AUCs for the policy's failure, pooled and within task, and
  their comparisons with PRIDE's distance, Holm-corrected;
- ``values`` (the headline ranker, the home page's values from ``summary.json``), ``phrases`` (verdict words,
  from :func:`robotask.words.verdict`), ``tables``, ``figures``;
- ``index_rows``: every verdict the page prints, one row each of the book's index (``verdicts.csv``).

Imports only the core and the retrieval rooms ``libraries``, ``protocol`` and ``rankers``.
"""

from .association import associations
from .by_type import accuracy_by_type, difference, leader, success_by_type, success_difference
from .discrimination import auc_comparisons, auc_intervals, signals_of
from .figures import figure_accuracy_by_type, figure_success_by_retrieval
from .index_rows import accuracy_verdicts, association_verdicts, signal_verdicts
from .paraphrases import GALLERIES, HIGH_TYPES, gallery_frame, load_paraphrases
from .phrases import difference_word, gap_word, share, signal_label
from .placements import place_all
from .resampling import Interval, task_design
from .tables import accuracy_table, association_table, auc_table, data_table, mid_table, type_gap_table
from .values import headline, policy_answer_values

__all__ = [
    "GALLERIES", "HIGH_TYPES", "Interval", "accuracy_by_type", "accuracy_table", "accuracy_verdicts",
    "association_table", "association_verdicts", "associations", "auc_comparisons", "auc_intervals", "auc_table",
    "data_table", "difference", "difference_word", "figure_accuracy_by_type", "figure_success_by_retrieval",
    "gallery_frame", "gap_word", "headline", "leader", "load_paraphrases", "mid_table", "place_all",
    "policy_answer_values", "share", "signal_label", "signal_verdicts", "signals_of", "success_by_type",
    "success_difference", "task_design", "type_gap_table",
]
