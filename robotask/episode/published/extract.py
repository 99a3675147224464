"""Extract the original suite's published per-window predictions into ``data/original_results``.

``python -m robotask.episode.published.extract --repo DIR --out data/original_results`` reads a checkout (or
a bare git mirror) of ChaoYue0307/ropedia-xperience-10m-task-suite and writes, with ``source, revision, path``
on every row:

- ``predictions.csv``: one row per window (or pair), run and task: ``scope`` (``episode``: the one real sample
  episode; ``episodes``: the 14 unseen test episodes), ``run``, ``task``, ``window``, ``episode``, ``order``
  (position in time), ``true``, ``predicted``, and for the fine-tuned runs ``parsed`` (the raw JSON answer read
  as an object), ``complete`` (it held all seven answer fields) and, for the action, ``seen`` (the true label
  occurs in the train windows, the original's ``true_label_seen_in_train``). Object sets are ``|``-joined and sorted;
  an unparsable answer's field is empty. Only the fields a score uses are kept, never the raw answer text.
- ``windows.csv``: every window of both stages (the sample's with its action and subtask labels; the
  128-episode stage's with its split).
- ``unseen_labels.csv``: the test labels each stage's metrics name as absent from its train windows;
- ``published.csv``: every published metric read (``run, task, metric, published``; ``n_labels`` where the
  original averages over a fixed label list).
- ``NOTICE``: the source, the revision, the repository's licence and the dataset's terms;
- ``accounting.csv``: every file under ``results/`` of the two stages and the fine-tuned runs, with what was
  done with it and why.

The raw answers are read by :func:`.formats.parse_answer`.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

from ...errors import RobotaskError
from ...io import write_csv, write_text
from .formats import label_text, object_set, parse_answer

SOURCE = "ChaoYue0307/ropedia-xperience-10m-task-suite"
SINGLE = "results/episode_task_suite"
MULTI = "results/omni_finetune/multi_episode_128_task_baselines"
TUNED = "results/omni_finetune/verified_public"
SINGLE_TASKS = ("transition_detection", "contact_prediction", "next_action", "timeline_action",
                "timeline_subtask", "object_relevance", "temporal_order", "misalignment_detection")
MULTI_TASKS = SINGLE_TASKS[:-1]
FIELDS = {"action": "timeline_action", "subtask": "timeline_subtask", "transition": "transition_detection",
          "contact": "contact_prediction", "next_action": "next_action", "objects": "object_relevance"}
ANSWER_FIELDS = ("action", "subtask", "objects", "contact", "transition", "next_action", "evidence_window")
LFS = b"version https://git-lfs"


class Repository:
    """Files of the original at one revision: a bare git directory or a checkout."""

    def __init__(self, root: Path) -> None:
        self.root = root
        bare = (root / "HEAD").is_file() and (root / "objects").is_dir()
        self.git = ["git", f"--git-dir={root}"] if bare else ["git", "-C", str(root)]
        try:
            self.revision = self._run("rev-parse", "HEAD").decode().strip()
            self.files = self._run("ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()
        except (OSError, subprocess.CalledProcessError) as exc:
            raise RobotaskError(f"--repo {root}: not a git repository of the original suite ({exc})") from None

    def _run(self, *args: str) -> bytes:
        return subprocess.run([*self.git, *args], capture_output=True, check=True).stdout

    def read(self, path: str) -> bytes | None:
        """The file's bytes at HEAD, or None when the snapshot lists it but does not hold it."""
        try:
            return self._run("show", f"HEAD:{path}")
        except subprocess.CalledProcessError:
            return None


def _csv(repo: Repository, path: str) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(repo.read(path) or b""), keep_default_na=False, dtype=str)


def _stamp(frame: pd.DataFrame, repo: Repository, path: str) -> pd.DataFrame:
    frame.insert(0, "path", path)
    frame.insert(0, "revision", repo.revision)
    frame.insert(0, "source", SOURCE)
    return frame


