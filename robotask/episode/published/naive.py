"""The baselines that stand beside every published result, as prediction rows scored like any run.

- ``majority``: the majority class of the train windows. On the sample episode it is counted from
  ``windows.csv`` (train windows: those before the task's first test window, the original's chronological
  split; the next action of a window is the action of the window 20 frames later). Where no train labels are
  published (the boundary and contact labels of the sample; every label of the 128-episode stage) the class is
  read off the original's own ``majority_baseline_accuracy``: the test class whose share equals it, or, when it
  is 0, a train class absent from the test windows.
- ``always yes``: every pair called positive (temporal order, synchronisation): the informative baseline of a
  yes/no task whose two classes are balanced by construction (its F1 is 2p / (1 + p), p the positive share).
- ``copy current``: the next action predicted to be the current one, the first thing a reader would try.
- chance (uniform guessing) is defined for the yes/no tasks: accuracy 0.5.
"""

from __future__ import annotations

import pandas as pd

from .recompute import LABEL_TASKS, PAIR_TASKS

FUTURE_WINDOWS = 4  # next action: 20 frames ahead is 4 windows at the original's stride of 5 frames
ABSENT = "(train majority, absent from test)"


def train_labels(windows: pd.DataFrame, task: str, first_test: int) -> pd.Series | None:
    """The sample episode's train labels of ``task`` from its windows table, or None when not published."""
    w = windows[windows["scope"] == "episode"].assign(window=lambda f: f["window"].astype(int))
    w = w.sort_values("window")
    if task == "timeline_action":
        labels = w["action_label"]
    elif task == "timeline_subtask":
        labels = w["subtask_label"]
    elif task == "next_action":
        labels = w["action_label"].shift(-FUTURE_WINDOWS)
    else:
        return None
    labels = labels[(w["window"] < first_test).to_numpy()]
    return labels[labels.notna() & (labels != "")]


def majority_class(task_rows: pd.DataFrame, task: str, windows: pd.DataFrame | None,
                   published_majority: float | None) -> tuple[str, str]:
    """The majority class and where it was taken from (``train windows`` or ``published accuracy``)."""
    scope = task_rows["scope"].iloc[0]
    if scope == "episode" and windows is not None:
        labels = train_labels(windows, task, int(task_rows["window"].astype(int).min()))
        if labels is not None and len(labels):
            counts = labels.value_counts()
            return str(counts[counts == counts.max()].index.sort_values()[0]), "train windows"
    share = task_rows["true"].value_counts(normalize=True)
    if published_majority is not None:
        match = share[(share - published_majority).abs() < 1e-9]
        if len(match):
            return str(match.index[0]), "published accuracy"
        if published_majority == 0:
            return ABSENT, "published accuracy"
    return str(share.index[0]), "test windows (no train labels published)"


def baseline_runs(reference: pd.DataFrame, windows: pd.DataFrame | None,
                  published_majority: dict[tuple[str, str], float]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Baseline prediction rows on the windows of ``reference`` (one run's rows per task) and a table of
    ``scope, task, baseline, class, taken_from``."""
    rows, notes = [], []
    for (scope, task), part in reference.groupby(["scope", "task"], sort=False):
        base = part.assign(parsed="", complete="")
        if task in LABEL_TASKS:
            cls, source = majority_class(part, task, windows, published_majority.get((scope, task)))
            rows.append(base.assign(run="majority", predicted=cls))
            notes.append({"scope": scope, "task": task, "baseline": "majority", "class": cls, "taken_from": source})
        if task in PAIR_TASKS:
            rows.append(base.assign(run="always yes", predicted="1"))
            notes.append({"scope": scope, "task": task, "baseline": "always yes", "class": "1", "taken_from": "-"})
        if task == "next_action":
            current = _current_action(part, reference, windows)
            if current is not None:
                rows.append(base.assign(run="copy current", predicted=current))
                notes.append({"scope": scope, "task": task, "baseline": "copy current",
                              "class": "the window's own action", "taken_from": "current action labels"})
    return pd.concat(rows, ignore_index=True), pd.DataFrame(notes)


def _current_action(part: pd.DataFrame, reference: pd.DataFrame, windows: pd.DataFrame | None) -> pd.Series | None:
    """Each window's current action: from the windows table (sample) or the action task's true labels."""
    if part["scope"].iloc[0] == "episode" and windows is not None:
        w = windows[windows["scope"] == "episode"].set_index("window")["action_label"]
        return part["window"].map(w).fillna("").to_numpy()
    actions = reference[(reference["scope"] == part["scope"].iloc[0]) & (reference["task"] == "timeline_action")]
    if actions.empty:
        return None
    return part["window"].map(actions.set_index("window")["true"]).fillna("").to_numpy()


