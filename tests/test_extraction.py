"""The ast extractor on task files written here in RLBench's shape, and the committed corpus."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from robotask import cli
from robotask.errors import RobotaskError
from robotask.retrieval.reproduction import versus_paper
from robotask.retrieval.rlbench import extraction, fixed_corpus, joins


def extract(*args, **kwargs):
    """The corpus and accounting tables of ``extraction.extract_tables``."""
    tables = extraction.extract_tables(*args, **kwargs)
    return tables["corpus"], tables["accounting"]


MIRROR = Path("/work/.mirror/stepjam+RLBench/repo")
REVISION = "02720bba4c73"

HEADER = "from typing import List\nfrom rlbench.backend.task import Task\n\n\n"


def task_source(body: str, name: str = "Demo") -> str:
    """A task file whose ``init_episode`` has ``body`` (written without indentation)."""
    inner = textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8)
    return (
        HEADER
        + f"class {name}(Task):\n\n    def init_task(self) -> None:\n        pass\n\n"
        + f"    def init_episode(self, index: int) -> List[str]:\n{inner}\n\n"
        + "    def variation_count(self) -> int:\n        return 1\n"
    )


FILES = {
    "plain_list.py": task_source("""
        self.boundary.clear()
        return ['open box',
                'open the  box lid',
                'grasp tha lid and open the box']
    """),
    "wrapped.py": task_source("""
        return ['put the ball in the hoop',
                'pick up the ball and put it in the '
                'hoop',
                'move hanger onto the other rack'
                'move the hanger from one rack to the other']
    """),
    "percent.py": task_source("""
        name = COLORS[index]
        return ['push the %s button' % name,
                'press the %s button' % name,
                'press the button']
    """),
    "fstring.py": task_source("""
        c = COLORS[index]
        return [f'stack on the {c} chair', f'put the chairs on the {c} chair',
                'stack the chairs']
    """),
    "fmt.py": task_source("""
        return ['slide {} drawer'.format(OPTIONS[index]), 'a', 'b']
    """),
    "branches.py": task_source("""
        if index == 0:
            return ['place 1 cup on the holder', 'pick up one cup', 'move 1 mug']
        else:
            return ['place %d cups on the holder' % (index + 1), 'b', 'c']
    """),
    "branch_var.py": task_source("""
        if self.n == 1:
            rtn = ['place the remaining checker']
        else:
            rtn = ['place the %d remaining checkers' % self.n]
        rtn.extend(['prepare the board', 'setup checkers', 'get checkers ready'])
        return rtn
    """),
    "extended.py": task_source("""
        cmds = ['prepare the chessboard']
        cmds.extend(['setup the chessboard', 'setup chess', 'get chess pieces ready'])
        return cmds
    """),
    "named.py": task_source("""
        descriptions = ['wipe dirt off the desk', 'clean up the mess', 'wipe the dirt up']
        return descriptions
    """),
    "variables.py": task_source("""
        rtn0 = 'push the %s button' % self.names[0]
        rtn0 += ', then push the %s button' % self.names[1]
        return [rtn0, 'press the button', 'push it']
    """),
    "two_items.py": task_source("""
        return ['put umbrella in umbrella stand'
                'pick up the umbrella',
                'set the umbrella down']
    """),
    "broken.py": "class Broken(Task):\n    def init_episode(self, index):\n        return ['a',\n",
    "no_episode.py": HEADER + "class Empty(Task):\n    def init_task(self):\n        pass\n",
    "__init__.py": "",
}


@pytest.fixture()
def tasks_dir(tmp_path: Path) -> Path:
    """A checkout-shaped tree ``<tmp>/repo/rlbench/tasks`` holding the files above."""
    folder = tmp_path / "repo" / "rlbench" / "tasks"
    folder.mkdir(parents=True)
    for name, text in FILES.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture()
def tables(tasks_dir: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    return extract(tasks_dir.parent.parent, revision="abc123")


def status_of(accounting: pd.DataFrame) -> dict[str, str]:
    return dict(zip(accounting["task"], accounting["status"]))


def test_every_file_but_init_is_classified(tables):
    _, accounting = tables
    assert len(accounting) == len(FILES) - 1
    assert "__init__" not in set(accounting["task"])
    assert status_of(accounting) == {
        "plain_list": "fixed",
        "wrapped": "fixed",
        "percent": "templated",
        "fstring": "templated",
        "fmt": "templated",
        "branches": "branches",
        "branch_var": "branches",
        "extended": "runtime",
        "named": "fixed",
        "variables": "runtime",
        "two_items": "too_few",
        "broken": "unparsable",
        "no_episode": "no_init_episode",
    }
    assert set(accounting["status"]) <= set(extraction.STATUSES)
    assert accounting["reason"].str.len().min() > 0
    assert (accounting["revision"] == "abc123").all()


def test_literals_keep_exact_wording_and_glue(tables):
    corpus_df, _ = tables
    texts = corpus_df.groupby("task")["text"].apply(list).to_dict()
    assert texts["plain_list"] == ["open box", "open the  box lid", "grasp tha lid and open the box"]
    assert texts["wrapped"] == [
        "put the ball in the hoop",
        "pick up the ball and put it in the hoop",
        "move hanger onto the other rackmove the hanger from one rack to the other",
    ]
    assert texts["named"] == ["wipe dirt off the desk", "clean up the mess", "wipe the dirt up"]
    assert set(corpus_df["task"]) == {"plain_list", "wrapped", "named"}


def test_corpus_records_position_file_line_revision(tables):
    corpus_df, accounting = tables
    assert list(corpus_df.columns) == extraction.CORPUS_COLUMNS
    wrapped = corpus_df[corpus_df["task"] == "wrapped"]
    assert wrapped["position"].tolist() == [0, 1, 2]
    assert (wrapped["file"] == "wrapped.py").all()
    source_lines = FILES["wrapped.py"].splitlines()
    for row in wrapped.itertuples():  # the recorded line holds the literal's first piece
        assert f"'{row.text[:8]}" in source_lines[row.line - 1]
    assert (corpus_df["revision"] == "abc123").all()
    fixed = accounting[accounting["status"] == "fixed"]
    assert fixed["n_descriptions"].sum() == len(corpus_df)


def test_reasons_name_the_cause(tables):
    _, accounting = tables
    reason = dict(zip(accounting["task"], accounting["reason"]))
    assert "% formatting" in reason["percent"]
    assert "f-string" in reason["fstring"]
    assert "str.format" in reason["fmt"]
    assert "index == 0" in reason["branches"]
    assert "rtn" in reason["branch_var"] and "self.n == 1" in reason["branch_var"]
    assert "cmds.extend" in reason["extended"]
    assert "SyntaxError" in reason["broken"]
    assert "2 fixed" in reason["two_items"]


def test_accounting_counts_elements(tables):
    _, accounting = tables
    row = accounting.set_index("task")
    assert row.loc["percent", "n_templates"] == 2 and row.loc["percent", "n_fixed_literals"] == 1
    assert row.loc["wrapped", "n_joined_literals"] == 2
    assert row.loc["wrapped", "n_glued_literals"] == 1  # 'rack' 'move' fuses two words
    assert row.loc["two_items", "n_glued_literals"] == 1
    assert row.loc["branches", "n_returns"] == 2
    assert row.loc["branch_var", "n_fixed_literals"] == 4  # 1 in a branch + 3 added by extend
    assert pd.isna(row.loc["broken", "init_line"])


def test_precedence_branches_before_runtime_before_templates():
    source = task_source("""
        if index == 0:
            return ['a %s' % x, 'b', 'c']
        rtn = ['x']
        rtn.append('y')
        return rtn
    """)
    assert extraction.classify_source(source, "mixed.py").status == "branches"
    source = task_source("""
        return ['a %s' % x, some_call(), 'c']
    """)
    assert extraction.classify_source(source, "mixed.py").status == "runtime"


def test_min_descriptions_and_split_rule(tasks_dir):
    corpus_df, accounting = extract(tasks_dir, min_descriptions=4)
    assert corpus_df.empty and "fixed" not in set(accounting["status"])
    split, accounting = extract(tasks_dir, join_rule="split_glued")
    status = status_of(accounting)
    assert status["two_items"] == "fixed"  # 2 -> 3 once the missing comma is honoured
    texts = split[split["task"] == "wrapped"]["text"].tolist()
    assert texts[-2:] == ["move hanger onto the other rack", "move the hanger from one rack to the other"]
    assert texts[1] == "pick up the ball and put it in the hoop"  # a spaced join stays joined


def test_split_pieces_and_join_tests():
    assert joins.is_glued_join("rack", "move")
    assert not joins.is_glued_join("rack ", "move")
    assert not joins.is_glued_join("shoe", ", lifting")
    assert joins.is_capital_join("play jenga", "Take it")
    assert not joins.is_capital_join("rack", "move") and not joins.is_capital_join("a ", "B")
    assert joins.split_pieces(["a b", "c", " d", "e"]) == ["a b", "c d", "e"]
    assert joins.split_pieces(["a", "B", "c"], "split_capital") == ["a", "Bc"]
    assert joins.split_pieces(["a", "B", "c"], "python") == ["aBc"]
    with pytest.raises(RobotaskError, match="join_rule 'nope'"):
        joins.split_pieces(["a"], "nope")


def test_capital_rule_splits_only_a_capitalised_join():
    source = task_source("""
        return ['play jenga'
                'Take the block out',
                'Keeping the tower up, remove the '
                'block',
                'move hanger onto the rack'
                'move the hanger']
    """)
    result = extraction.classify_source(source, "jenga.py", join_rule="split_capital")
    assert [e.text for e in result.descriptions()] == [
        "play jenga", "Take the block out", "Keeping the tower up, remove the block",
        "move hanger onto the rackmove the hanger"]
    lines = source.splitlines()
    expected = [next(i + 1 for i, line in enumerate(lines) if f"'{start}" in line)
                for start in ("play jenga", "Take the")]
    assert [e.line for e in result.descriptions()][:2] == expected


def test_missing_and_empty_directories(tmp_path):
    with pytest.raises(RobotaskError, match="does not exist"):
        extract(tmp_path / "nope")
    (tmp_path / "rlbench" / "tasks").mkdir(parents=True)
    (tmp_path / "rlbench" / "tasks" / "__init__.py").write_text("")
    with pytest.raises(RobotaskError, match="no task files"):
        extract(tmp_path)


def test_non_utf8_file_is_unparsable(tmp_path):
    (tmp_path / "latin.py").write_bytes(b"x = '\xe9'\n")
    _, accounting = extract(tmp_path)
    assert accounting["status"].tolist() == ["unparsable"]


def test_last_init_episode_wins_and_nested_returns_are_ignored():
    source = task_source("""
        def helper():
            return ['not', 'this', 'one']
        return ['a', 'b', 'c']
    """)
    result = extraction.classify_source(source, "nested.py")
    assert result.status == "fixed" and [e.text for e in result.descriptions()] == ["a", "b", "c"]


def test_cli_writes_files_atomically(tasks_dir, tmp_path, capsys):
    out = tmp_path / "out"
    code = cli.main(["extract", "--rlbench", str(tasks_dir), "--out", str(out), "--revision", "r1"])
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["NOTICE", "accounting.csv", "corpus.csv",
                                                      "literals.csv"]
    assert "r1" in (out / "NOTICE").read_text()
    assert "Imperial College London" in (out / "NOTICE").read_text()
    assert len(fixed_corpus.load_corpus(out / "corpus.csv")) == 9
    assert "13 task files" in capsys.readouterr().out


def test_cli_reports_bad_directory(tmp_path, capsys):
    assert cli.main(["extract", "--rlbench", str(tmp_path / "missing"), "--out", str(tmp_path)]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_committed_files_are_consistent():
    committed = fixed_corpus.load_corpus()
    accounting = fixed_corpus.load_accounting()
    assert len(accounting) == 106
    assert list(pd.read_csv(fixed_corpus.corpus_path()).columns) == extraction.CORPUS_COLUMNS
    fixed = accounting[accounting["status"] == "fixed"]
    assert set(fixed["task"]) == set(committed["task"])
    assert fixed["n_descriptions"].sum() == len(committed)
    assert (committed["revision"] == REVISION).all()
    assert committed.groupby("task").size().min() >= extraction.MIN_DESCRIPTIONS


@pytest.mark.skipif(not MIRROR.is_dir(), reason="RLBench mirror not available (CI has none)")
def test_reextraction_from_mirror_equals_committed(tmp_path):
    archive = subprocess.run(
        ["git", "-C", str(MIRROR), "archive", REVISION, "rlbench/tasks"],
        check=True, capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp_path)], input=archive, check=True)
    tables = extraction.extract_tables(tmp_path, revision=REVISION)
    for name in ("corpus", "accounting", "literals"):
        fresh = tmp_path / f"{name}.csv"
        from robotask.io import write_csv

        write_csv(fresh, tables[name])
        assert fresh.read_text() == (fixed_corpus.paths.RLBENCH_DATA / f"{name}.csv").read_text(), name
    alternatives = versus_paper.rule_alternatives(fixed_corpus.load_literals()).set_index("rule")
    for rule in joins.JOIN_RULES:
        split, _ = extract(tmp_path, join_rule=rule)
        assert alternatives.loc[rule, ["tasks", "descriptions"]].tolist() == [
            split["task"].nunique(), len(split)], rule
    paper_rule, _ = extract(tmp_path, join_rule="split_capital")
    assert (paper_rule["task"].nunique(), len(paper_rule)) == (62, 296)  # the paper's counts


def test_split_rule_agrees_with_the_literals_counterfactual(tasks_dir, tmp_path):
    tables = extraction.extract_tables(tasks_dir)
    path = tmp_path / "literals.csv"
    from robotask.io import write_csv

    write_csv(path, tables["literals"])
    alternatives = versus_paper.rule_alternatives(fixed_corpus.load_literals(path)).set_index("rule")
    split, _ = extract(tasks_dir, join_rule="split_glued")
    assert alternatives.loc["split_glued", "tasks"] == split["task"].nunique()
    assert alternatives.loc["split_glued", "descriptions"] == len(split)
    assert alternatives.loc["python", "descriptions"] == len(tables["corpus"])


@pytest.mark.parametrize("body, status, reason", [
    ("pass", "runtime", "returns no value"),
    ("return descriptions", "runtime", "not assigned"),
    ("return ['a', 'b'] + ['c']", "runtime", "not a list literal"),
    ("return ('a', 'b', 'c')", "fixed", "3 fixed"),
    ("return ['a', *more, 'c']", "runtime", "is computed"),
    ("return ['a ' + 'b', 'c', 'd']", "fixed", "3 fixed"),
    ("return ['a ' + name, 'c', 'd']", "templated", "string + value"),
])
def test_return_shapes(body, status, reason):
    result = extraction.classify_source(task_source(body), "shape.py")
    assert (result.status, reason in result.reason) == (status, True), result.reason
