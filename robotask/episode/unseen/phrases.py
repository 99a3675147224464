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


def folds_won(wins: int, folds: int) -> str:
    """'on every one of the 5 folds', 'on no fold', or 'on 3 of 5 folds'."""
    if folds and wins == folds:
        return f"on every one of the {folds} folds"
    return "on no fold" if wins == 0 else f"on {wins} of {folds} folds"


def curve_shape(means: list[float], higher_is_better: bool, tolerance: float) -> str:
    """The whole shape of a learning curve (means in order of training size), in the metric's sense of better.

    'flat' when it moves less than ``tolerance``; 'improves throughout' or 'worsens throughout' when no step goes
    the other way by more than ``tolerance``; 'improves, then levels off' when the last half of the gain comes
    from the first half of the steps and the last step is within ``tolerance``; 'improves, then worsens' and
    'worsens, then improves' when the best (worst) point lies inside; otherwise 'uneven'.
    """
    v = np.asarray([m for m in means if m is not None and np.isfinite(m)], dtype=float)
    if len(v) < 2:
        return "not measured"
    v = v if higher_is_better else -v
    steps = np.diff(v)
    if v.max() - v.min() <= tolerance:
        return "flat"
    total = v[-1] - v[0]
    if np.all(steps >= -tolerance) and total > tolerance:
        return "improves, then levels off" if abs(steps[-1]) <= tolerance and len(steps) > 1 else "improves throughout"
    if np.all(steps <= tolerance) and total < -tolerance:
        return "worsens throughout"
    best, worst = int(np.argmax(v)), int(np.argmin(v))
    if 0 < best < len(v) - 1 and v[best] - v[-1] > tolerance:
        return "improves, then worsens"
    if 0 < worst < len(v) - 1 and v[-1] - v[worst] > tolerance:
        return "worsens, then improves"
    return "uneven"


def needed(n: int | None, largest: int) -> str:
    """'4 episodes' (from which the head stays ahead of the baseline), or 'more than the 16 tried'."""
    if n is None:
        return f"more than the {largest} tried"
    return "1 episode" if n == 1 else f"{n} episodes"


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
