"""The LIBERO-Para extraction on a small fixture checkout, and the committed data/libero_para/."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from robotask import paths
from robotask.errors import RobotaskError
from robotask.retrieval.libraries import libero_para

FIXTURE = Path(__file__).parent / "data" / "libero_para_checkout"
REV = "0123456789ab"


def test_fixture_rows_join_files_metadata_and_logs():
    corpus, accounting = libero_para.libero_para_rows(FIXTURE, REV)
    assert list(corpus.columns) == libero_para.CORPUS_COLUMNS
    assert corpus.task.tolist() == ["eval0", "eval0", "eval1", "eval1"]
    assert corpus.text.tolist()[2] == "find the stove, and turn it on"
    assert corpus.success.tolist() == [1, 0, 0, 1]
    assert corpus.set_index("text").loc["turn on the cooker", ["high", "keyword_similarity"]].tolist() == ["obj", 0.8]
    counts = accounting.groupby(["kind", "status"]).size().to_dict()
    assert counts == {("paraphrase file", "joined"): 4, ("paraphrase file", "unmatched"): 1,
                      ("metadata row", "joined"): 4, ("metadata row", "unmatched"): 1,
                      ("logged episode", "joined"): 4, ("logged episode", "unmatched"): 1,
                      ("task", "joined"): 2}
    reasons = accounting.set_index(["kind", "key"])["reason"]
    assert reasons["paraphrase file", "act_pragmatical_hint_eval1_ver0.bddl"] == "no metadata row names this file"
    assert reasons["metadata row", "act_structural_coordination_eval1_ver3.bddl"] == "no paraphrase file of this name"
    assert reasons["task", "eval1"].startswith("2 of 3 paraphrases joined")


def test_fixture_writes_the_folder(tmp_path):
    out = libero_para.main([str(FIXTURE), "--revision", REV, "--out", str(tmp_path / "out")])
    assert out == 0
    notice = (tmp_path / "out" / "NOTICE").read_text()
    assert "Copyright (c) 2099 Fixture Authors" in notice and REV in notice
    assert len(pd.read_csv(tmp_path / "out" / "corpus.csv")) == 4


def test_a_logged_text_that_differs_is_left_out(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "c")
    log = tmp_path / "c" / libero_para.LOGS / "eval0.json"
    data = json.loads(log.read_text())
    data["episodes"][0]["paraphrased_instruction"] = "something else"
    log.write_text(json.dumps(data))
    corpus, accounting = libero_para.libero_para_rows(tmp_path / "c", REV)
    assert len(corpus) == 3
    row = accounting[(accounting.kind == "logged episode") & (accounting.status == "unmatched")]
    assert "act_lexical_addition_deletion_eval0_ver0.bddl" in row.key.tolist()


def test_bad_checkouts_raise_naming_what(tmp_path):
    with pytest.raises(RobotaskError, match="no .bddl files; expected a LIBERO-Para checkout"):
        libero_para.libero_para_rows(tmp_path, REV)
    with pytest.raises(RobotaskError, match="12 lowercase hex digits"):
        libero_para.libero_para_rows(FIXTURE, "HEAD")
    shutil.copytree(FIXTURE, tmp_path / "c")
    (tmp_path / "c" / libero_para.LOGS / "eval1.json").write_text("{not json")
    with pytest.raises(RobotaskError, match=r"eval1\.json: not a LIBERO-Para log"):
        libero_para.libero_para_rows(tmp_path / "c", REV)


def test_committed_libero_para_is_complete():
    corpus = pd.read_csv(paths.DATA / "libero_para" / "corpus.csv", keep_default_na=False)
    accounting = pd.read_csv(paths.DATA / "libero_para" / "accounting.csv", keep_default_na=False)
    assert list(corpus.columns) == libero_para.CORPUS_COLUMNS
    assert len(corpus) == 4092 and corpus.task.nunique() == 10 and corpus.original.nunique() == 10
    assert set(corpus.high) == {"act", "obj", "comp"}
    assert set(accounting.status) == {"joined"}
    assert accounting.kind.value_counts().to_dict() == {"paraphrase file": 4092, "metadata row": 4092,
                                                        "logged episode": 4092, "task": 10}
    assert set(corpus.success) == {0, 1}
