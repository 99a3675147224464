"""Small helpers that turn numbers into prose a person would write.

No reprs, no "(s)" plurals, integers for counts, units on percentages. Notebooks build computed
sentences from these (and from the wings' own sentence functions) instead of templating f-strings
inline; ``tests/test_prose.py`` pins their behaviour.
"""

from __future__ import annotations

from typing import Iterable

IRREGULAR = {"query": "queries", "class": "classes", "loss": "losses", "index": "indices",
             "axis": "axes", "library": "libraries", "variation": "variations", "is": "are", "was": "were"}
SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def plural_of(word: str) -> str:
    """The plural of an English noun (a short irregular list, then the regular rules)."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def count(n: float, word: str, words: bool = False) -> str:
    """``count(3, "query")`` → "3 queries"; ``count(1, "loss")`` → "1 loss". Counts print as integers.

    ``words=True`` spells out zero to ten ("two galleries").
    """
    k = int(round(float(n)))
    if abs(float(n) - k) > 1e-9:
        raise ValueError(f"count({n!r}, {word!r}): a count must be a whole number")
    shown = SMALL[k] if words and 0 <= k < len(SMALL) else f"{k:,}"
    return f"{shown} {word if k == 1 else plural_of(word)}"


def pct(x: float, digits: int = 1) -> str:
    """A percentage already in percent units: ``pct(63.27)`` → "63.3 %"."""
    return f"{float(x):.{digits}f} %"


def pp(x: float, digits: int = 1) -> str:
    """A signed difference in percentage points: ``pp(4.9)`` → "+4.9 pp", ``pp(-1)`` → "−1.0 pp"."""
    sign = "+" if x >= 0 else "−"
    return f"{sign}{abs(float(x)):.{digits}f} pp"


def num(x: float, digits: int = 3) -> str:
    """A real number with fixed digits and a true minus sign: ``num(-0.0661)`` → "−0.066"."""
    text = f"{float(x):.{digits}f}"
    return text.replace("-", "−")


def join(items: Iterable[object], last: str = "and") -> str:
    """``join(["a", "b", "c"])`` → "a, b and c"; one item alone; "" for none."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def yes_no(flag: bool, yes: str = "yes", no: str = "no") -> str:
    """Words for a boolean in prose or a table cell, never ``True``/``False``."""
    return yes if bool(flag) else no
