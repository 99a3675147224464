"""Code inputs are hidden in the book: the runner tags every code cell `hide-input` but cells the author
tagged `show-input`, and removes the parameters cell and papermill's injected cell (`remove-cell`)."""

from __future__ import annotations

import subprocess
import sys

import nbformat
import pytest

from robotask import paths
from robotask.book import chapters, runner

NOTEBOOK = '''# %% [markdown]
# # A toy chapter

# %% tags=["parameters"]
n: int = 3  # a count

# %%
import math

# %% tags=["show-input"]
print(math.sqrt(n))  # how to call the package

# %% tags=["remove-input"]
print("table")

# %%
n * 2
'''


def _cell(tags=None, kind="code"):
    cell = nbformat.v4.new_code_cell("x") if kind == "code" else nbformat.v4.new_markdown_cell("x")
    if tags is not None:
        cell.metadata["tags"] = list(tags)
    return cell


def test_hide_inputs_tags_plain_code_cells_and_removes_the_parameter_cells():
    nb = nbformat.v4.new_notebook(cells=[
        _cell(), _cell(["parameters"]), _cell(["injected-parameters"]), _cell(["show-input"]),
        _cell(["remove-input"]), _cell(["hide-cell"]), _cell(["hide-input"]), _cell(["foo"]),
        _cell(kind="markdown"),
    ])
    assert runner.hide_inputs(nb) == 4
    tags = [c.metadata.get("tags") for c in nb.cells]
    assert tags == [["hide-input"], ["parameters", "remove-cell"], ["injected-parameters", "remove-cell"],
                    ["show-input"],
                    ["remove-input"], ["hide-cell"], ["hide-input"], ["foo", "hide-input"], None]


def test_hide_inputs_is_idempotent():
    nb = nbformat.v4.new_notebook(cells=[_cell(), _cell(["parameters"])])
    runner.hide_inputs(nb)
    assert runner.hide_inputs(nb) == 0
    assert nb.cells[0].metadata["tags"] == ["hide-input"]
    assert nb.cells[1].metadata["tags"] == ["parameters", "remove-cell"]


@pytest.mark.notebooks
def test_executed_chapter_has_inputs_hidden_and_runs_under_nbval(tmp_path, monkeypatch):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "toy.py").write_text(NOTEBOOK)
    (tmp_path / "params").mkdir()
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    monkeypatch.setattr(paths, "PARAMS", tmp_path / "params")
    monkeypatch.setattr(paths, "BUILD", tmp_path / "_build")
    monkeypatch.setattr(chapters, "CHAPTERS", (chapters.Chapter("toy", "toy"),))
    runner.run(["toy"], "smoke", overrides={"n": 4}, out_dir=tmp_path / "out", ranges={})
    nb = nbformat.read(tmp_path / "out" / "toy.ipynb", as_version=4)
    nbformat.validate(nb)
    code = [(c.source.splitlines()[0], c.metadata.get("tags", [])) for c in nb.cells if c.cell_type == "code"]
    assert code == [
        ("n: int = 3  # a count", ["parameters", "remove-cell"]),
        ("# Parameters", ["injected-parameters", "remove-cell"]),  # plumbing, off the page
        ("import math", ["hide-input"]),
        ("print(math.sqrt(n))  # how to call the package", ["show-input"]),
        ('print("table")', ["remove-input"]),
        ("n * 2", ["hide-input"]),
    ]
    assert [c for c in nb.cells if c.cell_type == "code"][-1].outputs[0]["data"]["text/plain"] == "8"
    assert nb.cells[-1].source.startswith("## Reproduce this page")  # the runner ends the page with it
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "--nbval-lax", "-p", "no:cacheprovider",
                           str(tmp_path / "out" / "toy.ipynb")], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:]
