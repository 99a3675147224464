"""Loading, validating and describing a description corpus; the rule counterfactuals."""

from __future__ import annotations

import pandas as pd
import pytest

from robotask.errors import RobotaskError
from robotask.retrieval.reproduction import paper, versus_paper
from robotask.retrieval.rlbench import fixed_corpus


def write(path, text: str):
    path.write_text(text)
    return path


def test_load_committed_corpus_is_sorted_with_required_columns():
    df = fixed_corpus.load_corpus()
    assert list(df.columns[:3]) == ["task", "position", "text"]
    assert df.equals(df.sort_values(["task", "position"]).reset_index(drop=True))
    assert df.groupby("task")["position"].apply(lambda s: list(s) == list(range(len(s)))).all()


def test_any_csv_with_task_and_text_positions_follow_row_order(tmp_path):
    path = write(tmp_path / "c.csv", "text,task\nb1,b\na1,a\nb2,b\na2,a\n")
    df = fixed_corpus.load_corpus(path)
    assert df[["task", "position", "text"]].values.tolist() == [
        ["a", 0, "a1"], ["a", 1, "a2"], ["b", 0, "b1"], ["b", 1, "b2"]]


def test_given_positions_are_respected(tmp_path):
    path = write(tmp_path / "c.csv", "task,position,text\na,1,second\na,0,first\n")
    assert fixed_corpus.load_corpus(path)["text"].tolist() == ["first", "second"]


def test_text_like_na_and_numbers_stay_strings(tmp_path):
    path = write(tmp_path / "c.csv", "task,text\nNA,None\n1,2\n")
    df = fixed_corpus.load_corpus(path)
    assert df["task"].tolist() == ["1", "NA"] and df["text"].tolist() == ["2", "None"]


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),
    ("task,words\na,b\n", "lacks column"),
    ("task,text\n", "has no rows"),
    ("", "not a readable CSV"),
    ("task,text\na,\n", "empty task or text"),
    ("task,position,text\na,x,t\n", "integers"),
    ("task,position,text\na,0,t\na,0,u\n", "repeats position 0"),
])
def test_bad_corpus_files_raise_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RobotaskError, match=message):
        fixed_corpus.load_corpus(path)


def test_duplicates_and_counts_on_a_hand_made_corpus():
    df = pd.DataFrame({
        "task": ["lamp_on", "lamp_on", "lamp_off", "lamp_off", "seat", "seat", "seat"],
        "text": ["turn on", "press the light switch", "turn off", "press the light switch",
                 "down", "leave it", "leave it"],
    })
    dups = fixed_corpus.duplicate_texts(df)
    assert dups.to_dict("records") == [{"text": "press the light switch",
                                        "tasks": "lamp_off, lamp_on", "n_tasks": 2, "n_rows": 2}]
    within = fixed_corpus.within_task_duplicates(df)
    assert within.to_dict("records") == [{"task": "seat", "text": "leave it", "n_rows": 2}]
    per = fixed_corpus.descriptions_per_task(df)
    assert per.to_dict() == {"seat": 3, "lamp_off": 2, "lamp_on": 2}
    assert fixed_corpus.corpus_counts(df) == {"tasks": 3, "descriptions": 7, "queries_per_trial": 4}


def test_committed_corpus_has_the_light_switch_duplicate():
    dups = fixed_corpus.duplicate_texts(fixed_corpus.load_corpus())
    row = dups[dups["text"] == "press the light switch"]
    assert row["tasks"].tolist() == ["lamp_off, lamp_on"]


def test_attainable_denominators_closed_form():
    # 63.8 % = 148/232 (63.79); with 231 queries 147/231 = 63.64 and 148/231 = 64.07
    assert paper.attainable_denominators(63.8, [231, 232]) == [232]
    assert paper.attainable_denominators(50.0, [2, 3, 4]) == [2, 4]
    with pytest.raises(RobotaskError):
        paper.attainable_denominators(10.0, [0])


def literals_frame(rows):
    frame = pd.DataFrame(rows, columns=["task", "status", "return_index", "text", "pieces"])
    frame["n_glued_joins"] = [
        sum(a[-1:].isalnum() and b[:1].isalnum() for a, b in zip(p, p[1:])) for p in frame["pieces"]]
    return frame


def test_rule_alternatives_on_hand_made_literals():
    lit = literals_frame([
        ("a", "fixed", 0, "x1", ["x1"]), ("a", "fixed", 0, "x2", ["x2"]),
        ("a", "fixed", 0, "gluedword", ["glued", "word"]),
        ("b", "too_few", 0, "y1", ["y1"]), ("b", "too_few", 0, "y2z", ["y2", "z"]),
        ("c", "branches", 0, "c1", ["c1"]), ("c", "branches", 1, "c2", ["c2"]),
        ("c", "branches", 1, "c3", ["c3"]),
    ])
    table = versus_paper.rule_alternatives(lit, paper={"tasks": 1, "descriptions": 4}).set_index("rule")
    assert table.loc["python", ["tasks", "descriptions"]].tolist() == [1, 3]
    assert table.loc["split_glued", ["tasks", "descriptions"]].tolist() == [2, 7]
    assert table.loc["any_fixed_literal", ["tasks", "descriptions"]].tolist() == [2, 6]
    assert table.loc["split_one:a", ["tasks", "descriptions"]].tolist() == [1, 4]
    assert table.loc["split_capital", ["tasks", "descriptions"]].tolist() == [1, 3]
    assert table["matches_paper"].tolist() == [False, False, False, False, False, True]


def test_committed_literals_load_and_mark_glue():
    lit = fixed_corpus.load_literals()
    assert all(isinstance(p, list) for p in lit["pieces"])
    assert (lit["pieces"].map("".join) == lit["text"]).all()
    glued = fixed_corpus.glued_literals(lit)
    assert (glued["marked"].str.replace("‖", "", regex=False) == glued["text"]).all()
    assert "move hanger onto the other rack‖move the hanger" in " ".join(glued["marked"])


def test_bad_literals_json_raises(tmp_path):
    path = write(tmp_path / "l.csv", "task,status,return_index,text,pieces\na,fixed,0,t,[oops\n")
    with pytest.raises(RobotaskError, match="JSON"):
        fixed_corpus.load_literals(path)
