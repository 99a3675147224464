"""Run the twelve tasks with both heads over a collection split; per-task and per-episode metrics.

:func:`run_collection_task` fits the baseline and the heads on the merged training episodes
(``task_data.collection_task_data``) and scores the test episodes together and one by one.
:func:`run_collection_suite` writes the single-episode artifact layout (``<out>/<task>/``,
``<out>/neural_mlp/<task>/``, ``summary_report.json``) plus ``per_episode_metrics.csv``.
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pandas as pd

from ...io import write_csv, write_json
from ...progress import tqdm
from ..features.windowset import WindowSet
from ..suite.execution import NEURAL_DIR, TaskResult, parse_heads, primary_row, summary_report
from ..suite.fit import (
    HeadOutput,
    SuiteConfig,
    check_degenerate,
    one_blas_thread,
    run_baseline,
    run_minimal,
    run_mlp,
    standardize,
)
from ..suite.scoring import evaluate, write_artifacts
from ..tasks.builders import TaskData, TaskUnavailable
from ..tasks.protocols import Protocol, get_protocol
from ..tasks.registry import TASKS, describe, parse_tasks
from ..tasks.splits import EpisodeSplit
from .task_data import BuiltTasks, collection_task_data

RUNNERS = {"minimal": run_minimal, "mlp": run_mlp}


def _slice_output(out: HeadOutput | None, mask: np.ndarray) -> HeadOutput | None:
    """The test output restricted to the rows in ``mask`` (over the test rows)."""
    if out is None:
        return None
    return HeadOutput(out.pred[mask], None if out.proba is None else out.proba[mask], {}, [], None)


def per_episode_metrics(task_id: str, data: TaskData, outputs: dict, protocol: Protocol) -> list[dict]:
    """Primary metric of every head on each test episode alone (retrieval ranks within the episode)."""
    spec = TASKS[task_id]
    episodes = data.rows["episode_id"].to_numpy()[data.test]
    episodes = np.array([str(e).split(":")[0] for e in episodes], dtype=object)
    rows = []
    for eid in dict.fromkeys(episodes):
        mask = episodes == eid
        sub = copy.copy(data)
        sub.test = data.test[mask]
        row = {"task": task_id, "episode_id": eid, "num_test": int(mask.sum()), "metric": spec.primary_metric}
        for name, out in outputs.items():
            try:
                row[name] = evaluate(spec, sub, _slice_output(out, mask), protocol).get(spec.primary_metric)
            except (ValueError, IndexError, ZeroDivisionError):
                row[name] = None
        rows.append(row)
    return rows


def _facts(task_id: str, data: TaskData, protocol: Protocol, split_name: str) -> dict:
    """Task description and run facts (split, sizes, episodes per side)."""
    eps = data.rows["episode_id"].astype(str).str.split(":").str[0].to_numpy()
    facts = {**describe(TASKS[task_id]), "protocol": protocol.name, "split": split_name,
             "num_train": int(len(data.train)), "num_test": int(len(data.test)),
             "num_val": 0 if data.val is None else int(len(data.val)), "feature_dim": int(data.X.shape[1]),
             "train_episodes": sorted(set(eps[data.train])), "test_episodes": sorted(set(eps[data.test]))}
    if data.kind in ("classification", "binary", "multilabel"):
        facts["class_names"] = list(data.class_names)
    return facts


@one_blas_thread
def run_collection_task(task_id: str, sets: dict[str, WindowSet], split: EpisodeSplit, protocol: Protocol,
                        heads: list[str], out_dir: Path | None = None, cfg: SuiteConfig = SuiteConfig(),
                        chronological: bool = False, built: BuiltTasks | None = None) -> tuple[TaskResult, list[dict]]:
    """One task over a split: TaskResult (as the single-episode suite) and per-episode metric rows.

    ``built`` holds the calling run's per-episode TaskData (None: built for this task only)."""
    spec = TASKS[task_id]
    try:
        data = collection_task_data(task_id, sets, split, protocol, chronological, with_validation="mlp" in heads,
                                    built=built)
    except TaskUnavailable as exc:
        return TaskResult(task_id, "skipped", describe(spec), primary_row(spec, {}), details={"reason": str(exc)}), []
    degenerate = check_degenerate(data)
    if degenerate:
        status = degenerate.pop("status")
        return TaskResult(task_id, status, describe(spec), primary_row(spec, {}), details=degenerate), []
    facts = _facts(task_id, data, protocol, split.name if not chronological else "chronological")
    z = standardize(data, protocol)
    base = run_baseline(data)
    result = TaskResult(task_id, "ok", facts, {}, {"baseline": evaluate(spec, data, base, protocol)},
                        outputs={"baseline": base})
    for head in heads:
        output = result.outputs[head] = RUNNERS[head](data, z, protocol, cfg)
        metrics = {**facts, "model": "minimal" if head == "minimal" else NEURAL_DIR,
                   **evaluate(spec, data, output, protocol),
                   **{k: v for k, v in output.train_final.items() if k != "ranks"},
                   "baseline": result.metrics["baseline"]}
        result.metrics[head] = metrics
        if out_dir is not None:
            folder = out_dir / task_id if head == "minimal" else out_dir / NEURAL_DIR / task_id
            write_artifacts(spec, data, output, metrics, folder)
    result.primary = primary_row(spec, result.metrics)
    episodes = per_episode_metrics(task_id, data, {k: result.outputs[k] for k in ["baseline", *heads]}, protocol)
    data.X = None
    result.data = data
    return result, episodes


