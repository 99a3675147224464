"""The design of chapter 14: which episode splits are run, under which protocol, with which heads.

Three words, defined here once and used so on the page:

- a **fold** is one part of the grouped cross-validation over episodes: the episodes are cut into ``folds``
  parts, each part is tested once with the heads trained on all the others (:func:`cv_settings`);
- a **shift** holds out every episode of one value of a manifest column (one subject, or one scene) and
  trains on the rest (or on ``train_size`` of them drawn at random); each held-out group is paired with a
  random episode fold of the same size, drawn ``shift_draws`` times (:func:`shift_settings`), so a pair
  differs in what is held out, not in how much;
- a **draw** is one random split of a learning curve: its own seeded choice of test episodes (as many as a
  fold holds) and nested random subsets of the rest for training, doubling (:func:`curve_settings`). A draw is
  not a fold: draws are independent, so there can be more draws than folds.

A :class:`Setting` is one split under one protocol; :func:`chronological_settings` adds, per fold, the
single-episode protocol on that fold's own episodes (each split in time), which pairs with the fold.
:func:`run_settings` runs every task of every setting (identical splits once, in forked processes) and returns
one long table: setting × task × head (the baseline included), with the status and the reason of a task that
did not run.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ..features.windowset import WindowSet
from ..models.mlp import MLPConfig
from ..report.head_intervals import baseline_scores, deciding_metric
from ..suite.execution import TaskResult
from ..suite.fit import SuiteConfig
from ..suite.jobs import map_groups
from ..tasks.baselines import informed_baselines
from ..tasks.protocols import get_protocol
from ..tasks.registry import TASKS
from ..tasks.splits import EpisodeSplit, check_disjoint, doubling_sizes, group_kfold
from .held_out import run_collection_task
from .task_data import BuiltTasks

RESULT_COLUMNS = ("study", "protocol", "fold", "shift", "held_out", "n_train", "draw", "test_train", "task", "metric",
                  "higher_is_better", "head", "value", "deciding", "status", "reason")
MODEL_HEADS = ("minimal", "mlp")  # the other heads of the table are baselines: "baseline" (the trivial one)
# and, where a setting scores them, the informed ones by display name (``tasks.baselines.informed_baselines``)


@dataclass(frozen=True, kw_only=True)
class Setting:
    """One split under one protocol; ``labels`` say where it belongs (fold, shift, curve point)."""

    study: str  # "cv", "chronological", "group", "random" or "curve"
    protocol: str
    split: EpisodeSplit
    heads: str = "minimal"
    chronological: bool = False
    informed: bool = False  # also score the informed baselines (the settings a head is compared with them on)
    labels: dict = field(default_factory=dict)  # fold, shift, held_out, n_train, draw

    @property
    def key(self) -> tuple:
        """Settings with equal keys fit the same models (run once)."""
        return self.protocol, self.split.train, self.split.test, self.chronological


def chapter_config(softmax_epochs: int, mlp_epochs: int) -> SuiteConfig:
    """The suite's heads with the chapter's epochs (softmax heads, MLP), saving no models, the linear heads'
    dual iterates in float32 (``SuiteConfig.dual_float32``): a fifth less CPU for the chapter; the values
    move by rounding (measured in ``benchmarks/README.md``)."""
    return SuiteConfig(softmax_epochs=softmax_epochs, mlp=replace(MLPConfig(), epochs=mlp_epochs), save_models=False,
                       dual_float32=True)


def usable_shifts(episodes: pd.DataFrame, shifts: list[str]) -> list[str]:
    """The ``shifts`` a collection can run: manifest columns with more than one value, in the given order."""
    return [s for s in shifts if s in episodes.columns and episodes[s].nunique() > 1]


def test_train(n_test: int, n_episodes: int) -> float:
    """The correction's test/train ratio of a unit testing ``n_test`` of ``n_episodes`` episodes: the ratio of
    a unit that trains on every episode it does not test (a unit trained on fewer overlaps the others less)."""
    return n_test / max(n_episodes - n_test, 1)


def repeated_folds(episodes: pd.DataFrame, folds: int, repeats: int, seed: int) -> list[list[EpisodeSplit]]:
    """``repeats`` grouped k-fold partitions of the episodes: the first is :func:`group_kfold`'s (the folds of
    ``robotask suite --split group-kfold``), each further one a seeded random partition into ``folds`` parts."""
    if repeats < 1:
        raise RobotaskError(f"fold_repeats {repeats}; expected at least 1")
    out = [group_kfold(episodes, folds)]
    ids = episodes["episode_id"].astype(str).tolist()
    for r in range(1, repeats):
        order = [str(e) for e in np.random.default_rng([seed, 11, r]).permutation(ids)]
        parts = [set(p) for p in np.array_split(np.array(order, dtype=object), folds)]
        out.append([check_disjoint(EpisodeSplit(f"repeat{r}/fold{i}", tuple(e for e in ids if e not in p),
                                                tuple(e for e in ids if e in p))) for i, p in enumerate(parts)])
    return out


def cv_settings(episodes: pd.DataFrame, folds: int, protocols: list[str], mlp_protocols: list[str],
                repeats: int = 1, seed: int = 0) -> list[Setting]:
    """Grouped k-fold over episodes (every episode tested once per repeat) under each protocol; label ``draw``
    is the repeat."""
    n = len(episodes)
    return [Setting(study="cv", protocol=p, split=s, heads="minimal,mlp" if p in mlp_protocols else "minimal",
                    informed=True, labels={"fold": i, "draw": r, "n_train": len(s.train),
                            "test_train": test_train(len(s.test), n)})
            for r, splits in enumerate(repeated_folds(episodes, folds, repeats, seed))
            for p in protocols for i, s in enumerate(splits)]


def chronological_settings(cv: list[Setting]) -> list[Setting]:
    """Per fold: the fold's own test episodes, each split 70/30 in time (the single-episode protocol), pooled."""
    return [Setting(study="chronological", protocol=s.protocol, split=EpisodeSplit(f"chronological/{s.split.name}",
                                                                                     s.split.test, ()),
                    chronological=True, labels={**s.labels, "n_train": len(s.split.test)})
            for s in cv]


