"""Every table and figure of the book carries a "Data" link to a CSV of what it shows.

The link is a ``data:text/csv;base64`` URI in the same output as the table or the figure's caption
(``robotask.book.report.data_link``). A table's CSV is the table as shown (headers, rounding, dashes as empty
cells); a figure's CSV holds the values its artists plot (``robotask.plots.figure_data``).
:func:`data_link_problems` checks a built HTML book; ``tests/test_notebooks_lint.py`` runs it over the smoke book.
"""

from __future__ import annotations

import base64
import html as html_lib
import io
import re
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

from robotask import plots
from robotask.book import report

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LINK = re.compile(r'<a href="data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]*)" download="([^"]+)">')


def decode(href_payload: str) -> pd.DataFrame:
    """The CSV a link holds, every cell as text (an empty cell stays empty)."""
    raw = base64.b64decode(href_payload, validate=True).decode("utf-8")
    return pd.read_csv(io.StringIO(raw), dtype=str, keep_default_na=False)


def cell_text(fragment: str) -> str:
    """A table cell's text as a reader reads it, in the CSV's spelling: tags dropped, a negative number's true
    minus as a hyphen-minus (a minus in words stays), the dash of a missing cell as an empty cell."""
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()
    return "" if text == "–" else re.sub(r"^−(?=\.?\d|inf)", "-", text)


