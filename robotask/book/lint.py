"""Lint the built HTML book for what a reader should never see.

``lint_book(html_dir)`` reads every page of a Jupyter Book HTML build (``_build/html``) and
returns one :class:`Problem` per finding; ``python -m robotask.book.lint DIR`` prints them and
exits 1 if there is any. Content rules look only inside the page's article (``<article
class="bd-article">``, else ``<main>``, else ``<body>``), never at the theme's chrome.

Rules (the ``kind`` of a problem):

``table-empty``
    A table with more than 30 % empty cells (no text and no image).
``table-long``
    A table with more than 60 body rows and no declared reason. Declare one by placing the
    table inside an element with a non-empty ``data-long-table="why it is long"`` attribute
    (e.g. ``display(HTML(f'<div data-long-table="one row per task and seed">{df.to_html()}</div>'))``),
    or inside an element with class ``long-table``; a notebook cell tagged ``long-table`` gets
    that class from myst-nb (``tag_long-table``) and counts too, with its reason in the prose.
``title-duplicate`` / ``h1-duplicate``
    Two pages with the same ``<title>`` or the same H1, or one page with several H1s.
``python-repr``
    A Python repr in prose (``<p>``, ``<li>``, ``<td>``/``<th>``, headings, captions, ``<dt>``,
    ``<dd>``; never inside ``<code>``, ``<pre>``, code cells or rendered math): a standalone
    ``True``/``False``/``None`` (English at the start of a sentence, as in "None of the tasks",
    is allowed), ``nan``/``NaN``, or a bracketed list or dict such as ``[232, 233]`` or
    ``{'contact': 1161}``. An interval written in plain text, ``[0, 1]``, is flagged too: write
    it as math (``$[0, 1]$``).
``plural-s``
    An "(s)"/"(es)" plural such as "class(es)" or "loss(es)".
``leak``
    What a program left on the page instead of words, anywhere in the article, outputs included (only
    the folded source of code cells is left out): an object repr (``<IPython.core.display.Markdown
    object>``, ``object at 0x7f…``), a path repr (``PosixPath('…')``), an unrendered glue role
    (``{glue:text}`…```), or a path of the machine that built the book (``/work/…``, ``/tmp/…``,
    ``/root/…``, ``/home/…``, ``site-packages``).
``figure-caption`` / ``figure-alt``
    A content ``<img>`` that is not in a ``<figure>`` with a non-empty caption, or whose alt text
    is missing, empty or a file path. For notebook outputs, set the cell metadata
    ``mystnb: {figure: {caption: ...}, image: {alt: ...}}`` or use ``{glue:figure}``.

Reader defects (prose is every prose block but table cells; code, math and ``<pre>`` are never read):
``dash-number`` a dash standing for a number in prose ("an R² of –;", "holding – %");
``template-grammar`` "resolved of", "behind of", a doubled small word ("ahead of of");
``dash-note`` a bracketed note about dashes, "(a dash for a real recording)", in prose or a table;
``precision`` a number in prose with more than 4 significant digits and a fractional part
("56948.697"), or a table cell above 1,000 with 3 decimals or more ("-1596867.820");
``hyphen-minus`` a hyphen-minus as a minus sign before a digit in prose or a table ("-0.27"; not ranges,
ids, dates, file names, flags or their values); ``empty-section`` a heading followed by a heading of the
same or a higher level, or by nothing a reader sees; ``figure-missing`` a figure named in plain text
("Fig. 14.2") that the page does not show; ``zero-units`` a statement over zero units ("for 0 tasks").
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bs4 import BeautifulSoup, Comment, NavigableString, Tag

MAX_EMPTY_FRACTION = 0.30
MAX_ROWS = 60
SKIP_DIRS = {"_static", "_sources", "_images", "_downloads", ".doctrees"}
PROSE_TAGS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "caption", "figcaption",
              "dt", "dd"}
CODE_TAGS = {"code", "pre", "kbd", "samp", "script", "style", "math", "mjx-container", "svg"}
CODE_CLASSES = {"highlight", "cell_input", "math", "notranslate", "headerlink", "MathJax",
                "MathJax_Preview", "caption-number"}
LONG_TABLE_CLASSES = {"long-table", "tag_long-table"}

_WORD = re.compile(r"(?<![\w.'\"-])(True|False|None|nan|NaN)(?![\w(-])")
_ATOM = r"""(?:[-+]?\d[\d_.eE+-]*|'[^'\[\]{}]*'|"[^"\[\]{}]*"|True|False|None|nan)"""
_LIST = re.compile(rf"\[\s*(?:{_ATOM}\s*,\s*)+{_ATOM}\s*,?\s*\]|\[\s*(?:'[^']*'|\"[^\"]*\")\s*\]")
_DICT = re.compile(rf"\{{\s*{_ATOM}\s*:\s*[^{{}}]+\}}")
_PLURAL = re.compile(r"\b[A-Za-z]{2,}\((?:s|es|ies)\)")
_LEAKS = {
    "object repr": re.compile(r"<[\w.]+ object(?: at 0x[0-9a-fA-F]+)?>|\bobject at 0x[0-9a-fA-F]+"),
    "path repr": re.compile(r"\b(?:Posix|Windows|Pure\w*)?Path\(['\"]"),
    "unrendered glue role": re.compile(r"\{glue(?::\w+)?\}`"),
    "machine path": re.compile(r"(?<![\w.:/])/(?:work|tmp|root|home|Users|private)/[\w.-]|site-packages"),
}
_PATH_ALT = re.compile(r"(^|/|\\)[^\s/\\]+\.(png|jpe?g|gif|svg|webp|pdf)$|^\S*[/\\]\S*$", re.I)


