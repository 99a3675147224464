"""The short data-dependent phrases of the episode chapters 10–13 say what the numbers say."""

import numpy as np
import pandas as pd
import pytest

from robotask.episode.report import figures_episode, figures_windows, phrases


def test_episode_kind_names_synthetic_settings_or_the_real_recording():
    text = phrases.episode_kind(True, "sample-like", 3, 64)
    assert "synthetic" in text and "sample-like" in text and "seed 3" in text and "64-pixel" in text
    assert "not the real" in text
    assert phrases.episode_kind(False) == "the real recording read from episode_dir"


def test_frame_range():
    assert phrases.frame_range(0, 200) == "frames 0–199" and phrases.frame_range(5, 6) == "frame 5"


@pytest.mark.parametrize("share, words", [(1.0, "every window"), (0.0, "no window"), (0.4, "can be learned")])
def test_contact_label_says_whether_the_label_varies(share, words):
    assert words in phrases.contact_label(share)


@pytest.mark.parametrize("a, b, hib, verdict", [
    (0.20, 0.10, True, "better"), (0.10, 0.20, True, "worse"), (0.10, 0.20, False, "better"),
    (0.1004, 0.1001, True, "tied"), (0.01049, 0.0104, True, "tied"),
])
def test_compare_judges_the_printed_values(a, b, hib, verdict):
    assert phrases.compare(a, b, hib) == verdict


def test_verdict_speaks_of_error_when_lower_is_better():
    assert phrases.verdict(0.3, 0.1, True) == "beats"
    assert phrases.verdict(0.05, 0.1, True) == "falls below"
    assert phrases.verdict(0.035, 0.024, False) == "has a larger error than"
    assert phrases.verdict(0.020, 0.024, False) == "has a smaller error than"
    assert phrases.verdict(0.1001, 0.1, True) == "ties with"
    assert phrases.verdict(None, 0.1, True) == "is not scored against"


def test_change_shows_both_values_and_the_direction():
    assert phrases.change(0.016, 0.010, False) == "0.016 → 0.010 (better)"
    assert phrases.change(0.5, 0.4, True) == "0.500 → 0.400 (worse)"
    assert phrases.change(-0.2, -0.2, True) == "−0.200 → −0.200 (unchanged)"
    assert phrases.change(None, 0.4, True) == "–"


@pytest.mark.parametrize("k, n, text", [
    (9, 12, "9 of the 12 tasks"), (12, 12, "all 12 tasks"), (0, 12, "none of the 12 tasks"),
    (1, 1, "the one task"), (0, 1, "not the one task"),
])
def test_of_tasks(k, n, text):
    assert phrases.of_tasks(k, n) == text


def test_depth_summary_measures_the_valid_pixels():
    depth = np.array([[0.0, 1.0], [2.0, 3.0]])
    conf = np.array([[0, 255], [255, 0]])
    d = figures_episode.depth_summary(depth, conf)
    assert d["valid_pct"] == 75.0 and d["median_m"] == 2.0 and d["confidence"] == pytest.approx(2 / 3)
    assert np.isnan(figures_episode.depth_summary(np.zeros((2, 2)), conf)["median_m"])
    assert figures_episode.depth_summary(None, None)["valid_pct"] == 0.0


def test_spread_counts_and_labelled_windows():
    x = np.array([[1.0, 0.0, 0.0, 5.0], [1.0, 1e-4, 1e-8, 6.0], [1.0, 0.0, 0.0, 7.0]])
    assert figures_windows.spread_counts(x) == (2, 1)  # columns 0 and 2 have no spread; column 1 a tiny one
    w = pd.DataFrame({"action_label": ["a", "", "b", "b"], "subtask_label": ["s", "s", "", "t"]})
    assert figures_windows.labelled_windows(w) == {"action_label": 3, "subtask_label": 3}


def test_coverage_display_in_percent_with_headers():
    cov = pd.DataFrame({"episode": ["repeating"], "labels": ["action"], "test windows": [10],
                        "seen in training": [6], "coverage": [0.6], "unseen classes": [2]})
    shown = figures_windows.coverage_display(cov)
    assert list(shown.columns) == list(figures_windows.COVERAGE_HEADERS.values())
    assert shown["Coverage (%)"].tolist() == [60.0]


def test_baseline_label_and_hand_gap():
    assert phrases.baseline_label("zero velocity (last observed pose)") == "zero velocity, last observed pose"
    assert "ridge's, not" in phrases.hand_gap(25.0, 1.2)
    assert "only part" in phrases.hand_gap(25.0, 10.0)


def test_label_words_count_with_nouns_and_percent():
    stats = {"action_classes": 6, "action_runs": 7, "action_max_runs_per_class": 2, "action_mean_run_frames": 28.0,
             "subtask_classes": 1, "subtask_runs": 1, "objects_vocabulary": 6, "objects_per_frame": 3.0,
             "seen_test_action_share": 0.75, "hand_contact_window_share": 0.378}
    w = figures_episode.label_words(stats, 20.0)
    assert w["action_classes"] == "6 action classes" and w["subtask_classes"] == "1 subtask class"
    assert w["subtask_runs"] == "1 run" and w["max_runs"] == "2 runs" and w["run_seconds"] == 1.4
    assert w["seen_test_action_share"] == 75.0 and w["hand_contact_window_share"] == pytest.approx(37.8)


def test_moves_compares_the_printed_values():
    assert phrases.moves(0.0, 0.0) == "stays at 0.000"
    assert phrases.moves(0.0159, 0.0099) == "moves from 0.016 to 0.010"
    assert phrases.moves(None, 0.1) == "cannot be compared"
