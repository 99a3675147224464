"""Every RLBench task file, every variation: the full description corpus and its accounting.

:func:`full_corpus_tables` runs the AST interpreter (:mod:`robotask.retrieval.ast_interpreter.evaluator`) over all
``rlbench/tasks/*.py`` files of one revision (``__init__.py`` excluded), read from a checkout or
straight from a git repository (``git show``; nothing is checked out, imported or executed), and
returns two tables:

* ``corpus`` - one row per evaluated description (:data:`CORPUS_COLUMNS`), sorted by task,
  variation and position. ``variation_value`` holds the values filled into the variation's
  templates, ``|``-joined (``2|red`` for ``stack %d %s blocks``), empty when there are none;
  ``template`` is the source template, empty for a fixed literal.
* ``accounting`` - one row per task file (:data:`ACCOUNTING_COLUMNS`): how many variations and
  descriptions were evaluated, how many templates were expanded, and what stayed unexpanded, why.

:func:`write_full_corpus` writes ``corpus.csv``, ``accounting.csv`` and ``README.md`` (provenance).
``python -m robotask.retrieval.rlbench.full_corpus --rlbench DIR`` does the same from the command line.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ... import io as rio
from ... import paths
from ...errors import RobotaskError
from ..ast_interpreter import TaskVariations, evaluate_task_file
from .licence import RLBENCH_LICENCE

CORPUS_COLUMNS = ["task", "variation", "variation_value", "position", "text", "file", "line",
                  "revision", "template"]
ACCOUNTING_COLUMNS = ["file", "task", "status", "reason", "variation_count", "n_variations_expanded",
                      "n_descriptions", "n_templates", "n_fixed", "min_per_variation",
                      "max_per_variation", "n_unexpanded", "init_line", "revision"]
STATUSES = ("fixed", "expanded", "partial", "unexpanded")
"""``fixed``: only literals; ``expanded``: templates, all filled; ``partial``: some descriptions or
variations stayed unexpanded; ``unexpanded``: none could be evaluated."""

TASKS_PATH = "rlbench/tasks"
DEFAULT_OUT = paths.RLBENCH_DATA / "full"
_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass
class SourceTree:
    """The files of one RLBench revision, read as text (``read(path) -> text | None``)."""

    read: Callable[[str], str | None]
    task_paths: list[str]
    revision: str = ""
    cache: dict = field(default_factory=dict)

    def text(self, path: str) -> str | None:
        if path not in self.cache:
            self.cache[path] = self.read(path)
        return self.cache[path]

    def resolver(self, module: str) -> str | None:
        """The source of ``module`` (``rlbench.const`` -> ``rlbench/const.py``) in this tree."""
        if not _MODULE.match(module):
            return None
        base = module.replace(".", "/")
        for path in (f"{base}.py", f"{base}/__init__.py"):
            try:
                text = self.text(path)
            except UnicodeDecodeError:
                return None
            if text is not None:
                return text
        return None


def _git(git_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(git_dir), *args], capture_output=True, check=False)


def _git_tree(git_dir: Path, revision: str) -> SourceTree:
    resolved = _git(git_dir, "rev-parse", "--short=12", f"{revision}^{{commit}}")
    if resolved.returncode != 0:
        raise RobotaskError(f"revision {revision!r} is not in the git repository {str(git_dir)!r}")
    commit = resolved.stdout.decode().strip()
    listing = _git(git_dir, "ls-tree", "--name-only", commit, f"{TASKS_PATH}/")
    names = listing.stdout.decode().split()

    def read(path: str) -> str | None:
        shown = _git(git_dir, "show", f"{commit}:{path}")
        return shown.stdout.decode("utf-8") if shown.returncode == 0 else None

    return SourceTree(read, [n for n in names if n.endswith(".py")], commit)


def _checkout_tree(root: Path, revision: str) -> SourceTree:
    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    tasks = sorted(p.relative_to(root).as_posix() for p in (root / TASKS_PATH).glob("*.py"))
    return SourceTree(read, tasks, revision)


def open_tree(source: str | Path, revision: str | None = None) -> SourceTree:
    """An RLBench checkout (folder holding ``rlbench/tasks``) or git repository, at ``revision``.

    A git repository is read at ``revision`` (default ``HEAD``) and the revision recorded is its
    12-character commit id; a checkout is read as it is and records ``revision`` (default "").
    """
    root = Path(source)
    if (root / TASKS_PATH).is_dir():
        return _checkout_tree(root, revision or "")
    if root.is_dir() and _git(root, "rev-parse", "--git-dir").returncode == 0:
        return _git_tree(root, revision or "HEAD")
    raise RobotaskError(
        f"RLBench source {str(source)!r} is neither a checkout with {TASKS_PATH}/ nor a git repository"
    )


def evaluate_tree(tree: SourceTree) -> dict[str, TaskVariations]:
    """The evaluated variations of every task file (``__init__.py`` excluded), by file name."""
    results = {}
    for path in sorted(tree.task_paths):
        name = path.rsplit("/", 1)[-1]
        if name == "__init__.py":
            continue
        try:
            source = tree.text(path) or ""
        except UnicodeDecodeError as err:
            results[name] = TaskVariations(None, [], f"not UTF-8 text: {err.reason}")
            continue
        module = f"{TASKS_PATH.replace('/', '.')}.{name[:-3]}"
        results[name] = evaluate_task_file(source, tree.resolver, module)
    if not results:
        raise RobotaskError(f"no task files in {TASKS_PATH}/ of the RLBench source")
    return results


def corpus_frame(results: dict[str, TaskVariations], revision: str = "") -> pd.DataFrame:
    """One row per evaluated description (``CORPUS_COLUMNS``), sorted by task, variation, position."""
    rows = [
        {"task": file[:-3], "variation": v.index, "variation_value": v.value,
         "position": d.position, "text": d.text, "file": file, "line": d.line,
         "revision": revision, "template": d.template}
        for file, result in results.items() for v in result.variations
        for d in v.descriptions if d.text is not None
    ]
    frame = pd.DataFrame(rows, columns=CORPUS_COLUMNS)
    return frame.sort_values(["task", "variation", "position"], kind="stable").reset_index(drop=True)


def _reason(result: TaskVariations, status: str, n_templates: int, n_descriptions: int) -> str:
    """What was evaluated (fixed/expanded) or what stayed unexpanded and why."""
    if status == "fixed":
        return f"{n_descriptions} fixed string literals"
    if status == "expanded":
        return f"{n_templates} templates expanded over {result.variation_count} variations"
    reasons = result.reasons()
    listed = "; ".join(reasons[:3]) + (f" (+{len(reasons) - 3} more)" if len(reasons) > 3 else "")
    return listed or "init_episode returns no description"


def _account(file: str, result: TaskVariations, revision: str) -> dict:
    descriptions = [d for v in result.variations for d in v.descriptions]
    done = [d for d in descriptions if d.text is not None]
    per_variation = [sum(d.text is not None for d in v.descriptions) for v in result.variations]
    n_unexpanded = len(descriptions) - len(done) + sum(bool(v.reason) for v in result.variations)
    n_templates = len({d.template for d in done if d.template})
    if result.reason or not done:
        status = "unexpanded"
    elif n_unexpanded:
        status = "partial"
    else:
        status = "expanded" if n_templates else "fixed"
    return {
        "file": file, "task": file[:-3], "status": status,
        "reason": _reason(result, status, n_templates, len(done)),
        "variation_count": result.variation_count, "n_variations_expanded":
        sum(v.expanded for v in result.variations), "n_descriptions": len(done),
        "n_templates": n_templates, "n_fixed": sum(not d.template for d in done),
        "min_per_variation": min(per_variation, default=None),
        "max_per_variation": max(per_variation, default=None),
        "n_unexpanded": n_unexpanded, "init_line": result.init_line, "revision": revision,
    }


def accounting_frame(results: dict[str, TaskVariations], revision: str = "") -> pd.DataFrame:
    """One row per task file (``ACCOUNTING_COLUMNS``), sorted by file name."""
    frame = pd.DataFrame([_account(f, r, revision) for f, r in results.items()],
                         columns=ACCOUNTING_COLUMNS)
    for column in ("variation_count", "min_per_variation", "max_per_variation", "init_line"):
        frame[column] = frame[column].astype("Int64")
    return frame.sort_values("file", kind="stable").reset_index(drop=True)


def full_corpus_tables(source: str | Path, revision: str | None = None) -> dict[str, pd.DataFrame]:
    """``{"corpus": ..., "accounting": ...}`` for every task file of an RLBench checkout or git repo."""
    tree = open_tree(source, revision)
    results = evaluate_tree(tree)
    return {"corpus": corpus_frame(results, tree.revision),
            "accounting": accounting_frame(results, tree.revision)}


def summary(tables: dict[str, pd.DataFrame]) -> str:
    """Counts of files by status, variations and descriptions, in one paragraph."""
    accounting, corpus = tables["accounting"], tables["corpus"]
    counts = accounting["status"].value_counts()
    statuses = ", ".join(f"{s} {counts.get(s, 0)}" for s in STATUSES)
    variations = corpus[["task", "variation"]].drop_duplicates().shape[0]
    return (f"{len(accounting)} task files ({statuses}); {corpus['task'].nunique()} tasks, "
            f"{variations} variations, {len(corpus)} descriptions "
            f"({corpus['text'].nunique()} distinct)")


README_TEMPLATE = """\
# RLBench descriptions of every task file and every variation

