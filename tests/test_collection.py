"""Episode collections: deterministic synthesis per (seed, index), validation, and features on Dask."""

from __future__ import annotations

import filecmp
import shutil

import h5py
import pandas as pd
import pytest

from robotask.episode.features.distributed import close_client, extract_collection, open_client
from robotask.episode.files import format as fmt
from robotask.episode.files.manifest import load_collection
from robotask.episode.synthesis.varied import generate_collection_episode, synth_collection

FRAMES, RES, SEED = 160, 16, 3


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A 3-episode collection, one planted corrupt episode, a private cache and a 2-process cluster."""
    root = tmp_path_factory.mktemp("collection")
    synth_collection(root / "good", 3, FRAMES, RES, SEED, workers=2)
    shutil.copytree(root / "good", root / "mixed")
    manifest = pd.read_csv(root / "mixed" / "manifest.csv")
    bad = root / "mixed" / "broken"
    shutil.copytree(root / "good" / "ep0000", bad)
    with h5py.File(bad / fmt.ANNOTATION, "r+") as f:  # passes the up-front checks, fails while loading
        trans = f[fmt.SLAM_TRANS][:-7]
        del f[fmt.SLAM_TRANS]
        f.create_dataset(fmt.SLAM_TRANS, data=trans)
    manifest = pd.concat([manifest, manifest.iloc[[0]].assign(episode_id="broken", path="broken")])
    manifest = pd.concat([manifest, manifest.iloc[[0]].assign(episode_id="missing", path="nowhere")])
    manifest.to_csv(root / "mixed" / "manifest.csv", index=False)
    mp = pytest.MonkeyPatch()
    mp.setenv("ROBOTASK_CACHE", str(root / "cache"))
    mp.setenv("ROBOTASK_PROGRESS", "0")
    client = open_client(workers=2)
    yield root, client
    close_client(client)
    mp.undo()


def test_episode_alone_equals_episode_in_collection(tiny, tmp_path):
    root, _ = tiny
    generate_collection_episode(tmp_path / "ep1", SEED, 1, FRAMES, RES, threads=1)
    names = sorted(p.name for p in (root / "good" / "ep0001").iterdir())
    match, mismatch, errors = filecmp.cmpfiles(root / "good" / "ep0001", tmp_path / "ep1", names, shallow=False)
    assert not mismatch and not errors and len(match) == 7


def test_episodes_differ_in_their_factors(tiny):
    root, _ = tiny
    manifest = pd.read_csv(root / "good" / "manifest.csv")
    assert manifest["episode_id"].is_unique and manifest["light"].nunique() == 3
    assert manifest["subtasks"].nunique() > 1  # each episode uses its own subset of the vocabulary


def test_validation_reports_each_unusable_episode(tiny):
    root, _ = tiny
    c = load_collection(root / "mixed")
    assert c.ids == ["ep0000", "ep0001", "ep0002", "broken"]  # its flaw shows only when loaded
    assert c.problems["episode_id"].tolist() == ["missing"]
    assert "not found" in c.problems["reason"].iloc[0]


def test_features_on_two_processes_isolate_failures_and_resume(tiny, tmp_path):
    root, client = tiny
    c = load_collection(root / "mixed")
    run = extract_collection(c, tmp_path / "out", client=client, progress=False)
    status = dict(zip(run.episodes["episode_id"], run.episodes["status"]))
    assert status == {"ep0000": "computed", "ep0001": "computed", "ep0002": "computed", "broken": "failed"}
    assert set(run.failures["episode_id"]) == {"broken", "missing"}
    assert len(set(run.episodes.loc[run.episodes["status"] == "computed", "worker"])) >= 1
    assert (tmp_path / "out" / "ep0002" / "shared_windows.npz").is_file()
    assert pd.read_csv(tmp_path / "out" / "failures.csv")["stage"].tolist() == ["validate", "features"]
    again = extract_collection(c.subset(["ep0000", "ep0001", "ep0002"]), tmp_path / "again", client=client,
                               progress=False)
    assert again.computed == 0 and again.ok and again.workers == 0  # nothing submitted


def test_cli_collection_exit_code(tiny, tmp_path):
    from robotask.cli import main

    root, _ = tiny
    assert main(["features", "--collection", str(root / "good"), "--out", str(tmp_path / "a"), "--workers", "1"]) == 0
    assert main(["features", "--collection", str(root / "mixed"), "--out", str(tmp_path / "b"), "--workers", "1"]) == 1


def test_suite_group_kfold_writes_every_fold_and_their_mean(tiny, tmp_path):
    from robotask.cli import main

    root, _ = tiny
    assert main(["features", "--collection", str(root / "good"), "--out", str(tmp_path / "f"), "--workers", "1"]) == 0
    assert main(["suite", "--collection", str(root / "good"), "--features", str(tmp_path / "f"), "--split",
                 "group-kfold", "--folds", "3", "--tasks", "timeline_action", "--heads", "minimal",
                 "--epochs", "2", "--no-models", "--out", str(tmp_path / "s")]) == 0
    folds = pd.read_csv(tmp_path / "s" / "folds.csv")
    assert sorted(folds["fold"].unique()) == ["fold0", "fold1", "fold2"]
    assert set(folds["head"]) == {"baseline", "minimal"}
    summary = pd.read_csv(tmp_path / "s" / "folds_summary.csv")
    assert list(summary.columns) == ["task", "metric", "head", "mean", "sd", "folds"]
