"""The sentences of the collection chapter (14) say what their numbers say."""

import re

import numpy as np
import pandas as pd
import pytest

from robotask.episode.report import sentences_collection as S
from robotask.episode.tasks.registry import TASKS

NAME = {t: spec.display_name for t, spec in TASKS.items()}


def _plain(text):
    """No Python reprs, no "(s)" plurals, no float counts like "3.0 episodes"."""
    assert "(s)" not in text and "True" not in text and "False" not in text and "nan" not in text
    assert not re.search(r"\[|\]|\{'|\d\.0 (episode|task|window|worker|class)", text), text


# ------------------------------------------------------------------ helpers
def test_helpers_count_and_agree():
    assert S.share(0.613) == "61.3 %"
    assert S.agree(1, "has", "have") == "has" and S.agree(0, "has", "have") == "have"
    assert S.small(2) == "two" and S.small(12) == "12"


@pytest.mark.parametrize("k, n, text", [
    (9, 11, "9 of the 11 tasks"), (3, 3, "all 3 tasks"), (2, 2, "both tasks"),
    (0, 4, "none of the 4 tasks"), (1, 1, "the one task"), (0, 1, "no task"), (0, 0, "no task"),
])
def test_of_tasks(k, n, text):
    assert S.of_tasks(k, n) == text


# ------------------------------------------------------------------ chapter 14
def test_collection_sentence_counts_episodes_and_failures():
    eps = pd.DataFrame({"subject": ["s0", "s1", "s0"], "scene": ["k", "k", "k"]})
    none = S.collection_sentence(eps, pd.DataFrame({"episode_id": []}), 200)
    assert none == ("The collection holds 3 usable episodes of 200 frames each, from 2 subjects in "
                    "1 scene; no episode failed validation.")
    one = S.collection_sentence(eps.iloc[:1], pd.DataFrame({"episode_id": ["x"]}), 200)
    assert "1 usable episode of 200 frames, from" in one and "; 1 episode failed validation." in one
    two = S.collection_sentence(eps, pd.DataFrame({"episode_id": ["x", "y"]}), 200)
    assert two.endswith("; 2 episodes failed validation.")


PROJECTION = {"per_episode_s": 51.3, "worker_hours": 172.6, "cluster_workers": 256,
              "cluster_hours": 0.674, "episodes": 12103, "full_frames": 5821}


def test_scaling_sentence_quotes_the_measured_rows():
    scaling = pd.DataFrame({"workers": [1, 2], "wall_s": [9.2, 8.8], "speedup": [1.0, 1.0406],
                            "episode_s": [1.76, 3.6], "peak_mb": [257.1, 259.3]})
    text = S.scaling_sentence(scaling, PROJECTION)
    assert text.startswith("With 2 workers the extraction ran 1.04 times as fast as with one")
    assert "peaked at 259 MiB" in text and "A task took 1.8 s on average" in text
    assert "5,821 frames takes about 51 s" in text and "12,103 episodes" in text
    assert "about 173 worker-hours: about 40 minutes on a cluster of 256 workers" in text
    alone = S.scaling_sentence(scaling.iloc[:1], {**PROJECTION, "cluster_hours": 2.5})
    assert alone.startswith("With 1 worker the extraction took 9.2 s") and "about 2.5 hours" in alone
    _plain(text + alone)


CURVE = pd.DataFrame({
    "n_train": [1, 1, 1, 1, 2, 2, 2, 2],
    "task": ["timeline_action", "hand_trajectory_forecast", "contact_prediction", "temporal_order"] * 2,
    "higher_is_better": [True, False, True, True] * 2,
    "minimal": [0.1, 0.5, np.nan, 0.6, 0.3, 0.4, np.nan, 0.5],
})


def test_learning_gains_respect_the_metric_direction():
    gains = S.learning_gains(CURVE, [1, 2])
    assert list(gains.index) == ["timeline_action", "hand_trajectory_forecast", "temporal_order"]
    assert gains["timeline_action"] == pytest.approx(0.2)
    assert gains["hand_trajectory_forecast"] == pytest.approx(0.1)  # lower error is a gain
    assert gains["temporal_order"] == pytest.approx(-0.1)
    assert S.improved_tasks(gains) == [NAME["timeline_action"], NAME["hand_trajectory_forecast"]]


def test_learning_curve_sentence_names_the_improved_tasks():
    text = S.learning_curve_sentence(CURVE, [1, 2])
    assert text == (f"From 1 training episode to 2, the minimal head improved on 2 of the 3 tasks "
                    f"that ran: {NAME['timeline_action']} and {NAME['hand_trajectory_forecast']}.")
    worse = CURVE.assign(minimal=[0.3, 0.4, np.nan, 0.6, 0.1, 0.5, np.nan, 0.5])
    assert S.learning_curve_sentence(worse, [1, 2]).endswith("improved on none of the 3 tasks that ran.")
    assert "no learning curve" in S.learning_curve_sentence(CURVE, [1])


def _comparison(rows):
    return pd.DataFrame(rows, columns=["task", "head", "higher_is_better", "unseen", "unseen_baseline",
                                       "chronological", "chronological_baseline"])


COMPARISON = _comparison([
    ("timeline_action", "minimal", True, 0.4, 0.1, 0.5, 0.1),  # wins under both splits
    ("timeline_action", "mlp", True, 0.0, 0.1, 0.0, 0.1),  # another head: ignored
    ("hand_trajectory_forecast", "minimal", False, 0.2, 0.3, 0.5, 0.3),  # wins unseen only
    ("temporal_order", "minimal", True, 0.5, 0.6, 0.7, 0.6),  # wins chronologically only
    ("contact_prediction", "minimal", True, np.nan, np.nan, np.nan, np.nan),  # did not run
])


