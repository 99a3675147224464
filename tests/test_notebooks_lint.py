"""The smoke book passes the book lint (robotask/book/lint.py; its rules are unit-tested in test_book_lint.py).

Reads the HTML that tests/test_notebooks.py keeps in _build/smoke/html (this module is collected
after it) and skips when that build is absent. `make book` runs the same lint over the paper build.
"""

from __future__ import annotations

import pytest

from robotask import paths
from robotask.book import lint

pytestmark = pytest.mark.notebooks

HTML = paths.BUILD / "smoke" / "html"

# What pages 00, 05, 08 and 09.2 printed at smoke scale, where the parameters leave a library, a schedule, a
# ranker or the readings out, and what they print now: the sentence says so in words, or is left out.
SMOKE_BEFORE = (
    "the MLP on none of the 11 tasks and –. With the sample-like schedule the minimal head is behind on –, and",
    "Across all readings the Char TF-IDF mean stays between – % and – % (paper 61.3 %).",
    "A single typo changes Char TF-IDF by −4.7 pp, Word TF-IDF by — pp (— to —) and BM25 by −10.3 pp.",
    "On RLBench-full: — (— points up to k = —, interval — to —). On CALVIN: not resolved.",
    "on RoboTwin not resolved at k = 1–2; on RLBench-full —; on CALVIN not resolved at k = 1–2.",
    "Over the smaller half of the sizes it is — points per doubling and over the larger half —; whether",
)
SMOKE_AFTER = (
    "Under the improved protocol the minimal head is ahead of the strongest baseline on none of the 11 tasks "
    "with the repeating schedule; the MLP on none of the 11 tasks. This build did not run the sample-like "
    "schedule, so this answer does not say where the heads fall behind with it.",
    "In this build the readings did not run (a custom corpus, or `alternative_corpora` is off): this page sets "
    "no other reading beside the committed corpus.",
    "A single typo changes Char TF-IDF by −4.7 pp (95 % interval −8.1 to −0.9), and BM25 by −10.3 pp.",
    "On RoboTwin, more wordings per task: helps. On CALVIN: not resolved (+0.3 points up to k = 2, interval "
    "−5.5 to +6.0).",
    "With 2 sizes this run fits no slope to either half of them, so it does not ask whether the curve bends.",
)


@pytest.mark.parametrize("text", SMOKE_BEFORE)
def test_a_dash_for_a_value_that_did_not_run_fails_the_lint(text):
    assert "dash-number" in {kind for kind, _ in lint.reader_findings(text)}


@pytest.mark.parametrize("text", SMOKE_AFTER)
def test_the_smoke_pages_say_in_words_what_did_not_run(text):
    assert not list(lint.reader_findings(text))


def test_smoke_book_passes_the_lint():
    if not (HTML / "index.html").is_file():
        pytest.skip(f"no smoke book in {HTML}: test_book_builds_offline_with_no_remote_assets "
                    "(tests/test_notebooks.py) did not build it, or an earlier test failed")
    problems = lint.lint_book(HTML)  # every rule, as `make book` lints the paper build
    counts = "\n".join(f"  {page}: {kind} x{n}" for (page, kind), n in lint.summarize(problems).items())
    examples = "\n".join(f"  {p}" for p in problems[:40])
    assert not problems, (f"book lint: {len(problems)} problems in {HTML}\n{counts}\nfirst ones:\n{examples}\n"
                          f"(run `python -m robotask.book.lint {HTML}` for the list)")


def test_smoke_book_has_a_data_link_beside_every_table_and_figure():
    """Every table and figure of every page has its "Data" link, each link's CSV decodes, and each table's CSV
    is the table shown (the check: ``data_link_problems`` in tests/test_data_links.py)."""
    from test_data_links import data_link_problems

    if not (HTML / "index.html").is_file():
        pytest.skip(f"no smoke book in {HTML}: tests/test_notebooks.py did not build it")
    problems = data_link_problems(HTML)
    assert not problems, f"{len(problems)} missing or broken data links:\n" + "\n".join(problems[:40])
