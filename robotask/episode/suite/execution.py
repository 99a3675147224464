"""Run the twelve episode tasks: heads, baselines, metrics, artifacts and ``summary_report.json``.

``run_suite`` loops over the registry of ``robotask.episode.tasks.registry``; ``run_task`` runs one task with the
minimal head, the MLP and the trivial baseline on the same inputs, split and metrics, and writes the
original layout: ``<out>/<task>/`` and ``<out>/neural_mlp/<task>/`` (metrics.json, predictions,
per-class metrics, confusion matrix, model files). A task that cannot run records its reason.
Used by notebooks ``12_task`` and ``13_suite_summary``, ``benchmarks/episode_suite.py`` and the
``robotask suite`` subcommand. Heads run in ``head_runs``, scores and artifacts in ``scoring``.
"""

from __future__ import annotations

import functools
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ...io import write_json
from ...progress import tqdm
from ...words import named
from ..features.windowset import WindowSet, load_window_set
from ..features.windowset import write_artifacts as write_window_artifacts
from ..tasks.builders import TaskData, TaskUnavailable
from ..tasks.protocols import Protocol, get_protocol
from ..tasks.registry import TASKS, TaskSpec, describe, parse_tasks, split
from .fit import (
    HeadOutput,
    SuiteConfig,
    baseline_name,
    check_degenerate,
    one_blas_thread,
    run_baseline,
    run_minimal,
    run_mlp,
    standardize,
)
from .jobs import map_groups, task_groups
from .phrases import task_notes
from .scoring import evaluate, write_artifacts
from .shared_fits import fit_entry, shared_fit

HEADS = ("minimal", "mlp")
HEAD_RUNNERS = {"minimal": run_minimal, "mlp": run_mlp}

# Other data, not ours: the original suite's primary metrics on the real Xperience-10M sample
# (TS results/episode_task_suite/summary_report.json, spec §7). Shown beside our numbers, never as ours.
PUBLISHED_REAL_SAMPLE: dict[str, dict] = {
    "timeline_action": {"minimal": 0.0500, "mlp": 0.0148},
    "timeline_subtask": {"minimal": 0.0506, "mlp": 0.0281},
    "transition_detection": {"minimal": 0.6118, "mlp": 0.5862},
    "next_action": {"minimal": 0.0593, "mlp": 0.0419},
    "hand_trajectory_forecast": {"minimal": 0.8647, "mlp": 0.1079},
    "contact_prediction": {"minimal": 1.0, "mlp": 1.0, "note": "degenerate: one class"},
    "object_relevance": {"minimal": 0.1803, "mlp": 0.1679},
    "caption_grounding": {"minimal": 0.0160, "mlp": 0.0168},
    "cross_modal_retrieval": {"minimal": 0.3678, "mlp": 0.1983},
    "modality_reconstruction": {"minimal": -0.0153, "mlp": -0.0102},
    "temporal_order": {"minimal": 0.5400, "mlp": 0.8520},
    "misalignment_detection": {"minimal": 0.5052, "mlp": 0.7153},
}
# Real-sample label coverage of the chronological test split (spec §7, derived): other data.
PUBLISHED_COVERAGE = {"timeline_action": 64 / 343, "timeline_subtask": 0.166}
NEURAL_DIR = "neural_mlp"

