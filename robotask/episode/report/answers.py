"""The numbers and short phrases behind the home page's answer on the episode suite (Part III).

They read chapter 13's ``summary.json`` (``primary``: one record per schedule, protocol, task and
model with the task's primary metric) and chapter 14's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ...task_names import TASK_TITLES
from ...words import join


def head_vs_baseline(primary: Sequence[Mapping], schedule: str, protocol: str, head: str = "minimal") -> pd.DataFrame:
    """One row per task that ran under ``schedule`` and ``protocol``: ``name``, ``baseline``, ``head``
    and ``wins`` (the head is better than the trivial baseline in the metric's own direction)."""
    frame = pd.DataFrame(list(primary))
    if frame.empty:
        return pd.DataFrame(columns=["name", "baseline", "head", "wins"])
    run = frame[(frame["schedule"] == schedule) & (frame["protocol"] == protocol) & (frame["status"] == "ok")]
    wide = run.pivot_table(index=["name", "higher_is_better"], columns="model", values="value").reset_index()
    if head not in wide or "baseline" not in wide:
        return pd.DataFrame(columns=["name", "baseline", "head", "wins"])
    sign = wide["higher_is_better"].map({True: 1.0, False: -1.0})
    wins = (wide[head] - wide["baseline"]) * sign > 0
    return pd.DataFrame({"name": wide["name"], "baseline": wide["baseline"], "head": wide[head], "wins": wins})



REASONS = {  # why the trivial baseline can stay ahead of the minimal head on a task, as its page shows
    "Temporal Order Verification": "pair",
    "Multimodal Synchronization Detection": "pair",
    "Hand Trajectory Forecasting": "hold",
}


def reasons_for(lost: list[str]) -> dict[str, list[str]]:
    """The tasks the baseline keeps, grouped by kind of reason: ``pair`` (a question about two windows
    together), ``hold`` (the last pose is a strong forecast) and ``other``."""
    groups: dict[str, list[str]] = {"pair": [], "hold": [], "other": []}
    for name in lost:
        groups[REASONS.get(name, "other")].append(name)
    return groups


PAIR_TASKS = ("Temporal Order Verification", "Multimodal Synchronization Detection")
HAND = "Hand Trajectory Forecasting"
RECOGNITION = ("Action Recognition", "Procedure Step Recognition")


def suite_values(s10: Mapping | None, s13: Mapping | None) -> tuple[dict, str]:
    """The numbers and phrases of the home page's Part III answer, by glue name, and a note for the
    page ("" when none is needed): the sample-like schedule did not run, or the tasks the baseline keeps
    there (improved protocol) are not exactly the two pair tasks and the hand forecast, the premise of
    the page's two bullets."""
    nan, dash = float("nan"), "–"
    out: dict[str, object] = {k: dash for k in ("kind", "n_frames", "rep_wins", "rep_n", "sample_wins",
                                                 "sample_n", "kept")}
    out.update({k: nan for k in ("pair_base", "pair_lin", "pair_mlp", "hold_base", "hold_head", "recog_max")})
    if not (s10 and s13):
        return out, ""
    rep = head_vs_baseline(s13["primary"], "repeating", "improved")
    sample = head_vs_baseline(s13["primary"], "sample-like", "improved").set_index("name")
    mlp = head_vs_baseline(s13["primary"], "sample-like", "improved", head="mlp").set_index("name")
    lost = sample.index[~sample["wins"].astype(bool)].tolist()
    groups = reasons_for(lost)
    premise = not groups["other"] and len(groups["pair"]) == len(PAIR_TASKS) and groups["hold"] == [HAND]
    if sample.empty:
        note = ("This build did not run the sample-like schedule: the numbers above that need it read as "
                "dashes.")
    elif not premise:
        note = ("In this build the baseline stays ahead on other tasks than the two pair tasks and the hand "
                "forecast: the bullets above describe those three only.")
    else:
        note = ""
    out.update(kind="synthetic" if s10.get("is_synthetic") else "recorded", n_frames=f"{s10['n_frames']:,}",
               rep_wins=int(rep["wins"].sum()), rep_n=len(rep), sample_wins=int(sample["wins"].sum()),
               sample_n=len(sample), kept=join(lost) if lost else "no task",
               recog_max=float(sample.reindex(list(RECOGNITION))["head"].max()))
    pairs = [t for t in PAIR_TASKS if t in sample.index and t in mlp.index]
    if pairs:
        out.update(pair_base=float(sample.loc[pairs, "baseline"].max()),
                   pair_lin=float(sample.loc[pairs, "head"].max()), pair_mlp=float(mlp.loc[pairs, "head"].min()))
    if HAND in sample.index:
        out.update(hold_base=float(sample.loc[HAND, "baseline"]), hold_head=float(sample.loc[HAND, "head"]))
    return out, note


def unseen_values(s14: Mapping | None) -> tuple[dict, bool]:
    """The home page's unseen-episode answer from chapter 14's ``summary.json`` (its ``unseen_*`` keys),
    by glue name, and whether chapter 14 wrote that answer."""
    def titles(ids: Sequence[str]) -> str:
        return join(TASK_TITLES.get(t, t) for t in ids) if ids else "no task"

    keys = ("unseen_episodes", "unseen_folds", "unseen_protocol", "unseen_transfer_tasks", "unseen_tasks_ran",
            "unseen_drop_tasks", "unseen_shift_hurts", "unseen_episodes_needed")
    if not s14 or not all(k in s14 for k in keys):
        return {k: "–" for k in ("u_episodes", "u_folds", "u_protocol", "u_kind", "u_won", "u_ran", "u_won_tasks",
                                 "u_drop", "u_drop_tasks", "u_subject", "u_scene", "u_first", "u_never")}, False
    hurts, need = s14["unseen_shift_hurts"], s14["unseen_episodes_needed"]
    return {"u_episodes": s14["unseen_episodes"], "u_folds": s14["unseen_folds"],
            "u_protocol": s14["unseen_protocol"], "u_kind": "synthetic" if s14.get("unseen_synthetic") else "recorded",
            "u_won": len(s14["unseen_transfer_tasks"]), "u_ran": s14["unseen_tasks_ran"],
            "u_won_tasks": titles(s14["unseen_transfer_tasks"]), "u_drop": len(s14["unseen_drop_tasks"]),
            "u_drop_tasks": titles(s14["unseen_drop_tasks"]), "u_subject": titles(hurts.get("subject", [])),
            "u_scene": titles(hurts.get("scene", [])),
            "u_first": titles([t for t, n in need.items() if n == 1]),
            "u_never": titles([t for t, n in need.items() if n is None])}, True
