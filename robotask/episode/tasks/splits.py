"""Splits of an episode collection: unseen episodes (optionally grouped by subject or scene) and k folds.

A split is a pair of episode-id lists; no episode is ever on both sides (:func:`check_disjoint`). The
episode-level splits use scikit-learn's group splitters (``GroupShuffleSplit``, ``GroupKFold``) with
the group column of the manifest (``episode_id`` itself, ``subject`` or ``scene``), so a grouped split
also keeps every subject (or scene) on one side. The within-episode chronological split stays with
the tasks (``tasks.split``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import RobotaskError
from ...words import count, named

SPLITS = ("episodes", "chronological", "group-kfold")


@dataclass(frozen=True)
class EpisodeSplit:
    """Training and test episodes (ids), and a name for reports."""

    name: str
    train: tuple[str, ...]
    test: tuple[str, ...]


def check_disjoint(split: EpisodeSplit) -> EpisodeSplit:
    """The split, or RobotaskError naming the episodes found on both sides."""
    both = sorted(set(split.train) & set(split.test))
    if both:
        raise RobotaskError(f"split {split.name}: {named('episode', both)} in train and test; expected disjoint")
    if not split.train or not split.test:
        raise RobotaskError(f"split {split.name}: {len(split.train)} train and {len(split.test)} test episodes; "
                            "expected at least one on each side")
    return split


def _groups(episodes: pd.DataFrame, group: str | None) -> np.ndarray:
    """Group label of each episode (the episode id itself when ``group`` is None)."""
    column = group or "episode_id"
    if column not in episodes.columns:
        raise RobotaskError(f"group={group!r}: not a manifest column; expected one of {list(episodes.columns)}")
    return episodes[column].astype(str).to_numpy()


def episode_split(episodes: pd.DataFrame, test_fraction: float = 0.3, group: str | None = None,
                  seed: int = 0) -> EpisodeSplit:
    """Unseen-episode train/test split (GroupShuffleSplit over ``group``, default: each episode its own group)."""
    if not 0 < test_fraction < 1:
        raise RobotaskError(f"test_fraction={test_fraction}; expected a number in (0, 1)")
    groups = _groups(episodes, group)
    if len(np.unique(groups)) < 2:
        n_groups = count(len(np.unique(groups)), "group")
        raise RobotaskError(f"group={group or 'episode_id'}: {n_groups}; a split needs ≥ 2")
    from sklearn.model_selection import GroupShuffleSplit  # here: `robotask suite --episode` never needs it

    splitter = GroupShuffleSplit(n_splits=1, test_size=test_fraction, random_state=seed)
    tr, te = next(splitter.split(np.zeros(len(groups)), groups=groups))
    ids = episodes["episode_id"].astype(str).to_numpy()
    return check_disjoint(EpisodeSplit(f"episodes/{group or 'episode'}", tuple(ids[np.sort(tr)]),
                                       tuple(ids[np.sort(te)])))


def group_kfold(episodes: pd.DataFrame, k: int = 4, group: str | None = None) -> list[EpisodeSplit]:
    """Leave-episodes-out k-fold (GroupKFold over ``group``); every episode is tested exactly once."""
    groups = _groups(episodes, group)
    n_groups = len(np.unique(groups))
    if k < 2 or k > n_groups:
        raise RobotaskError(f"k={k}; expected 2 ≤ k ≤ {n_groups} (the number of {group or 'episode'} groups)")
    ids = episodes["episode_id"].astype(str).to_numpy()
    from sklearn.model_selection import GroupKFold

    folds = GroupKFold(n_splits=k).split(np.zeros(len(groups)), groups=groups)
    return [check_disjoint(EpisodeSplit(f"fold{i}", tuple(ids[np.sort(tr)]), tuple(ids[np.sort(te)])))
            for i, (tr, te) in enumerate(folds)]


def doubling_sizes(n_train: int) -> list[int]:
    """1, 2, 4, 8, … up to ``n_train`` (which is always the last size)."""
    sizes = [1]
    while sizes[-1] * 2 < n_train:
        sizes.append(sizes[-1] * 2)
    return sizes + ([n_train] if sizes[-1] != n_train else [])
