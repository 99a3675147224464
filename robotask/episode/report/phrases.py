"""Short data-dependent phrases of the episode chapters 10–13 (each tested in test_episode_phrases.py).

The paragraphs are Markdown in the notebooks; these functions return the few words whose choice
depends on the data ("beats", "has a larger error than", "a synthetic episode"), glued into them, and why a
task did not run (:func:`not_run`, shown as a note by the task pages and the collection chapter).
"""

from __future__ import annotations

from typing import Any

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


def of_tasks(k: int, n: int) -> str:
    """``k`` of ``n`` tasks in words: "9 of the 12 tasks", "all 12 tasks", "none of the 12 tasks"."""
    if k == 0:
        return f"none of the {count(n, 'task')}" if n != 1 else "not the one task"
    if k == n:
        return "the one task" if n == 1 else f"all {count(n, 'task')}"
    return f"{k:,} of the {count(n, 'task')}"


def metric_name(metric: str) -> str:
    """A metric key as a reader reads it: ``macro_f1`` → "macro-F1"."""
    from .summary import METRIC_LABELS

    return METRIC_LABELS.get(metric, metric.replace("_", " "))


def targets(original: str, improved: str) -> str:
    """The improved protocol's target beside the original's: "the same as the original's (x)" or
    "y, where the original's is x"."""
    if original == improved:
        return f"the same as the original's ({original})"
    return f"{improved}, where the original's is {original}"


def zero_score_note(where: str, head: str, metric: str, fitted_share: float, n_test: int,
                    best_epoch: int | None) -> str:
    """Why a head scores exactly 0: none of the test samples has a class it was fitted on."""
    kept = f" Early stopping kept epoch {best_epoch}." if best_epoch else ""
    return (f"{where}, the {head} scores a {metric} of 0.000. It is fitted on the training part "
            f"without its validation tail, and {100 * fitted_share:.1f} % of the {count(n_test, 'test sample')} "
            f"carry a class it was fitted on: every class the test part shares with training lies in "
            f"that tail. It cannot be right on any test sample, so every class's F1 is 0.{kept} Not a bug "
            "of the metric: the split leaves the MLP nothing to recognise.")


def pooled_r2_note(where: str, head: str, cause: dict, best_epoch: int | None) -> str:
    """A negative pooled R² explained by near-constant target columns (``cause``:
    ``figures_tasks.r2_without_tiny``), or "" when they do not explain it."""
    if cause["r2_all"] is None or cause["r2_all"] >= 0 or cause["error_share"] < 0.5:
        return ""
    kept = f" (early stopping kept epoch {best_epoch})" if best_epoch else ""
    return (f"{where}, the {head}'s R² is {number(cause['r2_all'])}. {cause['n_tiny']:,} of the "
            f"{count(cause['n_columns'], 'target column')} hardly vary in training (std below "
            f"{cause['floor']:g}): {100 * cause['variance_share']:.2f} % of the test variance, but "
            f"{100 * cause['error_share']:.0f} % of the squared error, because this protocol's std floor "
            f"leaves them unscaled and the network has not driven its output to their value{kept}. "
            f"Without them the same R² is {number(cause['r2_rest'])}.")


def baseline_label(name: str) -> str:
    """A baseline name for use inside brackets: "zero velocity (last observed pose)" → "zero
    velocity, last observed pose", so that brackets never nest."""
    return name.replace(" (", ", ").replace(")", "")


def hand_gap(ratio_minimal: float, ratio_mlp: float) -> str:
    """Whose the gap to the published hand MPJPE is: the published ridge's when the MLPs are within a
    third of the minimal heads' ratio, else not the ridge's alone."""
    if ratio_mlp < ratio_minimal / 3:
        return "most of the gap is the published ridge's, not the targets'"
    return "the published ridge explains only part of the gap; the real targets move more than ours"


def glue_all(**values: object) -> None:
    """Glue every value for the page's Markdown (``{glue:text}`name```), shown nowhere else."""
    from myst_nb import glue

    for name, value in values.items():
        glue(name, value, display=False)


def moves(before: float | None, after: float | None) -> str:
    """How a score moves between protocols as printed: "stays at 0.000", "moves from 0.016 to 0.010",
    "cannot be compared" when either is missing."""
    if before is None or after is None:
        return "cannot be compared"
    if number(before) == number(after):
        return f"stays at {number(after)}"
    return f"moves from {number(before)} to {number(after)}"


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


