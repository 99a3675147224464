"""Every executed page ends with "Reproduce this page": its command, commit, data revisions and run times.

The command is built from the parameters the runner gave the chapter (``robotask.book.provenance``); the
round trips run a retrieval and an episode chapter at smoke scale, read the command from the page, run it into a
clean folder and compare the results files byte for byte (PNG figures aside: they are pictures of the same
numbers, and ``tests/test_determinism.py`` covers them).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from robotask import paths
from robotask.book import chapters, provenance, runner
from robotask.cli import parameter_ranges

CHAPTER = {c.id: c for c in chapters.CHAPTERS}


def _block(notebook: Path) -> str:
    nb = nbformat.read(notebook, as_version=4)
    last = nb.cells[-1]
    assert last.cell_type == "markdown" and last.get("id") == provenance.REPRODUCE_CELL_ID
    assert sum(c.get("id") == provenance.REPRODUCE_CELL_ID for c in nb.cells) == 1
    return last.source


def _command(block: str) -> list[str]:
    [command] = re.findall(r"```console\n(.+?)\n```", block)
    return shlex.split(command)


def test_the_command_gives_the_set_and_only_the_values_the_set_does_not():
    chapter = CHAPTER["04_scoring_audit"]
    smoke = provenance.reproduce_command(chapter, "smoke", {"n_trials": 3, "n_matched_trials": 2})
    assert smoke == "robotask run 04_scoring_audit --set smoke"
    other = provenance.reproduce_command(chapter, "smoke", {"n_trials": 5, "n_matched_trials": 2,
                                                            "run_log": "x.json"})
    assert other == "robotask run 04_scoring_audit --set smoke -p n_trials 5"
    paper = provenance.reproduce_command(CHAPTER["09_libraries"], "paper",
                                         {"rankers": ["bm25", "char"], "seed": 7, "budget_libraries": []})
    words = shlex.split(paper)
    assert words[:3] == ["robotask", "run", "09_libraries"] and "--set" not in words
    assert words[words.index("rankers") + 1] == '["bm25", "char"]' and words[words.index("seed") + 1] == "7"


def test_a_text_value_is_written_so_that_the_command_line_reads_it_back():
    from robotask.book.params import parse_cli_value

    chapter = CHAPTER["04_scoring_audit"]
    for value in ("", "yes", "12", "a b", "data/calvin/corpus.csv", "it's"):
        words = shlex.split(provenance.reproduce_command(chapter, "paper", {"n_trials": value}))
        assert parse_cli_value(words[-1]) == value


def test_the_block_states_the_commit_and_the_times_the_run_log_holds():
    text = provenance.reproduction_markdown(CHAPTER["04_scoring_audit"], "smoke", {}, 12.34, 3.0)
    commit, clean = provenance.commit_state()
    assert f"`{commit}`" in text and ("clean work tree" in text) == bool(clean)
    assert "12.3 s and 3.0 s of CPU" in text
    for row in provenance.library_revisions().itertuples():
        assert f"{row.library} `{row.revision}`" in text
    assert "/work/" not in text and "/tmp/" not in text  # nothing of the machine's folders


@pytest.mark.notebooks
@pytest.mark.parametrize("chapter_id", ["04_scoring_audit", "11_windows_features"])
def test_the_command_on_the_page_rebuilds_its_results_byte_for_byte(chapter_id, tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    monkeypatch.setenv("ROBOTASK_RESULTS", str(first / "results"))
    [record] = runner.run([chapter_id], "smoke", out_dir=first / "chapters", ranges=parameter_ranges())
    block = _block(first / "chapters" / f"{chapter_id}.ipynb")
    entry = json.loads((first / "chapters" / "run_log.json").read_text())[chapter_id]
    assert f"took {entry['seconds']:.1f} s and {entry['cpu_seconds']:.1f} s of CPU" in block
    words = _command(block)
    assert words[:3] == ["robotask", "run", chapter_id]
    exe = str(Path(sys.executable).with_name("robotask"))
    env = {**os.environ, "ROBOTASK_RESULTS": str(second / "results")}
    proc = subprocess.run([exe, *words[1:], "--out", str(second / "chapters")], cwd=paths.ROOT, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert _command(_block(second / "chapters" / f"{chapter_id}.ipynb")) == words
    made = {p.relative_to(first / "results"): p for p in sorted((first / "results").rglob("*")) if p.is_file()}
    again = {p.relative_to(second / "results"): p for p in sorted((second / "results").rglob("*")) if p.is_file()}
    assert set(made) == set(again) and made
    compared = [rel for rel in made if rel.suffix != ".png" and "timing" not in rel.name]
    different = [str(rel) for rel in compared if made[rel].read_bytes() != again[rel].read_bytes()]
    assert compared and not different, f"{chapter_id}: results differ on a rerun of its command: {different}"
    assert record.status == "ok"