def single_episode(repo: Repository, run: str, task: str) -> pd.DataFrame:
    """One task's test predictions of the sample episode (``run`` ``minimal`` or ``mlp``)."""
    path = f"{SINGLE}/{'neural_mlp/' if run == 'mlp' else ''}{task}/predictions.csv"
    p = _csv(repo, path)
    if "sample_index" in p.columns:  # the pair tasks: one row per pair sample
        window, true, pred = p["sample_index"], p["true"], p["predicted"]
    elif "true_objects" in p.columns:
        window = p["window_index"]
        true = p["true_objects"].map(lambda s: object_set([x for x in s.split("|") if x]))
        pred = p["predicted_objects"].map(lambda s: object_set([x for x in s.split("|") if x]))
    else:
        window, true, pred = p["window_index"], p["true_label"], p["predicted_label"]
    out = pd.DataFrame({"scope": "episode", "run": run, "task": task, "window": window, "episode": "sample",
                        "order": window.astype(int), "true": true, "predicted": pred, "parsed": "",
                        "complete": "", "seen": ""})
    return _stamp(out, repo, path)


def multi_episode(repo: Repository, run: str, task: str) -> pd.DataFrame | None:
    """One task's predictions on the 14 test episodes (``run`` ``simple`` or ``neural``); None if absent."""
    path = f"{MULTI}/{'neural_mlp/' if run == 'neural' else ''}{task}/predictions.csv"
    if path not in repo.files:
        return None
    p = _csv(repo, path)
    if task == "temporal_order":
        window = p["first_id"] + ">" + p["second_id"]
        true, pred = p["true_order"], p["predicted_order"]
        order = p["first_id"].str.rsplit(":", n=1).str[1].astype(int)
    else:
        window, order = p["id"], p["start_frame"].astype(int)
        if task == "object_relevance":
            true = p["true_objects"].map(lambda s: object_set([x for x in s.split(";") if x]))
            pred = p["predicted_objects"].map(lambda s: object_set([x for x in s.split(";") if x]))
        else:
            true, pred = p["true_label"], p["predicted_label"]
    out = pd.DataFrame({"scope": "episodes", "run": run, "task": task, "window": window,
                        "episode": p["episode_id"], "order": order, "true": true, "predicted": pred,
                        "parsed": "", "complete": "", "seen": ""})
    return _stamp(out, repo, path)


SHORT = (("cosmos3_super_reasoner", "cosmos_reasoner"), ("valmon", "qwen_v1_first"),
         ("json_v2", "qwen_v2_json"), ("json_v3", "qwen_v3_strict_labels"), ("json_v4", "qwen_v4_4_epochs"),
         ("cap96_v5", "qwen_v5_multiscale"), ("cap96_v6", "qwen_v6_multiscale_rank64"),
         ("fullstatesave_v6", "qwen_v6_full_split"))


def run_name(folder: str) -> str:
    """A fine-tuned run's short name (the folder's version and kind), or the folder without its prefix."""
    return next((short for key, short in SHORT if key in folder), folder.removeprefix("xperience10m_"))


def _tuned_rows(rows: list[dict], run: str, with_truth: bool) -> pd.DataFrame:
    """Long rows (one per window and field) of one fine-tuned run's answers."""
    out = []
    for r in rows:
        answer = parse_answer(r["raw_prediction"])
        truth = r.get("true_json") or {}
        start = re.search(r"'?start_frame'?\s*:\s*(\d+)", str(r["center_window"]))
        common = {"scope": "episodes", "run": run, "window": r["id"], "episode": r["episode_id"],
                  "order": int(start.group(1)) if start else 0, "parsed": int(answer is not None),
                  "complete": int(answer is not None and all(f in answer for f in ANSWER_FIELDS))}
        # the action is the original's own reading of the answer (matched to its label list)
        out.append({**common, "task": FIELDS["action"], "true": r["true_label"],
                    "predicted": label_text(r["predicted_label"]), "seen": str(r["true_label_seen_in_train"])})
        if not with_truth:
            continue
        for field, task in FIELDS.items():
            if field == "action":
                continue
            got = (answer or {}).get(field)
            if field == "objects":
                true, pred = object_set(truth.get("objects") or []), object_set(got or [])
            else:
                true, pred = label_text(truth.get(field, "unknown")), label_text(got)
            out.append({**common, "task": task, "true": true, "predicted": pred, "seen": ""})
    return pd.DataFrame(out)


