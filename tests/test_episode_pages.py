"""Presentation helpers of the episode pages: the suite summary (chapter 13) and the task pages."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from robotask.episode.report import figures_suite, summary, tables, values_suite  # noqa: E402
from robotask.episode.tasks.registry import TASKS  # noqa: E402


def _long() -> pd.DataFrame:
    rows = []
    # improved rows first, as the task chapters may write them: the figure must not follow this
    for schedule in ("repeating", "sample-like"):
        for protocol, shift in (("improved", 0.1), ("original", 0.0)):
            for t, spec in TASKS.items():
                for model, v, word in (("baseline", 0.1, None), ("minimal", 0.3 + shift, "ahead"),
                                       ("mlp", 0.4, "not resolved")):
                    rows.append({"schedule": schedule, "protocol": protocol, "task": t, "model": model,
                                 "metric": spec.primary_metric, "value": v, "status": "ok",
                                 "higher_is_better": spec.higher_is_better, "verdict": word})
    return pd.DataFrame(rows)


def test_caption_names_the_bar_groups_in_the_drawn_order():
    long = _long()
    order = figures_suite.bar_order(long)
    assert order == [("repeating", "original"), ("repeating", "improved"),
                     ("sample-like", "original"), ("sample-like", "improved")]
    fig = figures_suite.figure_summary(long)
    ticks = [t.get_text().replace("\n", " ") for t in fig.axes[0].get_xticklabels()]
    assert ticks == [f"{s} {p}" for s, p in order]
    caption = figures_suite.summary_caption(["repeating", "sample-like"], ["original", "improved"], order)
    assert ", ".join(ticks) in caption
    titles = " ".join(ax.get_title() for ax in fig.axes)
    assert "_" not in titles and "macro f1" not in titles and "macro-F1" in titles


def test_protocol_changes_and_wins_use_metric_names_and_directions():
    long = _long()
    changes = tables.protocol_changes(long, "repeating")
    # three largest moves, then every move the other way: lower is better for MPJPE, so the minimal head's 0.3 → 0.4
    assert list(changes["Move"].round(3)) == [0.1, 0.1, 0.1, -0.1]
    assert changes.iloc[-1]["Task"] == TASKS["hand_trajectory_forecast"].display_name
    assert not set(changes["Metric"]) & {"macro_f1", "mrr", "r2", "mpjpe", "top5_accuracy"}
    # the counts follow the task pages' verdicts, never the two means
    worse = long.assign(verdict=long["verdict"].where((long["task"] != "temporal_order") | (long["model"] != "minimal"),
                                                      "behind"))
    assert summary.verdict_tasks(worse, "repeating", "original", "minimal", "behind") == [
        TASKS["temporal_order"].display_name]
    wins = tables.wins_table(worse, ["repeating"], ["original"])
    row = wins.iloc[0]
    assert row["Tasks that ran"] == len(TASKS) and row["Minimal head: ahead"] == len(TASKS) - 1
    assert row["Minimal head: behind"] == 1 and row["MLP: not resolved"] == len(TASKS)
    words = values_suite.recap_values(worse, ["repeating"], "original")
    assert words["s0_minimal_ahead"] == f"{len(TASKS) - 1} of the {len(TASKS)} tasks"
    assert words["s0_pairs"] == "the minimal head on 1 of 2 and the MLP on 0 of 2"
    assert words["s1"] == words["s1_ran"] == words["s1_minimal_ahead"] == "–"  # one schedule ran


def _fit_result(y_train, y_test, core=None, baseline="majority class"):
    """A classification TaskResult with a training part (and a fitted core when ``core`` is given)."""
    import numpy as np

    from robotask.episode.suite.execution import TaskResult
    from robotask.episode.tasks.builders import TaskData

    y = np.concatenate([y_train, y_test])
    n, k = len(y_train), len(y_test)
    data = TaskData(kind="classification", X=None, y=y, rows=pd.DataFrame({"window_index": range(n + k)}),
                    class_names=["pick", "place", "wipe"], train=np.arange(n), test=np.arange(n, n + k))
    if core is not None:
        data.val, data.extra["train_core"] = np.arange(core, n), np.arange(core)
    return TaskResult("timeline_action", "ok", {"baseline_name": baseline, "num_train": n, "num_test": k}, {},
                      data=data)


def test_majority_class_says_whether_the_test_part_has_it():
    import numpy as np

    assert F_majority(np.array([0, 0, 0, 1]), np.array([1, 2, 2])) == ("pick", False)
    assert F_majority(np.array([0, 0, 1]), np.array([0, 2])) == ("pick", True)
    from robotask.episode.report import diagnostics as F

    assert F.majority_class(_fit_result(np.array([0, 0, 1]), np.array([1]), baseline="train mean")) is None


def F_majority(y_train, y_test):
    from robotask.episode.report import diagnostics as F

    return F.majority_class(_fit_result(y_train, y_test))


def test_fit_coverage_counts_the_classes_of_the_fitted_part_only():
    import numpy as np

    from robotask.episode.report import diagnostics as F

    # training: pick, pick, place, wipe; the MLP is fitted on the first two; test: wipe, wipe, pick, place
    result = _fit_result(np.array([0, 0, 1, 2]), np.array([2, 2, 0, 1]), core=2)
    assert F.fit_coverage(result) == 0.25
    assert F.fit_coverage(_fit_result(np.array([0, 0, 1, 2]), np.array([2, 2, 0, 1]))) == 1.0
    table = F.diagnostics_table({"improved": result})
    assert "Test samples with a class the MLP was fitted on" in set(table["fact"])


def test_metric_table_shows_ceiling_as_percentage_and_ranks_as_integers():
    from robotask.episode.report import figures_tasks as F

    table = F._readable(pd.DataFrame({"protocol": ["improved"] * 3, "model": ["b", "m", "p"],
                                      "label_coverage_ceiling": [float("nan"), 1.0, 1.0],
                                      "median_rank": [174.5, 8.0, float("nan")]}))
    assert list(table["label_coverage_ceiling"]) == ["100.0 %"] * 3
    assert list(table["median_rank"]) == ["174.5", "8", "–"]


def _classification_result(y, minimal, mlp=None, n_classes=5):
    """A TaskResult of timeline_action over the test windows ``y`` with the heads' predictions."""
    import numpy as np

    from robotask.episode.suite.execution import TaskResult
    from robotask.episode.suite.fit import HeadOutput
    from robotask.episode.tasks.builders import TaskData

    n = len(y)
    rows = pd.DataFrame({"window_index": range(n), "center_frame": 10 * np.arange(n)})
    data = TaskData(kind="classification", X=None, y=np.asarray(y), rows=rows,
                    class_names=[f"class {i}" for i in range(n_classes)],
                    test=np.arange(n), train=np.arange(0))
    outputs = {"minimal": HeadOutput(np.asarray(minimal))}
    if mlp is not None:
        outputs["mlp"] = HeadOutput(np.asarray(mlp))
    return TaskResult("timeline_action", "ok", {}, {}, data=data, outputs=outputs)


