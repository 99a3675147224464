"""The book's Sphinx extension (listed in ``_config.yml``): two changes to how pages are rendered.

**Figures are numbered after their chapter**: Fig. 2.1, 2.2, … on chapter 02, Fig. 12.3.1 on 12.3.
Sphinx numbers figures through the whole book unless the table of contents is numbered, and this
book numbers its pages itself (see :mod:`robotask.book.titles`). So chapter 02 showed "Fig. 4" and
"Fig. 5" a few lines from "the paper's Figures 2 and 3". This Sphinx extension (listed in
``_config.yml``) runs after Sphinx has assigned its numbers and renumbers each page's figures in
page order, behind the number at the start of the page's title ("02 · …" gives 2, "12.3 · …" gives
12.3). A page without a number (the home page, the glossary) numbers its figures 1, 2, ….
Cross-references (``{numref}``) and captions both read the new numbers.

**A glued value that is missing reads as a dash.** A chapter glues NaN under the names of a paragraph
whose premise a parameter made false (a visible note says so), so that every key still resolves; the
page shows "–" there, never "nan". **A glued negative number reads with a true minus**: a glued
text or formatted number pastes Python's hyphen-minus ("-1.7 to 12.3"); every hyphen-minus standing
as a minus sign in pasted text (at its start, or after a space, "(", "[", "," , ";" or "=", before a
digit) becomes "−" (U+2212), the sign the book's tables print. Ranges ("2-3"), dates and ids keep theirs.
"""

from __future__ import annotations

import re

from .titles import SEPARATOR, number_prefix

_LABEL = re.compile(r"^(\d+(?:\.\d+)*)" + re.escape(SEPARATOR))


def page_prefix(title: str) -> tuple[int, ...]:
    """The numbers a page's title starts with: ``"12.3 · Task: …"`` → ``(12, 3)``; none → ``()``."""
    found = _LABEL.match(title.strip())
    if not found:
        return ()
    return tuple(int(part) for part in number_prefix(found.group(1)).split("."))


def renumber(numbers: dict, titles: dict[str, str]) -> dict:
    """Sphinx's ``toc_fignumbers`` (page → kind → id → number tuple) renumbered page by page: each
    kind counted from 1 in the order Sphinx numbered it, behind :func:`page_prefix` of the title."""
    out: dict = {}
    for page, kinds in numbers.items():
        prefix = page_prefix(titles.get(page, ""))
        out[page] = {}
        for kind, ids in kinds.items():
            ordered = sorted(ids, key=lambda i: ids[i])
            out[page][kind] = {i: prefix + (n,) for n, i in enumerate(ordered, start=1)}
    return out


def _on_env_updated(app, env) -> list[str]:
    page_titles = {page: node.astext() for page, node in env.titles.items()}
    env.toc_fignumbers = renumber(env.toc_fignumbers, page_titles)
    return []


MISSING = {"nan", "-nan", "+nan", "nan %", "NaN"}
DASH = "–"
MINUS = "−"
_HYPHEN_MINUS = re.compile(r"(?:^|(?<=[\s(\[,;=]))-(?=\.?\d)")


def pasted_text(text: str) -> str:
    """What a reader sees of one glued text: a dash for a missing value, a true minus for a negative sign."""
    if text.strip() in MISSING:
        return DASH
    return _HYPHEN_MINUS.sub(MINUS, text)


def _dash_missing(app, doctree, docname) -> None:
    from docutils import nodes

    for node in list(doctree.findall(nodes.inline)):
        if "pasted-text" not in node.get("classes", []):
            continue
        for text in list(node.findall(nodes.Text)):
            shown = pasted_text(text.astext())
            if shown != text.astext():
                text.parent.replace(text, nodes.Text(shown))


def setup(app) -> dict:
    """Sphinx entry point: renumber after the toctree collector (priority 500) has numbered; dash the
    missing values of every page."""
    app.connect("env-get-updated", _on_env_updated, priority=900)
    app.connect("doctree-resolved", _dash_missing)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
