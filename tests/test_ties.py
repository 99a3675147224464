"""The tie rule: a k-way tie that includes the right task counts 1/k, and a task's name never decides."""

from __future__ import annotations

import numpy as np
import pandas as pd

from robotask.cli import main
from robotask.retrieval.protocol import check_corpus, fixed_gallery, run_study, study

LIBRARY = {  # pick_cup sorts first; each task has two texts; the last query shares no word with any text
    "turn_tap": ["turn the tap", "twist the faucet handle"],
    "pick_cup": ["pick up the cup", "grasp the mug"],
    "push_button": ["push the button", "press the red switch"],
    "stack_blocks": ["stack the blocks", "put one block on another"],
}
QUERIES = [("turn_tap", "turn tap handle"), ("pick_cup", "pick the cup"), ("push_button", "press button"),
           ("stack_blocks", "stack blocks"), ("pick_cup", "zzz qqq")]


def _files(tmp_path, rename: dict[str, str]):
    gallery = pd.DataFrame([(rename.get(t, t), x) for t, xs in LIBRARY.items() for x in xs], columns=["task", "text"])
    queries = pd.DataFrame([(rename.get(t, t), x) for t, x in QUERIES], columns=["task", "text"])
    g, q = tmp_path / f"g{len(rename)}.csv", tmp_path / f"q{len(rename)}.csv"
    gallery.to_csv(g, index=False)
    queries.to_csv(q, index=False)
    return gallery, queries, g, q


def test_all_zero_scores_among_k_tasks_count_one_over_k():
    at_top = np.array([[True, True, True, True], [True, False, False, False], [False, True, True, False]])
    right = np.array([[False, True, False, False], [True, False, False, False], [True, False, False, False]])
    np.testing.assert_allclose(study.tie_credit(at_top, right), [0.25, 1.0, 0.0])
    pred, top, tied = study.predict_ties(np.zeros((1, 4)), np.arange(4), 4)  # no shared word: 0 everywhere
    assert pred.tolist() == [0] and top.tolist() == [0.0] and tied.sum() == 4
    p = fixed_gallery.place(np.zeros((2, 4)), np.array([3, 0]))
    assert p.n_top.tolist() == [4, 4] and np.allclose(p.credit, 0.25)
    assert p.correct.tolist() == [False, True]  # the paper's rule: the first task in sorted order wins


def test_renaming_a_task_moves_the_paper_rule_but_not_the_tie_rule(tmp_path):
    tables = {}
    for rename in ({}, {"pick_cup": "zz_pick_cup"}):
        gallery, _, _, q = _files(tmp_path, rename)
        tables[len(rename)] = fixed_gallery.stream_fixed(gallery, q, ["bm25"], None, progress=False)[0]
    before, after = tables[0].iloc[0], tables[1].iloc[0]
    assert before["n_tied"] == after["n_tied"] >= 1
    assert before["tie_accuracy"] == after["tie_accuracy"]
    assert before["accuracy"] != after["accuracy"]  # the zero-score query went to the task that sorts first


def test_study_tie_accuracy_does_not_depend_on_task_names():
    rows = [(t, x) for t, xs in LIBRARY.items() for x in xs] + [("pick_cup", "zzz qqq")]
    config = study.StudyConfig(n_trials=1, n_matched_trials=0, rankers=["bm25", "char"])
    out = {}
    for name in ("pick_cup", "zz_pick_cup"):  # the first-listed gallery: no draws, so only the name changes
        frame = pd.DataFrame([(name if t == "pick_cup" else t, x) for t, x in rows], columns=["task", "text"])
        per_trial = run_study(check_corpus(frame, 2), config, parts=("audit",)).per_trial
        out[name] = per_trial.set_index(["ranker", "policy"]).sort_index()
    a, b = out["pick_cup"], out["zz_pick_cup"]
    columns = run_study(check_corpus(frame, 2), config, parts=("audit",)).per_trial.columns
    assert list(columns) == study.PER_TRIAL_COLUMNS
    assert (a["n_tied"] >= 1).all() and a["n_tied"].equals(b["n_tied"])
    np.testing.assert_allclose(a["tie_accuracy"], b["tie_accuracy"])
    assert (a.loc["bm25", "accuracy"] > b.loc["bm25", "accuracy"]).all()  # the paper's rule moves


def test_study_counts_a_zero_score_query_one_over_k():
    frame = pd.DataFrame([("a", "red cube"), ("a", "red block"), ("b", "blue ball"), ("b", "blue sphere"),
                          ("a", "zzz")], columns=["task", "text"])
    corpus = check_corpus(frame, 2)
    config = study.StudyConfig(n_trials=1, n_matched_trials=0, rankers=["bm25"], save_all_predictions=True)
    res = run_study(corpus, config, parts=("audit",))
    pred = res.predictions.set_index("text")
    assert pred.loc["zzz", "n_top"] == 2 and pred.loc["zzz", "tie_credit"] == 0.5
    row = res.per_trial.query("policy == 'primary'").iloc[0]
    assert row["n_tied"] == int((res.predictions["n_top"] > 1).sum())
    np.testing.assert_allclose(row["tie_accuracy"], 100 * res.predictions["tie_credit"].mean())


def test_cli_prints_the_tie_count_beside_each_accuracy(tmp_path, capsys):
    _, _, g, q = _files(tmp_path, {})
    assert main(["retrieval", "--gallery", str(g), "--queries", str(q), "--rankers", "bm25,char",
                 "--out", str(tmp_path / "out")]) == 0
    text = capsys.readouterr().out
    assert "n_tied" in text and "tie_accuracy" in text
    table = pd.read_csv(tmp_path / "out" / "fixed_accuracy.csv")
    assert list(table.columns) == fixed_gallery.ACCURACY_COLUMNS and (table["n_tied"] >= 1).all()
    per_query = pd.read_csv(tmp_path / "out" / "fixed_predictions.csv")
    assert list(per_query.columns) == fixed_gallery.QUERY_COLUMNS
