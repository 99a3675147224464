"""The faster synthetic-episode generator computes exactly what the straightforward code computed.

Each rewritten kernel is checked against the plain version it replaced (kept here, as it was), on
small inputs, for exact equality of every value:

- ray-casting the room and table block by block, with a per-frame colour table (``_Backdrop``),
  against per-pixel shading; including a camera on a wall (NaN distances), outside the room and
  fisheye pixels outside the image circle;
- painting all discs of a chunk at once, layer by layer, against a per-frame, per-disc loop;
  including discs of equal depth, discs off the image, huge and tiny discs;
- painting depth maps with ``np.minimum.at`` against the per-disc loop;
- the depth sensor's blocked arithmetic against the whole-array formula;
- the video writer: one reused input frame, and packets encoded first and muxed later (audio
  encoded before the header), against ``from_ndarray`` frames written and muxed at once;
- a whole tiny episode: the same bytes with one thread and with two.
"""

from __future__ import annotations

import filecmp
from fractions import Fraction

import av
import numpy as np
import pytest
from test_episode_media import count_video_frames  # what a written file holds

from robotask.episode.files import media
from robotask.episode.synthesis import camera, render
from robotask.episode.synthesis import generate as synth
from robotask.episode.synthesis.motion import rot_x, rot_y, rot_z
from robotask.episode.synthesis.script import ROOM, TABLE_RECT, TABLE_Z

# ----- the plain implementations the generator used before (reference) -----


def ref_to_uint8(x):
    return (np.clip(x.astype(np.float32, copy=False), 0, 1) * 255).astype(np.uint8)


def ref_coords(n):
    return np.arange(n, dtype=np.float32) + np.float32(0.5)


REF_PALETTE = np.concatenate([render.WALL, render.TABLE_RGB[None]], 0).astype(np.float32)


def ref_background(o, d, tint):
    c, _, P = d.shape
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inv = np.float32(1.0) / d
        t_all = np.empty((4, c, P), np.float32)
        for ax in range(3):
            lo, hi = ROOM[ax]
            np.maximum((np.float32(hi) - o[:, ax, None]) * inv[:, ax], (np.float32(lo) - o[:, ax, None]) * inv[:, ax],
                       out=t_all[ax])
        tt = (np.float32(TABLE_Z) - o[:, 2, None]) * inv[:, 2]
        hx = o[:, 0, None] + tt * d[:, 0]
        hy = o[:, 1, None] + tt * d[:, 1]
    x0, x1, y0, y1 = TABLE_RECT
    t_all[3] = np.where((tt > 0) & (hx > x0) & (hx < x1) & (hy > y0) & (hy < y1), tt, np.float32(np.inf))
    face = t_all.argmin(0)
    t_best = np.take_along_axis(t_all, face[None], 0)[0]
    gx = o[:, 0, None] + t_best * d[:, 0]
    gy = o[:, 1, None] + t_best * d[:, 1]
    with np.errstate(invalid="ignore"):
        check = (np.floor(gx * 4) + np.floor(gy * 4)).astype(np.int32) & 1
    rgb = REF_PALETTE[face]
    is_table = face == 3
    rgb[is_table] *= np.broadcast_to(tint[:, None, :], rgb.shape)[is_table]
    rgb *= (np.float32(0.85) + np.float32(0.15) * check)[..., None]
    return rgb, t_best


