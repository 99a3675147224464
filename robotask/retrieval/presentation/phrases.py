"""Short data-dependent words and phrases of the retrieval chapters and the home page (each tested).

The notebooks write the sentences; these functions return only the words that depend on the
data ("beats", "one description fewer", "3 of 5 rankers", a ranker's label, the order of the rankers);
the values each chapter glues are in :mod:`.values`. Accuracies are in percent, differences in
percentage points (pp).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from ...words import count, join, pct, plural_of
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


def leader(values: Mapping[str, float]) -> str:
    """The key with the highest value (ties to the first key in sorted order); a Series is read as
    index → value."""
    values = dict(values)
    return min(values, key=lambda k: (-values[k], k))


def fewer_or_more(d: int, word: str) -> str:
    """ "one description fewer", "2 descriptions more", "the same number of descriptions"."""
    if d == 0:
        return f"the same number of {plural_of(word)}"
    return f"{count(abs(d), word, words=True)} {'fewer' if d < 0 else 'more'}"


def fits(n: int, ns: Iterable[int]) -> str:
    """ "fits" when ``n`` is one of ``ns``, else "does not fit"."""
    return "fits" if n in set(ns) else "does not fit"


def same_or_reversed(a: float, b: float) -> str:
    """ "the same" when the differences ``a`` and ``b`` have the same sign, else "reversed"."""
    return "reversed" if a * b < 0 else "the same"


def how_many(k: int, n: int, word: str) -> str:
    """ "every ranker", "no ranker", "both rankers" or "3 of 5 rankers"."""
    if k == n:
        return f"both {plural_of(word)}" if n == 2 else f"every {word}"
    return f"no {word}" if k == 0 else f"{k} of {count(n, word)}"


def one_sign(values: Iterable[float]) -> str:
    """ "has the same sign" when all values are positive or all negative, else "changes sign"."""
    v = list(values)
    return "has the same sign" if all(x > 0 for x in v) or all(x < 0 for x in v) else "changes sign"


def per_draw(excluded: pd.Series) -> str:
    """Queries excluded per draw (excluded count → draws) as "1 in 45 draws and 2 in 35 draws"."""
    return join([f"{int(k)} in {count(int(v), 'draw')}" for k, v in excluded.items()])


def labels(rankers: Iterable[str], empty: str = "none") -> str:
    """Rankers by their labels, joined: "BM25 and Char TF-IDF"; ``empty`` when there are none."""
    names = [label(r) for r in rankers]
    return join(names) if names else empty


def record(wins: int, ties: int, losses: int) -> str:
    """A paired record as words: "higher in every gallery", "higher in 1, tied in 0 and lower in 2
    of the 3 galleries"."""
    n = wins + ties + losses
    for k, word in ((wins, "higher"), (losses, "lower"), (ties, "tied")):
        if k == n:
            return f"{word} in {'the one gallery' if n == 1 else 'every gallery'}"
    return f"higher in {wins}, tied in {ties} and lower in {losses} of the {count(n, 'gallery')}"


def size_verdict(n_fit_paper: int, n_fit_ours: int, n: int) -> str:
    """ "supports" when every stated percentage fits the paper's counts and fewer fit ours."""
    return "supports" if n_fit_paper == n > n_fit_ours else "does not settle"


def premise(holds: bool) -> str:
    """Chapter 04: whether the premise of its explanation of strict = either-label scoring (two unindexed
    copies of the shared text, no ranker predicting an owner) holds in this run."""
    if holds:
        return "holds"
    return "fails in this run (a copy of the text is indexed, or a ranker predicts an owner), so it does not apply"
