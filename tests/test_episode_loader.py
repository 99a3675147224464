"""Loader for the real format (spec §1): round trips with the generator, §1.5/§1.8 rules, bad input."""

from __future__ import annotations

import json
import shutil

import h5py
import numpy as np
import pytest
from test_episode_media import audio_info, count_video_frames  # what a written file holds

from robotask.episode.files import captions, loader, media, poses
from robotask.episode.files import format as fmt
from robotask.episode.synthesis import generate as synth
from robotask.episode.synthesis.script import build_script
from robotask.errors import RobotaskError

N, RES, SEED = 200, 32, 4


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A 200-frame, 32-px synthetic episode shared by the module (never modified)."""
    return synth.generate_episode(tmp_path_factory.mktemp("loader") / "ep", frames=N, seed=SEED, resolution=RES)


@pytest.fixture
def broken(tiny, tmp_path):
    """A fresh copy of the tiny episode to damage."""
    dst = tmp_path / "ep"
    shutil.copytree(tiny, dst)
    return dst


def _edit(ep, fn):
    with h5py.File(ep / fmt.ANNOTATION, "r+") as f:
        fn(f)


# ---------------------------------------------------------------- round trips
def test_round_trip_labels_match_the_script(tiny):
    ep = loader.load_episode(tiny)
    assert ep.is_synthetic and ep.n_frames == N and len(ep.frame_names) == N
    assert ep.fps == pytest.approx(20.0)
    script = build_script(N, np.random.default_rng(SEED), "repeating")
    want_action = [""] * N
    want_theme = [""] * N
    for a in script:
        want_action[a.start:a.end + 1] = [a.label] * (a.end - a.start + 1)
        want_theme[a.start:a.end + 1] = [a.subtask] * (a.end - a.start + 1)
    assert ep.captions.action_label == want_action
    assert ep.captions.theme == want_theme
    assert all(ep.captions.objects[i] for i in range(N))  # every frame inside a segment gets objects
    assert ep.captions.segments[0][0] == 0 and ep.captions.segments[-1][1] == N - 1
    assert list(ep.captions.task_to_id.values()) == list(range(1, len(ep.captions.task_to_id) + 1))


def test_round_trip_media_counts(tiny):
    ep = loader.load_episode(tiny)
    for stream in fmt.VIDEO_STREAMS:
        p = ep.video_path(stream)
        assert count_video_frames(p) == N and media.video_fps(p) == 20.0
    x, sr = media.read_audio(ep.audio_path)
    assert N / 20 * sr <= len(x) <= N / 20 * sr + 1024
    assert audio_info(ep.audio_path)["codec"] == "aac"


def test_round_trip_arrays(tiny):
    ep = loader.load_episode(tiny)
    with h5py.File(tiny / fmt.ANNOTATION) as f:
        np.testing.assert_array_equal(ep.left_joints, f[fmt.LEFT_JOINTS][()])
        np.testing.assert_array_equal(ep.contacts, f[fmt.BODY_CONTACTS][()])
        np.testing.assert_array_equal(ep.imu.keyframe_indices, np.arange(N) * 10)
        depth = f[fmt.DEPTH][()]
        conf = f[fmt.DEPTH_CONF][()]
    chunks = list(ep.iter_depth(chunk=64))
    assert [c[0] for c in chunks] == [0, 64, 128, 192]
    np.testing.assert_array_equal(np.concatenate([c[1] for c in chunks]), depth)
    np.testing.assert_array_equal(np.concatenate([c[2] for c in chunks]), conf)
    _, up, upc = next(ep.iter_depth(chunk=2, upsample=True))
    assert up.shape == (2, RES, RES) and np.array_equal(up[0, ::2, ::2], depth[0])
    assert ep.depth_range == (0.0, 4.0) and ep.depth_scale == 0.5
    assert ep.depth_frame(N) == (None, None)
    assert ep.imu.frame_range(0, 20) == (0, 191)
    assert ep.point_cloud.shape[0] < ep.raw_point_cloud_size
    assert ep.timestamps_ns[0] == fmt.T0_NS
    assert ep.invalid_mocap() == {"body_keypoints": 0, "left_joints": 0, "right_joints": 0}


# ---------------------------------------------------------------- spec rules on hand-made inputs
def test_camera_poses_follow_spec_1_8():
    # world→body: rotate 90° about z and translate; camera←body: translate by (0, 0, 1)
    q = np.array([[np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)]])
    t = np.array([[1.0, 2.0, 3.0]])
    T_c0_b = np.eye(4)
    T_c0_b[2, 3] = 1.0
    R, tc = poses.camera_poses(q, t, T_c0_b)
    R_w2b = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])
    np.testing.assert_allclose(R[0], R_w2b.T, atol=1e-12)
    # world→camera translation = (1, 2, 4); camera centre = -R_c2w · t_w2c
    np.testing.assert_allclose(tc[0], -R_w2b.T @ np.array([1, 2, 4.0]), atol=1e-12)
    R0, t0 = poses.camera_poses(q, t, None)
    np.testing.assert_allclose(t0[0], -R_w2b.T @ np.array([1, 2, 3.0]), atol=1e-12)


def test_point_cloud_filter_95th_percentile():
    pts = np.zeros((100, 3))
    pts[:, 0] = np.arange(100)  # median 49.5; distances |i - 49.5|
    kept = poses.filter_point_cloud(pts)
    d = np.abs(np.arange(100) - 49.5)
    assert len(kept) == int((d <= np.percentile(d, 95)).sum())
    assert poses.filter_point_cloud(np.zeros((0, 3))).shape == (0, 3)


def test_caption_resolution_hand_computed():
    names = [f"{(i + 1) * 100}.jpg" for i in range(10)]
    doc = {"config": {"Main Task": "T"}, "segments": [
        {"segment_id": 0, "start_frame": 0, "end_frame": "500.jpg", "Sub Task": "A",
         "Current Action": [{"label": "a1", "description": "d1", "start_frame": "100.jpg", "end_frame": "200.jpg"},
                            {"label": "a2", "description": "d2", "start_frame": "401", "end_frame": "500"}],
         "objects": {"100.jpg": ["cup"], "300.jpg": ["jar", "lid"]}, "interaction": {"100.jpg": "hi"}},
        {"segment_id": 1, "start_frame": "600.jpg", "end_frame": "1000", "Sub Task": "B",
         "Current Action": [{"label": "b1", "description": "e1", "start_frame": "700.jpg", "end_frame": "800.jpg"}],
         "objects": {}, "interaction": {}},
    ]}
    c = captions.resolve_captions(doc, names)
    assert c.action_label == ["a1", "a1", "a1", "a2", "a2", "b1", "b1", "b1", "b1", "b1"]
    assert c.action_desc[2] == "d1" and c.action_desc[9] == "e1"
    assert c.theme == ["A"] * 5 + ["B"] * 5
    assert c.objects[:6] == [["cup"], ["cup"], ["jar", "lid"], ["jar", "lid"], ["jar", "lid"], []]
    assert c.interaction[:6] == ["hi"] * 5 + [""]  # not forward-filled across segments
    assert c.segments == [(0, 4, "A", 0), (5, 9, "B", 1)]
    assert c.task_to_id == {"A": 1, "B": 2} and c.main_task == "T"


def test_caption_gaps_forward_fill_labels_but_not_objects():
    names = [f"f{i}.jpg" for i in range(6)]
    doc = {"segments": [{"start_frame": "f0.jpg", "end_frame": "f2.jpg", "Sub Task": "A",
                         "Current Action": [{"label": "x", "start_frame": "f0.jpg", "end_frame": "f2.jpg"}],
                         "objects": {"f1.jpg": "bowl"}}]}
    c = captions.resolve_captions(doc, names)
    assert c.action_label == ["x"] * 6 and c.theme == ["A"] * 6
    assert c.objects == [[], ["bowl"], ["bowl"], [], [], []]


# ---------------------------------------------------------------- bad input
def test_missing_folder_and_annotation(tmp_path):
    with pytest.raises(RobotaskError, match="episode folder not found"):
        loader.load_episode(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(RobotaskError, match="annotation.hdf5"):
        loader.load_episode(tmp_path / "empty")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / fmt.ANNOTATION).write_text("not hdf5")
    with pytest.raises(RobotaskError, match="not a readable HDF5"):
        loader.load_episode(tmp_path / "bad")


def test_missing_calibration_group(broken):
    _edit(broken, lambda f: f.__delitem__(fmt.CALIBRATION))
    with pytest.raises(RobotaskError, match="missing group 'calibration'"):
        loader.load_episode(broken)


def test_empty_calibration_group_is_accepted(broken):
    def empty(f):
        del f[fmt.CALIBRATION]
        f.create_group(fmt.CALIBRATION)
    _edit(broken, empty)
    ep = loader.load_episode(broken)
    assert ep.calibration == {} and ep.R_c2w.shape == (N, 3, 3)


@pytest.mark.parametrize("key", [fmt.LEFT_JOINTS, fmt.BODY_KEYPOINTS, fmt.BODY_CONTACTS, fmt.SLAM_TRANS])
def test_frame_count_disagreement(broken, key):
    def cut(f):
        data = f[key][()]
        del f[key]
        f.create_dataset(key, data=data[:-3])
    _edit(broken, cut)
    with pytest.raises(RobotaskError, match=f"{key} has {N - 3} frames"):
        loader.load_episode(broken)


def test_short_depth_and_keyframes_warn(broken):
    def cut(f):
        for key in (fmt.DEPTH, fmt.IMU_KEYFRAMES):
            data = f[key][()]
            del f[key]
            f.create_dataset(key, data=data[:-10])
    _edit(broken, cut)
    with pytest.warns(UserWarning) as rec:
        ep = loader.load_episode(broken)
    text = " ".join(str(w.message) for w in rec)
    assert "depth/depth has 190 frames" in text and "keyframe_indices has 190" in text
    assert ep.depth_frame(195) == (None, None)
    assert sum(c[1].shape[0] for c in ep.iter_depth()) == 190


def test_partial_slam_and_numeric_names(broken):
    _edit(broken, lambda f: f.__delitem__(fmt.SLAM_QUAT))
    with pytest.raises(RobotaskError, match="slam/quat_wxyz missing"):
        loader.load_episode(broken)


def test_numeric_frame_names_rejected(broken):
    def numeric(f):
        del f[fmt.SLAM_NAMES]
        f.create_dataset(fmt.SLAM_NAMES, data=np.arange(N))
    _edit(broken, numeric)
    with pytest.raises(RobotaskError, match="holds numbers"):
        loader.load_episode(broken)


def test_no_slam_infers_frames_from_hands(broken):
    def drop(f):
        for key in (fmt.SLAM_QUAT, fmt.SLAM_TRANS, fmt.SLAM_NAMES, "caption"):
            del f[key]
    _edit(broken, drop)
    ep = loader.load_episode(broken)
    assert ep.n_frames == N and ep.frame_names[0] == "frame_000000.jpg"
    assert np.array_equal(ep.R_c2w[5], np.eye(3)) and ep.captions is None


def test_missing_and_truncated_mp4(broken):
    (broken / "stereo_right.mp4").unlink()
    data = (broken / "fisheye_cam1.mp4").read_bytes()
    (broken / "fisheye_cam1.mp4").write_bytes(data[: len(data) // 2])
    ep = loader.load_episode(broken)
    with pytest.warns(UserWarning, match="video missing"):
        assert ep.video_path("stereo_right") is None
    with pytest.warns(UserWarning, match=r"decoded \d+ of \d+ frames"):
        frames = list(media.iter_video_frames(ep.video_path("fisheye_cam1"), 8, N, fill="zeros"))
    assert len(frames) == N and not frames[-1].any()


def test_video_without_audio_stream(broken):
    (broken / "fisheye_cam0.mp4").unlink()
    shutil.copy(broken / "fisheye_cam1.mp4", broken / "fisheye_cam0.mp4")  # same video, no AAC track
    ep = loader.load_episode(broken)
    with pytest.warns(UserWarning, match="no audio stream"):
        assert media.read_audio(ep.audio_path) is None


def test_malformed_caption_json(broken):
    def bad(f):
        del f["caption"]
        f.create_dataset("caption", data='{"segments": [', dtype=h5py.string_dtype("utf-8"))
    _edit(broken, bad)
    with pytest.raises(RobotaskError, match="caption: malformed caption JSON"):
        loader.load_episode(broken)


def test_caption_as_json_file_and_captions_key(broken):
    with h5py.File(broken / fmt.ANNOTATION, "r+") as f:
        text = f["caption"][()].decode()
        del f["caption"]
        f.create_dataset("captions", data="caption.json", dtype=h5py.string_dtype("utf-8"))
    (broken / "caption.json").write_text(text)
    ep = loader.load_episode(broken)
    assert ep.captions is not None and ep.captions.action_label[0]
    (broken / "caption.json").unlink()
    with pytest.raises(RobotaskError, match="neither JSON nor the path"):
        loader.load_episode(broken)


def test_unresolvable_frame_references(broken):
    with h5py.File(broken / fmt.ANNOTATION, "r+") as f:
        doc = json.loads(f["caption"][()])
        doc["segments"][0]["Current Action"][0]["start_frame"] = "frame_missing"
        doc["segments"][0]["objects"]["not_a_frame"] = ["cup"]
        del f["caption"]
        f.create_dataset("caption", data=json.dumps(doc), dtype=h5py.string_dtype("utf-8"))
    with pytest.warns(UserWarning, match="matches no slam/frame_names") as rec:
        ep = loader.load_episode(broken)
    text = " ".join(str(w.message) for w in rec)
    assert "'frame_missing'" in text and "'not_a_frame'" in text
    assert ep.captions is not None
    with pytest.raises(RobotaskError, match="frame_missing"):
        loader.load_episode(broken, strict=True)


def test_nan_and_zero_mocap_frames_are_reported(broken):
    def damage(f):
        body = f[fmt.BODY_KEYPOINTS][()]
        body[3] = np.nan
        body[7] = 0.0
        f[fmt.BODY_KEYPOINTS][...] = body
        left = f[fmt.LEFT_JOINTS][()]
        left[10] = 0.0  # no left hand: normal, not warned
        f[fmt.LEFT_JOINTS][...] = left
    _edit(broken, damage)
    with pytest.warns(UserWarning, match="invalid mocap frames"):
        ep = loader.load_episode(broken)
    assert np.flatnonzero(~ep.body_valid).tolist() == [3, 7]
    assert np.flatnonzero(~ep.left_hand_valid).tolist() == [10]
    assert ep.invalid_mocap()["body_keypoints"] == 2


def test_leading_axis_of_one_is_squeezed(broken):
    def wrap(f):
        for key in (fmt.BODY_KEYPOINTS, fmt.BODY_CONTACTS):
            data = f[key][()]
            del f[key]
            f.create_dataset(key, data=data[None])
    _edit(broken, wrap)
    ep = loader.load_episode(broken)
    assert ep.body_keypoints.shape == (N, 52, 3) and ep.contacts.shape == (N, 21)
