"""Chapter 14's design (folds, shifts, curves), its tables and its phrases, on small hand-made inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.book import chapters, scheduling
from robotask.episode.unseen import comparisons, design, phrases, tables, values
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


def test_curve_draws_are_their_own_random_splits_nested_within_a_draw():
    points = design.curve_settings(EPISODES, 2, 7, "improved", seed=1)  # more draws than a 5-fold split has folds
    assert sorted({p.labels["n_train"] for p in points}) == [1, 2, 4, 8]
    tests = set()
    for d in range(7):
        mine = sorted((p for p in points if p.labels["draw"] == d), key=lambda p: p.labels["n_train"])
        assert len({p.split.test for p in mine}) == 1 and len(mine[0].split.test) == 2
        tests.add(mine[0].split.test)
        trains = [set(p.split.train) for p in mine]
        assert all(a <= b for a, b in zip(trains, trains[1:])) and not trains[-1] & set(mine[0].split.test)
    assert len(tests) > 1  # draws hold out different episodes
    with pytest.raises(RobotaskError, match="test size"):
        design.curve_settings(EPISODES, 10, 2, "improved", 0)


def test_chronological_settings_pair_with_the_folds():
    cv = design.cv_settings(EPISODES, 5, ["improved"], [])
    chrono = design.chronological_settings(cv)
    assert [c.labels["fold"] for c in chrono] == [s.labels["fold"] for s in cv]
    assert all(c.chronological and c.split.train == s.split.test for c, s in zip(chrono, cv))


def test_shift_groups_pair_with_random_folds_of_their_size_over_draws():
    settings = design.shift_settings(EPISODES, ["subject"], "improved", seed=0, draws=3)
    held = {s.labels["fold"]: s for s in settings if s.study == "group"}
    rand = [s for s in settings if s.study == "random"]
    assert len(rand) == 9 and {s.labels["draw"] for s in rand} == {0, 1, 2}
    assert all(len(r.split.test) == len(held[r.labels["fold"]].split.test) for r in rand)
    small = design.shift_settings(EPISODES, ["subject"], "improved", seed=0, train_size=4)
    assert {len(s.split.train) for s in small} == {4}
    assert all(not set(s.split.train) & set(s.split.test) for s in small)


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
    s = comparisons.fold_summary(_results()).set_index(["task", "head"])
    assert s.loc[("timeline_action", "minimal"), "mean"] == pytest.approx(0.5)
    assert s.loc[("timeline_action", "minimal"), "sd"] == pytest.approx(np.std([0.6, 0.4], ddof=1))
    assert s.loc[("timeline_action", "minimal"), "wins"] == 1
    assert s.loc[("hand_trajectory_forecast", "minimal"), "wins"] == 1  # 0.03 < 0.04 wins, 0.05 does not
    # won one fold of two: the mean gain (+0.025) is inside its interval over two folds, so no verdict
    assert s.loc[("timeline_action", "minimal"), "diff"] == pytest.approx(0.025)
    assert s.loc[("timeline_action", "minimal"), "verdict"] == "not resolved"


def _folds(task: str, hib: bool, study: str, head: str, values: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"study": study, "protocol": "improved", "fold": range(len(values)), "task": task,
                         "higher_is_better": hib, "head": head, "value": values})


def test_head_beats_the_baseline_only_when_its_interval_over_folds_excludes_zero():
    base = _folds("timeline_action", True, "cv", "baseline", [0.3, 0.31, 0.29, 0.3])
    clear = _folds("timeline_action", True, "cv", "minimal", [0.5, 0.52, 0.49, 0.51])
    s = comparisons.fold_summary(pd.concat([base, clear]).assign(metric="macro_f1"))
    assert s.set_index("head").loc["minimal", "verdict"] == "beats"
    assert comparisons.beaten(s, "improved") == (["timeline_action"], 1)
    err = pd.concat([_folds("hand_trajectory_forecast", False, "cv", h, v) for h, v in
                     (("baseline", [0.04, 0.041, 0.039, 0.04]), ("minimal", [0.05, 0.052, 0.051, 0.05]))])
    e = comparisons.fold_summary(err.assign(metric="mpjpe")).set_index("head")
    assert e.loc["minimal", "verdict"] == "behind" and e.loc["minimal", "diff"] < 0  # a larger error is worse


def test_drop_is_paired_over_folds_and_positive_when_unseen_is_worse():
    res = pd.concat([_folds("timeline_action", True, "matched", "minimal", [0.5, 0.4, 0.45]),
                     _folds("timeline_action", True, "chronological", "minimal", [0.8, 0.72, 0.77]),
                     _folds("hand_trajectory_forecast", False, "matched", "minimal", [0.05, 0.06, 0.055]),
                     _folds("hand_trajectory_forecast", False, "chronological", "minimal", [0.06, 0.05, 0.08])])
    d = comparisons.chronological_drop(res, "improved").set_index("task")
    assert d.loc["timeline_action", "diff"] == pytest.approx(0.94 / 3)
    assert d.loc["timeline_action", "verdict"] == "worse on unseen episodes"
    assert d.loc["hand_trajectory_forecast", "verdict"] == "not resolved"  # the sign flips between folds


def _curve_results(head_values: dict[int, list[float]], base: float = 0.5) -> pd.DataFrame:
    rows = [{"study": "curve", "protocol": "improved", "task": "timeline_action", "n_train": n, "draw": d,
             "head": head, "value": v, "higher_is_better": True, "metric": "macro_f1"}
            for n, vals in head_values.items() for d, hv in enumerate(vals)
            for head, v in (("minimal", hv), ("baseline", base + 0.001 * d))]
    return pd.DataFrame(rows)


def test_ahead_is_read_from_the_draws_not_the_mean():
    # at 2 episodes the mean is ahead (0.6 > 0.5) but one draw dips below the baseline: not resolved
    res = _curve_results({1: [0.3, 0.35, 0.32], 2: [0.9, 0.45, 0.45], 4: [0.7, 0.72, 0.71], 8: [0.8, 0.81, 0.8]})
    curve = comparisons.curve_summary(res)
    at2 = curve[(curve["n_train"] == 2) & (curve["head"] == "minimal")].iloc[0]
    assert at2["mean"] > 0.5 and at2["lo"] < 0.5 and at2["verdict"] == "not resolved"
    assert comparisons.episodes_needed(curve, "timeline_action") == 4
    steps = comparisons.curve_steps(res).set_index("task")
    assert steps.loc["timeline_action", "whole_verdict"] == "improves"
    assert steps.loc["timeline_action", "last_verdict"] == "still improving"
    never = comparisons.curve_summary(_curve_results({1: [0.3, 0.35, 0.32], 2: [0.4, 0.45, 0.41]}))
    assert comparisons.episodes_needed(never, "timeline_action") is None


def test_a_shift_hurts_only_when_its_interval_over_groups_excludes_zero():
    def rows(study, values):
        return _folds("timeline_action", True, study, "minimal", values).assign(shift="subject", metric="macro_f1")

    hurt = comparisons.shift_drop(pd.concat([rows("group", [0.3, 0.32, 0.31, 0.29]),
                                         rows("random", [0.5, 0.5, 0.52, 0.5])]))
    assert hurt["verdict"].iloc[0] == "hurts" and comparisons.hurt_tasks(hurt, "subject") == ["timeline_action"]
    noisy = comparisons.shift_drop(pd.concat([rows("group", [0.3, 0.6, 0.2, 0.7]),
                                          rows("random", [0.5, 0.5, 0.5, 0.5])]))
    assert noisy["verdict"].iloc[0] == "not resolved" and comparisons.hurt_tasks(noisy, "scene") == []


def test_short_phrases():
    assert phrases.task_list([]) == "no task"
    assert phrases.task_list(["timeline_action", "next_action"]) == "Action Recognition and Next-Action Prediction"
    assert phrases.needed(None, 16) == "not ahead at 16" and phrases.needed(1, 16) == "1 episode"
    assert phrases.softmax_epochs_phrase(400, 400) == "the suite's own 400 softmax epochs"
    assert phrases.softmax_epochs_phrase(60, 400) == "60 softmax epochs, fewer than the suite's 400"
    assert phrases.mlp_phrase(80, 80, "") == "not trained"
    assert phrases.mlp_phrase(80, 80, "improved") == ("trained on the improved protocol's folds for the suite's own "
                                                      "80 epochs")
    assert phrases.mlp_phrase(20, 80, "improved") == ("trained on the improved protocol's folds for 20 epochs, "
                                                      "fewer than the suite's 80")
    assert phrases.span_phrase(100.0, 100.0) == "is 100.0 % on every fold"
    assert phrases.span_phrase(92.46, 100.0) == "lies between 92.5 % and 100.0 % across the folds"
    assert phrases.epoch_check_phrase(0, 0) == "this run cut no epochs, so it has no such table"
    assert phrases.epoch_check_phrase(24, 3) == ("3 of the 24 task-and-head results changed by a resolved amount "
                                                 "(the table below)")
    assert phrases.mlp_result("", 0, 0, []) == "Chapters 12 and 13 compare it with the minimal head on single episodes"
    assert phrases.mlp_result("improved", 5, 4, ["temporal_order"]) == (
        "Under the improved protocol it beats the baseline on 5 tasks, the minimal head on 4; only the MLP on "
        "Temporal Order Verification")
    assert phrases.speedup_phrase(1.7, 2).startswith("1.70 times as fast with 2 workers as with one, in a single")
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
    assert {c.id for c, _ in later} == set(chapters.READERS) - set(chapters.AFTER)
    assert "13_suite_summary" in [c.id for c, _ in independent]  # it reads the task pages alone
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


def test_epoch_effect_pairs_the_suites_epochs_with_the_chapters_over_folds():
    cut = pd.concat([_folds("timeline_action", True, "cv", h, v) for h, v in
                     (("minimal", [0.40, 0.42, 0.41, 0.43]), ("baseline", [0.1, 0.1, 0.1, 0.1]))])
    full = cut.assign(value=[0.50, 0.53, 0.50, 0.52, 0.1, 0.1, 0.1, 0.1])
    e = comparisons.epoch_effect(cut, full)
    assert list(e["head"]) == ["minimal"]  # the baseline does not train
    assert e["diff"].iloc[0] == pytest.approx(0.0975) and e["verdict"].iloc[0] == "better"
    same = comparisons.epoch_effect(cut, cut)
    assert same["diff"].iloc[0] == 0 and same["verdict"].iloc[0] == "not resolved"


def test_usable_shifts_and_the_chapters_config():
    eps = EPISODES.assign(camera="C0")
    assert design.usable_shifts(eps, ["scene", "camera", "lighting", "subject"]) == ["scene", "subject"]
    cfg = design.chapter_config(10, 2)
    assert (cfg.softmax_epochs, cfg.mlp.epochs, cfg.save_models) == (10, 2, False)


def test_aligned_shares_read_the_first_chronological_split_and_fold_of_the_protocol(monkeypatch):
    cv = design.cv_settings(EPISODES, 5, ["original", "improved"], [])
    settings = cv + design.chronological_settings(cv)
    seen = []
    monkeypatch.setattr(design, "positive_share", lambda task, sets, s, cfg: seen.append(s) or 0.25)
    shares = design.aligned_share_values({}, settings, "improved", cfg=None)
    assert shares == {"sync_yes_chrono": 25.0, "sync_yes_unseen": 25.0}
    assert [(s.study, s.protocol, s.labels["fold"]) for s in seen] == [("chronological", "improved", 0),
                                                                       ("cv", "improved", 0)]
    assert design.aligned_share_values({}, cv, "improved", cfg=None) == {"sync_yes_unseen": 25.0}


def test_epoch_check_runs_the_chapters_epochs_then_the_suites_on_the_first_episodes(monkeypatch):
    from robotask.episode.files.manifest import Collection

    coll = Collection(root=None, episodes=EPISODES, problems=pd.DataFrame())
    cut = pd.concat([_folds("timeline_action", True, "cv", "minimal", [0.40, 0.42, 0.41])])
    calls = []

    def fake_run(sets, settings, cfg, jobs=1):
        calls.append((sorted(sets), cfg, {e for s in settings for e in s.split.test}))
        return cut if cfg == "cut" else cut.assign(value=[0.5, 0.52, 0.5])

    monkeypatch.setattr(comparisons, "run_settings", fake_run)
    sets = {e: e for e in EPISODES["episode_id"]}
    e = comparisons.epoch_check(coll, sets, episodes=6, folds=3, protocol="improved", mlp_protocols=[], cut="cut",
                           full="full")
    assert [c[1] for c in calls] == ["cut", "full"]
    first = [f"ep{i}" for i in range(6)]
    assert all(c[0] == first and c[2] == set(first) for c in calls)  # the first episodes only, each tested
    assert e["verdict"].iloc[0] == "better"
    assert comparisons.epoch_check(coll, sets, episodes=0, folds=3, protocol="improved", mlp_protocols=[],
                              cut="cut", full="full") is None


def test_run_notes_name_each_false_premise():
    from robotask.episode.unseen import phrases as ph

    assert ph.run_notes(synthetic=True, protocols=["original", "improved"], shifts=["subject", "scene"]) == []
    notes = ph.run_notes(synthetic=False, protocols=["improved"], shifts=["scene"])
    assert len(notes) == 3 and "collection_dir" in notes[0] and "cv_protocols" in notes[1]
    assert "shifts" in notes[2]


def test_feature_sizes_read_the_stored_windows(tmp_path):
    from robotask.episode.unseen import costs

    class WS:
        def __init__(self, n):
            self.X = np.zeros((n, 5))

    for e, n in (("a", 10), ("b", 20)):
        (tmp_path / e).mkdir()
        (tmp_path / e / "shared_windows.npz").write_bytes(b"x" * (100 * n))
    assert costs.feature_sizes(tmp_path, {"a": WS(10), "b": WS(20)}) == (1500.0, 15.0, 5)


def test_values_name_the_tasks_each_interval_decides():
    base = _folds("timeline_action", True, "cv", "baseline", [0.3, 0.31, 0.29, 0.3])
    clear = _folds("timeline_action", True, "cv", "minimal", [0.5, 0.52, 0.49, 0.51])
    summary = comparisons.fold_summary(pd.concat([base, clear]).assign(metric="macro_f1"))
    t = values.transfer_values(summary, "")
    assert (t["n_transfer_imp"], t["n_ran_imp"], t["transfer_imp"]) == (1, 1, "Action Recognition")
    assert (t["n_transfer_orig"], t["n_ran_orig"], t["transfer_orig"]) == (0, 0, "no task")
    assert t["contact_imp"] == "runs on no fold" and t["mlp_result"].startswith("Chapters 12 and 13")
    drops = pd.DataFrame({"task": ["timeline_action", "next_action", "temporal_order"], "pairs": [3, 3, 1],
                          "verdict": ["worse on unseen episodes", "better on unseen episodes", "not resolved"]})
    drops["p"], drops["p_holm"] = [0.01, 0.02, np.nan], [0.02, 0.02, np.nan]
    assert values.drop_values(drops) == {
        "n_drop_phrase": "1 task", "drop_tasks": "Action Recognition", "n_gain_phrase": "1 task",
        "gain_tasks": "Next-Action Prediction", "n_drop_of": 2,
        "drop_family": "Of the 2 tests of the table, 2 resolve; if no difference were real, 0.1 would by chance "
                       "alone, and 2 survive Holm's correction for the 2"}
    shifts = pd.DataFrame({"task": ["timeline_action", "next_action"], "shift": ["scene", "scene"],
                           "groups": [4, 4], "partitions": [5, 5], "p": [0.01, 0.5], "p_holm": [0.02, 0.5],
                           "verdict": ["hurts", "not resolved"]})
    v = values.shift_values(shifts, {})
    assert v["shift_scene"] == ("A new scene hurts Action Recognition by a resolved interval (over the 4 held-out "
                                "scenes)")
    assert v["shift_subject"].startswith("The subject shift did not run: it was not among the shifts run")
    assert v["shift_partitions"] == 5


def test_curve_values_and_the_sizes_summary_json_keeps():
    res = _curve_results({1: [0.3, 0.35, 0.32], 2: [0.9, 0.45, 0.45], 4: [0.7, 0.72, 0.71], 8: [0.8, 0.81, 0.8]})
    curve = comparisons.curve_summary(res)
    c = values.curve_values(curve, comparisons.curve_steps(res))
    assert (c["draws"], c["largest"], c["n_ahead_phrase"], c["n_never_phrase"]) == (3, 8, "0 tasks", "0 tasks")
    assert c["still_improving"] == "Action Recognition" and c["rising_not_ahead"] == "no task"
    summary = comparisons.fold_summary(pd.concat([_folds("timeline_action", True, "cv", h, v) for h, v in
                                                  (("baseline", [0.3, 0.31, 0.29]), ("minimal", [0.5, 0.52, 0.5]))])
                                       .assign(metric="macro_f1"))
    drops = pd.DataFrame({"task": ["timeline_action"], "verdict": ["worse on unseen episodes"]})
    s = values.summary_values(summary, "improved", drops, pd.DataFrame(), ["scene"], curve, 6, 3, True,
                              {"frames": 200, "res": 16, "n_eps": 6, "draws": 2})
    assert s["unseen_transfer_tasks"] == ["timeline_action"] and s["unseen_drop_tasks"] == ["timeline_action"]
    assert s["unseen_shift_hurts"] == {"scene": []} and s["unseen_episodes_needed"] == {"timeline_action": 4}
    assert s["unseen_by_task"]["timeline_action"]["folds_won"] == 3
    assert {k: v for k, v in s.items() if k in ("unseen_frames", "unseen_res", "unseen_draws", "unseen_n_eps")} == {
        "unseen_frames": 200, "unseen_res": 16, "unseen_draws": 2}


def test_far_below_zero_at_the_first_curve_size_names_r2_tasks_only():
    curve = pd.DataFrame({"task": ["modality_reconstruction", "modality_reconstruction", "timeline_action",
                                   "hand_trajectory_forecast"],
                          "head": ["minimal", "minimal", "minimal", "baseline"], "n_train": [1, 24, 1, 1],
                          "mean": [-326.4, -0.5, -3.0, -5.0], "metric": ["r2", "r2", "macro_f1", "r2"]})
    assert comparisons.far_below_at_first(curve) == ["modality_reconstruction"]
    assert comparisons.far_below_at_first(curve.assign(mean=0.1)) == []


def test_an_r2_panel_far_below_zero_gets_a_symmetric_log_axis():
    import matplotlib

    matplotlib.use("Agg")
    from robotask.episode.unseen import figures

    rows = []
    for task, metric, first in (("modality_reconstruction", "r2", -326.4), ("timeline_action", "macro_f1", 0.05),
                                ("hand_trajectory_forecast", "mpjpe", 0.2)):
        for n, m in ((1, first), (2, 0.1), (24, 0.3)):
            rows += [{"task": task, "head": "minimal", "n_train": n, "mean": m, "lo": m - 600 if n == 1 else m - 0.1,
                      "hi": m + 0.1, "metric": metric},
                     {"task": task, "head": "baseline", "n_train": n, "mean": 0.0, "lo": 0.0, "hi": 0.0,
                      "metric": metric}]
    fig = figures.figure_learning_curves(pd.DataFrame(rows))
    scales = {ax.get_title(): ax.get_yscale() for ax in fig.axes if ax.get_title()}
    assert scales["Cross-Modal Reconstruction"] == "symlog"
    assert scales["Action Recognition"] == "linear"  # not an R²: drawn as it is
    assert scales["Hand Trajectory Forecasting"] == "linear"


def test_the_transfer_verdict_reads_the_strongest_baseline_on_the_deciding_metric():
    base = _folds("timeline_action", True, "cv", "baseline", [0.30, 0.31, 0.29, 0.30])
    prev = _folds("timeline_action", True, "cv", "previous window's label", [0.60, 0.62, 0.61, 0.60])
    head = _folds("timeline_action", True, "cv", "minimal", [0.50, 0.52, 0.49, 0.51])
    s = comparisons.fold_summary(pd.concat([base, prev, head]).assign(metric="macro_f1")).set_index("head")
    assert list(s.index) == ["baseline", "minimal"]  # an informed baseline competes, it gets no row of its own
    row = s.loc["minimal"]
    assert row["strongest"] == "previous window's label" and row["strongest_mean"] == pytest.approx(0.6075)
    assert row["verdict"] == "behind" and row["diff"] == pytest.approx(0.505 - 0.6075) and row["wins"] == 0
    assert row["trivial_verdict"] == "beats" and row["trivial_mean"] == pytest.approx(0.3)  # kept beside it
    assert comparisons.beaten(s.reset_index(), "improved") == ([], 1)
    # a tie goes to the trivial baseline; an error metric's strongest is the lowest
    tie = _folds("timeline_action", True, "cv", "previous window's label", [0.30, 0.31, 0.29, 0.30])
    t = comparisons.fold_summary(pd.concat([base, tie, head]).assign(metric="macro_f1")).set_index("head")
    assert t.loc["minimal", "strongest"] == "baseline" and t.loc["minimal", "verdict"] == "beats"
    # a pair task decides on accuracy (column ``deciding``), its F1 (``value``) stays the mean shown
    pair = pd.concat([_folds("temporal_order", True, "cv", h, v).assign(deciding=d) for h, v, d in
                      (("baseline", [0.67] * 4, [0.5] * 4), ("largest training class", [0.0] * 4, [0.52] * 4),
                       ("minimal", [0.6, 0.62, 0.61, 0.6], [0.6, 0.62, 0.61, 0.6]))])
    p = comparisons.fold_summary(pair.assign(metric="f1")).set_index("head").loc["minimal"]
    assert p["deciding_metric"] == "accuracy" and p["strongest"] == "largest training class"
    assert p["verdict"] == "beats" and p["trivial_verdict"] == "behind" and p["mean"] == pytest.approx(0.6075)
    table = tables.protocol_table(comparisons.fold_summary(pd.concat([base, prev, head]).assign(metric="macro_f1")))
    assert table.loc[0, "improved: strongest baseline"] == "previous window's label (0.608)"
    assert table.loc[0, "improved: trivial baseline"] == "0.300"


def test_ahead_on_the_curve_reads_the_strongest_baseline_at_each_size():
    res = _curve_results({1: [0.55, 0.56, 0.57], 2: [0.7, 0.71, 0.72]})
    informed = res[res["head"] == "baseline"].assign(head="previous window's label")
    informed.loc[informed["n_train"] == 2, "value"] = 0.8  # the strongest at 2 episodes only
    curve = comparisons.curve_summary(pd.concat([res, informed]))
    assert set(curve["head"]) == {"minimal", "baseline"}
    h = curve[curve["head"] == "minimal"].set_index("n_train")
    assert h.loc[1, "strongest"] == "baseline" and h.loc[1, "verdict"] == "ahead"  # a tie goes to the trivial one
    assert h.loc[2, "strongest"] == "previous window's label" and h.loc[2, "verdict"] == "behind"
    assert comparisons.episodes_needed(curve, "timeline_action") is None
