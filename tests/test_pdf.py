"""`make pdf`: the built book printed to one PDF by headless Chromium (robotask.book.html, `print`).

The first tests join a tiny hand-written two-chapter book (book order, ids, links, image paths) and
run everywhere in a blink. The last one prints a real built book and reads the PDF back with
`pdftotext`: every page's title and every figure's caption must be in it. It takes about a minute
on the smoke book, so it runs only when asked:

    ROBOTASK_TEST_PDF=_build/smoke/html .venv/bin/python -m pytest tests/test_pdf.py -p no:cacheprovider
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from robotask import paths
from robotask.book import html
from robotask.errors import RobotaskError

NAV = """<nav class="bd-docs-nav"><a class="reference internal" href="#">Home</a>
<a class="reference internal" href="../part.html">Part</a>
<a class="reference internal" href="b.html">B</a><a class="reference external" href="https://x.org">X</a></nav>"""
PAGE = """<!DOCTYPE html><html><head><link rel="stylesheet" href="../../_static/s.css"></head><body>
{nav}<article class="bd-article"><section id="top"><h1>{title}</h1>{body}</section></article></body></html>"""


def _tiny_book(root: Path) -> Path:
    (root / "book" / "chapters").mkdir(parents=True)
    (root / "index.html").write_text('<meta http-equiv="Refresh" content="0; url=book/chapters/a.html" />')
    (root / "book" / "chapters" / "a.html").write_text(PAGE.format(
        nav=NAV, title="Chapter A", body='<a href="b.html#result">B result</a><a href="#top">up</a>'
        '<img src="../../_images/f.png"><a href="https://example.org/x">out</a>'))
    (root / "book" / "part.html").write_text(PAGE.format(nav="", title="Part", body=""))
    (root / "book" / "chapters" / "b.html").write_text(PAGE.format(
        nav="", title="Chapter B", body='<p id="result">r</p><a href="a.html">back</a>'))
    return root


def test_book_pages_follow_the_navigation_from_the_root_page(tmp_path):
    root = _tiny_book(tmp_path)
    names = [p.relative_to(root).as_posix() for p in html.book_pages(root)]
    assert names == ["book/chapters/a.html", "book/part.html", "book/chapters/b.html"]


def test_joined_html_keeps_links_inside_the_document_and_finds_images(tmp_path):
    root = _tiny_book(tmp_path)
    soup = BeautifulSoup(html.joined_html(root, html.book_pages(root)), "html.parser")
    sections = soup.select("section.robotask-print-page")
    assert [s["id"] for s in sections] == ["p0", "p1", "p2"]
    assert [s.h1.get_text() for s in sections] == ["Chapter A", "Part", "Chapter B"]
    hrefs = {a.get_text(): a["href"] for a in soup.select("article a")}
    assert hrefs == {"B result": "#p2-result", "up": "#p0-top", "out": "https://example.org/x", "back": "#p0"}
    assert soup.select_one("#p2-result") is not None  # every link target exists, ids unique per page
    assert soup.img["src"] == "_images/f.png"  # from the joined file beside index.html
    assert soup.select_one("link[rel=stylesheet]")["href"] == "_static/s.css"


def test_a_folder_without_a_built_book_is_one_clear_error(tmp_path):
    with pytest.raises(RobotaskError, match=r"index\.html"):
        html.book_pages(tmp_path)
    assert html.main(["print", str(tmp_path), str(tmp_path / "book.pdf")]) == 2
    assert not (tmp_path / "book.pdf").exists()


def _flat(text: str) -> str:
    """Text without whitespace or hyphens: pdftotext breaks lines where the HTML did not."""
    return re.sub(r"[\s\-\u00ad\u2010]+", "", text)


def test_printed_book_has_every_title_and_figure_caption(tmp_path):
    built = os.environ.get("ROBOTASK_TEST_PDF")
    if not built:
        pytest.skip("prints a whole book (about a minute): set ROBOTASK_TEST_PDF to its HTML folder")
    if not (html.CHROMIUM.is_file() and html.CHROMEDRIVER.is_file() and shutil.which("pdftotext")):
        pytest.skip("needs chromium, chromium-driver and poppler-utils (`make sysdeps`)")
    html_dir = paths.resolve(built)
    pages = html.book_pages(html_dir)
    toc = (paths.ROOT / "_toc.yml").read_text(encoding="utf-8")
    assert len(pages) == 1 + len(re.findall(r"^\s*- file: ", toc, re.M)), "the root page and every _toc.yml file"
    out = tmp_path / "book.pdf"
    assert html.print_book(html_dir, out) > len(pages)
    text = _flat(subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                                check=True).stdout)
    missing = []
    for page in pages:
        article = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("article")
        for link in article.select("a.headerlink"):
            link.decompose()
        wanted = [article.h1] + article.select("figcaption")
        missing += [f"{page.name}: {w.get_text(' ', strip=True)[:80]}" for w in wanted
                    if w is not None and _flat(w.get_text()) not in text]
    assert not missing, "not in the PDF:\n" + "\n".join(missing)
    assert not (html_dir / html.PRINT_FILE).exists()
