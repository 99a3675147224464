"""Scaling studies of the retrieval protocol (issue 24): the wording budget, library size, macro vs micro accuracy.

- :mod:`.budget`: k indexed wordings per task, the same held-out queries for every k (matched, as chapter 03).
- :mod:`.averages`: task-averaged (macro) beside query-weighted (micro) accuracy of one gallery.
- :mod:`.pool` (library size over the pooled :mod:`.catalog`), :mod:`.side_studies` (seen → unseen on RoboTwin,
  paired wins, each ranker's cost), all run by :func:`.experiments.run_all`; :mod:`.figures`.
- :mod:`.values` (the numbers the chapter glues) and :mod:`.phrases` (small tested phrases: which ranker
  leads, whether the order changes).
- :mod:`.claims`: the paper's claims on each new library; :mod:`.tables`: the curves' shape as numbers
  (bands at every point, paired gains, slopes per series of draws and per half of the size range), and the
  chapter's tables as shown (libraries by title, rankers by display name).

Every gallery comes from :mod:`robotask.retrieval.protocol.draws` (seeded permutations per task) and is
scored by :func:`robotask.retrieval.protocol.study.predict` (max over a task's indexed texts, deterministic ties).
"""

from .averages import macro_micro, one_wording
from .budget import budget_curve, eligible, order_by_k, plateau_k, run_matched, usable_ks
from .catalog import PATHS, POOLED, TITLES, library_table, read
from .claims import claims_of, claims_table
from .experiments import NEW, ScalingResults, library_claims, run_all, summary
from .figures import budget_figure, cost_figure, size_figure
from .phrases import disagree_where, leader, leaders_by, order_change, resolved_leader, share_phrase, span
from .pool import log_sizes, size_curve, slope_per_doubling
from .side_studies import cost, paired_wins, seen_unseen
from .tables import (
    band_table,
    bend_interval,
    budget_bands,
    leader_interval,
    leaders_at,
    macro_micro_table,
    mean_table,
    paired_gain,
    plateau_table,
    seen_unseen_table,
    series_slopes,
    slope_interval,
    slope_table,
)
from .values import (
    BUDGET_PARTS,
    budget_readings,
    claim_readings,
    macro_micro_readings,
    seen_unseen_readings,
    size_readings,
    table2_readings,
)

__all__ = [
    "BUDGET_PARTS", "NEW", "PATHS", "POOLED", "ScalingResults", "TITLES", "band_table", "bend_interval",
    "budget_bands", "budget_curve", "budget_figure", "budget_readings", "claim_readings", "claims_of",
    "claims_table", "cost", "cost_figure", "disagree_where", "eligible", "leader", "leader_interval", "leaders_at",
    "leaders_by", "library_claims", "library_table", "log_sizes", "macro_micro", "macro_micro_readings",
    "macro_micro_table", "mean_table", "one_wording", "order_by_k", "order_change", "paired_gain", "paired_wins",
    "plateau_k", "plateau_table", "read", "resolved_leader", "run_all", "run_matched", "seen_unseen",
    "seen_unseen_readings", "seen_unseen_table", "series_slopes", "share_phrase", "size_curve", "size_figure",
    "size_readings", "slope_interval", "slope_table", "slope_per_doubling", "span", "summary", "table2_readings",
    "usable_ks",
]
