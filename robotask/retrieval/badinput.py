"""Bad input for the retrieval wing: corpora a user brings and the options of ``robotask retrieval``.

Each :class:`~robotask.catalogue.Case` writes one broken corpus into its temporary folder and makes
the call a user would make: ``robotask retrieval --corpus FILE`` (through the subcommand's own
handler, which the CLI wraps to print the message without a traceback), or
:func:`robotask.retrieval.protocol.draws.load_study_corpus` from a notebook. Windows line endings are read as
they are and raise nothing, so they are tested in ``tests/test_retrieval_badinput.py``, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..catalogue import Case
from ..errors import Parser
from .protocol.draws import load_study_corpus
from .protocol.study import StudyConfig, register_cli

GOOD = "task,text\nopen_box,open the box\nopen_box,lift the lid\nclose_box,close the box\nclose_box,shut the lid\n"


def retrieval(*argv: str) -> int:
    """Run ``robotask retrieval ARGV`` through its handler (RobotaskError propagates)."""
    parser = Parser(prog="robotask")
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


def _forms_alike(tmp: Path) -> str:
    """A gallery in NFC and the same queries in NFD with zero-width spaces: the same predictions and margins."""
    import unicodedata

    import numpy as np
    import pandas as pd

    from .protocol.fixed_gallery import run_fixed

    gallery = pd.DataFrame({"task": ["a", "b"], "text": ["place the café crème on the plate", "öffne die Tür"]})
    queries = pd.DataFrame({"task": ["a", "b"], "text": ["put the café crème down", "die Tür öffnen"]})
    nfd = queries.assign(text=[unicodedata.normalize("NFD", t).replace(" ", "\u200b ") for t in queries.text])
    one, two = (run_fixed(gallery, q, ["bm25", "char"]) for q in (queries, nfd))
    same = (one.prediction == two.prediction).all() and np.abs(one.margin - two.margin).max() <= 1e-12
    return f"same predictions and margins (to 1e-12) for NFC and NFD with zero-width spaces: {bool(same)}"


def _queries_repeat(tmp: Path) -> str:
    """A query file that repeats a (task, text) pair, as LIBERO-Para's paraphrase table does: each row is scored."""
    import pandas as pd

    fixed_files(FIXED_GALLERY, FIXED_QUERIES + "close_box,close it\nclose_box,close it\n", "--out", str(tmp))(tmp)
    rows = pd.read_csv(tmp / "fixed_predictions.csv")
    return f"{len(rows)} query rows scored, {int(rows.duplicated(['task', 'text']).sum())} of them repeats"


def _gallery_repeat_kept(tmp: Path) -> str:
    """--keep-repeated-texts keeps a gallery text written twice."""
    fixed_files(FIXED_GALLERY + "open_box,open the box\n", FIXED_QUERIES, "--keep-repeated-texts")(tmp)
    return "gallery with a repeated text scored with --keep-repeated-texts"


def _streamed(tmp: Path) -> str:
    """A query file longer than one chunk: read and scored in chunks, every row counted."""
    import pandas as pd

    from .protocol import fixed_gallery

    rows = "".join(f"open_box,lift the lid {i}\nclose_box,shut the lid {i}\n" for i in range(12_500))
    (tmp / "queries.csv").write_text("task,text\n" + rows, encoding="utf-8")
    gallery = pd.DataFrame({"task": ["open_box", "close_box"], "text": ["open the box", "close the box"]})
    table, _ = fixed_gallery.stream_fixed(gallery, tmp / "queries.csv", ["bm25"], None, progress=False)
    return f"{int(table.n_queries.iloc[0])} queries scored in chunks of {fixed_gallery.CHUNK_ROWS}"


def _not_utf8_late(tmp: Path) -> int:
    """A query file whose bytes stop being UTF-8 after its first chunk."""
    rows = "".join(f"open_box,lift the lid {i}\n" for i in range(15_000))
    (tmp / "queries.csv").write_bytes(("task,text\n" + rows).encode() + b"close_box,ferm\xe9 la bo\xeete\n")
    (tmp / "gallery.csv").write_text(FIXED_GALLERY, encoding="utf-8")
    return retrieval("--gallery", str(tmp / "gallery.csv"), "--queries", str(tmp / "queries.csv"))


def _huge_gallery(tmp: Path) -> int:
    """A gallery of 20,001 texts, refused before any query is read."""
    rows = "".join(f"task_{i % 500},text number {i}\n" for i in range(20_001))
    queries = FIXED_QUERIES.replace("open_box", "task_1").replace("close_box", "task_2")
    return fixed_files("task,text\n" + rows, queries)(tmp)


