"""Chapter 14's intervals that hold: the corrected resampled t over overlapping folds, Holm's correction, the
chronological side matched in size, repeated folds, a shift that cannot run, and the verdict index."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.episode.unseen import comparisons, design, phrases, tables, values
from robotask.words import paired_interval

EPISODES = pd.DataFrame({"episode_id": [f"ep{i}" for i in range(12)],
                         "subject": [f"S{i % 4}" for i in range(12)], "scene": [f"K{i % 3}" for i in range(12)]})


def test_the_corrected_interval_widens_the_student_t_by_the_test_train_term():
    d = np.array([0.10, 0.12, 0.08, 0.11, 0.09, 0.13])
    plain, p0 = comparisons.corrected_interval(d, 0.0)
    ref = paired_interval(d, np.zeros_like(d))
    assert (plain.low, plain.high) == pytest.approx((ref.low, ref.high)) and p0 < 0.001
    corrected, p = comparisons.corrected_interval(d, 1 / 3)
    # the half-width grows by sqrt((1/n + 1/3) / (1/n)) = sqrt(3) for n = 6
    assert (corrected.high - corrected.mean) == pytest.approx((plain.high - plain.mean) * np.sqrt(3))
    assert p > p0 and corrected.n == 6
    one, p1 = comparisons.corrected_interval([0.2, np.nan], 0.5)  # one finite unit decides nothing
    assert np.isinf(one.low) and np.isnan(p1)


def test_holm_adjusts_step_down_and_keeps_missing_tests_out():
    adj = comparisons.holm([0.01, 0.04, np.nan, 0.03])
    assert adj[0] == pytest.approx(0.03) and adj[3] == pytest.approx(0.06) and adj[1] == pytest.approx(0.06)
    assert np.isnan(adj[2])
    assert comparisons.chance_count(24) == pytest.approx(1.2)
    assert phrases.family_sentence(24, 1, 1.2, 0) == (
        "Of the 24 tests of the table, 1 resolves; if no difference were real, 1.2 would by chance alone, and 0 "
        "survive Holm's correction for the 24")
    assert phrases.family_sentence(0, 0, 0, 0) == "No test of the table ran, so it decides nothing"


def test_repeated_folds_partition_every_episode_each_time_and_start_with_group_kfold():
    cv = design.cv_settings(EPISODES, 4, ["improved"], [], repeats=3, seed=2)
    assert len(cv) == 12 and {s.labels["draw"] for s in cv} == {0, 1, 2}
    for r in range(3):
        tested = sorted(e for s in cv if s.labels["draw"] == r for e in s.split.test)
        assert tested == sorted(EPISODES["episode_id"])
    assert [s.split for s in cv if s.labels["draw"] == 0] == design.group_kfold(EPISODES, 4)
    assert {s.labels["test_train"] for s in cv} == {3 / 9}
    assert len({s.split.test for s in cv}) > 4  # the repeats cut differently


def test_the_matched_side_trains_on_as_many_other_episodes_early_parts_and_tests_the_same_windows():
    cv = design.cv_settings(EPISODES, 4, ["improved"], [], repeats=2)
    chrono, matched = design.chronological_settings(cv), design.matched_settings(cv, seed=0)
    for c, m, s in zip(chrono, matched, cv):
        assert m.chronological and m.split.test == s.split.test == c.split.train
        assert len(m.split.train) == len(c.split.train) and not set(m.split.train) & set(m.split.test)
        assert set(m.split.train) <= set(s.split.train) and m.labels == {**c.labels, "n_train": len(c.split.train)}


def test_matched_parts_take_early_windows_of_training_episodes_and_late_windows_of_test_episodes():
    from robotask.episode.tasks.builders import TaskData
    from robotask.episode.tasks.splits import EpisodeSplit
    from robotask.episode.unseen import task_data

    class Built:
        def task_data(self, task_id, eid, ws, protocol):
            rows = pd.DataFrame({"start_frame": range(10), "end_frame": range(10), "center_frame": range(10),
                                 "span_end": range(10)})
            return TaskData(kind="regression", X=np.arange(10.0)[:, None], y=np.arange(10.0), rows=rows)

    parts = task_data._parts("t", {"a": None, "b": None}, EpisodeSplit("m", ("a",), ("b",)), None, True, Built())
    assert [(e, side, list(d.X[:, 0])) for e, d, side in parts] == [
        ("a:train", "train", [0, 1, 2, 3, 4, 5, 6]), ("b:test", "test", [7, 8, 9])]


def _shift_results(groups: int) -> pd.DataFrame:
    rows = []
    for study, draws in (("group", [None]), ("random", [0, 1])):
        for g in range(groups):
            for d in draws:
                for head, v in (("minimal", 0.5 + 0.01 * g), ("baseline", 0.3)):
                    rows.append({"study": study, "protocol": "improved", "fold": g, "shift": "subject", "draw": d,
                                 "test_train": 0.5, "task": "timeline_action", "metric": "macro_f1",
                                 "higher_is_better": True, "head": head, "value": v, "status": "ok"})
    return pd.DataFrame(rows)


def test_a_shift_with_no_usable_group_is_reported_as_not_run_never_as_a_finding():
    one_subject = EPISODES.assign(subject="S0")
    assert design.usable_shifts(one_subject, ["subject", "scene"]) == ["scene"]
    skipped = comparisons.shifts_not_run(one_subject, ["subject", "scene"], _shift_results(0))
    assert skipped["subject"] == "the collection has 1 subject value; holding one out needs two"
    assert "manifest has no camera column" in comparisons.shifts_not_run(EPISODES, ["camera"], _shift_results(0))[
        "camera"]
    one_group = comparisons.shifts_not_run(EPISODES, ["subject"], _shift_results(1))
    assert one_group["subject"].startswith("fewer than two held-out subjects gave a result")
    v = values.shift_values(pd.DataFrame(), skipped)
    text = " ".join(str(x) for x in v.values())
    for bad in ("0 subjects", "hurts no task", "0 tasks"):
        assert bad not in text
    assert v["shift_subject"].startswith("The subject shift did not run: the collection has 1 subject value")
    assert v["shift_family"] == "No test of the table ran, so it decides nothing"


def test_a_shift_that_ran_names_its_groups_its_partitions_and_its_family():
    shifts = comparisons.shift_drop(_shift_results(4))
    assert shifts["partitions"].iloc[0] == 2 and shifts["ratio"].iloc[0] == 0.5
    v = values.shift_values(shifts, {})
    assert v["shift_subject"].startswith("A new subject hurts no task by a resolved interval (over the 4 held-out")
    assert v["shift_partitions"] == 2 and v["shift_family"].startswith("Of the 1 tests of the table, 0 resolve")


def test_the_verdict_index_has_one_row_per_verdict_with_its_method():
    rows = []
    for r in range(2):
        for f in range(3):
            for head, v in (("minimal", 0.5 + 0.01 * f + 0.02 * r), ("baseline", 0.3)):
                rows.append({"study": "cv", "protocol": "improved", "fold": f, "draw": r, "test_train": 0.5,
                             "task": "timeline_action", "metric": "macro_f1", "higher_is_better": True,
                             "head": head, "value": v})
    summary = comparisons.fold_summary(pd.DataFrame(rows))
    index = comparisons.verdict_index(summary, {}, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), "synthetic", 2,
                                      3)
    assert list(index.columns) == list(comparisons.VERDICT_COLUMNS) and len(index) == 1
    row = index.iloc[0]
    assert row["n_units"] == 6 and row["unit"] == "fold (2 repeats of 3 grouped folds)"
    assert row["method"].startswith("corrected resampled t (Nadeau and Bengio 2003), test/train 0.50")
    assert row["verdict"] == "beats" and row["low"] > 0


def test_one_timing_is_said_to_be_one_run_not_a_verdict():
    said = phrases.speedup_phrase(0.98, 2)
    assert "a single timing" in said and "not a verdict" in said and "no faster" not in said
    assert "unmeasured" in phrases.speedup_phrase(float("nan"), 2)


def test_table_numbers_carry_the_minus_sign_not_a_hyphen():
    cell = tables.iv({"verdict": "not resolved", "diff": -0.1, "lo": -0.3, "hi": 0.2})
    assert cell == "not resolved: \u22120.100 (\u22120.300 to +0.200)" and "-" not in cell
    assert tables.pm(-0.5, 0.1) == "\u22120.500 ± 0.100"


def test_each_task_runs_on_one_blas_thread_with_the_pools_found_once():
    from threadpoolctl import threadpool_info

    from robotask.episode.suite.fit import one_blas_thread

    def blas_threads() -> list[int]:
        return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]

    inside = one_blas_thread(blas_threads)
    assert inside() and set(inside()) == {1}  # twice: the cached pools limit again


def test_an_interval_end_near_zero_keeps_the_sign_its_verdict_reads():
    behind = tables.iv({"verdict": "behind", "diff": -0.02, "lo": -0.039, "hi": -0.00021})
    assert behind == "behind: −0.020 (−0.039 to −0.0002)"
    unresolved = tables.iv({"verdict": "not resolved", "diff": 0.177, "lo": -0.00004, "hi": 0.354})
    assert unresolved == "not resolved: +0.177 (−0.00004 to +0.354)"
    assert tables.bound(0.0) == "+0.000" and tables.bound(0.1234) == "+0.123"