@dataclass
class TaskResult:
    """One task run under one protocol: its JSON record and, when it ran, the in-memory data and outputs.

    :meth:`summary` gives the JSON-able record written to ``summary_report.json``; ``data`` (targets,
    rows and split; inputs released) and ``outputs`` (test predictions per head) serve the figures.
    """

    task: str
    status: str  # "ok", "skipped" or "degenerate"
    info: dict  # the task description and the run facts (protocol, sample counts, feature dim, class names)
    primary: dict  # {metric, higher_is_better, baseline, minimal, mlp}; None where not run
    metrics: dict[str, dict] = field(default_factory=dict)  # "baseline" / "minimal" / "mlp" -> metrics
    details: dict = field(default_factory=dict)  # why it did not run: reason, class counts
    data: TaskData | None = field(default=None, repr=False)
    outputs: dict[str, HeadOutput | None] = field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        """True when the task ran."""
        return self.status == "ok"

    @property
    def reason(self) -> str | None:
        """Why the task did not run (None when it ran)."""
        return self.details.get("reason")

    @property
    def notes(self) -> list[str]:
        """Plain statements computed from the numbers (see :func:`robotask.episode.suite.phrases.task_notes`)."""
        return task_notes(self.primary, self.metrics, self.info.get("baseline_name", "trivial"),
                          self.info.get("shared_visual_fraction"))

    def summary(self) -> dict:
        """The JSON-able record: task facts, status (and reason), per-head metrics, primary row, notes."""
        return {**self.info, "status": self.status, **self.details, **self.metrics, "primary": self.primary,
                "notes": self.notes}

    def status_record(self) -> dict:
        """Status, reason and class counts: what the report shows for a task without metrics."""
        return {"status": self.status, **{k: self.details[k] for k in ("reason", "class_counts") if k in self.details}}

    def part(self, name: str) -> dict:
        """Metrics of ``name`` ("baseline", "minimal", "mlp"), else the status record."""
        return self.metrics.get(name, self.status_record())


def parse_heads(spec: str | list[str]) -> list[str]:
    """``"minimal,mlp"`` (or a list) → validated head names; unknown → RobotaskError listing the choices."""
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    items = [h.strip() for h in items if h.strip()]
    bad = [h for h in items if h not in HEADS]
    if bad or not items:
        given = f"unknown {named('head', bad)}" if bad else "no head given"
        raise RobotaskError(f"heads: {given}; expected a comma list of: {', '.join(HEADS)}")
    return [h for h in HEADS if h in items]


def primary_row(spec: TaskSpec, metrics: dict[str, dict]) -> dict:
    """The primary metric of baseline / minimal / MLP (None where not run)."""
    get = lambda part: (metrics.get(part) or {}).get(spec.primary_metric)  # noqa: E731
    return {"metric": spec.primary_metric, "higher_is_better": spec.higher_is_better,
            "baseline": get("baseline"), "minimal": get("minimal"), "mlp": get("mlp")}


def _not_run(out_dir: Path | None, spec: TaskSpec, status: str, details: dict) -> TaskResult:
    """The result of a task that did not run; writes its error.json under ``out_dir`` if given."""
    result = TaskResult(spec.id, status, describe(spec), primary_row(spec, {}), details=details)
    if out_dir is not None:
        doc = {**result.info, "status": status, **details, "error": details["reason"]}
        write_json(out_dir / spec.id / "error.json", doc)
    return result


def _run_facts(spec: TaskSpec, data: TaskData, protocol: Protocol) -> dict:
    """Task description plus protocol, split sizes, feature dim, baseline and class names."""
    facts = {**describe(spec), "protocol": protocol.name, "num_train": int(len(data.train)),
             "num_test": int(len(data.test)), "feature_dim": int(data.X.shape[1]),
             "num_val": 0 if data.val is None else int(len(data.val)), "baseline_name": baseline_name(data)}
    if data.kind in ("classification", "binary", "multilabel"):
        facts["class_names"] = list(data.class_names)
    if data.kind in ("classification", "binary"):
        counts = np.bincount(data.y[data.train], minlength=len(data.class_names))
        facts["train_majority_share"] = float(counts.max() / max(counts.sum(), 1))
    if "shared_visual_fraction" in data.extra:
        facts["shared_visual_fraction"] = float(data.extra["shared_visual_fraction"])
    return facts