def shown_table(html: str) -> pd.DataFrame:
    """The table an HTML fragment shows, as text."""
    heads = [cell_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", html, re.S)]
    rows = [[cell_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>", 1)[1], re.S)]
    return pd.DataFrame(rows, columns=heads, dtype=str)


@pytest.fixture
def shown(monkeypatch):
    """What the report functions display, as (HTML or Markdown) text, in order."""
    import IPython.display as ipd
    import myst_nb

    outputs: list[str] = []
    monkeypatch.setattr(ipd, "display", lambda obj, **_: outputs.append(getattr(obj, "data", obj)))
    monkeypatch.setattr(myst_nb, "glue", lambda *a, **k: None)
    return outputs


FRAME = pd.DataFrame({
    "ranker": ["bm25 − lsa", "`char`", "lsa"], "mean_accuracy": [61.234, -2.05, np.nan], "n_trials": [80.0, 80.0, 79.0],
    "in_paper": [True, False, True], "rankers": [["a", "b"], ["c"], []]})


def test_a_numbered_table_carries_its_csv_equal_to_the_table_shown(shown):
    page = report.Page("02_five_rankers")
    page.show_table(FRAME, digits=1, caption="Mean accuracy per ranker")
    page.show_table(FRAME, digits=2, caption="The same, to two digits")
    for output, number in zip(shown, ("2-1", "2-2")):
        [(payload, filename)] = LINK.findall(output)
        assert filename == f"02_five_rankers-table-{number}.csv"
        data = decode(payload)
        pd.testing.assert_frame_equal(data, shown_table(output))
    first = decode(LINK.findall(shown[0])[0][0])
    assert list(first.columns) == ["Ranker", "Mean accuracy", "N trials", "In paper", "Rankers"]
    assert first["Mean accuracy"].tolist() == ["61.2", "-2.0", ""]  # as shown: rounded, a dash is empty
    assert first["N trials"].tolist() == ["80", "80", "79"] and first["Ranker"][1] == "char"
    assert decode(LINK.findall(shown[1])[0][0])["Mean accuracy"].tolist() == ["61.23", "-2.05", ""]


def test_an_unnumbered_table_gets_a_name_that_does_not_change(shown):
    report.show_table(FRAME)
    report.show_table(FRAME)
    report.show_table(FRAME.head(1))
    names = [LINK.findall(o)[0][1] for o in shown]
    assert names[0] == names[1] != names[2] and re.fullmatch(r"table-[0-9a-f]{8}\.csv", names[0])
    assert shown[0] == shown[1]  # byte-identical output


def _figure_csv(output: str, name: str) -> pd.DataFrame:
    [(payload, filename)] = LINK.findall(output)
    assert filename == f"{name}.csv"
    assert f"{{glue:figure}} {name}" in output.split('<p class="robotask-data">')[0]  # the caption's output
    return decode(payload)


def test_a_figure_from_the_study_carries_the_values_its_lines_plot(shown):
    from robotask.retrieval.presentation import figure_ranker_spread
    from robotask.retrieval.rankers.registry import display

    summary = pd.DataFrame({"ranker": ["bm25", "lsa", "char"], "mean": [61.5, 40.25, 55.0],
                            "p5": [50.0, 30.0, 45.5], "p95": [70.0, 52.0, 63.0]})
    fig = figure_ranker_spread(summary, paper_means={"bm25": 60.0, "lsa": 41.0})
    report.show_figure(fig, "fig-spread", "Spread per ranker.", "Dots and bars per ranker.")
    data = _figure_csv(shown[0], "fig-spread")
    means = data[data["series"] == "mean (ours)"]
    by_name = dict(zip(means["y_category"], means["x"].astype(float)))
    assert by_name == {display(r): m for r, m in zip(summary["ranker"], summary["mean"])}
    spread = data[data["kind"] == "segment (horizontal)"]
    assert sorted(zip(spread["low"].astype(float), spread["high"].astype(float))) == sorted(
        zip(summary["p5"], summary["p95"]))
    paper = data[data["series"] == "mean (paper)"]["x"]
    assert sorted(paper) == ["", "41.0", "60.0"]  # the ranker the paper has no number for: an empty cell
    assert "text" in set(data["kind"])  # the written means
    assert not data["kind"].str.startswith("not extracted").any()


def test_a_figure_with_bars_a_span_and_a_marker_line(shown):
    from robotask.episode.published.figures import figure_block_choice

    errors = np.random.default_rng(3).normal(size=120)
    fig = figure_block_choice({"MLP": errors})
    report.show_figure(fig, "fig-blocks", "Autocorrelation.", "Bars by lag.")
    data = _figure_csv(shown[0], "fig-blocks")
    bars = data[data["kind"] == "bar"]
    assert len(bars) >= 1 and (bars["axes_title"] == "MLP").all()
    band = data[data["kind"] == "horizontal span"].iloc[0]
    assert float(band["high"]) == pytest.approx(2 / np.sqrt(len(errors))) == -float(band["low"])
    assert data[data["kind"] == "vertical line"]["series"].iloc[0].startswith("block = ")


def test_bands_error_bars_and_an_unknown_artist_are_each_said():
    fig, ax = plt.subplots()
    x = np.array([1.0, 2.0, 3.0])
    ax.plot(x, x * 2, label="mean")
    ax.fill_between(x, x * 2 - 1, x * 2 + 0.5, label="interval")
    ax.errorbar(x, x, yerr=0.25, fmt="o", label="with error")
    ax.pcolormesh(np.eye(2))
    plots.png_bytes(fig)
    data = plots.figure_data(fig)
    plt.close(fig)
    band = data[data["series"] == "interval"]
    assert band["x"].tolist() == [1.0, 2.0, 3.0]
    assert band["low"].tolist() == [1.0, 3.0, 5.0] and band["high"].tolist() == [2.5, 4.5, 6.5]
    bars = data[(data["series"] == "with error") & (data["kind"] == "error bar")]
    assert bars["low"].tolist() == [0.75, 1.75, 2.75] and bars["high"].tolist() == [1.25, 2.25, 3.25]
    assert data[data["series"] == "mean"]["y"].tolist() == [2.0, 4.0, 6.0]
    assert "not extracted: QuadMesh" in set(data["kind"])  # said, never dropped


def test_a_figure_link_is_the_same_on_a_rerun(shown):
    from robotask.retrieval.presentation import figure_means_with_intervals

    table = pd.DataFrame({"ranker": ["bm25", "char"], "mean": [60.0, 55.0], "lo": [58.0, 53.5],
                          "hi": [62.0, 56.5], "p5": [50.0, 45.0], "p95": [70.0, 65.0]})
    for _ in range(2):
        report.show_figure(figure_means_with_intervals(table), "fig-means", "Means.", "Means per ranker.")
    assert shown[0] == shown[1]
    data = _figure_csv(shown[0], "fig-means")
    assert sorted(data[data["kind"] == "points"]["x"].astype(float)) == [55.0, 60.0]


# --------------------------------------------------------------------------- the check over a built book
def data_link_problems(html_dir: Path) -> list[str]:
    """Each table shown with ``show_table`` (class ``robotask-table``) and each figure (``<figure>``) of every
    page that is not followed by its own data link before the next table or figure, each link whose CSV does
    not decode or is empty, and each table whose CSV is not the table shown."""
    from bs4 import BeautifulSoup

    problems = []
    for page in sorted(Path(html_dir).rglob("*.html")):
        rel = page.relative_to(html_dir).as_posix()
        if rel.startswith(("_static/", "_sources/")) or rel in ("genindex.html", "search.html"):
            continue
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        root = soup.find("article") or soup.body or soup
        pending, count = None, 0
        for item in root.find_all(["table", "figure", "p"]):
            is_link = item.name == "p" and "robotask-data" in (item.get("class") or [])
            is_shown = (item.name == "figure" or (item.name == "table"
                                                   and "robotask-table" in (item.get("class") or [])))
            if is_shown:
                if pending is not None:
                    problems.append(f"{rel}: {pending[0]} has no data link")
                count += 1
                pending = (f"{item.name} {count}", item)
            elif is_link:
                anchor = item.find("a")
                href, name = (anchor.get("href", ""), anchor.get("download", "")) if anchor else ("", "")
                prefix = "data:text/csv;charset=utf-8;base64,"
                try:
                    data = decode(href.removeprefix(prefix)) if href.startswith(prefix) else None
                except (ValueError, pd.errors.EmptyDataError) as err:
                    data = None
                    problems.append(f"{rel}: {name or 'a data link'} does not decode ({err})")
                if data is None or not len(data.columns) or not name.endswith(".csv"):
                    problems.append(f"{rel}: {name or 'a data link'} holds no CSV")
                elif pending is not None and pending[1].name == "table":
                    if not shown_table(str(pending[1])).equals(data):
                        problems.append(f"{rel}: {name} is not the table shown")
                pending = None
        if pending is not None:
            problems.append(f"{rel}: {pending[0]} has no data link")
    return problems


def test_the_book_check_finds_a_missing_and_a_wrong_link(tmp_path):
    good = report.table_html(FRAME) + report.data_link(report.shown_values(FRAME), "t.csv")
    wrong = report.table_html(FRAME) + report.data_link(report.shown_values(FRAME.head(1)), "u.csv")
    (tmp_path / "good.html").write_text(f"<article>{good}</article>", encoding="utf-8")
    assert data_link_problems(tmp_path) == []
    figure = '<figure><img src="x.png" alt="x"></figure>' + report.data_link(pd.DataFrame({"x": [1]}), "f.csv")
    bad = f"<article>{report.table_html(FRAME)}{figure}{wrong}<figure></figure></article>"
    (tmp_path / "bad.html").write_text(bad, encoding="utf-8")
    assert data_link_problems(tmp_path) == ["bad.html: table 1 has no data link",
                                            "bad.html: u.csv is not the table shown",
                                            "bad.html: figure 4 has no data link"]


def test_a_heat_map_gives_each_cell_and_its_written_share():
    share, counts = np.array([[0.25, 0.5], [0.75, 1.0]]), np.array([[1, 2], [3, 4]])
    fig, ax = plt.subplots()
    ax.imshow(share)
    plots.annotate_cells(ax, share, counts)
    plots.png_bytes(fig)
    data = plots.figure_data(fig)
    plt.close(fig)
    cells = data[data["kind"] == "image"]
    assert list(zip(cells["x"], cells["y"], cells["value"])) == [(0, 0, 0.25), (1, 0, 0.5), (0, 1, 0.75), (1, 1, 1.0)]
    texts = data[data["kind"] == "text"]
    assert texts["value"].tolist()[0] == "0.25\n(n = 1)" and texts["x"].tolist() == [0, 1, 0, 1]
