"""Protocol: a hand-checked 3-task corpus, the seed-413 draws, the tie rule, policies, outputs, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.cli import main as cli_main
from robotask.errors import RobotaskError
from robotask.retrieval.protocol import reference, study
from robotask.retrieval.protocol.draws import check_corpus, design_rows, load_study_corpus, make_draws

TOY = pd.DataFrame({
    "task": ["alpha"] * 3 + ["beta"] * 3 + ["gamma"] * 3,
    "position": [0, 1, 2] * 3,
    "text": ["open the red box", "open red box now", "red box open",
             "close the blue door", "shut blue door", "press the switch",
             "press the switch", "turn the green knob", "green knob turn"],
})


def _run(frame=TOY, **kw) -> study.StudyResult:
    config = study.StudyConfig(**{"n_trials": 6, "n_matched_trials": 4, **kw})
    return study.run_study(check_corpus(frame), config)


def test_first_listed_bm25_by_hand():
    res = _run(rankers=["bm25"])
    audit = res.per_trial.query("condition == 'first_listed'").set_index("policy")
    # gallery: "open the red box" | "close the blue door" | "press the switch" (gamma).
    # beta's "press the switch" is a cross-task duplicate: matched exactly to gamma.
    # "turn the green knob" shares only "the": shortest gallery text (gamma) wins.
    # "green knob turn" shares nothing: all task scores tie at 0 -> first task (alpha), wrong.
    assert tuple(audit.loc["primary", ["n_queries", "n_excluded", "n_correct"]]) == (5, 1, 4)
    assert tuple(audit.loc["strict", ["n_queries", "n_excluded", "n_correct"]]) == (6, 0, 4)
    assert tuple(audit.loc["either", ["n_queries", "n_excluded", "n_correct"]]) == (6, 0, 5)
    assert audit.loc["primary", "accuracy"] == 80.0
    pred = res.predictions.set_index("text")["predicted"]
    assert pred["press the switch"] == "gamma" and pred["green knob turn"] == "alpha"
    assert pred["turn the green knob"] == "gamma" and pred["shut blue door"] == "beta"


def test_draws_follow_seed_413_sequence():
    corpus = check_corpus(TOY.iloc[:7].assign(task=["a", "a", "a", "b", "b", "b", "b"]))
    draws = make_draws(corpus, 413, n_trials=2, n_matched_trials=1)
    # np.random.default_rng(413): permutation(3), permutation(4), permutation(3), ...
    assert [p.tolist() for p in draws.primary[0]] == [[2, 0, 1], [3, 2, 1, 0]]
    assert draws.primary[1][0].tolist() == [0, 2, 1]
    rng = np.random.default_rng(413)
    flat = [rng.permutation(n).tolist() for _ in range(3) for n in (3, 4)]
    assert [p.tolist() for d in draws.primary + draws.matched for p in d] == flat  # matched continues
    reuse = make_draws(corpus, 413, n_trials=2, n_matched_trials=1, matched_draws="reuse")
    assert [p.tolist() for p in reuse.matched[0]] == [[2, 0, 1], [3, 2, 1, 0]]
    with pytest.raises(RobotaskError, match="n_matched_trials"):
        make_draws(corpus, 413, n_trials=1, n_matched_trials=2, matched_draws="reuse")


def test_tie_rule_rounds_and_takes_first_task():
    g_task = np.array([0, 1, 1, 2])
    sims = np.array([[0.5, 0.5 + 1e-12, 0.1, 0.5],   # equal after rounding to 1e-9 -> task 0
                     [0.2, 0.1, 0.7, 0.7],           # max over task 1's two columns ties task 2 -> 1
                     [0.0, 0.0, 0.0, 0.3]])
    pred, top = study.predict(sims, g_task, 3)
    assert pred.tolist() == [0, 1, 2]
    np.testing.assert_allclose(top, [0.5, 0.7, 0.3])


def test_policies_and_exclusion_counts():
    res = _run(rankers=["char"])
    corpus = res.corpus
    dup_rows = np.flatnonzero(corpus.duplicate)
    assert [corpus.texts[i] for i in dup_rows] == ["press the switch"] * 2
    one = res.per_trial.query("condition == 'one' and policy == 'primary'")
    for trial, perms in enumerate(res.draws.primary):
        g_rows, _, _ = design_rows(corpus, perms, 1, 1)
        expected = 2 - len(set(g_rows) & set(dup_rows))
        assert one.loc[one.trial == trial, "n_excluded"].item() == expected
    wide = res.per_trial.pivot_table(index=["condition", "trial"], columns="policy", values="n_correct")
    assert (wide["either"] >= wide["strict"]).all()
    n_q = res.per_trial.pivot_table(index=["condition", "trial"], columns="policy", values="n_queries")
    assert (n_q["strict"] == 6).loc["one"].all()


def test_matched_conditions_share_queries():
    res = _run(rankers=["bm25", "word"])
    pt = res.per_trial
    one = pt.query("condition == 'matched_one'").reset_index(drop=True)
    two = pt.query("condition == 'matched_two'").reset_index(drop=True)
    assert len(one) == 4 * 2 * 3
    assert (one["n_queries"] + one["n_excluded"] == 3).all()  # one query per task at position >= 3
    pd.testing.assert_series_equal(one["n_queries"], two["n_queries"])


def test_fast_path_equals_plain_reference():
    corpus = check_corpus(TOY)
    config = study.StudyConfig(n_trials=3, n_matched_trials=2, save_all_predictions=True)
    res = study.run_study(corpus, config)
    draws = make_draws(corpus, 413, 3, 2)
    todo = study.designs(draws, study.PARTS)
    ref = reference.reference_predictions(corpus, config, todo)
    fast = reference.fast_predictions(corpus, res.predictions)
    assert set(ref) == set(fast) and len(ref) == (3 + 2 * 2 + 1) * 5
    for key in ref:
        np.testing.assert_array_equal(ref[key], fast[key])


def test_outputs_are_byte_identical(tmp_path):
    for out in ("a", "b"):
        _run(save_all_predictions=True).write(tmp_path / out)
    for name in ("per_trial.csv", "predictions.csv", "draws.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    header = (tmp_path / "a" / "per_trial.csv").read_text().splitlines()[0]
    assert header == "trial,condition,ranker,policy,n_queries,n_excluded,n_correct,accuracy,n_tied,tie_accuracy"


def test_bad_input(tmp_path):
    with pytest.raises(RobotaskError, match="empty"):
        check_corpus(TOY.iloc[:0])
    with pytest.raises(RobotaskError, match="missing column"):
        check_corpus(TOY.drop(columns="text"))
    with pytest.raises(RobotaskError, match=r"at least 2 descriptions.*solo \(1\)"):
        check_corpus(pd.concat([TOY, pd.DataFrame({"task": ["solo"], "position": [0], "text": ["x"]})]))
    two_each = TOY[TOY.position < 2]
    with pytest.raises(RobotaskError, match="at least 3 descriptions"):
        study.run_study(check_corpus(two_each), study.StudyConfig(n_trials=1, n_matched_trials=1))
    with pytest.raises(RobotaskError, match="unknown ranker"):
        study.StudyConfig(rankers=["bm25", "nope"])
    with pytest.raises(RobotaskError, match="n_trials"):
        study.StudyConfig(n_trials=-1)
    bad = tmp_path / "bad.csv"
    bad.write_text("task,words\na,b\n")
    with pytest.raises(RobotaskError, match="missing column"):
        load_study_corpus(str(bad))


def test_cli(tmp_path, capsys):
    path = tmp_path / "toy.csv"
    TOY[["task", "text"]].to_csv(path, index=False)
    assert cli_main(["retrieval", "--corpus", str(path), "--trials", "3", "--rankers", "bm25,char",
                     "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "3 tasks, 9 descriptions, 3 galleries" in out and "Char TF-IDF" in out
    assert (tmp_path / "out" / "per_trial.csv").is_file()
    assert cli_main(["retrieval", "--corpus", str(path), "--trials", "-1"]) == 2
    assert cli_main(["retrieval", "--corpus", str(path), "--rankers", "bm25,xx"]) == 2
    assert "valid: bm25" in capsys.readouterr().err
