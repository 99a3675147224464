"""The numbers and phrases chapter 14 glues into its prose, one dict per section (names are the glue keys)."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

import robotask.episode.unseen.phrases as phrases
import robotask.episode.unseen.tables as tables

from ...words import count
from ..files.manifest import Collection


def collection_facts(coll: Collection, frames: int, resolution: int) -> dict:
    """Episodes, frames, pixels, subjects, scenes and unusable episodes of the collection."""
    eps = coll.episodes
    return {"n_eps": len(coll.ids), "frames": int(eps["frames"].iloc[0]) if "frames" in eps else frames,
            "res": int(eps["resolution"].iloc[0]) if "resolution" in eps else resolution,
            "n_subjects": int(eps["subject"].nunique()) if "subject" in eps else 0,
            "n_scenes": int(eps["scene"].nunique()) if "scene" in eps else 0, "n_problems": len(coll.problems)}


def scaling_facts(scaling: pd.DataFrame) -> dict:
    """Speed-up of two workers over one (nan unless both ran), its phrase, efficiency, seconds and memory."""
    one, two = scaling[scaling["workers"] == 1], scaling[scaling["workers"] == 2]
    speedup = float(two["speedup"].iloc[0]) if len(two) and len(one) else float("nan")
    return {"t_eps": int(scaling["episodes"].max()), "speedup": speedup,
            "speedup_phrase": phrases.speedup_phrase(speedup, 2), "efficiency": 100 * speedup / 2,
            "episode_s": float(scaling["episode_s"].iloc[0]), "cpus": os.cpu_count() or 1,
            "peak_mb": float(scaling["peak_mb"].max())}


def won_every_fold(summary: pd.DataFrame, protocol: str, head: str = "minimal") -> tuple[list[str], int]:
    """Tasks whose head beats the baseline on every fold under ``protocol``, and the number of tasks that ran."""
    t = tables.transfer_table(summary, protocol, head)
    ran = t[t["folds"] > 0]
    return ran[ran["wins"] == ran["of"]]["task"].tolist(), len(ran)


def transfer_facts(summary: pd.DataFrame) -> dict:
    """Per protocol (suffix imp / orig): tasks that transfer, their count and the count that ran."""
    out = {}
    for proto, short in (("improved", "imp"), ("original", "orig")):
        won, ran = won_every_fold(summary, proto) if proto in set(summary["protocol"]) else ([], 0)
        out |= {f"n_transfer_{short}": len(won), f"n_ran_{short}": ran, f"transfer_{short}": phrases.task_list(won)}
    return out


def mlp_facts(summary: pd.DataFrame, protocol: str) -> dict:
    """Under the MLP's protocol: tasks where the MLP, and the minimal head, beat the baseline on every fold,
    and the tasks only the MLP wins on every fold."""
    has_mlp = bool(protocol) and bool((summary["head"] == "mlp").any())
    mlp = won_every_fold(summary, protocol, "mlp")[0] if has_mlp else []
    minimal = won_every_fold(summary, protocol)[0] if has_mlp else []
    return {"mlp_where": protocol or "no", "n_mlp_transfer": len(mlp), "n_min_transfer": len(minimal),
            "mlp_only": phrases.task_list([t for t in mlp if t not in minimal])}


def drop_facts(drops: pd.DataFrame) -> tuple[dict, list[str]]:
    """Tasks worse on unseen episodes than chronologically by more than the sd over folds (and how many)."""
    ok = drops.dropna(subset=["drop"])
    lost = ok[ok["drop"] > ok["unseen_sd"].fillna(0)]["task"].tolist()
    gained = ok[-ok["drop"] > ok["unseen_sd"].fillna(0)]["task"].tolist()
    return {"n_drop": len(lost), "n_drop_phrase": count(len(lost), "task"), "n_drop_of": len(ok),
            "drop_tasks": phrases.task_list(lost), "n_gain": len(gained), "n_gain_phrase": count(len(gained), "task"),
            "gain_tasks": phrases.task_list(gained)}, lost


def shift_facts(shifts: pd.DataFrame) -> dict:
    """The tasks each shift hurts, as phrases."""
    return {f"hurt_{s}": phrases.task_list(tables.hurt_tasks(shifts, s)) if len(shifts) else "none"
            for s in ("subject", "scene")}


def curve_facts(curve: pd.DataFrame, draws: int) -> tuple[dict, dict]:
    """Draws, largest size, tasks ahead from one episode and never ahead; and episodes needed per task."""
    need = {t: tables.episodes_needed(curve, t) for t in curve["task"].unique()}
    return {"draws": draws, "largest": int(curve["n_train"].max()),
            "n_ahead_phrase": count(sum(n == 1 for n in need.values()), "task"),
            "n_never_phrase": count(sum(n is None for n in need.values()), "task"),
            "still_improving": phrases.task_list(still_improving(curve))}, need


def still_improving(curve: pd.DataFrame, tolerance: float = 0.02) -> list[str]:
    """Tasks whose minimal-head curve still improves by more than ``tolerance`` in its last step."""
    out = []
    for task, d in curve[curve["head"] == "minimal"].groupby("task", sort=False):
        v = d.sort_values("n_train")["mean"].to_numpy(dtype=float)
        sign = 1.0 if bool(d["higher_is_better"].iloc[0]) else -1.0
        tol = tolerance / 10 if d["metric"].iloc[0] == "mpjpe" else tolerance  # metres
        if len(v) > 1 and np.isfinite(v[-2:]).all() and sign * (v[-1] - v[-2]) > tol:
            out.append(task)
    return out


def coverage_facts(coverage: pd.DataFrame) -> dict:
    """Lowest and highest action-label coverage (%) over the folds, and what that means for the label tasks."""
    act = coverage[coverage["label"] == "action"]["coverage"] * 100
    return {"cov_min": float(act.min()), "cov_max": float(act.max()),
            "ceiling_phrase": phrases.ceiling_phrase(float(act.min()))}


def runs_facts(summary: pd.DataFrame, task: str, name: str) -> dict:
    """Whether ``task`` ran on the folds under each protocol ('runs on every fold', 'runs on no fold', …)."""
    out = {}
    for proto, short in (("original", "orig"), ("improved", "imp")):
        d = summary[(summary["protocol"] == proto) & (summary["task"] == task) & (summary["head"] == "minimal")]
        ran, of = (int(d["folds"].iloc[0]), int(d["of"].iloc[0])) if len(d) else (0, 0)
        out[f"{name}_{short}"] = phrases.runs_phrase(ran, of)
    return out


def projection_facts(proj: dict, bytes_per_episode: float, dim: int) -> dict:
    """The projection's numbers under their glue names."""
    names = {"full_eps": "episodes", "full_frames": "full_frames", "proj_episode_s": "per_episode_s",
             "proj_worker_h": "worker_hours", "proj_machine_h": "machine_hours", "proj_cluster_h": "cluster_hours",
             "proj_workers": "cluster_workers", "proj_storage_gb": "storage_gb", "proj_windows": "windows",
             "proj_design_gb": "design_gb", "proj_gram_gb": "gram_gb"}
    return {k: proj[v] for k, v in names.items()} | {"kb_per_episode": bytes_per_episode / 1e3, "dim": int(dim),
                                                      "release_tb": proj["release_tb"]}


