"""Give an executed notebook its chapter's own title.

One notebook source can back several chapters (the episode task template backs twelve). Its H1
names the template; :func:`set_h1` replaces that H1 with the chapter's title, so every page has its
own H1, HTML ``<title>`` and table-of-contents entry. The runner calls :func:`retitle` on the
executed copy of a chapter whose ``title`` is set.

Pages are numbered by their chapter id, so the number a reader sees is the number the prose uses
("chapter 02"): :func:`chapter_label` gives ``02`` for ``02_five_rankers``, ``12.3`` for the third
task page, nothing for the home page; :func:`number_h1` puts it before the H1 ("02 · Five rankers").
Sphinx's own ``numbered: true`` cannot do this: it restarts at 1 in every part of the table of
contents, numbers the part pages, and has no way to say 98 or 99.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..io import write_text

_H1 = re.compile(r"^# (?!#)(.*)$", re.M)


def _source(cell: Any) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def set_h1(nb: Any, title: str) -> bool:
    """Replace the first H1 of the first markdown cell that has one with ``title``; True if done.

    A notebook without an H1 gets a new markdown cell with the title at the top.
    """
    title = " ".join(title.split())
    if not title:
        raise ValueError("set_h1: the title is empty")
    for cell in nb.cells:
        if cell.get("cell_type") != "markdown":
            continue
        text = _source(cell)
        if _H1.search(text):
            cell["source"] = _H1.sub(lambda _: f"# {title}", text, count=1)
            return True
    import nbformat

    nb.cells.insert(0, nbformat.v4.new_markdown_cell(f"# {title}"))
    return False


SEPARATOR = " · "
"""Between a page's number and its title."""


def chapter_label(chapter_id: str, siblings: list[str] | tuple[str, ...] = ()) -> str:
    """The number shown before a page's title: ``02`` for ``02_five_rankers``, ``12.3`` when the id is
    the third of ``siblings`` (the pages of one numbered chapter), ``""`` for the home page ``00``."""
    head = chapter_id.split("_", 1)[0]
    if not head.isdigit() or int(head) == 0:
        return ""
    if chapter_id in siblings:
        return f"{head}.{list(siblings).index(chapter_id) + 1}"
    return head


def numbered_siblings(chapter_id: str, ids: list[str] | tuple[str, ...]) -> list[str]:
    """The ids among ``ids`` that share ``chapter_id``'s number (``09_transfer`` and ``09_libraries``,
    the twelve ``12_task_*`` pages), in the order given: with more than one, each is numbered
    ``NN.i`` by :func:`chapter_label`, so no two pages show the same number."""
    head = chapter_id.split("_", 1)[0]
    return [i for i in ids if i.split("_", 1)[0] == head]


def page_label(chapter_id: str, ids: list[str] | tuple[str, ...]) -> str:
    """The number of page ``chapter_id`` among the pages ``ids``: ``02``, or ``09.2`` and ``12.3`` when
    pages share a number (:func:`numbered_siblings`)."""
    siblings = numbered_siblings(chapter_id, ids)
    return chapter_label(chapter_id, siblings if len(siblings) > 1 else ())


def number_prefix(label: str) -> str:
    """A page label as figure and table numbers start: ``02`` → ``2``, ``12.3`` → ``12.3``, ``""`` → ``""``."""
    return ".".join(str(int(part)) for part in label.split(".")) if label else ""


def number_h1(nb: Any, label: str) -> bool:
    """Put ``label`` and :data:`SEPARATOR` before the first H1 of ``nb`` (once); True if done."""
    if not label:
        return False
    for cell in nb.cells:
        if cell.get("cell_type") != "markdown":
            continue
        text = _source(cell)
        found = _H1.search(text)
        if found:
            if found.group(1).startswith(label + SEPARATOR):
                return False
            cell["source"] = _H1.sub(lambda m: f"# {label}{SEPARATOR}{m.group(1)}", text, count=1)
            return True
    return False


def retitle(path: Path | str, title: str | None, label: str = "") -> None:
    """Set the H1 of the executed notebook at ``path`` to ``title`` (kept when ``title`` is None) and
    number it with ``label`` (see :func:`chapter_label`)."""
    if not title and not label:
        return
    import nbformat

    nb = nbformat.read(Path(path), as_version=4)
    if title:
        set_h1(nb, title)
    number_h1(nb, label)
    write_text(Path(path), nbformat.writes(nb) + "\n")  # atomic, and a full disk is one clear line
