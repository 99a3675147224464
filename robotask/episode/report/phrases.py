"""Short data-dependent words of chapters 10–13, glued into their Markdown (tested in test_episode_phrases.py);
deciding words ("ahead", "behind", "not resolved") come from :mod:`robotask.words`, never from here."""

from __future__ import annotations

from ...words import count, join, number


def episode_kind(is_synthetic: bool, schedule: str = "") -> str:
    """What the episode is: "synthetic (repeating schedule)" or "real"."""
    return f"synthetic ({schedule} schedule)" if is_synthetic else "real"


def frame_range(start: int, stop: int) -> str:
    """The frames ``start`` to ``stop - 1``: "frames 0–199", or "frame 5" alone."""
    return f"frame {start}" if stop - start <= 1 else f"frames {start}–{stop - 1}"


def contact_label(share: float) -> str:
    """Whether a contact label set in ``share`` of the windows varies (and so can be learned)."""
    if share >= 1:
        return "a constant: every window has it"
    return "a constant: no window has it" if share <= 0 else "not a constant, so it can be learned"


def of_tasks(k: int, n: int) -> str:
    """``k`` of ``n`` tasks in words: "9 of the 12 tasks", "all 12 tasks", "none of the 12 tasks"."""
    if k == 0:
        return f"none of the {count(n, 'task')}" if n != 1 else "not the one task"
    if k == n:
        return "the one task" if n == 1 else f"all {count(n, 'task')}"
    return f"{k:,} of the {count(n, 'task')}"


def targets(original: str, improved: str) -> str:
    """The improved protocol's target beside the original's: "the same as the original's (x)" or
    "y, where the original's is x"."""
    if original == improved:
        return f"the same as the original's ({original})"
    return f"{improved}, where the original's is {original}"


def moves(before: float | None, after: float | None) -> str:
    """How a score moves between protocols as printed: "stays at 0.000", "moves from 0.016 to 0.010",
    "cannot be compared" when either is missing."""
    if before is None or after is None:
        return "cannot be compared"
    if number(before) == number(after):
        return f"stays at {number(after)}"
    return f"moves from {number(before)} to {number(after)}"


def signed_interval(mean: float, low: float, high: float) -> str:
    """A paired difference with its interval: "+0.120 (+0.050 to +0.190)"; "–" without a difference, and
    "+0.120 (no interval: too few test samples)" when the interval is unbounded."""
    if mean != mean:
        return "–"
    s = [f"{v:+.3f}".replace("-", "−") for v in (mean, low, high)]
    bounded = abs(low) != float("inf") and abs(high) != float("inf")
    return f"{s[0]} ({s[1]} to {s[2]})" if bounded else f"{s[0]} (no interval: too few test samples)"


def not_run(status: str, reason: str | None, class_counts: dict[str, int] | None = None) -> str:
    """Why a run has no metrics, in a few words: "one class only (all 1,161 samples contact)"."""
    kept = {k: v for k, v in (class_counts or {}).items() if v}
    if status == "degenerate" and len(kept) == 1:
        name, n = next(iter(kept.items()))
        return f"one class only (all {count(n, 'sample')} {name})"
    return f"{status}: {reason}"


def pair_leaders(words: dict[str, dict[str, str]]) -> str:
    """On how many pair tasks each head is ahead of the baseline, from their verdicts (task → head → word):
    "the minimal head on 0 of 2 and the MLP on 2 of 2"; "no pair task ran" when none did."""
    labels = {"minimal": "the minimal head", "mlp": "the MLP"}
    parts = [f"{label} on {sum(w.get(h) == 'ahead' for w in words.values())} of {sum(h in w for w in words.values())}"
             for h, label in labels.items() if any(h in w for w in words.values())]
    return join(parts) if parts else "no pair task ran"


def runs_without(heads: dict[tuple[str, str], list[str]], head: str) -> str:
    """The runs of a page that leave ``head`` out while others train it: "sample-like under the original
    protocol", or "none"."""
    if not any(head in hs for hs in heads.values()):
        return "none"
    runs = [f"{s} under the {p} protocol" for (s, p), hs in heads.items() if head not in hs]
    return join(runs) if runs else "none"