@dataclass(frozen=True)
class Problem:
    """One finding: the page (relative to the build folder), the rule and what was found."""

    page: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.page}: {self.kind}: {self.detail}"


def pages(html_dir: Path) -> list[Path]:
    """Every HTML page of the build, outside the static and source folders, in a stable order."""
    html_dir = Path(html_dir)
    return sorted(p for p in html_dir.rglob("*.html")
                  if not SKIP_DIRS & set(p.relative_to(html_dir).parts[:-1]))


def article(soup: BeautifulSoup) -> Tag:
    """The page's content: the theme's article, else ``<main>``, else the body."""
    return (soup.select_one("article.bd-article") or soup.find("main") or soup.body or soup)


def _is_code(tag: Tag) -> bool:
    return tag.name in CODE_TAGS or bool(CODE_CLASSES & set(tag.get("class") or []))


def own_text(element: Tag, code: str = "") -> str:
    """Text of ``element`` outside code, math and nested prose blocks (those are checked alone); each
    code or math element reads as ``code`` (nothing by default)."""
    parts: list[str] = []
    for child in element.children:
        if isinstance(child, Comment):
            continue
        if isinstance(child, NavigableString):
            parts.append(str(child))
        elif isinstance(child, Tag) and _is_code(child):
            parts.append(code if child.get_text(strip=True) else "")
        elif isinstance(child, Tag) and child.name not in PROSE_TAGS:
            parts.append(own_text(child, code))
    return "".join(parts)


def _in_code(element: Tag) -> bool:
    return any(_is_code(parent) for parent in element.parents if isinstance(parent, Tag))


def _clip(text: str, start: int, end: int, width: int = 30) -> str:
    snippet = text[max(0, start - width):end + width].replace("\n", " ").strip()
    return " ".join(snippet.split())


def repr_findings(text: str) -> Iterator[str]:
    """Python reprs in one prose text, each as ``'<token>' in "<context>"``."""
    for m in _WORD.finditer(text):
        token, before, after = m.group(1), text[:m.start()].rstrip(), text[m.end():]
        sentence_start = not before or before[-1] in ".!?;:"
        english = token in ("True", "False", "None") and sentence_start and re.match(r" +[a-z]", after)
        if not english:
            yield f"{token!r} in \"{_clip(text, m.start(), m.end())}\""
    for pattern in (_LIST, _DICT):
        for m in pattern.finditer(text):
            yield f"{m.group(0)[:40]!r} in \"{_clip(text, m.start(), m.end())}\""


