"""Why an episode task did not run, in words; and the core's number words under this wing's names.

The task pages (``notebooks/12_task.py``) and the collection chapter show :func:`not_run` as a note;
their other prose is Markdown in the notebooks, with short phrases from :mod:`.phrases`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...words import count, join, number, pct
from ..tasks.registry import TASKS


class prose:  # noqa: N801 - the core's number words under the names this wing's sentences use
    """Counts with plurals, signed numbers, percentages and lists for sentences (all from :mod:`robotask.words`)."""

    count = staticmethod(count)
    num = staticmethod(number)
    pct = staticmethod(pct)
    join = staticmethod(join)


def class_counts(counts: dict[str, int]) -> str:
    """``{"contact": 1161}`` → "all 1,161 samples are *contact*"; several → "12 *a*, 3 *b*"."""
    items = [(str(k), int(v)) for k, v in counts.items()]
    if len(items) == 1:
        name, n = items[0]
        return f"all {count(n, 'sample')} are *{name}*"
    return join(f"{n:,} *{name}*" for name, n in items)


def not_run(result: Any) -> str:
    """Why a protocol's run has no metrics, in words."""
    counts = result.details.get("class_counts")
    if result.status == "degenerate" and counts:
        train = result.details.get("train_class_counts", {})
        seen = [k for k, v in train.items() if v] or list(counts)
        return (f"The label is degenerate: {class_counts({k: v for k, v in counts.items() if v})}, and the "
                f"training part holds only *{join(seen)}*. With one class there is nothing to learn "
                f"or score, so no metric is reported.")
    return f"The task did not run ({result.status}): {result.reason}."


# ------------------------------------------------------------ chapter 14: a collection
def not_run_sentence(skipped: dict) -> str:
    """Why tasks show dashes in the split table: ``skipped`` maps a task to its status and details
    (``compare_splits(...).attrs["not_run"]``); each reason is :func:`not_run`'s."""
    from types import SimpleNamespace

    return " ".join(f"**{TASKS[t].display_name}** shows dashes. " + not_run(SimpleNamespace(
        status=d.get("status"), details=d, reason=d.get("reason"))) for t, d in skipped.items())


def scaling_verdict(scaling: pd.DataFrame | None) -> str:
    """Whether more workers made the extraction faster, from the measured speed-up
    (``collection_study.measure_scaling``; None when not measured)."""
    lead = "Feature extraction is one independent Dask task per episode"
    if scaling is None or len(scaling) < 2:
        return lead + " (its scaling with workers was not measured here)"
    n, speedup = count(scaling.iloc[-1]["workers"], "worker"), float(scaling.iloc[-1]["speedup"])
    base = f'{int(scaling.iloc[0]["workers"]):,}' if scaling.iloc[0]["workers"] > 1 else "one"
    if speedup > 1:
        return lead + f", and with {n} it ran {speedup:.2f} times as fast as with {base}"
    return lead + (f", but with {n} it did not run faster than with {base} (speed-up "
                   f"{speedup:.2f}): the timing comes from a machine shared with other work, so it "
                   f"does not show the scaling the independent tasks allow")
