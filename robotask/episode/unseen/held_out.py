"""Run the twelve tasks with both heads over a collection split; per-task and per-episode metrics.

:func:`run_collection_task` fits the baseline and the heads on the merged training episodes
(``task_data.collection_task_data``) and scores the test episodes together and one by one.
:func:`run_collection_suite` writes the single-episode artifact layout (``<out>/<task>/``,
``<out>/neural_mlp/<task>/``, ``summary_report.json``) plus ``per_episode_metrics.csv``.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from ...io import write_csv, write_json
from ...progress import tqdm
from ..features.windowset import WindowSet
from ..models.row_blocks import LazyRows
from ..models.streamed import GradientFactory
from ..suite.execution import (
    NEURAL_DIR,
    TaskResult,
    parse_heads,
    primary_row,
    summary_report,
    summary_report_of,
)
from ..suite.fit import (
    HeadOutput,
    SuiteConfig,
    check_degenerate,
    one_blas_thread,
    run_baseline,
    run_minimal,
    run_minimal_streamed,
    run_mlp,
    split_rows,
    standardize,
    standardize_streamed,
)
from ..suite.scoring import evaluate, write_artifacts
from ..tasks.builders import TaskData, TaskUnavailable
from ..tasks.protocols import Protocol, get_protocol
from ..tasks.registry import TASKS, describe, parse_tasks
from ..tasks.splits import EpisodeSplit
from .task_data import BuiltTasks, PartStore, collection_task_data

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


def _facts(task_id: str, data: TaskData, protocol: Protocol, split_name: str, feature_dim: int | None = None) -> dict:
    """Task description and run facts (split, sizes, episodes per side); ``feature_dim`` (None: X's width)."""
    eps = data.rows["episode_id"].astype(str).str.split(":").str[0].to_numpy()
    facts = {**describe(TASKS[task_id]), "protocol": protocol.name, "split": split_name,
             "num_train": int(len(data.train)), "num_test": int(len(data.test)),
             "num_val": 0 if data.val is None else int(len(data.val)),
             "feature_dim": int(data.X.shape[1] if feature_dim is None else feature_dim),
             "train_episodes": sorted(set(eps[data.train])), "test_episodes": sorted(set(eps[data.test]))}
    if data.kind in ("classification", "binary", "multilabel"):
        facts["class_names"] = list(data.class_names)
    return facts


def _not_run(task_id: str, details: dict) -> tuple[TaskResult, list[dict]]:
    """A task that did not run on a split: its ``details["status"]`` ("skipped" when its samples cannot be built,
    or what :func:`check_degenerate` found), the rest of ``details`` as the reason, and no metric rows."""
    spec = TASKS[task_id]
    status = details.pop("status")
    return TaskResult(task_id, status, describe(spec), primary_row(spec, {}), details=details), []


def _same_bits(a: object, b: object) -> bool:
    """Whether two inputs of a fit are the same: equal arrays bit for bit (or both None)."""
    if a is None or b is None:
        return a is b
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(
        np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(b).view(np.uint8))


def shared_fit(task_id: str, head: str, data: TaskData, z: np.ndarray, fit: Callable[[], HeadOutput],
               fit_cache: dict | None) -> Callable[[], HeadOutput]:
    """``fit``, or the output of the same head fitted for another task of the same split with the same
    ``fit_key`` (``tasks.registry``: cross-modal retrieval and modality reconstruction fit one ridge) when
    its inputs (z-scored rows, targets, sides) are the same bits, so the output is the one ``fit`` would give;
    ``fit_cache`` (None: no sharing) holds them for the split."""
    key = (TASKS[task_id].fit_key, head)
    inputs = (z, data.y, data.train, data.test, data.val, data.extra.get("train_core"))

    def run() -> HeadOutput:
        if fit_cache is None or not key[0]:
            return fit()
        hit = fit_cache.get(key)
        if hit is not None and all(_same_bits(a, b) for a, b in zip(hit[0], inputs)):
            output = hit[1]
        else:
            output = fit()
            fit_cache[key] = (inputs, output)
        return dataclasses.replace(output, train_final=dict(output.train_final))
    return run


@one_blas_thread
def run_collection_task(task_id: str, sets: dict[str, WindowSet], split: EpisodeSplit, protocol: Protocol,
                        heads: list[str], out_dir: Path | None = None, cfg: SuiteConfig = SuiteConfig(),
                        chronological: bool = False, built: BuiltTasks | None = None,
                        per_episode: bool = True, fit_cache: dict | None = None) -> tuple[TaskResult, list[dict]]:
    """One task over a split: TaskResult (as the single-episode suite) and per-episode metric rows.

    ``built`` holds the calling run's per-episode TaskData (None: built for this task only); ``per_episode``
    False skips the per-episode rows (an empty list), for callers that read the pooled result only;
    ``fit_cache`` (one per split) lets tasks that share a fit fit it once (:func:`shared_fit`)."""
    try:
        data = collection_task_data(task_id, sets, split, protocol, chronological, with_validation="mlp" in heads,
                                    built=built)
    except TaskUnavailable as exc:
        return _not_run(task_id, {"status": "skipped", "reason": str(exc)})
    degenerate = check_degenerate(data)
    if degenerate:
        return _not_run(task_id, degenerate)
    facts = _facts(task_id, data, protocol, split.name if not chronological else "chronological")
    # z-scored as it was stacked (``task_data.collection_task_data``), or here with the train rows' statistics
    z = data.X if data.extra.pop("standardized", False) else standardize(data, protocol)
    result = _fit_and_score(task_id, data, protocol, heads, out_dir, facts,
                            {head: shared_fit(task_id, head, data, z, functools.partial(RUNNERS[head], data, z,
                                                                                         protocol, cfg), fit_cache)
                             for head in heads})
    episodes = (per_episode_metrics(task_id, data, {k: result.outputs[k] for k in ["baseline", *heads]}, protocol)
                if per_episode else [])
    data.X = None
    result.data = data
    return result, episodes


def _fit_and_score(task_id: str, data: TaskData, protocol: Protocol, heads: list[str], out_dir: Path | None,
                   facts: dict, fits: dict[str, Callable[[], HeadOutput]]) -> TaskResult:
    """The baseline and ``fits[head]()`` per head, scored and (with ``out_dir``) written as the suite does."""
    spec = TASKS[task_id]
    base = run_baseline(data)
    result = TaskResult(task_id, "ok", facts, {}, {"baseline": evaluate(spec, data, base, protocol)},
                        outputs={"baseline": base})
    for head in heads:
        output = result.outputs[head] = fits[head]()
        metrics = {**facts, "model": "minimal" if head == "minimal" else NEURAL_DIR,
                   **evaluate(spec, data, output, protocol),
                   **{k: v for k, v in output.train_final.items() if k != "ranks"},
                   "baseline": result.metrics["baseline"]}
        result.metrics[head] = metrics
        if out_dir is not None:
            folder = out_dir / task_id if head == "minimal" else out_dir / NEURAL_DIR / task_id
            write_artifacts(spec, data, output, metrics, folder)
    result.primary = primary_row(spec, result.metrics)
    return result


@one_blas_thread
def run_store_task(task_id: str, store: PartStore, split: EpisodeSplit, protocol: Protocol, heads: list[str],
                   out_dir: Path | None = None, cfg: SuiteConfig = SuiteConfig(), chronological: bool = False,
                   gradients: GradientFactory | None = None) -> tuple[TaskResult, list[dict]]:
    """:func:`run_collection_task` with the inputs on disk (``task_data.PartStore``): the minimal head is
    fitted from sums over row blocks (``suite.fit.run_minimal_streamed``), the MLP on minibatches read from
    disk (``models.mlp_input``).

    ``gradients(kind, rows, target, weight)`` makes a head's epoch gradient elsewhere (``suite.cluster``);
    None computes it here."""
    try:
        data, rows = store.task_data(task_id, split, protocol, chronological, with_validation="mlp" in heads)
    except TaskUnavailable as exc:
        return _not_run(task_id, {"status": "skipped", "reason": str(exc)})
    degenerate = check_degenerate(data)
    if degenerate:
        return _not_run(task_id, degenerate)
    facts = _facts(task_id, data, protocol, split.name if not chronological else "chronological", rows.width)
    train, test = split_rows(rows, data)
    scaler = standardize_streamed(data, train, protocol)

    def minimal() -> HeadOutput:  # z-scored once into scratch files beside the store, dropped after the fit
        ztrain, ztest = (rows.scaled(scaler).copied(rows.path.with_suffix(f".{side}.z"))
                         for rows, side in ((train, "train"), (test, "test")))
        try:
            return run_minimal_streamed(data, ztrain, ztest, protocol, cfg, gradients)
        finally:
            ztrain.path.unlink(missing_ok=True)
            ztest.path.unlink(missing_ok=True)

    def mlp() -> HeadOutput:  # minibatches read from the rows z-scored once into a scratch file, dropped after
        z = rows.scaled(scaler).copied(rows.path.with_suffix(".mlp.z"))
        try:
            return run_mlp(data, z, protocol, cfg)
        finally:
            z.path.unlink(missing_ok=True)

    result = _fit_and_score(task_id, data, protocol, heads, out_dir, facts, {"minimal": minimal, "mlp": mlp})
    episodes = per_episode_metrics(task_id, data, {k: result.outputs[k] for k in ["baseline", *heads]}, protocol)
    result.data = data
    return result, episodes


def _discard_predictions(outputs: dict[str, HeadOutput | None]) -> None:
    """Delete the test predictions the heads left on disk (``LazyRows``; a function, so no loop variable
    keeps the last head's output, and its model, alive after the task)."""
    for output in outputs.values():
        if output is not None and isinstance(output.pred, LazyRows):
            output.pred.discard()


def run_store_suite(store: PartStore, split: EpisodeSplit, tasks: str | list[str] = "all",
                    heads: str | list[str] = "minimal,mlp", protocol: str | Protocol = "original",
                    out_dir: str | Path | None = None, cfg: SuiteConfig = SuiteConfig(), chronological: bool = False,
                    progress: bool = True, gradients: GradientFactory | None = None, keep: bool = True) -> dict:
    """:func:`run_collection_suite` over a :class:`task_data.PartStore` (the same files and report).

    ``keep`` False drops each task's data and test outputs once it is scored and written, and deletes the
    wide test predictions the minimal ridge left on disk (the command needs only the report; kept, the
    outputs grow with the collection, and the wide targets and predictions they read stay on disk
    in the store's folder)."""
    task_ids, head_list = parse_tasks(tasks), parse_heads(heads)
    proto = protocol if isinstance(protocol, Protocol) else get_protocol(protocol)
    out = Path(out_dir) if out_dir is not None else None
    results, per_episode = {}, []
    for tid in tqdm(task_ids, desc=f"tasks ({split.name})", disable=not progress):
        try:
            results[tid], rows = run_store_task(tid, store, split, proto, head_list, out, cfg, chronological,
                                                gradients)
        except Exception as exc:  # noqa: BLE001 — a task that fails on the cluster fails alone, as features do
            if gradients is None:
                raise
            results[tid], rows = TaskResult(tid, "failed", describe(TASKS[tid]), primary_row(TASKS[tid], {}),
                                            details={"reason": f"fit on the cluster: {type(exc).__name__}: {exc}"}), []
        per_episode += rows
        if not keep:
            _discard_predictions(results[tid].outputs)
            results[tid].data, results[tid].outputs = None, {}
    facts = store.facts
    first = next(iter(facts.values()))
    report = summary_report_of(first.n_frames, first.n_windows, first.feature_dim, first.is_synthetic, proto,
                               head_list, cfg, results)
    report.update({"num_episodes": len(facts), "split": "chronological" if chronological else split.name,
                   "train_episodes": list(split.train), "test_episodes": list(split.test),
                   "num_frames": int(sum(f.n_frames for f in facts.values())),
                   "num_windows": int(sum(f.n_windows for f in facts.values()))})
    table = pd.DataFrame(per_episode, columns=["task", "episode_id", "num_test", "metric", "baseline", *head_list])
    if out is not None:
        write_json(out / "summary_report.json", report)
        write_csv(out / "per_episode_metrics.csv", table)
    return {**report, "results": results, "per_episode": table}


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
