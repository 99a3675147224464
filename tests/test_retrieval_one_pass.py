"""Built in one pass, the same as before: outcome matrices, query ids, duplicate counts and prediction frames;
and the retrieval rooms import without sklearn or scipy.stats until a page scores or asks for a share."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.errors import RobotaskError
from robotask.retrieval.statistics import bootstrap as B


def _per_query(seed: int = 0) -> pd.DataFrame:
    """Three rankers; tasks named out of sorted order, trials out of order, and each ranker missing some rows."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in rng.permutation(9):
        for j, task in enumerate(["zeta", "alpha", "Mu", "beta_2", "beta_10"]):
            for i in range(j % 3 + 2):
                for ranker in ("weak", "good", "lsa"):
                    if rng.random() < 0.75:
                        rows.append((int(t), ranker, f"{task}:{i}", task, int(rng.random() < 0.6)))
    return pd.DataFrame(rows, columns=["trial", "ranker", "query_id", "task", "correct"])


def _pivot(per_query: pd.DataFrame, ranker: str) -> B.CorrectnessMatrix:
    """The oracle: filter the ranker, pivot, and reindex on every description and trial of the frame."""
    sub = per_query[per_query["ranker"] == ranker]
    ids = per_query[["query_id", "task"]].drop_duplicates().sort_values(["task", "query_id"])
    trials = np.sort(per_query["trial"].unique())
    table = sub.pivot(index="trial", columns="query_id", values="correct")
    table = table.reindex(index=trials, columns=ids["query_id"].to_numpy())
    return B.CorrectnessMatrix(trials, ids["query_id"].to_numpy(), ids["task"].to_numpy(),
                               table.to_numpy(dtype=np.float64))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_ranker_gets_the_matrix_a_pivot_gives(seed):
    pq = B.check_per_query(_per_query(seed))
    found = B.correctness_matrices(pq, ["lsa", "weak", "good"])
    assert list(found) == ["lsa", "weak", "good"]
    for ranker, mat in found.items():
        want = _pivot(pq, ranker)
        np.testing.assert_array_equal(mat.values, want.values)  # NaN where not a query, in the same places
        assert mat.query_ids.tolist() == want.query_ids.tolist()
        assert mat.tasks.tolist() == want.tasks.tolist() and mat.trials.tolist() == want.trials.tolist()
        assert mat.query_ids.dtype == want.query_ids.dtype and mat.trials.dtype == want.trials.dtype
    one = B.correctness_matrix(pq, "good")
    np.testing.assert_array_equal(one.values, found["good"].values)


def test_a_missing_ranker_and_an_id_under_two_tasks_are_refused():
    pq = B.check_per_query(_per_query())
    with pytest.raises(RobotaskError, match="ranker 'bm25' has no rows"):
        B.correctness_matrices(pq, ["good", "bm25"])
    bad = pq.copy()
    bad.loc[bad.index[0], "task"] = "other"
    with pytest.raises(RobotaskError, match="appears under two tasks"):
        B.correctness_matrices(bad, ["good"])


def test_duplicate_rows_are_counted_as_pandas_counts_them():
    pq = _per_query()
    extra = pq.iloc[[0, 3, 3, 7]]
    want = int(pd.concat([pq, extra]).duplicated(["trial", "ranker", "query_id"]).sum())
    with pytest.raises(RobotaskError, match=f": {want} duplicate"):
        B.check_per_query(pd.concat([pq, extra], ignore_index=True))
    assert len(B.check_per_query(pq)) == len(pq)


def test_query_ids_are_the_rowwise_text_with_its_dtype_and_index():
    rng = np.random.default_rng(3)
    task = pd.Series(rng.choice(["open_drawer", "close_jar", "push:button"], 500), index=rng.permutation(500) + 7)
    position = pd.Series(rng.integers(0, 12, 500), index=task.index)
    want = task + ":" + position.astype(str)
    found = B.query_ids(task, position)
    pd.testing.assert_series_equal(found, want, check_names=False)
    empty = B.query_ids(task.iloc[:0], position.iloc[:0])
    assert len(empty) == 0


def test_a_retrieval_page_that_scores_nothing_imports_neither_sklearn_nor_scipy_stats():
    """sklearn (about 1 s of CPU) loads when a ranker first counts terms, scipy.stats when a share's interval is
    first asked for: the home page and the reports import the retrieval rooms without paying for either."""
    import subprocess
    import sys

    code = ("import sys; import robotask.retrieval.presentation, robotask.retrieval.protocol, "
            "robotask.retrieval.libraries, robotask.retrieval.statistics; "
            "print('sklearn' in sys.modules, 'scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
    from robotask.retrieval.libraries.transfer_tables import share_interval
    from robotask.retrieval.rankers.lexical import score_word

    assert score_word(["open the drawer", "close the jar"], ["open drawer"]).argmax() == 0
    low, high = share_interval(9, 10)
    assert 0.5 < low < 0.9 < high <= 1.0


def test_the_prediction_frame_built_at_once_is_the_frames_of_each_trial_concatenated():
    """Oracle: one frame per trial and ranker (scalars broadcast), then ``pd.concat``: the same values and dtypes."""
    from robotask.retrieval.protocol import study
    from robotask.retrieval.protocol.draws import load_study_corpus

    corpus = load_study_corpus("")
    config = study.config_from_parameters(seed=5, n_trials=3, n_matched_trials=2, rankers=["bm25", "char"],
                                          save_all_predictions=True)
    found = study.run_study(corpus, config).predictions
    rng = np.random.default_rng(0)
    parts = []
    for trial, ranker in [(0, "bm25"), (1, "char"), (7, "bm25")]:
        q_rows = np.sort(rng.choice(len(corpus.texts), 11, replace=False))
        sim = rng.random((len(q_rows), len(corpus.tasks)))
        at_top = sim >= sim.max(axis=1, keepdims=True)
        parts.append(study._prediction_columns(corpus, "one", trial, ranker, q_rows, sim.argmax(axis=1),
                                               sim.max(axis=1), at_top))
    want = pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)
    pd.testing.assert_frame_equal(study._prediction_frame(parts), want, check_exact=True)
    assert found["condition"].dtype == want["condition"].dtype and found["trial"].dtype == np.int64
    assert len(found) == len(found.drop_duplicates(["condition", "trial", "ranker", "task", "position"]))
