"""Scaling studies of the retrieval protocol (issue 24): the wording budget, library size, macro vs micro accuracy.

- :mod:`.budget`: k indexed wordings per task, the same held-out queries for every k (matched, as chapter 03).
- :mod:`.averages`: task-averaged (macro) beside query-weighted (micro) accuracy of one gallery.
- :mod:`.pool` (library size over the pooled :mod:`.catalog`), :mod:`.seen_unseen` (seen → unseen templates on
  RoboTwin), :mod:`.ranker_cost` (each ranker's cost), all run by :func:`.experiments.run_all`; :mod:`.figures`.
- :mod:`.values` (the numbers the chapter glues) and :mod:`.phrases` (small tested phrases: which ranker
  leads, whether the order changes).
- :mod:`.claims`: the paper's claims on each new library and the paired wins behind "nearly all"; :mod:`.tables`:
  the curves' shape as numbers (bands at every point, paired gains, slopes per series of draws and per half of
  the size range), and the chapter's tables as shown (libraries by title, rankers by display name).

Every gallery comes from :mod:`robotask.retrieval.protocol.draws` (seeded permutations per task) and is
scored by :func:`robotask.retrieval.protocol.study.predict` (max over a task's indexed texts, deterministic ties).
"""

from .catalog import PATHS, TITLES, library_table, read
from .experiments import NEW, library_claims, run_all, summary
from .figures import budget_figure, cost_figure, size_figure
from .phrases import leader
from .tables import band_table, budget_bands, macro_micro_table, plateau_table, seen_unseen_table, slope_table
from .values import (
    budget_values,
    curve_verdict_rows,
    library_claim_values,
    macro_micro_rows,
    macro_micro_values,
    one_wording_values,
    seen_unseen_values,
    size_values,
)

__all__ = [
    "NEW", "PATHS", "TITLES", "band_table", "budget_bands", "budget_figure", "budget_values", "cost_figure",
    "curve_verdict_rows",
    "leader", "library_claim_values", "library_claims", "library_table", "macro_micro_rows", "macro_micro_table",
    "macro_micro_values",
    "one_wording_values", "plateau_table", "read", "run_all", "seen_unseen_table", "seen_unseen_values",
    "size_figure", "size_values", "slope_table", "summary",
]
