"""The short data-dependent phrases of the episode chapters 10–13 say what the numbers say."""

import numpy as np
import pandas as pd
import pytest

from robotask.episode.report import figures_episode, figures_windows, phrases


def test_episode_kind_names_the_schedule_or_the_real_recording():
    assert phrases.episode_kind(True, "sample-like") == "synthetic (sample-like schedule)"
    assert phrases.episode_kind(False) == "real"


def test_frame_range():
    assert phrases.frame_range(0, 200) == "frames 0–199" and phrases.frame_range(5, 6) == "frame 5"


@pytest.mark.parametrize("share, words", [(1.0, "every window"), (0.0, "no window"), (0.4, "can be learned")])
def test_contact_label_says_whether_the_label_varies(share, words):
    assert words in phrases.contact_label(share)


def test_signed_interval_shows_the_difference_and_its_bounds():
    assert phrases.signed_interval(0.12, 0.05, 0.19) == "+0.120 (+0.050 to +0.190)"
    assert phrases.signed_interval(-0.2, -0.3, -0.1) == "−0.200 (−0.300 to −0.100)"
    inf = float("inf")
    assert phrases.signed_interval(0.1, -inf, inf) == "+0.100 (no interval: too few test samples)"
    assert phrases.signed_interval(float("nan"), 0, 0) == "–"
    # at most 4 significant digits at the size of the largest (issue 50: "−326.397 (−939.858–−2.531)")
    assert phrases.signed_interval(-326.397, -939.858, -2.531) == "−326.4 (−939.9 to −2.5)"
    assert phrases.signed_interval(-1596867.82, -2e6, -1e6) == "−1.597 × 10⁶ (−2.000 × 10⁶ to −1.000 × 10⁶)"


def test_readable_numbers_keep_four_significant_digits_and_a_true_minus():
    assert phrases.readable(-1596867.82) == "−1.597 × 10⁶"
    assert phrases.readable(-0.0153) == "−0.015" and phrases.readable(1234.5) == "1,234"
    assert phrases.readable(12.3456) == "12.35" and phrases.readable(None) == "–"


def test_pair_leaders_count_each_heads_verdicts_on_the_pair_tasks():
    words = {"temporal_order": {"minimal": "not resolved", "mlp": "ahead"},
             "misalignment_detection": {"minimal": "behind", "mlp": "ahead"}}
    assert phrases.pair_leaders(words) == "the minimal head on 0 of 2 and the MLP on 2 of 2"
    assert phrases.pair_leaders({"temporal_order": {"minimal": "ahead"}}) == "the minimal head on 1 of 1"
    assert phrases.pair_leaders({}) == "no pair task ran"


def test_not_run_names_the_one_class_or_the_reason():
    assert phrases.not_run("degenerate", "one class", {"contact": 1161, "no_contact": 0}) == (
        "one class only (all 1,161 samples contact)")
    assert phrases.not_run("skipped", "no hands") == "skipped: no hands"


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


def test_spread_counts_separate_no_spread_from_a_tiny_one():
    x = np.array([[1.0, 0.0, 0.0, 5.0], [1.0, 1e-4, 1e-8, 6.0], [1.0, 0.0, 0.0, 7.0]])
    assert figures_windows.spread_counts(x) == (2, 1)  # columns 0 and 2 have no spread; column 1 a tiny one


def test_coverage_display_in_percent_with_headers():
    cov = pd.DataFrame({"episode": ["repeating"], "labels": ["action"], "test windows": [10],
                        "seen in training": [6], "coverage": [0.6], "unseen classes": [2]})
    shown = figures_windows.coverage_display(cov)
    assert list(shown.columns) == list(figures_windows.COVERAGE_HEADERS.values())
    assert shown["Coverage (%)"].tolist() == [60.0]


def test_label_values_count_with_nouns_and_percent():
    stats = {"action_classes": 6, "action_runs": 7, "action_max_runs_per_class": 2, "action_mean_run_frames": 28.0,
             "subtask_classes": 1, "subtask_runs": 1, "objects_vocabulary": 6, "objects_per_frame": 3.0,
             "seen_test_action_share": 0.75, "hand_contact_window_share": 0.378}
    w = figures_episode.label_values(stats, 20.0)
    assert w["action_classes"] == "6 action classes" and w["subtask_classes"] == "1 subtask class"
    assert w["subtask_runs"] == "1 run" and w["max_runs"] == "2 runs" and w["run_seconds"] == 1.4
    assert w["seen_test_action_share"] == 75.0 and w["hand_contact_window_share"] == pytest.approx(37.8)


def test_moves_compares_the_printed_values():
    assert phrases.moves(0.0, 0.0) == "stays at 0.000"
    assert phrases.moves(0.0159, 0.0099) == "moves from 0.016 to 0.010"
    assert phrases.moves(None, 0.1) == "cannot be compared"


def test_a_protocol_that_did_not_run_is_said_so_never_filled_with_dashes():
    assert phrases.scores_phrase(None, "", {}, "one class only (all 37 samples contact)") == (
        "the task did not run: one class only (all 37 samples contact)")
    text = phrases.scores_phrase(348, "majority class", {"baseline": 0.0, "minimal": 0.764, "mlp": None}, None)
    assert text == ("on 348 test samples the trivial baseline (majority class) scores 0.000, the minimal head "
                    "0.764 and the MLP was left out")
    assert phrases.verdicts_phrase(None, {}, "degenerate") == "there is no verdict: the task did not run"
    words = {"minimal": ("not resolved", "−0.037 (−0.101 to +0.108)"), "mlp": ("ahead", "+0.063 (+0.004 to +0.212)")}
    assert phrases.verdicts_phrase(("copy the current action", 0.8), words, None) == (
        "against the strongest baseline, copy the current action (0.800), the minimal head's verdict is not "
        "resolved (head − baseline −0.037 (−0.101 to +0.108)) and the MLP's is ahead (+0.063 (+0.004 to +0.212))")
    assert "–" not in phrases.verdicts_phrase(("x", 0.5), {"minimal": words["minimal"]}, None)
