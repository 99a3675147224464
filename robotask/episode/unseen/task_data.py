"""The twelve tasks over an episode collection: train on some episodes, test on unseen ones.

Each task's builder (``tasks.TASKS[id].build``) runs on every episode's own ``WindowSet``, so no sample
ever mixes two episodes (no pair or forecast crosses an episode boundary). :func:`merge_task_data`
then stacks the per-episode samples on one timeline (each episode's frames offset past the previous
one), with the class vocabulary of the training episodes first, and sets train = samples of the
training episodes, test = samples of the test episodes. The heads, baselines and metrics are the
suite's own (``head_runs``, ``scoring``); scalers are fitted on training rows only (``standardize``).
With the chronological split every episode is split 70/30 in time and the parts are stacked the same way.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...cache import content_key
from ...errors import RobotaskError
from ...progress import tqdm
from ..features import windows as W
from ..features.layout import FeatureOptions
from ..features.windowset import WindowSet, episode_labels
from ..files.loader import load_episode
from ..files.manifest import Collection
from ..models.minimal import ZScaler
from ..models.row_blocks import LazyRows, RowBlocks, RowFile
from ..models.shortcuts import ColumnMoments, pooled_mean_std
from ..tasks.builders import TaskData, TaskUnavailable
from ..tasks.protocols import Protocol
from ..tasks.registry import TASKS, TEST_FRACTION
from ..tasks.splits import EpisodeSplit

EPISODE_GAP = 1000  # frames between stacked episodes on the merged timeline
WIDE_TARGET = 64  # regression / retrieval targets wider than this wait on disk with the inputs


def name_of(key: tuple[str, Protocol]) -> str:
    """A store file's stem: the task and the protocol's short hash (two protocols never share a file)."""
    return f"{key[0]}-{content_key({'protocol': asdict(key[1])}, [])[:10]}"


def window_set_from_artifacts(artifacts: str | os.PathLike, episode_dir: str | os.PathLike,
                              options: FeatureOptions = FeatureOptions()) -> WindowSet:
    """The WindowSet of an episode from its feature artifacts (``robotask features``) and its folder."""
    art = Path(artifacts)
    with np.load(art / "shared_windows.npz") as z:
        X = z["X"]
    windows = pd.read_csv(art / "windows.csv", keep_default_na=False)
    manifest = json.loads((art / "feature_manifest.json").read_text())
    episode = load_episode(episode_dir)
    action, subtask, objects = episode_labels(episode)
    return WindowSet(X, manifest, windows, action, subtask, objects, episode, options=options)


def _encode(part: TaskData, names: list[str]) -> np.ndarray:
    """A part's targets re-encoded to the merged vocabulary ``names``."""
    lookup = {n: i for i, n in enumerate(names)}
    if part.kind == "multilabel":
        y = np.zeros((len(part.y), len(names)), dtype=np.int8)
        y[:, [lookup[n] for n in part.class_names]] = part.y
        return y
    return np.array([lookup[part.class_names[i]] for i in part.y], dtype=np.int64)


def _merge_extra(parts: list[TaskData], offsets: list[int]) -> dict:
    """Per-sample extras stacked; boundaries shifted to the merged timeline; text groups recomputed."""
    extra: dict[str, Any] = {}
    for key, first in parts[0].extra.items():
        if key == "boundaries":
            extra[key] = np.concatenate([p.extra[key] + o for p, o in zip(parts, offsets)])
        elif isinstance(first, np.ndarray) and len(first) == len(parts[0].y):
            extra[key] = np.concatenate([p.extra[key] for p in parts])
        else:
            extra[key] = first
    return extra


def stacked_inputs(blocks: list[np.ndarray], scaler: ZScaler | None = None) -> np.ndarray:
    """The parts' inputs stacked as float32; with ``scaler``, z-scored on the way in, block by block, with the
    very operations of ``ZScaler.transform(x, inplace=True)`` (subtract the float32 mean, divide by the float32
    std), so the bits are those of stacking first and z-scoring after, in one pass instead of three."""
    if scaler is None or any(b.dtype != np.float32 for b in blocks):
        x = np.concatenate(blocks).astype(np.float32, copy=False)
        return x if scaler is None else scaler.transform(x, inplace=True)
    out = np.empty((sum(len(b) for b in blocks), blocks[0].shape[1]), dtype=np.float32)
    at = 0
    for b in blocks:
        part = out[at:at + len(b)]
        np.subtract(b, scaler.mean, out=part)
        part /= scaler.std
        at += len(b)
    return out


