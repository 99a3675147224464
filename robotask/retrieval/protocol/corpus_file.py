"""Read any corpus a user brings: a CSV (``task``, ``text``, optional ``position`` and ``variation``)
or a YAML task library (task -> list of texts, CALVIN's annotation format), validated.

:func:`read_corpus_file` is what ``robotask retrieval --corpus FILE`` and
:func:`robotask.retrieval.protocol.draws.load_study_corpus` read. It returns ``task, position, text`` (then
the file's other columns), sorted by task and position, and raises
:class:`~robotask.errors.RobotaskError` naming the file, row, task and what was expected for: a
directory or missing file, bytes that are not UTF-8, a CSV that cannot be parsed, lacks ``task``
or ``text`` or names a column twice in its header, an empty, whitespace-only or invisible-only task or
text, two identical rows or a text repeated within a task (unless ``keep_repeats``: the RLBench sources
list one text twice, and the study keeps it as authored), a task with fewer than ``min_texts`` texts.
Texts are compared in their normal form (:mod:`robotask.retrieval.rankers.normalise`: the same text in
NFC and NFD is a repeat) and returned as authored. A UTF-8 byte-order mark is removed with a
:class:`~robotask.errors.RobotaskWarning`; Windows (CRLF) line endings are read as they are.

Labels (``label``): ``task`` (the default) or ``variation``, which labels each row
``<task>:<variation>`` and needs a ``variation`` column (the full RLBench corpus,
``data/rlbench/full/corpus.csv``). At task level, a corpus with a ``variation`` column is read as
the distinct texts of each task (a text that several variations share is one description).

A YAML library (:func:`parse_library`) maps each task to the list of its
texts, in the order of the file; texts are kept unchanged, and anything else (not a mapping of
lists of strings, a key written twice, an empty or repeated text, a task with fewer than ``min_texts``
texts) raises naming the file and key (and both lines of a repeated key).

A query file is read by :func:`query_chunks`, a chunk at a time, with the same checks per chunk; a
repeated query is kept (each is a trial of its own).
"""

from __future__ import annotations

import csv
import io
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import pandas as pd
import yaml

from ... import paths
from ...errors import RobotaskError, RobotaskWarning
from ...words import count, kind_of, named
from ..rankers.normalise import normalise

LABELS = ("task", "variation")
YAML_SUFFIXES = (".yaml", ".yml")
EXPECTED = "a CSV file with task and text columns or a YAML file mapping tasks to lists of texts"
LIBRARY_COLUMNS = ["task", "position", "text"]
MIN_TEXTS = 2
"""A task needs one text to index and one to query."""
MAX_TEXT_CHARS = 10_000
"""The longest text (and task name) read, in characters: instructions run to a few hundred; a megabyte
"instruction" is a pasted document, and every ranker's cost grows with it."""


def too_long(name: str, where: str, value: str, what: str = "text") -> None:
    """Raise a :class:`RobotaskError` when ``value`` is longer than :data:`MAX_TEXT_CHARS`."""
    if len(value) > MAX_TEXT_CHARS:
        raise RobotaskError(f"{name}: {where} has a {what} of {len(value)} characters ({value[:30]!r}...); "
                            f"expected at most {MAX_TEXT_CHARS} characters")


def check_label(label: str, where: str = "label") -> str:
    """``label`` if it is one of :data:`LABELS`, else a RobotaskError naming ``where``."""
    if label not in LABELS:
        raise RobotaskError(f"{where} {label!r}: expected one of {', '.join(LABELS)}")
    return label


