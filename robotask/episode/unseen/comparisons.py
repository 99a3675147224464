"""Chapter 14's paired comparisons, from the long result table of :func:`design.run_settings`.

Values are oriented where they are compared: a difference is taken in the metric's sense of better (for an
error, lower is better), and every deciding word comes from :func:`robotask.words.verdict` over a paired
interval: over folds (head against baseline, chronological against unseen), over held-out groups (a shift
against random folds of its size) or over draws (a learning-curve point against its baseline, or against the
point before it). ``drop`` is positive when the unseen (or shifted) setting is worse.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...words import paired_interval, verdict
from ..features.windowset import WindowSet
from ..files.manifest import Collection
from ..suite.fit import SuiteConfig
from ..tasks.registry import TASKS
from .design import Setting, cv_settings, run_settings


def _sign(task: str) -> float:
    return 1.0 if TASKS[task].higher_is_better else -1.0


def _paired(a: pd.Series, b: pd.Series, sign: float, above: str, below: str) -> dict:
    """Mean, interval and word of the oriented paired difference ``sign · (a − b)`` over a shared index."""
    both = pd.concat([a.astype(float), b.astype(float)], axis=1, join="inner").dropna()
    iv = paired_interval(sign * both.iloc[:, 0].to_numpy(), sign * both.iloc[:, 1].to_numpy())
    return {"diff": iv.mean, "lo": iv.low, "hi": iv.high, "pairs": iv.n,
            "verdict": verdict(iv.low, iv.high, above=above, below=below)}


def fold_summary(results: pd.DataFrame, study: str = "cv") -> pd.DataFrame:
    """Per protocol, task and head: mean and sd over folds, folds won against the baseline, and the paired
    interval of head − baseline over folds (``diff``, ``lo``, ``hi``; ``verdict`` "beats", "behind" or not)."""
    d = results[results["study"] == study]
    rows = []
    for (proto, task, head), g in d.groupby(["protocol", "task", "head"], sort=False):
        v = g.set_index("fold")["value"].astype(float)
        base = d[(d["protocol"] == proto) & (d["task"] == task) & (d["head"] == "baseline")]
        b = base.set_index("fold")["value"].astype(float)
        gain = _paired(v, b, _sign(task), "beats", "behind")
        rows.append({"protocol": proto, "task": task, "metric": g["metric"].iloc[0],
                     "higher_is_better": bool(g["higher_is_better"].iloc[0]), "head": head,
                     "mean": float(v.mean()) if v.notna().any() else np.nan,
                     "sd": float(v.std(ddof=1)) if v.notna().sum() > 1 else np.nan,
                     "folds": int(v.notna().sum()), "of": int(len(v)),
                     "wins": int((_sign(task) * (v - b.reindex(v.index)) > 0).sum()), **gain})
    return pd.DataFrame(rows)


def transfer_rows(summary: pd.DataFrame, protocol: str, head: str = "minimal") -> pd.DataFrame:
    """Per task under one protocol: folds with a result, folds won, mean, sd and the interval against the baseline."""
    d = summary[(summary["protocol"] == protocol) & (summary["head"] == head)].set_index("task")
    return d.loc[[t for t in TASKS if t in d.index], ["metric", "higher_is_better", "mean", "sd", "folds", "of",
                                                      "wins", "diff", "lo", "hi", "verdict"]].reset_index()


def beaten(summary: pd.DataFrame, protocol: str, head: str = "minimal") -> tuple[list[str], int]:
    """Tasks whose head beats the baseline (paired interval over folds above zero), and the number that ran."""
    t = transfer_rows(summary, protocol, head)
    ran = t[t["folds"] > 0]
    return ran[ran["verdict"] == "beats"]["task"].tolist(), len(ran)


def chronological_drop(results: pd.DataFrame, protocol: str, head: str = "minimal") -> pd.DataFrame:
    """Per task: the single-episode protocol on each fold's own episodes against the same fold unseen, paired
    over folds: means, the drop (positive: worse on unseen episodes), its interval and its word."""
    d = results[(results["protocol"] == protocol) & (results["head"] == head)]
    rows = []
    for task in TASKS:
        c, u = (d[(d["study"] == s) & (d["task"] == task)].set_index("fold")["value"].astype(float)
                for s in ("chronological", "cv"))
        drop = _paired(c, u, _sign(task), "worse on unseen episodes", "better on unseen episodes")
        rows.append({"task": task, "metric": TASKS[task].primary_metric, "chronological": c.mean(),
                     "unseen": u.mean(), **drop})
    return pd.DataFrame(rows)


def shift_drop(results: pd.DataFrame, head: str = "minimal") -> pd.DataFrame:
    """Per task and shift: held-out groups against random folds of the same sizes, paired by group (each
    group's random folds averaged over the partitions drawn): means, the drop (positive: the shift is worse),
    its interval over groups and its word ("hurts", "helps" or "not resolved")."""
    d = results[results["study"].isin(["group", "random"]) & (results["head"] == head)]
    rows = []
    for (task, shift), g in d.groupby(["task", "shift"], sort=False):
        grp = g[g["study"] == "group"].set_index("fold")["value"].astype(float)
        rnd = g[g["study"] == "random"].assign(value=lambda x: x["value"].astype(float)).groupby("fold")["value"].mean()
        rows.append({"task": task, "shift": shift, "metric": TASKS[task].primary_metric, "held_out": grp.mean(),
                     "random": rnd.mean(), "groups": int(grp.notna().sum()),
                     **_paired(rnd, grp, _sign(task), "hurts", "helps")})
    return pd.DataFrame(rows)


def hurt_tasks(shifts: pd.DataFrame, shift: str) -> list[str]:
    """Tasks the shift hurts: the paired interval of its drop over groups lies above zero."""
    d = shifts[shifts["shift"] == shift] if len(shifts) else shifts
    return d[d["verdict"] == "hurts"]["task"].tolist() if len(d) else []


def curve_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per task, head and number of training episodes: mean, lowest and highest over the draws; for the head,
    the paired interval of head − baseline over the draws (``gain_diff``, ``gain_lo``, ``gain_hi``; ``verdict``
    "ahead", "behind" or not)."""
    d = results[(results["study"] == "curve")].assign(value=lambda x: x["value"].astype(float))
    out = d.groupby(["task", "head", "n_train"], sort=False)["value"].agg(
        mean="mean", lo="min", hi="max", draws="count").reset_index()
    gains = []
    for _, r in out.iterrows():
        at = d[(d["task"] == r["task"]) & (d["n_train"] == r["n_train"])]
        h, b = (at[at["head"] == x].set_index("draw")["value"] for x in (r["head"], "baseline"))
        gain = _paired(h, b, _sign(r["task"]), "ahead", "behind") if r["head"] != "baseline" else {}
        gains.append({k if k == "verdict" else f"gain_{k}": v for k, v in gain.items()})
    out = pd.concat([out, pd.DataFrame(gains, index=out.index)], axis=1)
    out["higher_is_better"] = out["task"].map(lambda t: TASKS[t].higher_is_better)
    out["metric"] = out["task"].map(lambda t: TASKS[t].primary_metric)
    return out


def curve_steps(results: pd.DataFrame, head: str = "minimal") -> pd.DataFrame:
    """Per task, paired over draws (each draw keeps its test episodes): the change from the smallest to the
    largest training set and over the last doubling, in the metric's sense of better, each with its word."""
    d = results[(results["study"] == "curve") & (results["head"] == head)]
    rows = []
    for task, g in d.groupby("task", sort=False):
        by = g.assign(value=g["value"].astype(float)).pivot_table(index="draw", columns="n_train", values="value")
        if by.shape[1] < 2:
            continue
        sizes, s = list(by.columns), _sign(task)
        whole = _paired(by[sizes[-1]], by[sizes[0]], s, "improves", "worsens")
        last = _paired(by[sizes[-1]], by[sizes[-2]], s, "still improving", "worsens")
        rows.append({"task": task, **{f"whole_{k}": v for k, v in whole.items()},
                     **{f"last_{k}": v for k, v in last.items()}})
    return pd.DataFrame(rows)


def episodes_needed(curve: pd.DataFrame, task: str, head: str = "minimal") -> int | None:
    """Fewest training episodes from which the head is "ahead" of the baseline (paired interval over the draws
    above zero) at every larger size tried; None when it is not ahead at the largest."""
    h = curve[(curve["task"] == task) & (curve["head"] == head)].sort_values("n_train")
    need = None
    for n, word in zip(reversed(h["n_train"].tolist()), reversed(h["verdict"].tolist())):
        if word != "ahead":
            break
        need = int(n)
    return need


def epoch_effect(cut: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """Per task and head (baseline aside): the folds' mean with the chapter's epochs and with the suite's, and
    suite's − chapter's paired over folds in the metric's sense of better ("better", "worse" or not resolved)."""
    rows = []
    for (task, head), c in cut[(cut["study"] == "cv") & (cut["head"] != "baseline")].groupby(["task", "head"],
                                                                                           sort=False):
        f = full[(full["study"] == "cv") & (full["task"] == task) & (full["head"] == head)]
        cv_, fv = (x.set_index("fold")["value"].astype(float) for x in (c, f))
        rows.append({"task": task, "head": head, "cut": cv_.mean(), "full": fv.mean(),
                     **_paired(fv, cv_, _sign(task), "better", "worse")})
    return pd.DataFrame(rows)


def epoch_check(coll: Collection, sets: dict[str, WindowSet], *, episodes: int, folds: int, protocol: str,
                mlp_protocols: list[str], cut: SuiteConfig, full: SuiteConfig, jobs: int = 1) -> pd.DataFrame | None:
    """:func:`epoch_effect` of the cross-validation under ``protocol`` of the first ``episodes`` episodes, run
    with the chapter's epochs (``cut``) and with the suite's (``full``); None when ``episodes`` is 0."""
    cv = cv_settings(coll.episodes.head(episodes), folds, [protocol], mlp_protocols) if episodes else []
    if not cv:
        return None
    subset = {e: sets[e] for e in coll.ids[:episodes]}
    return epoch_effect(*(run_settings(subset, cv, c, jobs=jobs) for c in (cut, full)))


def fold_coverage(sets: dict[str, WindowSet], cv: list[Setting]) -> pd.DataFrame:
    """Per fold (of one protocol): share of test windows whose action / subtask label occurs in training."""
    rows = []
    for s in cv:
        for column in ("action_label", "subtask_label"):
            seen = {str(x) for e in s.split.train for x in sets[e].windows[column] if str(x)}
            test = [str(x) for e in s.split.test for x in sets[e].windows[column] if str(x)]
            rows.append({"fold": s.labels["fold"], "label": column.split("_")[0],
                         "coverage": float(np.mean([t in seen for t in test])) if test else float("nan")})
    return pd.DataFrame(rows)


def far_below_at_first(curve: pd.DataFrame) -> list[str]:
    """Tasks whose minimal head has a mean R² far below zero (below the task pages' ``FAR_BELOW_ZERO``, −1) at the
    smallest training size of the learning curve."""
    from ..report.diagnostics import FAR_BELOW_ZERO

    first = curve[(curve["head"] == "minimal") & (curve["n_train"] == curve["n_train"].min())]
    return first[first["metric"].astype(str).str.startswith("r2") & (first["mean"] < FAR_BELOW_ZERO)]["task"].tolist()
