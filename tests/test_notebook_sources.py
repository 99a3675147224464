"""The notebook sources, their .ipynb twins, the chapter list, the TOC and the parameter sets agree."""

from __future__ import annotations

import json

import jupytext
import pytest
import yaml

from robotask import paths
from robotask.book import chapters, params
from robotask.book import titles as book_titles
from robotask.cli import parameter_ranges

SOURCES = sorted(paths.NOTEBOOKS.glob("*.py"))
RANGES = parameter_ranges()


def test_every_chapter_has_a_source():
    missing = [c.source for c in chapters.CHAPTERS if not c.source_path.is_file()]
    assert not missing, f"chapters without a notebook source: {missing}"


def test_every_source_backs_a_chapter():
    used = {c.source for c in chapters.CHAPTERS}
    assert {p.stem for p in SOURCES} <= used


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_source_has_one_typed_parameters_cell(source):
    declared = params.declared(source)
    assert declared, "the parameters cell declares nothing"
    for p in declared.values():
        assert p.help, f"parameter {p.name} has no comment"
        params._check_type(p, p.default, str(source), RANGES)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_twin_is_in_sync_and_has_no_outputs(source):
    twin = source.with_suffix(".ipynb")
    assert twin.is_file(), f"{twin.name} is missing: run `make sync`"
    raw = json.loads(twin.read_text())
    with_outputs = any(c.get("outputs") for c in raw["cells"] if c["cell_type"] == "code")
    assert not with_outputs, f"{twin.name} is committed with outputs"
    a, b = jupytext.read(source), jupytext.read(twin)
    strip = lambda nb: [(c.cell_type, c.source.strip()) for c in nb.cells]  # noqa: E731
    assert strip(a) == strip(b), f"{twin.name} is out of sync with {source.name}: run `make sync`"


def _toc_files(node) -> list[str]:
    files = []
    if isinstance(node, dict):
        if "file" in node:
            files.append(node["file"])
        for value in node.values():
            files += _toc_files(value)
    elif isinstance(node, list):
        for value in node:
            files += _toc_files(value)
    return files


def test_toc_lists_every_chapter_once():
    toc = yaml.safe_load((paths.ROOT / "_toc.yml").read_text())
    listed = [f for f in _toc_files(toc) + [toc["root"]] if f.startswith("book/chapters/")]
    expected = [f"book/chapters/{c.id}" for c in chapters.CHAPTERS]
    assert sorted(listed) == sorted(expected)
    pages = [f for f in _toc_files(toc) + [toc["root"]] if not f.startswith("book/chapters/")]
    for page in pages:
        assert (paths.ROOT / f"{page}.md").is_file(), page


@pytest.mark.parametrize("set_name", params.SETS)
def test_parameter_sets_name_declared_parameters(set_name):
    """Every chapter has a file in each set, and the runner accepts exactly the values it holds."""
    for chapter in chapters.CHAPTERS:
        path = params.set_file(set_name, chapter.id, chapter.source)
        assert path is not None, f"params/{set_name} has no file for chapter {chapter.id}"
        values = params.load_yaml(path)
        resolved = params.resolve(chapter.source_path, [(str(path), values)], ranges=RANGES)
        for name, value in values.items():
            assert resolved[name] == value, f"{path}: {name} resolved to {resolved[name]!r}"


def test_every_set_file_belongs_to_a_chapter():
    names = {c.id for c in chapters.CHAPTERS} | {c.source for c in chapters.CHAPTERS}
    stray = [p for s in params.SETS for p in (paths.PARAMS / s).glob("*.yaml") if p.stem not in names]
    assert not stray, f"parameter files for no chapter: {stray}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_papermill_reads_every_parameter(source):
    """`papermill --help-notebook` documents each parameter (it fails on some comment styles)."""
    from papermill.translators import PythonTranslator

    found = PythonTranslator.inspect({"source": params.parameters_source(source)})
    assert [p.name for p in found] == list(params.declared(source))


def test_task_chapters_are_titled_after_the_registry():
    from robotask.episode.tasks import registry as tasks

    toc = yaml.safe_load((paths.ROOT / "_toc.yml").read_text())
    titles = {}

    def walk(node):
        if isinstance(node, dict):
            if str(node.get("file", "")).startswith("book/chapters/12_task_"):
                titles[node["file"].rsplit("12_task_", 1)[1]] = node.get("title")
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(toc)
    assert titles == {tid: f"12.{i}{book_titles.SEPARATOR}Task: {t.display_name}"
                      for i, (tid, t) in enumerate(tasks.TASKS.items(), start=1)}


def test_chapter_list_names_every_task_of_the_registry():
    """The book wing lists task chapters by id (it imports no study); they match the episode registry."""
    from robotask.episode.tasks import registry as tasks

    assert list(chapters.TASK_IDS) == list(tasks.TASKS)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_code_lines_fit_the_page(source):
    """Code inputs never scroll sideways in the book: at most 100 characters a line."""
    nb = jupytext.read(source)
    long = [line for cell in nb.cells if cell.cell_type == "code" for line in cell.source.splitlines()
            if len(line) > 100]
    assert not long, f"{source.name}: code lines over 100 characters: {long[:3]}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_code_cells_are_short_steps(source):
    """A step of the method is a short cell: at most 20 non-blank, non-comment lines (parameters aside)."""
    nb = jupytext.read(source)
    long = {i: n for i, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and "parameters" not in cell.metadata.get("tags", [])
            and (n := sum(1 for line in cell.source.splitlines()
                          if line.strip() and not line.strip().startswith("#"))) > 20}
    assert not long, f"{source.name}: code cells over 20 lines (cell index: lines): {long}"
