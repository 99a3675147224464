"""Per-frame extractors and static blocks of robotask.episode.features.cli on hand-made arrays (spec §3)."""

from __future__ import annotations

import numpy as np
import pytest
from test_episode_windows import temporal_stats  # the one-window oracle

from robotask.episode.features import extractors, hashtext, layout, perframe, windowset
from robotask.episode.features import windows as W
from robotask.errors import RobotaskError


def gray_from_rgb(frames: np.ndarray) -> np.ndarray:
    """8-bit gray of RGB uint8 frames with OpenCV's fixed-point luma (0.299 R + 0.587 G + 0.114 B): the
    oracle of ``extractors.gray_levels``."""
    f = np.asarray(frames, dtype=np.int32)
    r, g, b = extractors.GRAY_WEIGHTS_Q14
    return ((f[..., 0] * r + f[..., 1] * g + f[..., 2] * b + (1 << 13)) >> 14).astype(np.uint8)


def test_manifest_has_18_blocks_and_8546_dims():
    m = layout.make_manifest()
    assert len(m) == 18 and m[-1]["end"] == 8546
    assert [b["name"] for b in m[:3]] == ["hand_left_joints", "hand_right_joints", "body_joints"]
    offsets = {b["name"]: (b["start"], b["end"]) for b in m}
    assert offsets["depth_confidence"] == (2247, 3227)
    assert offsets["audio_fisheye_cam0_aac"] == (7343, 7511)
    assert offsets["caption_objects_interaction_text"] == (7511, 8407)
    assert offsets["calibration"] == (8429, 8546)
    assert all(b["end"] - b["start"] == b["dim"] for b in m)


def test_area_resize_integer_factor_is_block_mean():
    rng = np.random.default_rng(0)
    img = rng.random((2, 32, 32))
    out = extractors.area_resize(img, 8, 8)
    assert np.allclose(out[1, 2, 3], img[1, 8:12, 12:16].mean())


def test_area_resize_fractional_factor_by_hand():
    row = np.arange(6, dtype=float)[None, :].repeat(3, axis=0)  # 3×6 -> 1×4, cells 1.5 px wide
    out = extractors.area_resize(row, 1, 4)
    assert np.allclose(out[0], [(0 + 0.5 * 1) / 1.5, (0.5 * 1 + 2) / 1.5, (3 + 0.5 * 4) / 1.5, (0.5 * 4 + 5) / 1.5])
    rng = np.random.default_rng(1)
    img = rng.random((7, 11))
    assert np.isclose(extractors.area_resize(img, 3, 4).mean(), img.mean())  # area averaging preserves the mean


@pytest.mark.parametrize("shape", [(40, 32, 32), (5, 64, 48), (3, 30, 32), (1, 8, 8)])
def test_gray_block_means_are_the_bits_of_area_resize(shape):
    rng = np.random.default_rng(sum(shape))
    gray = rng.integers(0, 256, shape).astype(np.float32) / np.float32(255.0)
    gray[0] = 1.0  # brightest blocks: the largest sums
    got = extractors.gray_block_means(gray, 8)
    assert got.shape == (shape[0], 8, 8)
    assert np.ascontiguousarray(got).tobytes() == extractors.area_resize(gray, 8, 8).tobytes()


def test_edge_statistics_are_the_bits_of_numpy_mean_and_std():
    frames = np.random.default_rng(9).integers(0, 256, (50, 32, 32, 3), dtype=np.uint8)
    gray = gray_from_rgb(frames).astype(np.float32) / np.float32(255.0)
    gy, gx = np.gradient(gray, axis=(1, 2))
    ax, ay = np.abs(gx).reshape(50, -1), np.abs(gy).reshape(50, -1)
    want = np.stack([ax.mean(1), ay.mean(1), ax.std(1), ay.std(1)], axis=1).astype(np.float32)
    assert extractors.video_frame_features(frames)[:, -4:].tobytes() == want.tobytes()


