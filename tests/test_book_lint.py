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
    found = kinds(tmp_path, a=page("<p>A.</p>", title="Same", h1="One"), b=page("<p>B.</p>", title="Same", h1="Two"),
                  c=page("<p>C.</p>", title="Other", h1="One"))
    assert found == ["h1-duplicate", "title-duplicate"]


def test_several_h1s_on_one_page(tmp_path):
    assert kinds(tmp_path, "<section><h1>Another</h1><p>Text.</p></section>") == ["h1-duplicate"]


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
    '<div class="cell_input"><p>x = None</p></div><p>Text.</p>',
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


# Reader defects: each kind is planted once and reported; the clean examples beside them pass.
SECTION = '<section id="{id}"><{h}>{title}<a class="headerlink" href="#{id}">#</a></{h}>{body}</section>'


@pytest.mark.parametrize("body, kind", [
    ("<p>On the sample, an R² of –; near-constant target columns: 3.</p>", "dash-number"),
    ("<li>holding – % of the test variance</li>", "dash-number"),
    ("<p>The minimal head is not resolved of the baseline.</p>", "template-grammar"),
    ("<p>The head is behind of the baseline.</p>", "template-grammar"),
    ("<p>The MLP is ahead of of the baseline.</p>", "template-grammar"),
    ("<p>Generated at 32-pixel video (a dash for a real recording), with 200 frames.</p>", "dash-note"),
    ("<td>none (dashes where there is none)</td>", "dash-note"),
    ("<p>BM25 scores 56948.697 queries per second.</p>", "precision"),
    ("<td>−1596867.820</td>", "precision"),
    ("<td>1,596,867.820</td>", "precision"),
    ("<p>The difference is -0.27 pp (interval -1.07 to 0.3).</p>", "hyphen-minus"),
    ("<td>-19.4</td>", "hyphen-minus"),
    ("<td>behind: +0.1 (-0.317 to +0.126)</td>", "hyphen-minus"),
    ("<p>As Fig. 14.2 shows, the head gains.</p>", "figure-missing"),
    ("<p>Its interval is over the 0 subjects or the 4 scenes.</p>", "zero-units"),
    ("<p>The interval includes zero for 0 tasks under a new subject.</p>", "zero-units"),
    (SECTION.format(id="a", h="h2", title="The MLP", body="") + SECTION.format(id="b", h="h2", title="B",
                                                                                 body="<p>Text.</p>"),
     "empty-section"),
    (SECTION.format(id="a", h="h2", title="Last", body='<span id="x"></span>'), "empty-section"),
    (SECTION.format(id="a", h="h2", title="The MLP on the same folds", body=INPUT.format("show(mlp)")
                    + '<div class="cell_output docutils container"></div>'), "empty-section"),
])
def test_each_reader_defect_kind_fails(tmp_path, body, kind):
    assert set(kinds(tmp_path, body)) == {kind}


@pytest.mark.parametrize("body", [
    "<p>An R² of −0.27; the heads – minimal and MLP – fit in 5–10 s; a dash in a table is missing.</p>",
    "<td>–</td>",
    "<p>The head is ahead of the baseline, the higher of the two, not resolved (−1.07 to +0.27).</p>",
    "<p>The bibliography: doi:10.1109/LRA.2020.2974707 and arXiv 2603.28301; 12,103 episodes, 88.05 %.</p>",
    "<td>1596867.82</td><td>999.8765</td><td>−1596.8</td>",
    "<p>Runs 2026-12-07, episode ep-01, ranges 5-10, file run-2.csv, <code>-p n_trials -3</code>, flag --jobs 2.</p>",
    "<pre>x = -1.5</pre>",
    "<td>negative seed: -p seed -1</td><td>--trials -3</td>",
    "<p>Its bound grows in the primal (the dash-dot line).</p>",
    FIGURE.replace("Fig. 1 ", "Fig. 14.2 ") + "<p>Fig. 14.2 shows it; the paper’s Figure 3 does too.</p>",
    '<p>See <a class="reference internal" href="other.html#fig-x"><span>Fig. 12.4.1</span></a>.</p>',
    "<p>The head is ahead on 0 of 12 tasks; seed 0 gives the same, and 0 trains on all.</p>",
    SECTION.format(id="a", h="h2", title="Part", body=SECTION.format(id="b", h="h3", title="Sub",
                                                                       body="<p>Text.</p>")),
    SECTION.format(id="a", h="h2", title="Figure", body=FIGURE),
])
def test_clean_reader_examples_pass(tmp_path, body):
    assert kinds(tmp_path, body) == []


def test_a_code_span_is_no_doubled_word(tmp_path):
    assert kinds(tmp_path, "<p>Every number is in <code>claims.csv</code> in the output folder.</p>") == []


def test_book_tables_print_a_true_minus(tmp_path):
    import pandas as pd

    from robotask.book import report

    html = report.table_html(pd.DataFrame({"task": ["a-1", "b"], "diff": [-1.25, 0.5], "n": [-3, 4]}))
    assert "−1.2" in html and "−3" in html and "a-1" in html and "-1" not in html.replace("a-1", "")
    assert kinds(tmp_path, html) == []