def fine_tuned(repo: Repository, folder: str) -> tuple[pd.DataFrame | None, str]:
    """One fine-tuned run's answers and how they were read (or None and why not)."""
    base = f"{TUNED}/{folder}/eval"
    jsonl, csv_path = f"{base}/predictions.jsonl", f"{base}/predictions.csv"
    if csv_path not in repo.files:
        return None, "no predictions.csv: a format not scored here (future-window retrieval / dynamics)"
    data = repo.read(jsonl) if jsonl in repo.files else None
    if data is not None:
        rows = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
        return _stamp(_tuned_rows(rows, run_name(folder), True), repo, jsonl), "extracted from predictions.jsonl"
    rows = _csv(repo, csv_path).to_dict("records")
    why = "predictions.jsonl absent from the snapshot: action only, from predictions.csv"
    return _stamp(_tuned_rows(rows, run_name(folder), False), repo, csv_path), why


def _summary_metrics(text: str) -> dict[str, float]:
    """``- name: `value``` lines of a PUBLIC_RESULT_SUMMARY.md under its metrics heading."""
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^- (\w+): `([0-9.eE+-]+)`", text, re.M)}


METRICS = ("accuracy", "balanced_accuracy", "macro_f1", "weighted_f1", "micro_f1", "exact_match", "precision",
           "recall", "f1", "majority_baseline_accuracy")
SUMMARY = {"json_validity_rate": ("answer", "json_validity_rate"), "held_out_episode_count": ("answer", "episodes"),
           "action_macro_f1": ("timeline_action", "macro_f1_all_labels"),
           "subtask_accuracy": ("timeline_subtask", "accuracy"),
           "transition_accuracy": ("transition_detection", "accuracy"),
           "next_action_accuracy": ("next_action", "accuracy"), "contact_accuracy": ("contact_prediction", "accuracy"),
           "object_micro_f1": ("object_relevance", "micro_f1")}


def _published_rows(metrics: dict, scope: str, run: str, task: str, path: str, vocab: int | str = "") -> list[dict]:
    """A metrics.json's test metrics; an object task's macro-F1 runs over its object vocabulary (``vocab``)."""
    test = metrics.get("splits", {}).get("test", metrics)
    rows = [{"path": path, "scope": scope, "run": run, "task": task, "metric": k, "published": float(test[k]),
             "n_labels": vocab if k == "macro_f1" and task == "object_relevance" else ""}
            for k in METRICS if isinstance(test.get(k), (int, float))]
    if "majority_baseline_accuracy" in metrics and test is not metrics:
        rows.append({"path": path, "scope": scope, "run": run, "task": task, "metric": "majority_baseline_accuracy",
                     "published": float(metrics["majority_baseline_accuracy"]), "n_labels": ""})
    return rows