def test_gray_levels_are_the_bits_of_fixed_point_gray_over_every_colour():
    values = np.arange(256, dtype=np.uint8)
    every = np.stack(np.meshgrid(values, values, values, indexing="ij"), axis=-1).reshape(256, 256 * 256, 3)
    want = gray_from_rgb(every).astype(np.float32) / np.float32(255.0)
    got = extractors.gray_levels(every)
    assert got.dtype == np.float32 and got.tobytes() == want.tobytes()


def test_gray_matches_opencv_fixed_point_luma():
    rgb = np.array([[[255, 0, 128], [10, 20, 30], [7, 7, 7]]], dtype=np.uint8)
    gray = gray_from_rgb(rgb)
    # (255·4899 + 128·1868 + 8192) >> 14 = 1496541 >> 14 = 91; equal channels give the same value
    assert gray[0, 0] == 91 and gray[0, 2] == 7
    assert abs(int(gray[0, 1]) - round(0.299 * 10 + 0.587 * 20 + 0.114 * 30)) <= 1


def test_video_features_of_a_constant_colour_frame():
    frames = np.zeros((2, 32, 32, 3), np.uint8)
    frames[..., 0], frames[..., 2] = 255, 128
    v = extractors.video_frame_features(frames)
    assert v.shape == (2, 98) and v.dtype == np.float32
    assert np.allclose(v[0, :3], [1.0, 0.0, 128 / 255]) and np.allclose(v[0, 3:6], 0)
    hist = v[0, 6:30].reshape(3, 8)
    assert hist[0, 7] == 1 and hist[1, 0] == 1 and hist[2, 4] == 1 and hist.sum() == 3  # 128/255 in [.5, .625)
    assert np.allclose(v[0, 30:94], 91 / 255) and np.allclose(v[0, 94:], 0)


def test_video_histogram_and_edges_match_numpy():
    rng = np.random.default_rng(2)
    frames = rng.integers(0, 256, (3, 32, 32, 3), dtype=np.uint8)
    v = extractors.video_frame_features(frames)
    rgb = frames[1].astype(np.float32) / 255
    for ch in range(3):
        ref = np.histogram(rgb[..., ch], bins=8, range=(0, 1))[0] / 1024
        assert np.allclose(v[1, 6 + 8 * ch:14 + 8 * ch], ref)
    ramp = np.repeat(np.repeat((np.arange(32) * 8).astype(np.uint8)[None, :, None], 32, 0), 3, 2)[None]
    e = extractors.video_frame_features(ramp)[0, 94:]
    assert np.allclose(e, [8 / 255, 0, 0, 0], atol=1e-6)  # gx = 8/255 everywhere (one-sided at borders too)


