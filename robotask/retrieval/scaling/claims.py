"""The paper's claims checked on each new library of the scaling chapter, with the words chapter 09_transfer uses
("holds", "does not hold", "not resolved" when the interval includes zero).

Every comparison of means is decided by a two-way interval over the galleries and the queried descriptions
together (chapter 07's design); "nearly all galleries" by the exact interval of a share of galleries.
The first three claims read the one-wording galleries of Table 2; the two about a second wording read a
matched k = 1 vs k = 2 study (:func:`robotask.retrieval.scaling.budget.budget_curve` with ``ks=[1, 2]``:
the same held-out queries, from shuffled position 2 on, for both). Only the paper's rankers take part.
:func:`paired_wins` counts the galleries in which one ranker beats another (the "nearly all" claim's count).
"""

from __future__ import annotations

import pandas as pd

from ...words import UNRESOLVED, verdict, verdict_row
from ..libraries.transfer_tables import (
    FAILS,
    HOLDS,
    NEARLY_ALL,
    nearly_all_verdict,
    share_interval,
    signed,
    verdict_table,
)
from ..rankers.registry import PAPER_RANKERS, RANKERS
from ..statistics.comparison_intervals import arm_outcomes, comparison, contrast, ranker_comparisons

CHAPTER = "09_libraries"
HIGHEST = "Char TF-IDF has the highest mean"
NEARLY = f"Char TF-IDF beats BM25 in nearly all galleries (at least {100 * NEARLY_ALL:.0f} %)"
BEATS_WORD = "Char TF-IDF beats word TF-IDF on average"
HELPS = "A second wording helps every ranker"
BM25_MOST = "BM25 gains most from a second wording"


def _word(c: dict) -> str:
    return verdict(c["low"], c["high"], above=HOLDS, below=FAILS)


def _all_of(found: dict[str, dict]) -> str:
    words = [_word(c) for c in found.values()]
    return FAILS if FAILS in words else HOLDS if all(w == HOLDS for w in words) else UNRESOLVED


def _evidence(c: dict) -> str:
    return f"{signed(c['difference'])} pp (95 % interval {signed(c['low'])} to {signed(c['high'])})"


def claims_of(per_trial: pd.DataFrame, one_queries: pd.DataFrame, second_queries: pd.DataFrame, seed: int,
              title: str) -> tuple[dict[str, tuple[str, str]], list[dict[str, object]]]:
    """Each claim on one library, (verdict, evidence), and the rows of ``verdicts.csv`` behind them. Every mean
    comparison is decided by a two-way interval over the galleries and the queried descriptions together
    (:func:`~robotask.retrieval.statistics.comparison_intervals.ranker_comparisons` on ``one_queries``, the
    one-wording galleries' per-query outcomes; :func:`~robotask.retrieval.statistics.comparison_intervals.contrast`
    on ``second_queries``, the matched k = 1 vs 2 study's, arms ``<ranker>@<k>``); "nearly all galleries"
    by the exact interval of the share of galleries won (its unit is the gallery)."""
    one = per_trial.pivot(index="trial", columns="ranker", values="accuracy")
    paper = [r for r in one.columns if r in PAPER_RANKERS]
    others = [r for r in paper if r != "char"]
    table = ranker_comparisons(one_queries, [("char", r) for r in others], seed=seed)
    vs = {r: comparison(table, "char", r) for r in others}
    best = one[others].mean().idxmax()
    rows = [_row("Char TF-IDF has the highest mean", "char", r, title, "top-1 accuracy", c) for r, c in vs.items()]
    found = {HIGHEST: (_all_of(vs), f"Char {one['char'].mean():.1f} %, best other {RANKERS[best].label} "
                                    f"{one[best].mean():.1f} %, difference {_evidence(vs[best])}")}
    wins, n = int((one["char"] > one["bm25"]).sum()), len(one)
    lo, hi = share_interval(wins, n)
    found[NEARLY] = (nearly_all_verdict(wins, n),
                     f"ahead in {wins} of {n} (share 95 % interval {100 * lo:.0f}–{100 * hi:.0f} %)")
    rows.append(verdict_row(chapter=CHAPTER, claim=NEARLY, a="share of galleries Char TF-IDF wins over BM25",
                            b=f"{100 * NEARLY_ALL:.0f} % of galleries", data=title, metric="share of galleries (%)",
                            difference=100 * (wins / n - NEARLY_ALL), low=100 * (lo - NEARLY_ALL),
                            high=100 * (hi - NEARLY_ALL), unit="gallery", n_units=n,
                            method="exact (Clopper–Pearson) 95 % interval of a share"))
    if "word" in vs:
        found[BEATS_WORD] = (_word(vs["word"]), _evidence(vs["word"]))
    second = arm_outcomes(second_queries)  # pivoted once for every contrast below
    gains = {r: contrast(second, {f"{r}@2": 1.0, f"{r}@1": -1.0}, seed=seed) for r in paper}
    rows += [_row(HELPS, f"{r} at k = 2", f"{r} at k = 1", title, "top-1 accuracy", c) for r, c in gains.items()]
    least = min(gains, key=lambda r: gains[r]["low"])
    found[HELPS] = (_all_of(gains), f"least sure gain {RANKERS[least].label} {_evidence(gains[least])}")
    if "bm25" in paper and len(paper) > 1:
        more = {r: contrast(second, {"bm25@2": 1.0, "bm25@1": -1.0, f"{r}@2": -1.0, f"{r}@1": 1.0},
                            seed=seed) for r in paper if r != "bm25"}
        rival = max(more, key=lambda r: gains[r]["difference"])
        found[BM25_MOST] = (_all_of(more), f"BM25 {signed(gains['bm25']['difference'])} pp, largest other "
                                           f"{RANKERS[rival].label} {signed(gains[rival]['difference'])} pp, "
                                           f"difference {_evidence(more[rival])}")
        rows += [_row(BM25_MOST, "bm25 gain", f"{r} gain", title, "gain from a second wording (pp)", c)
                 for r, c in more.items()]
    return found, rows


def _row(claim: str, a: str, b: str, data: str, metric: str, c: dict) -> dict[str, object]:
    """A ``verdicts.csv`` row of a two-way comparison, ranker ids in ``a`` and ``b`` turned into labels."""
    def name(x: str) -> str:
        head, _, tail = x.partition(" ")
        return f"{RANKERS[head].label} {tail}".strip() if head in RANKERS else x
    return verdict_row(chapter=CHAPTER, claim=claim, a=name(a), b=name(b), data=data, metric=metric,
                       difference=c["difference"], low=c["low"], high=c["high"], unit="gallery and description",
                       n_units=int(c["n_descriptions"]),
                       method=f"{c['method']} over {c['n_galleries']} galleries and {c['n_descriptions']} descriptions")


def claims_table(per_library: dict[str, dict[str, tuple[str, str]]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(table of "verdict: evidence" cells by library title, claim × library verdict words)."""
    return verdict_table(per_library)


def paired_wins(per_trial: pd.DataFrame, a: str, b: str) -> tuple[int, int]:
    """(trials where ranker ``a`` beats ``b``, trials) in a per-trial frame (``trial``, ``ranker``, ``accuracy``)."""
    wide = per_trial.pivot_table(index="trial", columns="ranker", values="accuracy")
    return int((wide[a] > wide[b]).sum()), len(wide)