def _fit(spec: TaskSpec, head: str, data: TaskData, z: Any, protocol: Protocol, cfg: SuiteConfig,
         fit_cache: dict | None) -> HeadOutput:
    """The head's output, shared between tasks with the same ``fit_key`` through ``fit_cache`` (and
    between processes through the cache with ``cfg.shared_fits``, :mod:`.shared_fits`)."""
    key = (spec.fit_key, head) if spec.fit_key else None
    if fit_cache is not None and key in fit_cache:
        output = fit_cache[key]
    else:
        run = functools.partial(HEAD_RUNNERS[head], data, z, protocol, cfg)
        shared = cfg.shared_fits and bool(spec.fit_key) and isinstance(z, np.ndarray)
        output = shared_fit(fit_entry(spec.fit_key, head, data, z, protocol, cfg), run) if shared else run()
        if key is not None and fit_cache is not None:
            fit_cache[key] = output
    return replace(output, train_final=dict(output.train_final))


@one_blas_thread
def run_task(task_id: str, ws: WindowSet, protocol: Protocol, heads: list[str] | None = None,
             out_dir: Path | None = None, cfg: SuiteConfig = SuiteConfig(),
             fit_cache: dict | None = None) -> TaskResult:
    """Run one task: baseline + requested heads; write artifacts under ``out_dir`` if given.

    Returns
    -------
    TaskResult with ``status`` ("ok", "skipped" or "degenerate"), the baseline / minimal / mlp metrics,
    the ``primary`` row {metric, higher_is_better, baseline, minimal, mlp}, the split sizes in ``info``,
    and ``reason`` when the task did not run.
    """
    heads = list(HEADS) if heads is None else heads
    spec = TASKS[task_id]
    try:
        data = split(spec.build(ws, protocol), protocol, with_validation="mlp" in heads)
    except TaskUnavailable as exc:
        return _not_run(out_dir, spec, "skipped", {"reason": str(exc)})
    degenerate = check_degenerate(data)
    if degenerate:
        return _not_run(out_dir, spec, degenerate.pop("status"), degenerate)
    facts = _run_facts(spec, data, protocol)
    z = standardize(data, protocol)
    base = run_baseline(data)
    result = TaskResult(spec.id, "ok", facts, {}, {"baseline": evaluate(spec, data, base, protocol)},
                        outputs={"baseline": base})
    for head in heads:
        output = result.outputs[head] = _fit(spec, head, data, z, protocol, cfg, fit_cache)
        metrics = {**facts, "model": "minimal" if head == "minimal" else NEURAL_DIR,
                   **evaluate(spec, data, output, protocol),
                   **{k: v for k, v in output.train_final.items() if k != "ranks"}}
        if head == "mlp":
            metrics["hyperparameters"] = asdict(cfg.mlp)
            metrics["early_stopping"] = data.val is not None
        metrics["baseline"] = result.metrics["baseline"]
        result.metrics[head] = metrics
        if out_dir is not None:
            folder = out_dir / spec.id if head == "minimal" else out_dir / NEURAL_DIR / spec.id
            kept = output if cfg.save_models else replace(output, save=None)  # --no-models: no model file
            write_artifacts(spec, data, kept, metrics, folder)
    result.primary = primary_row(spec, result.metrics)
    data.X = None  # release the (possibly large) inputs; figures need targets and rows only
    result.data = data
    return result


def run_suite(ws: WindowSet, tasks: str | list[str] = "all", heads: str | list[str] = "minimal,mlp",
              protocol: str | Protocol = "original", out_dir: str | Path | None = None,
              cfg: SuiteConfig = SuiteConfig(), progress: bool = True, jobs: int = 1) -> dict:
    """Run tasks on a WindowSet; write per-task artifacts and ``summary_report.json`` (if ``out_dir``).

    ``jobs`` > 1 runs groups of tasks in that many worker processes (:mod:`.suite_jobs`); the results
    are the same.

    Returns
    -------
    dict: the summary report plus ``timings`` and ``cpu_seconds`` (wall and CPU seconds per task; not
    written to the report, which is deterministic) and ``results`` (task id -> :class:`TaskResult`).
    """
    task_ids = parse_tasks(tasks)
    head_list = parse_heads(heads)
    proto = protocol if isinstance(protocol, Protocol) else get_protocol(protocol)
    out = Path(out_dir) if out_dir is not None else None
    done: dict[str, tuple] = {}
    groups = task_groups(task_ids)
    bar = tqdm(total=len(task_ids), desc=f"tasks ({proto.name})", unit="task", disable=not progress)
    for finished in map_groups(_run_group, groups, jobs, ws, proto, head_list, out, cfg):
        for tid, *rest in finished:
            done[tid] = rest
            bar.update(1)
    bar.close()
    results = {t: done[t][0] for t in task_ids}
    report = summary_report(ws, proto, head_list, cfg, results)
    if out is not None:
        write_window_artifacts(ws, out)  # the original's layout: windows.csv, manifests, shared_windows.npz
        write_json(out / "summary_report.json", report)
    return {**report, "timings": {t: done[t][1] for t in task_ids}, "cpu_seconds": {t: done[t][2] for t in task_ids},
            "results": results}


