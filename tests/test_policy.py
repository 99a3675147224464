"""Retrieval beside the policy (robotask.retrieval.policy): each computation on small synthetic inputs, and the
chapter's steps on the committed data with one or two fast rankers."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from robotask.errors import RobotaskError
from robotask.retrieval.policy import (
    association,
    by_type,
    discrimination,
    paraphrases,
    phrases,
    placements,
    resampling,
    values,
)

ONE = np.ones((1, 8))
PAIRS = resampling.task_design(np.repeat(np.arange(4), 2), 5, seed=1)  # eight items in four tasks of two


def _study(rankers: list[str], n_bootstrap: int, seed: int) -> dict:
    """The chapter's steps, in its order, on the committed data (what notebooks/09_policy.py runs)."""
    para = paraphrases.load_paraphrases()
    design = resampling.task_design(para["task"].to_numpy(), n_bootstrap, seed)
    frames = {g: paraphrases.gallery_frame(para, g) for g in paraphrases.GALLERIES}
    placed = placements.place_all(para, frames, rankers)
    accuracy, accuracy_reps = by_type.accuracy_by_type(placed, para, design)
    failure, tasks = 1 - para["success"].to_numpy(), para["task"].to_numpy()
    aucs, reps = discrimination.auc_intervals(discrimination.signals_of(para, placed), failure, design)
    within, within_reps = discrimination.auc_intervals(discrimination.signals_of(para, placed), failure, design,
                                                       tasks)
    return dict(para=para, placements=placed, accuracy=accuracy, accuracy_reps=accuracy_reps, design=design,
                success=by_type.success_by_type(para, design), rankers=rankers,
                associations=association.associations(para, placed, design), aucs=aucs, reps=reps, within=within,
                within_reps=within_reps)


def test_task_design_resamples_whole_tasks_then_their_paraphrases_with_a_jackknife():
    groups = np.array(["a"] * 3 + ["b"] * 3 + ["c"] * 3)
    design = resampling.task_design(groups, 200, seed=5)
    w = design.weights
    assert w.shape == (4 * 201, 9) and np.array_equal(w, resampling.task_design(groups, 200, seed=5).weights)
    assert design.n_replicates == 200 and (w[0] == 1).all()
    assert [w[1 + g].sum() for g in range(3)] == [6, 6, 6] and (w[1, :3] == 0).all()  # leave one task out
    blocks = w[4:].reshape(200, 4, 9)
    full = blocks[:, 0]
    assert (full.sum(axis=1) == 9).all()  # three tasks of three drawn each time
    per_task = full.reshape(200, 3, 3).sum(axis=2)
    assert set(np.unique(per_task)) <= {0, 3, 6, 9}  # a task is drawn whole, 0 to 3 times
    assert (per_task == 0).any()  # some replicates leave a task out
    assert (blocks[:, 1:].sum(axis=2) == 6).all() and (blocks[:, 1:] <= blocks[:, :1]).all()  # leave one draw out
    with pytest.raises(RobotaskError, match="n_bootstrap must be at least 1"):
        resampling.task_design(groups, 0, seed=5)


def test_design_computes_on_its_copies_what_the_dense_weights_give():
    rng = np.random.default_rng(8)
    groups = rng.integers(0, 5, 60)
    design = resampling.task_design(groups, 30, seed=4)
    w = design.weights
    assert w.shape == (6 * 31, 60) and (w[0] == 1).all()
    counts = rng.integers(0, 2, (60, 3)).astype(float)
    assert np.array_equal(design.sums(counts), w @ counts)  # whole numbers: exact
    assert np.array_equal(design.block_weights.T, w[::6])
    for strata in (None, groups, rng.integers(0, 3, 60)):
        for x in (np.round(rng.normal(size=60), 1), rng.normal(size=60), np.zeros(60)):
            y = rng.integers(0, 2, 60)
            assert np.array_equal(discrimination.design_auc(x, y, design, strata),
                                  discrimination.weighted_auc(x, y, w, strata), equal_nan=True)


def test_interval_is_the_percentile_interval_without_nan():
    iv = resampling.interval(1.0, np.r_[np.arange(101.0), np.nan])
    assert (iv.estimate, iv.low, iv.high) == pytest.approx((1.0, 2.5, 97.5))


def test_auc_perfect_reversed_tied_and_as_sklearn():
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    assert discrimination.weighted_auc(np.arange(8.0), y, ONE)[0] == 1.0
    assert discrimination.weighted_auc(-np.arange(8.0), y, ONE)[0] == 0.0
    assert discrimination.weighted_auc(np.zeros(8), y, ONE)[0] == 0.5
    rng = np.random.default_rng(1)
    x, yy = np.round(rng.normal(size=300), 1), rng.integers(0, 2, 300)
    w = rng.integers(0, 3, (1, 300)).astype(float)
    rows = np.repeat(np.arange(300), w[0].astype(int))
    assert discrimination.weighted_auc(x, yy, w)[0] == pytest.approx(roc_auc_score(yy[rows], x[rows]))


