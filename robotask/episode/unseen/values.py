"""The numbers and short words chapter 14 glues into its prose (names are the glue keys)."""

from __future__ import annotations

import os

import pandas as pd

import robotask.episode.unseen.phrases as phrases
import robotask.episode.unseen.tables as tables

from ...words import count
from ..files.manifest import Collection
from ..tasks.registry import TEST_FRACTION
from .design import Setting

#: The glued values summary.json also holds (as ``unseen_<key>``).
SUMMARY_SIZES = ("frames", "res", "n_subjects", "n_scenes", "softmax_epochs", "mlp_epochs", "suite_softmax",
                 "suite_mlp", "softmax_phrase", "mlp_phrase", "draws")


def collection_facts(coll: Collection, frames: int, resolution: int, folds: int, test_size: int) -> dict:
    """Episodes, frames, pixels, subjects, scenes, the fullest and emptiest subject × scene cell, folds."""
    eps = coll.episodes
    cells = pd.crosstab(eps["subject"], eps["scene"]) if {"subject", "scene"} <= set(eps) else pd.DataFrame()
    return {"n_eps": len(coll.ids), "frames": int(eps["frames"].iloc[0]) if "frames" in eps else frames,
            "res": int(eps["resolution"].iloc[0]) if "resolution" in eps else resolution,
            "n_subjects": int(eps["subject"].nunique()) if "subject" in eps else 0,
            "n_scenes": int(eps["scene"].nunique()) if "scene" in eps else 0, "n_problems": len(coll.problems),
            "cell_min": int(cells.to_numpy().min()) if cells.size else 0,
            "cell_max": int(cells.to_numpy().max()) if cells.size else 0,
            "n_folds": folds, "fold_size": len(coll.ids) // folds, "test_size": test_size}


def results_facts(summary: pd.DataFrame, drops: pd.DataFrame, shifts: pd.DataFrame, curve: pd.DataFrame,
                  steps: pd.DataFrame, protocol: str, mlp_protocol: str) -> dict:
    """Which tasks beat the baseline, lose or gain on unseen episodes, are hurt by a shift, need how many
    episodes and still improve; every list decided by a paired interval (``tables``)."""
    out = {}
    for proto, short in (("improved", "imp"), ("original", "orig")):
        won, ran = tables.beaten(summary, proto) if proto in set(summary["protocol"]) else ([], 0)
        out |= {f"n_transfer_{short}": len(won), f"n_ran_{short}": ran, f"transfer_{short}": phrases.task_list(won)}
        d = summary[(summary["protocol"] == proto) & (summary["task"] == "contact_prediction")
                    & (summary["head"] == "minimal")]
        out[f"contact_{short}"] = phrases.runs_phrase(*((int(d["folds"].iloc[0]), int(d["of"].iloc[0])) if len(d)
                                                        else (0, 0)))
    has_mlp = bool(mlp_protocol) and bool((summary["head"] == "mlp").any())
    mlp = tables.beaten(summary, mlp_protocol, "mlp")[0] if has_mlp else []
    minimal = tables.beaten(summary, mlp_protocol)[0] if has_mlp else []
    out["mlp_result"] = phrases.mlp_result(mlp_protocol if has_mlp else "", len(mlp), len(minimal),
                                           [t for t in mlp if t not in minimal])
    for word, key in (("worse on unseen episodes", "drop"), ("better on unseen episodes", "gain")):
        tasks = drops[drops["verdict"] == word]["task"].tolist()
        out |= {f"n_{key}_phrase": count(len(tasks), "task"), f"{key}_tasks": phrases.task_list(tasks)}
    out["n_drop_of"] = int(drops["pairs"].gt(1).sum())
    for s in ("subject", "scene"):
        out[f"hurt_{s}"] = phrases.task_list(tables.hurt_tasks(shifts, s))
        d = shifts[shifts["shift"] == s] if len(shifts) else shifts
        out[f"n_unresolved_{s}"] = count(int((d["verdict"] == "not resolved").sum()) if len(d) else 0, "task")
        out[f"groups_{s}"] = int(d["groups"].max()) if len(d) else 0
    need = {t: tables.episodes_needed(curve, t) for t in curve["task"].unique()}
    largest = int(curve["n_train"].max())
    at_largest = curve[(curve["head"] == "minimal") & (curve["n_train"] == largest)].set_index("task")["verdict"]
    rising = steps[steps["last_verdict"] == "still improving"]["task"].tolist() if len(steps) else []
    out |= {"draws": int(curve["draws"].max()), "largest": largest,
            "far_below_first": phrases.task_list(tables.far_below_at_first(curve)),
            "n_ahead_phrase": count(sum(n == 1 for n in need.values()), "task"),
            "n_never_phrase": count(sum(n is None for n in need.values()), "task"),
            "still_improving": phrases.task_list(rising),
            "rising_not_ahead": phrases.task_list([t for t in rising if at_largest.get(t) != "ahead"])}
    return out


def sync_facts(drops: pd.DataFrame, base: pd.DataFrame, shares: dict) -> dict:
    """Synchronisation Detection: chronological and unseen F1 of the head, chronological F1 of the baseline, and
    the shares of test pairs predicted aligned (``shares``, from ``design.positive_share``)."""
    r, b = drops.set_index("task").loc["misalignment_detection"], base.set_index("task").loc["misalignment_detection"]
    return {"sync_chrono": float(r["chronological"]), "sync_unseen": float(r["unseen"]),
            "sync_base": float(b["chronological"]), **shares}


def head_facts(softmax: int, mlp: int, suite_softmax: int, suite_mlp: int, check: pd.DataFrame | None,
               mlp_protocol: str) -> dict:
    """The run's epochs beside the suite's, whether (and how) the MLP trains, and how many results the suite's
    epochs changed on the subset rerun with them (``tables.epoch_check``; None when nothing was cut)."""
    rows = 0 if check is None else len(check)
    changed = 0 if check is None else int((check["verdict"] != "not resolved").sum())
    return {"softmax_epochs": softmax, "mlp_epochs": mlp, "suite_softmax": suite_softmax, "suite_mlp": suite_mlp,
            "softmax_phrase": phrases.softmax_epochs_phrase(softmax, suite_softmax),
            "mlp_phrase": phrases.mlp_phrase(mlp, suite_mlp, mlp_protocol),
            "epoch_check": phrases.epoch_check_phrase(rows, changed)}


def cost_facts(coverage: pd.DataFrame, scaling: pd.DataFrame, proj: dict, bytes_per_episode: float,
               dim: int) -> dict:
    """Label coverage (action and subtask labels), the Dask timing and the projection to the full dataset
    (``proj_<key>``)."""
    act = coverage[coverage["label"] == "action"]["coverage"] * 100
    sub = coverage[coverage["label"] == "subtask"]["coverage"] * 100
    one, two = scaling[scaling["workers"] == 1], scaling[scaling["workers"] == 2]
    speedup = float(two["speedup"].iloc[0]) if len(two) and len(one) else float("nan")
    return {"cov_min": float(act.min()), "cov_max": float(act.max()), "sub_min": float(sub.min()),
            "sub_max": float(sub.max()),
            "ceiling_phrase": phrases.ceiling_phrase(float(act.min())),
            "cov_span": phrases.span_phrase(float(act.min()), float(act.max())),
            "sub_span": phrases.span_phrase(float(sub.min()), float(sub.max())),
            "t_eps": int(scaling["episodes"].max()), "speedup": speedup,
            "speedup_phrase": phrases.speedup_phrase(speedup, 2), "efficiency": 100 * speedup / 2,
            "episode_s": float(scaling["episode_s"].iloc[0]), "cpus": os.cpu_count() or 1,
            "peak_mb": float(scaling["peak_mb"].max()), "kb_per_episode": bytes_per_episode / 1e3, "dim": int(dim),
            **{f"proj_{k}": v for k, v in proj.items()}}


def design_facts(settings: list[Setting], *, processes: int, protocol: str, shift_draws: int, n_not_run: int) -> dict:
    """The run's design as the prose states it: the chronological test share (%), the processes, the shift
    protocol and its draws, the rows of the not-run table, and the fewest episodes a shift setting trains on."""
    return {"test_pct": 100 * TEST_FRACTION, "processes": processes,
            "processes_phrase": count(processes, "process", words=True), "shift_protocol": protocol,
            "shift_draws": shift_draws, "n_not_run": n_not_run,
            "shift_n_train": min((s.labels["n_train"] for s in settings if s.study == "group"), default=0)}


def summary_sizes(values: dict) -> dict:
    """The glued sizes the home page reads from ``summary.json`` (:data:`SUMMARY_SIZES`), as ``unseen_<key>``."""
    return {f"unseen_{k}": values[k] for k in SUMMARY_SIZES if k in values}