def _run_group(group: list[str], ws: WindowSet, proto: Protocol, heads: list[str], out: Path | None,
               cfg: SuiteConfig) -> list[tuple]:
    """(task, result, wall s, CPU s) per task of a group. The model writers have written by then and
    are dropped, so that a result can return from a worker process (they are not picklable)."""
    cache: dict = {}
    rows = []
    for tid in group:
        t0, c0 = time.perf_counter(), time.process_time()
        result = run_task(tid, ws, proto, heads, out, cfg, cache)
        result.outputs = {h: o if o is None else replace(o, save=None) for h, o in result.outputs.items()}
        rows.append((tid, result, time.perf_counter() - t0, time.process_time() - c0))
    return rows


def summary_report(ws: WindowSet, proto: Protocol, heads: list[str], cfg: SuiteConfig,
                   results: dict[str, TaskResult]) -> dict:
    """The deterministic summary: episode facts, protocol, per-task metrics and the primary table."""
    return summary_report_of(int(ws.episode.n_frames), int(len(ws.X)), int(ws.X.shape[1]),
                             bool(getattr(ws.episode, "is_synthetic", False)), proto, heads, cfg, results)


def summary_report_of(n_frames: int, n_windows: int, feature_dim: int, is_synthetic: bool, proto: Protocol,
                      heads: list[str], cfg: SuiteConfig, results: dict[str, TaskResult]) -> dict:
    """:func:`summary_report` from the episode's facts (the collection run keeps no WindowSet)."""
    return {
        "num_frames": n_frames, "num_windows": n_windows, "feature_dim": feature_dim, "is_synthetic": is_synthetic,
        "protocol": asdict(proto), "heads": heads,
        "task_display_names": {t: TASKS[t].display_name for t in results},
        "tasks": {t: r.part("minimal") for t, r in results.items()},
        "neural_tasks": {t: r.part("mlp") for t, r in results.items()} if "mlp" in heads else {},
        "baselines": {t: r.part("baseline") for t, r in results.items()},
        "status": {t: {"status": r.status, **({"reason": r.reason} if r.reason is not None else {})}
                   for t, r in results.items()},
        "primary": {t: r.primary for t, r in results.items()},
        "notes": {t: r.notes for t, r in results.items()},
        "neural_model": {"name": NEURAL_DIR, **asdict(cfg.mlp), "device": "cpu"} if "mlp" in heads else None,
        "softmax_epochs": cfg.softmax_epochs,
    }


def primary_table(report: dict) -> pd.DataFrame:
    """One row per task: display name, primary metric, direction, baseline, minimal, MLP, status."""
    rows = []
    for t, p in report["primary"].items():
        rows.append({"task": t, "name": report["task_display_names"][t], "metric": p["metric"],
                     "better": "higher" if p["higher_is_better"] else "lower",
                     "baseline": p["baseline"], "minimal": p["minimal"], "mlp": p["mlp"],
                     "status": report["status"][t]["status"]})
    return pd.DataFrame(rows)


def load_windows(episode_dir: str | Path) -> WindowSet:
    """The WindowSet of an episode folder (features from the cache when present)."""
    path = Path(episode_dir)
    if not path.is_dir():
        raise RobotaskError(f"--episode {episode_dir}: not a directory; expected an episode folder")
    return load_window_set(path)
