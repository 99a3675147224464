"""Fixed-gallery retrieval: placement (prediction, margin, rank) and ``robotask retrieval --gallery --queries``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.cli import main
from robotask.errors import RobotaskError
from robotask.retrieval.protocol import fixed_gallery, study


def test_place_gives_margin_rank_and_the_protocol_tie_rule():
    scores = np.array([[0.9, 0.5, 0.1],   # own 0: retrieved, margin 0.4
                       [0.9, 0.5, 0.1],   # own 2: third, margin -0.8
                       [0.5, 0.5, 0.2],   # own 1: tied with task 0, which comes first: rank 2
                       [0.5, 0.5, 0.2]])  # own 0: tied, own comes first: retrieved, margin 0
    p = fixed_gallery.place(scores, np.array([0, 2, 1, 0]))
    assert p.rank.tolist() == [1, 3, 2, 1]
    assert p.correct.tolist() == [True, False, False, True]
    np.testing.assert_allclose(p.margin, [0.4, -0.8, 0.0, 0.0])
    assert p.prediction.tolist() == [0, 0, 0, 0]
    assert fixed_gallery.TIE_DECIMALS == study.TIE_DECIMALS


def test_rank_one_is_the_protocol_prediction():
    rng = np.random.default_rng(3)
    s = np.round(rng.random((200, 6)), 1)  # many ties
    own = rng.integers(0, 6, 200)
    p = fixed_gallery.place(s, own)
    pred, _ = study.predict(s, np.arange(6), 6)
    assert np.array_equal(p.correct, pred == own)


def test_task_score_is_the_maximum_over_a_task_texts():
    g = fixed_gallery.Gallery.from_frame(pd.DataFrame({"task": ["b", "a", "b"], "text": ["x", "y", "z"]}))
    assert g.tasks == ("a", "b") and g.texts == ("y", "x", "z")
    out = fixed_gallery.gallery_task_scores(np.array([[0.1, 0.7, 0.3]]), g)
    np.testing.assert_allclose(out, [[0.1, 0.7]])


def test_run_fixed_scores_repeated_queries_alike():
    gallery = pd.DataFrame({"task": ["open", "close"], "text": ["open the box", "close the box"]})
    queries = pd.DataFrame({"task": ["open", "close", "close"],
                            "text": ["open the lid", "close the lid", "close the lid"]})
    out = fixed_gallery.run_fixed(gallery, queries, ["bm25", "char"])
    assert out.correct.all() and (out["rank"] == 1).all() and (out.margin > 0).all()
    assert list(dict.fromkeys(out.ranker)) == ["bm25", "char"] and len(out) == 6
    with pytest.raises(RobotaskError, match="query task"):
        fixed_gallery.run_fixed(gallery, queries.assign(task="push"), ["bm25"])


def test_cli_prints_accuracy_and_writes_per_query(tmp_path, capsys):
    (tmp_path / "g.yaml").write_text("open_box: [open the box]\nclose_box: [close the box]\n")
    (tmp_path / "q.csv").write_text("task,text\nopen_box,open the lid\nclose_box,open the box please\n")
    code = main(["retrieval", "--gallery", str(tmp_path / "g.yaml"), "--queries", str(tmp_path / "q.csv"),
                 "--rankers", "bm25", "--out", str(tmp_path / "out")])
    assert code == 0
    printed = capsys.readouterr().out
    assert "2 gallery tasks, 2 gallery texts, 2 queries" in printed and "50.0" in printed
    per_query = pd.read_csv(tmp_path / "out" / "fixed_predictions.csv")
    assert list(per_query.columns) == fixed_gallery.QUERY_COLUMNS
    assert per_query.task.tolist() == ["open_box", "close_box"] and per_query["rank"].tolist() == [1, 2]  # file order
    assert per_query.prediction.tolist() == ["open_box", "open_box"]