def run_with_rankers(chapter: str, value: str) -> str:
    """``robotask run CHAPTER -p rankers VALUE`` up to where the runner checks it, before any kernel starts: the value
    parsed as YAML, then checked by the chapter's own rule on ``rankers`` (else the rule all chapters share).
    ``tests/test_robustness_rules.py`` runs the command itself and finds the same line."""
    import yaml

    from .parameters import RANGES

    given = yaml.safe_load(value)
    RANGES.get(f"{chapter}:rankers", RANGES["rankers"]).check("rankers", given, "-p")
    return f"accepted before a kernel starts: {chapter} runs with rankers {given}"


def _rankers_rule(chapter: str, value: str) -> Callable[[Path], str]:
    return lambda tmp: run_with_rankers(chapter, value)


NFD_CAFE = "caf" + "e\u0301"


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
    Case("corpora", "--trials 0", "error", r"argument --trials: 0 is out of range; expected between 1 and 10000",
         corpus_file("corpus.csv", GOOD, "--trials", "0")),
    Case("corpora", "--trials -3", "error", r"argument --trials: -3 is out of range; expected between 1",
         corpus_file("corpus.csv", GOOD, "--trials", "-3")),
    Case("corpora", "n_trials = 0 in a notebook", "error", r"n_trials must be at least 1 \(got 0\)",
         lambda tmp: StudyConfig(n_trials=0)),
    Case("corpora", "--rankers bm25,tfidf", "error", r"--rankers: unknown ranker(?:\(s\))? 'tfidf'; valid: bm25",
         corpus_file("corpus.csv", GOOD, "--rankers", "bm25,tfidf")),
    Case("corpora", "--trials 1000000000 (a billion galleries)", "error",
         r"argument --trials: 1000000000 is out of range; expected between 1 and 10000 gallery trials",
         corpus_file("corpus.csv", GOOD, "--trials", "1000000000")),
    Case("corpora", "--seed -1", "error", r"argument --seed: -1 is out of range; expected >= 0",
         corpus_file("corpus.csv", GOOD, "--seed", "-1")),
    Case("corpora", "corpus.csv with an instruction of a megabyte", "error",
         r"corpus\.csv: data row 2 has a text of 1048576 characters \('pick up the cup pick up the cu'\.\.\.\); "
         r"expected at most 10000 characters",
         corpus_file("corpus.csv", GOOD.replace("lift the lid", "pick up the cup " * 65_536))),
    Case("corpora", "library.yaml with a text of a megabyte", "error",
         r"library\.yaml: key 'open_box', item 1 has a text of 1048576 characters .*; expected at most 10000",
         corpus_file("library.yaml", f"open_box: [open the box, '{'pick up the cup ' * 65_536}']\n"
                                     "close_box: [close it, shut it]\n")),
    Case("corpora", "corpus.csv with a task name of 20000 characters", "error",
         r"corpus\.csv: data row 1 has a task of 20000 characters .*; expected at most 10000 characters",
         corpus_file("corpus.csv", GOOD.replace("open_box,open the box", "x" * 20_000 + ",open the box"))),
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
    Case("text forms", "queries in NFD with zero-width spaces against a gallery in NFC", "handled",
         r"same predictions and margins \(to 1e-12\) for NFC and NFD with zero-width spaces: True", _forms_alike),
    Case("text forms", "corpus.csv holding one text twice in a task, once in NFC and once in NFD", "error",
         r"corpus\.csv: task 'open_box' repeats the text .*expected distinct texts",
         corpus_file("corpus.csv", GOOD + f"open_box,lift the {NFD_CAFE} lid\nopen_box,lift the caf\u00e9 lid\n")),
    Case("text forms", "corpus.csv with a text of zero-width characters only", "error",
         r"corpus\.csv: data row 2 has an invisible-only text .*expected a non-empty text",
         corpus_file("corpus.csv", GOOD.replace("lift the lid", "\u200b\u200d\u2060"))),
    Case("text forms", "library.yaml with a text of zero-width characters only", "error",
         r"library\.yaml: key 'open_box', item 1 is empty or whitespace \(or invisible characters only\)",
         corpus_file("library.yaml", "open_box: [open the box, \"\u200b\\u200b\"]\nclose_box: [close it, shut it]\n")),
    Case("duplicate keys", "library.yaml with a task key written twice", "error",
         r"library\.yaml: key 'open_box' appears twice \(lines 1 and 3\); expected each key once",
         corpus_file("library.yaml", "open_box: [open the box, lift the lid]\nclose_box: [close it, shut it]\n"
                     "open_box: [raise the lid, open it]\n")),
    Case("duplicate keys", "corpus.csv whose header repeats the text column", "error",
         r"corpus\.csv: the header repeats column 'text' \(columns 2 and 3\); expected each column once",
         corpus_file("corpus.csv", GOOD.replace("task,text\n", "task,text,text\n").replace("box\n", "box,x\n"))),
    Case("duplicate keys", "queries.csv whose header repeats the task column", "error",
         r"queries\.csv: the header repeats column 'task' \(columns 1 and 3\)",
         fixed_files(FIXED_GALLERY, "task,text,task\nopen_box,lift the lid,open_box\n")),
    Case("fixed galleries", "queries.csv repeating a (task, text) pair (LIBERO-Para's paraphrase table does)",
         "handled", r"5 query rows scored, 2 of them repeats", _queries_repeat),
    Case("fixed galleries", "gallery.csv repeating a text", "error",
         r"gallery\.csv: data rows 1 and 3 are the same row .*--keep-repeated-texts|gallery\.csv: data rows 1 and 3",
         fixed_files(FIXED_GALLERY + "open_box,open the box\n", FIXED_QUERIES)),
    Case("fixed galleries", "gallery.csv repeating a text, with --keep-repeated-texts", "handled",
         r"scored with --keep-repeated-texts", _gallery_repeat_kept),
    Case("large inputs", "queries.csv of 25,000 rows (more than one chunk)", "handled",
         r"25000 queries scored in chunks of 10000", _streamed),
    Case("large inputs", "queries.csv whose bytes stop being UTF-8 after the first chunk", "error",
         r"queries\.csv is not UTF-8 text .*saved as UTF-8", _not_utf8_late),
    Case("large inputs", "gallery.csv of 20,001 texts", "error",
         r"gallery\.csv: 20001 gallery texts; expected at most 20,000", _huge_gallery),
    Case("rankers", "--rankers with an unknown name (bm25,chars)", "error",
         r"--rankers: unknown ranker 'chars'; valid: bm25, word, char.*--rankers bm25,char",
         corpus_file("corpus.csv", GOOD, "--rankers", "bm25,chars")),
    Case("rankers", "robotask run 02_five_rankers -p rankers '[bm25]'", "error",
         r"parameter 'rankers' of chapter 02_five_rankers = \['bm25'\] leaves out word, char, word_char, lsa; "
         r"expected a list that holds the paper's five rankers.*-p rankers '\[bm25, word, char, word_char, lsa\]'",
         _rankers_rule("02_five_rankers", "[bm25]")),
    Case("rankers", "robotask run 02_five_rankers -p rankers with the five and an unknown name (chars)", "error",
         r"of chapter 02_five_rankers names unknown ranker 'chars'; valid: .*-p rankers '\[bm25, word, char, "
         r"word_char, lsa\]'", _rankers_rule("02_five_rankers", "[bm25, word, char, word_char, lsa, chars]")),
    Case("rankers", "robotask run 02_five_rankers -p rankers with the five in another order and Static emb.",
         "handled", r"accepted before a kernel starts: 02_five_rankers runs with rankers \['lsa', .*'static'\]",
         _rankers_rule("02_five_rankers", "[lsa, word_char, char, word, bm25, static]")),
    Case("rankers", "robotask run 04_scoring_audit -p rankers without LSA", "error",
         r"of chapter 04_scoring_audit = .* leaves out lsa; expected .*the paper's five rankers",
         _rankers_rule("04_scoring_audit", "[bm25, word, char, word_char]")),
    Case("rankers", "robotask run 05_reproduction_report -p rankers '[minilm]'", "error",
         r"of chapter 05_reproduction_report = \['minilm'\] leaves out bm25, word, char, word_char, lsa",
         _rankers_rule("05_reproduction_report", "[minilm]")),
    Case("rankers", "robotask run 06_sentence_embeddings -p rankers without MiniLM", "error",
         r"of chapter 06_sentence_embeddings = .* leaves out minilm; expected a list that holds MiniLM and Char "
         r"TF-IDF.*-p rankers '\[minilm, char\]'", _rankers_rule("06_sentence_embeddings", "[bm25, word, char]")),
    Case("rankers", "robotask run 09_libraries -p rankers '[word, static]'", "error",
         r"of chapter 09_libraries = .* leaves out bm25, char; expected a list that holds BM25 and Char TF-IDF",
         _rankers_rule("09_libraries", "[word, static]")),
    Case("rankers", "robotask run 09_transfer -p rankers without Word TF-IDF", "error",
         r"of chapter 09_transfer = .* leaves out word; expected a list that holds BM25, Word and Char TF-IDF",
         _rankers_rule("09_transfer", "[bm25, char, minilm]")),
    Case("rankers", "robotask run 07_uncertainty -p rankers '[]'", "error",
         r"parameter 'rankers' is an empty list; expected at least one ranker", _rankers_rule("07_uncertainty", "[]")),
]
