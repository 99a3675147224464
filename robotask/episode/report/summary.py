"""The task chapters' written results and the suite summary built from them.

Each task chapter (notebook ``12_task``) writes ``summary.json`` into its result folder
``<results>/12_task_<task>/``: per schedule and protocol the status, the primary metric of the
baseline and both heads, and the notes of the run. The summary chapter reads those files with
:func:`read_task_summaries` and never re-runs a task. :func:`primary_long` turns them into one long
table; :func:`summary_table` gives one row per task for one schedule with the original suite's
published real-sample numbers joined on the task.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ..tasks.registry import TASKS
from .phrases import readable

MODELS = ("baseline", "minimal", "mlp")
MODEL_LABELS = {"baseline": "baseline", "minimal": "minimal", "mlp": "MLP"}
METRIC_LABELS = {"macro_f1": "macro-F1", "micro_f1": "micro-F1", "f1": "F1", "mrr": "MRR",
                 "top5_accuracy": "top-5 accuracy", "mpjpe": "MPJPE (m)", "r2": "R²",
                 "r2_standardized": "R² (standardised)", "accuracy": "accuracy"}
LABEL_TASKS = ("timeline_action", "timeline_subtask", "next_action")
SUMMARY_FILE = "summary.json"
PUBLISHED_COLUMN = "published minimal / MLP"


def chapter_id(task: str) -> str:
    """The id of the task chapter of ``task`` (its result folder name)."""
    return f"12_task_{task}"


def run_summary(result: Any, intervals: dict[str, Any] | None = None) -> dict:
    """The JSON record of one task run (a ``suite.TaskResult``): status, reason, primary, notes, every baseline's
    score on the deciding metric and the strongest, and each head's verdict against it with head − baseline and
    its interval (``head_intervals.Comparison``)."""
    from .head_intervals import baseline_scores, deciding_metric, head_words, strongest_baseline

    record = {"status": result.status, "primary": dict(result.primary),
              "notes": [str(n) for n in getattr(result, "notes", []) or []]}
    if result.reason is not None:
        record["reason"] = result.reason
    if result.ok:
        record["baseline_name"] = result.info.get("baseline_name", "")
        name, value = strongest_baseline(result)
        record["baselines"] = {"metric": deciding_metric(result.task), "scores": baseline_scores(result),
                               "strongest": name, "strongest_value": value}
    record["verdicts"] = {h: {"verdict": head_words(c)[0], "against": c.against, "metric": c.metric,
                              "difference": c.interval.mean,
                              "low": c.interval.low if math.isfinite(c.interval.low) else None,
                              "high": c.interval.high if math.isfinite(c.interval.high) else None,
                              "n_test": c.interval.n, "block": c.block} for h, c in (intervals or {}).items()}
    return record


HEAD_NAMES = {"minimal": "minimal head", "mlp": "MLP"}
VERDICT_COLUMNS = ("chapter", "claim", "a", "b", "data", "metric", "difference", "low", "high", "unit", "n_units",
                   "method", "verdict")


def _finite(x: Any) -> bool:
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def verdict_rows(task: str, doc: dict, n_boot: int, level: float) -> pd.DataFrame:
    """The verdicts a task page states, one row each in the book's index format (``VERDICT_COLUMNS``): every
    head against the strongest baseline of every run of ``doc`` (:func:`task_summary`'s document). ``data``
    names the task, so that no two task pages share a comparison; a head with no interval (a run too short
    for one) states no verdict and has no row."""
    rows = []
    for schedule, by_proto in doc["runs"].items():
        for proto, run in by_proto.items():
            for head, v in run.get("verdicts", {}).items():
                if not all(_finite(v.get(k)) for k in ("difference", "low", "high")):
                    continue
                n, block = v["n_test"], v["block"]
                a = HEAD_NAMES[head]
                rows.append({"chapter": chapter_id(task), "claim": f"{a} against the strongest baseline on "
                             f"{TASKS[task].display_name}", "a": a, "b": v["against"],
                             "data": f"{TASKS[task].display_name}: {schedule} episode, {proto} protocol, test part",
                             "metric": METRIC_LABELS.get(v["metric"], v["metric"]), "difference": v["difference"],
                             "low": v["low"], "high": v["high"],
                             "unit": f"block of {block} consecutive test samples", "n_units": -(-n // block),
                             "method": f"paired moving-block bootstrap, {n_boot:,} resamples, "
                                       f"{round(100 * level)} % percentile interval", "verdict": v["verdict"]})
    return pd.DataFrame(rows, columns=list(VERDICT_COLUMNS))


def task_summary(task: str, runs: dict[str, dict[str, Any]],
                 intervals: dict[str, dict[str, dict[str, Any]]] | None = None,
                 anomalies: Iterable[dict] = ()) -> dict:
    """The ``summary.json`` document of a task chapter: ``runs[schedule][protocol]`` is a TaskResult;
    ``intervals`` as :func:`head_intervals.run_intervals` gives them; ``anomalies`` the page's
    :func:`diagnostics.anomaly_records`, which the suite summary repeats."""
    iv = intervals or {}
    return {"task": task, "name": TASKS[task].display_name,
            "runs": {s: {p: run_summary(r, iv.get(s, {}).get(p)) for p, r in by_proto.items()}
                     for s, by_proto in runs.items()},
            "anomalies": [{"Task": TASKS[task].display_name, **a} for a in anomalies]}


def read_task_summaries(root: Path | str, tasks: Iterable[str] = tuple(TASKS)) -> dict[str, dict]:
    """The ``summary.json`` of every task chapter under ``root``; a missing one raises RobotaskError."""
    root = Path(root)
    docs: dict[str, dict] = {}
    missing = []
    for task in tasks:
        path = root / chapter_id(task) / SUMMARY_FILE
        if not path.is_file():
            missing.append(str(path.relative_to(root)))
            continue
        doc = json.loads(path.read_text())
        if "runs" not in doc:
            raise RobotaskError(f"{path}: no 'runs' entry; re-run the chapter with `robotask run "
                                f"{chapter_id(task)}` to write the current layout")
        docs[task] = doc
    if missing:
        raise RobotaskError(f"missing task results under {root}: {', '.join(missing)}; run the task "
                            f"chapters first (`robotask run 12_task`)")
    return docs


def primary_long(docs: dict[str, dict]) -> pd.DataFrame:
    """One row per task × schedule × protocol × model with the primary metric, the run status and, for a head,
    its verdict against the strongest baseline ("ahead", "behind", "not resolved"; None for the baseline), with
    the metric the verdict reads and the strongest baseline's name and score on it."""
    rows = []
    for task, doc in docs.items():
        for schedule, by_proto in doc["runs"].items():
            for proto, run in by_proto.items():
                p, base = run["primary"], run.get("baselines", {})
                for model in MODELS:
                    rows.append({"schedule": schedule, "protocol": proto, "task": task,
                                 "name": TASKS[task].display_name, "metric": p["metric"],
                                 "higher_is_better": bool(p["higher_is_better"]), "model": model,
                                 "value": p.get(model), "status": run["status"],
                                 "verdict": run.get("verdicts", {}).get(model, {}).get("verdict"),
                                 "verdict_metric": base.get("metric"), "trivial_baseline": run.get("baseline_name"),
                                 "strongest_baseline": base.get("strongest"),
                                 "strongest_value": base.get("strongest_value")})
    return pd.DataFrame(rows)


def schedules_of(long: pd.DataFrame) -> list[str]:
    """The schedules present in ``long``, in order of first appearance."""
    return list(dict.fromkeys(long["schedule"]))


PROTOCOL_ORDER = ("original", "improved")


def protocols_of(long: pd.DataFrame) -> list[str]:
    """The protocols present in ``long``: original, then improved, then any other by name."""
    present = set(long["protocol"])
    return [p for p in PROTOCOL_ORDER if p in present] + sorted(present - set(PROTOCOL_ORDER))


def metric_label(metric: str, higher_is_better: bool) -> str:
    """A metric name for a reader with its direction: ``macro_f1`` → "macro-F1 ↑"."""
    return f"{METRIC_LABELS.get(metric, metric.replace('_', ' '))} {'↑' if higher_is_better else '↓'}"


def column_name(protocol: str, model: str) -> str:
    """The summary-table column of one protocol and model, e.g. "original MLP"."""
    return f"{protocol} {MODEL_LABELS[model]}"


def summary_table(long: pd.DataFrame, schedule: str, published: dict | None = None) -> pd.DataFrame:
    """One row per task for ``schedule``: the primary metric per protocol and model, then the
    published real-sample minimal and MLP values (other data) joined on the task, in one column."""
    sub = long[long["schedule"] == schedule]
    rows = []
    for task in [t for t in TASKS if t in set(sub["task"])]:
        part = sub[sub["task"] == task]
        first = part.iloc[0]
        label = metric_label(first["metric"], first["higher_is_better"])
        row: dict[str, Any] = {"task": f"{TASKS[task].display_name} ({label})"}
        for proto in protocols_of(sub):
            for model in MODELS:
                hit = part[(part["protocol"] == proto) & (part["model"] == model)]["value"]
                value = hit.iloc[0] if len(hit) else None
                row[column_name(proto, model)] = float(value) if value is not None else float("nan")
        if published is not None:
            row[PUBLISHED_COLUMN] = f"{readable(published[task]['minimal'])} / {readable(published[task]['mlp'])}"
        rows.append(row)
    return pd.DataFrame(rows)


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


def metric_name(metric: str) -> str:
    """A metric key as a reader reads it: ``macro_f1`` → "macro-F1"."""
    return METRIC_LABELS.get(metric, metric.replace("_", " "))