def ref_draw_spheres(img, u, v, rad, depth, colours):
    H, W = img.shape[:2]
    ok = np.isfinite(rad) & np.isfinite(u) & np.isfinite(v) & (rad >= 0.4) & (depth > 0.05)
    ok &= (u + rad >= 0) & (u - rad < W) & (v + rad >= 0) & (v - rad < H)
    idx = np.flatnonzero(ok)
    if not idx.size:
        return
    idx = idx[np.argsort(-depth[idx])]
    ar_x, ar_y = ref_coords(W), ref_coords(H)
    for k, uk, vk, r in zip(idx.tolist(), u[idx].tolist(), v[idx].tolist(), rad[idx].tolist()):
        u0, u1 = max(int(uk - r), 0), min(int(uk + r) + 2, W)
        v0, v1 = max(int(vk - r), 0), min(int(vk + r) + 2, H)
        inv_r = 1.0 / r
        dy = ((ar_y[v0:v1] - vk) * inv_r)[:, None]
        dx = ((ar_x[u0:u1] - uk) * inv_r)[None, :]
        rho2 = dy * dy + dx * dx
        m = rho2 <= 1.0
        shade = 0.35 + 0.55 * np.sqrt(np.maximum(1.0 - rho2, 0.0)) - 0.25 * dy - 0.1 * dx
        img[v0:v1, u0:u1][m] = ref_to_uint8(colours[k] * shade[m][:, None])


def ref_paint_depth(zmap, u, v, rad, z, radius_m):
    H, W = zmap.shape
    ok = np.isfinite(rad) & np.isfinite(u) & np.isfinite(v) & (rad >= 0.3) & (z > 0.05)
    ok &= (u + rad >= 0) & (u - rad < W) & (v + rad >= 0) & (v - rad < H)
    ar_x, ar_y = ref_coords(W), ref_coords(H)
    for k in np.flatnonzero(ok).tolist():
        uk, vk, r = float(u[k]), float(v[k]), float(rad[k])
        u0, u1 = max(int(uk - r), 0), min(int(uk + r) + 2, W)
        v0, v1 = max(int(vk - r), 0), min(int(vk + r) + 2, H)
        rho2 = ((ar_y[v0:v1] - vk) ** 2)[:, None] / (r * r) + ((ar_x[u0:u1] - uk) ** 2)[None, :] / (r * r)
        m = rho2 <= 1.0
        zs = z[k] - radius_m[k] * np.sqrt(np.maximum(1.0 - rho2, 0.0))
        patch = zmap[v0:v1, u0:u1]
        patch[m] = np.minimum(patch[m], zs[m])


def ref_render_chunk(cam, R_wc, t_wc, centres, radii, colours, tint, rays, size, with_depth=False, light=1.0):
    dirs, ok = rays
    bg_size = int(round(np.sqrt(dirs.shape[1])))
    c = len(R_wc)
    d = np.einsum("cij,jp->cip", R_wc.astype(np.float32), dirs.astype(np.float32))
    rgb, t = ref_background(t_wc.astype(np.float32), d, tint.astype(np.float32))
    rgb[:, ~ok] = 0.0
    if light != 1.0:
        rgb *= np.float32(light)
        colours = colours * light
    rgb = ref_to_uint8(rgb.reshape(c, bg_size, bg_size, 3))
    zmap = None
    if with_depth:
        zmap = (t * dirs[2].astype(np.float32)[None]).reshape(c, bg_size, bg_size)
    rep = size // bg_size
    if rep > 1:
        rgb = np.broadcast_to(rgb[:, :, None, :, None, :], (c, bg_size, rep, bg_size, rep, 3)).reshape(c, size, size, 3)
    pc = np.einsum("cji,csj->csi", R_wc, centres - t_wc[:, None, :])
    u, v, pxm = camera.project(cam, pc)
    rad = radii * pxm
    zc = pc[..., 2] if not cam.fisheye else np.linalg.norm(pc, axis=-1)
    sub = bg_size / size
    for i in range(c):
        ref_draw_spheres(rgb[i], u[i], v[i], rad[i], zc[i], colours)
        if zmap is not None:
            ref_paint_depth(zmap[i], u[i] * sub, v[i] * sub, rad[i] * sub, pc[i, :, 2], radii[i])
    return rgb, zmap


def ref_depth_sensor(z, rng):
    d = z * (1 + rng.normal(0, 0.01, z.shape))
    invalid = (rng.random(z.shape) < 0.05) | ~np.isfinite(d) | (d > 3.9) | (d <= 0.05)
    conf = np.clip(0.92 - 0.17 * d + rng.normal(0, 0.05, z.shape), 0.02, 1.0) * 255
    d = np.where(invalid, 0.0, d).astype(np.float32)
    conf = np.where(invalid, 0, conf).astype(np.uint8)
    return d, conf


