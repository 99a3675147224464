"""Everything one set of prediction files says: recomputed metrics, baselines, intervals, verdicts, coverage.

:func:`score_extracted` scores the shipped extraction of the original's results (chapter 15);
:func:`score_files` scores prediction files in the original's formats (``robotask score``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...errors import RobotaskError
from .coverage import coverage_table, seen_flags
from .formats import check_runs, read_extracted, read_original
from .naive import baseline_runs
from .recompute import recomputed_table, task_metrics
from .units import N_BOOT
from .verdicts import common_windows, comparisons_table, result_rows

HEADS = ("minimal", "mlp", "simple", "neural")


@dataclass(frozen=True)
class Scorecard:
    """The tables of one scoring: ``recomputed`` (published beside recomputed), ``baselines`` (which class each
    baseline predicts and where it was taken from), ``results`` (each run's metric with its interval),
    ``comparisons`` (paired, with verdicts) and ``coverage`` (label tasks)."""

    predictions: pd.DataFrame
    recomputed: pd.DataFrame
    baselines: pd.DataFrame
    results: pd.DataFrame
    comparisons: pd.DataFrame
    coverage: pd.DataFrame


def _majority_published(published: pd.DataFrame) -> dict[tuple[str, str], float]:
    rows = published[published["metric"] == "majority_baseline_accuracy"]
    return {(r.scope, r.task): float(r.published) for r in rows.itertuples(index=False)}


def _score(predictions: pd.DataFrame, published: pd.DataFrame, windows: pd.DataFrame | None,
           unseen: pd.DataFrame, reference: str, seed: int, n_boot: int) -> Scorecard:
    majority_pub = _majority_published(published)
    ref = predictions[predictions["run"] == reference]
    base, notes = baseline_runs(ref, windows, majority_pub)
    majority = {(s, t): task_metrics(g, t)["accuracy"]
                for (s, t), g in base[base["run"] == "majority"].groupby(["scope", "task"])}
    recomputed = pd.DataFrame(columns=["source", "scope", "run", "task", "metric", "published", "recomputed"])
    if len(published):
        recomputed = recomputed_table(predictions, published, majority)
    runs = common_windows(pd.concat([predictions, base], ignore_index=True), reference)
    tuned = set(predictions["run"]) - set(HEADS) - set(base["run"])
    tuned &= set(predictions.loc[predictions["parsed"].astype(str) != "", "run"])
    return Scorecard(predictions=predictions, recomputed=recomputed, baselines=notes,
                     results=result_rows(runs, seed, tuned, n_boot),
                     comparisons=comparisons_table(runs, seed, tuned, n_boot),
                     coverage=coverage_table(ref, unseen, windows, seen_flags(predictions)))


def score_extracted(folder: Path, seed: int, n_boot: int = N_BOOT) -> Scorecard:
    """The extracted original results in ``folder`` (``data/original_results``), scored in full."""
    read = {n: pd.read_csv(folder / n, keep_default_na=False, dtype=str)
            for n in ("windows.csv", "published.csv", "unseen_labels.csv")}
    predictions = read_extracted(folder / "predictions.csv")
    parts = []
    for scope, reference in (("episode", "minimal"), ("episodes", "simple")):
        part = predictions[predictions["scope"] == scope]
        pub = read["published.csv"][read["published.csv"]["scope"] == scope]
        parts.append(_score(part, pub, read["windows.csv"], read["unseen_labels.csv"], reference, seed, n_boot))
    return Scorecard(*(pd.concat([getattr(p, f) for p in parts], ignore_index=True)
                       for f in Scorecard.__dataclass_fields__))


def read_windows(path: Path) -> pd.DataFrame:
    """A windows file in the original's format (single episode with labels, or the split of many)."""
    try:
        w = pd.read_csv(path, keep_default_na=False, dtype=str)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise RobotaskError(f"--windows {path}: not a readable CSV file ({str(exc).splitlines()[0]})") from None
    if "window_index" in w.columns and "action_label" in w.columns:
        return pd.DataFrame({"scope": "episode", "window": w["window_index"], "episode": "sample",
                             "action_label": w["action_label"], "subtask_label": w.get("subtask_label", "")})
    raise RobotaskError(f"--windows {path}: expected the single-episode windows.csv (window_index, action_label, "
                        f"subtask_label); the many-episode windows file holds no labels to count a majority from")


def _published_beside(path: Path, scope: str, run: str, task: str) -> list[dict]:
    """The metrics.json beside a prediction file, as published rows (none if absent)."""
    m = path.parent / "metrics.json"
    if not m.is_file():
        return []
    try:
        data = json.loads(m.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RobotaskError(f"{m}: not a JSON file") from None
    test = data.get("splits", {}).get("test", data)
    keys = ("accuracy", "balanced_accuracy", "macro_f1", "weighted_f1", "micro_f1", "exact_match", "f1")
    rows = [{"path": str(m), "scope": scope, "run": run, "task": task, "metric": k, "published": float(test[k]),
             "n_labels": ""} for k in keys if isinstance(test.get(k), (int, float))
            and not (task == "object_relevance" and k == "macro_f1")]
    if isinstance(data.get("labels"), list):  # a fine-tuned run: its macro-F1 runs over its fixed label list
        for r in rows:
            if r["metric"] == "macro_f1":
                r.update(metric="macro_f1_all_labels", n_labels=len(data["labels"]))
    if isinstance(data.get("majority_baseline_accuracy"), (int, float)):  # names the train majority's class
        rows.append({**rows[0], "metric": "majority_baseline_accuracy",
                     "published": float(data["majority_baseline_accuracy"])} if rows else {})
    return [r for r in rows if r]


def score_files(named: list[tuple[str, Path]], windows: Path | None, task: str | None, seed: int,
                n_boot: int = N_BOOT) -> Scorecard:
    """Prediction files in the original's formats, each a run named by the user (or by its folder)."""
    frames, published = [], []
    for run, path in named:
        frame = read_original(path, run, task)
        scope = "episode" if frame["episode"].nunique() == 1 else "episodes"
        frames.append(frame.assign(scope=scope, complete="", seen=""))
        published += _published_beside(path, scope, run, str(frame["task"].iloc[0]))
    predictions = pd.concat(frames, ignore_index=True)
    if predictions["scope"].nunique() > 1:
        raise RobotaskError("the prediction files mix one episode and many episodes; score them separately")
    check_runs(predictions, "the prediction files")
    w = read_windows(windows) if windows else None
    pub = pd.DataFrame(published, columns=["path", "scope", "run", "task", "metric", "published", "n_labels"])
    unseen = pd.DataFrame(columns=["scope", "task", "label"])
    return _score(predictions, pub, w, unseen, named[0][0], seed, n_boot)
