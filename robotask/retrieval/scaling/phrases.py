"""Short data-dependent phrases for the libraries chapter (each tested in ``tests/test_scaling.py``).

Deciding words come from :func:`robotask.words.verdict`; these only name and join what it decided."""

from __future__ import annotations

import pandas as pd

from ...words import UNRESOLVED, PairedInterval, join, verdict
from ..rankers.registry import RANKERS


def _label(ranker: str) -> str:
    return RANKERS[ranker].label if ranker in RANKERS else ranker


def leader(means: dict[str, float]) -> str:
    """The ranker with the highest mean (ties by name)."""
    return min(means, key=lambda r: (-means[r], r))


def resolved_leader(top: str, interval: PairedInterval) -> str:
    """``top``'s label when its lead over the runner-up is resolved (interval above zero), else "not resolved"."""
    return verdict(interval.low, interval.high, above=_label(top), below=UNRESOLVED)


def leaders_by(leads: dict[int, str], name: str = "k") -> str:
    """Runs of one word over x: "not resolved at k = 1, Char TF-IDF at k = 2–32"."""
    runs: list[list] = []
    for x in sorted(leads):
        if runs and runs[-1][0] == leads[x]:
            runs[-1][2] = x
        else:
            runs.append([leads[x], x, x])
    return ", ".join(f"{t} at {name} = {a}" + (f"–{b}" if b != a else "") for t, a, b in runs)


def order_change(leads: dict[int, str]) -> str:
    """'changes' when two resolved leaders differ, 'does not change' when one leads everywhere, else unresolved."""
    named = {w for w in leads.values() if w != UNRESOLVED}
    return "changes" if len(named) > 1 else "does not change" if named and len(named) == len(
        set(leads.values())) else UNRESOLVED


def share_phrase(fraction: float) -> str:
    """'most' (at least half) or 'less than half' of something (``fraction`` 0–1)."""
    return "most" if fraction >= 0.5 else "less than half"


def span(values: pd.Series | list[int]) -> str:
    """ "k = 2" or "k = 2 to 8": the range of integer values (e.g. the k of 90 % of the plateau)."""
    lo, hi = int(min(values)), int(max(values))
    return f"k = {lo}" if lo == hi else f"k = {lo} to {hi}"


def disagree_where(mm: pd.DataFrame, titles: dict[str, str]) -> str:
    """Libraries where macro − micro is resolved (95 % interval ``low``–``high`` excludes zero) for some ranker."""
    sure = (mm["low"] > 0) | (mm["high"] < 0)
    return join([titles.get(k, k) for k in dict.fromkeys(mm.loc[sure, "library"])]) or "no library"
