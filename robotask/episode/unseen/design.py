"""The design of chapter 14: which episode splits are run, under which protocol, with which heads.

A :class:`Setting` is one split of the collection under one protocol: a grouped cross-validation fold,
the chronological split, a held-out subject or scene, a random fold of the same size, or a point of a
learning curve. :func:`run_settings` runs every task of every setting (identical splits once, in forked
processes) and returns one long table: setting × task × head (the baseline included), with the status
and the reason of a task that did not run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ..features.windowset import WindowSet
from ..suite.fit import SuiteConfig
from ..suite.jobs import map_groups
from ..tasks.protocols import get_protocol
from ..tasks.registry import TASKS
from ..tasks.splits import EpisodeSplit, check_disjoint, doubling_sizes, group_kfold
from .held_out import run_collection_task
from .task_data import BuiltTasks

RESULT_COLUMNS = ("study", "protocol", "fold", "shift", "held_out", "n_train", "draw", "task", "metric",
                  "higher_is_better", "head", "value", "status", "reason")


@dataclass(frozen=True, kw_only=True)
class Setting:
    """One split under one protocol; ``labels`` say where it belongs (fold, shift, curve point)."""

    study: str  # "cv", "chronological", "group", "random" or "curve"
    protocol: str
    split: EpisodeSplit
    heads: str = "minimal"
    chronological: bool = False
    labels: dict = field(default_factory=dict)  # fold, shift, held_out, n_train, draw

    @property
    def key(self) -> tuple:
        """Settings with equal keys fit the same models (run once)."""
        return self.protocol, self.split.train, self.split.test, self.chronological


def cv_settings(episodes: pd.DataFrame, folds: int, protocols: list[str], mlp_protocols: list[str]) -> list[Setting]:
    """Grouped k-fold over episodes (every episode tested once) under each protocol."""
    splits = group_kfold(episodes, folds)
    return [Setting(study="cv", protocol=p, split=s, heads="minimal,mlp" if p in mlp_protocols else "minimal",
                    labels={"fold": i, "n_train": len(s.train)})
            for p in protocols for i, s in enumerate(splits)]


def chronological_settings(episodes: pd.DataFrame, protocols: list[str]) -> list[Setting]:
    """Every episode split 70/30 in time (the single-episode protocol), pooled, under each protocol."""
    ids = tuple(episodes["episode_id"].astype(str))
    return [Setting(study="chronological", protocol=p, split=EpisodeSplit("chronological", ids, ()),
                    chronological=True, labels={"n_train": len(ids)}) for p in protocols]


def random_folds_like(ids: list[str], sizes: list[int], seed: int) -> list[tuple[str, ...]]:
    """Test sets of a random partition of ``ids`` into folds of the given ``sizes`` (seeded)."""
    if sum(sizes) != len(ids):
        raise RobotaskError(f"fold sizes {sizes} sum to {sum(sizes)}; expected {len(ids)} episodes")
    order = list(np.random.default_rng(seed).permutation(ids))
    bounds = np.cumsum([0, *sizes])
    return [tuple(sorted(order[a:b])) for a, b in zip(bounds[:-1], bounds[1:])]


def shift_settings(episodes: pd.DataFrame, shifts: list[str], protocol: str, seed: int) -> list[Setting]:
    """Leave-one-group-out per shift (subject, scene), and random episode folds of the same sizes."""
    ids = episodes["episode_id"].astype(str).tolist()
    out = []
    for k, shift in enumerate(shifts):
        if shift not in episodes.columns:
            raise RobotaskError(f"shift {shift!r}: not a manifest column; expected one of {list(episodes.columns)}")
        groups = episodes.groupby(shift, sort=True)["episode_id"].apply(lambda s: tuple(sorted(s.astype(str))))
        if len(groups) < 2:
            continue
        for name, test in groups.items():
            split = check_disjoint(EpisodeSplit(f"{shift}={name}", tuple(e for e in ids if e not in test), test))
            out.append(Setting(study="group", protocol=protocol, split=split,
                               labels={"shift": shift, "held_out": str(name), "n_train": len(split.train)}))
        for i, test in enumerate(random_folds_like(ids, [len(t) for t in groups], seed + 1000 * (k + 1))):
            split = check_disjoint(EpisodeSplit(f"{shift}-random{i}", tuple(e for e in ids if e not in test), test))
            out.append(Setting(study="random", protocol=protocol, split=split,
                               labels={"shift": shift, "fold": i, "n_train": len(split.train)}))
    return out


def curve_settings(cv: list[Setting], draws: int, seed: int) -> list[Setting]:
    """Learning-curve points: draw d tests on fold d and trains on nested random subsets of its training side."""
    if draws > len(cv):
        raise RobotaskError(f"{draws} learning-curve draws; expected at most the {len(cv)} folds")
    out = []
    for d, fold in enumerate(cv[:draws]):
        order = list(np.random.default_rng([seed, d]).permutation(list(fold.split.train)))
        for m in doubling_sizes(len(order)):
            split = EpisodeSplit(f"draw{d}/n={m}", tuple(sorted(order[:m])), fold.split.test)
            out.append(Setting(study="curve", protocol=fold.protocol, split=split,
                               labels={"draw": d, "fold": fold.labels["fold"], "n_train": m}))
    return out


def _run_one(group: list[int], sets: dict[str, WindowSet], settings: list[Setting], cfg: SuiteConfig,
             built: BuiltTasks) -> list[dict]:
    """Every task of one setting (the first index of ``group``); one row per task and head."""
    s = settings[group[0]]
    proto, heads = get_protocol(s.protocol), s.heads.split(",")
    rows = []
    for tid in TASKS:
        result, _ = run_collection_task(tid, sets, s.split, proto, heads, None, cfg, s.chronological, built)
        reason = result.details.get("reason", "")
        for head in ["baseline", *heads]:
            rows.append({"key": group[0], "task": tid, "metric": result.primary["metric"],
                         "higher_is_better": result.primary["higher_is_better"], "head": head,
                         "value": result.primary.get(head), "status": result.status, "reason": reason})
    return rows


def run_settings(sets: dict[str, WindowSet], settings: list[Setting], cfg: SuiteConfig, jobs: int = 1) -> pd.DataFrame:
    """Run every setting (identical splits once, with the union of their heads), ``jobs`` at a time.

    Returns :data:`RESULT_COLUMNS`; each task runs on one BLAS thread, so the values do not depend on ``jobs``.
    """
    unique: dict[tuple, Setting] = {}
    for s in settings:
        prev = unique.get(s.key)
        heads = s.heads if prev is None else ",".join(dict.fromkeys(prev.heads.split(",") + s.heads.split(",")))
        unique[s.key] = Setting(study=s.study, protocol=s.protocol, split=s.split, heads=heads,
                                chronological=s.chronological)
    runs = list(unique.values())
    cost = [len(r.split.train) * (3 if "mlp" in r.heads else 1) for r in runs]
    order = [[i] for i in sorted(range(len(runs)), key=lambda i: -cost[i])]  # the longest first
    by_key: dict[tuple, list[dict]] = {}
    built = BuiltTasks()  # this call's per-episode TaskData, built before the workers fork and shared by them
    built.prebuild(sets, [get_protocol(p) for p in dict.fromkeys(r.protocol for r in runs)])
    for rows in map_groups(_run_one, order, jobs, sets, runs, cfg, built):
        by_key[runs[rows[0]["key"]].key] = rows
    table = []
    for s in settings:
        wanted = {"baseline", *s.heads.split(",")}
        for r in by_key[s.key]:
            if r["head"] in wanted:
                table.append({"study": s.study, "protocol": s.protocol, "fold": s.labels.get("fold"),
                              "shift": s.labels.get("shift"), "held_out": s.labels.get("held_out"),
                              "n_train": s.labels.get("n_train"), "draw": s.labels.get("draw"),
                              **{k: r[k] for k in RESULT_COLUMNS[7:]}})
    return pd.DataFrame(table, columns=list(RESULT_COLUMNS))
