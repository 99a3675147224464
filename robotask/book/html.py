"""Build the HTML book with Jupyter Book, in plain text when the output is not a terminal.

Jupyter Book 1.x colours its closing box whatever the output is, so ``make book > log`` wrote escape
codes into the log. This runs ``jupyter-book build`` with the given arguments, passes its output on
line by line and, when standard output is not a terminal (or ``NO_COLOR`` is set), removes the ANSI
escape sequences. The exit code is Jupyter Book's.

``python -m robotask.book.html print HTML_DIR OUT.pdf`` prints a built book to one PDF (``make pdf``):
every page of the navigation, in book order, joined into one HTML document (ids prefixed per page,
links between pages turned into links inside the document) and printed once by headless Chromium
(``Page.printToPDF``), so page numbers run through the book and links are kept. No TeX.
"""

from __future__ import annotations

import base64
import os
import posixpath
import re
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from robotask.errors import RobotaskError

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def plain(lines: Iterable[str]) -> Iterable[str]:
    """The lines with every ANSI escape sequence removed."""
    return (ANSI.sub("", line) for line in lines)


def colour_wanted(stream=None) -> bool:
    """Colour only for a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    stream = sys.stdout if stream is None else stream
    return stream.isatty() and not os.environ.get("NO_COLOR")


def main(argv: list[str] | None = None) -> int:
    """Run ``jupyter-book build ARGV`` (from this interpreter's bin folder) and relay its output;
    ``print HTML_DIR OUT.pdf`` prints the built book instead."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["print"]:
        return print_main(argv[1:])
    exe = Path(sys.executable).with_name("jupyter-book")
    env = {**os.environ, "NO_COLOR": "1"} if not colour_wanted() else dict(os.environ)
    with subprocess.Popen([str(exe), "build", *argv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env) as proc:
        assert proc.stdout is not None
        lines = proc.stdout if colour_wanted() else plain(proc.stdout)
        for line in lines:
            sys.stdout.write(line)
            sys.stdout.flush()
    return proc.returncode


# ---- printing the built book to one PDF --------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
PRINT_FILE = "_robotask_print.html"  # written beside index.html while printing, removed afterwards
FOOTER = ('<div style="font-size:8px;width:100%;text-align:center;color:#555">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')
WAIT_RENDERED = """
const done = arguments[arguments.length - 1];
const imgs = Array.from(document.images);
imgs.forEach((i) => { i.loading = 'eager'; });
const math = (window.MathJax && MathJax.startup && MathJax.startup.promise) || Promise.resolve();
Promise.all([math, ...imgs.map((i) => i.complete ? null
  : new Promise((r) => { i.onload = i.onerror = r; }))]).then(() => done('ok'), (e) => done('' + e));
"""


def book_pages(html_dir: Path) -> list[Path]:
    """The built book's pages in book order: the root page, then its navigation's pages."""
    from bs4 import BeautifulSoup

    index = html_dir / "index.html"
    if not index.is_file():
        raise RobotaskError(f"{index}: no built book here (expected index.html; run `make html` first)")
    root = _redirect_target(index)
    soup = BeautifulSoup(root.read_text(encoding="utf-8"), "html.parser")
    pages = [root]
    for a in soup.select("nav.bd-docs-nav a.reference.internal"):
        target = _local_target(root, a.get("href", ""))
        if target is not None and target.suffix == ".html" and target not in pages and target.is_file():
            pages.append(target)
    return pages


def _redirect_target(index: Path) -> Path:
    """Jupyter Book's index.html only redirects (meta refresh) to the root page."""
    text = index.read_text(encoding="utf-8")
    marker = "url="
    if "Refresh" in text and marker in text:
        url = text.split(marker, 1)[1].split('"', 1)[0]
        return (index.parent / url).resolve()
    return index.resolve()


def _local_target(page: Path, href: str) -> Path | None:
    """The file a relative link of ``page`` points to, or None for an external or in-page link."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    return Path(posixpath.normpath((page.parent / parts.path).as_posix()))


def joined_html(html_dir: Path, pages: list[Path]) -> str:
    """One HTML document of every page's article, in order, with its links re-pointed (see module)."""
    from bs4 import BeautifulSoup

    html_dir = html_dir.resolve()
    anchor = {page: f"p{i}" for i, page in enumerate(pages)}
    shell = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser")
    _repoint(shell.head, pages[0], html_dir, anchor)  # the print stylesheet: book/vendor/robotask.css
    holder = shell.select_one("article.bd-article")
    if holder is None:
        raise RobotaskError(f"{pages[0]}: no <article class=bd-article> (expected a sphinx-book-theme page)")
    holder.clear()
    for page in pages:
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        article = soup.select_one("article.bd-article")
        if article is None:
            continue
        prefix = anchor[page]
        for tag in article.find_all(id=True):
            tag["id"] = f"{prefix}-{tag['id']}"
        _repoint(article, page, html_dir, anchor)
        section = shell.new_tag("section", attrs={"class": "robotask-print-page", "id": prefix})
        section.extend(list(article.contents))
        holder.append(section)
    return str(shell)


def _repoint(tree, page: Path, html_dir: Path, anchor: dict[Path, str]) -> None:
    """Make the relative links of ``tree`` (from ``page``) valid from html_dir/PRINT_FILE."""
    for tag in tree.find_all(["a", "img", "link", "script", "source"]):
        attr = "href" if tag.name in ("a", "link") else "src"
        value = tag.get(attr)
        if not value:
            continue
        parts = urlsplit(value)
        if tag.name == "a" and not parts.scheme and not parts.path and parts.fragment:
            tag[attr] = f"#{anchor[page]}-{parts.fragment}" if page in anchor else value
            continue
        target = _local_target(page, value)
        if target is None:
            continue
        if tag.name == "a" and target in anchor:
            tag[attr] = f"#{anchor[target]}-{parts.fragment}" if parts.fragment else f"#{anchor[target]}"
            continue
        tag[attr] = posixpath.relpath(target.as_posix(), html_dir.as_posix()) + (
            f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def _chromium():
    """Headless Debian chromium through its chromedriver (never Selenium Manager)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as exc:
        raise RobotaskError("printing needs selenium (pinned in requirements.txt; run `make venv`)") from exc
    if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
        raise RobotaskError(f"printing needs {CHROMIUM} and {CHROMEDRIVER} (run `make sysdeps` as root)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1200,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(300)
    driver.set_page_load_timeout(300)
    return driver


def print_book(html_dir: Path, out: Path) -> int:
    """Print the book built in ``html_dir`` to ``out`` (A4, page numbers in the footer); its page count."""
    from robotask.io import atomic_path

    html_dir = Path(html_dir).resolve()
    pages = book_pages(html_dir)
    document = joined_html(html_dir, pages)
    driver = _chromium()
    joined = html_dir / PRINT_FILE
    try:
        joined.write_text(document, encoding="utf-8")
        driver.get(joined.as_uri())
        driver.execute_async_script(WAIT_RENDERED)
        pdf = driver.execute_cdp_cmd("Page.printToPDF", {
            "printBackground": True, "displayHeaderFooter": True, "headerTemplate": "<span></span>",
            "footerTemplate": FOOTER, "paperWidth": 8.27, "paperHeight": 11.69, "marginTop": 0.5,
            "marginBottom": 0.6, "marginLeft": 0.5, "marginRight": 0.5, "generateDocumentOutline": True})
    finally:
        driver.quit()
        joined.unlink(missing_ok=True)
    data = base64.b64decode(pdf["data"])
    with atomic_path(out, len(data)) as tmp:
        tmp.write_bytes(data)
    return len(re.findall(rb"/Type\s*/Page\b", data))


def print_main(argv: list[str]) -> int:
    """``print HTML_DIR OUT.pdf``: one line of what was written, or one line of what is wrong (exit 2)."""
    if len(argv) != 2:
        print("usage: python -m robotask.book.html print HTML_DIR OUT.pdf", file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        print_book(Path(argv[0]), Path(argv[1]))
    except RobotaskError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {argv[1]} from {argv[0]} in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
