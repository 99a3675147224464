"""A manifest is the collection: folders it leaves out are named, and two rows cannot name one folder."""

from __future__ import annotations

import pytest

from robotask.episode.files import format as fmt
from robotask.episode.files.manifest import MANIFEST, load_collection
from robotask.errors import RobotaskError, RobotaskWarning


def _episode(folder):
    folder.mkdir()
    (folder / fmt.ANNOTATION).write_bytes(b"")  # enough to look like an episode folder
    return folder


def test_folders_the_manifest_does_not_list_are_named(tmp_path):
    for name in ("ep0", "ep1", "added", "also_added"):
        _episode(tmp_path / name)
    (tmp_path / "notes").mkdir()  # not an episode folder: no annotation file
    (tmp_path / MANIFEST).write_text("episode_id,path\nep0,ep0\nep1,ep1\n")
    with pytest.warns(RobotaskWarning, match=r"does not list 2 episode folders beside it \(added, also_added\)"):
        collection = load_collection(tmp_path)
    assert set(collection.episodes["episode_id"]) | set(collection.problems["episode_id"]) == {"ep0", "ep1"}


def test_a_complete_manifest_warns_of_nothing(tmp_path, recwarn):
    _episode(tmp_path / "ep0")
    (tmp_path / MANIFEST).write_text("episode_id,path\nep0,ep0\n")
    load_collection(tmp_path)
    assert not [w for w in recwarn if issubclass(w.category, RobotaskWarning) and "does not list" in str(w.message)]


def test_two_rows_naming_one_folder_are_refused(tmp_path):
    _episode(tmp_path / "ep0")
    (tmp_path / MANIFEST).write_text(f"episode_id,path\na,ep0\nb,{tmp_path / 'ep0'}\n")
    with pytest.raises(RobotaskError, match=r"episodes a, b name the same folder"):
        load_collection(tmp_path)
