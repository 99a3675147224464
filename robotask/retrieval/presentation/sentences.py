"""The number words of the retrieval chapters and the home page's sentences.

Accuracies are in percent, differences in percentage points (pp). Chapters 01 to 05 write their
prose in Markdown and take their data-dependent words from :mod:`.phrases`; the home page
(``00_home``) and the chapters beyond the paper still use the sentences below, each checked in
``tests/test_retrieval_sentences.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ...words import count, join, pct, plural_of, pp  # noqa: F401 (the sentence modules import them from here)
from ..rankers.registry import RANKERS

PAPER_REF = "{cite:t}`yelamanchi2026reference`"
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def noun(n: int, word: str) -> str:
    """``word`` as the count ``n`` needs it: "trial", "trials", "gallery", "galleries", "losses"."""
    return word if int(n) == 1 else plural_of(word)


def verb(n: int, one: str, many: str) -> str:
    """The form a count needs: ``verb(1, "has", "have")`` → "has"; any other count → "have"."""
    return one if int(n) == 1 else many


def label(ranker: str) -> str:
    """The short label of a ranker ("Char TF-IDF"); an unknown name as is."""
    spec = RANKERS.get(ranker)
    return ranker if spec is None else spec.label


# Headers of the paired-comparison tables (chapters 06 and 07): differences in pp, P-values.
PAIRED_HEADERS = {
    "pair": "Pair", "claim": "Claim", "paper_diff": "Paper difference (pp)",
    "mean_diff": "Mean difference (pp)", "lo": "95 % CI low", "hi": "95 % CI high",
    "p_sign": "P (sign test)", "p_perm": "P (permutation)", "p_perm_holm": "P (Holm)",
}


def claim_label(claim: str) -> str:
    """An ordering claim with ranker labels: "bm25 > word" → "BM25 > Word TF-IDF"."""
    return " > ".join(label(r.strip()) for r in claim.split(">"))


def ranker_headers(columns: Sequence[str]) -> dict[str, str]:
    """Headers naming rankers by their labels: "char predicts" → "Char TF-IDF predicts"."""
    heads = {}
    for col in columns:
        first, _, rest = str(col).partition(" ")
        if rest and label(first) != first:
            heads[col] = f"{label(first)} {rest}"
    return heads


def ordering(means: Mapping[str, float]) -> str:
    """Rankers from the highest mean to the lowest: "Char TF-IDF (61.0 %) > BM25 (55.0 %)"."""
    ranked = sorted(means.items(), key=lambda kv: -kv[1])
    return " > ".join(f"{label(r)} ({pct(m)})" for r, m in ranked)


# --------------------------------------------------------------------------- the home page (notebook 00_home)
def headline(ours: Mapping[str, Mapping[str, float]], paper: Mapping[str, Mapping[str, float]]) -> str:
    """The paper's headline means next to ours, for the paper's leader and the two rankers it cites.

    ``ours`` and ``paper``: ranker → ``{"mean": ...}`` (chapter 02's ``table2``, ``paper.TABLE2``).
    """
    shared = [r for r in sorted(paper, key=lambda r: -paper[r]["mean"]) if r in ours]
    if not shared:
        return "Chapter 02 scored none of the paper's rankers, so its headline cannot be compared."
    lead, others = shared[0], shared[1:3]
    theirs = join([f"{label(r)} {pct(paper[r]['mean'])}" for r in others])
    mine = join([f"{label(r)} {pct(ours[r]['mean'])}" for r in others])
    best_ours = max((r for r in ours if r in paper), key=lambda r: ours[r]["mean"])
    verdict = ("it leads our run too" if best_ours == lead
               else f"in our run {label(best_ours)} leads the paper's rankers")
    return (f"{PAPER_REF} reports {label(lead)} as the best of five training-free rankers, at "
            f"**{pct(paper[lead]['mean'])}** mean top-1 accuracy over random one-description galleries "
            f"({theirs}). Our rerun of its protocol on our own extraction of RLBench gives "
            f"**{pct(ours[lead]['mean'])}** ({mine}); {verdict}.")


def claims_reproduced(claims: Mapping[str, bool]) -> str:
    """How many of the paper's qualitative claims our run reproduces (chapter 05's ``claims``)."""
    n_ok = sum(bool(v) for v in claims.values())
    return f"{n_ok} of the paper's {len(claims)} qualitative claims are reproduced."


def minilm_finding(summary: Mapping[str, Mapping[str, float]]) -> str:
    """MiniLM's mean next to the best lexical ranker's, with their intervals (chapter 06's ``summary``)."""
    if "minilm" not in summary:
        return "The sentence-embedding chapter did not score MiniLM in this build."
    lexical = [r for r in summary if r in RANKERS and RANKERS[r].in_paper]
    best = max(lexical, key=lambda r: summary[r]["mean"])
    m, b = summary["minilm"], summary[best]
    return (f"A sentence-embedding ranker (MiniLM, not in the paper) reaches {pct(m['mean'])} "
            f"(95 % interval {pct(m['lo'])} to {pct(m['hi'])}) against {pct(b['mean'])} for "
            f"{label(best)}, the best lexical ranker, without training or tuning.")


def verdicts_finding(claims: Sequence[Mapping[str, object]]) -> str:
    """How many of the paper's orderings the intervals and paired tests support (chapter 07).

    The others are counted in chapter 07's words: "not resolved" and "contradicted" (reversed).
    """
    verdicts = [str(c["verdict"]) for c in claims]
    n_sup = verdicts.count("supported")
    text = (f"Confidence intervals and paired tests support {n_sup} of the {len(verdicts)} orderings "
            "the paper's means imply")
    rest = [(verdicts.count(v), v) for v in ("not resolved", "contradicted")]
    rest += [(verdicts.count(v), v) for v in dict.fromkeys(verdicts)
             if v not in ("supported", "not resolved", "contradicted")]
    if n_sup == len(verdicts):
        return text + "."
    parts = [f"{n} {verb(n, 'is', 'are')} {v}" if n else f"none is {v}" for n, v in rest]
    return text + f"; {join(parts)}."


def perturbation_headline(table: Sequence[Mapping[str, object]]) -> str:
    """The largest drop any controlled perturbation causes (chapter 08's ``table``)."""
    rows = pd.DataFrame(list(table))
    worst = rows.loc[rows["change"].idxmin()]
    names = join(list(dict.fromkeys(rows["perturbation"].str.replace("_", " "))))
    text = f"Controlled rewrites of the queries ({names}) show what each representation relies on: "
    if round(float(worst["change"]), 1) >= 0:
        return text + "no rewrite lowers any ranker's accuracy."
    return (text + f"the largest drop is {abs(float(worst['change'])):.1f} pp, for "
            f"{label(worst['ranker'])} under {str(worst['perturbation']).replace('_', ' ')}.")


def transfer_finding(table2: Sequence[Mapping[str, object]]) -> str:
    """Which ranker leads in each instruction library of chapter 09 (``title, ranker, mean``)."""
    rows = pd.DataFrame(list(table2))
    tops = [grp.loc[grp["mean"].idxmax()] for _, grp in rows.groupby("title", sort=False)]
    leaders = list(dict.fromkeys(t["ranker"] for t in tops))
    if len(leaders) == 1:
        n = len(tops)
        where = ("the one instruction library" if n == 1 else "both instruction libraries" if n == 2
                 else f"all {WORDS.get(n, str(n))} instruction libraries")
        return (f"Under the same protocol, {label(leaders[0])} leads on {where}: "
                f"{join([pct(t['mean']) + ' on ' + str(t['title']) for t in tops])}.")
    parts = [f"{label(t['ranker'])} on {t['title']} at {pct(t['mean'])}" for t in tops]
    return f"Under the same protocol, the leading ranker differs between libraries: {join(parts)}."
