"""Each chapter's rule on ``rankers`` is checked before any kernel starts, in one line naming the parameter, the
chapter and what is expected (issue 51): the runner refuses ``robotask run 02_five_rankers -p rankers '[bm25]'``
as it refuses an out-of-range number, and the catalogue of chapter 98 records the same line."""

from __future__ import annotations

import pytest

from robotask.book import chapters, params, runner
from robotask.catalogue import run_case
from robotask.cli import main, parameter_ranges
from robotask.errors import RobotaskError
from robotask.retrieval import badinput
from robotask.retrieval.parameters import PAPER_FIVE, RANGES, RankerNames

RANGES_ALL = parameter_ranges()
RULES = {key.split(":")[0]: rule for key, rule in RANGES.items() if ":" in key}

# The chapters whose notebooks compare given rankers, and a list that leaves out what each compares.
REFUSED = {
    "02_five_rankers": ("[bm25]", "word, char, word_char, lsa"),
    "04_scoring_audit": ("[bm25, word, char, word_char, minilm]", "lsa"),
    "05_reproduction_report": ("[char]", "bm25, word, word_char, lsa"),
    "06_sentence_embeddings": ("[bm25, char]", "minilm"),
    "09_libraries": ("[char, static]", "bm25"),
    "09_transfer": ("[bm25, word]", "char"),
}


@pytest.fixture
def no_kernel(monkeypatch):
    """Fail the test if the runner reaches the point where a kernel starts."""
    def started(chapter, *args, **kwargs):
        raise AssertionError(f"a kernel started for {chapter.id}")

    monkeypatch.setattr(runner, "execute", started)


@pytest.mark.parametrize("chapter", sorted(REFUSED))
def test_run_refuses_a_list_without_the_chapters_rankers_in_one_line_before_a_kernel(chapter, tmp_path, capsys,
                                                                                     no_kernel):
    value, missing = REFUSED[chapter]
    assert main(["run", chapter, "-p", "rankers", value, "--set", "smoke", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"robotask: error: -p: parameter 'rankers' of chapter {chapter} = ")
    assert f"leaves out {missing}; expected a list that holds " in err
    example = ", ".join(RULES[chapter].required)
    assert err.rstrip().endswith(f"e.g. -p rankers '[{example}]'")
    assert not (tmp_path / "out").exists()  # nothing written: refused before the folders are made


def test_the_example_the_message_gives_is_accepted(tmp_path, capsys, no_kernel):
    for chapter, rule in RULES.items():
        example = "[" + ", ".join(rule.required) + "]"
        [(_, resolved)] = runner.plan(chapters.select([chapter]), "smoke", None,
                                      {"rankers": params.parse_cli_value(example)}, ranges=RANGES_ALL)
        assert resolved["rankers"] == list(rule.required)


def test_the_rule_applies_to_a_parameter_file_and_names_it(tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text("02_five_rankers:\n  rankers: [bm25, char]\n")
    with pytest.raises(RobotaskError, match=r"mine\.yaml \[02_five_rankers\]: parameter 'rankers' of chapter "
                                            r"02_five_rankers = \['bm25', 'char'\] leaves out word, word_char, lsa"):
        runner.plan(chapters.select(["02_five_rankers"]), "smoke", str(mine), {}, ranges=RANGES_ALL)


def test_a_shared_p_refuses_the_chapter_whose_rule_it_breaks_and_names_only_that_chapter(no_kernel):
    with pytest.raises(RobotaskError, match=r"chapter 06_sentence_embeddings = \['bm25', 'char'\] leaves out minilm"):
        runner.plan(chapters.select(["07_uncertainty", "06_sentence_embeddings"]), "smoke", None,
                    {"rankers": ["bm25", "char"]}, ranges=RANGES_ALL)
    # chapter 07 has no rule of its own: the names are checked, nothing more
    runner.plan(chapters.select(["07_uncertainty"]), "smoke", None, {"rankers": ["bm25"]}, ranges=RANGES_ALL)


def test_every_rule_names_a_chapter_that_declares_rankers_and_admits_its_default_and_both_sets():
    by_id = {c.id: c for c in chapters.CHAPTERS}
    assert set(RULES) == set(REFUSED)
    for chapter, rule in RULES.items():
        assert isinstance(rule, RankerNames) and rule.chapter == chapter and rule.required and rule.why
        default = params.declared(by_id[chapter].source_path)["rankers"].default
        rule.check("rankers", default, "the notebook's default")  # raises if the default breaks the rule
        for set_name in params.SETS:
            runner.plan([by_id[chapter]], set_name, None, {}, ranges=RANGES_ALL)


def test_the_rule_is_the_one_the_runner_looks_up_for_the_chapter_only():
    assert params.rule(RANGES_ALL, "02_five_rankers", "rankers") is RULES["02_five_rankers"]
    assert params.rule(RANGES_ALL, "07_uncertainty", "rankers") is RANGES["rankers"]
    assert params.rule(RANGES_ALL, "02_five_rankers", "n_trials") is RANGES["n_trials"]


def test_the_paper_five_are_the_registrys_paper_rankers():
    from robotask.retrieval.rankers import PAPER_RANKERS

    assert PAPER_FIVE == PAPER_RANKERS


@pytest.mark.parametrize("chapter", sorted(REFUSED))
def test_the_catalogue_records_the_line_the_command_prints(chapter, tmp_path, capsys, no_kernel):
    value, _ = REFUSED[chapter]
    assert main(["run", chapter, "-p", "rankers", value, "--out", str(tmp_path / "out")]) == 2
    printed = capsys.readouterr().err.strip().removeprefix("robotask: error: ")
    with pytest.raises(RobotaskError) as caught:
        badinput.run_with_rankers(chapter, value)
    assert str(caught.value) == printed


def test_the_catalogue_cases_on_rankers_get_their_outcome():
    cases = [c for c in badinput.CASES if c.group == "rankers" and c.name.startswith("robotask run")]
    assert len(cases) >= 8
    for case in cases:
        outcome = run_case(case)
        assert outcome.ok, (case.name, outcome.got, outcome.message)
