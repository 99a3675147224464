"""The RoboCasa, RoboTwin and LIBERO extractions: synthetic source trees, and the committed data."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from robotask import paths
from robotask.errors import RobotaskError
from robotask.retrieval.libraries import libero, robocasa, robotwin

REV = "0123456789ab"
DATA = paths.DATA
SLOT = re.compile(r"\{[^{}]*\}")


# ---------------------------------------------------------------- RoboCasa
def _robocasa_tree(tmp_path: Path, rows: list[list[str]]) -> Path:
    path = tmp_path / robocasa.SOURCE
    path.parent.mkdir(parents=True)
    pd.DataFrame(rows, columns=[robocasa.TASK_COLUMN, *robocasa.TEXT_COLUMNS]).to_csv(path, index=False)
    (tmp_path / "LICENSE").write_text("MIT License\nCopyright (c) test\n")
    return tmp_path


def test_robocasa_decodes_python_source_and_fills_slots(tmp_path):
    source = 'f"Put the {self.knob.replace(\'_\', \' \')} pan down. "\n    "Then wait."'
    root = _robocasa_tree(tmp_path, [
        ["Plain", "open the door", "pull the door open", "swing the door", "open it"],
        ["Slots", source, "Put {veg1_lang} and {meat_lang} in", "Put the {cat} away", "Put the {cat} away"],
    ])
    corpus, accounting = robocasa.robocasa_rows(root, REV)
    slots = corpus[corpus.task == "Slots"]
    assert slots.text.tolist() == ["Put the selected pan down. Then wait.", "Put vegetable and meat in",
                                   "Put the food away"]
    assert slots.fill.tolist() == ["knob=selected", "veg1_lang=vegetable; meat_lang=meat", "cat=food"]
    assert len(accounting) == 8
    assert accounting.status.value_counts().to_dict() == {"kept": 4, "filled": 3, "left out": 1}
    assert corpus.revision.unique().tolist() == [REV]
    assert not corpus.text.str.contains(SLOT).any()


def test_robocasa_bad_input(tmp_path):
    with pytest.raises(RobotaskError, match="does not exist"):
        robocasa.robocasa_rows(tmp_path, REV)
    root = _robocasa_tree(tmp_path, [["T", "a", "b", "c", "d"]])
    with pytest.raises(RobotaskError, match="revision"):
        robocasa.robocasa_rows(root, "HEAD")


def test_robocasa_writer(tmp_path):
    root = _robocasa_tree(tmp_path / "src", [["T", "a", "b", "c", "d"]])
    out = robocasa.write_robocasa(root, tmp_path / "out", REV)
    assert sorted(p.name for p in out.iterdir()) == ["NOTICE", "accounting.csv", "corpus.csv"]
    assert "MIT License" in (out / "NOTICE").read_text() and REV in (out / "NOTICE").read_text()


# ---------------------------------------------------------------- RoboTwin
ENV = '''
class demo:
    def load_actors(self):
        object_list = ["047_mouse", "048_stapler"]
        self.name_a = np.random.choice(object_list)
        self.name_b = np.random.choice(object_list)
        self.obj_id = np.random.choice(get_ids(self.name_a))
        colors = {"Red": (1, 0, 0), "Blue": (0, 0, 1)}
        color_items = list(colors.items())
        self.color_name, self.color_value = color_items[np.random.choice(len(color_items))]

    def play_once(self):
        self.info["info"] = {"{A}": f"{self.name_a}/base{self.obj_id}", "{B}": f"{self.name_b}/base0",
                             "{C}": self.color_name, "{D}": "red block", "{a}": str(arm_tag)}
        self.info["info"]["{b}"] = str(arm_tag.opposite)
'''


def _robotwin_tree(tmp_path: Path, templates: dict) -> Path:
    folder = tmp_path / robotwin.TEMPLATES
    folder.mkdir(parents=True)
    (folder / "demo.json").write_text(json.dumps({"full_description": "x", "schema": "y", **templates}))
    (tmp_path / "envs").mkdir()
    (tmp_path / "envs" / "demo.py").write_text(textwrap.dedent(ENV))
    for model, base, words in [("047_mouse", 2, "mouse"), ("048_stapler", 0, "stapler")]:
        obj = tmp_path / robotwin.OBJECTS / model
        obj.mkdir(parents=True)
        (obj / f"base{base}.json").write_text(json.dumps({"raw_description": words, "seen": ["x"], "unseen": []}))
    (tmp_path / "LICENSE").write_text("MIT License\n")
    return tmp_path


def test_robotwin_slots_are_read_from_the_environment(tmp_path):
    root = _robotwin_tree(tmp_path, {"seen": ["x"], "unseen": []})
    slots = robotwin.task_slots(root, "demo")
    assert {s: f.object for s, f in slots.items()} == {
        "A": "the mouse", "B": "the stapler", "C": "red", "D": "red block", "a": "the left arm", "b": "the right arm"}
    assert slots["A"].object_file == "047_mouse/base2"  # id unreadable: lowest existing file
    assert {s: f.placeholder for s, f in slots.items()} == {
        "A": "the object", "B": "the object", "C": "colored", "D": "the object", "a": "the arm", "b": "the arm"}


def test_robotwin_fills_splits_and_repeats(tmp_path):
    root = _robotwin_tree(tmp_path, {
        "seen": ["Put {A} on {B} with {a}.", "Hand {A} to {b}", "Put {A} on {B} with {a}.", "Touch {C} {D}"],
        "unseen": ["Push {B} onto {A} with {a}.", "Hand {A} to {b}", "Put {B} on {A} with {a}."]})
    corpora, accounting, slots = robotwin.robotwin_rows(root, REV)
    obj, ph = corpora["object"], corpora["placeholder"]
    assert obj.text.tolist() == ["Put the mouse on the stapler with the left arm.", "Hand the mouse to the right arm",
                                 "Touch red red block", "Push the stapler onto the mouse with the left arm.",
                                 "Put the stapler on the mouse with the left arm."]
    assert obj.split.tolist() == ["seen", "seen", "seen", "unseen", "unseen"]
    assert ph.text.tolist()[:2] == ["Put the object on the object with the arm.", "Hand the object to the arm"]
    assert len(ph) == 4  # without object words, "Put {B} on {A}" repeats "Put {A} on {B}"
    assert len(accounting) == 2 * 7
    left = accounting[accounting.status == "left out"]
    assert left[left.fill_rule == "object"].field.tolist() == ["seen[2]", "unseen[1]"]
    assert left[left.fill_rule == "placeholder"].field.tolist() == ["seen[2]", "unseen[1]", "unseen[2]"]
    for frame in corpora.values():
        assert not frame.text.str.contains(SLOT).any()


def test_robotwin_unknown_slot_is_a_clear_error(tmp_path):
    root = _robotwin_tree(tmp_path, {"seen": ["Use {E}"], "unseen": []})
    with pytest.raises(RobotaskError, match=r"\{E\}.*does not define"):
        robotwin.robotwin_rows(root, REV)


# ---------------------------------------------------------------- LIBERO
def _bddl(text: str) -> str:
    return f"(define (problem x)\n  (:domain robosuite)\n  (:language {text})\n  (:objects a - b)\n)\n"


def test_libero_rows_and_merge(tmp_path):
    root = tmp_path / libero.BDDL_ROOT
    for suite, name, text in [("s1", "SCENE1_open", "open the drawer"), ("s2", "SCENE2_open", "Open the  drawer"),
                              ("s2", "SCENE3_close", "close the drawer")]:
        (root / suite).mkdir(parents=True, exist_ok=True)
        (root / suite / f"{name}.bddl").write_text(_bddl(text))
    (root / "s2" / "broken.bddl").write_text("(define (problem y))\n")
    (root / "s2" / "tasks_info.txt").write_text("not a bddl file\n")
    corpus, accounting = libero.libero_rows(tmp_path, REV)
    assert corpus.task.tolist() == ["s1/SCENE1_open", "s2/SCENE2_open", "s2/SCENE3_close"]
    assert corpus.text.tolist()[1] == "Open the  drawer"
    assert corpus.instruction_task.tolist() == ["open_the_drawer", "open_the_drawer", "close_the_drawer"]
    assert corpus.n_files.tolist() == [2, 2, 1]
    assert accounting.status.tolist().count("left out") == 1 and len(accounting) == 4


# ---------------------------------------------------------------- the committed data
def _read(library: str, name: str = "corpus.csv") -> pd.DataFrame:
    return pd.read_csv(DATA / library / name, dtype=str, keep_default_na=False)


def test_committed_robocasa_matches_its_source():
    corpus, accounting = _read("robocasa"), _read("robocasa", "accounting.csv")
    assert corpus.task.nunique() == 32 and accounting.task.nunique() == 32
    assert len(accounting) == 32 * len(robocasa.TEXT_COLUMNS)  # every cell of every row accounted
    assert (accounting.status != "left out").sum() == len(corpus)
    assert corpus[corpus.fill != ""].task.nunique() == 12
    assert not corpus.text.str.contains(SLOT).any()
    assert not corpus.text.str.contains('f"|\\r|\\n').any()


def test_committed_robotwin_matches_its_source():
    accounting = _read("robotwin", "accounting.csv")
    assert accounting.task.nunique() == 50
    for fill, name in [("object", "corpus.csv"), ("placeholder", "corpus_placeholder.csv")]:
        corpus, rows = _read("robotwin", name), accounting[accounting.fill_rule == fill]
        assert corpus.task.nunique() == 50
        assert set(corpus.split) == {"seen", "unseen"}
        assert (rows.status != "left out").sum() == len(corpus)
        assert not corpus.text.str.contains(SLOT).any()
        # every seen and unseen template of every task accounted, once per fill
        assert rows.groupby(["task", "split"]).size().sum() == len(rows)
        assert not rows.duplicated(["task", "field"]).any()
    assert _read("robotwin").template.tolist() == _read("robotwin", "corpus_placeholder.csv").template.tolist()


def test_committed_libero_matches_its_source():
    corpus, accounting = _read("libero"), _read("libero", "accounting.csv")
    assert len(accounting) == 130 and (accounting.status == "kept").all()
    assert len(corpus) == 130 and corpus.task.is_unique
    assert corpus.suite.value_counts().to_dict() == {"libero_90": 90, "libero_10": 10, "libero_goal": 10,
                                                     "libero_object": 10, "libero_spatial": 10}


@pytest.mark.parametrize("name", ["robocasa/corpus.csv", "robotwin/corpus.csv", "robotwin/corpus_placeholder.csv"])
def test_committed_corpora_load_in_the_study(name):
    from robotask.retrieval.protocol.corpus_file import read_corpus_file

    frame = read_corpus_file(DATA / name)
    assert len(frame) == len(_read(*name.split("/")))


# ---------------------------------------------------------------- static embeddings
def test_static_embedding_is_normalised_and_deterministic():
    try:
        from robotask.retrieval.rankers import static_embedding as se
        se.shipped_files()
    except RobotaskError as err:
        pytest.skip(f"wordllama is not installed ({err})")
    embedder = se.StaticEmbedder.load()
    texts = ["pick up the red block", "open the top drawer", ""]
    vectors = embedder.embed(texts)
    assert vectors.dtype == np.float32 and vectors.shape == (3, se.DIM)
    assert np.allclose(np.linalg.norm(vectors[:2], axis=1), 1, atol=1e-6) and not vectors[2].any()
    assert np.array_equal(vectors[:1], embedder.embed(texts[:1]))  # a vector does not depend on the batch
    scores = se.score(["open the drawer", "grasp the red cube"], ["pull the drawer open", "take the red block"])
    assert scores.shape == (2, 2) and scores.argmax(axis=1).tolist() == [0, 1]
