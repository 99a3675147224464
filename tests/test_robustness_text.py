"""One text in any Unicode form ranks the same; repeated keys and columns are errors; repeated queries are scored;
a large query file streams (issue 51)."""

from __future__ import annotations

import unicodedata

import numpy as np
import pandas as pd
import pytest

from robotask.cli import main
from robotask.errors import RobotaskError
from robotask.retrieval.protocol import fixed_gallery
from robotask.retrieval.protocol.corpus_file import query_chunks, read_corpus_file
from robotask.retrieval.protocol.draws import check_corpus
from robotask.retrieval.rankers.lexical import TextIndex
from robotask.retrieval.rankers.normalise import normalise
from robotask.retrieval.rankers.registry import score

GALLERY = ["Stelle das Glas neben den Teller", "place the café crème on the plate", "öffne die Schublade",
           "pick up the naïve robot's cup", "close the door of the façade"]
QUERIES = ["put the café crème down on the plate", "open die Schublade now", "the façade door: close it",
           "lift the naïve robot's cup", "neben den Teller, das Glas"]


def test_normalise_removes_invisibles_composes_and_collapses():
    assert normalise("caf\u0065\u0301\u200b  au\u00a0lait\t\n") == "café au lait"
    assert normalise("\ufeffopen\u200d the\u2060 box\x07") == "open the box"
    assert normalise("open the  dishwasher door") == "open the dishwasher door"
    assert normalise("x²") == "x²"  # NFC keeps compatibility characters (NFKC would make it "x2")


@pytest.mark.parametrize("ranker", ["bm25", "word", "char", "word_char", "lsa"])
@pytest.mark.parametrize("form", ["NFD", "NFKD", "NFKC"])
def test_any_normal_form_gives_the_same_ranking_and_margin(ranker, form):
    gallery = pd.DataFrame({"task": ["a", "b", "c", "d", "e"], "text": GALLERY})
    queries = pd.DataFrame({"task": ["b", "c", "e", "d", "a"], "text": QUERIES})
    nfc = fixed_gallery.run_fixed(gallery, queries, [ranker])
    other = queries.assign(text=[unicodedata.normalize(form, t).replace(" ", " \u200b") for t in QUERIES])
    assert [unicodedata.normalize("NFC", t) for t in other.text] != other.text.tolist() or form == "NFKC"
    moved = fixed_gallery.run_fixed(gallery.assign(text=[unicodedata.normalize(form, t) for t in GALLERY]),
                                    other, [ranker])
    assert moved.prediction.tolist() == nfc.prediction.tolist()
    assert moved["rank"].tolist() == nfc["rank"].tolist()
    np.testing.assert_allclose(moved.margin, nfc.margin, rtol=0, atol=1e-12)


def test_text_index_finds_either_form_and_scores_alike():
    nfd = [unicodedata.normalize("NFD", t) for t in GALLERY]
    index = TextIndex(nfd + QUERIES)
    with_index = score("char", nfd, QUERIES, index=index)
    np.testing.assert_allclose(with_index, score("char", GALLERY, QUERIES), rtol=0, atol=1e-12)


def test_a_text_in_two_forms_is_one_text(tmp_path):
    nfc, nfd = "place the café cup", unicodedata.normalize("NFD", "place the café cup")
    (tmp_path / "c.csv").write_text(f"task,text\na,{nfc}\na,{nfd}\nb,x y\nb,y z\n", encoding="utf-8")
    with pytest.raises(RobotaskError, match=r"task 'a' repeats the text"):
        read_corpus_file(tmp_path / "c.csv")
    corpus = check_corpus(pd.DataFrame({"task": ["a", "a", "b", "b"], "text": [nfc, "u v", nfd, "y z"]}))
    assert corpus.duplicate.tolist() == [True, False, True, False]
    assert corpus.texts[2] == nfd  # kept as authored