def headline(summary: pd.DataFrame, protocol: str, lost: list[str], shifts: pd.DataFrame, shift_names: list[str],
             need: dict, n_episodes: int, folds: int, synthetic: bool) -> dict:
    """``summary.json``: the unseen-episode answer under clear keys (for the home page); no wall clock."""
    t = tables.transfer_table(summary, protocol)
    won, ran = won_every_fold(summary, protocol)
    by_task = {r["task"]: {"metric": r["metric"], "mean": _num(r["mean"]), "sd": _num(r["sd"]),
                           "folds_won": int(r["wins"]), "folds": int(r["of"])} for _, r in t.iterrows()}
    return {"unseen_protocol": protocol, "unseen_synthetic": synthetic, "unseen_episodes": n_episodes,
            "unseen_folds": folds, "unseen_tasks_ran": ran, "unseen_transfer_tasks": won,
            "unseen_transfer_count": len(won), "unseen_drop_tasks": lost, "unseen_by_task": by_task,
            "unseen_shift_hurts": {s: tables.hurt_tasks(shifts, s) if len(shifts) else [] for s in shift_names},
            "unseen_episodes_needed": need}


def _num(v: float) -> float | None:
    """A float for JSON (None for NaN)."""
    return None if v is None or not np.isfinite(v) else float(v)
