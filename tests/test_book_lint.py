"""The book lint, one rule at a time, on tiny hand-written pages shaped like a Jupyter Book build."""

from __future__ import annotations

import pytest

from robotask.book import lint

CHROME_LOGO = '<header class="bd-header"><img src="_static/logo.png"></header>'
FIGURE = ('<figure><img src="_images/a.png" alt="Recall at 1 per ranker">'
          '<figcaption><p><span class="caption-number">Fig. 1 </span>'
          '<span class="caption-text">Recall at 1 per ranker.</span></p></figcaption></figure>')


def page(body: str, title: str = "A page", h1: str | None = "A page") -> str:
    heading = f'<h1>{h1}<a class="headerlink" href="#x">#</a></h1>' if h1 else ""
    return (f"<html><head><title>{title}</title></head><body>{CHROME_LOGO}"
            f'<main><article class="bd-article"><section>{heading}{body}</section></article></main>'
            "</body></html>")


def table(rows: int, cols: int = 3, empty: int = 0, wrap: str = "") -> str:
    """A table of ``rows`` body rows whose first ``empty`` cells are blank, optionally wrapped."""
    cells = [f"<td>{'' if i < empty else i}</td>" for i in range(rows * cols)]
    body = "".join("<tr>" + "".join(cells[r * cols:(r + 1) * cols]) + "</tr>" for r in range(rows))
    html = f"<table><thead><tr>{'<th>h</th>' * cols}</tr></thead><tbody>{body}</tbody></table>"
    return f"<div {wrap}>{html}</div>" if wrap else html


def kinds(tmp_path, *bodies: str, **pages_: str) -> list[str]:
    """Lint one page per body (or named pages) and return the problem kinds found."""
    for i, body in enumerate(bodies):
        (tmp_path / f"p{i}.html").write_text(page(body, title=f"Page {i}", h1=f"Page {i}"))
    for name, html in pages_.items():
        (tmp_path / f"{name}.html").write_text(html)
    return sorted(p.kind for p in lint.lint_book(tmp_path))


def test_a_clean_page_passes(tmp_path):
    body = FIGURE + "<p>None of the rankers reaches 90 %; True positives are rare.</p>" + table(5)
    assert kinds(tmp_path, body, body.replace("90", "80")) == []


@pytest.mark.parametrize("empty, expected", [(7, []), (8, ["table-empty"])])
def test_mostly_empty_tables_fail(tmp_path, empty, expected):
    # 3 header + 21 body cells: 7 empty is 29 %, 8 empty is 33 %
    assert kinds(tmp_path, table(7, empty=empty)) == expected


@pytest.mark.parametrize("wrap, expected", [
    ("", ["table-long"]),
    ('data-long-table="one row per task and seed"', []),
    ('data-long-table=""', ["table-long"]),
    ('class="long-table"', []),
    ('class="cell tag_long-table docutils container"', []),
])
def test_long_tables_need_a_declared_reason(tmp_path, wrap, expected):
    assert kinds(tmp_path, table(61, wrap=wrap)) == expected


def test_sixty_rows_are_fine(tmp_path):
    assert kinds(tmp_path, table(60)) == []


def test_duplicate_titles_and_h1s_across_pages(tmp_path):
    found = kinds(tmp_path, a=page("", title="Same", h1="One"), b=page("", title="Same", h1="Two"),
                  c=page("", title="Other", h1="One"))
    assert found == ["h1-duplicate", "title-duplicate"]


def test_several_h1s_on_one_page(tmp_path):
    assert kinds(tmp_path, "<section><h1>Another</h1></section>") == ["h1-duplicate"]


@pytest.mark.parametrize("prose", [
    "<p>The flag was True for every seed.</p>",
    "<p>seed: None</p>",
    "<td>nan</td>",
    "<li>windows [232, 233] overlap</li>",
    "<h2>Counts {'contact': 1161}</h2>",
    "<p>Labels ['grasp'] only.</p>",
    "<figure><figcaption><p>Mean is NaN here.</p></figcaption></figure>",
])
def test_python_reprs_in_prose_fail(tmp_path, prose):
    assert "python-repr" in kinds(tmp_path, prose)


