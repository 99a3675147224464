"""Short data-dependent words of chapters 10–13, glued into their Markdown (tested in test_episode_phrases.py);
deciding words ("ahead", "behind", "not resolved") come from :mod:`robotask.words`, never from here."""

from __future__ import annotations

import math

from ...words import count, join


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
    scale = max(abs(before), abs(after))
    if readable(before, scale) == readable(after, scale):
        return f"stays at {readable(after, scale)}"
    return f"moves from {readable(before, scale)} to {readable(after, scale)}"


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def decimals_for(scale: float) -> int:
    """Decimals that give numbers up to ``scale`` in size at most 4 significant digits (3 below 1)."""
    if not math.isfinite(scale) or scale < 1:
        return 3
    return max(0, 3 - int(math.floor(math.log10(scale))))


def readable(x: float | None, scale: float | None = None, sign: bool = False) -> str:
    """A value for prose or a table cell with a true minus and at most 4 significant digits at the size of
    ``scale`` (default: the value itself): ``readable(-326.397)`` → "−326.4", ``readable(-2.531, 939.9)`` → "−2.5",
    ``readable(0.1594)`` → "0.159", ``readable(-1596867.82)`` → "−1.597 × 10⁶"; "–" when missing."""
    if x is None or x != x:
        return "–"
    scale = abs(x) if scale is None else scale
    if scale >= 1e4:
        exponent = int(math.floor(math.log10(scale)))
        text = f"{x / 10 ** exponent:{'+' if sign else ''}.3f} × 10{str(exponent).translate(SUPERSCRIPT)}"
    else:
        text = f"{x:{'+' if sign else ''},.{decimals_for(scale)}f}"
    return text.replace("-", "−")


def signed_interval(mean: float, low: float, high: float) -> str:
    """A paired difference with its interval, at most 4 significant digits at the size of the largest:
    "+0.120 (+0.050 to +0.190)", "−326.4 (−939.9 to −2.5)"; "–" without a difference, and
    "+0.120 (no interval: too few test samples)" when the interval is unbounded."""
    if mean != mean:
        return "–"
    bounded = abs(low) != float("inf") and abs(high) != float("inf")
    scale = max(abs(v) for v in ((mean, low, high) if bounded else (mean,)))
    s = [readable(v, scale, sign=True) for v in (mean, low, high)]
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


def scores_phrase(n_test: int | None, baseline: str, values: dict[str, float | None], reason: str | None) -> str:
    """One protocol's primary metrics in words, or why it has none: "on 348 test samples the trivial baseline
    (majority class) scores 0.000, the minimal head 0.764 and the MLP 0.768"; "the task did not run: one class
    only (all 1,161 samples contact)"; a head a run left out is said to be left out, never a dash."""
    if reason is not None or n_test is None:
        return f"the task did not run: {reason or 'no result'}"
    heads = [f"the {label} {readable(values[h])}" if values.get(h) is not None else f"the {label} was left out"
             for h, label in (("minimal", "minimal head"), ("mlp", "MLP"))]
    return (f"on {count(n_test, 'test sample')} the trivial baseline ({baseline}) scores "
            f"{readable(values.get('baseline'))}, {heads[0]} and {heads[1]}")


def verdicts_phrase(strongest: tuple[str, float] | None, words: dict[str, tuple[str, str]],
                    reason: str | None) -> str:
    """One protocol's verdicts against its strongest baseline in words: "against the strongest baseline, copy the
    current action (0.800), the minimal head's verdict is not resolved (head − baseline −0.037 (−0.101 to
    +0.108)) and the MLP's is ahead (+0.063 (+0.004 to +0.212))"; "there is no verdict: the task did not run"."""
    if reason is not None or strongest is None:
        return "there is no verdict: the task did not run"
    name, score = strongest
    first = f"against the strongest baseline, {name} ({readable(score)}), "
    heads = []
    for h, label in (("minimal", "the minimal head's"), ("mlp", "the MLP's")):
        if h in words:
            word, text = words[h]
            heads.append(f"{label} verdict is {word} (head − baseline {text})" if not heads
                         else f"{label} is {word} ({text})")
        else:
            heads.append(f"{label.replace(chr(39) + 's', '')} was left out")
    return first + " and ".join(heads)
