"""Every published metric recomputed from the predictions with the suite's metric functions.

The definitions follow the original where it differs from the obvious one:

- a label task's macro-F1 (and balanced accuracy, weighted F1) averages over the classes with test support
  (``metrics.classification_metrics``), not over every class the model knows;
- a fine-tuned run's ``action_macro_f1`` averages over the run's fixed label list (the label options plus any
  label answered or true), every listed label with neither a true nor a predicted window counting 0; an object
  task's ``macro_f1`` likewise over its object vocabulary (``n_labels`` in ``published.csv``);
- a fine-tuned answer's field is right when it equals the true field; windows whose true field is ``unknown``
  are left out, and an unparsable answer (or a missing field) counts wrong; ``json_validity_rate`` counts the
  answers that parse to an object holding all seven fields;
- a fine-tuned run's ``object_micro_f1`` compares the answer's objects with the window's true answer objects
  (``true_json``), not with the object-relevance task's labels.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..tasks import metrics as M

LABEL_TASKS = ("timeline_action", "timeline_subtask", "transition_detection", "next_action", "contact_prediction")
PAIR_TASKS = ("temporal_order", "misalignment_detection")
PRIMARY = {**{t: "macro_f1" for t in LABEL_TASKS}, "object_relevance": "micro_f1", "temporal_order": "f1",
           "misalignment_detection": "f1"}


def scored_rows(part: pd.DataFrame) -> pd.DataFrame:
    """The rows a field's accuracy counts: all, less the windows whose true field is ``unknown``
    (fine-tuned answers only)."""
    tuned = part["parsed"].astype(str) != ""
    return part[~(tuned & (part["true"] == "unknown"))]


def label_ids(part: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """True and predicted class ids over the sorted union of the labels."""
    names = sorted(set(part["true"]) | set(part["predicted"]))
    index = {n: i for i, n in enumerate(names)}
    return part["true"].map(index).to_numpy(), part["predicted"].map(index).to_numpy(), names


def object_matrices(part: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """0/1 matrices (windows × objects) of the true and predicted object sets."""
    true = [set(s.split("|")) - {""} for s in part["true"]]
    pred = [set(s.split("|")) - {""} for s in part["predicted"]]
    names = sorted(set().union(*true, *pred))
    index = {n: i for i, n in enumerate(names)}
    t, p = np.zeros((len(part), len(names)), dtype=np.int8), np.zeros((len(part), len(names)), dtype=np.int8)
    for i, (a, b) in enumerate(zip(true, pred)):
        t[i, [index[x] for x in a]] = 1
        p[i, [index[x] for x in b]] = 1
    return t, p, names


def task_metrics(part: pd.DataFrame, task: str, n_labels: int | None = None) -> dict[str, float]:
    """Every metric the original publishes for one run's predictions of ``task``."""
    if task in PAIR_TASKS or task == "temporal_order":
        y, q = part["true"].astype(int).to_numpy(), part["predicted"].astype(int).to_numpy()
        out = M.binary_metrics(y, q)
        both = M.classification_metrics(y, q, ["0", "1"])  # the two-class averages some runs publish too
        return {**{k: float(out[k]) for k in ("accuracy", "precision", "recall", "f1")},
                **{k: float(both[k]) for k in ("balanced_accuracy", "macro_f1", "weighted_f1")}}
    if task == "object_relevance":
        t, p, names = object_matrices(part)
        out = M.multilabel_metrics(t, p)
        res = {k: out[k] for k in ("micro_f1", "precision", "recall", "exact_match")}
        f_each = M.per_label_f1(t, p)
        res["macro_f1"] = float(f_each.sum() / n_labels) if n_labels else out["macro_f1"]
        return res
    rows = scored_rows(part)
    y, q, names = label_ids(rows)
    out = M.classification_metrics(y, q, names)
    res = {k: float(out[k]) for k in ("accuracy", "balanced_accuracy", "macro_f1", "weighted_f1")}
    if n_labels:
        f_each = M.per_class_table(y, q, names)["f1"].to_numpy()
        res["macro_f1_all_labels"] = float(f_each.sum() / n_labels)
    return res


def answer_metrics(part: pd.DataFrame) -> dict[str, float]:
    """A fine-tuned run's answer-level numbers: the share of complete JSON answers and the episodes."""
    first = part.drop_duplicates("window")
    return {"json_validity_rate": float((first["complete"].astype(str) == "1").mean()),
            "episodes": float(first["episode"].nunique())}


def recomputed_table(predictions: pd.DataFrame, published: pd.DataFrame,
                     majority: dict[tuple[str, str], float]) -> pd.DataFrame:
    """``source, run, task, metric, published, recomputed`` for every published metric scored.

    ``majority`` maps (scope, task) to the majority baseline's accuracy (see :mod:`.naive`).
    """
    rows = []
    cache: dict[tuple, dict[str, float]] = {}
    for r in published.itertuples(index=False):
        key = (r.scope, r.run, r.task, r.n_labels)
        if key not in cache:
            part = predictions[(predictions["scope"] == r.scope) & (predictions["run"] == r.run)]
            n = int(float(r.n_labels)) if str(r.n_labels) not in ("", "nan") else None
            if r.task == "answer":
                cache[key] = answer_metrics(part)
            elif (part["task"] == r.task).any():
                cache[key] = task_metrics(part[part["task"] == r.task], r.task, n)
            else:
                continue  # the run's predictions of this task are not published (the truth is not either)
        if r.metric == "majority_baseline_accuracy":
            value = majority.get((r.scope, r.task), math.nan)
        else:
            value = cache[key].get(r.metric, math.nan)
        rows.append({"source": r.path, "scope": r.scope, "run": r.run, "task": r.task, "metric": r.metric,
                     "published": float(r.published), "recomputed": value})
    return pd.DataFrame(rows)