def merge_task_data(parts: list[tuple[str, TaskData, str]], offsets: dict[str, int],
                    scaler: ZScaler | None = None) -> TaskData:
    """Stack per-episode TaskData ``(episode_id, data, side)`` (side: train / test) into one task.

    The vocabulary lists the classes of the training parts first (in order of appearance), then
    classes seen only in test; train / test are the rows of the train / test parts. With ``scaler`` the
    inputs are z-scored as they are stacked (:func:`stacked_inputs`).
    """
    datas = [d for _, d, _ in parts]
    kind = datas[0].kind
    names: list[str] = []
    if kind in ("classification", "binary", "multilabel"):
        ordered = [d for _, d, s in parts if s == "train"] + [d for _, d, s in parts if s != "train"]
        names = list(dict.fromkeys(n for d in ordered for n in d.class_names))
        y = np.concatenate([_encode(d, names) for d in datas])
    else:
        y = np.concatenate([d.y for d in datas])
    frames = ["start_frame", "end_frame", "center_frame", "span_end"]
    lengths = [len(d.rows) for d in datas]
    rows_df = pd.concat([d.rows for d in datas], ignore_index=True)  # a copy: the parts stay as they are
    rows_df[frames] = rows_df[frames].to_numpy() + np.repeat([offsets[e] for e, _, _ in parts], lengths)[:, None]
    rows_df["episode_id"] = np.repeat(np.array([e for e, _, _ in parts], dtype=object), lengths)
    rows_df["side"] = np.repeat(np.array([s for _, _, s in parts], dtype=object), lengths)
    rows_df["sample_index"] = np.arange(len(rows_df))
    data = TaskData(kind=kind, X=stacked_inputs([d.X for d in datas], scaler), y=y,
                    rows=rows_df, class_names=names, owns_x=True,
                    extra=_merge_extra(datas, [offsets[e] for e, _, _ in parts]))
    if "groups" in data.extra:  # rows equal in value share a group (a retrieval target's identical texts)
        data.extra["groups"] = same_rows(data.y)
    side = rows_df["side"].to_numpy()
    data.train, data.test = np.flatnonzero(side == "train"), np.flatnonzero(side == "test")
    return data


BuildKey = tuple[str, str, str, FeatureOptions, Protocol]  # task, episode id, episode folder, options, protocol


@dataclass
class BuiltTasks:
    """The per-episode TaskData that one collection run builds, kept for the run's next split (merges copy it).

    Created by the run (``run_collection_suite``, ``design.run_settings``, ``robotask suite --collection``),
    passed down, and dropped with it. Keyed on what a built TaskData depends on: the task, the episode (id
    and folder), the window options and the protocol, so no two episodes can share an entry.
    """

    built: dict[BuildKey, TaskData | TaskUnavailable] = field(default_factory=dict)
    moments: dict[BuildKey, ColumnMoments] = field(default_factory=dict)  # of each built TaskData's inputs

    def moments_of(self, task_id: str, eid: str, ws: WindowSet, protocol: Protocol) -> ColumnMoments:
        """The column moments of ``task_data(...)``'s inputs, computed once per run: a split's train
        statistics are pooled from them (:func:`collection_task_data`) instead of passing over its merged rows."""
        key = (task_id, eid, str(ws.episode.path), ws.options, protocol)
        if key not in self.moments:
            self.moments[key] = ColumnMoments.of(self.task_data(task_id, eid, ws, protocol).X)
        return self.moments[key]

    def task_data(self, task_id: str, eid: str, ws: WindowSet, protocol: Protocol) -> TaskData:
        """``TASKS[task_id].build(ws, protocol)``, built once per run.

        Raises the task's ``TaskUnavailable`` again for an episode that cannot build it.
        """
        key = (task_id, eid, str(ws.episode.path), ws.options, protocol)
        if key not in self.built:
            try:
                self.built[key] = TASKS[task_id].build(ws, protocol)
            except TaskUnavailable as exc:
                self.built[key] = exc
        done = self.built[key]
        if isinstance(done, TaskUnavailable):
            raise done
        return done

    def prebuild(self, sets: dict[str, WindowSet], protocols: list[Protocol]) -> None:
        """Build every task of every episode under each protocol, with its moments, now (before forked
        workers share them)."""
        for protocol in protocols:
            for task_id in TASKS:
                for eid, ws in sets.items():
                    try:
                        self.moments_of(task_id, eid, ws, protocol)
                    except TaskUnavailable:
                        pass


