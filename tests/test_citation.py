"""How to cite the book: CITATION.cff, the home page's "How to cite" fragment and every {cite} key.

What can be checked without cffconvert (its schema check is `cffconvert --validate -i CITATION.cff`,
run by hand in a scratch venv): the file parses, has the keys CFF 1.2.0 requires, and each reference
has a type, a title and authors. The BibTeX of book/how_to_cite.md must parse and be, entry for entry,
the one in book/references.bib; every citation of the chapters and book pages must name a key there.
"""

from __future__ import annotations

import re

import pytest
import yaml
from pybtex.database import parse_string

from robotask import paths

CFF = paths.ROOT / "CITATION.cff"
BIB = paths.ROOT / "book" / "references.bib"
HOW_TO_CITE = paths.ROOT / "book" / "how_to_cite.md"
CITE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")
FENCE = re.compile(r"```bibtex\n(.*?)```", re.S)
# The sources the book rests on (issue 47): each has a reference in CITATION.cff and BibTeX on the home page.
SOURCES = ("Reference Wording Shapes", "ropedia-xperience-10m-task-suite", "HOMIE-toolkit", "LIBERO-Para",
           "RLBench", "CALVIN", "RoboCasa", "RoboTwin 2.0", "LIBERO:", "MiniLM", "WordLlama")


@pytest.fixture(scope="module")
def cff() -> dict:
    return yaml.safe_load(CFF.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bib():
    return parse_string(BIB.read_text(encoding="utf-8"), "bibtex")


def _entries(text: str) -> dict[str, str]:
    """Each BibTeX entry of ``text`` by key, whitespace collapsed."""
    found = re.finditer(r"@\w+\{([^,\s]+),.*?\n\}", text, re.S)
    return {m.group(1): " ".join(m.group(0).split()) for m in found}


def test_citation_cff_has_the_required_keys(cff):
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "date-released"):
        assert cff.get(key), f"CITATION.cff: no {key}"
    assert cff["authors"] == [{"name": "The robotask authors"}]
    assert str(cff["date-released"]) == "2026-12-07"


def test_every_reference_has_a_type_title_and_authors(cff):
    refs = cff["references"]
    for ref in refs:
        assert ref.get("type") and ref.get("title"), ref
        assert ref.get("authors") and all(a.get("name") or a.get("family-names") for a in ref["authors"]), ref
    titles = [str(r["title"]) for r in refs]
    assert [s for s in SOURCES if not any(s in t for t in titles)] == []


def test_how_to_cite_bibtex_is_the_bibliography_entries(bib):
    text = HOW_TO_CITE.read_text(encoding="utf-8")
    blocks = FENCE.findall(text)
    assert len(blocks) == 2, "one BibTeX block for the book, one for the sources"
    shown = parse_string("\n".join(blocks), "bibtex").entries
    assert len(shown) >= 1 + len(SOURCES)
    assert sorted(set(shown) - set(bib.entries)) == []
    ours = _entries(BIB.read_text(encoding="utf-8"))
    assert {k: v for k, v in _entries("\n".join(blocks)).items() if ours[k] != v} == {}
    titles = " ".join(str(e.fields["title"]) for e in shown.values())
    assert [s for s in SOURCES if s.replace(":", "") not in titles.replace("{", "").replace("}", "")] == []


def test_every_citation_resolves_to_a_bibliography_key(bib):
    files = sorted((paths.ROOT / "notebooks").glob("*.py")) + sorted((paths.ROOT / "book").glob("*.md"))
    cited = {(f.name, key.strip()) for f in files for keys in CITE.findall(f.read_text(encoding="utf-8"))
             for key in keys.split(",")}
    assert cited, "no {cite} found: the pattern no longer matches the sources"
    assert sorted(c for c in cited if c[1] not in bib.entries) == []
