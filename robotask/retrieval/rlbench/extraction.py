"""Extract the fixed task descriptions of RLBench task files with Python's ``ast`` only.

Used by notebook ``01_extract_corpus`` and by ``robotask extract``. Task code is never imported
or executed: each ``rlbench/tasks/*.py`` file is parsed, its ``init_episode`` method is located and
the list it returns is read statically.

Every file gets exactly one status. The checks run in this order and the first that applies wins
(the precedence rule):

1. ``unparsable`` – the file is not valid Python (``SyntaxError``) or not UTF-8 text.
2. ``no_init_episode`` – no function named ``init_episode`` is defined.
3. ``branches`` – the returned descriptions depend on which branch runs: ``init_episode`` has more
   than one ``return <value>``, or the returned variable is bound in more than one place
   (e.g. ``if index == 0: return [...] else: return [...]``). Control flow comes first because no
   single list exists to inspect.
4. ``runtime`` – the one returned list is built while the method runs: it is not a list/tuple
   literal (nor a variable bound once to one), the variable is mutated (``.extend``, ``.append``,
   ``+=`` ...), or an element is neither a string literal nor a string template (e.g. a variable).
5. ``templated`` – the list is a literal, but at least one element fills a string template
   (``'%s' % x``, ``'{}'.format(x)``, an f-string, ``'a' + x``).
6. ``too_few`` – every element is a fixed literal, but there are fewer than ``min_descriptions`` (3).
7. ``fixed`` – at least ``min_descriptions`` fixed literals: these rows form the corpus.

Texts are the Python values of the literals, so wording is kept exactly, including typos, double
spaces and adjacent literals that Python concatenates implicitly (``'a' 'b'`` is one string ``'ab'``,
also where a comma was evidently forgotten). This is the ``python`` join rule. Two alternative
rules (:data:`JOIN_RULES`, option ``join_rule``) split such literals: ``split_glued`` wherever a
join fuses two words, ``split_capital`` only where a capitalised piece follows a letter; the
latter reproduces the paper's 62 tasks / 296 descriptions at RLBench 02720bba4c73 (chapter 01).
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

import pandas as pd

from ... import io as rio
from ... import paths
from ...errors import RobotaskError
from ...words import count
from .joins import JOIN_RULES, check_join_rule, glued_joins, piece_values, split_literal
from .licence import RLBENCH_LICENCE
from .returns import (
    Element,
    FileResult,
    branch_elements,
    branch_reason,
    classify_element,
    find_init_episode,
    function_scope,
    returned_list,
    short,
)

STATUSES: tuple[str, ...] = (
    "unparsable",
    "no_init_episode",
    "branches",
    "runtime",
    "templated",
    "too_few",
    "fixed",
)
"""All statuses, in precedence order (the first that applies wins)."""

STATUS_LABELS: dict[str, str] = {
    "unparsable": "not valid Python",
    "no_init_episode": "no init_episode method",
    "branches": "variation-dependent branches",
    "runtime": "built at runtime",
    "templated": "templated (%, format, f-string)",
    "too_few": "too few fixed descriptions",
    "fixed": "fixed descriptions",
}
"""Human-readable name of each status."""

MIN_DESCRIPTIONS = 3
"""A task enters the corpus with at least this many fixed descriptions."""

CORPUS_COLUMNS = ["task", "position", "text", "file", "line", "revision"]
ACCOUNTING_COLUMNS = [
    "file",
    "task",
    "status",
    "reason",
    "n_descriptions",
    "n_returns",
    "n_fixed_literals",
    "n_templates",
    "n_runtime_elements",
    "n_joined_literals",
    "n_glued_literals",
    "init_line",
    "revision",
]
LITERALS_COLUMNS = [
    "task", "file", "status", "line", "position", "return_index", "text", "n_pieces", "n_glued_joins",
    "pieces",
]


def classify_source(
    source: str, file: str, min_descriptions: int = MIN_DESCRIPTIONS, join_rule: str = "python"
) -> FileResult:
    """Classify one task file's source text and collect the elements its ``init_episode`` returns.

    Parameters
    ----------
    source : str
        The text of the task file.
    file : str
        File name recorded in the result (e.g. ``"open_box.py"``); its stem is the task id.
    min_descriptions : int
        Fewest fixed descriptions a ``fixed`` task needs.
    join_rule : str
        A key of :data:`JOIN_RULES`. The default ``python`` keeps the value the task code actually
        returns; the alternatives split implicitly concatenated literals (``'...rack' 'move...'``)
        as if a comma had been forgotten.
    """
    check_join_rule(join_rule)
    task = Path(file).stem
    try:
        tree = ast.parse(source, filename=file)
    except (SyntaxError, ValueError) as err:
        message = getattr(err, "msg", None) or str(err)
        where = f" (line {err.lineno})" if getattr(err, "lineno", None) else ""
        return FileResult(file, task, "unparsable", f"{type(err).__name__}: {message}{where}")
    func = find_init_episode(tree)
    if func is None:
        return FileResult(file, task, "no_init_episode", "no function named init_episode")
    scope = function_scope(func)
    returns = [n for n in scope if isinstance(n, ast.Return) and n.value is not None]
    result = FileResult(file, task, "", "", n_returns=len(returns), init_line=func.lineno)
    if not returns:
        result.status, result.reason = "runtime", "init_episode returns no value"
        return result
    why = branch_reason(scope, returns)
    if why is not None:
        result.status, result.reason = "branches", why
        result.returns = branch_elements(source, scope, returns)
        return result
    node, why = returned_list(scope, returns[0])
    if node is None:
        result.status, result.reason = "runtime", why
        result.returns = branch_elements(source, scope, returns)
        return result
    elements = [classify_element(source, e) for e in node.elts]
    elements = [part for e in elements for part in split_literal(e, join_rule)]
    result.returns = [elements]
    result.status, result.reason = list_status(elements, min_descriptions)
    return result


def list_status(elements: list[Element], min_descriptions: int = MIN_DESCRIPTIONS) -> tuple[str, str]:
    """Status and reason of one returned list literal: ``runtime``, ``templated``, ``too_few`` or ``fixed``."""
    runtime = [e for e in elements if e.kind == "runtime"]
    templates = [e for e in elements if e.kind == "template"]
    if runtime:
        return "runtime", (f"element `{short(runtime[0].detail, 40)}` (line {runtime[0].line}) is computed "
                           "before the return, not written as a string")
    if templates:
        styles = sorted({e.detail for e in templates})
        return "templated", f"{len(templates)} of {len(elements)} descriptions use {', '.join(styles)}"
    if len(elements) < min_descriptions:
        return "too_few", f"{count(len(elements), 'fixed description')}, fewer than {min_descriptions}"
    return "fixed", f"{count(len(elements), 'fixed string literal')}"


def resolve_tasks_dir(rlbench_dir: str | Path) -> Path:
    """The ``rlbench/tasks`` folder of a checkout, given the repo root or the folder itself."""
    root = Path(rlbench_dir)
    if not root.is_dir():
        raise RobotaskError(
            f"RLBench directory {str(rlbench_dir)!r} does not exist; expected an RLBench checkout "
            "or its rlbench/tasks folder"
        )
    for candidate in (root / "rlbench" / "tasks", root / "tasks", root):
        if candidate.is_dir() and task_files(candidate):
            return candidate
    raise RobotaskError(
        f"no task files in {str(rlbench_dir)!r}; expected *.py files in it or in rlbench/tasks/"
    )


def task_files(tasks_dir: Path) -> list[Path]:
    """The task files of a tasks folder: ``*.py`` except ``__init__.py``, sorted by name."""
    return sorted(p for p in Path(tasks_dir).glob("*.py") if p.name != "__init__.py")


def classify_directory(
    rlbench_dir: str | Path, min_descriptions: int = MIN_DESCRIPTIONS, join_rule: str = "python"
) -> list[FileResult]:
    """Classify every task file of a checkout (repo root or its ``rlbench/tasks`` folder).

    Parameters are those of :func:`classify_source`.
    """
    tasks_dir = resolve_tasks_dir(rlbench_dir)
    results = []
    for path in task_files(tasks_dir):
        try:
            source = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as err:
            results.append(FileResult(path.name, path.stem, "unparsable", f"not UTF-8 text: {err.reason}"))
            continue
        results.append(classify_source(source, path.name, min_descriptions, join_rule))
    return results


def corpus_frame(results: list[FileResult], revision: str = "") -> pd.DataFrame:
    """One row per fixed description of the ``fixed`` files (columns ``CORPUS_COLUMNS``)."""
    rows = [
        {"task": r.task, "position": i, "text": e.text, "file": r.file, "line": e.line,
         "revision": revision}
        for r in results
        for i, e in enumerate(r.descriptions())
    ]
    frame = pd.DataFrame(rows, columns=CORPUS_COLUMNS)
    return frame.sort_values(["task", "position"], kind="stable").reset_index(drop=True)


def accounting_frame(results: list[FileResult], revision: str = "") -> pd.DataFrame:
    """One row per task file with its status, reason and element counts (``ACCOUNTING_COLUMNS``)."""
    rows = []
    for r in results:
        elements = r.elements()
        rows.append({
            "file": r.file,
            "task": r.task,
            "status": r.status,
            "reason": r.reason,
            "n_descriptions": len(r.descriptions()),
            "n_returns": r.n_returns,
            "n_fixed_literals": sum(e.kind == "literal" for e in elements),
            "n_templates": sum(e.kind == "template" for e in elements),
            "n_runtime_elements": sum(e.kind == "runtime" for e in elements),
            "n_joined_literals": sum(e.kind == "literal" and len(e.pieces) > 1 for e in elements),
            "n_glued_literals": sum(e.kind == "literal" and bool(glued_joins(e)) for e in elements),
            "init_line": r.init_line if r.init_line is not None else pd.NA,
            "revision": revision,
        })
    frame = pd.DataFrame(rows, columns=ACCOUNTING_COLUMNS)
    frame["init_line"] = frame["init_line"].astype("Int64")
    return frame.sort_values("file", kind="stable").reset_index(drop=True)


def literals_frame(results: list[FileResult]) -> pd.DataFrame:
    """Every fixed string literal returned by any file, whatever its status (``LITERALS_COLUMNS``).

    ``return_index`` numbers the returned lists of a file (several for ``branches``); ``pieces``
    is the JSON list of the values of the string tokens Python concatenated into ``text``.
    """
    rows = []
    for r in results:
        for k, ret in enumerate(r.returns):
            for i, e in enumerate(ret):
                if e.kind == "literal":
                    rows.append({"task": r.task, "file": r.file, "status": r.status, "line": e.line,
                                 "position": i, "return_index": k, "text": e.text,
                                 "n_pieces": len(e.pieces), "n_glued_joins": len(glued_joins(e)),
                                 "pieces": json.dumps(piece_values(e))})
    return pd.DataFrame(rows, columns=LITERALS_COLUMNS)


def extract_tables(
    rlbench_dir: str | Path,
    revision: str | None = None,
    min_descriptions: int = MIN_DESCRIPTIONS,
    join_rule: str = "python",
) -> dict[str, pd.DataFrame]:
    """The three extraction tables ``corpus``, ``accounting`` and ``literals`` of a checkout.

    Parameters
    ----------
    rlbench_dir : str or Path
        The repository root or its ``rlbench/tasks`` folder.
    revision : str, optional
        Source revision written into the tables (``""`` when None).
    min_descriptions : int
        Fewest fixed descriptions a task needs to enter the corpus.
    join_rule : str
        How implicitly concatenated literals are read (:data:`JOIN_RULES`); the committed corpus
        uses ``python``. ``split_capital`` gives the paper's 62 tasks / 296 descriptions.
    """
    check_join_rule(join_rule)
    results = classify_directory(rlbench_dir, min_descriptions, join_rule)
    revision = revision or ""
    return {
        "corpus": corpus_frame(results, revision),
        "accounting": accounting_frame(results, revision),
        "literals": literals_frame(results),
    }


NOTICE_TEMPLATE = """\
Source of the data in this folder
=================================

