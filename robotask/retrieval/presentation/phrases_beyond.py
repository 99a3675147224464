"""Short data-dependent phrases of chapters 06 to 08 (the chapters beyond the paper).

The notebooks say the story in Markdown and glue these phrases into it wherever the wording depends
on the data (which way a difference points, which source of uncertainty dominates, whether two tests
agree); ``tests/test_retrieval_phrases_beyond.py`` checks each one. Percentages are in percent,
differences in percentage points (pp).
"""

from __future__ import annotations

import pandas as pd

from ...words import UNRESOLVED, count, join, pp, verdict
from .phrases import claim_label, verb


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