def test_confusion_drops_classes_with_no_test_window_and_no_prediction():
    from robotask.episode.report import figures_tasks as F

    # class 0: true only; 1: predicted by the minimal head only; 3: predicted by the MLP only; 2, 4: neither
    result = _classification_result([0, 0, 0], [0, 1, 0], mlp=[0, 0, 3])
    assert list(F.shown_classes(result)) == [0, 1, 3]
    assert F.dropped_text(result) == "3 of 5 classes shown; 2 with no test sample and no prediction left out"
    fig = F.figure_confusion(result)
    matrix, f1 = fig.axes[0], fig.axes[1]
    assert [t.get_text().split(" ", 1)[1] for t in matrix.get_yticklabels()] == ["class 0", "class 1", "class 3"]
    assert len(f1.get_yticklabels()) == 3 and "2 with no test sample" in fig.get_suptitle()
    assert any(ax.get_label() == "<colorbar>" for ax in fig.axes)
    assert "2 with no test sample and no prediction left out" in F.figure_caption("confusion", result, "original")[0]
    full = _classification_result([0, 1, 2], [0, 1, 2], n_classes=3)
    assert F.dropped_text(full) == "" and F.figure_confusion(full).get_suptitle() == ""


def test_prediction_timeline_puts_each_head_in_its_own_lane():
    import numpy as np

    from robotask.episode.report import figures_tasks as F

    result = _classification_result([0, 0, 3, 3], [0, 0, 3, 3], mlp=[0, 0, 3, 3])
    ax = F.figure_predicted_timeline(result).axes[0]
    dots = {line.get_label(): line.get_ydata() for line in ax.get_lines() if line.get_marker() == "."}
    below, above = (np.asarray(v) for k, v in sorted(dots.items(), key=lambda kv: "MLP" in kv[0]))
    assert np.all(below < above) and list(np.round(above - below, 2)) == [0.44] * 4
    assert [t.get_text() for t in ax.get_yticklabels()] == ["class 0", "class 3"]


def test_summary_repeats_the_task_pages_anomalies():
    docs = {"modality_reconstruction": {"anomalies": [{"Task": "Cross-Modal Reconstruction", "Head": "MLP",
                                                       "Value": -3.9, "Columns": 4}]},
            "timeline_action": {"anomalies": [{"Task": "Action Recognition", "Head": "MLP", "Value": 0.0}]},
            "next_action": {}}  # a summary.json written before anomalies were recorded
    table = tables.anomalies_table(docs)
    assert list(table["Task"]) == ["Cross-Modal Reconstruction", "Action Recognition"]
    assert table.iloc[1]["Columns"] == "–"
    assert tables.anomalies_table({"next_action": {}}).empty


