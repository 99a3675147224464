"""Short data-dependent phrases of chapter 14 (each tested); the notebook writes the sentences around them."""

from __future__ import annotations

import numpy as np

from ..tasks.registry import TASKS


def task_list(task_ids: list[str]) -> str:
    """Task titles joined with commas and 'and'; 'no task' for an empty list."""
    names = [TASKS[t].display_name for t in task_ids]
    if not names:
        return "no task"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def needed(n: int | None, largest: int) -> str:
    """'4 episodes' (from which the head stays ahead of the baseline), or 'not ahead at the 16 tried'."""
    if n is None:
        return f"not ahead at {largest}"
    return "1 episode" if n == 1 else f"{n} episodes"


def epochs_phrase(softmax: int, mlp: int, suite_softmax: int, suite_mlp: int) -> str:
    """'the suite's own' when both heads train as long as the suite's, else 'fewer than the suite's'."""
    return "the suite's own" if softmax >= suite_softmax and mlp >= suite_mlp else "fewer than the suite's"


def speedup_phrase(speedup: float, workers: int) -> str:
    """'1.62 times as fast with 2 workers as with one', or 'no faster with 2 workers than with one'."""
    if not np.isfinite(speedup) or speedup <= 1.02:
        return f"no faster with {workers} workers than with one"
    return f"{speedup:.2f} times as fast with {workers} workers as with one"


def ceiling_phrase(lowest_pct: float, limit: float = 90.0) -> str:
    """What the lowest fold's label coverage means: below ``limit`` % the ceiling caps the label tasks there."""
    if not np.isfinite(lowest_pct):
        return "not measured"
    if lowest_pct >= limit:
        return "so on this collection the ceiling is not what limits the label tasks"
    return "so on some folds the ceiling caps the label tasks: read their means against this table"


def runs_phrase(ran: int, of: int) -> str:
    """'runs on every fold', 'runs on no fold' or 'runs on 3 of 5 folds'."""
    if of and ran == of:
        return "runs on every fold"
    return "runs on no fold" if ran == 0 else f"runs on {ran} of {of} folds"


def run_notes(*, synthetic: bool, protocols: list[str], shifts: list[str]) -> list[str]:
    """The premises of the chapter's prose that this run's parameters make false, one clause each (empty: none)."""
    notes = [("the sentences on the synthetic variation describe the synthetic collection, and this run reads "
              "real episodes (parameter `collection_dir`)", not synthetic),
             ("one protocol only ran (parameter `cv_protocols`): the other's counts are zero",
              set(protocols) != {"original", "improved"}),
             ("not every shift ran (parameter `shifts`, or the manifest lacks the column): the missing one hurts "
              "no task by construction", len(shifts) < 2)]
    return [n for n, bad in notes if bad]