The texts in corpus.csv and literals.csv (column `text`, and `pieces` in literals.csv) are task
descriptions written by the authors of RLBench. They were extracted, unchanged, from the
`init_episode` methods of the files `rlbench/tasks/*.py` of the RLBench repository
(https://github.com/stepjam/RLBench) at revision {revision}, by reading the source with Python's
`ast` module. accounting.csv lists every task file of that revision and how it was classified.
No RLBench source file is included here.

""" + RLBENCH_LICENCE


def write_extraction(
    corpus: pd.DataFrame,
    accounting: pd.DataFrame,
    literals: pd.DataFrame,
    out_dir: str | Path,
    revision: str = "",
) -> list[Path]:
    """Write ``corpus.csv``, ``accounting.csv``, ``literals.csv`` and ``NOTICE`` (atomically)."""
    out = Path(out_dir)
    return [
        rio.write_csv(out / "corpus.csv", corpus),
        rio.write_csv(out / "accounting.csv", accounting),
        rio.write_csv(out / "literals.csv", literals),
        rio.write_text(out / "NOTICE", NOTICE_TEMPLATE.format(revision=revision or "(unknown)")),
    ]


def _cli_extract(args: argparse.Namespace) -> int:
    """Handler of ``robotask extract``: extract, write the four files, print a summary."""
    revision = args.revision or ""
    tables = extract_tables(args.rlbench, revision, args.min_descriptions, args.join_rule)
    corpus, accounting = tables["corpus"], tables["accounting"]
    written = write_extraction(corpus, accounting, tables["literals"], args.out, revision)
    counts = accounting["status"].value_counts()
    summary = ", ".join(f"{s} {counts.get(s, 0)}" for s in STATUSES if counts.get(s, 0))
    print(f"{len(accounting)} task files: {summary}")
    print(f"{corpus['task'].nunique()} tasks, {len(corpus)} descriptions")
    if args.all_files:
        from .full_corpus import summary as full_summary
        from .full_corpus import write_full_corpus

        full = Path(args.out) / "full"
        print(full_summary(write_full_corpus(args.rlbench, full, args.revision)))
        written += [full / name for name in ("corpus.csv", "accounting.csv", "README.md")]
    for path in written:
        print(f"wrote {path}")
    return 0


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    """Add ``robotask extract --rlbench DIR --out DIR [--revision REV] [--all-files]``."""
    parser = subparsers.add_parser(
        "extract",
        help="extract the fixed RLBench task descriptions (ast only, no task code runs)",
        description="Classify every rlbench/tasks/*.py file and write corpus.csv, "
        "accounting.csv, literals.csv and NOTICE.",
    )
    parser.add_argument("--rlbench", required=True, type=paths.from_caller,
                        help="RLBench checkout or its rlbench/tasks folder")
    parser.add_argument("--out", default=str(paths.RLBENCH_DATA), type=paths.from_caller,
                        help="output folder (default: data/rlbench of this repository)")
    parser.add_argument("--revision", default=None, help="source revision recorded in the files")
    parser.add_argument("--min-descriptions", type=int, default=MIN_DESCRIPTIONS,
                        help=f"fewest fixed descriptions per task (default {MIN_DESCRIPTIONS})")
    parser.add_argument("--join-rule", default="python", choices=sorted(JOIN_RULES),
                        help="how adjacent string literals are read (default: python, as returned)")
    parser.add_argument("--all-files", action="store_true",
                        help="also evaluate every task file and every variation (templates filled) into OUT/full/")
    parser.set_defaults(func=_cli_extract)