def test_within_task_auc_ignores_a_signal_that_only_tells_tasks_apart():
    task = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    failure = np.array([1, 1, 1, 0, 1, 0, 0, 0])  # task 0 fails more
    by_task = task.astype(float)  # constant within a task: no information there
    assert discrimination.weighted_auc(-by_task, failure, ONE)[0] == 0.75  # (9 + 12 ties / 2) / 16 pairs
    assert discrimination.weighted_auc(-by_task, failure, ONE, task)[0] == 0.5


def test_pride_distance():
    assert discrimination.pride_distance(np.array([1.0, 0.4]), np.array([1.0, 0.8])).tolist() == pytest.approx([0, 0.4])


def test_association_perfect_none_and_confounded_by_task():
    retrieved = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    out = association.association_measures(PAIRS, retrieved, retrieved, np.zeros(8))
    assert out["success_retrieved"].estimate == 100 and out["gap"].estimate == 100 and out["mh_gap"].estimate == 100
    none = association.association_measures(PAIRS, retrieved, np.array([1, 0, 1, 0, 1, 0, 1, 0]), np.zeros(8))
    assert none["gap"].estimate == 0 and none["odds_ratio"].estimate == 1 and none["mh_gap"].estimate == 0
    # task 0 mostly retrieved and task 1 mostly missed; within each task a retrieved paraphrase succeeds
    # a third less often, which pooling over the two tasks hides (crude gap 0, within-task gap -33 points)
    task = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    hit = np.array([1, 1, 1, 0, 0, 0, 0, 1])
    success = np.array([1, 1, 0, 1, 0, 0, 1, 0])
    out = association.association_measures(PAIRS, hit, success, task)
    crude_gap = 100 * (2 / 4 - 2 / 4)
    assert out["gap"].estimate == pytest.approx(crude_gap)
    assert out["mh_gap"].estimate == pytest.approx(-100 / 3)


def test_gap_by_type_and_success_difference():
    retrieved = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    success = np.array([1, 1, 0, 0, 1, 0, 1, 0])
    masks = {"a": np.arange(8) < 4, "b": np.arange(8) >= 4}
    gaps = association.gap_by_type(PAIRS, retrieved, success, masks)
    assert gaps["a"].estimate == 100 and gaps["b"].estimate == 0
    para = pd.DataFrame({"high": ["act"] * 4 + ["comp"] * 4, "success": success})
    assert by_type.success_difference(para, PAIRS, "act", "comp").estimate == 0


def test_verdict_words_come_from_the_interval():
    assert phrases.gap_word(resampling.Interval(20, 5, 40)) == "higher when retrieved"
    assert phrases.gap_word(resampling.Interval(20, -1, 40)) == "not resolved"
    assert phrases.share(["higher", "not resolved", "higher"], "higher") == "2 of 3 rankers"
    assert phrases.signal_label("margin:libero:char") == "Char TF-IDF margin, 130 LIBERO tasks"


def test_galleries_name_the_libero_goal_tasks():
    para = paraphrases.load_paraphrases()
    assert len(para) == 4092 and para["task"].nunique() == 10
    assert set(para["task"]) == {f"libero_goal/{t}" for t in ["open_the_middle_drawer_of_the_cabinet",
                                 "open_the_top_drawer_and_put_the_bowl_inside",
                                 "push_the_plate_to_the_front_of_the_stove",
                                 "put_the_bowl_on_the_plate", "put_the_bowl_on_the_stove",
                                 "put_the_bowl_on_top_of_the_cabinet", "put_the_cream_cheese_in_the_bowl",
                                 "put_the_wine_bottle_on_the_rack", "put_the_wine_bottle_on_top_of_the_cabinet",
                                 "turn_on_the_stove"]}
    originals = paraphrases.gallery_frame(para, "originals")
    assert (originals["task"].nunique(), len(originals)) == (10, 10)
    libero = paraphrases.gallery_frame(para, "libero")
    assert (libero["task"].nunique(), len(libero)) == (128, 130)  # two scenes' "turn on the stove" join
    assert (libero["task"] == "libero_goal/turn_on_the_stove").sum() == 3


def test_interval_rows_lists_and_glue_values():
    iv = resampling.Interval.from_row({"estimate": 2.0, "low": 1.0, "high": 3.0})
    assert iv == resampling.Interval(2.0, 1.0, 3.0) and iv.as_list() == [2.0, 1.0, 3.0]
    assert iv.as_values("gap") == {"gap": 2.0, "gap_low": 1.0, "gap_high": 3.0}