# ----- random scenes -----


def _scene(rng, c, s=12):
    """c frames of a camera looking about the table from inside the room, and s spheres in front of it."""
    ang = rng.normal(0, 0.4, (c, 3))
    R_wc = rot_z(ang[:, 0]) @ rot_y(ang[:, 1] + 0.3) @ rot_x(ang[:, 2] - 2.2)  # roughly forward and down
    t_wc = rng.uniform([-0.3, -0.5, -0.3], [0.5, 0.5, 0.3], (c, 3))
    fwd = R_wc[:, :, 2]
    centres = (t_wc[:, None, :] + fwd[:, None, :] * rng.uniform(0.1, 1.5, (c, s, 1))
        + rng.normal(0, 0.15, (c, s, 3)))
    radii = rng.choice([0.0, 0.02, 0.045, 0.085, 0.12], (c, s))
    colours = rng.uniform(0, 1.2, (s, 3))
    tint = 1.0 + rng.normal(0, 0.08, (c, 3))
    return R_wc, t_wc, centres, radii, colours, tint


@pytest.mark.parametrize("block", [render.BLOCK, 200])  # 200: many blocks of a few frames each
@pytest.mark.parametrize("index,size,with_depth,light", [(0, 32, False, 1.0), (2, 64, False, 0.8),
                                                         (4, 32, True, 1.0), (5, 48, False, 1.3)])