def read_corpus_file(path: str | Path, label: str = "task", min_texts: int = 2,
                     keep_repeats: bool = False) -> pd.DataFrame:
    """The descriptions of a CSV or YAML corpus file, validated (see the module docstring).

    Parameters
    ----------
    path : CSV file, or YAML file (suffix ``.yaml`` / ``.yml``); relative paths are taken from the
        repository root.
    label : ``task`` or ``variation`` (``<task>:<variation>``; needs a ``variation`` column).
    min_texts : fewest texts a label may have (one to index, one to query: 2).
    keep_repeats : keep a text repeated within a label instead of raising.

    Returns
    -------
    DataFrame
        ``task`` (the label), ``position``, ``text``, then the file's other columns; for
        ``label="variation"`` also ``source_task`` (the task id without the variation).
    """
    check_label(label)
    name = str(path)
    text = read_utf8(path, EXPECTED)
    if paths.resolve(path).suffix.lower() in YAML_SUFFIXES:
        if label != "task":
            raise RobotaskError(f"{name}: label {label!r} needs a variation column; a YAML library has "
                                "tasks only; use label 'task'")
        return parse_library(text, name, min_texts, keep_repeats)
    frame = _labelled(_parse_csv(text, name, same_rows=keep_repeats), label, name)
    unit = "variation" if label == "variation" else "task"
    _check_repeats(frame, name, unit, keep_repeats)
    _check_sizes(frame, name, unit, min_texts)
    frame = frame.sort_values(["task", "position"], kind="stable").reset_index(drop=True)
    rest = [c for c in frame.columns if c not in ("task", "position", "text", "_row")]
    return frame[["task", "position", "text", *rest]]


def _repeated_column(text: str, name: str) -> None:
    """Raise when the CSV header names one column twice (pandas would rename the second one silently)."""
    try:
        header = next(csv.reader(io.StringIO(text)), [])
    except csv.Error:
        return  # the parser below reports an unreadable file
    seen: dict[str, int] = {}
    for i, column in enumerate(header, start=1):
        if column in seen and column:
            raise RobotaskError(f"{name}: the header repeats column {column!r} (columns {seen[column]} and {i}); "
                                "expected each column once")
        seen[column] = i


def _parse_csv(text: str, name: str, same_rows: bool = False) -> pd.DataFrame:
    """The rows of a CSV text with ``_row`` (1-based data row); empty, missing and blank cells raise; two identical
    rows raise unless ``same_rows``."""
    _repeated_column(text, name)
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as err:
        raise RobotaskError(f"{name} is not a readable CSV ({str(err).strip()}); expected {EXPECTED}") from None
    return _checked_rows(frame, name, same_rows)


def _checked_rows(frame: pd.DataFrame, name: str, same_rows: bool = False) -> pd.DataFrame:
    """``frame`` (rows of a CSV file, indexed by data row - 1) checked as :func:`_parse_csv` says, with ``_row``."""
    missing = [c for c in ("task", "text") if c not in frame.columns]
    header = ",".join(map(str, frame.columns))
    for sep, what in ((";", "semicolons"), ("\t", "tabs")):
        if missing and {"task", "text"} <= set(header.split(sep)):
            raise RobotaskError(f"{name}: the columns are separated by {what} (a spreadsheet export); "
                                "expected a comma-separated file (task,text)")
    if missing:
        raise RobotaskError(f"{name}: missing {named('column', missing)}; expected at least task and text "
                            f"(found: {', '.join(map(str, frame.columns)) or 'none'})")
    if frame.empty:
        raise RobotaskError(f"{name} has no rows; expected one row per description")
    for column in ("task", "text"):
        blank = frame.index[frame[column].map(normalise) == ""]  # invisible characters only count as blank
        if len(blank):
            cell = frame.at[blank[0], column]
            kind = "an invisible-only" if cell.strip() else "a whitespace-only" if cell else "an empty"
            raise RobotaskError(f"{name}: data row {blank[0] + 1} has {kind} {column} ({cell!r}); "
                                f"expected a non-empty {column} in every row")
    same = frame.index[frame.duplicated(keep=False)] if not same_rows else frame.index[:0]
    if len(same):
        first = frame.loc[same[0]]
        twin = next(i for i in same[1:] if frame.loc[i].equals(first))
        raise RobotaskError(f"{name}: data rows {same[0] + 1} and {twin + 1} are the same row (task "
                            f"{first['task']!r}, text {first['text']!r}); expected each description once "
                            "(--keep-repeated-texts keeps a repeated text as authored)")
    for column in ("task", "text"):
        lengths = frame[column].str.len()
        if (lengths > MAX_TEXT_CHARS).any():
            row = int(lengths.idxmax())
            too_long(name, f"data row {row + 1}", frame.at[row, column], column)
    frame["_row"] = frame.index + 1
    if "position" in frame.columns:
        try:
            frame["position"] = frame["position"].astype(int)
        except (TypeError, ValueError):
            raise RobotaskError(f"{name}: column position must hold integers") from None
    return frame


