"""Plain statements about a task's numbers, for ``summary_report.json`` and the task chapter.

Every note is computed from the metrics of one task run: a trivial baseline that beats a head on the
primary metric, a head that did not fit its own training set (final training accuracy no better
than always predicting the largest training class), and a gradient step too large for the loss to
converge. Nothing here is typed in by hand.
"""

from __future__ import annotations

HEAD_LABELS = {"minimal": "minimal head", "mlp": "MLP"}
FIT_MARGIN = 0.05  # a head whose final training accuracy is within this of the largest class share did not fit


def _fmt(value: float) -> str:
    return f"{value:.4g}"


def baseline_notes(primary: dict, baseline_name: str) -> list[str]:
    """"the <baseline> baseline (<metric> b) beats the <head> (h)" for every head it beats."""
    out = []
    metric, base, higher = primary.get("metric"), primary.get("baseline"), primary.get("higher_is_better", True)
    if base is None:
        return out
    for head, label in HEAD_LABELS.items():
        value = primary.get(head)
        if value is None:
            continue
        if (base > value) if higher else (base < value):
            out.append(f"the {baseline_name} baseline ({metric} {_fmt(base)}) beats the {label} ({_fmt(value)})")
    return out


def fit_notes(metrics: dict[str, dict]) -> list[str]:
    """A note for each head whose final training accuracy is no better than the largest train class share."""
    out = []
    for head, label in HEAD_LABELS.items():
        m = metrics.get(head) or {}
        acc, share = m.get("train_final_accuracy"), m.get("train_majority_share")
        if acc is None or share is None or acc > share + FIT_MARGIN:
            continue
        loss = m.get("train_final_loss")
        loss_txt = f", final training loss {_fmt(loss)}" if loss is not None else ""
        out.append(f"the {label} did not fit its training set: final training accuracy {_fmt(acc)} vs "
                   f"{_fmt(share)} for always predicting the largest class{loss_txt}")
    return out


def step_notes(metrics: dict[str, dict]) -> list[str]:
    """A note when the minimal head's gradient step exceeds 2/L, beyond which descent may not converge."""
    m = metrics.get("minimal") or {}
    ratio, step, smooth = m.get("step_over_stability_limit"), m.get("step_size"), m.get("loss_smoothness")
    if ratio is None or ratio <= 1.0:
        return []
    return [f"the minimal head's gradient step {_fmt(step)} is {ratio:.1f}× the stability limit 2/L = "
            f"{_fmt(2.0 / smooth)} of full-batch gradient descent on this input (L bounds the curvature of its "
            "loss), so convergence is not guaranteed, and the last bits of each step, which differ between "
            "CPUs (OpenBLAS picks its kernel for the processor), can change the final metric; the improved "
            "protocol caps the step at 1/L"]


def pair_notes(shared_fraction: float | None) -> list[str]:
    """Why a linear head cannot tell aligned from shifted pairs: both halves look the same in both classes."""
    if shared_fraction is None:
        return []
    return ["the motion half of every shifted sample equals that of its aligned twin, and "
            f"{100 * shared_fraction:.1f} % "
            "of the shifted samples' visual halves are also aligned samples' visual halves; a linear head scores "
            "the two halves separately, so it can separate the classes only by memorising (spec §8.12)"]


def task_notes(primary: dict | None, metrics: dict[str, dict], baseline_name: str,
               shared_fraction: float | None = None) -> list[str]:
    """All notes of one task run (empty when it did not run)."""
    if not primary or not metrics:
        return []
    name = baseline_name.split(" (")[0]
    return baseline_notes(primary, name) + fit_notes(metrics) + step_notes(metrics) + pair_notes(shared_fraction)
