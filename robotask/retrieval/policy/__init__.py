"""Retrieval beside a robot policy (chapter 09.3): does a wording that breaks retrieval also break the policy?

The data are LIBERO-Para's 4,092 paraphrases of the 10 LIBERO-Goal instructions with one policy's logged outcome
on each (``data/libero_para``). The package scores every paraphrase against two galleries and relates where the
rankers place it to whether the policy succeeded:

- :mod:`.paraphrases`: the paraphrases with their LIBERO task ids, and the two galleries (10 originals; the 130
  LIBERO task files);
- :mod:`.placements`: each paraphrase's prediction, margin and rank per gallery and ranker (the fixed-gallery
  mode of ``robotask retrieval``);
- :mod:`.resampling`: the bootstrap over tasks and, within them, paraphrases (seeded replicate weights);
- :mod:`.by_type`: accuracy per paraphrase type; :mod:`.association`: the policy's success when retrieved and
  when missed, odds ratios, Mantel–Haenszel within task; :mod:`.discrimination`: ROC AUCs for the policy's
  failure and their paired differences;
- :mod:`.study`: all of it in one call; :mod:`.values` (``summary.json``, glued values, the home page's),
  :mod:`.phrases` (verdict words), :mod:`.tables`, :mod:`.figures`.

Imports only the core and other retrieval modules.
"""

from .paraphrases import GALLERIES, gallery_frame, load_paraphrases
from .study import PolicyStudy, run_policy_study
from .values import policy_answer_values, policy_values, summary

__all__ = ["GALLERIES", "PolicyStudy", "gallery_frame", "load_paraphrases", "policy_answer_values",
           "policy_values", "run_policy_study", "summary"]
