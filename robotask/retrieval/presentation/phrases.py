"""Short data-dependent words and phrases of the retrieval chapters and the home page (each tested).

The notebooks write the sentences; these functions return only the words that depend on the
data ("beats", "one description fewer", "3 of 5 rankers", a ranker's label, the order of the rankers);
the values each chapter glues are in :mod:`.values`. Further down: the words of the rankers' tests
(chapters 06 to 08: which way a difference points, which source of uncertainty dominates, whether two tests
agree) and of the other libraries (chapter 09.1: per-library leads, bands and claims). Accuracies are in
percent, differences in percentage points (pp).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from ...words import UNRESOLVED, count, join, pct, plural_of, pp, verdict
from ..rankers.registry import RANKERS

PAPER_REF = "{cite:t}`yelamanchi2026reference`"
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


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


# ------------------------------------------------------------------ chapters 06 to 08: the rankers' tests
def shown(x: float, signed: bool = False, digits: int = 1) -> str:
    """A number as the prose shows it: "64.8", signed "+4.9" or "−1.0" (true minus), "—" when missing (NaN)."""
    if pd.isna(x):
        return "—"
    return pp(x, digits, unit="") if signed else f"{float(x):.{digits}f}"


def p_value(p: float) -> str:
    """ "P = 0.12", "P = 0.0031" or "P < 0.001"."""
    return "P < 0.001" if p < 0.001 else f"P = {p:.2g}"


def cache_source(cached: bool, n_encoded: int, n_distinct: int) -> str:
    """How the MiniLM vectors were obtained in this run (chapter 06)."""
    if cached and n_encoded == 0:
        return "read from the on-disk vector cache, without running the model"
    if cached and n_encoded < n_distinct:
        return f"partly embedded by the model in this run ({n_encoded} of them) and partly read from the vector cache"
    return "embedded by the model in this run"


def cosine_reading(opposite: float, paraphrase: float) -> str:
    """How the MiniLM cosine of an opposite command compares with that of a paraphrase (chapter 06)."""
    if opposite >= paraphrase:
        return "closer to the query than the paraphrase is"
    if paraphrase - opposite < 0.1:
        return "almost as close to the query as the paraphrase"
    return "clearly further from the query than the paraphrase"


def dominant_source(width_queries: float, width_galleries: float) -> str:
    """Which resampling gives the wider interval (chapter 07)."""
    return "the finite set of instructions" if width_queries > width_galleries else "the draw of the galleries"


def criteria_agreement(p_holm: float, lo: float, hi: float, alpha: float) -> str:
    """Whether the permutation test and the bootstrap interval separate two rankers (chapter 07)."""
    small, excludes = p_holm < alpha, lo > 0 or hi < 0
    if small and excludes:
        return "both criteria separate the two rankers"
    if small:
        return "only the permutation test separates them; the bootstrap interval includes zero"
    if excludes:
        return "only the bootstrap interval separates them; the permutation test does not"
    return "neither criterion separates them"


def claims_with(claims: pd.DataFrame, verdict: str) -> str:
    """The claims (``claim`` like "char > bm25") with one ``verdict``, as labels, or "none"."""
    named = [claim_label(c) for c in claims.loc[claims["verdict"] == verdict, "claim"]]
    return join(named) or "none"


def signs(lo: pd.Series, hi: pd.Series) -> str:
    """What the 95 % intervals of the rankers' changes decide (:func:`robotask.words.verdict`): "every ranker
    gains", or "2 rankers lose accuracy and 1 ranker is not resolved" (chapter 08)."""
    words = [verdict(a, b, above="gains", below="loses accuracy") for a, b in zip(lo, hi)]
    kinds = [("gains", "gain"), ("loses accuracy", "lose accuracy"), (UNRESOLVED, "are not resolved")]
    for one, _ in kinds:
        if words.count(one) == len(words):
            return f"every ranker {'is not resolved' if one == UNRESOLVED else one}"
    return join([f"{count(words.count(one), 'ranker')} "
                 f"{verb(words.count(one), 'is not resolved' if one == UNRESOLVED else one, many)}"
                 for one, many in kinds if words.count(one)])


def pair_list(pairs: list[tuple[str, str]]) -> str:
    """Pairs of opposite task ids: "close_box ↔ open_box and lamp_off ↔ lamp_on", or "none"."""
    return join([f"{a} ↔ {b}" for a, b in pairs]) or "none"


def time_ratio(seconds: float, reference: float) -> str:
    """ "about 87 times as long as", "about as long as" or "less time than" (chapter 06's timings)."""
    ratio = seconds / max(reference, 1e-9)
    if ratio >= 1.5:
        return f"about {ratio:.0f} times as long as"
    return "about as long as" if ratio > 2 / 3 else "less time than"


# ------------------------------------------------------------------ chapter 09.1: other libraries
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
