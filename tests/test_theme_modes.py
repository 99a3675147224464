"""Figures and tables stay legible in the theme's light and dark modes (pydata-sphinx-theme's
``data-theme`` on ``<html>``), in a real browser.

Opens one chapter with figures and tables of the smoke book (_build/smoke/html, or the folder
ROBOTASK_THEME_HTML names) in headless chromium, once per mode, and saves a screenshot of each to
_build/theme-modes/. In both modes every figure, as drawn (the dark mode's image filter included),
must keep a light background and its darkest marks must contrast with it by at least WCAG's 4.5:1;
every table cell's and caption's text must contrast with the background it is drawn on by 4.5:1
(from the computed styles). Skips without the book or chromium.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from robotask import paths

pytestmark = pytest.mark.notebooks

HTML = paths.resolve(os.environ.get("ROBOTASK_THEME_HTML", paths.BUILD / "smoke" / "html"))
PAGE = "book/chapters/02_five_rankers.html"
SHOTS = paths.BUILD / "theme-modes"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
MIN_CONTRAST = 4.5  # WCAG 2 AA, normal text
MIN_FIGURE_LUMINANCE = 0.5  # median relative luminance of a figure's pixels: a light background
SET_MODE = """
document.documentElement.dataset.theme = arguments[0];
document.documentElement.dataset.mode = arguments[0];
"""
# Text colour and the first opaque background behind it, for every cell of every table in the article.
CELL_COLOURS = """
const rgba = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
const behind = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
  }
  return [255, 255, 255];
};
return Array.from(document.querySelectorAll('article table td, article table th, article table caption'))
  .filter((c) => c.innerText.trim())
  .map((c) => [c.innerText.trim().slice(0, 40), rgba(getComputedStyle(c).color).slice(0, 3), behind(c)]);
"""


def _luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour (0-255 channels)."""
    c = np.asarray(rgb, dtype=float) / 255
    c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(c @ [0.2126, 0.7152, 0.0722])


def _contrast(fg, bg) -> float:
    hi, lo = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_ratio_matches_wcag_examples():
    assert _contrast([0, 0, 0], [255, 255, 255]) == pytest.approx(21.0)
    assert _contrast([118, 118, 118], [255, 255, 255]) == pytest.approx(4.54, abs=0.01)


@pytest.fixture(scope="module")
def page() -> Path:
    if not (HTML / PAGE).is_file():
        pytest.skip(f"no {PAGE} in {HTML}: build the smoke book first (tests/test_notebooks.py)")
    return HTML / PAGE


@pytest.fixture(scope="module")
def driver():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
        pytest.skip("needs Debian's chromium and chromium-driver (`make sysdeps`)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--no-first-run", "--window-size=1400,1000"):
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    drv.set_page_load_timeout(60)
    yield drv
    drv.quit()


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_figures_and_tables_are_legible(page, driver, mode):
    driver.get(page.as_uri())
    driver.execute_script(SET_MODE, mode)
    assert driver.execute_script("return document.documentElement.dataset.theme") == mode
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{page.stem}-{mode}.png"))
    body = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert (mode == "dark") == (_luminance([float(x) for x in body[body.index("(") + 1:-1].split(",")[:3]]) < 0.2)

    from selenium.webdriver.common.by import By

    figures = driver.find_elements(By.CSS_SELECTOR, "article figure img")
    assert figures, f"{PAGE}: no figure to check"
    dim = []
    for img in figures:
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", img)
        pixels = np.asarray(Image.open(io.BytesIO(img.screenshot_as_png)).convert("RGB"), dtype=float)
        luminance = [_luminance(rgb) for rgb in np.percentile(pixels.reshape(-1, 3), [50, 1], axis=0)]
        background, ink = luminance
        if background < MIN_FIGURE_LUMINANCE or (background + 0.05) / (ink + 0.05) < MIN_CONTRAST:
            dim.append(f"{img.get_attribute('src').rsplit('/', 1)[-1]}: background luminance "
                       f"{background:.2f}, marks {ink:.2f}")
    assert not dim, f"{mode} mode: figures not legible: {dim}"

    cells = driver.execute_script(CELL_COLOURS)
    assert cells, f"{PAGE}: no table to check"
    poor = [f"{text!r}: {_contrast(fg, bg):.1f}:1 ({fg} on {bg})" for text, fg, bg in cells
            if _contrast(fg, bg) < MIN_CONTRAST]
    assert not poor, f"{mode} mode: {len(poor)} table cells below {MIN_CONTRAST}:1, e.g. " + "; ".join(poor[:5])