def check_prose(rel: str, root: Tag) -> Iterator[Problem]:
    """Python reprs and "(s)" plurals in the prose blocks of one page."""
    for element in root.find_all(PROSE_TAGS):
        if _in_code(element):
            continue
        text = own_text(element)
        for finding in repr_findings(text):
            yield Problem(rel, "python-repr", f"<{element.name}> {finding}")
        for m in _PLURAL.finditer(text):
            yield Problem(rel, "plural-s", f"<{element.name}> {m.group(0)!r} in \"{_clip(text, m.start(), m.end())}\"")


def _outside_code_input(element: NavigableString) -> bool:
    return not any(isinstance(p, Tag) and "cell_input" in (p.get("class") or []) for p in element.parents)


def check_leaks(rel: str, root: Tag) -> Iterator[Problem]:
    """Reprs, glue roles and machine paths anywhere in the article but the folded source of code cells."""
    text = " ".join(str(s) for s in root.find_all(string=True)
                    if not isinstance(s, Comment) and _outside_code_input(s))
    for what, pattern in _LEAKS.items():
        for m in pattern.finditer(text):
            yield Problem(rel, "leak", f"{what}: {_clip(text, m.start(), m.end())!r}")


def _table_label(table: Tag, index: int) -> str:
    caption = table.find("caption")
    name = " ".join(caption.get_text(" ", strip=True).split())[:50] if caption else ""
    return f"table {index}" + (f" ({name})" if name else "")


def _long_table_reason(table: Tag) -> bool:
    for element in [table, *table.parents]:
        if not isinstance(element, Tag):
            continue
        if (element.get("data-long-table") or "").strip():
            return True
        if LONG_TABLE_CLASSES & set(element.get("class") or []):
            return True
    return False


def check_tables(rel: str, root: Tag) -> Iterator[Problem]:
    """Tables that are mostly empty, or long without a declared reason."""
    for index, table in enumerate(root.find_all("table"), start=1):
        if _in_code(table):
            continue
        rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
        cells = [c for tr in rows for c in tr.find_all(["td", "th"], recursive=False)]
        empty = [c for c in cells if not c.get_text(strip=True) and not c.find("img")]
        label = _table_label(table, index)
        if cells and len(empty) / len(cells) > MAX_EMPTY_FRACTION:
            yield Problem(rel, "table-empty", f"{label}: {len(empty)} of {len(cells)} cells "
                          f"({100 * len(empty) / len(cells):.0f} %) are empty")
        body = [tr for tr in rows if tr.find_parent("thead") is None]
        if len(body) > MAX_ROWS and not _long_table_reason(table):
            yield Problem(rel, "table-long", f"{label}: {len(body)} rows, more than {MAX_ROWS}, "
                          "and no declared reason (data-long-table or class long-table)")


def _caption_text(figure: Tag) -> str:
    """The caption's words, without the "Fig. N" number."""
    caption = figure.find("figcaption")
    if caption is None:
        return ""
    text = caption.select_one(".caption-text")
    if text is not None:
        return text.get_text(" ", strip=True)
    return re.sub(r"^(Fig\.|Figure)\s*[\d.]*\s*", "", caption.get_text(" ", strip=True))


def check_figures(rel: str, root: Tag) -> Iterator[Problem]:
    """Content images without a caption, or with missing or file-path alt text."""
    for img in root.find_all("img"):
        src = img.get("src", "")
        name = src.rsplit("/", 1)[-1] or "<no src>"
        alt = (img.get("alt") or "").strip()
        if not alt:
            yield Problem(rel, "figure-alt", f"{name}: no alt text")
        elif _PATH_ALT.search(alt):
            yield Problem(rel, "figure-alt", f"{name}: alt text is a file path ({alt[:60]})")
        figure = img.find_parent("figure")
        if figure is None or not _caption_text(figure):
            yield Problem(rel, "figure-caption", f"{name}: no caption")


