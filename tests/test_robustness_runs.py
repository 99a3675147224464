"""A run writes where it says and the terminal tells the answer (issue 51): `robotask run --out`, `-p` with no
chapter, `--list --set`, a spoilt run log; `robotask suite --no-models`, `--split` with one episode, a rerun."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from robotask.book import chapters, runner
from robotask.cli import main, parameter_ranges
from robotask.episode.specimens import template
from robotask.errors import RobotaskWarning


def test_run_out_puts_the_results_under_out(tmp_path, monkeypatch, capsys):
    seen = {}

    def fake_run(names, set_name, params_file, overrides, out_dir, jobs, ranges):
        seen["results"] = os.environ.get("ROBOTASK_RESULTS")
        return []

    monkeypatch.delenv("ROBOTASK_RESULTS", raising=False)
    monkeypatch.setattr(runner, "run", fake_run)
    assert main(["run", "02_five_rankers", "--set", "smoke", "--out", str(tmp_path / "x")]) == 0
    assert seen["results"] == str(tmp_path / "x" / "results")
    printed = capsys.readouterr().out
    assert f"executed notebooks in {tmp_path / 'x'}, results in {tmp_path / 'x' / 'results'}" in printed
    assert f"run log {tmp_path / 'x' / 'run_log.json'}" in printed
    monkeypatch.delenv("ROBOTASK_RESULTS", raising=False)


def test_run_out_keeps_an_explicit_results_folder(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setenv("ROBOTASK_RESULTS", str(tmp_path / "mine"))
    monkeypatch.setattr(runner, "run", lambda *a, **k: seen.setdefault("r", os.environ["ROBOTASK_RESULTS"]) and [])
    assert main(["run", "02_five_rankers", "--set", "smoke", "--out", str(tmp_path / "x")]) == 0
    assert seen["r"] == str(tmp_path / "mine")


def test_p_without_a_chapter_is_refused_and_all_runs_everything(monkeypatch, capsys):
    names = {}
    monkeypatch.setattr(runner, "run", lambda n, *a, **k: names.setdefault("n", n) and [])
    assert main(["run", "-p", "n_trials", "10"]) == 2
    assert "names no chapter" in capsys.readouterr().err
    assert main(["run", "--all", "-p", "n_trials", "10"]) == 0
    assert names["n"] == []  # no names: every chapter


def test_list_shows_the_set_values(capsys):
    assert main(["run", "02_five_rankers", "--list", "--set", "smoke"]) == 0
    out = capsys.readouterr().out
    assert "params/smoke/02_five_rankers.yaml" in out and "n_trials: int = 3  (default 80)" in out


@pytest.mark.parametrize("text", ['{"02_five_rankers": {"chap', "[1, 2]", "\x00\xff"])
def test_a_spoilt_run_log_is_rebuilt_with_one_warning(tmp_path, text):
    log = tmp_path / "run_log.json"
    log.write_text(text, encoding="utf-8", errors="surrogateescape")
    chapter = chapters.select(["02_five_rankers"])[0]
    with pytest.warns(RobotaskWarning, match=r"run_log\.json is not a JSON object .*rebuilt"):
        runner._record(log, chapter, "smoke", {"n_trials": 3}, 1.0)
    assert json.loads(log.read_text())["02_five_rankers"]["status"] == "ok"


def test_a_rule_on_rankers_suggests_a_list_that_is_then_accepted():
    from robotask.retrieval.rankers.registry import check_rankers

    with pytest.raises(Exception, match=r"-p rankers '\[bm25, char\]'") as err:
        check_rankers(["bm25", "chars"], "parameter rankers")
    suggested = str(err.value).split("-p rankers ")[1].split(" ")[0:2]
    value = " ".join(suggested).strip("'")
    [(_, resolved)] = runner.plan(chapters.select(["07_uncertainty"]), "smoke", None,  # 02 needs the paper's five
                                  {"rankers": runner.params_mod.parse_cli_value(value)}, ranges=parameter_ranges())
    assert check_rankers(resolved["rankers"]) == ["bm25", "char"]


def _suite(tmp: Path, *argv: str) -> int:
    return main(["suite", "--episode", str(template()), "--heads", "minimal", "--epochs", "2", "--jobs", "1",
                 "--tasks", "timeline_action,hand_trajectory_forecast,contact_prediction", *argv])


def test_suite_no_models_writes_no_model_and_prints_reasons(tmp_path, capsys):
    assert _suite(tmp_path, "--no-models", "--out", str(tmp_path / "s")) == 0
    assert not [p for p in (tmp_path / "s").rglob("model.*")]
    printed = capsys.readouterr().out
    assert f"wrote {tmp_path / 's' / 'summary_report.json'}" in printed
    report = json.loads((tmp_path / "s" / "summary_report.json").read_text())
    assert report["status"]["hand_trajectory_forecast"]["status"] == "ok"  # a fitted head whose model is not written
    for task, status in report["status"].items():
        if status["status"] != "ok":
            assert f"{task}: {status['status']}: " in printed


def test_suite_refuses_a_rerun_into_a_folder_with_files_and_split_on_one_episode(tmp_path, capsys):
    (tmp_path / "s" / "timeline_action").mkdir(parents=True)
    assert _suite(tmp_path, "--out", str(tmp_path / "s")) == 2
    assert "output folder exists and is not empty" in capsys.readouterr().err
    assert _suite(tmp_path, "--split", "group-kfold", "--folds", "2", "--out", str(tmp_path / "t")) == 2
    assert "--split and --folds split the episodes of a --collection" in capsys.readouterr().err


def test_another_set_keeps_apart_from_the_paper_build(monkeypatch):
    from robotask import paths

    seen = {}

    def fake_run(names, set_name, params_file, overrides, out_dir, jobs, ranges):
        seen.update(out=Path(out_dir), results=os.environ.get("ROBOTASK_RESULTS"))
        return []

    monkeypatch.delenv("ROBOTASK_RESULTS", raising=False)
    monkeypatch.setattr(runner, "run", fake_run)
    assert main(["run", "02_five_rankers", "--set", "smoke"]) == 0
    assert seen["out"] == paths.BUILD / "book-smoke" / "chapters"
    assert seen["results"] == str(paths.BUILD / "book-smoke" / "results")
    assert "ROBOTASK_RESULTS" not in os.environ  # set for the run only


def test_too_many_folds_name_the_flag_the_user_typed(tmp_path, monkeypatch, capsys):
    import pandas as pd

    from robotask.episode import cli as episode_cli
    from robotask.episode.tasks.splits import group_kfold

    four = pd.DataFrame({"episode_id": ["a", "b", "c", "d"]})
    monkeypatch.setattr(episode_cli, "_on_collection", lambda args, cfg: group_kfold(four, args.folds) and 0)
    assert main(["suite", "--collection", str(tmp_path), "--split", "group-kfold", "--folds", "5",
                 "--out", str(tmp_path / "o")]) == 2
    assert "--folds 5: expected 2 ≤ folds ≤ 4 (the number of episode groups)" in capsys.readouterr().err


def test_ranker_names_are_checked_before_a_kernel_and_match_the_registry():
    from robotask.errors import RobotaskError
    from robotask.retrieval.parameters import RANKER_NAMES
    from robotask.retrieval.rankers.registry import RANKERS

    assert RANKER_NAMES == tuple(RANKERS)
    with pytest.raises(RobotaskError, match=r"-p: parameter 'rankers' names unknown ranker 'chars'; valid: .*"
                                            r"-p rankers '\[bm25, char\]'"):
        runner.plan(chapters.select(["07_uncertainty"]), "smoke", None, {"rankers": ["bm25", "chars"]},
                    ranges=parameter_ranges())


def test_suite_rerun_into_an_earlier_run_leaves_exactly_the_tasks_its_report_lists(tmp_path):
    out = tmp_path / "s"
    assert main(["suite", "--episode", str(template()), "--heads", "minimal", "--epochs", "2", "--jobs", "1",
                 "--tasks", "timeline_action,contact_prediction", "--out", str(out)]) == 0
    assert main(["suite", "--episode", str(template()), "--heads", "minimal", "--epochs", "2", "--jobs", "1",
                 "--tasks", "contact_prediction", "--out", str(out)]) == 0
    report = json.loads((out / "summary_report.json").read_text())
    assert sorted(report["status"]) == ["contact_prediction"]
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["contact_prediction"]
