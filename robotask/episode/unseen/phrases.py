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


def softmax_epochs_phrase(softmax: int, suite_softmax: int) -> str:
    """The minimal head's epochs against the suite's: "the suite's own 400 softmax epochs", or "60 softmax
    epochs, fewer than the suite's 400"."""
    if softmax >= suite_softmax:
        return f"the suite's own {softmax} softmax epochs"
    return f"{softmax} softmax epochs, fewer than the suite's {suite_softmax}"


def mlp_phrase(mlp: int, suite_mlp: int, protocol: str) -> str:
    """How this run trains the MLP on unseen episodes: "not trained" (no ``protocol``), or "trained on the
    improved protocol's folds for the suite's own 80 epochs" (or "for 20 epochs, fewer than the suite's 80")."""
    if not protocol:
        return "not trained"
    epochs = (f"the suite's own {mlp} epochs" if mlp >= suite_mlp
              else f"{mlp} epochs, fewer than the suite's {suite_mlp}")
    return f"trained on the {protocol} protocol's folds for {epochs}"


def epoch_check_phrase(rows: int, changed: int) -> str:
    """What the run's epoch check found: "this run cut no epochs, so it has no such table", or "3 of the 24
    task-and-head results changed by a resolved amount (the table below)"."""
    if not rows:
        return "this run cut no epochs, so it has no such table"
    return f"{changed} of the {rows} task-and-head results changed by a resolved amount (the table below)"


def mlp_result(protocol: str, n_mlp: int, n_minimal: int, only_mlp: list[str]) -> str:
    """What the MLP did on unseen episodes, as one sentence: on how many tasks it beats the baseline under
    ``protocol``, against the minimal head, and where only it does; where it was not trained, where to read it."""
    if not protocol:
        return "Chapters 12 and 13 compare it with the minimal head on single episodes"
    return (f"Under the {protocol} protocol it beats the baseline on {n_mlp} tasks, the minimal head on "
            f"{n_minimal}; only the MLP on {task_list(only_mlp)}")


def speedup_phrase(speedup: float, workers: int) -> str:
    """What one timing of each worker count shows, said as one run and not a verdict: "1.62 times as fast with 2
    workers as with one in this single timing", or "not measured"."""
    if not np.isfinite(speedup):
        return f"with {workers} workers unmeasured (this run did not time both worker counts)"
    return (f"{speedup:.2f} times as fast with {workers} workers as with one, in a single timing of each: a "
            "reading of this machine at that moment, not a verdict")


def repeats_phrase(repeats: int, folds: int) -> str:
    """How often the episodes are cut into folds, and how many folds a comparison rests on."""
    if repeats <= 1:
        return (f"The cut is made once, as `robotask suite --split group-kfold` makes it, so every comparison over "
                f"folds rests on its {folds} folds (parameter `fold_repeats` adds random cuts)")
    return (f"The cut is made {repeats} times (the first as `robotask suite --split group-kfold` makes it, the "
            f"others at random), so every comparison over folds rests on {repeats * folds} folds")


def shift_sentence(shift: str, tasks: list[str], groups: int, reason: str = "") -> str:
    """One shift's finding, or why it did not run: "A new subject hurts Object Relevance by a resolved interval
    (over the 8 held-out subjects)", or "The subject shift did not run: the collection has 1 subject value; holding
    one out needs two. Nothing is concluded about a new subject"."""
    if reason:
        return f"The {shift} shift did not run: {reason}. Nothing is concluded about a new {shift}"
    return f"A new {shift} hurts {task_list(tasks)} by a resolved interval (over the {groups} held-out {shift}s)"


def family_sentence(tests: int, resolved: int, expected: float, after_holm: int) -> str:
    """How many of a table's tests resolve beside what chance alone gives: "Of the 24 tests of the table, 1
    resolves; if no difference were real, 1.2 would by chance alone, and 0 survive Holm's correction for the
    24", or "No test of the table ran"."""
    if not tests:
        return "No test of the table ran, so it decides nothing"
    verb = "resolves" if resolved == 1 else "resolve"
    return (f"Of the {tests} tests of the table, {resolved} {verb}; if no difference were real, {expected:.1f} "
            f"would by chance alone, and {after_holm} survive Holm's correction for the {tests}")


def span_phrase(lowest_pct: float, highest_pct: float) -> str:
    """Where a per-fold share lies: "is 100.0 % on every fold", or "lies between 92.5 % and 100.0 % across the
    folds" (one decimal, as the table shows it)."""
    lo, hi = f"{lowest_pct:.1f}", f"{highest_pct:.1f}"
    return f"is {lo} % on every fold" if lo == hi else f"lies between {lo} % and {hi} % across the folds"


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
             ("not every shift ran (parameter `shifts`, or the manifest lacks the column): the section on shifts "
              "says which did not run and why, and concludes nothing about it", len(shifts) < 2)]
    return [n for n, bad in notes if bad]
