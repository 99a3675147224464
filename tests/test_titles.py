"""Every page has its own title; the task template's H1 is replaced per chapter."""

import nbformat

from robotask import task_names
from robotask.book import chapters, titles
from robotask.episode.tasks.registry import TASKS


def test_titles_are_unique_and_match_the_task_registry():
    titled = [c.title for c in chapters.CHAPTERS if c.title]
    assert len(titled) == len(set(titled)) == len(TASKS)
    assert chapters.TASK_TITLES is task_names.TASK_TITLES  # one copy, in the core
    for chapter in chapters.CHAPTERS:
        if chapter.source == "12_task":
            assert chapter.title == f"Task: {TASKS[chapter.fixed['task']].display_name}"


def test_the_registry_takes_its_names_from_the_core():
    assert tuple(TASKS) == task_names.TASK_IDS
    assert {t: spec.display_name for t, spec in TASKS.items()} == task_names.TASK_TITLES


def test_set_h1_replaces_only_the_first_h1(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_markdown_cell("# Run one task\n\nText.\n\n## Method\n\n# Not this"),
                nbformat.v4.new_markdown_cell("# Another")]
    assert titles.set_h1(nb, "Task: Action Recognition")
    assert nb.cells[1].source.startswith("# Task: Action Recognition\n\nText.")
    assert "## Method" in nb.cells[1].source and "# Not this" in nb.cells[1].source
    assert nb.cells[2].source == "# Another"
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    titles.retitle(path, "Task: Other")
    assert nbformat.read(path, 4).cells[1].source.startswith("# Task: Other\n")
    titles.retitle(path, None)
    assert nbformat.read(path, 4).cells[1].source.startswith("# Task: Other\n")


def test_a_notebook_without_h1_gets_one():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("Text only")]
    assert not titles.set_h1(nb, "A title")
    assert nb.cells[0].source == "# A title"


def test_chapter_label_is_the_number_the_prose_uses():
    assert titles.chapter_label("02_five_rankers") == "02"
    assert titles.chapter_label("99_reproducing") == "99"
    assert titles.chapter_label("00_home") == ""
    assert titles.chapter_label("12_task_b", ["12_task_a", "12_task_b"]) == "12.2"
    ids = ["08_perturbations", "09_transfer", "09_libraries", "10_episode"]
    assert titles.numbered_siblings("09_libraries", ids) == ["09_transfer", "09_libraries"]
    assert titles.chapter_label("09_libraries", titles.numbered_siblings("09_libraries", ids)) == "09.2"
    assert [titles.number_prefix(x) for x in ("02", "12.3", "09.1", "")] == ["2", "12.3", "9.1", ""]


def test_number_h1_prefixes_the_first_h1_once():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Five rankers\n\ntext\n\n# Later")])
    assert titles.number_h1(nb, "02")
    assert not titles.number_h1(nb, "02")
    assert nb.cells[0].source == "# 02 · Five rankers\n\ntext\n\n# Later"
    assert not titles.number_h1(nb, "")


def test_figures_are_numbered_per_page_after_the_chapter():
    from robotask.book import rendering as fignumbers

    numbers = {"book/chapters/02_five_rankers": {"figure": {"b": (7,), "a": (6,)}},
               "book/chapters/12_task_x": {"figure": {"c": (9,)}},
               "book/chapters/00_home": {"figure": {"d": (1,), "e": (2,)}}}
    page_titles = {"book/chapters/02_five_rankers": "02 · Rank held-out paraphrases",
                   "book/chapters/12_task_x": "12.3 · Task: Action Boundary Detection",
                   "book/chapters/00_home": "Does reference wording shape retrieval?"}
    out = fignumbers.renumber(numbers, page_titles)
    assert out["book/chapters/02_five_rankers"]["figure"] == {"a": (2, 1), "b": (2, 2)}
    assert out["book/chapters/12_task_x"]["figure"] == {"c": (12, 3, 1)}
    assert out["book/chapters/00_home"]["figure"] == {"d": (1,), "e": (2,)}
    assert fignumbers.page_prefix("09.2 · Larger libraries") == (9, 2)
