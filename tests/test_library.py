"""The YAML task-library reader (CALVIN format) and the derived data/calvin corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from robotask import paths
from robotask.errors import RobotaskError
from robotask.retrieval.libraries.calvin import write_calvin
from robotask.retrieval.protocol.corpus_file import LIBRARY_COLUMNS, read_corpus_file

MIRROR = Path("/work/.mirror/mees+calvin/repo")


def library(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "library.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_reads_tasks_in_file_order(tmp_path):
    path = library(tmp_path, "# c\nopen_drawer: ['open the drawer', 'pull the handle']\n"
                             "close_drawer:\n  - close the drawer\n  - '  push it shut '\n")
    frame = read_corpus_file(path)
    assert list(frame.columns) == LIBRARY_COLUMNS
    assert frame.values.tolist() == [
        ["open_drawer", 0, "open the drawer"], ["open_drawer", 1, "pull the handle"],
        ["close_drawer", 0, "close the drawer"], ["close_drawer", 1, "  push it shut "],
    ]


@pytest.mark.parametrize("text, message", [
    ("- a\n- b\n", r"holds a list; expected a non-empty mapping of task -> list of texts"),
    ("", r"holds null; expected a non-empty mapping"),
    ("a: [x, y]\nb: just text\n", r"key 'b' holds a str; expected a list of strings"),
    ("a: [x, 3]\n", r"key 'a', item 1 is an int \(3\); expected a string"),
    ("a: [x, {k: v}]\n", r"key 'a', item 1 is a dict"),
    ("1: [x, y]\n", r"key 1 is not a task name; expected a non-empty string key"),
    ("a: [x, '   ']\n", r"key 'a', item 1 is empty or whitespace"),
    ("a: [x, '']\n", r"key 'a', item 1 is empty or whitespace"),
    ("a: [x, y, x]\n", r"key 'a' repeats the text 'x' \(items 0 and 2\)"),
    ("a: [x, y]\nb: [only]\nc: []\n", r"2 tasks with fewer than 2 texts: b \(1\), c \(0\)"),
    ("a: [x, y\n", r"is not valid YAML"),
])
def test_errors_name_the_file_key_and_expectation(tmp_path, text, message):
    path = library(tmp_path, text)
    with pytest.raises(RobotaskError, match=message) as err:
        read_corpus_file(path)
    assert str(path) in str(err.value)


def test_min_texts_is_a_parameter(tmp_path):
    path = library(tmp_path, "a: [x, y]\n")
    assert len(read_corpus_file(path, min_texts=1)) == 2
    with pytest.raises(RobotaskError, match="fewer than 3 texts: a \\(2\\)"):
        read_corpus_file(path, min_texts=3)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes("a: [caf\xe9, tea]\n".encode("latin-1"))
    with pytest.raises(RobotaskError, match=r"latin.yaml is not UTF-8 text \(byte 7\)"):
        read_corpus_file(path)


def test_directory_and_missing_file(tmp_path):
    with pytest.raises(RobotaskError, match="is a directory; expected a CSV file .* or a YAML file"):
        read_corpus_file(tmp_path)
    with pytest.raises(RobotaskError, match="does not exist; expected a CSV file .* or a YAML file"):
        read_corpus_file(tmp_path / "absent.yaml")


@pytest.mark.skipif(not MIRROR.is_dir(), reason=f"CALVIN mirror {MIRROR} is absent (CI has none)")
def test_committed_calvin_corpus_equals_a_fresh_extraction(tmp_path):
    corpus = write_calvin(MIRROR, tmp_path)
    committed = paths.DATA / "calvin" / "corpus.csv"
    assert committed.read_bytes() == (tmp_path / "corpus.csv").read_bytes(), f"{committed} is stale"
    assert (corpus["task"].nunique(), len(corpus)) == (34, 389)
    notice = (paths.DATA / "calvin" / "NOTICE").read_text()
    assert "Copyright (c) 2021 Oier Mees" in notice and "MIT License" in notice
