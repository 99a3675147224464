"""Window, label, split and scaler rules of robotask.episode.features.windows against hand-computed cases (spec
§3.1, §4)."""

from __future__ import annotations

import numpy as np
import pytest

from robotask.episode.features import layout
from robotask.episode.features import windows as W
from robotask.errors import RobotaskError


def temporal_stats(x) -> np.ndarray:
    """The 7 temporal statistics of one window (time first), statistic-major: (T, ...) -> (7·D,); the
    oracle the window tables are checked against."""
    x = np.asarray(x, dtype=np.float64)
    return W.stacked_stats(x.reshape(1, x.shape[0], -1))[0]


def test_temporal_stats_by_hand_statistic_major():
    x = np.array([[1.0, 10.0], [3.0, 10.0], [2.0, np.nan]])  # NaN → 0
    s = temporal_stats(x)
    assert s.shape == (14,)
    col0 = [2.0, np.sqrt(2 / 3), 1, 3, 1, 0.5, 1.5]  # diffs 2, −1
    col1 = [20 / 3, np.std([10, 10, 0]), 0, 10, -10, -5, 5]  # diffs 0, −10
    assert np.allclose(s, np.ravel(np.column_stack([col0, col1])))  # mean0, mean1, std0, std1, …


def test_temporal_stats_single_step_has_zero_difference_stats():
    s = temporal_stats(np.array([[4.0, -1.0]]))
    assert np.allclose(s, [4, -1, 0, 0, 4, -1, 4, -1, 0, 0, 0, 0, 0, 0])


def test_window_starts_and_count_of_the_sample():
    assert len(W.window_starts(5821)) == 1161 and W.window_starts(5821)[-1] == 5800
    assert W.window_starts(200).tolist()[-1] == 180 and len(W.window_starts(200)) == 37
    with pytest.raises(RobotaskError, match="at least 20"):
        W.window_starts(19)


def test_imu_ranges_force_one_sample_and_clip():
    ki = np.array([0, 0, 3, 5, 9, 9])
    r = W.imu_sample_ranges(ki, np.array([0, 1, 4]), window=2, n_samples=8)
    # [ki[s], max(ki[s]+1, ki[s+1]+1)): [0, 1), [0, 4), [9 → 8, 10 → 8) clipped: empty
    assert r == [(0, 1), (0, 4), (8, 8)]
    stats = W.imu_window_stats(np.arange(48, dtype=float).reshape(8, 6), r)
    assert np.allclose(stats[0, :6], np.arange(6)) and np.all(stats[2] == 0)
    assert np.allclose(stats[1, :6], np.arange(48).reshape(8, 6)[:4].mean(0))


def test_imu_windows_of_one_length_together_give_each_window_its_own_bits():
    rng = np.random.default_rng(3)
    samples = rng.standard_normal((600, 6)) * 1e3
    samples[rng.random(samples.shape) < 0.01] = np.nan
    starts = rng.integers(0, 600, 700)
    ranges = [(int(a), int(min(a + n, 600))) for a, n in zip(starts, rng.choice([0, 1, 7, 191], 700))]
    got = W.imu_window_stats(samples, ranges)  # 700 windows: more than one block of one length
    for i, (a, b) in enumerate(ranges):
        want = temporal_stats(samples[a:b]) if b > a else np.zeros(7 * 6)
        assert got[i].tobytes() == want.tobytes()


@pytest.mark.parametrize("block_values", [W.WINDOW_BLOCK_VALUES, 1, 1700])  # one block; 16 windows; 17
def test_window_stats_give_the_bits_of_each_window_alone(monkeypatch, block_values):
    monkeypatch.setattr(W, "WINDOW_BLOCK_VALUES", block_values)
    rng = np.random.default_rng(4)
    per_frame = (rng.standard_normal((180, 5)) * 1e4).astype(np.float32)
    per_frame[rng.random(per_frame.shape) < 0.02] = np.inf
    starts = W.window_starts(180, 20, 5)
    assert len(starts) == 33  # blocks of 16 windows at the smallest: 16 + 16 + 1
    got = W.window_stats(per_frame, starts, 20)
    for i, s in enumerate(starts):
        assert got[i].tobytes() == temporal_stats(per_frame[s:s + 20].astype(np.float64)).tobytes()