def published(repo: Repository, tuned: list[str]) -> pd.DataFrame:
    """Every published metric of the files extracted."""
    rows: list[dict] = []
    for scope, root, runs, tasks in (("episode", SINGLE, ("minimal", "mlp"), SINGLE_TASKS),
                                     ("episodes", MULTI, ("simple", "neural"), MULTI_TASKS)):
        for run in runs:
            for task in tasks:
                path = f"{root}/{'neural_mlp/' if run in ('mlp', 'neural') else ''}{task}/metrics.json"
                if path in repo.files and f"{path[:-12]}predictions.csv" in repo.files:
                    own = f"{path[:-12]}object_vocab.json"  # the neural run shares the simple run's vocabulary
                    vocab = json.loads(repo.read(own if own in repo.files else f"{root}/{task}/object_vocab.json")
                                       or b"[]") if task == "object_relevance" else []
                    rows += _published_rows(json.loads(repo.read(path) or b"{}"), scope, run, task, path,
                                            len(vocab) or "")
    for folder in tuned:
        path = f"{TUNED}/{folder}/eval/metrics.json"
        m = json.loads(repo.read(path) or b"{}")
        n_labels = len(m["labels"])
        rows += [{"path": path, "scope": "episodes", "run": run_name(folder), "task": "timeline_action",
                  "metric": f"{k}_all_labels" if k == "macro_f1" else k, "published": float(m[k]),
                  "n_labels": n_labels if k == "macro_f1" else ""} for k in ("accuracy", "macro_f1")]
        path = f"{TUNED}/{folder}/PUBLIC_RESULT_SUMMARY.md"
        for key, value in _summary_metrics((repo.read(path) or b"").decode()).items():
            if key in SUMMARY:
                task, metric = SUMMARY[key]
                rows.append({"path": path, "scope": "episodes", "run": run_name(folder), "task": task,
                             "metric": metric, "published": value,
                             "n_labels": n_labels if metric == "macro_f1_all_labels" else ""})
    frame = pd.DataFrame(rows)
    frame.insert(0, "revision", repo.revision)
    frame.insert(0, "source", SOURCE)
    return frame


def unseen_labels(repo: Repository) -> pd.DataFrame:
    """The test labels each stage's metrics list as absent from its train windows (``unseen_test_classes``)."""
    frames = []
    for scope, root in (("episode", SINGLE), ("episodes", MULTI)):
        for task in ("timeline_action", "timeline_subtask", "next_action"):
            path = f"{root}/{task}/metrics.json"
            labels = json.loads(repo.read(path) or b"{}").get("unseen_test_classes", [])
            frames.append(_stamp(pd.DataFrame({"scope": scope, "task": task, "label": labels}), repo, path))
    return pd.concat(frames, ignore_index=True)


def windows(repo: Repository) -> pd.DataFrame:
    """Every window of the sample episode (with labels) and of the 128-episode stage (with its split)."""
    one = _csv(repo, f"{SINGLE}/windows.csv")
    one = pd.DataFrame({"scope": "episode", "window": one["window_index"], "episode": "sample", "split": "",
                        "start_frame": one["start_frame"], "end_frame": one["end_frame"],
                        "action_label": one["action_label"], "subtask_label": one["subtask_label"],
                        "action_fraction": one["action_fraction"]})
    many = _csv(repo, f"{MULTI}/windows.csv")
    many = pd.DataFrame({"scope": "episodes", "window": many["id"], "episode": many["episode_id"],
                         "split": many["split"], "start_frame": many["start_frame"], "end_frame": many["end_frame"],
                         "action_label": "", "subtask_label": "", "action_fraction": ""})
    return pd.concat([_stamp(one, repo, f"{SINGLE}/windows.csv"), _stamp(many, repo, f"{MULTI}/windows.csv")])


