"""Renderer of the synthetic episode: ray-cast room and table, shaded spheres, depth, one MP4 per camera.

Objects, palms, fingertips and poured liquid are spheres; the room and the table are ray-cast at a
lower resolution. ``render_camera`` writes one camera's MP4 (with the audio track for cam0 and the
depth frames for stereo-left).
"""

from __future__ import annotations

import numpy as np

from . import format as fmt
from .camera import CameraModel, pixel_rays, project
from .media import VideoWriter
from .motion import Motion
from .script import OBJECT_NAMES, OBJECTS, ROOM, TABLE_RECT, TABLE_Z, VERB_NAMES


WALL = np.array([[0.78, 0.76, 0.70], [0.70, 0.74, 0.78], [0.60, 0.50, 0.42]])  # x walls, y walls, floor/ceiling


TABLE_RGB = np.array([0.62, 0.46, 0.30])


SKIN = np.array([0.90, 0.70, 0.58])


LIQUID_RGB = np.array([0.30, 0.45, 0.85])


def _background(o: np.ndarray, d: np.ndarray, tint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ray-cast the room box and the table: colours (c, P, 3) float32 and ray parameter t (c, P)."""
    c, _, P = d.shape
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inv = np.float32(1.0) / d
        t_all = np.empty((4, c, P), np.float32)
        for ax in range(3):  # exit distance through each pair of room walls
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
    check = (np.floor(gx * 4) + np.floor(gy * 4)).astype(np.int32) & 1
    rgb = _PALETTE[face]
    is_table = face == 3
    rgb[is_table] *= np.broadcast_to(tint[:, None, :], rgb.shape)[is_table]
    rgb *= (np.float32(0.85) + np.float32(0.15) * check)[..., None]
    return rgb, t_best


_PALETTE = np.concatenate([WALL, TABLE_RGB[None]], 0).astype(np.float32)


def _draw_spheres(img: np.ndarray, u: np.ndarray, v: np.ndarray, rad: np.ndarray, depth: np.ndarray,
                  colours: np.ndarray) -> None:
    """Paint shaded discs far-to-near into one RGB uint8 frame."""
    H, W = img.shape[:2]
    ok = np.isfinite(rad) & np.isfinite(u) & np.isfinite(v) & (rad >= 0.4) & (depth > 0.05)
    ok &= (u + rad >= 0) & (u - rad < W) & (v + rad >= 0) & (v - rad < H)
    idx = np.flatnonzero(ok)
    if not idx.size:
        return
    idx = idx[np.argsort(-depth[idx])]
    ar_x, ar_y = _coords(W), _coords(H)
    for k, uk, vk, r in zip(idx.tolist(), u[idx].tolist(), v[idx].tolist(), rad[idx].tolist()):
        u0, u1 = max(int(uk - r), 0), min(int(uk + r) + 2, W)
        v0, v1 = max(int(vk - r), 0), min(int(vk + r) + 2, H)
        inv_r = 1.0 / r
        dy = ((ar_y[v0:v1] - vk) * inv_r)[:, None]
        dx = ((ar_x[u0:u1] - uk) * inv_r)[None, :]
        rho2 = dy * dy + dx * dx
        m = rho2 <= 1.0
        shade = 0.35 + 0.55 * np.sqrt(np.maximum(1.0 - rho2, 0.0)) - 0.25 * dy - 0.1 * dx
        img[v0:v1, u0:u1][m] = _to_uint8(colours[k] * shade[m][:, None])


_COORDS: dict[int, np.ndarray] = {}


def _coords(n: int) -> np.ndarray:
    """Pixel-centre coordinates 0.5 … n-0.5 (cached)."""
    if n not in _COORDS:
        _COORDS[n] = np.arange(n, dtype=np.float32) + np.float32(0.5)
    return _COORDS[n]


def scene_spheres(motion: Motion, hands_world: np.ndarray,
                  absent: tuple[str, ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """World centres (N, S, 3), radii (S,) or per frame (N, S), and colours (S, 3) of every sphere.

    ``absent`` objects get radius 0 (never drawn).
    """
    n = motion.objects.shape[0]
    palm = [hands_world[h][:, [0, 5, 9, 13, 17]].mean(1) for h in (0, 1)]
    fingers = [hands_world[h][:, [7, 11, 15, 19]].mean(1) for h in (0, 1)]
    centres = np.concatenate([motion.objects, np.stack(palm + fingers, 1), motion.liquid[:, None, :3]], 1)
    radii = np.concatenate([np.repeat([[OBJECTS[o][2] for o in OBJECT_NAMES]], n, 0),
                            np.full((n, 2), 0.045), np.full((n, 2), 0.03), motion.liquid[:, 3:4]], 1)
    colours = np.concatenate([np.array([OBJECTS[o][3] for o in OBJECT_NAMES]), np.repeat(SKIN[None], 4, 0),
                              LIQUID_RGB[None]], 0)
    for name in absent:
        radii[:, OBJECT_NAMES.index(name)] = 0.0
    return centres, radii, colours


def render_chunk(cam: CameraModel, R_wc: np.ndarray, t_wc: np.ndarray, centres: np.ndarray, radii: np.ndarray,
                 colours: np.ndarray, tint: np.ndarray, rays: tuple[np.ndarray, np.ndarray], size: int,
                 with_depth: bool = False, light: float = 1.0) -> tuple[np.ndarray, np.ndarray | None]:
    """Render c frames of one camera: RGB uint8 (c, size, size, 3) and optionally depth (c, size, size).

    The room and table are ray-cast at ``rays`` resolution (upsampled to ``size``); spheres are
    painted at ``size``. Depth, when asked for, is the z of the hit point in the camera frame.
    ``light`` scales every colour (1.0: unchanged).
    """
    dirs, ok = rays
    bg_size = int(round(np.sqrt(dirs.shape[1])))
    c = len(R_wc)
    d = np.einsum("cij,jp->cip", R_wc.astype(np.float32), dirs.astype(np.float32))
    rgb, t = _background(t_wc.astype(np.float32), d, tint.astype(np.float32))
    rgb[:, ~ok] = 0.0
    if light != 1.0:
        rgb *= np.float32(light)
        colours = colours * light
    rgb = _to_uint8(rgb.reshape(c, bg_size, bg_size, 3))
    zmap = None
    if with_depth:
        zmap = (t * dirs[2].astype(np.float32)[None]).reshape(c, bg_size, bg_size)
    rep = size // bg_size
    if rep > 1:  # nearest upsampling in one copy
        rgb = np.broadcast_to(rgb[:, :, None, :, None, :], (c, bg_size, rep, bg_size, rep, 3)).reshape(c, size, size, 3)
    pc = np.einsum("cji,csj->csi", R_wc, centres - t_wc[:, None, :])  # world → camera
    u, v, pxm = project(cam, pc)
    rad = radii * pxm
    zc = pc[..., 2] if not cam.fisheye else np.linalg.norm(pc, axis=-1)
    sub = bg_size / size
    for i in range(c):
        _draw_spheres(rgb[i], u[i], v[i], rad[i], zc[i], colours)
        if zmap is not None:
            _paint_depth(zmap[i], u[i] * sub, v[i] * sub, rad[i] * sub, pc[i, :, 2], radii[i])
    return rgb, zmap


def _to_uint8(x: np.ndarray) -> np.ndarray:
    """Float colours in [0, 1] (float32 arithmetic) to uint8."""
    return (np.clip(x.astype(np.float32, copy=False), 0, 1) * 255).astype(np.uint8)


def _paint_depth(zmap: np.ndarray, u: np.ndarray, v: np.ndarray, rad: np.ndarray, z: np.ndarray,
                 radius_m: np.ndarray) -> None:
    """Write sphere surface depths (camera z) into a depth map, keeping the nearest."""
    H, W = zmap.shape
    ok = np.isfinite(rad) & np.isfinite(u) & np.isfinite(v) & (rad >= 0.3) & (z > 0.05)
    ok &= (u + rad >= 0) & (u - rad < W) & (v + rad >= 0) & (v - rad < H)
    ar_x, ar_y = _coords(W), _coords(H)
    for k in np.flatnonzero(ok).tolist():
        uk, vk, r = float(u[k]), float(v[k]), float(rad[k])
        u0, u1 = max(int(uk - r), 0), min(int(uk + r) + 2, W)
        v0, v1 = max(int(vk - r), 0), min(int(vk + r) + 2, H)
        rho2 = ((ar_y[v0:v1] - vk) ** 2)[:, None] / (r * r) + ((ar_x[u0:u1] - uk) ** 2)[None, :] / (r * r)
        m = rho2 <= 1.0
        zs = z[k] - radius_m[k] * np.sqrt(np.maximum(1.0 - rho2, 0.0))
        patch = zmap[v0:v1, u0:u1]
        patch[m] = np.minimum(patch[m], zs[m])


VERB_TINT = {v: 1.0 + 0.08 * np.array([np.cos(2.1 * i), np.cos(2.1 * i + 2.1), np.cos(2.1 * i + 4.2)])
             for i, v in enumerate(VERB_NAMES)}


def render_camera(job: tuple) -> str:
    """Render one camera chunk by chunk into its MP4 (plus audio for cam0, depth for stereo-left)."""
    cam, out, traj, scene, audio, h5, chunk, seed = job
    centres, radii, colours, tints = scene[:4]
    light = scene[4] if len(scene) > 4 else 1.0
    n = len(traj.R_c2w)
    res = cam.size
    is_depth = h5 is not None
    rays = pixel_rays(cam, res // 2 if is_depth or not cam.fisheye else res // 4)
    rng = np.random.default_rng([seed, 7])
    spf = fmt.AUDIO_RATE / fmt.FPS
    R_kb, t_kb = cam.T_c_b[:3, :3], cam.T_c_b[:3, 3]
    with VideoWriter(out / fmt.video_file(cam.name), res, res, fmt.FPS,
                     audio_rate=fmt.AUDIO_RATE if audio is not None else None) as w:
        for s in range(0, n, chunk):
            e = min(n, s + chunk)
            R_wk = traj.R_wb[s:e] @ R_kb.T
            p_k = traj.p_b[s:e] - np.einsum("cij,j->ci", R_wk, t_kb)
            rgb, z = render_chunk(cam, R_wk, p_k, centres[s:e], radii[s:e], colours, tints[s:e], rays, res,
                                  with_depth=is_depth, light=light)
            w.write_frames(rgb)
            if audio is not None:
                w.write_audio(audio[int(round(s * spf)):int(round(e * spf))])
            if is_depth:
                d, conf = _depth_sensor(z, rng)
                h5[fmt.DEPTH][s:e] = d
                h5[fmt.DEPTH_CONF][s:e] = conf
    return cam.name


def _depth_sensor(z: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Noisy metric depth with ≈5 % invalid zeros, and a confidence falling with distance."""
    d = z * (1 + rng.normal(0, 0.01, z.shape))
    invalid = (rng.random(z.shape) < 0.05) | ~np.isfinite(d) | (d > 3.9) | (d <= 0.05)
    conf = np.clip(0.92 - 0.17 * d + rng.normal(0, 0.05, z.shape), 0.02, 1.0) * 255
    d = np.where(invalid, 0.0, d).astype(np.float32)
    conf = np.where(invalid, 0, conf).astype(np.uint8)
    return d, conf
