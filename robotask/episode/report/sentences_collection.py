"""Computed sentences of a collection of episodes, used by ``notebooks/14_collections.py``.

One function per claim, returning Markdown: integer counts, plurals that agree, units on every value.
The small computations a claim rests on (which tasks improved, which beat the baseline on unseen
episodes) are here too: a notebook cell is one call.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..tasks.registry import TASKS
from .sentences import not_run_sentence, prose, scaling_verdict  # noqa: F401 (chapter 14)

count, join = prose.count, prose.join
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def share(fraction: float) -> str:
    """A fraction in [0, 1] as a percentage: ``share(0.613)`` → "61.3 %"."""
    return prose.pct(100 * float(fraction))


def small(n: int) -> str:
    """A small number in words ("two"), larger ones in digits."""
    return WORDS[n] if 0 <= n < len(WORDS) else f"{n:,}"


def agree(n: int, one: str, many: str) -> str:
    """The verb form that agrees with a count: ``one`` for 1, ``many`` otherwise."""
    return one if int(n) == 1 else many


# ------------------------------------------------------------------ chapter 14: a collection
def collection_sentence(episodes: pd.DataFrame, problems: pd.DataFrame, frames: int) -> str:
    """Usable episodes, their subjects and scenes, and how many failed validation."""
    n, failed = len(episodes), len(problems)
    verdict = "no episode" if failed == 0 else count(failed, "episode")
    return (f"The collection holds {count(n, 'usable episode')} of {count(frames, 'frame')}"
            f"{' each' if n > 1 else ''}, from {count(episodes['subject'].nunique(), 'subject')} "
            f"in {count(episodes['scene'].nunique(), 'scene')}; {verdict} failed validation.")


def scaling_sentence(scaling: pd.DataFrame, projection: dict) -> str:
    """The measured speed-up and memory, and the cost projected to the full dataset.

    ``scaling`` is ``collection_study.measure_scaling``; its first row is the reference.
    """
    first, last, p = scaling.iloc[0], scaling.iloc[-1], projection
    speed = f"With {count(last['workers'], 'worker')} the extraction "
    if len(scaling) > 1:
        speed += (f"ran {last['speedup']:.2f} times as fast as with "
                  f"{small(int(first['workers']))}")
    else:
        speed += f"took {last['wall_s']:.1f} s"
    hours = p["cluster_hours"]
    wall = f"{hours * 60:.0f} minutes" if hours < 1 else f"{hours:.1f} hours"
    return (f"{speed} (the cluster start is not counted); a worker peaked at "
            f"{last['peak_mb']:.0f} MiB, since it holds one episode's features and streams the "
            f"videos. A task took {first['episode_s']:.1f} s on average, so an episode of "
            f"{count(p['full_frames'], 'frame')} takes about {p['per_episode_s']:.0f} s, and the "
            f"{count(p['episodes'], 'episode')} of the full dataset about "
            f"{p['worker_hours']:.0f} worker-hours: about {wall} on a cluster of "
            f"{count(p['cluster_workers'], 'worker')}, since the episodes are independent tasks. "
            "(Timings vary from run to run; they are measurements, not results.)")


def learning_gains(curve: pd.DataFrame, sizes: Sequence[int]) -> pd.Series:
    """Per task that ran, the minimal head's gain from ``sizes[0]`` to ``sizes[-1]`` episodes.

    ``curve`` is ``collection_study.learning_curve``; a gain is positive when the primary metric
    moved in its good direction.
    """
    first = curve[curve["n_train"] == sizes[0]].set_index("task")
    full = curve[curve["n_train"] == sizes[-1]].set_index("task")
    gain = (full["minimal"] - first["minimal"]).where(full["higher_is_better"],
                                                      first["minimal"] - full["minimal"])
    return gain.dropna()


def improved_tasks(gains: pd.Series) -> list[str]:
    """Display names of the tasks whose gain is positive, in task order."""
    return [TASKS[t].display_name for t in gains.index if gains[t] > 0]


def of_tasks(k: int, n: int) -> str:
    """``k`` of ``n`` tasks in words: "9 of the 11 tasks", "all 3 tasks", "none of the 4 tasks"."""
    if n <= 1:
        return "the one task" if n == 1 and k else "no task"
    if k == 0:
        return f"none of the {n:,} tasks"
    if k == n:
        return "both tasks" if n == 2 else f"all {n:,} tasks"
    return f"{k:,} of the {count(n, 'task')}"


def learning_curve_sentence(curve: pd.DataFrame, sizes: Sequence[int]) -> str:
    """On which tasks the minimal head improved from the fewest to the most training episodes."""
    if sizes[0] == sizes[-1]:
        return (f"With {count(sizes[0], 'training episode')} at every size there is no learning "
                "curve to read.")
    gains = learning_gains(curve, sizes)
    better = improved_tasks(gains)
    text = (f"From {count(sizes[0], 'training episode')} to {sizes[-1]:,}, the minimal head "
            f"improved on {of_tasks(len(better), len(gains))} that ran")
    return text + (f": {join(better)}." if better else ".")


def _wins(comparison: pd.DataFrame, head: str) -> tuple[pd.Series, pd.Series]:
    """Per task run under both splits: does ``head`` beat the baseline unseen, chronologically?"""
    m = comparison[comparison["head"] == head].dropna(subset=["unseen", "chronological"])
    m = m.set_index("task")
    sign = m["higher_is_better"].map({True: 1, False: -1})
    return ((m["unseen"] - m["unseen_baseline"]) * sign > 0,
            (m["chronological"] - m["chronological_baseline"]) * sign > 0)


def unseen_winners(comparison: pd.DataFrame, head: str = "minimal") -> list[str]:
    """Display names of the tasks on which ``head`` beats the baseline on unseen episodes.

    ``comparison`` is ``collection_study.compare_splits``.
    """
    unseen, _ = _wins(comparison, head)
    return [TASKS[t].display_name for t in unseen.index if unseen[t]]


def unseen_only(comparison: pd.DataFrame, head: str = "minimal") -> list[str]:
    """Tasks ``head`` wins on unseen episodes but does not win under the chronological split."""
    unseen, chrono = _wins(comparison, head)
    return [TASKS[t].display_name for t in unseen.index if unseen[t] and not chrono[t]]


def split_sentence(comparison: pd.DataFrame, head: str = "minimal") -> str:
    """Which tasks beat the baseline on unseen episodes, and which of them only there."""
    held, weak = unseen_winners(comparison, head), unseen_only(comparison, head)
    n_ran = len(_wins(comparison, head)[0])
    text = (f"On unseen episodes the minimal head beats the baseline on "
            f"{of_tasks(len(held), n_ran)} that ran under both splits"
            + (f": {join(held)}." if held else "."))
    if not held:
        return text
    if not weak:
        lead = agree(len(held), "That task", "Each of them")
        return text + f" {lead} also beats it under the chronological split."
    return text + (f" {join(weak)} {agree(len(weak), 'beats', 'beat')} it on unseen episodes but "
                   f"not under the chronological split: {agree(len(weak), 'it', 'they')} only "
                   f"looked weak there because the later part of an episode holds what the "
                   f"earlier part lacks.")


def label_ceiling_sentence(coverage: pd.DataFrame) -> str:
    """Action- and subtask-label ceilings at the fewest and the most training episodes.

    ``coverage`` is ``collection_study.label_coverage``: n_train, label, coverage.
    """
    cov = coverage.pivot(index="n_train", columns="label", values="coverage")
    a, s, n = cov["action"], cov["subtask"], cov.index
    text = (f"With {count(n[0], 'training episode')} the action-label ceiling is "
            f"{share(a.iloc[0])}")
    if len(cov) == 1:
        return text + f" (subtasks: {share(s.iloc[0])})."
    return text + (f"; with {count(n[-1], 'training episode')} it is {share(a.iloc[-1])} "
                   f"(subtasks: {share(s.iloc[0])} to {share(s.iloc[-1])}).")


def collection_findings(n_episodes: int, comparison: pd.DataFrame, coverage: pd.DataFrame,
                        scaling: pd.DataFrame | None = None) -> str:
    """What chapter 14 found: unseen-episode winners, the ceiling's direction, and the cost.

    ``scaling`` (``collection_study.measure_scaling``) decides what is said about workers.
    """
    held = len(unseen_winners(comparison))
    cov = coverage.pivot(index="n_train", columns="label", values="coverage")["action"]
    lo, hi = share(cov.iloc[0]), share(cov.iloc[-1])
    if len(cov) == 1:
        ceiling = f"the action-label ceiling is {lo}"
    elif lo == hi:
        ceiling = f"more training episodes leave the action-label ceiling at {lo}"
    else:
        verb = "raise" if cov.iloc[-1] > cov.iloc[0] else "lower"
        ceiling = f"more training episodes {verb} the action-label ceiling from {lo} to {hi}"
    tasks = "no task" if held == 0 else count(held, "task")
    return (f"In a collection of {count(n_episodes, 'episode')}, {tasks} "
            f"{agree(held or 1, 'beats', 'beat')} the baseline on unseen episodes, and {ceiling}. "
            f"{scaling_verdict(scaling)}; the full dataset is a matter of worker-hours, not of a "
            "different program.")
