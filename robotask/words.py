"""Words for counts, kinds and verdicts, for sentences and error messages that read like a person wrote them.

No "(s)" plurals, integers for counts, "an int" rather than "a int", true minus signs, units on
percentages, a unit kept on its number's line. The core holds these once so that
every wing can use them. ``tests/test_words.py`` and ``tests/test_prose.py`` pin their behaviour.

**The book's one rule for verdicts.** Every word that decides ("higher", "holds", "hurts", "leads", "ahead")
is chosen by :func:`verdict` from an interval of the paired difference A − B over the draws, galleries or
folds that produced both numbers; an interval that includes zero gives "not resolved", whatever the gap
between the means (``tests/test_verdicts.py``). :func:`paired_interval` is the interval the book uses when it
has one paired difference per draw (a Student-t interval, deterministic); a chapter with a better-suited
interval (a bootstrap over tasks and paraphrases, say) passes its own bounds to :func:`verdict`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import RobotaskError

IRREGULAR = {"query": "queries", "class": "classes", "loss": "losses", "index": "indices",
             "axis": "axes", "library": "libraries", "variation": "variations", "is": "are", "was": "were"}
SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Starts that sound unlike their first letter: "a unit", "a user", "an ndarray", "an hour".
SOUNDS_LIKE_A = ("uni", "use", "usu", "uti", "one", "eu")
SOUNDS_LIKE_AN = ("nd", "hour", "honest")


def plural_of(word: str) -> str:
    """The plural of an English noun or of a phrase ending in one ("test class" → "test classes"):
    a short irregular list, then the regular rules."""
    head, _, last = word.rpartition(" ")
    if last in IRREGULAR:
        return f"{head} {IRREGULAR[last]}" if head else IRREGULAR[last]
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


def named(word: str, items: Sequence[object]) -> str:
    """A noun and the items it names: ``named("column", ["text"])`` → "column text",
    ``named("column", ["task", "text"])`` → "columns task, text"."""
    listed = ", ".join(str(i) for i in items)
    return f"{word if len(items) == 1 else plural_of(word)} {listed}"


def with_article(word: str) -> str:
    """``word`` after "a" or "an" as it sounds: "an int", "a str", "a unit", "an ndarray"."""
    start = word.lower()
    if start.startswith(SOUNDS_LIKE_AN):
        return f"an {word}"
    vowel = start[:1] in ("a", "e", "i", "o", "u") and not start.startswith(SOUNDS_LIKE_A)
    return f"{'an' if vowel else 'a'} {word}"


def kind_of(value: object) -> str:
    """What a value is, for "expected a list" messages: "an int", "a dict", "null" for None."""
    return "null" if value is None else with_article(type(value).__name__)


def number(x: float | None, digits: int = 3) -> str:
    """A value for prose with a true minus sign: ``number(-3.9109)`` → "−3.911"; "–" when missing."""
    if x is None or float(x) != float(x):  # None or NaN
        return "–"
    return f"{float(x):.{digits}f}".replace("-", "−")


def pct(x: float, digits: int = 1) -> str:
    """A percentage already in percent units: ``pct(63.27)`` → "63.3 %" (a fraction: ``pct(100 * x)``)."""
    return f"{float(x):.{digits}f} %"


def pp(x: float, digits: int = 1, *, unit: str = " pp") -> str:
    """A signed difference in percentage points: ``pp(4.94)`` → "+4.9 pp", ``pp(-1)`` → "−1.0 pp".

    A difference that rounds to zero at ``digits`` has no sign: ``pp(0.04)`` → "0.0 pp" (as it is
    printed, it is neither a gain nor a loss). ``unit=""`` leaves the unit off ("+4.9").
    """
    shown = f"{abs(float(x)):.{digits}f}"
    if float(shown) == 0:
        return shown + unit
    return f"{'+' if x > 0 else '−'}{shown}{unit}"


def join(items: Iterable[object], last: str = "and") -> str:
    """``join(["a", "b", "c"])`` → "a, b and c"; ``last="or"`` → "a, b or c"; one item alone; "" for none."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


_UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:%|pp)(?!\w))")


def keep_units(text: str) -> str:
    """A no-break space between a number and its ``%`` or ``pp``, so a line never starts with the unit."""
    return _UNIT_SPACE.sub("\u00a0", text)


# ------------------------------------------------------------------ verdicts: words a paired interval decides
UNRESOLVED = "not resolved"


@dataclass(frozen=True)
class PairedInterval:
    """The mean of paired differences A − B over ``n`` draws and its two-sided interval at ``level``."""

    mean: float
    low: float
    high: float
    n: int
    level: float


def paired_interval(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, *,
                    level: float = 0.95) -> PairedInterval:
    """Student-t interval of the mean of ``a − b`` over paired draws (``a[i]`` and ``b[i]`` from draw ``i``).

    With fewer than two draws, or no spread at all, the interval is the mean itself only when every
    difference is the same; one draw gives an unbounded interval (nothing is resolved from one draw).
    """
    x = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if x.ndim != 1 or np.asarray(a).shape != np.asarray(b).shape:
        raise RobotaskError(f"paired_interval: a and b must be 1-d of one length, got {np.shape(a)} and {np.shape(b)}")
    if not 0 < level < 1:
        raise RobotaskError(f"paired_interval: level must lie in (0, 1), got {level}")
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return PairedInterval(mean=math.nan, low=math.nan, high=math.nan, n=0, level=level)
    mean = float(x.mean())
    if n == 1:
        return PairedInterval(mean=mean, low=-math.inf, high=math.inf, n=1, level=level)
    from scipy import special  # here: importing scipy costs a command that only counts words 0.4 s

    half = float(special.stdtrit(n - 1, 0.5 + level / 2) * x.std(ddof=1) / math.sqrt(n))  # Student-t quantile
    return PairedInterval(mean=mean, low=mean - half, high=mean + half, n=n, level=level)


def verdict(low: float, high: float, *, above: str = "higher", below: str = "lower",
            unresolved: str = UNRESOLVED) -> str:
    """The word an interval [low, high] of a paired difference A − B decides.

    ``above`` when the whole interval lies above zero, ``below`` when it lies below, ``unresolved``
    when it includes zero or is not finite: ``verdict(0.4, 2.1)`` → "higher"; ``verdict(-0.3, 2.1)`` →
    "not resolved".
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        return unresolved
    if low > high:
        raise RobotaskError(f"verdict: the interval's low end {low} lies above its high end {high}")
    if low > 0:
        return above
    if high < 0:
        return below
    return unresolved


VERDICT_COLUMNS = ("chapter", "claim", "a", "b", "data", "metric", "difference", "low", "high", "unit", "n_units",
                   "method", "verdict")
"""The columns of the book's index of verdicts (``verdicts.csv``): one row per comparison a page decides."""


def verdict_row(*, chapter: str, claim: str, a: str, b: str, data: str, metric: str, difference: float,
                low: float, high: float, unit: str, n_units: int, method: str) -> dict[str, object]:
    """One row of a chapter's ``verdicts.csv``: the comparison A − B on ``data`` by ``metric``, its interval
    [low, high] over ``n_units`` resampled ``unit``s (galleries and descriptions, episodes, tasks…) by ``method``,
    and the word :func:`verdict` decides from it ("higher", "lower" or "not resolved")."""
    return {"chapter": chapter, "claim": claim, "a": a, "b": b, "data": data, "metric": metric,
            "difference": float(difference), "low": float(low), "high": float(high), "unit": unit,
            "n_units": int(n_units), "method": method, "verdict": verdict(float(low), float(high))}