Evaluated by `robotask.retrieval.rlbench.full_corpus` (AST interpreter `robotask.retrieval.ast_interpreter.evaluator`,
Python's `ast` only: no task code is imported or executed) from the files `rlbench/tasks/*.py`
of the RLBench repository (https://github.com/stepjam/RLBench, path `rlbench/tasks/`) at
revision {revision}. Sibling modules of the same revision (`rlbench/const.py`: the colour list)
are read as text. No RLBench source file is stored here: only the extracted description texts.

{summary}.

## corpus.csv - one row per evaluated description
`task` (file stem), `variation` (the index passed to `init_episode`), `variation_value` (the values
filled into the variation's templates, `|`-joined, e.g. `2|red`; empty when none), `position`
(0-based place in the returned list), `text` (the string returned, unchanged), `file`, `line`
(line of the template or literal), `revision`, `template` (the source template, e.g.
`stack %d %s blocks`; empty for a fixed literal). Sorted by task, variation, position.

## accounting.csv - one row per task file (`__init__.py` excluded)
`status`: `fixed` (literals only), `expanded` (templates, all filled), `partial` (some descriptions
or variations stayed templates), `unexpanded` (none evaluated); `reason`: what was evaluated, or
what stayed unexpanded and why (simulator, randomness, ...); `variation_count`,
`n_variations_expanded`, `n_descriptions` (rows in corpus.csv), `n_templates` (distinct templates
expanded), `n_fixed` (literal rows), `min_per_variation`/`max_per_variation` (evaluated
descriptions per variation), `n_unexpanded` (descriptions or variations left unexpanded),
`init_line`, `revision`.

## Regenerate
    python -m robotask.retrieval.rlbench.full_corpus --rlbench <RLBench checkout or git repo> \\
        --revision {revision} --out data/rlbench/full

## Source and licence
The texts are task descriptions written by the authors of RLBench.
""" + RLBENCH_LICENCE


def write_full_corpus(source: str | Path, out_dir: str | Path = DEFAULT_OUT,
                      revision: str | None = None) -> dict[str, pd.DataFrame]:
    """Evaluate every task file and write ``corpus.csv``, ``accounting.csv`` and ``README.md``."""
    tables = full_corpus_tables(source, revision)
    out = paths.resolve(out_dir)
    rio.write_csv(out / "corpus.csv", tables["corpus"])
    rio.write_csv(out / "accounting.csv", tables["accounting"])
    used = tables["accounting"]["revision"].iloc[0] or "(unknown)"
    rio.write_text(out / "README.md", README_TEMPLATE.format(revision=used, summary=summary(tables)))
    return tables


def main(argv: list[str] | None = None) -> int:
    """``python -m robotask.retrieval.rlbench.full_corpus --rlbench DIR [--revision REV] [--out DIR]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rlbench", required=True, help="RLBench checkout or git repository")
    parser.add_argument("--revision", default=None, help="revision to read (git: default HEAD)")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="output folder")
    args = parser.parse_args(argv)
    print(summary(write_full_corpus(args.rlbench, args.out, args.revision)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
