"""The numbers and short words chapter 14 glues into its prose (names are the glue keys), one function per
step of the study, and what its ``summary.json`` holds for the home page."""

from __future__ import annotations

import numpy as np
import pandas as pd

import robotask.episode.unseen.phrases as phrases

from ...words import count
from ..files.manifest import Collection
from ..tasks.registry import TEST_FRACTION
from .comparisons import beaten, chance_count, episodes_needed, far_below_at_first, hurt_tasks, transfer_rows

#: The glued values summary.json also holds (as ``unseen_<key>``).
SUMMARY_SIZES = ("frames", "res", "n_subjects", "n_scenes", "softmax_epochs", "mlp_epochs", "suite_softmax",
                 "suite_mlp", "softmax_phrase", "mlp_phrase", "draws")


def collection_values(coll: Collection, frames: int, resolution: int, folds: int, test_size: int) -> dict:
    """Episodes, frames, pixels, subjects, scenes and unusable episodes of the collection; the folds, their size,
    a learning-curve draw's test episodes and the chronological split's test share (%)."""
    eps = coll.episodes
    return {"n_eps": len(coll.ids), "frames": int(eps["frames"].iloc[0]) if "frames" in eps else frames,
            "res": int(eps["resolution"].iloc[0]) if "resolution" in eps else resolution,
            "n_subjects": int(eps["subject"].nunique()) if "subject" in eps else 0,
            "n_scenes": int(eps["scene"].nunique()) if "scene" in eps else 0, "n_problems": len(coll.problems),
            "n_folds": folds, "fold_size": len(coll.ids) // folds, "test_size": test_size,
            "test_pct": 100 * TEST_FRACTION}


def head_values(softmax: int, mlp: int, suite_softmax: int, suite_mlp: int, mlp_protocol: str) -> dict:
    """The run's epochs beside the suite's, and whether (and how) the MLP trains."""
    return {"softmax_epochs": softmax, "mlp_epochs": mlp, "suite_softmax": suite_softmax, "suite_mlp": suite_mlp,
            "softmax_phrase": phrases.softmax_epochs_phrase(softmax, suite_softmax),
            "mlp_phrase": phrases.mlp_phrase(mlp, suite_mlp, mlp_protocol)}


def transfer_values(summary: pd.DataFrame, mlp_protocol: str) -> dict:
    """Under each protocol, the tasks whose minimal head beats the strongest baseline over the folds and the
    tasks that ran; how many beat the trivial one, which of those do not beat the strongest, and on how many
    tasks an informed baseline is the strongest; the folds Contact State Prediction ran on; what the MLP did
    under ``mlp_protocol``."""
    out = {}
    for proto, short in (("improved", "imp"), ("original", "orig")):
        won, ran = beaten(summary, proto) if proto in set(summary["protocol"]) else ([], 0)
        rows = transfer_rows(summary, proto) if ran else pd.DataFrame(columns=["task", "strongest", "trivial_verdict"])
        trivial = rows[rows["trivial_verdict"] == "beats"]["task"].tolist()
        informed = rows[rows["strongest"].notna() & (rows["strongest"] != "baseline")]["task"].tolist()
        out |= {f"n_trivial_{short}": len(trivial), f"n_informed_{short}": len(informed),
                f"lost_{short}": phrases.task_list([t for t in trivial if t not in won])}
        out |= {f"n_transfer_{short}": len(won), f"n_ran_{short}": ran, f"transfer_{short}": phrases.task_list(won),
                f"family_{short}": family_values(transfer_rows(summary, proto)) if ran else
                phrases.family_sentence(0, 0, 0, 0)}
        d = summary[(summary["protocol"] == proto) & (summary["task"] == "contact_prediction")
                    & (summary["head"] == "minimal")]
        out[f"contact_{short}"] = phrases.runs_phrase(*((int(d["folds"].iloc[0]), int(d["of"].iloc[0])) if len(d)
                                                        else (0, 0)))
    has_mlp = bool(mlp_protocol) and bool((summary["head"] == "mlp").any())
    mlp = beaten(summary, mlp_protocol, "mlp")[0] if has_mlp else []
    minimal = beaten(summary, mlp_protocol)[0] if has_mlp else []
    out["mlp_result"] = phrases.mlp_result(mlp_protocol if has_mlp else "", len(mlp), len(minimal),
                                           [t for t in mlp if t not in minimal])
    return out


def family_values(rows: pd.DataFrame, prefix: str = "", alpha: float = 0.05) -> str:
    """The sentence on a table's family of tests (:func:`phrases.family_sentence`): tests with an interval,
    how many resolve, how many chance alone would, how many survive Holm's correction."""
    tested = rows[rows[f"{prefix}p"].notna()] if len(rows) and f"{prefix}p" in rows else rows.iloc[:0]
    word = "verdict" if prefix in ("", "gain_") else f"{prefix}verdict"
    resolved = int((tested[word] != "not resolved").sum()) if len(tested) else 0
    holm_ok = int((tested[f"{prefix}p_holm"] < alpha).sum()) if len(tested) else 0
    return phrases.family_sentence(len(tested), resolved, chance_count(len(tested)), holm_ok)


