"""Numbers and tables of the suite summary chapter ``13_suite_summary``.

Every function takes the long table of primary metrics over (schedule, protocol) runs
(:func:`robotask.episode.report.summary.primary_long` of the task chapters' written results) and returns
values, a table or, for :func:`explanations_text`, what the task pages wrote about their anomalies.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..tasks.registry import TASKS
from .figures_suite import metric_text
from .figures_tasks import HEAD_LABELS

LABEL_TASKS = ("timeline_action", "timeline_subtask", "next_action")


def _value(long: pd.DataFrame, schedule: str, proto: str, task: str, model: str) -> float | None:
    """One primary-metric value of the long table (None if absent)."""
    sel = long[(long["schedule"] == schedule) & (long["protocol"] == proto) & (long["task"] == task)
               & (long["model"] == model)]["value"]
    return None if sel.empty or sel.iloc[0] is None or pd.isna(sel.iloc[0]) else float(sel.iloc[0])


def _mean(values: list[float | None]) -> float | None:
    """Mean of the non-missing values."""
    vals = [v for v in values if v is not None]
    return float(np.mean(vals)) if vals else None


def explanations_text(docs: dict[str, dict]) -> str:
    """The task pages' explanations of anomalies in the numbers above, one bullet per explanation."""
    lines = [f"- **{doc.get('name', task)}**: {text}" for task, doc in docs.items()
             for text in doc.get("explanations", [])]
    return "\n".join(lines)


def _beats(value: float | None, base: float | None, higher_is_better: bool) -> bool:
    """Whether ``value`` beats ``base`` in the metric's direction (False when either is missing)."""
    return value is not None and base is not None and (value > base if higher_is_better else value < base)


def winners(long: pd.DataFrame, schedule: str, proto: str, model: str, baseline_wins: bool = False) -> list[str]:
    """Display names of the tasks on which ``model`` beats the baseline under (schedule, protocol), in
    task order; with ``baseline_wins``, those on which the baseline beats ``model`` instead."""
    out = []
    for t, spec in TASKS.items():
        v, b = _value(long, schedule, proto, t, model), _value(long, schedule, proto, t, "baseline")
        if _beats(b, v, spec.higher_is_better) if baseline_wins else _beats(v, b, spec.higher_is_better):
            out.append(spec.display_name)
    return out


def ran(long: pd.DataFrame, schedule: str, proto: str) -> int:
    """How many tasks produced metrics under (schedule, protocol)."""
    sub = long[(long["schedule"] == schedule) & (long["protocol"] == proto) & (long["model"] == "minimal")]
    return int((sub["status"] == "ok").sum())


def wins_table(long: pd.DataFrame, schedules: list[str], protocols: list[str]) -> pd.DataFrame:
    """Per schedule and protocol: tasks that ran, and on how many each head beats the baseline."""
    return pd.DataFrame([{"Schedule": s, "Protocol": p, "Tasks that ran": ran(long, s, p),
                          "Minimal head beats the baseline": len(winners(long, s, p, "minimal")),
                          "MLP beats the baseline": len(winners(long, s, p, "mlp"))}
                         for s in schedules for p in protocols])


def label_task_means(long: pd.DataFrame, schedules: list[str], proto: str) -> pd.DataFrame:
    """Mean macro-F1 of the three label tasks (action, step, next action) per schedule and model."""
    rows = []
    for s in schedules:
        row = {"Schedule": s}
        for model in ("baseline", "minimal", "mlp"):
            m = _mean([_value(long, s, proto, t, model) for t in LABEL_TASKS])
            row[HEAD_LABELS[model].capitalize() if model != "mlp" else "MLP"] = float("nan") if m is None else m
        rows.append(row)
    return pd.DataFrame(rows)


def protocol_changes(long: pd.DataFrame, schedule: str, n: int = 3) -> pd.DataFrame:
    """The ``n`` largest gains and every loss of a head from the original to the improved protocol on
    ``schedule``, in the metric's good direction."""
    rows = []
    for t, spec in TASKS.items():
        for model in ("minimal", "mlp"):
            a, b = _value(long, schedule, "original", t, model), _value(long, schedule, "improved", t, model)
            if a is not None and b is not None:
                rows.append({"Task": spec.display_name, "Head": HEAD_LABELS[model],
                             "Metric": metric_text(spec.primary_metric), "Original": a, "Improved": b,
                             "Gain": (b - a) if spec.higher_is_better else (a - b)})
    frame = pd.DataFrame(rows, columns=["Task", "Head", "Metric", "Original", "Improved", "Gain"])
    frame = frame.sort_values("Gain", ascending=False, kind="stable")
    return pd.concat([frame.head(n), frame.iloc[n:][frame.iloc[n:]["Gain"] < 0]]).reset_index(drop=True)


def published_coverage_table(windows_summary: dict | None, published: dict) -> pd.DataFrame:
    """Label coverage per schedule (written by chapter 11) beside the published real sample's (other data)."""
    rows = [{"Episode": rec["episode"], "Labels": rec["labels"], "Test windows": rec["test windows"],
             "Coverage (%)": 100 * rec["coverage"]} for rec in (windows_summary or {}).get("coverage", [])]
    rows += [{"Episode": "real sample (other data)", "Labels": labels, "Test windows": float("nan"),
              "Coverage (%)": 100 * published[task]}
             for labels, task in (("action", "timeline_action"), ("subtask", "timeline_subtask"))]
    return pd.DataFrame(rows)


def recap_values(long: pd.DataFrame, schedule: str, proto: str) -> dict[str, str]:
    """The recap's glued words for one run: tasks that ran, on how many each head beats the baseline
    ("5 of the 11 tasks"), and the tasks on which the baseline beats the minimal head."""
    from ...words import count, join
    from .phrases import of_tasks

    n = ran(long, schedule, proto)
    lost = winners(long, schedule, proto, "minimal", baseline_wins=True)
    return {"ran": count(n, "task"), "baseline_wins": join(lost) if lost else "no task",
            **{f"{m}_wins": of_tasks(len(winners(long, schedule, proto, m)), n) for m in ("minimal", "mlp")}}
