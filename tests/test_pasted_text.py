"""Glued text as the book shows it: a dash for a missing value, a true minus for a negative sign."""

from __future__ import annotations

import pytest
from docutils import nodes

from robotask.book import lint, rendering


@pytest.mark.parametrize("glued, shown", [
    ("-1.7 to 12.3", "−1.7 to 12.3"),
    ("-0.29 to -0.05", "−0.29 to −0.05"),
    ("+0.67 pp (-0.29 to +1.70)", "+0.67 pp (−0.29 to +1.70)"),
    ("-.5", "−.5"),
    ("nan", "–"),
    ("-nan", "–"),
    ("2-3 windows", "2-3 windows"),
    ("2026-12-07", "2026-12-07"),
    ("pick-cup", "pick-cup"),
    ("12.3", "12.3"),
])
def test_pasted_text(glued, shown):
    assert rendering.pasted_text(glued) == shown


def test_pasted_negative_numbers_pass_the_lint():
    text = "an interval of " + rendering.pasted_text("-1.7 to 12.3") + " points"
    assert not [k for k, _ in lint.reader_findings(text)]
    assert [k for k, _ in lint.reader_findings("an interval of -1.7 to 12.3 points")] == ["hyphen-minus"]


def test_the_doctree_hook_rewrites_only_pasted_text():
    paragraph = nodes.paragraph("", "", nodes.Text("from -2 "),
                                nodes.inline("-1.7 to 12.3", "-1.7 to 12.3", classes=["pasted-text"]),
                                nodes.Text(" and "), nodes.inline("nan", "nan", classes=["pasted-text"]))
    doctree = nodes.document(None, None)
    doctree += paragraph
    rendering._dash_missing(None, doctree, "x")
    assert paragraph.astext() == "from -2 −1.7 to 12.3 and –"
