"""Reading prediction files in the original suite's formats into one tidy table.

A run's predictions become rows ``run, task, window, episode, order, true, predicted, parsed``: ``window`` a
window (or pair) id, unique within a run and task; ``episode`` the episode it belongs to (``sample`` for a
single-episode file); ``order`` its position in time; ``parsed`` empty except for a fine-tuned model's answers
(1 when its JSON answer was read, 0 when not). The formats read:

- single episode (``results/episode_task_suite/<task>/predictions.csv``): ``window_index, true_label,
  predicted_label``; object sets ``true_objects, predicted_objects`` (``|``-separated); pair tasks
  ``sample_index, true, predicted`` (0/1);
- many episodes (``multi_episode_128_task_baselines/<task>/predictions.csv``): ``id, episode_id, start_frame,
  true_label, predicted_label`` (objects ``;``-separated); temporal order ``episode_id, first_id, second_id,
  true_order, predicted_order``;
- a fine-tuned run's answers (``verified_public/<run>/eval/predictions.csv``): ``id, episode_id,
  center_window, true_label, raw_prediction, predicted_label``, scored as the action task;
- the extracted table ``data/original_results/predictions.csv`` (any number of runs and tasks).

A fine-tuned model's raw answer is read by :func:`parse_answer`, written here from the original's stated
rule: strip a Markdown code fence, read the text as JSON, else its first ``{…}`` span; anything but a JSON
object is unparsable. Bad input stops with one :class:`RobotaskError` line naming the file and what was expected.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pandas as pd

from ...errors import RobotaskError
from ...task_names import TASK_IDS

COLUMNS = ("run", "task", "window", "episode", "order", "true", "predicted", "parsed")
CLOSED = ("transition_detection", "contact_prediction", "temporal_order", "misalignment_detection")
EXTRACTED = ("scope", "run", "task", "window", "episode", "order", "true", "predicted", "parsed")


def parse_answer(text: str) -> dict | None:
    """The JSON object a model answered, or None when the answer is not one (the original's rule)."""
    raw = str(text).strip()
    if raw.startswith("```"):
        raw = re.sub(r"```$", "", re.sub(r"^```(?:json)?", "", raw, flags=re.IGNORECASE).strip()).strip()
    for candidate in (raw, *(m.group(0) for m in [re.search(r"\{.*\}", raw, flags=re.DOTALL)] if m)):
        try:
            payload = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        return payload if isinstance(payload, dict) else None
    return None


def object_set(value: object) -> str:
    """A set of object names as one sorted ``|``-joined cell ("" for none or a non-list)."""
    names = sorted({str(v) for v in value}) if isinstance(value, list) else []
    if any("|" in n for n in names):
        raise RobotaskError(f"an object name holds '|', which the extracted files use as a separator: {names}")
    return "|".join(names)


def label_text(value: object) -> str:
    """A field's answer as a label; a long unmatched answer becomes a short stand-in that keeps its identity."""
    text = "" if value is None else str(value)
    return text if len(text) <= 200 else "<unmatched answer " + hashlib.sha256(text.encode()).hexdigest()[:10] + ">"


def _read_csv(path: Path) -> pd.DataFrame:
    try:
        frame = pd.read_csv(path, keep_default_na=False, dtype=str)
    except FileNotFoundError:
        raise RobotaskError(f"{path}: no such prediction file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise RobotaskError(f"{path}: not a readable CSV file ({str(exc).splitlines()[0]})") from None
    if frame.empty:
        raise RobotaskError(f"{path}: no prediction rows")
    return frame


def task_of(path: Path) -> str | None:
    """The task a prediction file belongs to: the task id of its folder, when it is one."""
    return next((part for part in reversed(path.parts[:-1]) if part in TASK_IDS), None)


def _objects(column: pd.Series, sep: str) -> pd.Series:
    return column.map(lambda s: "|".join(sorted({x.strip() for x in s.split(sep) if x.strip()})))


def _need(frame: pd.DataFrame, path: Path, columns: tuple[str, ...]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise RobotaskError(f"{path}: missing column(s) {', '.join(missing)}; expected {', '.join(columns)}")


def _order(values: pd.Series, path: Path, column: str) -> pd.Series:
    out = pd.to_numeric(values, errors="coerce")
    if out.isna().any():
        raise RobotaskError(f"{path}: column {column} must hold integers, got {values[out.isna()].iloc[0]!r}")
    return out.astype(int)


def read_original(path: Path, run: str, task: str | None = None) -> pd.DataFrame:
    """One prediction file of the original (either format) as tidy rows of ``run``."""
    frame = _read_csv(path)
    task = task or ("timeline_action" if "raw_prediction" in frame.columns else task_of(path))
    if task is None:
        raise RobotaskError(f"{path}: cannot tell the task (put the file in a folder named by a task id, "
                            f"or pass --task)")
    cols = set(frame.columns)
    multi = "episode_id" in cols
    episode = frame["episode_id"] if multi else pd.Series("sample", index=frame.index)
    parsed = pd.Series("", index=frame.index)
    if "raw_prediction" in cols:  # a fine-tuned run's answers: its action, as the original read it
        _need(frame, path, ("id", "episode_id", "center_window", "true_label", "raw_prediction", "predicted_label"))
        window, true, pred = frame["id"], frame["true_label"], frame["predicted_label"].map(label_text)
        order = frame["center_window"].str.extract(r"start_frame'?\s*:\s*(\d+)")[0].fillna(0).astype(int)
        parsed = frame["raw_prediction"].map(lambda t: str(int(parse_answer(t) is not None)))
    elif {"first_id", "second_id"} <= cols or (multi and task == "temporal_order"):
        _need(frame, path, ("episode_id", "first_id", "second_id", "true_order", "predicted_order"))
        window, true, pred = frame["first_id"] + ">" + frame["second_id"], frame["true_order"], frame["predicted_order"]
        order = pd.Series(range(len(frame)), index=frame.index)
    elif "sample_index" in cols or (not multi and task in ("temporal_order", "misalignment_detection")):
        _need(frame, path, ("sample_index", "true", "predicted"))
        window, true, pred = frame["sample_index"], frame["true"], frame["predicted"]
        order = _order(window, path, "sample_index")
    else:
        key = ("id", "episode_id", "start_frame") if multi else ("window_index",)
        labels = ("true_objects", "predicted_objects") if task == "object_relevance" else ("true_label",
                                                                                           "predicted_label")
        _need(frame, path, key + labels)
        window = frame[key[0]]
        order = _order(frame["start_frame" if multi else "window_index"], path, key[-1])
        true, pred = frame[labels[0]], frame[labels[1]]
        if task == "object_relevance":
            sep = ";" if multi else "|"
            true, pred = _objects(true, sep), _objects(pred, sep)
    out = pd.DataFrame({"run": run, "task": task, "window": window.astype(str), "episode": episode,
                        "order": order, "true": true, "predicted": pred, "parsed": parsed})
    blank = out.index[(out["window"] == "") | ((out["true"] == "") & (task != "object_relevance"))]
    if len(blank):
        raise RobotaskError(f"{path}: row {int(blank[0]) + 2} has no window id or no true label "
                            f"(a truncated or hand-edited file?)")
    dup = out["window"][out["window"].duplicated()]
    if len(dup):
        raise RobotaskError(f"{path}: window id {dup.iloc[0]!r} appears more than once ({len(dup)} duplicate rows)")
    return out


def read_extracted(path: Path) -> pd.DataFrame:
    """The extracted table of many runs (``data/original_results/predictions.csv``)."""
    frame = _read_csv(path)
    _need(frame, path, EXTRACTED)
    frame["order"] = _order(frame["order"], path, "order")
    dup = frame.duplicated(["scope", "run", "task", "window"])
    if dup.any():
        r = frame[dup].iloc[0]
        raise RobotaskError(f"{path}: window id {r['window']!r} appears more than once in run {r['run']}, "
                            f"task {r['task']}")
    return frame


def check_runs(frame: pd.DataFrame, where: str) -> None:
    """Runs of one task must cover the same windows, and a closed task's predictions only its true labels."""
    for task, part in frame.groupby("task", sort=False):
        sets = {run: set(g["window"]) for run, g in part.groupby("run", sort=False)}
        first, ref = next(iter(sets.items()))
        for run, got in sets.items():
            if got != ref:
                gone = sorted(ref - got) or sorted(got - ref)
                missing_in = run if ref - got else first
                raise RobotaskError(f"{where}: task {task}: run {missing_in} lacks {len(gone)} window(s) the other "
                                    f"run has (e.g. {gone[0]!r}); paired scores need the same windows")
        if task in CLOSED:
            scored = part[part["parsed"] != "0"]
            extra = sorted(set(scored["predicted"]) - set(part["true"]) - {""})
            if extra:
                raise RobotaskError(f"{where}: task {task}: predicted label(s) {', '.join(map(repr, extra[:3]))} "
                                    f"not among the true labels {sorted(set(part['true']))}")