def test_auc_comparisons_pick_the_best_signal_and_the_best_paper_ranker_margin():
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    signals = {"keyword": np.arange(8.0), "pride": np.r_[1, 0, 2, 3, 5, 4, 6, 7.0], "structural": np.zeros(8),
               "margin:libero:minilm": np.r_[0, 1, 2, 4, 3, 5, 6, 7.0],
               "margin:libero:bm25": np.r_[4, 0, 1, 2, 3, 5, 6, 7.0]}
    design = resampling.task_design(np.repeat(np.arange(4), 2), 20, seed=2)
    aucs, reps = discrimination.auc_intervals(signals, y, design)
    c = discrimination.auc_comparisons(aucs, reps, design)
    assert (c["best"], c["best_margin"], c["best_lexical_margin"]) == ("keyword", "margin:libero:minilm",
                                                                       "margin:libero:bm25")
    assert c["best_margin_minus_pride"][0] == pytest.approx(aucs["margin:libero:minilm"].estimate - 1.0)
    assert c["keyword_minus_pride"][0] == 0.0 and c["n_compared"] == 4 and set(c["against_reference"]) == {
        "keyword", "structural", "margin:libero:minilm", "margin:libero:bm25"}
    with pytest.raises(RobotaskError, match="reference signal 'nothing'"):
        discrimination.auc_comparisons(aucs, reps, design, reference="nothing")


def test_steps_are_deterministic_and_feed_the_home_page():
    a, b = _study(["bm25"], 30, 7), _study(["bm25"], 30, 7)
    assert a["associations"].equals(b["associations"]) and a["accuracy"].equals(b["accuracy"])
    assert list(a["associations"]["measure"].unique()) == [*association.MEASURES, "gap:act", "gap:obj", "gap:comp"]
    top, para = values.headline(a["rankers"]), a["para"]
    pairs = {"act-comp": by_type.success_difference(para, a["design"], "act", "comp").as_list()}
    acts = {g: {top: {"act-comp": [1.0, 0.0, 2.0]}} for g in paraphrases.GALLERIES}
    s = json.loads(json.dumps({
        "rankers": a["rankers"], "accuracy": a["accuracy"].to_dict("records"),
        "associations": a["associations"].to_dict("records"), "type_differences": acts,
        "data": {"n_paraphrases": len(para), "n_tasks": 10,
                 "success": {r.type: [r.estimate, r.low, r.high] for r in a["success"].itertuples()}},
        "success_differences": pairs, "aucs": {k: iv.as_list() for k, iv in a["aucs"].items()},
        "auc_comparisons": discrimination.auc_comparisons(a["aucs"], a["reps"], a["design"])}))
    home = values.policy_answer_values(s)
    assert values.policy_answer_values(None) == {}
    assert len(home) == 45 and home["policy_n_paraphrases"] == "4,092" and home["policy_headline"] == "BM25"
    assert home["policy_libero_gap_word"] in ("higher when retrieved", "lower when retrieved", "not resolved")
    assert home["policy_libero_gap_low"] <= home["policy_libero_gap"] <= home["policy_libero_gap_high"]
    assert home["policy_libero_act_comp_high"] == 2.0 and home["policy_libero_gap_share"].endswith("of 1 ranker")


def test_tables_and_figures_of_a_small_study():
    import matplotlib.pyplot as plt

    from robotask.retrieval.policy import figures, tables

    study = _study(["bm25", "char"], 20, 3)
    accuracy, assoc, rankers = study["accuracy"], study["associations"], study["rankers"]
    mid = tables.mid_table(accuracy, study["success"], "char")
    assert len(mid) == study["para"]["mid"].nunique() and mid["Paraphrases"].sum() == 4092
    high = tables.accuracy_table(accuracy, rankers, "libero", "high")
    assert list(high.columns) == ["Ranker", "all", "comp (both reworded)", "act (action reworded)",
                                  "obj (object reworded)"]
    assert tables.association_table(assoc, rankers, "originals")["Ranker"].tolist() == ["BM25", "Char TF-IDF"]
    assert len(tables.type_gap_table(assoc, rankers, "libero")) == 2
    data = tables.data_table(study["para"], study["success"])
    assert data["Paraphrases"].tolist()[0] == 4092 and len(data) == 4
    comparisons = discrimination.auc_comparisons(study["aucs"], study["reps"], study["design"])
    auc = tables.auc_table(study["aucs"], study["within"], comparisons)
    against = "Against PRIDE paraphrase distance"
    assert len(auc) == 3 + 2 * 2 and auc.set_index("Signal").at["PRIDE paraphrase distance", against] == "—"
    best, second, lead = by_type.leader(study["design"], study["accuracy_reps"], "libero", rankers)
    assert {best, second} == {"bm25", "char"} and lead.low <= lead.estimate <= lead.high
    for fig in (figures.figure_accuracy_by_type(accuracy, rankers),
                figures.figure_success_by_retrieval(assoc, rankers)):
        assert len(fig.axes) == 2
        plt.close(fig)