@pytest.mark.parametrize("bins", [4, 8, 10])
def test_channel_statistics_from_exact_sums_match_numpy(bins):
    """Mean and std from the integer histogram agree with numpy's float64 two-pass values to rounding
    (and give exactly 0 for a constant channel); the bins equal a direct count."""
    rng = np.random.default_rng(5)
    frames = rng.integers(0, 256, (6, 16, 16, 3), dtype=np.uint8)
    frames[1] = 200  # constant frame: numpy's two-pass std is rounding noise, the exact one is 0
    frames[2] = np.clip(rng.normal(128, 3, (16, 16, 3)), 0, 255).astype(np.uint8)  # narrow spread
    mean, std, hist = extractors.channel_statistics(frames, bins)
    flat = frames.reshape(6, 256, 3).astype(np.float64) / 255.0
    assert np.allclose(mean, flat.mean(axis=1), rtol=1e-14, atol=0)
    assert np.allclose(std, flat.std(axis=1), rtol=1e-12, atol=1e-14)
    assert np.all(std[1] == 0) and np.all(mean[1] == 200 / 255)
    idx = np.minimum(frames.reshape(6, 256, 3).astype(np.int64) * bins // 255, bins - 1)
    direct = np.stack([(idx == k).sum(axis=1) for k in range(bins)], axis=2) / 256
    assert np.array_equal(hist, direct.reshape(6, 3 * bins))


def test_depth_features_with_invalid_pixels():
    d = np.array([[[0.0, 1.0, 2.0, np.nan], [3.0, 4.0, -1.0, 5.0], [6.0, np.inf, 7.0, 8.0], [0.0, 0.0, 0.0, 9.0]]],
                 dtype=np.float32)
    conf = np.full((1, 4, 4), 255, np.uint8)
    conf[0, 0, 0] = 0
    f = extractors.depth_frame_features(d, conf, 0.0, 10.0, grid=2)
    assert f.shape == (1, 8 + 4 + 4 + 4)
    valid = np.arange(1.0, 10.0)
    assert np.allclose(f[0, :8], [valid.mean(), valid.std(), 1, 9, *np.percentile(valid, [10, 50, 90]), 9 / 16],
                       rtol=1e-6)
    # grid: NaN → 0, inf clipped to 1, −1 clipped to 0; top-left 2×2 block (0, 1, 3, 4)/10
    assert np.isclose(f[0, 8], (0 + 0.1 + 0.3 + 0.4) / 4)
    assert np.isclose(f[0, 10], (0.6 + 1.0 + 0 + 0) / 4)
    assert np.allclose(f[0, 12:16], [15 / 16, np.std([0] + [1] * 15), 0, 1])
    assert np.isclose(f[0, 16], 0.75)


def test_depth_all_invalid_and_no_confidence_give_zeros():
    d = np.zeros((2, 8, 8), np.float32)
    f = extractors.depth_frame_features(d, None, 0.0, 4.0)
    assert f.shape == (2, 140) and np.all(f == 0)


def test_depth_percentiles_match_numpy_per_frame():
    rng = np.random.default_rng(3)
    d = rng.uniform(0.2, 3.0, (5, 16, 12)).astype(np.float32)
    d[rng.random(d.shape) < 0.3] = 0
    f = extractors.depth_frame_features(d, None, 0.0, 4.0)
    for i in range(5):
        v = d[i][d[i] > 0].astype(np.float64)
        assert np.allclose(f[i, :7], [v.mean(), v.std(), v.min(), v.max(), *np.percentile(v, [10, 50, 90])],
                           rtol=1e-5)


def test_audio_segment_bounds_round_and_clamp():
    start, end = extractors.audio_segment_bounds(4, fps=3.0, sr=10, n_samples=10)
    # round(i/3·10) = 0, 3, 7, 10; frame 3 starts at the end of the audio: empty
    assert start.tolist() == [0, 3, 7, 10] and end.tolist() == [3, 7, 10, 10]


def test_audio_features_of_a_pure_tone():
    sr, fps, n, tone = 16000, 20.0, 10, 1000.0
    t = np.arange(int(sr * n / fps)) / sr
    x = 0.5 * np.sin(2 * np.pi * tone * t)
    a = extractors.audio_frame_features(x, sr, fps, n + 2, bands=16)  # 2 frames past the end → zeros
    assert a.shape == (12, 24)
    assert np.allclose(a[:n, 0], 0.5 / np.sqrt(2), rtol=1e-3)
    assert np.allclose(a[:n, 2], 0.5, rtol=1e-3)
    assert np.allclose(a[:n, 3], 2 * tone / sr, atol=0.01)
    assert np.allclose(a[:n, 5] * 8000, tone, rtol=0.02)  # centroid ≈ tone frequency
    assert np.allclose(a[:n, 7] * 8000, tone, atol=25)  # roll-off near the tone
    assert np.allclose(np.linalg.norm(a[:n, 8:], axis=1), 1.0)
    edges = extractors.audio_band_edges(16)
    band = np.searchsorted(edges, tone, side="right") - 1
    assert np.all(np.argmax(a[:n, 8:], axis=1) == band)
    assert np.all(a[n:] == 0)


def test_audio_silence_has_zero_spectral_features():
    a = extractors.audio_frame_features(np.zeros(1600), 16000, 20.0, 2)
    assert np.all(a == 0)


def test_text_hashing_hand_computed_bucket_and_determinism():
    # BLAKE2b-8("cup") = ac 58 70 03 0e ...: LE uint32 0x037058ac mod 128 = 0x2c = 44; byte 5 = 0x0e, even → −1
    assert hashtext.hash_token("cup") == (44, -1.0)
    v = hashtext.hash_text("Cup, CUP!")
    assert v[44] == -1.0 and np.count_nonzero(v) == 1
    assert np.array_equal(hashtext.hash_text("white cup on table"), hashtext.hash_text("white cup on table"))
    assert np.isclose(np.linalg.norm(hashtext.hash_text("white cup on table")), 1.0)
    assert np.all(hashtext.hash_text("") == 0)


def test_text_frame_features_objects_and_interaction():
    t = hashtext.text_frame_features([["cup", "kettle"], [], "jar"], ["grasp cup", "", ""], dim=128)
    assert np.allclose(t[0], hashtext.hash_text("cup kettle grasp cup"))
    assert np.all(t[1] == 0) and np.allclose(t[2], hashtext.hash_text("jar"))


def test_point_cloud_block():
    cloud = np.array([[0, 0, 0], [1, 2, 3], [2, 4, 6], [np.nan, 0, 0]], dtype=float)
    v = layout.point_cloud_features(cloud)
    p = np.nan_to_num(cloud)
    assert v.shape == (22,) and np.allclose(v[:3], p.mean(0)) and np.allclose(v[12:15], np.percentile(p, 10, 0))
    assert np.isclose(v[21], np.log1p(4)) and np.all(layout.point_cloud_features(None) == 0)


def test_calibration_order_and_filter():
    calib = {"cam01": {"K": np.array([5, 6, 7, 8]), "baseline": 0.1, "name": "stereo"},
             "cam0": {"K": np.array([1, 2, 3, 4]), "D": np.array([-1, -2, -3, -4]), "T_c_b": np.eye(2)},
             "stray": 3.0}
    v = layout.calibration_features(calib)
    assert np.allclose(v, [-1, -2, -3, -4, 1, 2, 3, 4, 1, 0, 0, 1, 5, 6, 7, 8, 0.1])


def test_options_reject_bad_hand_frame():
    with pytest.raises(RobotaskError, match="hand_frame"):
        layout.FeatureOptions(hand_frame="body")


def test_hands_world_frame_option():
    class Ep:
        n_frames = 2
        R_c2w = np.stack([np.eye(3), np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])])
        t_c2w = np.array([[0, 0, 0], [1, 2, 3.0]])
        body_keypoints = np.zeros((2, 52, 3))
        left_joints = np.ones((2, 21, 3))
        right_joints = None

    Ep.body_keypoints[:, 0] = [0.5, 0.5, 0.5]
    with pytest.warns(UserWarning, match="right_joints"):
        cam = windowset.hand_per_frame(Ep, layout.FeatureOptions())
        world = windowset.hand_per_frame(Ep, layout.FeatureOptions(hand_frame="world"))
    assert np.allclose(cam["left"][0][1, :3], [0.5, 0.5, 0.5])  # camera-frame joints − world root
    assert np.allclose(world["left"][0][1, :3], [-1 + 1 - 0.5, 1 + 2 - 0.5, 1 + 3 - 0.5])
    assert cam["right"][1] is False and np.all(cam["right"][0] == 0)