def matched_settings(cv: list[Setting], seed: int) -> list[Setting]:
    """Per fold: the chronological split's test windows (the last 30 % of each of the fold's episodes), with
    the heads trained on the first 70 % of as many *other* episodes, drawn at random from the fold's training
    episodes; it pairs with :func:`chronological_settings`' fold, trained on the same amount, so the two differ
    only in whether the training episodes are the test episodes themselves."""
    out = []
    for s in cv:
        key = [seed, 13, s.labels.get("draw") or 0, s.labels["fold"]]
        k = min(len(s.split.test), len(s.split.train))
        train = tuple(sorted(str(e) for e in np.random.default_rng(key).choice(list(s.split.train), k, replace=False)))
        split = check_disjoint(EpisodeSplit(f"matched/{s.split.name}", train, s.split.test))
        out.append(Setting(study="matched", protocol=s.protocol, split=split, chronological=True,
                           labels={**s.labels, "n_train": k}))
    return out


def random_folds_like(ids: list[str], sizes: list[int], seed: int) -> list[tuple[str, ...]]:
    """Test sets of a random partition of ``ids`` into folds of the given ``sizes`` (seeded)."""
    if sum(sizes) != len(ids):
        raise RobotaskError(f"fold sizes {sizes} sum to {sum(sizes)}; expected {len(ids)} episodes")
    order = list(np.random.default_rng(seed).permutation(ids))
    bounds = np.cumsum([0, *sizes])
    return [tuple(sorted(order[a:b])) for a, b in zip(bounds[:-1], bounds[1:])]


def shift_settings(episodes: pd.DataFrame, shifts: list[str], protocol: str, seed: int, draws: int = 1,
                   train_size: int = 0) -> list[Setting]:
    """Leave-one-group-out per shift (subject, scene); group ``i`` pairs with random fold ``i`` of each of
    ``draws`` random partitions into folds of the groups' sizes (label ``fold`` = ``i``, ``draw`` = the partition).
    With ``train_size`` > 0 every setting trains on that many episodes drawn at random from the rest."""
    ids = episodes["episode_id"].astype(str).tolist()
    out = []

    def setting(study: str, name: str, test: tuple[str, ...], key: list[int], labels: dict) -> Setting:
        rest = [e for e in ids if e not in test]
        if 0 < train_size < len(rest):
            rest = sorted(str(e) for e in np.random.default_rng([seed, *key]).choice(rest, train_size, replace=False))
        split = check_disjoint(EpisodeSplit(name, tuple(rest), test))
        return Setting(study=study, protocol=protocol, split=split,
                       labels={**labels, "n_train": len(rest), "test_train": test_train(len(test), len(ids))})

    for k, shift in enumerate(shifts):
        if shift not in episodes.columns:
            raise RobotaskError(f"shift {shift!r}: not a manifest column; expected one of {list(episodes.columns)}")
        groups = episodes.groupby(shift, sort=True)["episode_id"].apply(lambda s: tuple(sorted(s.astype(str))))
        if len(groups) < 2:
            continue
        for i, (name, test) in enumerate(groups.items()):
            out.append(setting("group", f"{shift}={name}", test, [k, i, 0],
                               {"shift": shift, "held_out": str(name), "fold": i}))
        for d in range(draws):
            for i, test in enumerate(random_folds_like(ids, [len(t) for t in groups], seed + 1000 * (k + 1) + d)):
                out.append(setting("random", f"{shift}-random{d}.{i}", test, [k, i, d + 1],
                                   {"shift": shift, "fold": i, "draw": d}))
    return out


