"""Reading prediction files in the original's formats, and ``robotask score``'s one line for each bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from robotask import cli
from robotask.episode.published.formats import read_original

SINGLE = ("window_index,start_frame,end_frame,center_frame,true_label,predicted_label,confidence,correct\n"
          "813,4065,4084,4074,steady,steady,0.9,1\n814,4070,4089,4079,transition,steady,0.8,0\n"
          "815,4075,4094,4084,steady,transition,0.7,0\n")
MULTI = ("id,episode_id,split,start_frame,end_frame,main_task,true_label,predicted_label,confidence,correct\n"
         "e1:qa:0,e1,test,0,19,t,no,no,0.9,1\ne1:qa:20,e1,test,400,419,t,yes,no,0.9,0\n"
         "e2:qa:0,e2,test,0,19,t,no,yes,0.9,0\n")


def _file(tmp_path: Path, run: str, text: str, task: str = "transition_detection") -> Path:
    path = tmp_path / run / task / "predictions.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_both_formats_read_to_one_table(tmp_path):
    one = read_original(_file(tmp_path, "a", SINGLE), "a")
    many = read_original(_file(tmp_path, "b", MULTI), "b")
    assert list(one["window"]) == ["813", "814", "815"] and set(one["episode"]) == {"sample"}
    assert list(many["episode"]) == ["e1", "e1", "e2"] and list(many["order"]) == [0, 400, 0]


BAD = {
    "missing columns": (SINGLE.replace("predicted_label", "guess"), "missing column(s) predicted_label"),
    "duplicate window ids": (SINGLE + "813,4065,4084,4074,steady,steady,0.9,1\n", "window id '813' appears"),
    "unparsable file": ("\x00\x01garbage\n\"unclosed,\n", "not a readable CSV file"),
    "empty file": ("", "not a readable CSV file"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_gets_one_line(tmp_path, capsys, case):
    text, expected = BAD[case]
    path = _file(tmp_path, "a", text)
    assert cli.main(["score", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and expected in err and str(path) in err


def test_a_label_not_in_the_truth_gets_one_line(tmp_path, capsys):
    a = _file(tmp_path, "a", SINGLE)
    b = _file(tmp_path, "b", SINGLE.replace("0.7,0", "0.7,0").replace("steady,transition", "steady,boundary"))
    assert cli.main(["score", f"a={a}", f"b={b}"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'boundary' not among the true labels" in err


def test_windows_of_one_run_missing_in_another_get_one_line(tmp_path, capsys):
    a = _file(tmp_path, "a", SINGLE)
    b = _file(tmp_path, "b", "\n".join(SINGLE.splitlines()[:-1]) + "\n")
    assert cli.main(["score", f"a={a}", f"b={b}"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "run b lacks 1 window(s)" in err and "'815'" in err


def test_score_writes_the_tables_the_issue_names(tmp_path, capsys):
    a, b = _file(tmp_path, "a", MULTI), _file(tmp_path, "b", MULTI.replace("no,yes,0.9,0", "no,no,0.9,1"))
    out = tmp_path / "out"
    assert cli.main(["score", f"a={a}", f"b={b}", "--out", str(out), "--n-bootstrap", "50"]) == 0
    header = (out / "comparisons.csv").read_text().splitlines()[0]
    assert header == "scope,task,metric,a,b,a_value,b_value,difference,low,high,unit,verdict"
    assert ",episode," in (out / "comparisons.csv").read_text()  # two episodes: resampled as episodes
    assert "a − b" in capsys.readouterr().out
    assert (out / "recomputed.csv").read_text().startswith("source,run,task,metric,published,recomputed")


def test_a_fine_tuned_runs_answers_read_as_the_action_task(tmp_path):
    text = ('id,target,split,episode_id,center_window,true_label,raw_prediction,predicted_label,correct,'
            'true_label_seen_in_train\n'
            'e1:qa:0,q,test,e1,"{\'start_frame\': 0, \'end_frame\': 19}",Pour,"{""action"":""Pour""}",Pour,1,1\n'
            'e1:qa:20,q,test,e1,"{\'start_frame\': 400, \'end_frame\': 419}",Cut,"{""action"":""Cu",Cu,0,0\n')
    path = tmp_path / "run" / "eval" / "predictions.csv"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    frame = read_original(path, "tuned")
    assert set(frame["task"]) == {"timeline_action"}
    assert list(frame["parsed"]) == ["1", "0"] and list(frame["order"]) == [0, 400]
