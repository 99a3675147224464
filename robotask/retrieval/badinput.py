"""Bad input for the retrieval wing: corpora a user brings and the options of ``robotask retrieval``.

Each :class:`~robotask.catalogue.Case` writes one broken corpus into its temporary folder and makes
the call a user would make: ``robotask retrieval --corpus FILE`` (through the subcommand's own
handler, which the CLI wraps to print the message without a traceback), or
:func:`robotask.retrieval.protocol.draws.load_study_corpus` from a notebook. Windows line endings are read as
they are and raise nothing, so they are tested in ``tests/test_retrieval_badinput.py``, not here.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from ..catalogue import Case
from .protocol.draws import load_study_corpus
from .protocol.study import StudyConfig, register_cli

GOOD = "task,text\nopen_box,open the box\nopen_box,lift the lid\nclose_box,close the box\nclose_box,shut the lid\n"


def retrieval(*argv: str) -> int:
    """Run ``robotask retrieval ARGV`` through its handler (RobotaskError propagates)."""
    parser = argparse.ArgumentParser(prog="robotask")
    register_cli(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["retrieval", "--trials", "1", "--rankers", "bm25", *argv])
    return args.func(args)


def corpus_file(name: str, content: str | bytes, *argv: str) -> Callable[[Path], int]:
    """A case body: write ``content`` to ``tmp/name`` and run ``robotask retrieval --corpus`` on it."""
    def run(tmp: Path) -> int:
        path = tmp / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return retrieval("--corpus", str(path), *argv)
    return run


def fixed_files(gallery: str, queries: str, *argv: str) -> Callable[[Path], int]:
    """A case body: write ``gallery.csv`` and ``queries.csv`` (either may be "" to leave it out) and run
    ``robotask retrieval --gallery gallery.csv --queries queries.csv ARGV``."""
    def run(tmp: Path) -> int:
        given = []
        for name, content in (("gallery", gallery), ("queries", queries)):
            if content:
                (tmp / f"{name}.csv").write_text(content, encoding="utf-8")
                given += [f"--{name}", str(tmp / f"{name}.csv")]
        return retrieval(*given, *argv)
    return run


FIXED_GALLERY = "task,text\nopen_box,open the box\nclose_box,close the box\n"
FIXED_QUERIES = "task,text\nopen_box,lift the lid\nclose_box,shut the lid\nclose_box,close it\n"


def _directory(tmp: Path) -> None:
    (tmp / "corpus.csv").mkdir()
    retrieval("--corpus", str(tmp / "corpus.csv"))


def _notebook_corpus(tmp: Path) -> None:
    (tmp / "corpus.csv").write_text(GOOD.replace("shut the lid", "   "), encoding="utf-8")
    load_study_corpus(str(tmp / "corpus.csv"))


CASES: list[Case] = [
    Case("corpora", "corpus.csv starting with a UTF-8 byte-order mark", "warning",
         r"corpus\.csv: removed a UTF-8 byte-order mark", corpus_file("corpus.csv", "\ufeff" + GOOD)),
    Case("corpora", "library.yaml starting with a UTF-8 byte-order mark", "warning",
         r"library\.yaml: removed a UTF-8 byte-order mark",
         corpus_file("library.yaml", "\ufeffopen_box: [open the box, lift the lid]\nclose_box: [close it, shut it]\n")),
    Case("corpora", "a text of only spaces (notebook corpus_path)", "error",
         r"corpus\.csv: data row 4 has a whitespace-only text", _notebook_corpus),
    Case("corpora", "an empty text", "error", r"corpus\.csv: data row 2 has an empty text",
         corpus_file("corpus.csv", GOOD.replace("lift the lid", '""'))),
    Case("corpora", "the same row twice", "error", r"data rows 1 and 2 are the same row \(task 'open_box'",
         corpus_file("corpus.csv", GOOD.replace("task,text\n", "task,text\nopen_box,open the box\n"))),
    Case("corpora", "a text repeated within one task", "error",
         r"task 'close_box' repeats the text 'close the box' \(data rows 3 and 5\)",
         corpus_file("corpus.csv", "task,position,text\n" + "".join(
             f"{t},{i},{x}\n" for t, i, x in (("open_box", 0, "open the box"), ("open_box", 1, "lift the lid"),
                                              ("close_box", 0, "close the box"), ("close_box", 1, "shut the lid"),
                                              ("close_box", 2, "close the box"))))),
    Case("corpora", "a task with one text", "error",
         r"1 task(?:\(s\))? with fewer than 2 texts: push_button \(1\)",
         corpus_file("corpus.csv", GOOD + "push_button,press the button\n")),
    Case("corpora", "corpus.csv saved as Latin-1", "error", r"corpus\.csv is not UTF-8 text \(byte \d+\)",
         corpus_file("corpus.csv", (GOOD + "close_box,ferm\u00e9\n").encode("latin-1"))),
    Case("corpora", "corpus.csv exported as UTF-16 ('Unicode text')", "error",
         r"corpus\.csv is UTF-16 text .*saved as UTF-8", corpus_file("corpus.csv", GOOD.encode("utf-16"))),
    Case("corpora", "corpus.csv separated by semicolons (a spreadsheet export)", "error",
         r"corpus\.csv: the columns are separated by semicolons", corpus_file("corpus.csv", GOOD.replace(",", ";"))),
    Case("corpora", "corpus.csv separated by tabs", "error",
         r"corpus\.csv: the columns are separated by tabs", corpus_file("corpus.csv", GOOD.replace(",", "\t"))),
    Case("corpora", "a task id of only spaces", "error", r"corpus\.csv: data row 3 has a whitespace-only task",
         corpus_file("corpus.csv", GOOD.replace("close_box", "   "))),
    Case("corpora", "a directory named corpus.csv", "error", r"corpus\.csv is a directory; expected a CSV file",
         _directory),
    Case("corpora", "library.yaml holding a list, not a mapping", "error",
         r"library\.yaml holds a list; expected a non-empty mapping of task -> list of texts",
         corpus_file("library.yaml", "- open the box\n- close the box\n")),
    Case("corpora", "library.yaml with numbers in a task's list", "error",
         r"library\.yaml: key 'open_box', item 1 is an? int \(3\); expected a string",
         corpus_file("library.yaml", "open_box: [open the box, 3]\nclose_box: [close it, shut it]\n")),
    Case("corpora", "--label variation on a corpus without a variation column", "error",
         r"label 'variation' needs a variation column \(found: task, text\)",
         corpus_file("corpus.csv", GOOD, "--label", "variation")),
    Case("corpora", "--label shelf", "error", r"--label 'shelf': expected one of task, variation",
         corpus_file("corpus.csv", GOOD, "--label", "shelf")),
    Case("corpora", "--trials 0", "error", r"--trials must be at least 1 \(got 0\)",
         corpus_file("corpus.csv", GOOD, "--trials", "0")),
    Case("corpora", "--trials -3", "error", r"--trials must be at least 1 \(got -3\)",
         corpus_file("corpus.csv", GOOD, "--trials", "-3")),
    Case("corpora", "n_trials = 0 in a notebook", "error", r"n_trials must be at least 1 \(got 0\)",
         lambda tmp: StudyConfig(n_trials=0)),
    Case("corpora", "--rankers bm25,tfidf", "error", r"--rankers: unknown ranker(?:\(s\))? 'tfidf'; valid: bm25",
         corpus_file("corpus.csv", GOOD, "--rankers", "bm25,tfidf")),
    Case("fixed galleries", "--gallery without --queries", "error", r"--gallery needs --queries",
         fixed_files(FIXED_GALLERY, "")),
    Case("fixed galleries", "--gallery and --queries beside --corpus", "error",
         r"--corpus and --gallery/--queries exclude each other",
         fixed_files(FIXED_GALLERY, FIXED_QUERIES, "--corpus", "data/rlbench/corpus.csv")),
    Case("fixed galleries", "queries.csv naming a task the gallery lacks", "error",
         r"queries\.csv: 1 query task\(s\) not in the gallery: 'push_button'; expected every query's task",
         fixed_files(FIXED_GALLERY, FIXED_QUERIES + "push_button,press it\n")),
    Case("fixed galleries", "gallery.csv with one task", "error",
         r"the gallery has 1 task; expected at least 2 tasks",
         fixed_files("task,text\nopen_box,open the box\n", "task,text\nopen_box,lift the lid\n")),
    Case("fixed galleries", "gallery.csv separated by semicolons", "error",
         r"gallery\.csv: the columns are separated by semicolons",
         fixed_files(FIXED_GALLERY.replace(",", ";"), FIXED_QUERIES)),
    Case("fixed galleries", "queries.csv without a text column", "error",
         r"queries\.csv: missing column text",
         fixed_files(FIXED_GALLERY, "task,instruction\nopen_box,lift the lid\n")),
]
