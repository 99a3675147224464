"""``cache.adopt_entries``: a throw-away cache's complete entries join the study's cache, nothing else."""

from __future__ import annotations

import numpy as np

from robotask.cache import Cache, adopt_entries


def test_adopts_missing_entries_and_keeps_existing_ones(tmp_path, monkeypatch):
    source, target = tmp_path / "timing-cache", tmp_path / "cache"
    monkeypatch.setenv("ROBOTASK_CACHE", str(source))
    Cache("features").save_npz("a.npz", x=np.arange(3))
    Cache("features").save_npz("b.npz", x=np.arange(4))
    Cache("episodes").folder("ep1", lambda tmp: (tmp / "done.txt").write_text("1"), marker="done.txt")
    (source / "features" / ".c.npz.lock").write_text("")  # a lock and a half-built folder: never copied
    (source / "episodes" / ".ep2.tmp").mkdir()

    monkeypatch.setenv("ROBOTASK_CACHE", str(target))
    Cache("features").save_npz("b.npz", x=np.arange(9))  # already here: stays as it is
    assert adopt_entries(source) == 2
    assert np.array_equal(Cache("features").load_npz("a.npz")["x"], np.arange(3))
    assert np.array_equal(Cache("features").load_npz("b.npz")["x"], np.arange(9))
    assert (target / "episodes" / "ep1" / "done.txt").read_text() == "1"
    assert sorted(p.name for p in target.rglob("*")) == [".entry-checksums.json", "a.npz", "b.npz", "done.txt", "ep1",
                                                         "episodes", "features"]
    assert adopt_entries(source) == 0