def test_cached_per_frame_reuses_and_keys_on_content(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path / "cache"))
    src = tmp_path / "in.bin"
    src.write_bytes(b"abc")
    calls = []

    def compute():
        calls.append(1)
        return np.full((3, 2), len(calls), np.float32), {"n": len(calls)}

    a, _ = perframe.cached_per_frame("kind", [src], {"n_frames": 3}, compute)
    b, meta = perframe.cached_per_frame("kind", [src], {"n_frames": 3}, compute)
    assert len(calls) == 1 and np.array_equal(a, b) and meta == {"n": 1}
    perframe.cached_per_frame("kind", [src], {"n_frames": 3, "grid": 4}, compute)  # new parameters
    assert len(calls) == 2
    src.write_bytes(b"abd")  # new content, same size
    perframe.cached_per_frame("kind", [src], {"n_frames": 3}, compute)
    assert len(calls) == 3
    assert len(list((tmp_path / "cache" / "features").glob("kind_n3_*.npz"))) == 3


def test_video_features_second_call_does_not_decode(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path / "cache"))
    video = tmp_path / "fisheye_cam0.mp4"
    video.write_bytes(b"not really a video")

    class Ep:
        n_frames = 4

        @staticmethod
        def video_path(stream):
            return video

    calls = []

    def fake_compute(path, stream, n, options):
        calls.append(stream)
        return np.ones((n, layout.video_dim(options)), np.float32), {"exists": True}

    monkeypatch.setattr(perframe, "_video_compute", fake_compute)
    first, _ = perframe.video_features(Ep, "fisheye_cam0")
    second, _ = perframe.video_features(Ep, "fisheye_cam0")
    assert calls == ["fisheye_cam0"] and np.array_equal(first, second)