def test_render_chunk_matches_the_per_pixel_and_per_disc_code(index, size, with_depth, light, block, monkeypatch):
    monkeypatch.setattr(render, "BLOCK", block)
    _, cams = camera.calibration(size)
    cam = cams[index]
    rays = camera.pixel_rays(cam, size // 2 if with_depth or not cam.fisheye else size // 4)
    rng = np.random.default_rng(index + size)
    for c in (1, 7, 40):  # one block, and several blocks of frames
        R_wc, t_wc, centres, radii, colours, tint = _scene(rng, c)
        rgb, z = render.render_chunk(cam, R_wc, t_wc, centres, radii, colours, tint, rays, size,
                                     with_depth=with_depth, light=light)
        ref_rgb, ref_z = ref_render_chunk(cam, R_wc, t_wc, centres, radii, colours, tint, rays, size,
                                          with_depth=with_depth, light=light)
        assert np.array_equal(rgb, ref_rgb)
        assert (z is None) == (ref_z is None)
        if z is not None:
            assert z.dtype == ref_z.dtype and np.array_equal(z, ref_z, equal_nan=True)


def _cast_and_paint(dirs, ok, o, d, tint, light, size):
    """The new background path over all frames: codes per block, colour table, upsampled RGB, t."""
    bd = render._Backdrop(dirs, ok, size)
    c = len(d)
    lut = render._background_lut(tint, light).reshape(-1)
    rgb, t = np.empty((c, size, size, 3), np.uint8), np.empty((c, dirs.shape[1]), np.float32)
    finite = bool(np.isfinite(d).all())
    for s in range(0, c, bd.frames):
        e = min(c, s + bd.frames)
        code, t_block = bd.cast(o[s:e], d[s:e], finite)
        code += (9 * np.arange(s, e, dtype=np.int32))[:, None]
        bd.paint(code, lut, rgb[s:e])
        t[s:e] = t_block
    return rgb, t


def _ref_background_rgb(ok, o, d, tint, light, size):
    rgb, t = ref_background(o, d, tint)
    rgb[:, ~ok] = 0.0
    if light != 1.0:
        rgb *= np.float32(light)
    c, bg = len(d), int(round(np.sqrt(d.shape[2])))
    rep = size // bg
    rgb = ref_to_uint8(rgb.reshape(c, bg, bg, 3))
    return np.broadcast_to(rgb[:, :, None, :, None, :], (c, bg, rep, bg, rep, 3)).reshape(c, size, size, 3), t


def test_background_on_walls_outside_the_room_and_along_the_axes():
    """Rays exactly along the axes from a camera on a wall give NaN distances (argmin's fallback)."""
    bg = 8
    _, cams = camera.calibration(32)
    dirs, ok = camera.pixel_rays(cams[0], bg)  # fisheye: some pixels outside the image circle
    assert not ok.all()
    dirs = dirs.copy()
    dirs[:, :6] = [[0, 0, 1, -1, 0, 0], [0, 0, 0, 0, 1, -1], [1, -1, 0, 0, 0, 0]]  # ±z, ±x, ±y exactly
    lo, hi = np.array(ROOM, np.float32).T
    o = np.array([[0.1, 0.0, -0.2], [hi[0], 0.0, -0.2], [0.1, lo[1], -0.2], [0.1, 0.0, hi[2]],
                  [2.5, 0.0, -0.2], [0.1, 0.0, TABLE_Z]], np.float32)  # inside, on 3 walls, outside, at table height
    R = np.stack([np.eye(3), np.eye(3), rot_x(np.array(0.3)), np.eye(3), rot_z(np.array(1.0)), np.eye(3)])
    d = np.einsum("cij,jp->cip", R.astype(np.float32), dirs.astype(np.float32))
    tint = np.float32(1.0) + np.zeros((6, 3), np.float32)
    for frames in ([0, 1, 2, 3, 4, 5], [0, 5]):  # argmin itself; the fast path (both origins inside)
        with np.errstate(invalid="ignore"):
            rgb, t = _cast_and_paint(dirs, ok, o[frames], d[frames], tint[frames], 0.9, 32)
            ref_rgb, ref_t = _ref_background_rgb(ok, o[frames], d[frames], tint[frames], 0.9, 32)
        assert np.array_equal(t, ref_t, equal_nan=True)
        assert np.array_equal(rgb, ref_rgb)
    with np.errstate(invalid="ignore"):
        assert np.isnan(_ref_background_rgb(ok, o, d, tint, 0.9, 32)[1]).any()  # NaN distances were there


def test_background_with_non_finite_directions():
    _, cams = camera.calibration(32)
    dirs, ok = camera.pixel_rays(cams[4], 8)
    rng = np.random.default_rng(1)
    R_wc, t_wc = _scene(rng, 3)[:2]
    d = np.einsum("cij,jp->cip", R_wc.astype(np.float32), dirs.astype(np.float32))
    d[1, :, 5] = np.nan
    d[2, 0, 7] = np.inf
    tint = np.ones((3, 3), np.float32)
    with np.errstate(invalid="ignore"):
        rgb, t = _cast_and_paint(dirs, ok, t_wc.astype(np.float32), d, tint, 1.0, 32)
        ref_rgb, ref_t = _ref_background_rgb(ok, t_wc.astype(np.float32), d, tint, 1.0, 32)
    assert np.array_equal(t, ref_t, equal_nan=True)
    valid = np.isfinite(d).all(1).reshape(3, 8, 8)  # a ray that is not finite has no defined tile parity
    assert np.array_equal(rgb[:, ::4, ::4][valid], ref_rgb[:, ::4, ::4][valid])
    assert np.array_equal(rgb, rgb[:, ::4, ::4].repeat(4, 1).repeat(4, 2))


def test_background_ties_go_to_the_first_surface():
    """Two walls at exactly the same distance: argmin takes the first (the x wall), so must the fast path."""
    dirs = np.array([[1.0, 1.0, 0.5, 0.0], [1.0, -1.0, 0.5, 0.0], [0.0, 0.0, 0.0, 1.0]])  # 2 × 2 background
    ok = np.ones(4, bool)
    lo, hi = np.array(ROOM, np.float32).T
    o = np.array([[hi[0] - 1, hi[1] - 1, 0.0], [hi[0] - 1, lo[1] + 1, 0.0]], np.float32)  # 1 m from two walls
    d = np.einsum("cij,jp->cip", np.stack([np.eye(3)] * 2).astype(np.float32), dirs.astype(np.float32))
    tint = np.ones((2, 3), np.float32)
    with np.errstate(invalid="ignore"):
        rgb, t = _cast_and_paint(dirs, ok, o, d, tint, 1.0, 4)
        ref_rgb, ref_t = _ref_background_rgb(ok, o, d, tint, 1.0, 4)
    bd = render._Backdrop(dirs, ok, 4)
    code, _ = bd.cast(o, d, True)
    assert code[0, 0] // 2 == 0 and code[1, 1] // 2 == 0  # the tie went to the x wall
    assert np.array_equal(t, ref_t) and np.array_equal(rgb, ref_rgb)


def _discs(rng, c, s, size):
    u = rng.uniform(-10, size + 10, (c, s))
    v = rng.uniform(-10, size + 10, (c, s))
    rad = rng.choice([0.2, 0.35, 0.5, 1.7, 4.0, 9.5, 30.0, 3 * size], (c, s)) * rng.uniform(0.8, 1.2, (c, s))
    depth = rng.uniform(-0.1, 2.0, (c, s))
    return u, v, rad, depth


def test_draw_spheres_matches_the_per_disc_loop():
    rng = np.random.default_rng(3)
    size, c, s = 24, 30, 12
    u, v, rad, depth = _discs(rng, c, s, size)
    u[0, 3], rad[1, 2], depth[2, 4] = np.nan, np.inf, np.nan
    depth[3, :4] = 0.7  # equal depths, overlapping discs: the order argsort gives
    u[3, :4], v[3, :4], rad[3, :4] = 12.0, 12.0, [5.0, 6.0, 7.0, 8.0]
    depth[4] = 1.0  # a whole frame of equal depths
    colours = rng.uniform(0, 1.3, (s, 3))
    img = rng.integers(0, 256, (c, size, size, 3)).astype(np.uint8)
    ref = img.copy()
    render._draw_spheres(img, u, v, rad, depth, colours)
    for i in range(c):
        ref_draw_spheres(ref[i], u[i], v[i], rad[i], depth[i], colours)
    assert np.array_equal(img, ref)


def test_draw_spheres_without_visible_discs_changes_nothing():
    img = np.full((2, 8, 8, 3), 7, np.uint8)
    render._draw_spheres(img, np.full((2, 3), 4.0), np.full((2, 3), 4.0), np.full((2, 3), 0.1),
                         np.ones((2, 3)), np.ones((3, 3)))
    assert (img == 7).all()


def test_paint_depth_matches_the_per_disc_loop():
    rng = np.random.default_rng(4)
    size, c, s = 20, 25, 12
    u, v, rad, depth = _discs(rng, c, s, size)
    z = depth + rng.normal(0, 0.05, depth.shape)
    radius_m = rng.uniform(0.0, 0.2, (c, s))
    zmap = rng.uniform(0.2, 3.0, (c, size, size)).astype(np.float32)
    ref = zmap.copy()
    render._paint_depth(zmap, u, v, rad, z, radius_m)
    for i in range(c):
        ref_paint_depth(ref[i], u[i], v[i], rad[i], z[i], radius_m[i])
    assert np.array_equal(zmap, ref)


@pytest.mark.parametrize("shape", [(3, 4, 4), (64, 16, 16), (9, 64, 64), (2, 200, 200)])
def test_depth_sensor_matches_the_whole_array_formula(shape):
    z = np.random.default_rng(5).uniform(0.0, 4.5, shape).astype(np.float32)
    z.flat[::17] = np.nan
    d, conf = camera.depth_sensor(z, np.random.default_rng([9, 7]))
    with np.errstate(invalid="ignore"):
        ref_d, ref_conf = ref_depth_sensor(z, np.random.default_rng([9, 7]))
    assert np.array_equal(d, ref_d) and np.array_equal(conf, ref_conf)


def _plain_writer_file(path, frames, audio, chunk, size):
    """The writer as it was: a new frame per image, muxed at once; audio chunk after video chunk."""
    container = av.open(str(path), "w", options={"movflags": "+faststart"})
    video = container.add_stream("libx264", rate=Fraction(20).limit_denominator(1000))
    video.width, video.height, video.pix_fmt = size, size, "yuv420p"
    video.options = {"preset": "ultrafast", "crf": "23", "tune": "zerolatency"}
    video.codec_context.thread_count = 1
    stream = container.add_stream("aac", rate=16000)
    stream.layout = "mono"
    skip, k = media.AAC_PRIMING, 0
    for s in range(0, len(frames), chunk):
        for img in frames[s:s + chunk]:
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(img), format="rgb24")
            frame.pts, k = k, k + 1
            container.mux(video.encode(frame))
        data = np.clip(np.asarray(audio[s * 800:(s + chunk) * 800], np.float32), -1, 1)
        cut = min(skip, data.size)
        data, skip = data[cut:], skip - cut
        if data.size:
            aframe = av.AudioFrame.from_ndarray(data.reshape(1, -1), format="fltp", layout="mono")
            aframe.sample_rate = 16000
            container.mux(stream.encode(aframe))
    container.mux(video.encode(None))
    container.mux(stream.encode(None))
    container.close()