def run_collection_suite(sets: dict[str, WindowSet], split: EpisodeSplit, tasks: str | list[str] = "all",
                         heads: str | list[str] = "minimal,mlp", protocol: str | Protocol = "original",
                         out_dir: str | Path | None = None, cfg: SuiteConfig = SuiteConfig(),
                         chronological: bool = False, progress: bool = True, built: BuiltTasks | None = None) -> dict:
    """Run tasks over a split; write artifacts, ``summary_report.json`` and ``per_episode_metrics.csv``.

    ``built`` keeps the per-episode TaskData for the caller's further splits (None: kept for this split only).

    Returns the report plus ``results`` (task -> TaskResult) and ``per_episode`` (a DataFrame).
    """
    task_ids, head_list = parse_tasks(tasks), parse_heads(heads)
    proto = protocol if isinstance(protocol, Protocol) else get_protocol(protocol)
    out = Path(out_dir) if out_dir is not None else None
    results, per_episode, built = {}, [], BuiltTasks() if built is None else built
    for tid in tqdm(task_ids, desc=f"tasks ({split.name})", disable=not progress):
        results[tid], rows = run_collection_task(tid, sets, split, proto, head_list, out, cfg, chronological, built)
        per_episode += rows
    report = collection_report(sets, split, proto, head_list, cfg, results, chronological)
    table = pd.DataFrame(per_episode, columns=["task", "episode_id", "num_test", "metric", "baseline", *head_list])
    if out is not None:
        write_json(out / "summary_report.json", report)
        write_csv(out / "per_episode_metrics.csv", table)
    return {**report, "results": results, "per_episode": table}


def collection_report(sets: dict[str, WindowSet], split: EpisodeSplit, proto: Protocol, heads: list[str],
                      cfg: SuiteConfig, results: dict[str, TaskResult], chronological: bool) -> dict:
    """The single-episode report (``suite.summary_report``) with collection totals and the split."""
    report = summary_report(next(iter(sets.values())), proto, heads, cfg, results)
    report.update({"num_episodes": len(sets), "split": "chronological" if chronological else split.name,
                   "train_episodes": list(split.train), "test_episodes": list(split.test),
                   "num_frames": int(sum(ws.episode.n_frames for ws in sets.values())),
                   "num_windows": int(sum(len(ws.X) for ws in sets.values()))})
    return report
