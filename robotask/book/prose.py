"""Small helpers that turn numbers into prose a person would write.

No reprs, no "(s)" plurals, integers for counts, units on percentages. Notebooks build computed
sentences from these (and from the wings' own sentence functions) instead of templating f-strings
inline; ``tests/test_prose.py`` pins their behaviour. ``plural_of`` and ``count`` live in the core
(:mod:`robotask.words`, which the other wings may import) and are re-exported here.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..words import count, plural_of  # noqa: F401 (re-exported: the core holds them so the wings can use them)


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


_UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:%|pp)(?!\w))")


def keep_units(text: str) -> str:
    """A no-break space between a number and its ``%`` or ``pp``, so a line never starts with the unit."""
    return _UNIT_SPACE.sub("\u00a0", text)