def test_writer_encodes_first_and_muxes_later_to_the_same_bytes(tmp_path):
    size, n, chunk = 32, 45, 8
    rng = np.random.default_rng(6)
    frames = rng.integers(0, 256, (n, size, size, 3)).astype(np.uint8)
    frames[:, 8:24, 8:24] = 200  # something to compress
    audio = 0.3 * np.sin(np.arange(n * 800) / 7.0) + rng.normal(0, 0.01, n * 800)
    _plain_writer_file(tmp_path / "plain.mp4", frames, audio, chunk, size)
    with media.VideoWriter(tmp_path / "alternating.mp4", size, size, 20, audio_rate=16000) as w:
        for s in range(0, n, chunk):
            w.write_frames(frames[s:s + chunk])
            w.write_audio(audio[s * 800:(s + chunk) * 800])
    w = media.VideoWriter(tmp_path / "deferred.mp4", size, size, 20, audio_rate=16000)
    sound = [w.encode_audio(audio[s * 800:(s + chunk) * 800]) for s in range(0, n, chunk)]  # before any mux
    video = [w.encode_frames(list(frames[s:s + chunk])) for s in range(0, n, chunk)]
    with w:
        w.mux_chunks(video, sound)
    assert filecmp.cmp(tmp_path / "plain.mp4", tmp_path / "alternating.mp4", shallow=False)
    assert filecmp.cmp(tmp_path / "plain.mp4", tmp_path / "deferred.mp4", shallow=False)


def test_writer_still_takes_frames_of_another_size_or_type(tmp_path):
    with media.VideoWriter(tmp_path / "v.mp4", 32, 32, 20) as w:
        w.write_frames(np.zeros((3, 16, 16, 3), np.uint8))  # rescaled by the encoder, as before
        w.write_frames(np.zeros((2, 32, 32, 3), np.uint8))
        with pytest.raises(ValueError):
            w.write_frames(np.zeros((1, 32, 32, 3), np.float32))  # from_ndarray refuses it, as before
    assert count_video_frames(tmp_path / "v.mp4") == 5


def test_one_thread_and_two_threads_write_the_same_bytes(tmp_path):
    a = synth.generate_episode(tmp_path / "a", frames=70, seed=4, resolution=16, threads=1)
    b = synth.generate_episode(tmp_path / "b", frames=70, seed=4, resolution=16, threads=2)
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir()) and len(names) == 7
    match, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    assert not mismatch and not errors


def test_a_failing_step_stops_generation_without_hanging(tmp_path, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("audio failed")

    monkeypatch.setattr(synth, "synth_audio", boom)
    with pytest.raises(RuntimeError, match="audio failed"):
        synth.generate_episode(tmp_path / "x", frames=60, resolution=16, threads=2)
