"""What the suite summary chapter ``13_suite_summary`` glues, from the long table of primary metrics and
verdicts (:func:`robotask.episode.report.summary.primary_long`); its tables are in :mod:`.tables`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...words import count, join
from ..tasks.registry import TASKS
from .phrases import of_tasks, pair_leaders

LABEL_TASKS = ("timeline_action", "timeline_subtask", "next_action")
PAIR_TASKS = ("temporal_order", "misalignment_detection")


def _rows(long: pd.DataFrame, schedule: str, proto: str, model: str) -> pd.DataFrame:
    return long[(long["schedule"] == schedule) & (long["protocol"] == proto) & (long["model"] == model)]


def value_of(long: pd.DataFrame, schedule: str, proto: str, task: str, model: str) -> float | None:
    """One primary-metric value of the long table (None if absent)."""
    sel = _rows(long, schedule, proto, model)
    sel = sel[sel["task"] == task]["value"]
    return None if sel.empty or sel.iloc[0] is None or pd.isna(sel.iloc[0]) else float(sel.iloc[0])


def mean_of(values: list[float | None]) -> float | None:
    """Mean of the non-missing values."""
    vals = [v for v in values if v is not None]
    return float(np.mean(vals)) if vals else None


def verdict_tasks(long: pd.DataFrame, schedule: str, proto: str, model: str, word: str) -> list[str]:
    """Display names of the tasks on which ``model``'s verdict against the baseline is ``word``, in task order."""
    sel = _rows(long, schedule, proto, model)
    hit = set(sel[sel["verdict"] == word]["task"])
    return [spec.display_name for t, spec in TASKS.items() if t in hit]


def ran(long: pd.DataFrame, schedule: str, proto: str) -> int:
    """How many tasks produced metrics under (schedule, protocol)."""
    return int((_rows(long, schedule, proto, "minimal")["status"] == "ok").sum())


def recap_values(long: pd.DataFrame, schedules: list[str], proto: str) -> dict[str, str]:
    """Per schedule (``s0_``, ``s1_``, …): its name, the tasks that ran, on how many each head is ahead of the
    baseline ("5 of the 11 tasks"), the tasks on which the minimal head is behind, and the pair tasks' leaders."""
    out: dict[str, str] = {}
    for i, s in enumerate(list(schedules) + ["–"] * (2 - len(schedules))):
        n = ran(long, s, proto)
        behind = verdict_tasks(long, s, proto, "minimal", "behind")
        sel = long[(long["schedule"] == s) & (long["protocol"] == proto) & long["task"].isin(PAIR_TASKS)]
        words = {t: dict(zip(g["model"], g["verdict"])) for t, g in sel[sel["model"] != "baseline"].groupby("task")}
        out.update({f"s{i}": s, f"s{i}_ran": count(n, "task"), f"s{i}_behind": join(behind) if behind else "no task",
                    f"s{i}_pairs": pair_leaders(words),
                    **{f"s{i}_{m}_ahead": of_tasks(len(verdict_tasks(long, s, proto, m, "ahead")), n)
                       for m in ("minimal", "mlp")}})
    return out
