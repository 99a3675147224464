"""Why an episode task did not run, in words; and the core's number words under this wing's names.

The task pages (``notebooks/12_task.py``) and the collection chapter show :func:`not_run` as a note;
their other prose is Markdown in the notebooks, with short phrases from :mod:`.phrases`.
"""

from __future__ import annotations

from typing import Any

from ...words import count, join, number, pct


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


