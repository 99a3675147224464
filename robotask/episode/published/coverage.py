"""Label coverage on real data: the share of test windows whose true label occurs in the train windows.

A head trained on the train windows can only name labels it saw, so coverage is a ceiling on its accuracy (a
window whose label it never saw is always wrong). The labels absent from train come from the original's own
lists (``unseen_test_classes``, extracted to ``unseen_labels.csv``); on the sample episode they are checked
against the train windows of ``windows.csv``; the fine-tuned runs' predictions also carry, per window, whether
the true action occurs in train (``seen``), which gives the same share for the action.
"""

from __future__ import annotations

import pandas as pd

from .naive import train_labels

LABEL_TASKS = ("timeline_action", "timeline_subtask", "next_action")


def coverage_table(reference: pd.DataFrame, unseen: pd.DataFrame, windows: pd.DataFrame | None,
                   seen: pd.Series | None = None) -> pd.DataFrame:
    """``scope, task, test_windows, covered, coverage, ceiling, unseen_labels, checked`` for the label tasks.

    ``reference``: one run's rows per scope (its windows are the test windows); ``checked`` says whether the
    original's list of unseen labels agrees with the train windows (sample episode) or with ``seen`` (window →
    "1"/"0", the fine-tuned runs' per-window flag of the action, :func:`seen_flags`).
    """
    rows = []
    for (scope, task), part in reference.groupby(["scope", "task"], sort=False):
        if task not in LABEL_TASKS:
            continue
        absent = set(unseen.loc[(unseen["scope"] == scope) & (unseen["task"] == task), "label"])
        covered = ~part["true"].isin(absent)
        checked = "not checkable"
        if scope == "episode" and windows is not None:
            train = set(train_labels(windows, task, int(part["window"].astype(int).min())))
            checked = "agrees" if set(part["true"]) - train == absent else "differs"
        elif task == "timeline_action" and seen is not None and part["window"].isin(seen.index).all():
            flags = part["window"].map(seen) == "1"
            checked = "agrees" if (flags == covered).all() else "differs"
        share = float(covered.mean())
        rows.append({"scope": scope, "task": task, "test_windows": len(part), "covered": int(covered.sum()),
                     "coverage": share, "ceiling": share, "unseen_labels": len(absent), "checked": checked})
    return pd.DataFrame(rows)


def seen_flags(predictions: pd.DataFrame) -> pd.Series | None:
    """Window → the original's ``seen`` flag of the true action ("1"/"0"), from any run that carries it."""
    rows = predictions[(predictions["task"] == "timeline_action") & (predictions["seen"].astype(str) != "")]
    return rows.drop_duplicates("window").set_index("window")["seen"].astype(str) if len(rows) else None
