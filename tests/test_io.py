"""Atomic writes and path resolution."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from robotask import io, paths


def test_write_json_is_sorted_and_handles_numpy(tmp_path):
    path = io.write_json(tmp_path / "a" / "x.json", {"b": np.int64(2), "a": np.float32(0.5), "c": np.arange(2)})
    assert json.loads(path.read_text()) == {"a": 0.5, "b": 2, "c": [0, 1]}
    assert path.read_text().index('"a"') < path.read_text().index('"b"')


def test_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path):
    path = io.write_text(tmp_path / "r.txt", "old")
    with pytest.raises(RuntimeError):
        with io.atomic_path(path) as tmp:
            tmp.write_text("half")
            raise RuntimeError("crash mid-write")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]


def test_csv_and_npz_round_trip(tmp_path):
    frame = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    pd.testing.assert_frame_equal(pd.read_csv(io.write_csv(tmp_path / "f.csv", frame)), frame)
    with np.load(io.write_npz(tmp_path / "f.npz", x=np.eye(2))) as data:
        np.testing.assert_array_equal(data["x"], np.eye(2))


def test_relative_paths_resolve_from_the_repo_root(tmp_path):
    assert paths.resolve("data/rlbench") == paths.ROOT / "data" / "rlbench"
    assert paths.resolve(tmp_path) == tmp_path


def test_progress_bars_switch_off_with_the_environment(monkeypatch):
    from robotask import progress

    monkeypatch.setenv("ROBOTASK_PROGRESS", "0")
    assert progress.tqdm(range(3)).disable
    monkeypatch.setenv("ROBOTASK_PROGRESS", "1")
    bar = progress.tqdm(range(3))
    assert not bar.disable
    bar.close()





def test_chapter_benchmark_reads_what_a_chapter_saved(tmp_path):
    from robotask.book import provenance

    assert provenance.chapter_benchmark(tmp_path / "absent.json") is None
    (tmp_path / "none.json").write_text('{"benchmark": null}')
    assert provenance.chapter_benchmark(tmp_path / "none.json") is None
    (tmp_path / "t.json").write_text('{"benchmark": {"study_s": 1.5, "identical": true}}')
    assert provenance.chapter_benchmark(tmp_path / "t.json") == {"study_s": 1.5, "identical": True}


def test_the_reproduction_page_lists_every_package_the_study_uses_and_each_library_revision():
    from robotask.book import provenance

    names = provenance.study_packages()
    assert {"robotask", "numpy", "torch", "dask", "distributed", "wordllama", "bm25s", "jupyter-book"} <= set(names)
    assert len(names) == len(set(names)) and "test_episode_tasks" not in names  # no test module, no repeats
    versions = provenance.package_versions(("numpy", "no-such-package-here"))
    assert versions["version"].tolist()[1] == "not installed"
    libraries = provenance.library_revisions()
    assert {"rlbench", "calvin", "libero", "robocasa", "robotwin"} <= set(libraries["library"])
    assert (libraries["revision"].str.fullmatch(r"[0-9a-f]{12}(, [0-9a-f]{12})*")).all()


def test_npz_of_a_matrix_given_in_blocks_of_rows_is_the_npz_of_the_array(tmp_path):
    """A value with shape, dtype and ``blocks(rows)`` is written a block at a time in ``np.save``'s bytes."""
    a = np.arange(5 * 7, dtype=np.float32).reshape(5, 7) / 3

    class Blocks:
        shape, dtype = a.shape, a.dtype

        def blocks(self, rows):
            for start in range(0, len(a), 2):
                yield slice(start, start + 2), a[start:start + 2]

    io.write_npz(tmp_path / "a.npz", x=a, n=np.arange(3))
    io.write_npz(tmp_path / "b.npz", x=Blocks(), n=np.arange(3))
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()