def _reason(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if name.endswith((".npz", ".pt")):
        return "left out: model weights or arrays, not predictions of a scored task"
    if "hand_trajectory" in path or "modality_reconstruction" in path or "cross_modal" in path:
        return "left out: a regression or retrieval task whose predictions are arrays"
    if name in ("confusion_matrix.csv", "per_class_metrics.csv", "history.json", "true_boundaries.csv"):
        return "left out: derived from the predictions (recomputed here)"
    return "left out: not a prediction or metric file of a scored task"


def accounting(repo: Repository, used: dict[str, str]) -> pd.DataFrame:
    """Every file of the stages read, with what was done with it."""
    paths = [p for p in repo.files if p.startswith((SINGLE + "/", MULTI + "/", TUNED + "/"))]
    batch = subprocess.run([*repo.git, "cat-file", "--batch-check"], input="".join(f"HEAD:{p}\n" for p in paths),
                           capture_output=True, text=True, check=True).stdout.splitlines()
    rows = []
    for path, line in zip(paths, batch):
        parts = line.split()
        size = int(parts[2]) if len(parts) == 3 and parts[1] == "blob" else -1
        if size < 0:
            status = "absent from the snapshot (listed, object not stored: a large file)"
        elif size < 300 and (repo.read(path) or b"").startswith(LFS):
            status = "left out: a Git LFS pointer, not the file"
        else:
            status = used.get(path, _reason(path))
        rows.append({"path": path, "bytes": max(size, 0), "status": status})
    frame = pd.DataFrame(rows)
    frame.insert(0, "revision", repo.revision)
    frame.insert(0, "source", SOURCE)
    return frame


def extract(repo_dir: Path, out: Path) -> dict[str, int]:
    """Write the four tables into ``out``; return their row counts."""
    repo = Repository(repo_dir)
    if f"{SINGLE}/windows.csv" not in repo.files or f"{MULTI}/windows.csv" not in repo.files:
        raise RobotaskError(f"--repo {repo_dir}: no {SINGLE}/windows.csv or {MULTI}/windows.csv at HEAD")
    parts, used = [], {}
    for run in ("minimal", "mlp"):
        for task in SINGLE_TASKS:
            parts.append(single_episode(repo, run, task))
    for run in ("simple", "neural"):
        for task in MULTI_TASKS:
            part = multi_episode(repo, run, task)
            if part is not None:
                parts.append(part)
    for frame in parts:
        used[frame["path"].iloc[0]] = "extracted: predictions"
    folders = sorted({p.split("/")[3] for p in repo.files if p.startswith(TUNED + "/")})
    tuned = []
    for folder in folders:
        frame, why = fine_tuned(repo, folder)
        used[f"{TUNED}/{folder}/eval/predictions.csv"] = f"extracted: {why}" if frame is not None else why
        if frame is not None:
            parts.append(frame)
            tuned.append(folder)
            used[frame["path"].iloc[0]] = f"extracted: {why}"
    pub = published(repo, tuned)
    for path in pub["path"].unique():
        used[path] = "read: published metrics"
    used[f"{SINGLE}/windows.csv"] = used[f"{MULTI}/windows.csv"] = "extracted: windows"
    labels = unseen_labels(repo)
    tables = {"predictions.csv": pd.concat(parts, ignore_index=True), "windows.csv": windows(repo),
              "published.csv": pub, "unseen_labels.csv": labels, "accounting.csv": accounting(repo, used)}
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in tables.items():
        write_csv(out / name, frame)
    write_text(out / "NOTICE", notice(repo))
    return {name: len(frame) for name, frame in tables.items()}


def notice(repo: Repository) -> str:
    """The folder's NOTICE: where the rows come from, the repository's licence and its data terms."""
    licence = (repo.read("LICENSE") or b"(no LICENSE file at this revision)").decode().strip()
    return f"""Source of the data in this folder
=================================

Every row of the CSV files here was extracted from the files of
  https://github.com/{SOURCE}, revision {repo.revision},
named in its `path` column (predictions, windows and published metrics under results/episode_task_suite/
and results/omni_finetune/), by `python -m robotask.episode.published.extract`. Only the columns a score
needs are kept; the fine-tuned models' raw JSON answers are reduced to the fields scored. No source file of
the repository is included here.

The predictions are derived artifacts of Xperience-10M data (the public sample episode and 128 episodes of
the gated dataset, https://huggingface.co/datasets/ropedia-ai/xperience-10m). The repository's licence
separates its code from these artifacts: generated metrics and derived prediction artifacts are provided
for audit, learning and reproducibility, and their use must comply with the Xperience-10M dataset terms
(the sample is listed as cc-by-nc-4.0; the full dataset is gated for approved non-commercial use). They are
kept here for the same purpose: to audit and reproduce the original's published numbers. No raw
Xperience-10M video or annotation is included.

The repository's LICENSE file follows.

{licence}
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m robotask.episode.published.extract", description=__doc__)
    parser.add_argument("--repo", required=True, type=Path, help="checkout or bare git mirror of the original")
    parser.add_argument("--out", default=Path("data/original_results"), type=Path)
    args = parser.parse_args(argv)
    try:
        counts = extract(args.repo, args.out)
    except RobotaskError as exc:
        print(f"robotask: error: {exc}", file=sys.stderr)
        return 2
    for name, n in counts.items():
        print(f"{args.out / name}: {n:,} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
