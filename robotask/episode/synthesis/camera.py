"""Cameras of the synthetic episode: calibration, projection, the head trajectory with its IMU, the map.

The six render cameras (four Kannala–Brandt fisheyes, a rectified stereo pair) with the calibration
group they write, the head-camera trajectory looking at the active hand and object, the IMU of that
trajectory at 200 Hz, object visibility, the sparse SLAM point cloud and the depth sensor's noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..files import format as fmt
from .motion import Motion, home_position, look_at, rot_x, rot_y, smooth_noise
from .script import FLOOR_Z, OBJECT_NAMES, OBJECTS, ROOM, TABLE_RECT, TABLE_Z, Action

GRAVITY = np.array([0.0, 0.0, -9.81])


@dataclass
class CameraModel:
    """A rendering camera: intrinsics at the render size, extrinsics camera ← body."""

    name: str  # video stream name
    fisheye: bool
    K: np.ndarray  # (4,) fx, fy, cx, cy at render size
    D: np.ndarray  # (4,) Kannala–Brandt k1..k4 (fisheye only)
    T_c_b: np.ndarray  # (4, 4)
    size: int


def _extrinsic(yaw_deg: float, pitch_deg: float, t: tuple[float, float, float]) -> np.ndarray:
    """camera ← body transform of a camera yawed/pitched relative to the body (= stereo-left axes)."""
    R_bc = (rot_y(np.array(np.deg2rad(yaw_deg))) @ rot_x(np.array(np.deg2rad(-pitch_deg))))
    T = np.eye(4)
    T[:3, :3] = R_bc.T
    T[:3, 3] = -R_bc.T @ np.array(t)
    return T


T_C0_B = _extrinsic(0.5, 0.8, (-0.035, 0.01, 0.02))  # stereo-left ← body (IMU)


BASELINE = 0.1453


FISHEYE_NOMINAL = 1088


FISHEYE_K = ((395.00, 394.78, 536.16, 543.65), (393.6, 393.3, 542.2, 547.4),
             (395.5, 395.6, 545.9, 548.0), (395.7, 395.3, 539.0, 541.4))


FISHEYE_D = ((-0.0576, 0.0029, -0.0066, 0.0018), (-0.0570, 0.0031, -0.0060, 0.0016),
             (-0.0581, 0.0027, -0.0069, 0.0020), (-0.0574, 0.0030, -0.0064, 0.0017))


FISHEYE_POSE = ((-25, 15, (-0.06, 0.0, 0.0)), (25, 15, (0.06, 0.0, 0.0)),
                (-70, 30, (-0.09, 0.02, -0.03)), (70, 30, (0.09, 0.02, -0.03)))


STEREO_K = (200.0, 200.0, 256.0, 256.0)  # at 512 × 512


def calibration(resolution: int) -> tuple[dict, list[CameraModel]]:
    """The calibration group (117 numeric values) and the six render cameras at ``resolution``."""
    calib: dict[str, dict] = {}
    cams: list[CameraModel] = []
    for k in range(4):
        yaw, pitch, t = FISHEYE_POSE[k]
        T = _extrinsic(yaw, pitch, t)
        calib[f"cam{k}"] = {"D": np.array(FISHEYE_D[k]), "K": np.array(FISHEYE_K[k]), "T_c_b": T,
                            "model": "kannala_brandt4"}
        s = resolution / FISHEYE_NOMINAL
        cams.append(CameraModel(f"fisheye_cam{k}", True, np.array(FISHEYE_K[k]) * s, np.array(FISHEYE_D[k]), T,
                                resolution))
    calib["cam01"] = {"K": np.array(STEREO_K), "T_c0_b": T_C0_B, "baseline": BASELINE, "model": "pinhole_rectified"}
    s = resolution / 512
    T_right = np.eye(4)
    T_right[0, 3] = -BASELINE  # right camera sits +baseline along the left camera's x axis
    cams.append(CameraModel("stereo_left", False, np.array(STEREO_K) * s, np.zeros(4), T_C0_B, resolution))
    cams.append(CameraModel("stereo_right", False, np.array(STEREO_K) * s, np.zeros(4), T_right @ T_C0_B, resolution))
    return calib, cams


def project(cam: CameraModel, pc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pixel (u, v) and local pixel scale (px per metre at unit depth) of camera-frame points (…, 3)."""
    x, y, z = pc[..., 0], pc[..., 1], pc[..., 2]
    fx, fy, cx, cy = cam.K
    if not cam.fisheye:
        zz = np.where(z > 1e-3, z, np.nan)
        return fx * x / zz + cx, fy * y / zz + cy, fx / zz
    r = np.hypot(x, y)
    th = np.arctan2(r, z)
    k1, k2, k3, k4 = cam.D
    t2 = th * th
    thd = th * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4))))
    rr = np.where(r > 1e-9, r, 1e-9)
    dist = np.linalg.norm(pc, axis=-1)
    ok = th < np.deg2rad(95)
    scale = np.where(ok, fx / np.maximum(dist, 1e-6), np.nan)
    return (np.where(ok, fx * thd * x / rr + cx, np.nan), np.where(ok, fy * thd * y / rr + cy, np.nan), scale)


