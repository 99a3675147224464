"""The smoke book in a real browser: Debian's chromium driven by Selenium through chromedriver.

Reads the HTML that tests/test_notebooks.py keeps in _build/smoke/html (this module is collected
after it) and skips when that build is absent. Every page must load without console errors,
request nothing outside the book's folder, load every image and render its math; the search
page must find a known word; code inputs must be collapsed except the parameters cell.
Needs the Debian packages chromium and chromium-driver (`make test` installs them).
Selenium Manager never runs: the driver and browser paths are given explicitly.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest

from robotask import paths
from robotask.book import lint

pytestmark = pytest.mark.notebooks

HTML = paths.BUILD / "smoke" / "html"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SEARCH_WORD = "retrieval"
LOCAL_SCHEMES = ("data:", "blob:", "about:")
WAIT_MATHJAX = """
const done = arguments[arguments.length - 1];
if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) { done('no mathjax'); return; }
MathJax.startup.promise.then(() => done('ok'), (e) => done('error: ' + e));
"""
WAIT_IMAGES = """
const done = arguments[arguments.length - 1];
const imgs = Array.from(document.images);
imgs.forEach((i) => { i.loading = 'eager'; });
Promise.all(imgs.map((i) => i.complete ? null : new Promise((r) => { i.onload = i.onerror = r; })))
  .then(() => done(imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.src)));
"""


@pytest.fixture(scope="module")
def html_dir() -> Path:
    if not (HTML / "index.html").is_file():
        pytest.skip(f"no smoke book in {HTML}: test_book_builds_offline_with_no_remote_assets "
                    "(tests/test_notebooks.py) did not build it, or an earlier test failed")
    return HTML.resolve()


@pytest.fixture(scope="module")
def driver():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
        pytest.skip("needs Debian's chromium and chromium-driver (`make test` installs them: "
                    "apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1400,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    drv = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    drv.set_script_timeout(30)
    drv.set_page_load_timeout(60)
    yield drv
    drv.quit()


def _open(driver, page: Path, query: str = "") -> None:
    """Load ``page`` and wait for MathJax and every image, with the logs of earlier pages drained."""
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(page.as_uri() + query)
    driver.execute_async_script(WAIT_MATHJAX)


def _requested(driver) -> list[str]:
    """Every URL the page asked for: the performance log plus the resource timing entries."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    urls += driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)")
    return list(dict.fromkeys(urls))


def _outside(urls: list[str], root: Path) -> list[str]:
    prefix = root.as_uri() + "/"
    return [u for u in urls if not u.startswith(LOCAL_SCHEMES)
            and not unquote(u).startswith(unquote(prefix))]


def _page_faults(driver, page: Path, root: Path) -> list[str]:
    """Everything wrong with one page in the browser, as readable lines."""
    _open(driver, page)
    faults = [f"console: {e['message']}" for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    faults += [f"request outside the book: {u}" for u in _outside(_requested(driver), root)]
    faults += [f"image did not load: {src}" for src in driver.execute_async_script(WAIT_IMAGES)]
    sources, unrendered = driver.execute_script(
        "const math = Array.from(document.querySelectorAll('.math'));"
        "return [math.length, math.filter((e) => !e.querySelector('mjx-container')).length]")
    if unrendered:
        faults.append(f"math not rendered: {unrendered} of {sources} math elements have no mjx-container")
    return faults


def test_every_page_loads_clean_in_chromium(html_dir, driver):
    report = {}
    for page in lint.pages(html_dir):
        faults = _page_faults(driver, page, html_dir)
        if faults:
            report[page.relative_to(html_dir).as_posix()] = faults
    lines = [f"{rel}: {fault}" for rel, faults in report.items() for fault in faults[:5]]
    assert not report, f"{len(report)} page(s) with faults:\n" + "\n".join(lines[:60])


def test_math_renders_where_the_source_has_math(html_dir, driver):
    pages = [p for p in lint.pages(html_dir) if 'class="math' in p.read_text(errors="replace")]
    assert pages, "no page of the smoke book holds math"
    _open(driver, pages[0])
    assert driver.find_elements("css selector", "mjx-container")


def test_search_finds_a_known_word(html_dir, driver):
    from selenium.webdriver.support.ui import WebDriverWait

    _open(driver, html_dir / "search.html", f"?q={SEARCH_WORD}")
    hits = WebDriverWait(driver, 30).until(
        lambda d: d.find_elements("css selector", "#search-results ul.search li"))
    assert hits, f"search for {SEARCH_WORD!r} found nothing"
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_code_inputs_are_collapsed_but_parameters_stay_visible(html_dir, driver):
    chapters_dir = html_dir / "book" / "chapters"
    page = next((p for p in sorted(chapters_dir.glob("*.html"))
                 if "tag_parameters" in (t := p.read_text(errors="replace")) and "tag_hide-input" in t), None)
    if page is None:
        pytest.skip(f"no chapter in {chapters_dir} has a parameters cell")
    _open(driver, page)
    hidden = driver.find_elements("css selector", ".cell.tag_hide-input .cell_input")
    assert hidden and not any(e.is_displayed() for e in hidden)
    shown = driver.find_elements("css selector", ".cell.tag_parameters .cell_input")
    assert shown and all(e.is_displayed() for e in shown)

