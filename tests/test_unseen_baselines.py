"""Chapter 14's informed baselines on a tiny collection: scored per fold on the merged TaskData, the previous
window taken within its own episode, and the heads' numbers unchanged by them."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from robotask.episode.suite.fit import SuiteConfig
from robotask.episode.tasks.baselines import informed_baselines
from robotask.episode.tasks.protocols import get_protocol
from robotask.episode.unseen import design
from robotask.episode.unseen.task_data import collection_task_data, load_window_sets

TASKS = ["timeline_action"]  # the store the ``small_store`` fixture builds; this module reads its collection
CFG = SuiteConfig(softmax_epochs=5, save_models=False)


def test_informed_baselines_score_on_each_fold_and_leave_the_heads_numbers_alone(small_store):
    collection, root, _, _ = small_store
    sets = load_window_sets(collection, root / "features")
    cv = design.cv_settings(collection.episodes, 2, ["improved"], [])
    assert all(s.informed for s in cv)
    res = design.run_settings(sets, cv, CFG)
    plain = design.run_settings(sets, [replace(s, informed=False) for s in cv], CFG)
    shown = res[res["head"].isin(["baseline", "minimal"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(shown, plain.reset_index(drop=True))
    informed = res[~res["head"].isin(["baseline", "minimal"]) & (res["status"] == "ok")]
    names = informed.groupby("task")["head"].agg(set)
    assert names["timeline_action"] == {"previous window's label"}
    assert names["next_action"] == {"copy the current action", "the current action's usual successor"}
    assert names["temporal_order"] == {"largest training class"}
    assert "cross_modal_retrieval" not in names and "hand_trajectory_forecast" not in names
    assert set(informed["fold"]) == {0, 1}
    # a pair task decides on accuracy: its trivial baseline (always yes) scores one half of the pairs
    pair = res[(res["task"] == "temporal_order") & (res["status"] == "ok")].set_index(["fold", "head"])
    assert pair.xs("baseline", level="head")["deciding"].between(0.4, 0.6).all()
    assert (pair["deciding"] != pair["value"]).any()
    same = res[(res["task"] == "timeline_action")]
    assert (same["deciding"] == same["value"]).all()


def test_the_previous_window_of_a_collection_stays_in_its_episode(small_store):
    collection, root, _, _ = small_store
    sets = load_window_sets(collection, root / "features")
    split = design.cv_settings(collection.episodes, 2, ["improved"], [])[0].split
    data = collection_task_data("timeline_action", sets, split, get_protocol("improved"))
    got = informed_baselines(data)["previous window's label"]
    rows, fallback = data.rows, np.bincount(data.y[data.train]).argmax()
    want = []
    for i in data.test:  # oracle: the latest window of the same episode that ends before this one starts
        same = rows.index[(rows["episode_id"] == rows.loc[i, "episode_id"])
                          & (rows["end_frame"] < rows.loc[i, "start_frame"])]
        want.append(data.y[max(same, key=lambda j: (rows.loc[j, "end_frame"], j))] if len(same) else fallback)
    assert got.tolist() == want
    firsts = [i for i, e in zip(data.test, rows["episode_id"].to_numpy()[data.test])
              if rows.loc[i, "start_frame"] == rows[rows["episode_id"] == e]["start_frame"].min()]
    assert len(firsts) == len(split.test)  # each test episode's first window has no previous one: the fallback
    assert all(got[list(data.test).index(i)] == fallback for i in firsts)


def test_tasks_that_share_a_fit_fit_it_once_per_split_with_the_same_outputs(small_store, monkeypatch):
    from robotask.episode.unseen import held_out

    collection, root, _, _ = small_store
    sets = load_window_sets(collection, root / "features")
    split, proto = design.cv_settings(collection.episodes, 2, ["improved"], [])[0].split, get_protocol("improved")
    alone = {t: held_out.run_collection_task(t, sets, split, proto, ["minimal"], None, CFG, per_episode=False)[0]
             for t in ("cross_modal_retrieval", "modality_reconstruction")}
    calls = []
    fit = held_out.RUNNERS["minimal"]
    monkeypatch.setitem(held_out.RUNNERS, "minimal", lambda *a: calls.append(1) or fit(*a))
    cache: dict = {}
    shared = {t: held_out.run_collection_task(t, sets, split, proto, ["minimal"], None, CFG, per_episode=False,
                                              fit_cache=cache)[0]
              for t in ("cross_modal_retrieval", "modality_reconstruction")}
    assert len(calls) == 1  # the second task reused the first one's ridge
    for t in shared:
        assert shared[t].primary == alone[t].primary
        assert np.array_equal(shared[t].outputs["minimal"].pred, alone[t].outputs["minimal"].pred)
    other = design.cv_settings(collection.episodes, 2, ["improved"], [])[1].split  # other inputs: fitted again
    held_out.run_collection_task("modality_reconstruction", sets, other, proto, ["minimal"], None, CFG,
                                 per_episode=False, fit_cache=cache)
    assert len(calls) == 2