def _parts(task_id: str, sets: dict[str, WindowSet], split: EpisodeSplit, protocol: Protocol,
           chronological: bool, built: BuiltTasks) -> list[tuple[str, TaskData, str]]:
    """Per-episode TaskData of the split's episodes (an episode lacking what the task needs is left out)."""
    out = []
    for eid in (split.train + split.test if not chronological or split.test else split.train):
        try:
            data = built.task_data(task_id, eid, sets[eid], protocol)
        except TaskUnavailable:
            continue
        if not chronological:
            out.append((eid, data, "train" if eid in split.train else "test"))
            continue
        tr, te = W.chronological_split(len(data.y), TEST_FRACTION)
        # chronological: each episode's early part trains and its late part tests; with test episodes
        # (``matched``), the train episodes give their early part and the test episodes their late part
        sides = (("train", tr), ("test", te)) if not split.test else (
            (("train", tr),) if eid in split.train else (("test", te),))
        for side, idx in sides:
            out.append((f"{eid}:{side}", _take(data, idx), side))
    return out


def _take(data: TaskData, idx: np.ndarray) -> TaskData:
    """Rows ``idx`` of a TaskData (per-sample extras included)."""
    n = len(data.y)
    extra = {k: (v[idx] if isinstance(v, np.ndarray) and len(v) == n and k != "boundaries" else v)
             for k, v in data.extra.items()}
    return TaskData(kind=data.kind, X=data.X[idx], y=data.y[idx], rows=data.rows.iloc[idx].reset_index(drop=True),
                    class_names=list(data.class_names), owns_x=True, extra=extra)


def collection_task_data(task_id: str, sets: dict[str, WindowSet], split: EpisodeSplit, protocol: Protocol,
                         chronological: bool = False, with_validation: bool = False,
                         built: BuiltTasks | None = None) -> TaskData:
    """The merged TaskData of a task over a split (unseen episodes, or chronological within each episode).

    ``built`` holds the run's per-episode TaskData (None: built for this call only). With whole episodes on each
    side the inputs come z-scored with the training episodes' statistics, pooled from their moments
    (``extra["standardized"]``, ``x_mean`` and ``x_std``); a chronological split's are z-scored by the caller."""
    built = BuiltTasks() if built is None else built
    parts = _parts(task_id, sets, split, protocol, chronological, built)
    train = [] if chronological else [built.moments_of(task_id, eid, sets[eid], protocol)
                                      for eid, _, side in parts if side == "train"]
    if not train:
        return _merged(parts, protocol, with_validation)
    # whole episodes on each side: the train statistics pooled from theirs, the inputs z-scored as they stack
    scaler = ZScaler.of(*pooled_mean_std(train), protocol.std_floor)
    data = _merged(parts, protocol, with_validation, scaler)
    data.extra["x_mean"], data.extra["x_std"], data.extra["standardized"] = scaler.mean, scaler.std, True
    return data


def load_window_sets(collection: Collection, features_dir: str | os.PathLike,
                     options: FeatureOptions = FeatureOptions()) -> dict[str, WindowSet]:
    """WindowSets of the collection's episodes that have artifacts under ``features_dir/<episode_id>``."""
    root = Path(features_dir)
    return {eid: window_set_from_artifacts(root / eid, collection.path(eid), options)
            for eid in collection.ids if (root / eid / "shared_windows.npz").is_file()}