CHUNK_ROWS = 10_000
"""Rows of a query file read, validated and scored at a time (:func:`query_chunks`)."""


def query_chunks(path: str | Path, rows: int = CHUNK_ROWS) -> Iterator[pd.DataFrame]:
    """The rows of a query file (``task``, ``position``, ``text``, ``_row``), ``rows`` at a time, in the file's order.

    A CSV file is read as it is scored, so memory does not grow with its length; each chunk gets the checks of
    :func:`read_corpus_file` except the whole-file ones (a repeated query is a trial of its own, so repeated
    rows and texts are kept). A YAML library is read whole. ``position`` counts each task's rows.
    """
    name = str(path)
    if paths.resolve(path).suffix.lower() in YAML_SUFFIXES:
        frame = read_corpus_file(path, min_texts=1, keep_repeats=True).assign(_row=lambda f: f.index + 1)
        for start in range(0, len(frame), rows):
            yield frame.iloc[start:start + rows]
        return
    counts: dict[str, int] = {}
    read = 0
    with _open_utf8(path, EXPECTED) as handle:
        _repeated_column(handle.readline(), name)
        handle.seek(0)
        try:
            for chunk in pd.read_csv(handle, dtype=str, keep_default_na=False, chunksize=rows):
                chunk = _checked_rows(chunk, name, same_rows=True)
                if "position" not in chunk.columns:
                    first = chunk["task"].map(counts).fillna(0).astype(int)
                    chunk["position"] = first + chunk.groupby("task", sort=False).cumcount()
                    counts.update(chunk.groupby("task", sort=False)["position"].max().add(1).to_dict())
                read += len(chunk)
                yield chunk
        except (pd.errors.EmptyDataError, pd.errors.ParserError) as err:
            raise RobotaskError(f"{name} is not a readable CSV ({str(err).strip()}); expected {EXPECTED}") from None
        except UnicodeDecodeError as err:
            raise RobotaskError(f"{name} is not UTF-8 text (byte {err.start} of a block); expected {EXPECTED}, "
                                "saved as UTF-8") from None
    if not read:
        raise RobotaskError(f"{name} has no rows; expected one row per description")


def _labelled(frame: pd.DataFrame, label: str, name: str) -> pd.DataFrame:
    """Rows labelled by task or by ``<task>:<variation>``, with positions within each label."""
    has_variation = "variation" in frame.columns
    if label == "variation":
        if not has_variation:
            raise RobotaskError(f"{name}: label 'variation' needs a variation column (found: "
                                f"{', '.join(c for c in frame.columns if c != '_row')}); use label 'task'")
        frame = frame.assign(source_task=frame["task"], task=frame["task"] + ":" + frame["variation"])
    elif has_variation:  # task level: the distinct texts of each task, in variation and position order
        order = [c for c in ("variation", "position") if c in frame.columns]
        frame = frame.assign(_v=pd.to_numeric(frame["variation"], errors="coerce"))
        frame = frame.sort_values(["task", "_v", *order[1:]], kind="stable").drop(columns="_v")
        frame = frame.drop_duplicates(["task", "text"]).drop(columns="position", errors="ignore")
    if "position" not in frame.columns:
        frame = frame.assign(position=frame.groupby("task", sort=False).cumcount())
    repeated = frame[frame.duplicated(["task", "position"], keep=False)]
    if len(repeated):
        row = repeated.iloc[0]
        raise RobotaskError(f"{name}: data rows {', '.join(map(str, repeated['_row'].head(2)))} repeat position "
                            f"{row['position']} of {label} {row['task']!r}; expected one text per position")
    return frame


