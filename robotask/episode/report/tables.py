"""Tables of the suite summary chapter ``13_suite_summary``, shaped for a reader.

Every function takes the long table of primary metrics and verdicts over (schedule, protocol) runs
(:func:`robotask.episode.report.summary.primary_long` of the task chapters' written results).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..tasks.registry import TASKS
from .figures_suite import metric_text
from .figures_tasks import HEAD_LABELS
from .phrases import readable
from .summary import LABEL_TASKS, mean_of, ran, value_of, verdict_tasks


def as_text(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` for a reader: every float cell as text with a true minus and at most 4 significant digits
    (:func:`.phrases.readable`), so that no column mixes "-" and "−" and no R² shows as −1596867.820."""
    shown = table.copy()
    for column in shown.columns:
        if pd.api.types.is_float_dtype(shown[column]):
            shown[column] = shown[column].map(lambda v: readable(None if pd.isna(v) else float(v)))
    return shown


def wins_table(long: pd.DataFrame, schedules: list[str], protocols: list[str]) -> pd.DataFrame:
    """Per schedule and protocol: tasks that ran, and on how many each head is ahead of the baseline, behind
    it, or not resolved (each task page's paired interval); missing (a dash) where the head ran on no task."""
    rows = []
    for s in schedules:
        for p in protocols:
            row = {"Schedule": s, "Protocol": p, "Tasks that ran": ran(long, s, p)}
            for model, label in (("minimal", "Minimal head"), ("mlp", "MLP")):
                counts = {w: len(verdict_tasks(long, s, p, model, w)) for w in ("ahead", "behind", "not resolved")}
                for word, n in counts.items():
                    row[f"{label}: {word}"] = n if sum(counts.values()) else None
            rows.append(row)
    return pd.DataFrame(rows)


def strongest_table(long: pd.DataFrame, schedules: list[str], proto: str) -> pd.DataFrame:
    """Per task and schedule under ``proto``: the strongest baseline on the metric the verdicts read, its score,
    the trivial baseline's score on the primary metric beside it, and each head's verdict against the strongest
    (a dash where the run has no metrics)."""
    rows = []
    for t, spec in TASKS.items():
        for s in schedules:
            sel = long[(long["task"] == t) & (long["schedule"] == s) & (long["protocol"] == proto)]
            if sel.empty:
                continue
            first = sel.iloc[0]
            verdicts = dict(zip(sel["model"], sel["verdict"]))
            name = first.get("strongest_baseline")
            rows.append({"task": spec.display_name, "Schedule": s,
                         "Metric": metric_text(first["verdict_metric"]) if isinstance(name, str) else "–",
                         "Strongest baseline": name if isinstance(name, str) else "the task did not run",
                         "Its score": readable(first.get("strongest_value")) if isinstance(name, str) else "–",
                         "Minimal head": verdicts.get("minimal") or "–", "MLP": verdicts.get("mlp") or "–"})
    return pd.DataFrame(rows)


def informed_share(long: pd.DataFrame, proto: str) -> tuple[int, int]:
    """Of the runs under ``proto`` that produced metrics, how many have a strongest baseline other than the
    trivial one, and how many there are."""
    sel = long[(long["protocol"] == proto) & (long["model"] == "baseline") & long["strongest_baseline"].notna()]
    return int((sel["strongest_baseline"] != sel["trivial_baseline"]).sum()), int(len(sel))


def label_task_means(long: pd.DataFrame, schedules: list[str], proto: str) -> pd.DataFrame:
    """Mean macro-F1 of the three label tasks (action, step, next action) per schedule and model."""
    rows = []
    for s in schedules:
        row = {"Schedule": s}
        for model in ("baseline", "minimal", "mlp"):
            m = mean_of([value_of(long, s, proto, t, model) for t in LABEL_TASKS])
            row[HEAD_LABELS[model].capitalize() if model != "mlp" else "MLP"] = float("nan") if m is None else m
        rows.append(row)
    return pd.DataFrame(rows)


def protocol_changes(long: pd.DataFrame, schedule: str, n: int = 3) -> pd.DataFrame:
    """The ``n`` largest moves of a head from the original to the improved protocol on ``schedule`` in the
    metric's good direction, and every move the other way."""
    rows = []
    for t, spec in TASKS.items():
        for model in ("minimal", "mlp"):
            a, b = value_of(long, schedule, "original", t, model), value_of(long, schedule, "improved", t, model)
            if a is not None and b is not None:
                rows.append({"Task": spec.display_name, "Head": HEAD_LABELS[model],
                             "Metric": metric_text(spec.primary_metric), "Original": a, "Improved": b,
                             "Move": (b - a) if spec.higher_is_better else (a - b)})
    frame = pd.DataFrame(rows, columns=["Task", "Head", "Metric", "Original", "Improved", "Move"])
    frame = frame.sort_values("Move", ascending=False, kind="stable")
    return pd.concat([frame.head(n), frame.iloc[n:][frame.iloc[n:]["Move"] < 0]]).reset_index(drop=True)


def published_coverage_table(windows_summary: dict | None, published: dict) -> pd.DataFrame:
    """Label coverage per schedule (written by chapter 11) beside the published real sample's (other data)."""
    rows = [{"Episode": rec["episode"], "Labels": rec["labels"], "Test windows": rec["test windows"],
             "Coverage (%)": 100 * rec["coverage"]} for rec in (windows_summary or {}).get("coverage", [])]
    rows += [{"Episode": "real sample (other data)", "Labels": labels, "Test windows": np.nan,
              "Coverage (%)": 100 * published[task]}
             for labels, task in (("action", "timeline_action"), ("subtask", "timeline_subtask"))]
    return pd.DataFrame(rows)


ANOMALY_COLUMNS = ("Task", "Schedule", "Protocol", "Head", "Metric", "Value", "Cause", "Columns", "Variance share (%)",
                   "Error share (%)", "Without them")


def anomalies_table(docs: dict[str, dict]) -> pd.DataFrame:
    """The scores that look like errors which the task pages listed with their cause, one row each."""
    rows = pd.DataFrame([a for doc in docs.values() for a in doc.get("anomalies", [])])
    for column in ("Value", "Without them"):  # text with a true minus, at most 4 significant digits
        if column in rows:
            rows[column] = rows[column].map(lambda v: readable(None if pd.isna(v) else float(v)))
    return rows.reindex(columns=[c for c in ANOMALY_COLUMNS if c in rows]).fillna("–")
