"""Short data-dependent phrases of chapter ``09_transfer``: the paper's protocol on other libraries.

The chapter says the story in Markdown; these functions give the per-library phrases it glues in
(``tests/test_retrieval_phrases_transfer.py`` checks each one), with the one decimal the tables show.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...words import join, pct, pp
from ..rankers.registry import RANKERS
from .phrases import label


def best_ranker(ranker: str, mean: float) -> str:
    """ "Char TF-IDF (81.2 %)"."""
    return f"{label(ranker)} ({pct(mean)})"


def char_lead(row: Mapping[str, float]) -> str:
    """Char TF-IDF − BM25 from a row of ``transfer_tables.paired``: "+5.3 pp on average, ahead in 79 of 80"."""
    return f"{pp(row['Mean difference (pp)'])} on average, ahead in {int(row['Char wins'])} of {int(row['Galleries'])}"


def widest(bands: pd.Series) -> str:
    """The widest 5th–95th percentile band of one library (``Ranker`` display name → pp): "12.3 pp (LSA-32)"."""
    short = {spec.display: spec.label for spec in RANKERS.values()}  # "MiniLM (not in paper)" → "MiniLM"
    top = bands.idxmax()
    return f"{bands.max():.1f} pp ({short.get(top, top)})"


def where_all_hold(held: pd.DataFrame) -> str:
    """The libraries on which every claim holds (``held``: claim × library title booleans)."""
    full = [t for t in held.columns if bool(held[t].all())]
    if len(full) == len(held.columns):
        return "every library"
    return "only " + join(full) if full else "no library"


def task_right_reading(share: float) -> str:
    """What the share (%) of wrong answers naming the right task file says (variation level)."""
    return ("most wrong answers find the task and miss only the variation" if share > 50
            else "most wrong answers miss the task itself, not only the variation")