def test_majority_label_ties_threshold_and_na():
    assert W.majority_label(["b", "a", "a", "b"]) == ("", 0.5)  # tie below threshold
    assert W.majority_label(["b", "a", "a", "b"], min_fraction=0.5) == ("b", 0.5)  # tie → first encountered
    assert W.majority_label(["a", "a", "a", "b", "b"]) == ("a", 0.6)  # exactly 0.6 is kept
    assert W.majority_label(["a", "a", "b", "c"]) == ("", 0.5)
    # fraction over non-empty labels: 3 of 4 labelled frames, "N/A" and "" are empty
    assert W.majority_label(["a", "", "N/A", "n/a", "a", "b", "a"]) == ("a", 0.75)
    assert W.majority_label(["", "N/A"]) == ("", 0.0)


def test_window_table_by_hand():
    action = ["x"] * 10 + ["y"] * 12 + [""] * 3
    action[16] = "N/A"
    subtask = ["s"] * 8 + ["t"] * 17
    t = W.window_table(action, subtask, window=10, stride=5)
    assert t["start_frame"].tolist() == [0, 5, 10, 15]
    assert t["end_frame"].tolist() == [9, 14, 19, 24] and t["center_frame"].tolist() == [4, 9, 14, 19]
    # window 1 = 5 x + 5 y: a tie at 0.5 < 0.6 → no label; window 3 = 6 y, 1 "N/A", 3 "" → y at 1.0
    assert t["action_label"].tolist() == ["x", "", "y", "y"]
    assert t["action_fraction"].tolist() == [1.0, 0.5, 1.0, 1.0]
    # subtask window 0 = 8 s + 2 t → s at 0.8; window 1 = 3 s + 7 t → t at 0.7
    assert t["subtask_label"].tolist() == ["s", "t", "t", "t"] and t["subtask_fraction"].tolist()[:2] == [0.8, 0.7]
    assert list(t.columns) == ["window_index", "start_frame", "end_frame", "center_frame", "action_label",
                               "action_fraction", "subtask_label", "subtask_fraction"]


def test_split_point_python_rounding():
    sizes = {1161: 813, 1144: 801, 1147: 803, 1159: 811, 2320: 1624, 2306: 1614}  # spec §4
    assert {n: W.split_point(n) for n in sizes} == sizes
    assert W.split_point(5) == 4  # 3.5 → 4 (even)
    assert W.split_point(15) == 10  # 10.5 → 10: banker's rounding
    assert W.split_point(2) == 1 and W.split_point(3) == 2
    with pytest.raises(RobotaskError):
        W.split_point(1)


def test_chronological_split_and_gap():
    train, test = W.chronological_split(10)
    assert train.tolist() == list(range(7)) and test.tolist() == [7, 8, 9]
    train, test = W.chronological_split(10, gap=2)
    assert train.tolist() == list(range(7)) and test.tolist() == [9]
    with pytest.raises(RobotaskError, match="no test"):
        W.chronological_split(10, gap=3)


def test_block_columns_groups():
    m = layout.make_manifest()
    sizes = {g: len(W.group_columns(m, g)) for g in W.BLOCK_GROUPS}
    assert sizes == {"all": 8546, "no_contacts_text": 8546 - 147 - 896, "no_text": 7650, "motion": 2415,
                     "visual": 5096, "text": 896}
    cols = W.block_columns(m, include=["camera_"])
    assert cols.tolist() == list(range(2121, 2205))
    with pytest.raises(RobotaskError, match="matches no block"):
        W.block_columns(m, include=["lidar"])


def test_label_coverage_by_hand():
    assert W.label_coverage(["a", "b", ""], ["a", "c", "", "b", "c"]) == 0.5
    t = W.window_table(["a"] * 40 + ["b"] * 30 + ["a"] * 30, ["s"] * 100, window=10, stride=10)
    cov = W.split_coverage(t, "action_label")
    # 10 windows a a a a b b b | a a a → train 7 (a, b), test 3 all "a"
    assert cov["n_train"] == 7 and cov["coverage"] == 1.0 and cov["unseen_test_classes"] == []