def test_target_text_reads_the_protocols_own_target():
    from robotask.episode.report import diagnostics as F
    from robotask.episode.report import phrases
    from robotask.episode.suite.execution import TaskResult

    def result(target, frame=None):
        m = {"target": target, **({"hand_frame": frame} if frame else {})}
        return TaskResult("next_action", "ok", {"target": "both targets"}, {}, metrics={"minimal": m})

    a, b = F.target_text(result("action 20 frames after")), F.target_text(result("next different action"))
    assert phrases.targets(a, b) == "next different action, where the original's is action 20 frames after"
    assert F.target_text(result("joints", "world")) == "joints, hands in the world frame"


def test_the_measures_chapter_10_glues_read_the_range_of_a_synthetic_episode():
    from robotask.episode.files import load_episode
    from robotask.episode.report import (
        depth_summary,
        episode_kind,
        frame_range,
        imu_summary,
        label_statistics,
        label_values,
        motion_summary,
    )
    from robotask.episode.synthesis import ensure_episode

    ep = load_episode(ensure_episode(200, 0, 32, "repeating"))
    assert episode_kind(ep.is_synthetic, "repeating") == "synthetic (repeating schedule)"
    assert frame_range(20, 120) == "frames 20–119" and ep.n_frames == 200
    labels = label_values(label_statistics(ep), ep.fps)
    assert labels["action_classes"].endswith("action classes") and 0 <= labels["hand_contact_frame_share"] <= 100
    assert 0 <= depth_summary(*ep.depth_frame(70))["valid_pct"] <= 100
    assert imu_summary(ep, 20, 120)["samples"] > 0 and motion_summary(ep, 20, 120)["camera_path_m"] >= 0


def test_episode_values_describe_the_window_set_of_a_task_page():
    from robotask.episode.features import load_window_set
    from robotask.episode.report import episode_values
    from robotask.episode.synthesis import ensure_episode

    ws = load_window_set(ensure_episode(200, 0, 32, "repeating"))
    v = episode_values(ws)
    assert v["is_synthetic"] and v["n_frames"] == 200 and v["n_windows"] == len(ws.X) == 37
    assert v["n_features"] == 8546 and v["camera_reach_m"] > 0


def test_a_run_that_left_the_mlp_out_reads_as_dashes_not_as_zero_wins():
    long = _long()
    left_out = (long["schedule"] == "sample-like") & (long["protocol"] == "original") & (long["model"] == "mlp")
    long.loc[left_out, ["value", "verdict"]] = None
    wins = tables.wins_table(long, ["repeating", "sample-like"], ["original"]).set_index("Schedule")
    assert wins.loc["sample-like", ["MLP: ahead", "MLP: behind", "MLP: not resolved"]].isna().all()
    assert wins.loc["sample-like", "Minimal head: ahead"] == len(TASKS)
    assert wins.loc["repeating", "MLP: not resolved"] == len(TASKS)
    table = summary.summary_table(long, "sample-like")
    assert table.filter(like="MLP").filter(like="original").isna().all().all()


def test_page_heads_leave_the_mlp_out_of_the_named_runs_only():
    import pytest

    from robotask.episode.report import page_heads, runs_without
    from robotask.errors import RobotaskError

    heads = page_heads(["minimal", "mlp"], ["sample-like/original"], ["repeating", "sample-like"],
                       ["original", "improved"])
    assert heads["sample-like", "original"] == ["minimal"]
    assert heads["repeating", "original"] == heads["sample-like", "improved"] == ["minimal", "mlp"]
    assert runs_without(heads, "mlp") == "sample-like under the original protocol"
    everywhere = page_heads(["minimal", "mlp"], [], ["repeating"], ["original"])
    assert everywhere == {("repeating", "original"): ["minimal", "mlp"]} and runs_without(everywhere, "mlp") == "none"
    # a real episode's page ignores the book's entry for a synthetic schedule
    assert page_heads(["minimal", "mlp"], ["sample-like/original"], ["this episode"], ["original"]) == {
        ("this episode", "original"): ["minimal", "mlp"]}
    assert runs_without(page_heads(["minimal"], [], ["repeating"], ["original"]), "mlp") == "none"
    for bad in ("sample-like", "sample-like/orig", "/original"):
        with pytest.raises(RobotaskError, match=r"no_mlp: .* expected \"schedule/protocol\""):
            page_heads(["minimal", "mlp"], [bad], ["repeating"], ["original"])
