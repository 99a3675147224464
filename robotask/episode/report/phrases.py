"""Short data-dependent phrases of the episode chapters 10–13 (each tested in test_episode_phrases.py).

The paragraphs are Markdown in the notebooks; these functions return the few words whose choice
depends on the data ("beats", "has a larger error than", "a synthetic episode"), glued into them.
"""

from __future__ import annotations

from ...words import count, join, number


def episode_kind(is_synthetic: bool, schedule: str = "", seed: int = 0, resolution: int = 0) -> str:
    """What the episode is: synthetic (with its generator settings) or the real recording."""
    if not is_synthetic:
        return "the real recording read from episode_dir"
    return (f"a synthetic episode (schedule {schedule}, seed {seed}, {resolution}-pixel videos) made by "
            "robotask synth, not the real Xperience-10M sample")


def frame_range(start: int, stop: int) -> str:
    """The frames ``start`` to ``stop - 1``: "frames 0–199", or "frame 5" alone."""
    return f"frame {start}" if stop - start <= 1 else f"frames {start}–{stop - 1}"


def contact_label(share: float) -> str:
    """Whether a contact label set in ``share`` of the windows varies (and so can be learned)."""
    if share >= 1:
        return "a constant: every window has it"
    return "a constant: no window has it" if share <= 0 else "not a constant, so it can be learned"


def compare(a: float, b: float, higher_is_better: bool) -> str:
    """"better", "worse" or "tied": ``a`` against ``b`` as printed with three digits."""
    ra, rb = float(f"{float(a):.3f}"), float(f"{float(b):.3f}")
    if ra == rb:
        return "tied"
    return "better" if (ra > rb) == higher_is_better else "worse"


VERBS = {True: {"better": "beats", "worse": "falls below", "tied": "ties with"},
         False: {"better": "has a smaller error than", "worse": "has a larger error than", "tied": "ties with"}}


def verdict(value: float | None, baseline: float | None, higher_is_better: bool) -> str:
    """How a head's metric compares with the baseline's, as the verb of a sentence ("beats",
    "has a larger error than"); "is not scored against" when either is missing."""
    if value is None or baseline is None:
        return "is not scored against"
    return VERBS[higher_is_better][compare(value, baseline, higher_is_better)]


def change(before: float | None, after: float | None, higher_is_better: bool) -> str:
    """The move of a metric between protocols: "0.120 → 0.340 (better)"; "–" when either is missing."""
    if before is None or after is None:
        return "–"
    word = {"better": "better", "worse": "worse", "tied": "unchanged"}[compare(after, before, higher_is_better)]
    return f"{number(before)} → {number(after)} ({word})"


def classes_list(names: list[str], shown: int = 4) -> str:
    """A few class names for prose: "pour, stir and 3 more"; "none" for none."""
    names = [str(n) for n in names]
    if not names:
        return "none"
    if len(names) <= shown:
        return join(names)
    return f"{', '.join(names[:shown])} and {len(names) - shown:,} more"


def of_tasks(k: int, n: int) -> str:
    """``k`` of ``n`` tasks in words: "9 of the 12 tasks", "all 12 tasks", "none of the 12 tasks"."""
    if k == 0:
        return f"none of the {count(n, 'task')}" if n != 1 else "not the one task"
    if k == n:
        return "the one task" if n == 1 else f"all {count(n, 'task')}"
    return f"{k:,} of the {count(n, 'task')}"
