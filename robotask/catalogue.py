"""The catalogue of bad input: each case builds one broken input and states the outcome it must get.

Each wing lists its own cases (``robotask.<wing>.badinput.CASES``; the book wing's, which check the
studies' parameter ranges, from ``robotask.book.badinput.cases(ranges)``); the appendix chapter runs them
all and shows input, outcome and message, and ``tests/test_bad_input.py`` asserts every one. A case
either must fail with a :class:`~robotask.errors.RobotaskError` whose message matches ``expect``, or
must go on with a warning (``RobotaskWarning`` or any ``UserWarning``) whose text matches ``expect``,
or must be *handled*: the run goes on with nothing to say and the right result (an input edited in
place is seen, a killed build is rebuilt); the case checks that result itself and returns a one-line
note of what it checked, which must match ``expect``. A traceback of any other exception is a failed case.
"""

from __future__ import annotations

import re
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import RobotaskError

OUTCOMES = ("error", "warning", "handled")


@dataclass(frozen=True)
class Case:
    """One bad input and the outcome it must get.

    ``run(tmp)`` builds the input inside the empty folder ``tmp`` and performs the call a user would make;
    a ``handled`` case then checks the result and returns its note (a string).
    """

    group: str  # e.g. "videos", "annotation.hdf5", "corpora", "parameters", "outputs"
    name: str  # the input, in a few words: "fisheye_cam1.mp4 cut to 20 KB"
    outcome: str  # "error", "warning" or "handled"
    expect: str  # regular expression the message must match (re.search)
    run: Callable[[Path], Any]


@dataclass(frozen=True)
class Outcome:
    """What a case got: its outcome kind, the message, and whether that is what the case expects."""

    case: Case
    got: str  # "error", "warning", "handled", "nothing" or "crash"
    message: str

    @property
    def ok(self) -> bool:
        return self.got == self.case.outcome and re.search(self.case.expect, self.message) is not None


def run_case(case: Case) -> Outcome:
    """Run one case in a fresh temporary folder and classify what happened."""
    if case.outcome not in OUTCOMES:
        raise ValueError(f"case {case.name!r}: outcome {case.outcome!r}, expected one of {OUTCOMES}")
    with tempfile.TemporaryDirectory(prefix="robotask-case-") as tmp, warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            note = case.run(Path(tmp))
        except RobotaskError as exc:
            return Outcome(case, "error", _shown(str(exc), tmp))
        except Exception as exc:  # noqa: BLE001 - a crash is what the catalogue exists to catch
            return Outcome(case, "crash", _shown(f"{type(exc).__name__}: {exc}", tmp))
    relevant = [_shown(str(w.message), tmp) for w in seen if issubclass(w.category, UserWarning)]
    if relevant:
        return Outcome(case, "warning", " | ".join(dict.fromkeys(relevant)))
    if case.outcome == "handled" and isinstance(note, str):
        return Outcome(case, "handled", _shown(note, tmp))
    return Outcome(case, "nothing", "")


def _shown(message: str, tmp: str) -> str:
    """A message as the catalogue records it: the case's folder as ``<tmp>`` and the free space of this
    machine's disk (which differs from run to run) as ``… free``, so two runs record the same text."""
    return re.sub(r"\(\d+(?:\.\d+)? [kMGT]B free\)", "(… free)", message.replace(tmp, "<tmp>"))


def run_catalogue(cases: list[Case]) -> list[Outcome]:
    """Run every case; what a command prints on the way is not a case's message, so it is dropped."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return [run_case(c) for c in cases]


def outcome_table(outcomes: list[Outcome]) -> pd.DataFrame:
    """One row per case: group, input, expected and got outcome, message, and whether it is as expected."""
    return pd.DataFrame([
        {"group": o.case.group, "input": o.case.name, "expected": o.case.outcome, "got": o.got,
         "message": o.message, "ok": o.ok} for o in outcomes],
        columns=["group", "input", "expected", "got", "message", "ok"])


def group_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per group of :func:`outcome_table`: cases, how many got their outcome, and how many must end each way."""
    by = table.groupby("group", sort=False)
    must = {kind: (table["expected"] == kind).groupby(table["group"], sort=False).sum() for kind in OUTCOMES}
    return pd.DataFrame({"cases": by.size(), "as_expected": by["ok"].sum(), **must}).reset_index()


def outcome_values(table: pd.DataFrame) -> dict[str, int]:
    """The counts chapter 98 glues: cases, groups, cases as expected, crashes, and each expected outcome."""
    return {"n_cases": len(table), "n_groups": int(table["group"].nunique()), "n_ok": int(table["ok"].sum()),
            "n_crash": int((table["got"] == "crash").sum()),
            **{f"n_{kind}": int((table["expected"] == kind).sum()) for kind in OUTCOMES}}
