"""Bad corpora and options of the retrieval wing: every catalogue case gets its outcome; the inputs
that are read as they are (Windows line endings, a byte-order mark) give the same corpus as clean ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from robotask import paths
from robotask.catalogue import run_case
from robotask.retrieval import badinput
from robotask.retrieval.protocol.corpus_file import read_corpus_file
from robotask.retrieval.protocol.draws import load_study_corpus


@pytest.mark.parametrize("case", badinput.CASES, ids=lambda c: c.name)
def test_case_gets_its_outcome(case):
    outcome = run_case(case)
    assert outcome.ok, f"{case.name}: got {outcome.got}: {outcome.message}"


def test_crlf_and_bom_read_like_a_clean_file(tmp_path):
    clean = tmp_path / "clean.csv"
    clean.write_text(badinput.GOOD, encoding="utf-8")
    crlf = tmp_path / "crlf.csv"
    crlf.write_bytes(badinput.GOOD.replace("\n", "\r\n").encode("utf-8"))
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + badinput.GOOD.encode("utf-8"))
    expected = read_corpus_file(clean)
    assert read_corpus_file(crlf).equals(expected)
    with pytest.warns(UserWarning, match="removed a UTF-8 byte-order mark"):
        assert read_corpus_file(bom).equals(expected)
    assert not expected["text"].str.contains("\r").any()


def test_yaml_library_and_keep_repeats(tmp_path):
    lib = tmp_path / "lib.yml"
    lib.write_text("a: [x, y, x]\nb: [u, v]\n")
    with pytest.raises(Exception, match="repeats the text 'x'"):
        load_study_corpus(str(lib))
    corpus = load_study_corpus(str(lib), keep_repeats=True)
    assert corpus.tasks == ["a", "b"] and len(corpus.texts) == 5


def _cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "robotask.cli", *argv], capture_output=True, text=True,
                          cwd=paths.ROOT)


def test_cli_on_calvin_and_on_variations():
    calvin = _cli("retrieval", "--corpus", "data/calvin/corpus.csv", "--trials", "2")
    assert calvin.returncode == 0, calvin.stderr
    assert "34 tasks, 389 descriptions, 2 galleries" in calvin.stdout
    variation = _cli("retrieval", "--corpus", "data/rlbench/full/corpus.csv", "--label", "variation",
                     "--keep-repeated-texts", "--trials", "1", "--rankers", "bm25")
    assert variation.returncode == 0, variation.stderr
    assert "568 variations, 2451 descriptions, 1 gallery" in variation.stdout


def test_cli_prints_the_message_without_a_traceback(tmp_path):
    bad = tmp_path / "corpus.csv"
    bad.write_text(badinput.GOOD)
    proc = _cli("retrieval", "--corpus", str(bad), "--trials", "0")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "robotask: error: --trials must be at least 1 (got 0)"
    # A corpus the study ships is read as authored (its repeated texts kept), named or not.
    shipped = _cli("retrieval", "--corpus", "data/rlbench/full/corpus.csv", "--label", "variation", "--trials", "1")
    assert shipped.returncode == 0 and "Traceback" not in shipped.stderr


def test_default_corpus_unchanged():
    corpus = load_study_corpus("")
    assert len(corpus.tasks) == 62 and len(corpus.texts) == 295
    assert Path(paths.ROOT / "data/rlbench/corpus.csv").is_file()