def _check_repeats(frame: pd.DataFrame, name: str, unit: str, keep_repeats: bool) -> None:
    """Raise for a text repeated within one label, unless ``keep_repeats``."""
    if keep_repeats:
        return
    same = frame.assign(text=frame["text"].map(normalise))  # the same text in another Unicode form is a repeat
    repeated = same[same.duplicated(["task", "text"], keep=False)]
    if repeated.empty:
        return
    row = repeated.iloc[0]
    rows = repeated.loc[(repeated["task"] == row["task"]) & (repeated["text"] == row["text"]), "_row"]
    raise RobotaskError(f"{name}: {unit} {row['task']!r} repeats the text {row['text']!r} (data rows "
                        f"{' and '.join(map(str, rows.head(2)))}); expected distinct texts within a {unit} "
                        "(keep_repeats=True or --keep-repeated-texts keeps them as authored)")


def _check_sizes(frame: pd.DataFrame, name: str, unit: str, min_texts: int) -> None:
    """Raise naming every label with fewer than ``min_texts`` texts."""
    n, listed = too_few(frame, min_texts)
    if n:
        raise RobotaskError(f"{name}: {count(n, unit)} with fewer than {min_texts} texts: {listed}; "
                            f"expected at least {min_texts} texts per {unit} (one to index, one to query)")


def too_few(frame: pd.DataFrame, min_texts: int) -> tuple[int, str]:
    """How many tasks have fewer than ``min_texts`` rows, and them listed as ``task (n), ...``."""
    sizes = frame.groupby("task", sort=True).size()
    short = sizes[sizes < min_texts]
    return len(short), ", ".join(f"{t} ({n})" for t, n in short.items())


def _open_utf8(path: str | Path, expected: str) -> TextIO:
    """A UTF-8 file opened for reading as text, after :func:`read_utf8`'s checks of its first bytes (a leading
    byte-order mark is skipped with the same warning)."""
    name, path = _existing_file(path, expected)
    with open(path, "rb") as head:
        start = head.read(3)
    _refuse_utf16(start, name, expected)
    if start == b"\xef\xbb\xbf":
        warnings.warn(f"{name}: removed a UTF-8 byte-order mark", RobotaskWarning, stacklevel=3)
    return open(path, encoding="utf-8-sig", newline="")


def _existing_file(path: str | Path, expected: str) -> tuple[str, Path]:
    """The name as given and the resolved path of a file that exists, or one line naming it."""
    name = str(path)
    path = paths.resolve(path)
    if path.is_dir():
        raise RobotaskError(f"{name} is a directory; expected {expected}")
    if not path.is_file():
        raise RobotaskError(f"{name} does not exist; expected {expected}")
    return name, path