@pytest.mark.parametrize("prose", [
    "<p>None of the rankers wins. True positives dominate.</p>",
    "<p>Call <code>run(flag=True)</code> and get <code>[232, 233]</code>.</p>",
    '<div class="cell_input"><p>x = None</p></div>',
    "<pre>{'contact': 1161}</pre>",
    '<p>Scores lie in <span class="math notranslate">\\([0, 1]\\)</span> [Smi20].</p>',
    "<p>Nonexistent, Truer, nano, a single [12] reference.</p>",
])
def test_english_code_and_math_are_not_reprs(tmp_path, prose):
    assert kinds(tmp_path, prose) == []


def test_each_repr_is_reported_once_even_when_blocks_nest(tmp_path):
    assert kinds(tmp_path, "<ul><li><p>value None</p></li></ul>") == ["python-repr"]


@pytest.mark.parametrize("prose, expected", [
    ("<p>one class(es) and two loss(es)</p>", ["plural-s", "plural-s"]),
    ("<li>notebook(s)</li>", ["plural-s"]),
    ("<p>classes (see losses) and f(s) in <code>loss(es)</code></p>", []),
])
def test_s_plurals_fail(tmp_path, prose, expected):
    assert kinds(tmp_path, prose) == expected


@pytest.mark.parametrize("figure, expected", [
    (FIGURE, []),
    ('<div class="cell_output"><img src="_images/a.png" alt="../_images/a.png"></div>',
     ["figure-alt", "figure-caption"]),
    ('<figure><img src="_images/a.png"><figcaption><p>Recall.</p></figcaption></figure>', ["figure-alt"]),
    ('<figure><img src="_images/a.png" alt="a.png"><figcaption><p>Recall.</p></figcaption></figure>',
     ["figure-alt"]),
    ('<figure><img src="_images/a.png" alt="Recall"></figure>', ["figure-caption"]),
    ('<figure><img src="_images/a.png" alt="Recall"><figcaption><p><span class="caption-number">'
     'Fig. 2 </span><span class="caption-text"></span></p></figcaption></figure>', ["figure-caption"]),
])
def test_figures_need_a_caption_and_real_alt_text(tmp_path, figure, expected):
    assert kinds(tmp_path, figure) == expected


def test_theme_chrome_images_are_not_figures(tmp_path):
    html = page("<p>Text.</p>").replace("</article>", '</article><footer><img src="x.svg"></footer>')
    assert kinds(tmp_path, a=html) == []


def test_main_prints_problems_and_exits_1(tmp_path, capsys):
    (tmp_path / "p.html").write_text(page("<p>loss(es)</p>"))
    assert lint.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "p.html: plural-s: <p> 'loss(es)'" in out and "1 problem on 1 page" in out
    (tmp_path / "p.html").write_text(page("<p>losses</p>"))
    assert lint.main([str(tmp_path)]) == 0


def test_static_folders_are_not_pages(tmp_path):
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "x.html").write_text(page("<p>loss(es)</p>"))
    assert lint.lint_book(tmp_path) == []


OUTPUT = ('<div class="cell_output docutils container"><div class="output text_plain highlight-myst-ansi">'
          '<pre>{}</pre></div></div>')
INPUT = '<div class="cell_input docutils container"><div class="highlight"><pre>{}</pre></div></div>'


@pytest.mark.parametrize("leak", [
    OUTPUT.format("&lt;IPython.core.display.Markdown object&gt;"),  # a display object printed, not shown
    OUTPUT.format("&lt;robotask.episode.features.windowset.WindowSet object at 0x7f3a2c1d9e50&gt;"),
    OUTPUT.format("{'features': PosixPath('/work/main/_build/results/11_windows_features/f.npz')}"),
    "<p>Char TF-IDF leads by {glue:text}`char_gain:.1f` points.</p>",  # a role MyST did not render
    "<p>Results are in /tmp/robotask-results/02_five_rankers.</p>",
    "<li>read from /root/.cache/robotask/features</li>",
    OUTPUT.format("/opt/venv/lib/python3.11/site-packages/pandas/core/frame.py:123: warning"),
])
def test_what_a_program_leaves_on_a_page_fails(tmp_path, leak):
    assert set(kinds(tmp_path, leak)) == {"leak"}


def test_code_inputs_and_ordinary_words_are_not_leaks(tmp_path):
    body = (INPUT.format("out = paths.resolve('/tmp/x')  # glue {glue:text}`a`") +
            "<p>The object at the centre of the scene; a path /a/b in the dataset; see https://example.org/home/x.</p>")
    assert kinds(tmp_path, body) == []