# ------------------------------------------------------------------ the on-disk store (``robotask suite --collection``)
@dataclass(frozen=True)
class EpisodeFacts:
    """What the collection report needs of an episode once its WindowSet is gone."""

    n_frames: int
    n_windows: int
    feature_dim: int
    is_synthetic: bool


@dataclass
class PartStore:
    """Every task of every episode, built once per run; inputs on disk, labels and rows in memory.

    Each episode's WindowSet is loaded, every task is built from it under each protocol, the task's
    inputs are appended to one raw float32 file per (task, protocol) (``models.row_blocks.RowFile``), and
    the WindowSet is dropped. What stays in memory per episode is the tasks' targets, sample rows and
    per-sample extras (a ``TaskData`` whose ``X`` has no columns) and the row range of its inputs; targets
    wider than :data:`WIDE_TARGET` (the 5096 visual features, the caption text, the hand future) wait in a
    second file with the same rows until their task runs. Memory holds one episode's WindowSet at a time,
    whatever the collection's size.
    """

    folder: Path
    files: dict[tuple[str, Protocol], RowFile] = field(default_factory=dict)
    parts: dict[tuple[str, str, Protocol], tuple[TaskData, tuple[int, int]] | TaskUnavailable] = field(
        default_factory=dict)
    facts: dict[str, EpisodeFacts] = field(default_factory=dict)

    def add_episode(self, eid: str, ws: WindowSet, protocols: list[Protocol], task_ids: list[str]) -> None:
        """Build ``task_ids`` of one episode under each protocol and store them."""
        self.facts[eid] = EpisodeFacts(int(ws.episode.n_frames), int(len(ws.X)), int(ws.X.shape[1]),
                                       bool(getattr(ws.episode, "is_synthetic", False)))
        for protocol in protocols:
            for task_id in task_ids:
                try:
                    data = TASKS[task_id].build(ws, protocol)
                except TaskUnavailable as exc:
                    self.parts[(task_id, eid, protocol)] = exc
                    continue
                key = (task_id, protocol)
                if key not in self.files:
                    self.files[key] = RowFile(self.folder / f"{name_of(key)}.f32", data.X.shape[1])
                where = self.files[key].append(data.X)
                data.X = np.empty((len(data.y), 0), dtype=np.float32)
                if data.kind in ("regression", "retrieval") and data.y.ndim == 2 and data.y.shape[1] > WIDE_TARGET:
                    if (task_id, protocol, "y") not in self.files:
                        self.files[(task_id, protocol, "y")] = RowFile(self.folder / f"{name_of(key)}.y.f32",
                                                                        data.y.shape[1])
                    if self.files[(task_id, protocol, "y")].append(data.y) != where:
                        raise RobotaskError(f"{task_id}: targets and inputs of {eid} out of step in the store")
                    data.y = np.empty((len(data.y), 0), dtype=np.float32)
                self.parts[(task_id, eid, protocol)] = (data, where)

    def part(self, task_id: str, eid: str, protocol: Protocol) -> tuple[TaskData, tuple[int, int]]:
        """An episode's stored task (raises its TaskUnavailable again)."""
        done = self.parts.get((task_id, eid, protocol))
        if done is None:
            raise TaskUnavailable(f"episode {eid} was not built under protocol {protocol.name}")
        if isinstance(done, TaskUnavailable):
            raise done
        return done

    def task_data(self, task_id: str, split: EpisodeSplit, protocol: Protocol, chronological: bool = False,
                  with_validation: bool = False) -> tuple[TaskData, RowBlocks]:
        """The merged task over a split (as :func:`collection_task_data`, ``X`` without columns) and its
        inputs on disk: the RowBlocks of all samples in the merged order (one range per part)."""
        parts, ranges = [], []
        for eid in (split.train + split.test if not chronological else split.train):
            try:
                data, (first, n) = self.part(task_id, eid, protocol)
            except TaskUnavailable:
                continue
            if not chronological:
                parts.append((eid, data, "train" if eid in split.train else "test"))
                ranges.append((first, n))
                continue
            tr, te = W.chronological_split(len(data.y), TEST_FRACTION)
            for side, idx in (("train", tr), ("test", te)):
                if len(idx) and not np.array_equal(idx, np.arange(idx[0], idx[0] + len(idx))):
                    raise RobotaskError(f"{task_id}: the chronological {side} rows of {eid} are not a time range")
                parts.append((f"{eid}:{side}", _take(data, idx), side))
                ranges.append((first + (int(idx[0]) if len(idx) else 0), len(idx)))
        merged = _merged(parts, protocol, with_validation)  # raises TaskUnavailable before a missing file
        file, targets = self.files[(task_id, protocol)], self.files.get((task_id, protocol, "y"))
        if targets is not None:  # wide targets stay on disk, read a block of rows at a time
            merged.y = RowBlocks(targets.path, targets.width, tuple(ranges)).matrix()
            if "groups" in merged.extra:
                merged.extra["groups"] = same_rows(merged.y)
        return merged, RowBlocks(file.path, file.width, tuple(ranges))


