"""The number words of the retrieval chapters and the home page's sentences.

Accuracies are in percent, differences in percentage points (pp). Chapters 01 to 05 write their
prose in Markdown and take their data-dependent words from :mod:`.phrases`; the home page
(``00_home``) and the chapters beyond the paper still use the sentences below, each checked in
``tests/test_retrieval_sentences.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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

