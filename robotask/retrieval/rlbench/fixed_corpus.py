"""Load and describe the RLBench instruction corpus (``data/rlbench/corpus.csv``).

Used by notebook ``01_extract_corpus`` and by every retrieval chapter (``02``–``08``), which read
the corpus through :func:`load_corpus`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

from ... import paths
from ...errors import RobotaskError
from ...words import named
from .extraction import STATUS_LABELS, STATUSES, extract_tables
from .joins import is_capital_join, is_glued_join

REQUIRED_COLUMNS = ("task", "text")


def corpus_path() -> Path:
    """The committed corpus file, ``data/rlbench/corpus.csv``."""
    return paths.RLBENCH_DATA / "corpus.csv"


def accounting_path() -> Path:
    """The committed per-file accounting, ``data/rlbench/accounting.csv``."""
    return paths.RLBENCH_DATA / "accounting.csv"


def _read_csv(path: Path, what: str) -> pd.DataFrame:
    """Read a CSV as strings where text is expected, raising RobotaskError on a bad file."""
    if not path.is_file():
        raise RobotaskError(f"{what} file {str(path)!r} does not exist; expected a CSV file")
    try:
        return pd.read_csv(path, dtype={"task": str, "text": str, "file": str, "revision": str},
                           keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as err:
        raise RobotaskError(f"{what} file {str(path)!r} is not a readable CSV: {err}") from None


def _read_table(path: str | os.PathLike | None, default: Path, what: str, columns: tuple[str, ...]) -> pd.DataFrame:
    """Read a committed table (``default`` when ``path`` is None) that must hold ``columns``."""
    path = Path(path) if path is not None else default
    frame = _read_csv(path, what)
    for column in columns:
        if column not in frame.columns:
            raise RobotaskError(f"{what} file {str(path)!r} lacks column {column!r}")
    return frame


def load_corpus(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """Load a description corpus sorted by (task, position).

    Parameters
    ----------
    path : str or PathLike, optional
        A CSV with at least the columns ``task`` and ``text``; default: the committed corpus.
        Without a ``position`` column, position is the order of the rows within each task.

    Returns
    -------
    DataFrame
        Columns ``task, position, text`` first, then any others of the file, index 0..n-1.
    """
    path = Path(path) if path is not None else corpus_path()
    frame = _read_csv(path, "corpus")
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise RobotaskError(
            f"corpus file {str(path)!r} lacks {named('column', missing)}; "
            f"expected at least {', '.join(REQUIRED_COLUMNS)}"
        )
    if frame.empty:
        raise RobotaskError(f"corpus file {str(path)!r} has no rows; expected one row per description")
    blank = frame.index[(frame["task"].str.strip() == "") | (frame["text"].str.strip() == "")]
    if len(blank):
        raise RobotaskError(
            f"corpus file {str(path)!r} has an empty task or text in data row {blank[0] + 1}"
        )
    if "position" not in frame.columns:
        frame["position"] = frame.groupby("task", sort=False).cumcount()
    else:
        try:
            frame["position"] = frame["position"].astype(int)
        except (TypeError, ValueError):
            raise RobotaskError(
                f"corpus file {str(path)!r}: column position must hold integers"
            ) from None
    if frame.duplicated(["task", "position"]).any():
        row = frame[frame.duplicated(["task", "position"])].iloc[0]
        raise RobotaskError(
            f"corpus file {str(path)!r} repeats position {row['position']} of task {row['task']!r}"
        )
    frame = frame.sort_values(["task", "position"], kind="stable").reset_index(drop=True)
    rest = [c for c in frame.columns if c not in ("task", "position", "text")]
    return frame[["task", "position", "text", *rest]]


def load_accounting(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """Load the per-file accounting (default: the committed ``accounting.csv``)."""
    return _read_table(path, accounting_path(), "accounting", ("file", "task", "status", "reason", "n_descriptions"))


def descriptions_per_task(corpus: pd.DataFrame) -> pd.Series:
    """Number of descriptions of each task, sorted by count (descending) then task id."""
    counts = corpus.groupby("task").size().rename("n_descriptions")
    return counts.sort_index().sort_values(ascending=False, kind="stable")


def duplicate_texts(corpus: pd.DataFrame) -> pd.DataFrame:
    """Exact texts that occur under more than one task (cross-task duplicates).

    Returns
    -------
    DataFrame
        One row per duplicated text: ``text``, ``tasks`` (sorted, ``", "``-joined), ``n_tasks``,
        ``n_rows``; sorted by text.
    """
    groups = corpus.groupby("text")["task"]
    n_tasks = groups.nunique()
    texts = n_tasks[n_tasks > 1].index
    rows = [
        {"text": t, "tasks": ", ".join(sorted(set(groups.get_group(t)))),
         "n_tasks": int(n_tasks[t]), "n_rows": int(groups.get_group(t).size)}
        for t in sorted(texts)
    ]
    return pd.DataFrame(rows, columns=["text", "tasks", "n_tasks", "n_rows"])


def within_task_duplicates(corpus: pd.DataFrame) -> pd.DataFrame:
    """Texts repeated inside one task: ``task, text, n_rows``, sorted by task then text."""
    counts = corpus.groupby(["task", "text"]).size().rename("n_rows").reset_index()
    return counts[counts["n_rows"] > 1].sort_values(["task", "text"]).reset_index(drop=True)


def corpus_counts(corpus: pd.DataFrame) -> dict[str, int]:
    """Tasks, descriptions and one-description-gallery queries per trial of a corpus."""
    n_tasks = int(corpus["task"].nunique())
    return {
        "tasks": n_tasks,
        "descriptions": int(len(corpus)),
        "queries_per_trial": int(len(corpus) - n_tasks),
    }


def literals_path() -> Path:
    """The committed table of every fixed literal any init_episode returns, ``literals.csv``."""
    return paths.RLBENCH_DATA / "literals.csv"


def load_literals(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """Load ``literals.csv`` with ``pieces`` decoded from JSON into lists of strings."""
    path = Path(path) if path is not None else literals_path()
    frame = _read_table(path, path, "literals", ("task", "status", "return_index", "text", "pieces"))
    try:
        frame["pieces"] = frame["pieces"].map(json.loads)
    except json.JSONDecodeError as err:
        raise RobotaskError(f"literals file {str(path)!r}: column pieces is not JSON ({err})") from None
    return frame


def glued_literals(literals: pd.DataFrame) -> pd.DataFrame:
    """Literals whose implicit concatenation fuses two words, with the join marked by ``‖``.

    Returns ``task, status, line, text, marked, capitalised`` (a glued piece starts with a capital
    letter), in file order.
    """
    rows = []
    for row in literals[literals["n_glued_joins"] > 0].itertuples():
        marked = row.pieces[0]
        for left, right in zip(row.pieces, row.pieces[1:]):
            marked += ("‖" if is_glued_join(left, right) else "") + right
        capitalised = any(is_capital_join(a, b) for a, b in zip(row.pieces, row.pieces[1:]))
        rows.append({"task": row.task, "status": row.status, "line": row.line,
                     "text": row.text, "marked": marked, "capitalised": capitalised})
    return pd.DataFrame(rows, columns=["task", "status", "line", "text", "marked", "capitalised"])


TYPO_EXAMPLES: dict[str, str] = {
    "tha handle": "tha → the",
    "the hone": "hone → phone",
    "the que ": "que → cue",
    "over door": "over → oven",
    "pull if off": "if → it",
    "paper of its": "of → off",
    "clear way": "way → away",
    "chuck way": "way → away",
    "place in on": "in → it",
}
"""Misspellings a reader spots in the fixed descriptions (substring → correction); kept as authored."""


def text_oddities(corpus_df: pd.DataFrame) -> pd.DataFrame:
    """Descriptions with a preserved oddity: double space, repeated word, or a known misspelling.

    Returns ``task, position, text, oddity`` sorted by task and position. Raises RobotaskError if a
    :data:`TYPO_EXAMPLES` entry no longer occurs (the corpus changed).
    """
    import re

    rows = []
    for row in corpus_df.itertuples():
        found = []
        if "  " in row.text:
            found.append("double space")
        repeated = re.search(r"\b(\w+) \1\b", row.text)
        if repeated:
            found.append(f"repeated word '{repeated.group(1)}'")
        found += [fix for typo, fix in TYPO_EXAMPLES.items() if typo in row.text]
        if found:
            rows.append({"task": row.task, "position": row.position, "text": row.text,
                         "oddity": "; ".join(found)})
    missing = [t for t in TYPO_EXAMPLES if not corpus_df["text"].str.contains(t, regex=False).any()]
    if missing:
        raise RobotaskError(f"corpus: TYPO_EXAMPLES entries not found: {', '.join(missing)}")
    return pd.DataFrame(rows, columns=["task", "position", "text", "oddity"])


def status_summary(accounting: pd.DataFrame) -> pd.DataFrame:
    """Files per status in precedence order, with descriptions kept and one example file and reason."""
    rows = []
    for status in STATUSES:
        part = accounting[accounting["status"] == status]
        if part.empty:
            continue
        rows.append({
            "status": status,
            "meaning": STATUS_LABELS[status],
            "files": len(part),
            "descriptions kept": int(part["n_descriptions"].sum()),
            "example": part["file"].iloc[0],
            "example reason": part["reason"].iloc[0],
        })
    return pd.DataFrame(rows)


def committed_tables() -> dict[str, pd.DataFrame]:
    """The committed ``corpus``, ``accounting`` and ``literals`` tables (as loaded for analysis)."""
    return {"corpus": load_corpus(), "accounting": load_accounting(), "literals": load_literals()}


def reextract_and_compare(rlbench_dir: str | os.PathLike, revision: str) -> list[str]:
    """Re-extract from a checkout and return the names of committed files that differ (byte-wise)."""
    tables = extract_tables(rlbench_dir, revision)
    names = {"corpus": corpus_path(), "accounting": accounting_path(), "literals": literals_path()}
    return [
        name for name, path in names.items()
        if tables[name].to_csv(index=False, lineterminator="\n") != path.read_text()
    ]


def first_listed_scored_queries(corpus_df: pd.DataFrame) -> int:
    """Queries the first-listed gallery scores: descriptions after the first of each task whose
    exact text belongs to a single task (cross-task duplicates are excluded, as in the paper)."""
    shared = set(duplicate_texts(corpus_df)["text"])
    first = corpus_df.groupby("task")["position"].transform("min")
    queries = corpus_df[corpus_df["position"] > first]
    return int((~queries["text"].isin(shared)).sum())