def same_rows(y: LazyRows | np.ndarray, block: int = 1024) -> np.ndarray:
    """A group id per row, equal for rows with equal values (``np.unique(y, axis=0, return_inverse=True)``'s
    groups, numbered in order of first appearance instead of sorted: the retrieval metrics only compare
    them), read one block of rows at a time. Rows are keyed on a 128-bit digest of their bytes, with −0.0
    made +0.0 first (``np.unique`` compares values). An array that is not 2-D float32 goes to ``np.unique``."""
    if isinstance(y, np.ndarray) and (y.ndim != 2 or y.dtype != np.float32):
        return np.unique(y, axis=0, return_inverse=True)[1].ravel()
    ids: dict[bytes, int] = {}
    out = np.empty(len(y), dtype=np.int64)
    blocks = y.blocks(block) if isinstance(y, LazyRows) else (
        (slice(a, a + block), y[a:a + block]) for a in range(0, len(y), block))
    for sl, rows in blocks:
        rows = rows + np.float32(0.0)
        out[sl] = [ids.setdefault(hashlib.blake2b(r.tobytes(), digest_size=16).digest(), len(ids)) for r in rows]
    return out


def _merged(parts: list[tuple[str, TaskData, str]], protocol: Protocol, with_validation: bool,
            scaler: ZScaler | None = None) -> TaskData:
    """Stack the parts on one timeline (:func:`merge_task_data`, z-scored with ``scaler``), with the MLP's
    validation episode."""
    sides = {s for _, _, s in parts}
    if sides != {"train", "test"}:
        raise TaskUnavailable(f"no episode of the {'test' if 'train' in sides else 'training'} side can build it")
    offsets, at = {}, 0
    for eid, d, _ in parts:
        offsets[eid] = at
        at += int(d.rows["span_end"].max()) + EPISODE_GAP
    data = merge_task_data(parts, offsets, scaler)
    if with_validation and protocol.validation_early_stopping:
        train_eps = list(dict.fromkeys(data.rows["episode_id"].to_numpy()[data.train]))
        if len(train_eps) >= 2:
            last = data.rows["episode_id"].to_numpy()[data.train] == train_eps[-1]
            data.val, data.extra["train_core"] = data.train[last], data.train[~last]
    return data


def build_store(collection: Collection, features_dir: str | os.PathLike, protocols: list[Protocol],
                task_ids: list[str], folder: str | os.PathLike, options: FeatureOptions = FeatureOptions(),
                progress: bool = True) -> PartStore:
    """A :class:`PartStore` in ``folder`` of the episodes with artifacts under ``features_dir/<episode_id>``,
    one episode in memory at a time."""
    root = Path(features_dir)
    store = PartStore(Path(folder))
    ids = [eid for eid in collection.ids if (root / eid / "shared_windows.npz").is_file()]
    for eid in tqdm(ids, desc="episodes' tasks", disable=not progress):
        ws = window_set_from_artifacts(root / eid, collection.path(eid), options)
        store.add_episode(eid, ws, protocols, task_ids)
        del ws
    return store