def test_a_yaml_key_written_twice_names_both_lines(tmp_path):
    (tmp_path / "lib.yaml").write_text("open_box: [open it, lift the lid]\nclose_box: [close it, shut it]\n"
                                       "open_box: [open the box, raise the lid]\n")
    with pytest.raises(RobotaskError, match=r"lib\.yaml: key 'open_box' appears twice \(lines 1 and 3\)"):
        read_corpus_file(tmp_path / "lib.yaml")


def test_a_csv_header_repeating_a_column_is_an_error(tmp_path):
    (tmp_path / "c.csv").write_text("task,text,text\na,x,y\na,y,z\nb,u,v\nb,v,w\n")
    with pytest.raises(RobotaskError, match=r"c\.csv: the header repeats column 'text' \(columns 2 and 3\)"):
        read_corpus_file(tmp_path / "c.csv")
    with pytest.raises(RobotaskError, match=r"the header repeats column 'text'"):
        list(query_chunks(tmp_path / "c.csv"))


def test_repeated_queries_are_each_scored(tmp_path, capsys):
    (tmp_path / "g.csv").write_text("task,text\nopen_box,open the box\nclose_box,close the box\n")
    (tmp_path / "q.csv").write_text("task,text\nopen_box,open it\nopen_box,open it\nclose_box,close it\n"
                                    "open_box,open it\n")
    code = main(["retrieval", "--gallery", str(tmp_path / "g.csv"), "--queries", str(tmp_path / "q.csv"),
                 "--rankers", "bm25", "--out", str(tmp_path / "out")])
    assert code == 0
    assert "4 queries (2 repeat an earlier task and text; each is scored on its own)" in capsys.readouterr().out
    rows = pd.read_csv(tmp_path / "out" / "fixed_predictions.csv")
    assert len(rows) == 4 and rows.position.tolist() == [0, 1, 0, 2]


def test_a_repeated_gallery_text_needs_the_flag(tmp_path, capsys):
    (tmp_path / "g.csv").write_text("task,text\nopen_box,open the box\nopen_box,open the box\nclose_box,shut\n")
    (tmp_path / "q.csv").write_text("task,text\nopen_box,open it\n")
    argv = ["retrieval", "--gallery", str(tmp_path / "g.csv"), "--queries", str(tmp_path / "q.csv"),
            "--rankers", "bm25"]
    assert main(argv) == 2
    assert "same row" in capsys.readouterr().err
    assert main([*argv, "--keep-repeated-texts"]) == 0


def test_queries_stream_in_chunks_with_the_same_result(tmp_path):
    gallery = pd.DataFrame({"task": ["a", "b", "c"], "text": ["open the box", "close the door", "pick the cup"]})
    rng = np.random.default_rng(0)
    words = np.array(["open", "close", "the", "box", "door", "cup", "pick", "lid"])
    queries = pd.DataFrame({"task": rng.choice(["a", "b", "c"], 2500),
                            "text": [" ".join(rng.choice(words, 4)) for _ in range(2500)]})
    queries.to_csv(tmp_path / "q.csv", index=False)
    whole = fixed_gallery.run_fixed(gallery, queries, ["char"])
    chunks = list(query_chunks(tmp_path / "q.csv", rows=1000))
    assert [len(c) for c in chunks] == [1000, 1000, 500]
    table, _ = fixed_gallery.stream_fixed(gallery, tmp_path / "q.csv", ["char"], tmp_path, progress=False)
    streamed = pd.read_csv(tmp_path / "fixed_predictions.csv")
    assert table.n_correct.tolist() == [int(whole.correct.sum())]
    np.testing.assert_allclose(streamed.margin, whole.margin.round(9), atol=1e-9)


def test_a_gallery_too_large_is_refused_up_front():
    big = pd.DataFrame({"task": "t", "text": [f"text {i}" for i in range(fixed_gallery.MAX_GALLERY_TEXTS + 1)]})
    with pytest.raises(RobotaskError, match=r"20001 gallery texts; expected at most 20,000"):
        fixed_gallery.check_gallery_size(big, "g.csv")