def test_window_stats_match_temporal_stats():
    rng = np.random.default_rng(4)
    per_frame = rng.normal(size=(50, 2, 3))
    starts = W.window_starts(50, 20, 5)
    ws = W.window_stats(per_frame, starts, 20)
    assert ws.shape == (len(starts), 42)
    assert np.allclose(ws[3], temporal_stats(per_frame[15:35]))
    rel = W.window_stats(per_frame, starts, 20, relative_to_start=True)
    assert np.allclose(rel[3], temporal_stats(per_frame[15:35] - per_frame[15]))


def test_audio_bounds_from_timestamps_equal_fps_when_regular():
    times = np.arange(5) / 20.0
    a = extractors.audio_segment_bounds(5, 20.0, 16000, 10**6)
    b = extractors.audio_segment_bounds(5, 20.0, 16000, 10**6, frame_times=times)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    late = extractors.audio_segment_bounds(2, 20.0, 16000, 10**6, frame_times=np.array([0.0, 0.1]))
    assert late[0].tolist() == [0, 1600] and late[1].tolist() == [1600, 2400]


def test_relative_camera_rotation_starts_at_identity():
    rng = np.random.default_rng(5)
    q, _ = np.linalg.qr(rng.normal(size=(30, 3, 3)))
    rel = windowset.rotation_block(q, np.array([0, 5]), 20, "relative")
    assert rel.shape == (2, 63)
    first = np.einsum("ji,jk->ik", q[5], q[5]).ravel()
    assert np.allclose(first, np.eye(3).ravel())
    # statistic "delta" (block 5 of 7) = last − first = R_5^T R_24 − I
    assert np.allclose(rel[1, 36:45], (q[5].T @ q[24]).ravel() - np.eye(3).ravel())
    assert np.allclose(windowset.rotation_block(q, np.array([0]), 20), W.window_stats(q.reshape(30, 9),
                                                                                      np.array([0]), 20))


def test_audio_features_do_not_depend_on_the_block_of_segments(monkeypatch):
    rng = np.random.default_rng(5)
    audio = rng.normal(scale=0.3, size=64000).astype(np.float32)
    audio[:800] = 0.0  # a silent frame: no spectrum
    times = np.cumsum(rng.uniform(0.04, 0.06, 75))  # segments of several lengths
    whole = extractors.audio_frame_features(audio, 16000, 20.0, 75, 16, times)
    for block in (1, 7, 64):
        monkeypatch.setattr(extractors, "AUDIO_BLOCK", block)
        assert extractors.audio_frame_features(audio, 16000, 20.0, 75, 16, times).tobytes() == whole.tobytes()