def _refuse_utf16(start: bytes, name: str, expected: str) -> None:
    """One line for a file whose first bytes are a UTF-16 byte-order mark."""
    if start[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise RobotaskError(f"{name} is UTF-16 text (a spreadsheet's 'Unicode text' export); expected {expected}, "
                            "saved as UTF-8 (e.g. 'CSV UTF-8')")


def read_utf8(path: str | Path, expected: str) -> str:
    """The text of a UTF-8 file; a leading byte-order mark is removed with a RobotaskWarning.

    ``expected`` completes the error messages ("expected <expected>"): a directory, a missing file
    and bytes that are not UTF-8 raise :class:`~robotask.errors.RobotaskError` naming the file.
    """
    name, path = _existing_file(path, expected)
    data = path.read_bytes()
    _refuse_utf16(data, name, expected)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RobotaskError(f"{name} is not UTF-8 text (byte {err.start}); expected {expected}, "
                            "saved as UTF-8") from None
    if text.startswith("\ufeff"):
        warnings.warn(f"{name}: removed a UTF-8 byte-order mark", RobotaskWarning, stacklevel=3)
        text = text[1:]
    return text


def _check_texts(name: str, task: object, texts: object, keep_repeats: bool = False) -> list[str]:
    """The texts of one task, or RobotaskError naming the file, key and item."""
    if not isinstance(task, str) or not task.strip():
        raise RobotaskError(f"{name}: key {task!r} is not a task name; expected a non-empty string key")
    too_long(name, "a key", task, "task name")
    if not isinstance(texts, list):
        raise RobotaskError(
            f"{name}: key {task!r} holds {kind_of(texts)}; expected a list of strings")
    seen: dict[str, int] = {}
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise RobotaskError(f"{name}: key {task!r}, item {i} is {kind_of(text)} ({text!r}); "
                                "expected a string")
        if not normalise(text):  # zero-width characters only count as empty
            raise RobotaskError(f"{name}: key {task!r}, item {i} is empty or whitespace (or invisible characters "
                                "only); expected a text")
        too_long(name, f"key {task[:40]!r}, item {i}", text)
        key = normalise(text)  # the same text in another Unicode form is a repeat
        if key in seen and not keep_repeats:
            raise RobotaskError(f"{name}: key {task!r} repeats the text {text!r} "
                                f"(items {seen[key]} and {i}); expected distinct texts within a task")
        seen[key] = i
    return texts


class _RepeatedKey(Exception):
    """A mapping of a YAML file names one key twice."""


class _UniqueKeySafeLoader(yaml.SafeLoader):
    """PyYAML's safe loader, except that a key written twice in one mapping raises :class:`_RepeatedKey`
    (PyYAML keeps the last value silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        lines: dict[object, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                if key in lines:
                    raise _RepeatedKey(f"key {key!r} appears twice (lines {lines[key]} and {line})")
                lines[key] = line
            except TypeError:  # an unhashable key: the base loader reports it
                break
        return super().construct_mapping(node, deep=deep)


def parse_library(text: str, name: str = "<library>", min_texts: int = MIN_TEXTS,
                  keep_repeats: bool = False) -> pd.DataFrame:
    """The texts of a YAML task library given as text; ``name`` is used in error messages.

    A text repeated within a task is an error unless ``keep_repeats`` (then both are kept).
    """
    try:
        data = yaml.load(text, Loader=_UniqueKeySafeLoader)  # noqa: S506 - a SafeLoader that refuses repeated keys
    except _RepeatedKey as err:
        raise RobotaskError(f"{name}: {err}; expected each key once (a second list would replace the first)") from None
    except yaml.YAMLError as err:
        raise RobotaskError(
            f"{name} is not valid YAML ({err}); expected a mapping of task -> list of texts") from None
    if not isinstance(data, dict) or not data:
        raise RobotaskError(f"{name} holds {kind_of(data)}; expected a non-empty mapping of "
                            "task -> list of texts")
    rows, short = [], []
    for task, texts in data.items():
        for position, item in enumerate(_check_texts(name, task, texts, keep_repeats)):
            rows.append({"task": task, "position": position, "text": item})
        if len(texts) < min_texts:
            short.append(f"{task} ({len(texts)})")
    if short:
        raise RobotaskError(f"{name}: {count(len(short), 'task')} with fewer than {min_texts} texts: "
                            f"{', '.join(short)}; expected at least {min_texts} texts per task")
    return pd.DataFrame(rows, columns=LIBRARY_COLUMNS)
