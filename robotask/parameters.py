"""The allowed range of a numeric notebook parameter, declared by the wing whose study uses it.

Each wing names its chapters' parameters in its own table (``robotask.retrieval.parameters.RANGES``,
``robotask.episode.parameters.RANGES``); the book wing's runner checks values against the tables it
is given (:func:`robotask.book.params.resolve`) and imports no wing. The entry point
(:func:`robotask.cli.parameter_ranges`) merges the tables with :func:`merge`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .errors import RobotaskError


@dataclass(frozen=True)
class Range:
    """Lowest and highest allowed value (``None``: unbounded on that side) and what is expected, in
    words, for the error message: ``Range(low=1, high=None, meaning=">= 1 epoch")``."""

    low: float | None
    high: float | None
    meaning: str

    def admits(self, value: float) -> bool:
        """Whether ``value`` lies inside the range (both ends included)."""
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def check(self, name: str, value: object, where: str) -> None:
        """Raise a :class:`RobotaskError` naming ``where`` and parameter ``name`` when a numeric
        ``value`` lies outside the range; anything that is not a number (or is a bool) passes."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return
        if not self.admits(value):
            raise RobotaskError(f"{where}: parameter {name!r} = {value!r} is out of range; "
                                f"expected {self.meaning}")


def option(allowed: Range, kind: type[int] | type[float] = int) -> Callable[[str], float]:
    """An ``argparse`` type for a numeric command-line option: the value, or one clear line naming
    what was given and the allowed range (``robotask synth --frames -5`` → ``argument --frames:
    -5 is out of range; expected between 1 and 100000 frames``), before any work starts."""
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            noun = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun}; expected {allowed.meaning}") from None
        if value != value or not allowed.admits(value):  # NaN admits nothing
            raise argparse.ArgumentTypeError(f"{text} is out of range; expected {allowed.meaning}")
        return value

    parse.__name__ = kind.__name__
    return parse


Ranges = Mapping[str, Range]
"""Parameter name → its :class:`Range`. The same name means the same thing in every notebook."""

SEED = Range(low=0, high=None, meaning=">= 0 (a NumPy seed)")
"""The range of a NumPy generator seed, which both studies' chapters take."""
PROCESSES = Range(low=1, high=256, meaning="between 1 and 256 processes")
"""The range of a number of worker processes or side-by-side jobs (``--jobs``, ``--workers``)."""


def merge(*tables: Ranges) -> dict[str, Range]:
    """One table from several; a name two tables declare must have the same range in both."""
    merged: dict[str, Range] = {}
    for table in tables:
        for name, declared in table.items():
            if merged.setdefault(name, declared) != declared:
                raise RobotaskError(f"parameter {name!r} is declared with two ranges: "
                                    f"{merged[name].meaning} and {declared.meaning}")
    return merged
