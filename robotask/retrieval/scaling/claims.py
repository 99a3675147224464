"""The paper's claims checked on each new library of the scaling chapter (as chapter 09_transfer checks its own).

The first three claims read the one-wording galleries of Table 2; the two about a second wording read a
matched k = 1 vs k = 2 study (:func:`robotask.retrieval.scaling.budget.budget_curve` with ``ks=[1, 2]``:
the same held-out queries, from shuffled position 2 on, for both). Only the paper's rankers take part.
"""

from __future__ import annotations

import pandas as pd

from ..libraries.transfer_tables import NEARLY_ALL, signed
from ..rankers.registry import PAPER_RANKERS, RANKERS
from ..statistics import across_galleries


def claims_of(per_trial: pd.DataFrame, second: pd.DataFrame) -> dict[str, tuple[bool, str]]:
    """Each claim on one library: (holds, evidence). ``per_trial``: one-wording primary trials;
    ``second``: a ``budget_curve`` over ks 1 and 2. Needs Char TF-IDF, BM25 and one more of the paper's
    rankers; the claim about Word TF-IDF is left out when it was not run."""
    s = across_galleries.summary_table(per_trial).set_index("ranker")
    s = s[s.index.isin(PAPER_RANKERS)]
    best, other = s["mean"].idxmax(), s["mean"].drop("char").idxmax()
    cb = across_galleries.paired(per_trial, "char", "bm25")
    means = second[second["ranker"].isin(PAPER_RANKERS)].groupby(["ranker", "k"])["accuracy"].mean().unstack("k")
    gain = means[2] - means[1]
    top = gain.idxmax()
    found = {
        "Char TF-IDF has the highest mean": (best == "char", f"Char {s.loc['char', 'mean']:.1f} %, best other "
                                             f"{RANKERS[other].label} {s.loc[other, 'mean']:.1f} %"),
        f"Char TF-IDF beats BM25 in nearly all galleries (at least {100 * NEARLY_ALL:.0f} %)": (
            cb["wins"] >= NEARLY_ALL * cb["n_trials"],
            f"wins {cb['wins']}, ties {cb['ties']}, loses {cb['losses']} of {cb['n_trials']}"),
        "A second wording helps every ranker": (bool((gain > 0).all()), f"smallest gain {signed(gain.min())} pp "
                                                f"({RANKERS[gain.idxmin()].label})"),
        "BM25 gains most from a second wording": (top == "bm25", f"BM25 {signed(gain['bm25'])} pp" + (
            "" if top == "bm25" else f", largest {RANKERS[top].label} {signed(gain[top])} pp")),
    }
    if "word" in set(per_trial["ranker"]):  # the one claim that needs Word TF-IDF
        cw = across_galleries.paired(per_trial, "char", "word")
        found = {**dict(list(found.items())[:2]), "Char TF-IDF beats word TF-IDF on average": (
            cw["mean_diff"] > 0, f"{signed(cw['mean_diff'])} pp, wins {cw['wins']} of {cw['n_trials']}"),
            **dict(list(found.items())[2:])}
    return found


def claims_table(per_library: dict[str, dict[str, tuple[bool, str]]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(table of 'holds: evidence' cells by library title, claim × library booleans)."""
    names = list(next(iter(per_library.values())))
    cells = pd.DataFrame([{"Claim": c, **{t: ("holds: " if v[c][0] else "does not hold: ") + v[c][1]
                                          for t, v in per_library.items()}} for c in names])
    held = pd.DataFrame({t: [bool(v[c][0]) for c in names] for t, v in per_library.items()}, index=names)
    return cells, held