def test_unseen_winners_and_unseen_only():
    assert S.unseen_winners(COMPARISON) == [NAME["timeline_action"], NAME["hand_trajectory_forecast"]]
    assert S.unseen_only(COMPARISON) == [NAME["hand_trajectory_forecast"]]
    assert S.unseen_winners(COMPARISON, "mlp") == []


def test_split_sentence_agrees_with_the_winners():
    text = S.split_sentence(COMPARISON)
    assert text.startswith(f"On unseen episodes the minimal head beats the baseline on 2 of the 3 "
                           f"tasks that ran under both splits: {NAME['timeline_action']} and "
                           f"{NAME['hand_trajectory_forecast']}.")
    assert f" {NAME['hand_trajectory_forecast']} beats it on unseen episodes but not under" in text
    assert "it only looked weak" in text
    both = S.split_sentence(COMPARISON.iloc[[0, 3, 4]])
    assert both.endswith(f"the 2 tasks that ran under both splits: {NAME['timeline_action']}. "
                         "That task also beats it under the chronological split.")
    none = S.split_sentence(COMPARISON.iloc[[3]])
    assert none == ("On unseen episodes the minimal head beats the baseline on no task that ran "
                    "under both splits.")


def _coverage(action, subtask):
    rows = [(n, "action", a) for n, a in zip((1, 2, 4), action)]
    rows += [(n, "subtask", s) for n, s in zip((1, 2, 4), subtask)]
    return pd.DataFrame(rows, columns=["n_train", "label", "coverage"])


def test_label_ceiling_sentence_reads_the_first_and_last_sizes():
    text = S.label_ceiling_sentence(_coverage([0.0, 0.05, 0.078125], [0.0, 0.1, 0.157]))
    assert text == ("With 1 training episode the action-label ceiling is 0.0 %; with 4 training "
                    "episodes it is 7.8 % (subtasks: 0.0 % to 15.7 %).")
    one = S.label_ceiling_sentence(_coverage([0.5], [0.25]))
    assert one == "With 1 training episode the action-label ceiling is 50.0 % (subtasks: 25.0 %)."


@pytest.mark.parametrize("action, words", [
    ([0.0, 0.05, 0.078], "raise the action-label ceiling from 0.0 % to 7.8 %"),
    ([0.5, 0.4, 0.3], "lower the action-label ceiling from 50.0 % to 30.0 %"),
    ([0.5, 0.6, 0.50001], "leave the action-label ceiling at 50.0 %"),
])
def test_collection_findings_state_the_ceiling_direction(action, words):
    text = S.collection_findings(4, COMPARISON, _coverage(action, [0.1, 0.2, 0.3]))
    assert text.startswith("In a collection of 4 episodes, 2 tasks beat the baseline on unseen episodes")
    assert words in text
    _plain(text)


def test_collection_findings_agree_in_number():
    one = S.collection_findings(1, COMPARISON.iloc[[0]], _coverage([0.1], [0.1]))
    assert one.startswith("In a collection of 1 episode, 1 task beats the baseline")
    none = S.collection_findings(3, COMPARISON.iloc[[3]], _coverage([0.1, 0.2, 0.3], [0.1] * 3))
    assert "no task beats the baseline" in none


def _scaling(speedup: float) -> pd.DataFrame:
    return pd.DataFrame({"workers": [1, 2], "wall_s": [9.0, 9.0 / speedup], "speedup": [1.0, speedup],
                         "episode_s": [1.0, 2.0], "peak_mb": [250.0, 251.0]})


def test_findings_quote_the_measured_speedup_not_a_promise():
    slow = S.collection_findings(4, COMPARISON, _coverage([0.1, 0.2, 0.3], [0.1] * 3), _scaling(0.8026))
    assert "scales with workers" not in slow
    assert "with 2 workers it did not run faster than with one (speed-up 0.80)" in slow
    assert "shared with other work" in slow
    fast = S.collection_findings(4, COMPARISON, _coverage([0.1, 0.2, 0.3], [0.1] * 3), _scaling(1.7))
    assert "with 2 workers it ran 1.70 times as fast as with one" in fast and "shared" not in fast
    unmeasured = S.scaling_verdict(None)
    assert "not measured" in unmeasured
    _plain(slow + fast)


def test_not_run_sentence_names_the_task_and_the_reason():
    text = S.not_run_sentence({"contact_prediction": {
        "status": "degenerate", "class_counts": {"no contact": 0, "contact": 120},
        "train_class_counts": {"no contact": 0, "contact": 80}}})
    assert text.startswith("**Contact") and "shows dashes" in text
    assert "all 120 samples are *contact*" in text and "holds only *contact*" in text
    assert S.not_run_sentence({}) == ""


def test_comparison_table_uses_titles_and_metric_names():
    from robotask.episode.collection import study as cs
    from robotask.episode.tasks.registry import TASKS

    shown = cs.comparison_table(COMPARISON.assign(metric="macro_f1"))
    assert "higher_is_better" not in shown
    assert set(shown["task"]) <= {t.display_name for t in TASKS.values()}
    assert not shown["metric"].str.contains("_").any()
    absent = pd.DataFrame({"episode_id": ["a", "b"], "absent": ["", "cloth|kettle"]})
    assert list(cs.factor_table(absent, ["episode_id", "absent"])["absent"]) == ["none", "cloth, kettle"]
