"""The window set of a tiny synthetic episode (200 frames, 32 px): layout, caches, artifacts, fallbacks."""

from __future__ import annotations

import json
import shutil
import warnings

import numpy as np
import pandas as pd
import pytest
from test_episode_windows import temporal_stats  # the one-window oracle

from robotask.episode.features import layout, perframe, windowset
from robotask.episode.features import windows as W
from robotask.episode.synthesis import generate as synth


@pytest.fixture(scope="module")
def cache_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ROBOTASK_CACHE", str(root))
        yield root


@pytest.fixture(scope="module")
def episode_dir(cache_root):
    return synth.ensure_episode(200, 0, 32, "repeating")


@pytest.fixture(scope="module")
def window_set(episode_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a complete episode builds without any fallback warning
        return windowset.load_window_set(episode_dir)


def _block(ws, name):
    b = next(b for b in ws.manifest if b["name"] == name)
    return ws.X[:, b["start"]:b["end"]]


def test_window_set_layout(window_set):
    ws = window_set
    assert ws.X.shape == (37, 8546) and ws.X.dtype == np.float32 and np.isfinite(ws.X).all()
    assert ws.windows["start_frame"].tolist() == list(range(0, 181, 5))
    assert len(ws.frame_action) == 200 == len(ws.frame_objects)
    assert all(ws.modalities["block_present"].values())
    for name in ("slam_point_cloud", "calibration"):  # static blocks: identical rows
        blk = _block(ws, name)
        assert np.all(blk == blk[0]) and np.any(blk[0] != 0)
    assert np.any(_block(ws, "video_stereo_left").std(axis=0) > 0)
    assert np.any(_block(ws, "audio_fisheye_cam0_aac").std(axis=0) > 0)


def test_window_labels_follow_frame_labels(window_set):
    ws = window_set
    row = ws.windows.iloc[7]
    expected = W.majority_label(ws.frame_action[row.start_frame:row.end_frame + 1])
    assert (row.action_label, row.action_fraction) == expected


def test_blocks_equal_stats_of_per_frame_features(window_set, episode_dir):
    ws = window_set
    depth, _ = perframe.depth_features(ws.episode)
    w = 4
    blk = _block(ws, "depth_confidence")[w]
    assert np.allclose(blk, temporal_stats(depth[20:40]).astype(np.float32), atol=1e-6)
    t = np.asarray(ws.episode.t_c2w)
    cam = _block(ws, "camera_translation")[w]
    assert np.allclose(cam, temporal_stats(t[20:40] - t[20]), atol=1e-6)


def test_second_build_reuses_the_caches(window_set, episode_dir, monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("a per-frame extractor ran although its cache exists")

    for name in ("video_frame_features", "depth_frame_features", "audio_frame_features"):
        monkeypatch.setattr(perframe, name, boom)
    again = windowset.load_window_set(episode_dir)
    assert np.array_equal(again.X, window_set.X)


def test_write_artifacts(window_set, tmp_path):
    paths = windowset.write_artifacts(window_set, tmp_path)
    table = pd.read_csv(paths["windows"], keep_default_na=False)
    assert list(table.columns) == list(window_set.windows.columns) and len(table) == 37
    manifest = json.loads(paths["manifest"].read_text())
    assert manifest[-1] == {"name": "calibration", "start": 8429, "end": 8546, "dim": 117}
    with np.load(paths["shared"]) as z:
        assert z["X"].shape == (37, 8546) and z["ends"][0] == 19 and z["starts"][-1] == 180
    mods = json.loads(paths["modalities"].read_text())
    assert mods["depth"]["shape"] == [200, 140] and mods["audio"]["has_audio"] is True
    assert mods["calibration_static"] == [117]


def test_world_hand_frame_changes_only_hand_blocks(window_set, episode_dir):
    world = windowset.load_window_set(episode_dir, layout.FeatureOptions(hand_frame="world"))
    hand = W.block_columns(window_set.manifest, include=["hand_"])
    other = W.block_columns(window_set.manifest, exclude=["hand_"])
    assert not np.allclose(world.X[:, hand], window_set.X[:, hand])
    assert np.array_equal(world.X[:, other], window_set.X[:, other])


def test_missing_video_gives_zeros_and_a_flag(episode_dir, tmp_path):
    copy = tmp_path / "ep"
    shutil.copytree(episode_dir, copy)
    (copy / "stereo_right.mp4").unlink()
    with pytest.warns(UserWarning, match="stereo_right"):
        ws = windowset.load_window_set(copy)
    assert np.all(_block(ws, "video_stereo_right") == 0)
    assert ws.modalities["block_present"]["video_stereo_right"] is False
    assert ws.X.shape == (37, 8546)


def test_truncated_and_corrupt_media_fall_back(episode_dir, tmp_path):
    copy = tmp_path / "ep"
    shutil.copytree(episode_dir, copy)
    (copy / "fisheye_cam1.mp4").write_bytes(b"\x00" * 100)  # unreadable
    data = (copy / "fisheye_cam2.mp4").read_bytes()
    (copy / "fisheye_cam2.mp4").write_bytes(data[: len(data) // 2])  # truncated
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ws = windowset.load_window_set(copy, cache=False)
    assert any("fisheye_cam1" in str(w.message) for w in caught)
    assert np.all(_block(ws, "video_fisheye_cam1") == 0)
    assert ws.modalities["block_present"]["video_fisheye_cam1"] is False
    assert ws.modalities["block_status"]["video_fisheye_cam1"] == "missing"
    assert ws.modalities["block_status"]["video_fisheye_cam2"] == "degraded"
    assert ws.modalities["block_present"]["video_fisheye_cam2"] is False
    with pytest.warns(UserWarning, match=r"fisheye_cam2\.mp4: decoded \d+ of 200 frames \(\d+ %\).*stream degraded"):
        per_frame, meta = perframe.video_features(ws.episode, "fisheye_cam2", cache=False)
    assert 0 < meta["decoded_frames"] < 200 and meta["expected_frames"] == 200
    assert np.array_equal(per_frame[-1], per_frame[meta["decoded_frames"] - 1])  # last vector repeated


def test_missing_captions_give_zero_text_and_empty_labels(episode_dir, tmp_path):
    import h5py

    copy = tmp_path / "ep"
    shutil.copytree(episode_dir, copy)
    with h5py.File(copy / "annotation.hdf5", "a") as f:
        for key in ("caption", "captions"):
            if key in f:
                del f[key]
    with pytest.warns(UserWarning, match="captions"):
        ws = windowset.load_window_set(copy)
    assert np.all(_block(ws, "caption_objects_interaction_text") == 0)
    assert (ws.windows["action_label"] == "").all() and ws.X.shape == (37, 8546)
    assert ws.modalities["block_present"]["caption_objects_interaction_text"] is False


def test_window_cache_gives_the_computed_features_and_repeats_warnings(episode_dir, tmp_path):
    import h5py

    copy = tmp_path / "ep"
    shutil.copytree(episode_dir, copy)
    with h5py.File(copy / "annotation.hdf5", "a") as f:  # no IMU: the motion block warns and is zeros
        for key in [k for k in f if k.lower().startswith("imu")]:
            del f[key]
    fresh = windowset.load_window_set(copy, cache=False)
    entries = set(windowset.WINDOW_CACHE.root.glob("windows-*.npz"))
    for _ in range(2):  # the first load writes the entry, the second reads it
        with pytest.warns(UserWarning, match="imu"):
            ws = windowset.load_window_set(copy)
        assert np.array_equal(ws.X, fresh.X) and ws.modalities == fresh.modalities
    assert len(set(windowset.WINDOW_CACHE.root.glob("windows-*.npz")) - entries) == 1
    (copy / "stereo_left.mp4").write_bytes((copy / "stereo_right.mp4").read_bytes())  # other content
    with pytest.warns(UserWarning, match="imu"):
        changed = windowset.load_window_set(copy)
    assert len(set(windowset.WINDOW_CACHE.root.glob("windows-*.npz")) - entries) == 2
    assert not np.array_equal(_block(changed, "video_stereo_left"), _block(fresh, "video_stereo_left"))