_READER = {
    "dash-number": re.compile(r"(?:^|(?<=[\s(]))[–—](?=\s*(?:[%,;:.)]|$))"),
    "template-grammar": re.compile(r"\b(?:resolved|behind|above|below) of\b|"
                                   r"\b(of|the|a|an|to|in|on|is|by|than|and|for)\s+\1\b", re.I),
    "dash-note": re.compile(r"\([^()]*\bdash(?:es)?(?![\w-])[^()]*\)", re.I),  # a dash-dot line is no note
    "hyphen-minus": re.compile(r"(?:^|(?<=[\s(\[,;=]))-(?=\.?\d)"),
    "zero-units": re.compile(r"\b(?:over|for|across|among|from|on|in|with|of|the|all)\s+(?:the\s+|all\s+)?"
                             r"0\s+(?!of\b|and\b|or\b|to\b)[a-z]+s\b", re.I),
}
_FLAG = re.compile(r"(?:^|\s)--?[A-Za-z][\w-]*\s+(?:\S+\s+)?$")
_CELL_KINDS = ("dash-note", "hyphen-minus")  # what a table cell is read for (a dash there means missing)
_DECIMAL = re.compile(r"(?<![\w.:/])(?<!arXiv )-?(\d[\d,]*)\.(\d+)(?![\w./]|\.\d)")  # no doi, arXiv id
_CELL_NUMBER = re.compile(r"^[-−+]?(\d[\d,]*)\.(\d+)$")
_FIG_REF = re.compile(r"\bFigs?\.\s+(\d+(?:\.\d+)*)")  # the book's own; the paper's read "Figure 2"


def reader_findings(text: str, cell: bool = False) -> Iterator[tuple[str, str]]:
    """``(kind, finding)`` for each reader defect in one prose text (a table cell's text if ``cell``)."""
    for kind, pattern in _READER.items():
        if cell and kind not in _CELL_KINDS:
            continue
        for m in pattern.finditer(text):
            if kind == "hyphen-minus" and _FLAG.search(text[max(0, m.start() - 30):m.start()]):
                continue  # a value typed after a command-line flag ("-p seed -1")
            yield kind, f"{m.group(0).strip()!r} in \"{_clip(text, m.start(), m.end())}\""
    if cell:
        m = _CELL_NUMBER.match(text.strip())
        if m and len(m.group(2)) >= 3 and int(m.group(1).replace(",", "")) >= 1000:
            yield "precision", f"{text.strip()!r}: above 1,000 with {len(m.group(2))} decimals"
        return
    for m in _DECIMAL.finditer(text):
        digits = (m.group(1) + m.group(2)).replace(",", "").lstrip("0")
        if len(digits) > 4:
            context = _clip(text, m.start(), m.end())
            yield "precision", f"{m.group(0)!r} ({len(digits)} significant digits) in \"{context}\""


def _figure_numbers(texts: Iterable[str]) -> set[str]:
    return {m.group(1) for text in texts for m in _FIG_REF.finditer(text)}


def check_reader(rel: str, root: Tag) -> Iterator[Problem]:
    """Reader defects in the prose blocks and table cells of one page, and its figures named but not shown."""
    shown = _figure_numbers(c.get_text(" ", strip=True) for c in root.select("figcaption .caption-number"))
    for element in root.find_all(PROSE_TAGS):
        if _in_code(element):
            continue
        text, cell = own_text(element, code="CODE"), element.name in ("td", "th")
        for kind, finding in reader_findings(text, cell):
            yield Problem(rel, kind, f"<{element.name}> {finding}")
        linked = _figure_numbers(a.get_text(" ", strip=True) for a in element.find_all("a") if a.get("href"))
        for m in _FIG_REF.finditer("" if cell else text):
            if m.group(1) not in shown | linked:
                yield Problem(rel, "figure-missing", f"{m.group(0)!r} is named but not shown: "
                              f"\"{_clip(text, m.start(), m.end())}\"")


def _visible(node: object) -> bool:
    """Whether a reader sees something of ``node``: text or media, outside the folded source of code cells."""
    if isinstance(node, Comment) or (isinstance(node, Tag) and "cell_input" in (node.get("class") or [])):
        return False
    if isinstance(node, NavigableString):
        return bool(node.strip())
    return isinstance(node, Tag) and (node.name in ("img", "table", "svg", "iframe", "video")
                                      or any(_visible(c) for c in node.children))