def curve_settings(episodes: pd.DataFrame, test_size: int, draws: int, protocol: str, seed: int) -> list[Setting]:
    """Learning-curve points: each draw holds out its own random ``test_size`` episodes and trains on nested
    random subsets of the rest, doubling (1, 2, 4, … all)."""
    ids = sorted(episodes["episode_id"].astype(str))
    if not 1 <= test_size < len(ids):
        raise RobotaskError(f"learning-curve test size {test_size}; expected 1 to {len(ids) - 1} episodes")
    if draws < 1:
        raise RobotaskError(f"curve_draws {draws}; expected at least 1")
    out = []
    for d in range(draws):
        order = [str(e) for e in np.random.default_rng([seed, 7, d]).permutation(ids)]
        test, train = tuple(sorted(order[:test_size])), order[test_size:]
        for m in doubling_sizes(len(train)):
            split = check_disjoint(EpisodeSplit(f"draw{d}/n={m}", tuple(sorted(train[:m])), test))
            out.append(Setting(study="curve", protocol=protocol, split=split, informed=True,
                               labels={"draw": d, "n_train": m, "test_train": test_train(test_size, len(ids))}))
    return out


def aligned_share_values(sets: dict[str, WindowSet], settings: list[Setting], protocol: str, cfg: SuiteConfig,
                   task_id: str = "misalignment_detection") -> dict[str, float]:
    """Percent of Synchronisation Detection's test pairs the minimal head calls aligned, on the first
    chronological split (``sync_yes_chrono``) and the first fold (``sync_yes_unseen``) of ``protocol``; a key is
    left out when its setting is not among ``settings``."""
    first = {k: next((s for s in settings if s.study == study and s.protocol == protocol), None)
             for k, study in (("chrono", "chronological"), ("unseen", "cv"))}
    return {f"sync_yes_{k}": 100 * positive_share(task_id, sets, s, cfg) for k, s in first.items() if s is not None}


def positive_share(task_id: str, sets: dict[str, WindowSet], setting: Setting, cfg: SuiteConfig) -> float:
    """Share of a binary task's test samples that the minimal head of ``setting`` predicts positive (class 1);
    NaN when the task does not run there."""
    result, _ = run_collection_task(task_id, sets, setting.split, get_protocol(setting.protocol), ["minimal"], None,
                                    cfg, setting.chronological, per_episode=False)
    out = result.outputs.get("minimal")
    return float(np.mean(np.asarray(out.pred) == 1)) if out is not None else float("nan")


def informed_rows(task_id: str, result: TaskResult) -> list[dict]:
    """The informed baselines of a task that ran (``tasks.baselines.informed_baselines``, none for retrieval
    and the hand forecast), one row each: display name as ``head``, its primary metric as ``value`` and its
    deciding metric (``report.head_intervals.deciding_metric``: accuracy on a pair task) as ``deciding``."""
    if result.status != "ok" or result.data is None:
        return []
    primary, deciding = TASKS[task_id].primary_metric, deciding_metric(task_id)
    if not informed_baselines(result.data):
        return []
    scored = {m: baseline_scores(result, m) for m in dict.fromkeys((primary, deciding))}  # the trivial one first
    return [{"head": name, "value": scored[primary][name], "deciding": scored[deciding][name]}
            for name in list(scored[primary])[1:]]


def _run_one(group: list[int], sets: dict[str, WindowSet], settings: list[Setting], cfg: SuiteConfig,
             built: BuiltTasks) -> list[dict]:
    """Every task of one setting (the first index of ``group``); one row per task and head (and, with
    ``informed``, per informed baseline)."""
    s = settings[group[0]]
    proto, heads = get_protocol(s.protocol), s.heads.split(",")
    rows, fit_cache = [], {}  # tasks of this split that share a fit (``fit_key``) fit it once
    for tid in TASKS:
        result, _ = run_collection_task(tid, sets, s.split, proto, heads, None, cfg, s.chronological, built,
                                        per_episode=False, fit_cache=fit_cache)
        common = {"key": group[0], "task": tid, "metric": result.primary["metric"],
                  "higher_is_better": result.primary["higher_is_better"], "status": result.status,
                  "reason": result.details.get("reason", "")}
        decide = deciding_metric(tid)
        for head in ["baseline", *heads]:
            value = result.primary.get(head)
            rows.append({**common, "head": head, "value": value,
                         "deciding": value if decide == TASKS[tid].primary_metric
                         else result.metrics.get(head, {}).get(decide)})
        rows += [{**common, **r} for r in (informed_rows(tid, result) if s.informed else [])]
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
                                chronological=s.chronological,
                                informed=s.informed or (prev is not None and prev.informed))
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
            if r["head"] in wanted or (s.informed and r["head"] not in MODEL_HEADS):
                table.append({"study": s.study, "protocol": s.protocol, "fold": s.labels.get("fold"),
                              "shift": s.labels.get("shift"), "held_out": s.labels.get("held_out"),
                              "n_train": s.labels.get("n_train"), "draw": s.labels.get("draw"),
                              "test_train": s.labels.get("test_train"),
                              **{k: r[k] for k in RESULT_COLUMNS[8:]}})
    return pd.DataFrame(table, columns=list(RESULT_COLUMNS))
