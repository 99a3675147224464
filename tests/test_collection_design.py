"""Chapter 14's design (folds, shifts, curves), its tables and its phrases, on small hand-made inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.book import chapters, scheduling
from robotask.episode.unseen import design, phrases, tables
from robotask.episode.unseen.cli import fold_means, fold_rows
from robotask.errors import RobotaskError

EPISODES = pd.DataFrame({"episode_id": [f"ep{i}" for i in range(10)],
                         "subject": ["S0", "S1", "S2", "S0", "S1", "S2", "S0", "S1", "S0", "S0"],
                         "scene": ["K0", "K1"] * 5})


def test_cv_folds_test_every_episode_once_under_each_protocol():
    cv = design.cv_settings(EPISODES, 5, ["original", "improved"], ["improved"])
    assert len(cv) == 10 and {s.heads for s in cv if s.protocol == "improved"} == {"minimal,mlp"}
    tested = [e for s in cv if s.protocol == "original" for e in s.split.test]
    assert sorted(tested) == sorted(EPISODES["episode_id"])
    assert all(not set(s.split.train) & set(s.split.test) for s in cv)


def test_shift_folds_hold_out_one_group_and_random_folds_match_their_sizes():
    settings = design.shift_settings(EPISODES, ["subject"], "improved", seed=0)
    held = [s for s in settings if s.study == "group"]
    rand = [s for s in settings if s.study == "random"]
    assert [s.labels["held_out"] for s in held] == ["S0", "S1", "S2"]
    assert sorted(len(s.split.test) for s in held) == sorted(len(s.split.test) for s in rand) == [2, 3, 5]
    for s in held:  # no episode of the held-out subject trains
        subj = set(EPISODES.set_index("episode_id").loc[list(s.split.train), "subject"])
        assert s.labels["held_out"] not in subj
    with pytest.raises(RobotaskError, match="not a manifest column"):
        design.shift_settings(EPISODES, ["camera"], "improved", 0)


def test_random_folds_partition_the_episodes():
    folds = design.random_folds_like([f"e{i}" for i in range(6)], [1, 2, 3], seed=4)
    assert [len(f) for f in folds] == [1, 2, 3] and len(set().union(*folds)) == 6
    with pytest.raises(RobotaskError, match="sum to"):
        design.random_folds_like(["a", "b"], [1], 0)


def test_curve_points_are_nested_per_draw_and_test_on_the_draws_fold():
    cv = design.cv_settings(EPISODES, 5, ["improved"], [])
    points = design.curve_settings(cv, 3, seed=1)
    assert sorted({p.labels["n_train"] for p in points}) == [1, 2, 4, 8]
    for d in range(3):
        mine = [p for p in points if p.labels["draw"] == d]
        assert all(p.split.test == cv[d].split.test for p in mine)
        trains = [set(p.split.train) for p in sorted(mine, key=lambda p: p.labels["n_train"])]
        assert all(a <= b for a, b in zip(trains, trains[1:]))
    with pytest.raises(RobotaskError, match="at most"):
        design.curve_settings(cv, 6, 0)


def _results() -> pd.DataFrame:
    """Two folds of one task (macro-F1) and the hand forecast (MPJPE, lower is better)."""
    rows = []
    for fold, (m, b, e, eb) in enumerate([(0.6, 0.5, 0.05, 0.04), (0.4, 0.45, 0.03, 0.04)]):
        for task, metric, hib, vals in (("timeline_action", "macro_f1", True, (m, b)),
                                        ("hand_trajectory_forecast", "mpjpe", False, (e, eb))):
            for head, v in zip(("minimal", "baseline"), vals):
                rows.append({"study": "cv", "protocol": "improved", "fold": fold, "task": task, "metric": metric,
                             "higher_is_better": hib, "head": head, "value": v, "status": "ok", "reason": ""})
    return pd.DataFrame(rows)


def test_fold_summary_gives_mean_sd_and_folds_won_in_the_metrics_sense():
    s = tables.fold_summary(_results()).set_index(["task", "head"])
    assert s.loc[("timeline_action", "minimal"), "mean"] == pytest.approx(0.5)
    assert s.loc[("timeline_action", "minimal"), "sd"] == pytest.approx(np.std([0.6, 0.4], ddof=1))
    assert s.loc[("timeline_action", "minimal"), "wins"] == 1
    assert s.loc[("hand_trajectory_forecast", "minimal"), "wins"] == 1  # 0.03 < 0.04 wins, 0.05 does not


def test_drop_is_positive_when_unseen_is_worse_for_scores_and_errors():
    res = _results()
    chrono = res[res["fold"] == 0].assign(study="chronological", value=[0.9, 0.5, 0.01, 0.04])
    d = tables.chronological_drop(pd.concat([res, chrono]), tables.fold_summary(res), "improved").set_index("task")
    assert d.loc["timeline_action", "drop"] == pytest.approx(0.4)
    assert d.loc["hand_trajectory_forecast", "drop"] == pytest.approx(0.03)


def test_episodes_needed_is_where_the_head_stays_ahead():
    curve = pd.DataFrame({"task": "timeline_action", "head": ["minimal"] * 3 + ["baseline"] * 3,
                          "n_train": [1, 2, 4] * 2, "mean": [0.3, 0.6, 0.7, 0.5, 0.5, 0.5]})
    assert tables.episodes_needed(curve, "timeline_action") == 2
    behind = curve.assign(mean=[0.6, 0.4, 0.7, 0.5, 0.5, 0.5])
    assert tables.episodes_needed(behind, "timeline_action") == 4
    never = curve.assign(mean=[0.6, 0.6, 0.4, 0.5, 0.5, 0.5])
    assert tables.episodes_needed(never, "timeline_action") is None


def test_hurt_tasks_need_a_drop_beyond_the_random_spread():
    shifts = pd.DataFrame({"task": ["a", "b", "c"], "shift": "subject", "drop": [0.2, 0.05, np.nan],
                           "random_sd": [0.1, 0.1, 0.1]})
    assert tables.hurt_tasks(shifts, "subject") == ["a"] and tables.hurt_tasks(shifts, "scene") == []


def test_curve_shape_reads_the_whole_curve():
    assert phrases.curve_shape([0.5, 0.505, 0.51], True, 0.02) == "flat"
    assert phrases.curve_shape([0.3, 0.5, 0.7], True, 0.02) == "improves throughout"
    assert phrases.curve_shape([0.3, 0.6, 0.61], True, 0.02) == "improves, then levels off"
    assert phrases.curve_shape([0.3, 0.7, 0.5], True, 0.02) == "improves, then worsens"
    assert phrases.curve_shape([0.6, 0.3, 0.5], True, 0.02) == "worsens, then improves"
    assert phrases.curve_shape([0.7, 0.5, 0.3], True, 0.02) == "worsens throughout"
    assert phrases.curve_shape([0.09, 0.07, 0.05], False, 0.002) == "improves throughout"  # an error falling
    assert phrases.curve_shape([0.5], True, 0.02) == "not measured"


def test_short_phrases():
    assert phrases.task_list([]) == "no task"
    assert phrases.task_list(["timeline_action", "next_action"]) == "Action Recognition and Next-Action Prediction"
    assert phrases.folds_won(5, 5) == "on every one of the 5 folds"
    assert phrases.folds_won(0, 5) == "on no fold" and phrases.folds_won(3, 5) == "on 3 of 5 folds"
    assert phrases.needed(None, 16) == "more than the 16 tried" and phrases.needed(1, 16) == "1 episode"
    assert phrases.speedup_phrase(1.0, 2) == "no faster with 2 workers than with one"
    assert phrases.speedup_phrase(1.7, 2) == "1.70 times as fast with 2 workers as with one"
    assert tables.pm(0.5, 0.1) == "0.500 ± 0.100" and tables.pm(float("nan"), 0.1) == "—"


def test_cli_fold_table_and_means():
    report = {"heads": ["minimal"], "primary": {"timeline_action": {"metric": "macro_f1", "baseline": 0.5,
                                                                    "minimal": 0.7}}}
    rows = fold_rows("fold0", report, "improved") + fold_rows("fold1", {**report, "primary": {
        "timeline_action": {"metric": "macro_f1", "baseline": 0.5, "minimal": 0.5}}}, "improved")
    means = fold_means(pd.DataFrame(rows)).set_index("head")
    assert means.loc["minimal", "mean"] == pytest.approx(0.6) and means.loc["minimal", "folds"] == 2


def test_the_timing_chapter_runs_beside_the_others_and_times_once_they_are_done(tmp_path, monkeypatch):
    planned = [(c, {}) for c in chapters.CHAPTERS]
    independent, later = scheduling.split_readers(planned)
    assert "14_collections" in [c.id for c, _ in independent]
    assert {c.id for c, _ in later} == set(chapters.READERS)
    monkeypatch.delenv(scheduling.ALONE_MARK, raising=False)
    assert scheduling.wait_until_alone() is False  # run on its own: no wait
    mark = tmp_path / ".alone"
    monkeypatch.setenv(scheduling.ALONE_MARK, str(mark))
    import threading
    import time

    threading.Timer(0.3, mark.touch).start()  # the runner: the other chapters have finished
    start = time.monotonic()
    assert scheduling.wait_until_alone(poll=0.05) is True and time.monotonic() - start >= 0.25
    assert scheduling.waited_seconds(mark) >= 0.25  # the runner takes the wait off the chapter's time
    assert scheduling.waited_seconds(mark) == 0.0  # read once, then gone


def test_ceiling_and_runs_phrases():
    assert phrases.ceiling_phrase(95.0).endswith("not what limits the label tasks")
    assert phrases.ceiling_phrase(60.0).startswith("so on some folds the ceiling caps")
    assert phrases.runs_phrase(5, 5) == "runs on every fold" and phrases.runs_phrase(0, 5) == "runs on no fold"
    assert phrases.runs_phrase(2, 5) == "runs on 2 of 5 folds"


def test_still_improving_reads_the_last_doubling():
    from robotask.episode.unseen.values import still_improving

    curve = pd.DataFrame({"task": ["a"] * 3 + ["b"] * 3, "head": "minimal", "n_train": [1, 2, 4] * 2,
                          "mean": [0.1, 0.3, 0.5, 0.1, 0.5, 0.505], "higher_is_better": True, "metric": "f1"})
    assert still_improving(curve) == ["a"]


def test_a_run_builds_each_episode_task_once_keyed_on_the_episode_not_the_object(monkeypatch):
    """BuiltTasks: one build per (task, episode, folder, options, protocol), whatever WindowSet object carries it;
    an episode of the same id in another folder is another entry; a new run starts empty."""
    from types import SimpleNamespace

    from robotask.episode.features import FeatureOptions
    from robotask.episode.tasks import TASKS, get_protocol
    from robotask.episode.unseen.task_data import BuiltTasks

    calls = []
    monkeypatch.setitem(TASKS, "probe", SimpleNamespace(build=lambda ws, p: calls.append(ws.episode.path) or ws))

    def ws(path):
        return SimpleNamespace(episode=SimpleNamespace(path=path), options=FeatureOptions())

    run, proto = BuiltTasks(), get_protocol("improved")
    first = run.task_data("probe", "ep0", ws("/c/ep0"), proto)
    assert run.task_data("probe", "ep0", ws("/c/ep0"), proto) is first  # a new object of the same episode
    run.task_data("probe", "ep0", ws("/other/ep0"), proto)
    assert calls == ["/c/ep0", "/other/ep0"] and len(run.built) == 2
    assert BuiltTasks().built == {}


def test_subjects_are_crossed_with_scenes_none_confounded():
    from robotask.episode.synthesis.varied import N_SCENES, N_SUBJECTS, episode_factors

    f = pd.DataFrame([episode_factors(0, i) for i in range(48)])
    cells = pd.crosstab(f["subject"], f["scene"])
    assert cells.shape == (N_SUBJECTS, N_SCENES) == (8, 4)
    assert (cells >= 1).all().all() and set(cells.to_numpy().ravel()) == {1, 2}  # every subject in every scene
    assert (f["subject"].value_counts() == 6).all() and (f["scene"].value_counts() == 12).all()
    first = pd.crosstab(f["subject"][:32], f["scene"][:32])
    assert (first == 1).all().all()  # 32 episodes: each cell once