def check_sections(rel: str, root: Tag) -> Iterator[Problem]:
    """Sections whose heading is followed by nothing or by a heading of the same or a higher level."""
    for section in root.find_all("section"):
        heading = section.find(re.compile(r"^h[1-6]$"), recursive=False)
        if heading is None or _in_code(section):
            continue
        rest = [c for c in section.children if c is not heading]
        if not any(_visible(c) for c in rest if not (isinstance(c, Tag) and c.name == "section")) and not any(
                isinstance(c, Tag) and c.name == "section" for c in rest):
            yield Problem(rel, "empty-section", f"{_text(heading)!r} has no content before the next heading")


def _text(tag: Tag | None) -> str:
    if tag is None:
        return ""
    return " ".join(own_text(tag).split()) if tag.name != "title" else " ".join(tag.get_text().split())


def check_unique(headings: dict[str, list[str]], titles: dict[str, str]) -> Iterator[Problem]:
    """Duplicate titles and H1s across pages, and pages with several H1s."""
    by_title: dict[str, list[str]] = defaultdict(list)
    by_h1: dict[str, list[str]] = defaultdict(list)
    for rel, title in titles.items():
        if title:
            by_title[title].append(rel)
    for rel, h1s in headings.items():
        if len(h1s) > 1:
            yield Problem(rel, "h1-duplicate", f"{len(h1s)} H1s on one page: {', '.join(map(repr, h1s))}")
        for h1 in dict.fromkeys(h1s):
            by_h1[h1].append(rel)
    for kind, groups in (("title-duplicate", by_title), ("h1-duplicate", by_h1)):
        for text, rels in groups.items():
            for rel in rels[1:] if len(rels) > 1 else []:
                yield Problem(rel, kind, f"{text!r} is also the {kind.split('-')[0]} of {rels[0]}")


def lint_page(rel: str, soup: BeautifulSoup) -> list[Problem]:
    """Every per-page rule on one parsed page."""
    root = article(soup)
    return [*check_tables(rel, root), *check_prose(rel, root), *check_figures(rel, root), *check_leaks(rel, root),
            *check_reader(rel, root), *check_sections(rel, root)]


def lint_book(html_dir: Path | str) -> list[Problem]:
    """Lint every page of the HTML build in ``html_dir``."""
    html_dir = Path(html_dir)
    problems: list[Problem] = []
    headings: dict[str, list[str]] = {}
    titles: dict[str, str] = {}
    for page in pages(html_dir):
        rel = page.relative_to(html_dir).as_posix()
        soup = BeautifulSoup(page.read_text(errors="replace"), "html.parser")
        titles[rel] = _text(soup.title)
        headings[rel] = [_text(h) for h in article(soup).find_all("h1")]
        problems += lint_page(rel, soup)
    problems += check_unique(headings, titles)
    return problems


def summarize(problems: Iterable[Problem]) -> dict[tuple[str, str], int]:
    """How many problems each (page, kind) has."""
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for problem in problems:
        counts[(problem.page, problem.kind)] += 1
    return dict(sorted(counts.items()))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def main(argv: list[str] | None = None, per_kind: int = 5) -> int:
    """Print the problems (at most ``per_kind`` per page and rule) and a summary; 1 if any."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print("usage: python -m robotask.book.lint HTML_DIR   (e.g. _build/html)", file=sys.stderr)
        return 2
    problems = lint_book(args[0])
    counts = summarize(problems)
    shown: dict[tuple[str, str], int] = defaultdict(int)
    for problem in problems:
        key = (problem.page, problem.kind)
        shown[key] += 1
        if shown[key] <= per_kind:
            print(problem)
        elif shown[key] == per_kind + 1:
            print(f"{problem.page}: {problem.kind}: ... and {counts[key] - per_kind} more")
    if problems:
        n_pages = len({p.page for p in problems})
        print(f"book lint: {_count(len(problems), 'problem')} on {_count(n_pages, 'page')} in {args[0]}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
