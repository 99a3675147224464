"""Collection splits never put an episode (or a group) on both sides."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.episode.tasks.splits import (
    EpisodeSplit,
    check_disjoint,
    episode_split,
    group_kfold,
)
from robotask.errors import RobotaskError


@pytest.fixture
def episodes():
    rng = np.random.default_rng(0)
    n = 12
    return pd.DataFrame({"episode_id": [f"ep{i:04d}" for i in range(n)],
                         "subject": [f"S{s}" for s in rng.integers(0, 4, n)],
                         "scene": [f"K{s}" for s in rng.integers(0, 3, n)]})


@pytest.mark.parametrize("group", [None, "subject", "scene"])
def test_episode_split_is_disjoint_by_group(episodes, group):
    for seed in range(5):
        s = episode_split(episodes, 0.3, group, seed)
        assert not set(s.train) & set(s.test)
        assert set(s.train) | set(s.test) == set(episodes["episode_id"])
        if group:
            g = dict(zip(episodes["episode_id"], episodes[group]))
            assert not {g[e] for e in s.train} & {g[e] for e in s.test}


def test_group_kfold_tests_every_episode_once(episodes):
    folds = group_kfold(episodes, 4)
    tested = [e for f in folds for e in f.test]
    assert sorted(tested) == sorted(episodes["episode_id"])
    assert all(not set(f.train) & set(f.test) for f in folds)


def test_leak_is_refused():
    with pytest.raises(RobotaskError, match="ep1"):
        check_disjoint(EpisodeSplit("x", ("ep0", "ep1"), ("ep1",)))
