"""The paper's claims checked on each new library of the scaling chapter, decided as chapter 09_transfer decides
them (:func:`robotask.retrieval.libraries.transfer_tables.claim_verdicts`: paired intervals, "not resolved" when
one includes zero).

The first three claims read the one-wording galleries of Table 2; the two about a second wording read a
matched k = 1 vs k = 2 study (:func:`robotask.retrieval.scaling.budget.budget_curve` with ``ks=[1, 2]``:
the same held-out queries, from shuffled position 2 on, for both). Only the paper's rankers take part.
:func:`paired_wins` counts the galleries in which one ranker beats another (the "nearly all" claim's count).
"""

from __future__ import annotations

import pandas as pd

from ..libraries.transfer_tables import claim_verdicts, verdict_table


def claims_of(per_trial: pd.DataFrame, second: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """Each claim on one library: (verdict, evidence). ``per_trial``: one-wording primary trials;
    ``second``: a ``budget_curve`` over ks 1 and 2."""
    one = per_trial.pivot(index="trial", columns="ranker", values="accuracy")
    k = second.pivot_table(index="trial", columns=["k", "ranker"], values="accuracy")
    return claim_verdicts(one, k[2] - k[1], second="wording")


def claims_table(per_library: dict[str, dict[str, tuple[str, str]]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(table of "verdict: evidence" cells by library title, claim × library verdict words)."""
    return verdict_table(per_library)


def paired_wins(per_trial: pd.DataFrame, a: str, b: str) -> tuple[int, int]:
    """(trials where ranker ``a`` beats ``b``, trials) in a per-trial frame (``trial``, ``ranker``, ``accuracy``)."""
    wide = per_trial.pivot_table(index="trial", columns="ranker", values="accuracy")
    return int((wide[a] > wide[b]).sum()), len(wide)