def drop_values(drops: pd.DataFrame) -> dict:
    """The tasks worse and better on unseen episodes than under the chronological split (each by its corrected
    interval over folds), the tasks with more than one pair, and the family sentence."""
    out = {}
    for word, key in (("worse on unseen episodes", "drop"), ("better on unseen episodes", "gain")):
        tasks = drops[drops["verdict"] == word]["task"].tolist()
        out |= {f"n_{key}_phrase": count(len(tasks), "task"), f"{key}_tasks": phrases.task_list(tasks)}
    out["n_drop_of"] = int(drops["pairs"].gt(1).sum())
    out["drop_family"] = family_values(drops)
    return out


def shift_values(shifts: pd.DataFrame, not_run: dict[str, str], names: tuple[str, ...] = ("subject", "scene"),
                 ) -> dict:
    """Per shift (subject, scene): its sentence (what it hurts, over how many groups, or why it did not run),
    the partitions its random side averages, and the family sentence over every shift that ran."""
    out = {}
    for s in names:
        d = shifts[shifts["shift"] == s] if len(shifts) else shifts
        reason = not_run.get(s, "" if len(d) else "it was not among the shifts run (parameter `shifts`)")
        out[f"shift_{s}"] = phrases.shift_sentence(s, hurt_tasks(shifts, s), int(d["groups"].max()) if len(d) else 0,
                                                   reason)
    out["shift_partitions"] = int(shifts["partitions"].min()) if len(shifts) else 0
    out["shift_family"] = family_values(shifts)
    return out


def curve_values(curve: pd.DataFrame, steps: pd.DataFrame) -> dict:
    """The learning curves' draws and largest size; the tasks ahead from one episode, never ahead, still
    improving over the last doubling (and of those, not ahead at the largest), far below zero at the first."""
    need = {t: episodes_needed(curve, t) for t in curve["task"].unique()}
    largest = int(curve["n_train"].max())
    at_largest = curve[(curve["head"] == "minimal") & (curve["n_train"] == largest)].set_index("task")["verdict"]
    rising = steps[steps["last_verdict"] == "still improving"]["task"].tolist() if len(steps) else []
    return {"draws": int(curve["draws"].max()), "largest": largest,
            "far_below_first": phrases.task_list(far_below_at_first(curve)),
            "n_ahead_phrase": count(sum(n == 1 for n in need.values()), "task"),
            "n_never_phrase": count(sum(n is None for n in need.values()), "task"),
            "still_improving": phrases.task_list(rising),
            "rising_not_ahead": phrases.task_list([t for t in rising if at_largest.get(t) != "ahead"]),
            "largest_family": family_values(curve[(curve["head"] == "minimal") & (curve["n_train"] == largest)],
                                            "gain_"),
            "last_family": family_values(steps, "last_") if len(steps) else phrases.family_sentence(0, 0, 0, 0)}


def summary_values(summary: pd.DataFrame, protocol: str, drops: pd.DataFrame, shifts: pd.DataFrame,
                   shift_names: list[str], curve: pd.DataFrame, n_episodes: int, folds: int, synthetic: bool,
                   glued: dict, not_run: dict[str, str] | None = None) -> dict:
    """``summary.json``: the unseen-episode answer under clear keys (for the home page), and the glued sizes of
    :data:`SUMMARY_SIZES` found in ``glued`` (as ``unseen_<key>``); no wall clock. A shift in ``not_run``
    has no ``unseen_shift_hurts`` entry: its reason is under ``unseen_shifts_not_run``."""
    not_run = not_run or {}
    won, ran = beaten(summary, protocol)
    by_task = {r["task"]: {"metric": r["metric"], "mean": _num(r["mean"]), "sd": _num(r["sd"]),
                           "deciding_metric": r["deciding_metric"], "strongest_baseline": r["strongest"],
                           "vs_baseline": [_num(r["lo"]), _num(r["hi"])], "verdict": r["verdict"],
                           "folds_won": int(r["wins"]), "folds": int(r["of"])}
               for _, r in transfer_rows(summary, protocol).iterrows()}
    return {"unseen_protocol": protocol, "unseen_synthetic": synthetic, "unseen_episodes": n_episodes,
            "unseen_folds": folds, "unseen_tasks_ran": ran, "unseen_transfer_tasks": won,
            "unseen_transfer_count": len(won), "unseen_by_task": by_task,
            "unseen_drop_tasks": drops[drops["verdict"] == "worse on unseen episodes"]["task"].tolist(),
            "unseen_shift_hurts": {s: hurt_tasks(shifts, s) for s in shift_names if s not in not_run},
            "unseen_shifts_not_run": dict(not_run),
            "unseen_episodes_needed": {t: episodes_needed(curve, t) for t in curve["task"].unique()},
            **{f"unseen_{k}": glued[k] for k in SUMMARY_SIZES if k in glued}}


def _num(v: float) -> float | None:
    """A float for JSON (None for NaN or an unbounded end)."""
    return None if v is None or not np.isfinite(v) else float(v)
