"""The chapter's data-dependent words, each from :func:`robotask.words.verdict` or a count.

A deciding word ("higher", "better", "lower") is read from a paired interval: the whole interval on one side of
zero, or "not resolved". Nothing here writes a sentence.
"""

from __future__ import annotations

from ...words import count, verdict
from ..rankers.registry import display
from .discrimination import SOURCE_SIGNALS
from .paraphrases import GALLERY_TITLES, HIGH_TITLES
from .resampling import Interval


def gap_word(iv: Interval) -> str:
    """Success when retrieved against when missed: "higher when retrieved", "lower when retrieved", "not resolved"."""
    return verdict(iv.low, iv.high, above="higher when retrieved", below="lower when retrieved")


def difference_word(iv: Interval, above: str = "higher", below: str = "lower") -> str:
    """The word of a paired difference A − B (points or AUC)."""
    return verdict(iv.low, iv.high, above=above, below=below)


def share(words: list[str], word: str, noun: str = "ranker") -> str:
    """``"6 of 7 rankers"``: how many ``words`` are ``word``."""
    return f"{sum(w == word for w in words)} of {count(len(words), noun)}"


def signal_label(name: str) -> str:
    """A signal's name for a reader: "Char TF-IDF margin, 130 LIBERO tasks" or "PRIDE paraphrase distance"."""
    if name in SOURCE_SIGNALS:
        return SOURCE_SIGNALS[name]
    _, gallery, ranker = name.split(":")
    return f"{display(ranker)} margin, {GALLERY_TITLES[gallery]}"


def type_label(value: str) -> str:
    """A ``high`` type with its meaning: "comp (both reworded)"; other values as they are."""
    return f"{value} ({HIGH_TITLES[value]})" if value in HIGH_TITLES else value