def pixel_rays(cam: CameraModel, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit-less ray directions (3, size*size) in the camera frame for a size × size grid, and validity."""
    scale = size / cam.size
    fx, fy, cx, cy = cam.K * scale
    v, u = np.mgrid[0:size, 0:size] + 0.5
    mx, my = (u.ravel() - cx) / fx, (v.ravel() - cy) / fy
    if not cam.fisheye:
        return np.stack([mx, my, np.ones_like(mx)]), np.ones(mx.size, bool)
    thd = np.hypot(mx, my)
    th = thd.copy()
    k1, k2, k3, k4 = cam.D
    for _ in range(8):  # Newton on θ(1 + k1θ² + …) = θd
        t2 = th * th
        f = th * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4)))) - thd
        df = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + 9 * k4 * t2)))
        th = th - f / df
    ok = th < np.deg2rad(95)
    s = np.sin(th) / np.maximum(thd, 1e-9)
    return np.stack([mx * s, my * s, np.cos(th)]), ok


@dataclass
class Trajectory:
    """Head camera (stereo-left) and body (IMU) motion at frame and IMU rate."""

    R_c2w: np.ndarray  # (N, 3, 3) stereo-left camera to world
    t_c2w: np.ndarray  # (N, 3)
    R_wb: np.ndarray  # (N, 3, 3) body (IMU) to world at frames
    p_b: np.ndarray  # (N, 3)
    accel: np.ndarray  # (M, 3) specific force in the body frame
    gyro: np.ndarray  # (M, 3) angular rate in the body frame
    head: np.ndarray  # (N, 3) head joint


def camera_trajectory(motion: Motion, actions: list[Action], n: int, rng: np.random.Generator, height: float = 0.0,
                      mount: tuple[float, float] = (0.0, 0.0)) -> Trajectory:
    """A head camera looking at the active hand/object; IMU = specific force + angular rate at 200 Hz.

    ``height`` raises the head (metres); ``mount`` turns the rig on the head by (yaw, pitch) degrees,
    so the camera no longer points straight at what the subject looks at.
    """
    from scipy.interpolate import CubicSpline  # here: a cached episode's path needs no scipy (0.3 s a page)
    from scipy.ndimage import gaussian_filter1d

    frames = np.arange(n)
    hand = np.array([actions[i].hand for i in motion.action_index])
    obj = np.array([OBJECT_NAMES.index(actions[i].obj) for i in motion.action_index])
    focus = 0.5 * motion.wrist[hand, frames] + 0.5 * motion.objects[frames, obj]
    focus = gaussian_filter1d(focus, 10, axis=0, mode="nearest")
    cam_nom = np.array([0.06, 0.0, FLOOR_Z + 1.63 + height])
    lean = 0.10 * (focus - cam_nom) * np.array([1.0, 1.0, 0.3])
    pos = cam_nom + lean + smooth_noise(rng, (n, 3), 12.0, 0.006)
    focus = focus + smooth_noise(rng, (n, 3), 6.0, 0.01)
    k = fmt.IMU_PER_FRAME
    m = n * k
    t_f, t_i = frames / fmt.FPS, np.arange(m) / fmt.IMU_RATE
    pos_i, focus_i = CubicSpline(t_f, pos)(t_i), CubicSpline(t_f, focus)(t_i)
    R_c2w_i = look_at(pos_i, focus_i)
    if tuple(mount) != (0.0, 0.0):
        yaw, pitch = np.deg2rad(mount[0]), np.deg2rad(mount[1])
        R_c2w_i = R_c2w_i @ (rot_y(np.array(yaw)) @ rot_x(np.array(-pitch)))
    R_cb, t_cb = T_C0_B[:3, :3], T_C0_B[:3, 3]
    R_wb_i = R_c2w_i @ R_cb
    p_b_i = np.einsum("mij,j->mi", R_c2w_i, t_cb) + pos_i
    dt = 1.0 / fmt.IMU_RATE
    acc_w = np.gradient(np.gradient(p_b_i, dt, axis=0), dt, axis=0)
    accel = np.einsum("mji,mj->mi", R_wb_i, acc_w - GRAVITY)
    dR = np.gradient(R_wb_i, dt, axis=0)
    W = np.einsum("mji,mjk->mik", R_wb_i, dR)  # R^T dR/dt = [ω]x in the body frame
    gyro = 0.5 * np.stack([W[:, 2, 1] - W[:, 1, 2], W[:, 0, 2] - W[:, 2, 0], W[:, 1, 0] - W[:, 0, 1]], -1)
    accel = accel + rng.normal(0, 0.08, accel.shape) + rng.normal(0, 0.03, 3)
    gyro = gyro + rng.normal(0, 0.008, gyro.shape) + rng.normal(0, 0.002, 3)
    R_c2w, t_c2w = R_c2w_i[::k][:n], pos_i[::k][:n]
    head = t_c2w + np.array([-0.08, 0.0, -0.03])
    return Trajectory(R_c2w, t_c2w, R_wb_i[::k][:n], p_b_i[::k][:n], accel, gyro, head)


def visible_objects(traj: Trajectory, motion: Motion) -> np.ndarray:
    """(N, n_obj) bool: object centre within 1.3 m of the stereo-left camera and 20° of its optical axis."""
    pc = np.einsum("nji,nsj->nsi", traj.R_c2w, motion.objects - traj.t_c2w[:, None, :])
    dist = np.linalg.norm(pc, axis=-1)
    return (dist < 1.3) & (pc[..., 2] > np.cos(np.deg2rad(20)) * dist)


def point_cloud(rng: np.random.Generator, n_points: int = 4200, homes: dict | None = None) -> np.ndarray:
    """A sparse SLAM-like map: table, floor, walls, object surfaces and a few outliers (world, metres).

    ``homes`` (object -> centre) moves object surfaces; objects below the floor (absent) leave no points.
    """
    parts = []
    x0, x1, y0, y1 = TABLE_RECT
    nt = n_points // 4
    parts.append(np.c_[rng.uniform(x0, x1, nt), rng.uniform(y0, y1, nt), np.full(nt, TABLE_Z)])
    nf = n_points // 4
    parts.append(np.c_[rng.uniform(-1.4, 1.5, nf), rng.uniform(-1.6, 1.6, nf), np.full(nf, FLOOR_Z)])
    nw = n_points // 4
    parts.append(np.c_[np.full(nw, ROOM[0][1]), rng.uniform(-1.6, 1.6, nw), rng.uniform(FLOOR_Z, 0.8, nw)])
    no = n_points - nt - nf - nw - n_points // 40
    names = rng.integers(0, len(OBJECT_NAMES), no)
    dirs = rng.normal(size=(no, 3))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    home = homes if homes is not None else {o: home_position(o) for o in OBJECT_NAMES}
    parts.append(np.stack([home[OBJECT_NAMES[i]] for i in names]) +
                 dirs * np.array([OBJECTS[OBJECT_NAMES[i]][2] for i in names])[:, None])
    parts.append(rng.uniform(-4.0, 4.0, (n_points // 40, 3)))
    pts = np.concatenate(parts) + rng.normal(0, 0.01, (n_points, 3))
    pts = pts[rng.permutation(len(pts))]
    return pts if homes is None else pts[pts[:, 2] > FLOOR_Z - 1.0]


def depth_sensor(z: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Noisy metric depth with ≈5 % invalid zeros, and a confidence falling with distance.

    ``z`` (frames, H, W) is the true depth. The three random arrays are drawn for all frames at
    once (the stream order of the generator); the arithmetic then runs a few frames at a time.
    """
    gain, drop, jitter = rng.normal(0, 0.01, z.shape), rng.random(z.shape), rng.normal(0, 0.05, z.shape)
    depth, conf = np.empty(z.shape, np.float32), np.empty(z.shape, np.uint8)
    step = max(1, 32768 // max(1, z[0].size))  # frames at a time, so the temporaries stay in the cache
    for s in range(0, len(z), step):
        b = slice(s, s + step)
        d = z[b] * (1 + gain[b])
        invalid = (drop[b] < 0.05) | ~np.isfinite(d) | (d > 3.9) | (d <= 0.05)
        c = np.clip(0.92 - 0.17 * d + jitter[b], 0.02, 1.0) * 255
        depth[b] = np.where(invalid, 0.0, d)
        conf[b] = np.where(invalid, 0, c)
    return depth, conf
