"""The book's one rule for verdicts: a deciding word comes from a paired interval, never from two means.

Every word that decides ("higher", "holds", "hurts", "leads", "ahead", ...) is chosen by :func:`verdict` from
an interval of the paired difference A − B over the draws, galleries or folds that produced both numbers.
An interval that includes zero gives "not resolved", whatever the gap between the means. Both wings use it,
so it lives in the core once; ``tests/test_verdicts.py`` pins it.

:func:`paired_interval` is the interval the book uses when it has one paired difference per draw: the mean
difference with a Student-t interval over the draws (deterministic, no resampling). A chapter that has a
better-suited interval (a bootstrap over tasks and paraphrases, say) passes its own bounds to :func:`verdict`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .errors import RobotaskError

UNRESOLVED = "not resolved"


@dataclass(frozen=True)
class PairedInterval:
    """The mean of paired differences A − B over ``n`` draws and its two-sided interval at ``level``."""

    mean: float
    low: float
    high: float
    n: int
    level: float

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


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
    half = float(stats.t.ppf(0.5 + level / 2, n - 1) * x.std(ddof=1) / math.sqrt(n))
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


def paired_verdict(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, *, above: str = "higher",
                   below: str = "lower", unresolved: str = UNRESOLVED, level: float = 0.95) -> str:
    """:func:`verdict` of :func:`paired_interval` ``(a, b)``: one call for "is A above B over these draws"."""
    iv = paired_interval(a, b, level=level)
    return verdict(iv.low, iv.high, above=above, below=below, unresolved=unresolved)
