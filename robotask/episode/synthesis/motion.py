"""Scene motion of the synthetic episode: hands, grip, carried objects, body and contacts (spec §2.2).

``simulate`` turns the action script into per-frame wrist positions, grip, roll and contacts; each
verb's motion primitive is one entry of ``VERB_MOTION``. ``hand_joints`` and ``body_keypoints`` pose
the 21 MANO joints and the 52 SMPL-H joints from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..files import format as fmt
from .script import FLOOR_Z, OBJECT_NAMES, OBJECTS, TABLE_Z, Action


def rot_z(a: np.ndarray) -> np.ndarray:
    """Rotations (…, 3, 3) about z by angles ``a`` (rad)."""
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([c, -s, z], -1), np.stack([s, c, z], -1), np.stack([z, z, o], -1)], -2)


def rot_y(a: np.ndarray) -> np.ndarray:
    """Rotations (…, 3, 3) about y by angles ``a`` (rad)."""
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([c, z, s], -1), np.stack([z, o, z], -1), np.stack([-s, z, c], -1)], -2)


def rot_x(a: np.ndarray) -> np.ndarray:
    """Rotations (…, 3, 3) about x by angles ``a`` (rad)."""
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([o, z, z], -1), np.stack([z, c, -s], -1), np.stack([z, s, c], -1)], -2)


def look_at(pos: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Camera-to-world rotations (x right, y down, z forward) looking from ``pos`` to ``target``."""
    z = target - pos
    z /= np.linalg.norm(z, axis=-1, keepdims=True)
    x = np.cross(z, np.array([0.0, 0.0, 1.0]))
    x /= np.linalg.norm(x, axis=-1, keepdims=True)
    y = np.cross(z, x)
    return np.stack([x, y, z], -1)


def matrix_to_quat_wxyz(R: np.ndarray) -> np.ndarray:
    """Unit quaternions (w, x, y, z), w ≥ 0, of rotation matrices (…, 3, 3)."""
    m = R
    w = np.sqrt(np.clip(1 + m[..., 0, 0] + m[..., 1, 1] + m[..., 2, 2], 0, None)) / 2
    x = np.sqrt(np.clip(1 + m[..., 0, 0] - m[..., 1, 1] - m[..., 2, 2], 0, None)) / 2
    y = np.sqrt(np.clip(1 - m[..., 0, 0] + m[..., 1, 1] - m[..., 2, 2], 0, None)) / 2
    z = np.sqrt(np.clip(1 - m[..., 0, 0] - m[..., 1, 1] + m[..., 2, 2], 0, None)) / 2
    x = np.copysign(x, m[..., 2, 1] - m[..., 1, 2])
    y = np.copysign(y, m[..., 0, 2] - m[..., 2, 0])
    z = np.copysign(z, m[..., 1, 0] - m[..., 0, 1])
    q = np.stack([w, x, y, z], -1)
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def above(p: np.ndarray, dz: float) -> np.ndarray:
    """Point ``dz`` metres above ``p`` (world z up)."""
    return p + np.array([0.0, 0.0, dz])


def _min_jerk(tau: np.ndarray) -> np.ndarray:
    """Minimum-jerk profile 0 → 1 over ``tau`` in [0, 1]."""
    return tau ** 3 * (10 - 15 * tau + 6 * tau ** 2)


def smooth_noise(rng: np.random.Generator, shape: tuple, sigma: float, scale: float) -> np.ndarray:
    """Gaussian-filtered white noise along axis 0, std ≈ ``scale``."""
    from scipy.ndimage import gaussian_filter1d  # here: a cached episode's path needs no scipy

    x = gaussian_filter1d(rng.normal(size=shape), sigma, axis=0)
    return x / (x.std() + 1e-12) * scale


REST = np.array([[0.30, 0.24, TABLE_Z + 0.10], [0.30, -0.24, TABLE_Z + 0.10]])  # left, right wrist


SHOULDER = np.array([[-0.02, 0.18, FLOOR_Z + 1.40], [-0.02, -0.18, FLOOR_Z + 1.40]])


def home_position(obj: str) -> np.ndarray:
    """Resting centre of an object on the table (world)."""
    x, y, r, _ = OBJECTS[obj]
    return np.array([x, y, TABLE_Z + r])


def grip_offset(obj: str) -> np.ndarray:
    """Object centre relative to the wrist of the hand holding it."""
    return np.array([OBJECTS[obj][2] + 0.05, 0.0, 0.0])


@dataclass
class Motion:
    """Per-frame scene state derived from the script."""

    wrist: np.ndarray  # (2, N, 3) world
    grip: np.ndarray  # (2, N) 0 open … 1 closed
    roll: np.ndarray  # (2, N) wrist roll (rad)
    hand_contact: np.ndarray  # (2, N) 0/1
    objects: np.ndarray  # (N, n_obj, 3) world centres
    liquid: np.ndarray  # (N, 4): x, y, z, radius (radius 0 = none)
    action_index: np.ndarray  # (N,) index into the script


@dataclass
class _Scene:
    """Running state of ``simulate``: the per-frame arrays being filled and the hands' current state."""

    wrist: np.ndarray  # (2, N, 3)
    grip: np.ndarray  # (2, N)
    roll: np.ndarray  # (2, N)
    contact: np.ndarray  # (2, N)
    objects: np.ndarray  # (N, n_obj, 3)
    liquid: np.ndarray  # (N, 4)
    action_index: np.ndarray  # (N,)
    cur: np.ndarray = field(default_factory=lambda: REST.copy())  # wrist position at the end of the last action
    cur_grip: np.ndarray = field(default_factory=lambda: np.zeros(2))
    held: list = field(default_factory=lambda: [None, None])  # object in each hand
    home: dict = field(default_factory=lambda: {o: home_position(o) for o in OBJECT_NAMES})

    @classmethod
    def empty(cls, n: int, homes: dict | None = None) -> _Scene:
        """Hands at rest, objects at home (``homes`` overrides the default homes), no liquid."""
        home = homes if homes is not None else {o: home_position(o) for o in OBJECT_NAMES}
        objects = np.repeat(np.stack([home[o] for o in OBJECT_NAMES])[None], n, 0)
        return cls(np.repeat(REST[:, None, :], n, 1).copy(), np.zeros((2, n)), np.zeros((2, n)), np.zeros((2, n)),
                   objects, np.zeros((n, 4)), np.zeros(n, dtype=np.int64), home=dict(home))


@dataclass
class _Step:
    """What one action does to its hand: wrist and grip targets, oscillation, wrist roll, contact."""

    tau: np.ndarray  # (L,) progress (0, 1]
    env: np.ndarray  # (L,) sin(π τ) envelope
    end: np.ndarray  # wrist target (world)
    g_end: float  # grip target
    osc: np.ndarray  # (L, 3) oscillation added to the wrist path
    rl: np.ndarray  # (L,) wrist roll
    touch: np.ndarray  # (L,) contact

    @property
    def length(self) -> int:
        """L: frames of the action."""
        return len(self.tau)


def _reach(sc: _Scene, a: Action, st: _Step) -> None:
    st.end, st.g_end = sc.home[a.obj] - grip_offset(a.obj) - np.array([0.06, 0, -0.03]), 0.2


def _grasp(sc: _Scene, a: Action, st: _Step) -> None:
    st.end, st.g_end = sc.home[a.obj] - grip_offset(a.obj), 1.0
    st.touch[st.tau > 0.6] = 1


def _lift(sc: _Scene, a: Action, st: _Step) -> None:
    st.end = above(sc.cur[a.hand], 0.15)
    st.touch[:] = 1


def _pour(sc: _Scene, a: Action, st: _Step) -> None:
    h, held = a.hand, sc.held[a.hand]
    st.end = sc.home["cup"] - (grip_offset(held) if held else 0) + np.array([0.0, -0.10 if h else 0.10, 0.20])
    st.rl = (1.3 if h else -1.3) * np.sin(np.pi * np.clip((st.tau - 0.15) / 0.7, 0, 1)) ** 2
    st.touch[:] = 1


def _place(sc: _Scene, a: Action, st: _Step) -> None:
    st.end, st.g_end = sc.home[a.obj] - grip_offset(a.obj), 0.0
    st.touch[st.tau < 0.9] = 1


def _twist(sc: _Scene, a: Action, st: _Step) -> None:
    """open / close: a lid twisted on an object (held by the other hand when it is carried)."""
    st.end, st.g_end = above(sc.home[a.obj], OBJECTS[a.obj][2] + 0.04), 0.8
    if sc.held[1 - a.hand] == a.obj:
        st.end = above(sc.objects[a.start - 1 if a.start else 0, OBJECT_NAMES.index(a.obj)], OBJECTS[a.obj][2] + 0.04)
    st.rl = 0.7 * np.sin(2 * np.pi * 1.2 * st.tau * st.length / fmt.FPS) * st.env * (1 if a.verb == "open" else -1)
    st.touch[(st.tau > 0.2) & (st.tau < 0.9)] = 1


def _press(sc: _Scene, a: Action, st: _Step) -> None:
    st.end, st.g_end = above(sc.home[a.obj], OBJECTS[a.obj][2] + 0.05), 0.5
    pulse = np.clip(np.sin(2 * np.pi * 2 * st.tau), 0, None) * (st.tau > 0.35)
    st.osc[:, 2] = -0.04 * pulse
    st.touch[pulse > 0.6] = 1


def _wipe(sc: _Scene, a: Action, st: _Step) -> None:
    st.end = np.array([0.55, -0.15, TABLE_Z + 0.04])
    st.osc[:, 1] = 0.14 * np.sin(2 * np.pi * 0.9 * st.tau * st.length / fmt.FPS) * st.env
    st.touch[:] = 1


def _stir(sc: _Scene, a: Action, st: _Step) -> None:
    st.end = above(sc.home["cup"], 0.10) - np.array([0.06, 0, 0])
    ph = 2 * np.pi * 1.4 * st.tau * st.length / fmt.FPS
    st.osc[:, 0], st.osc[:, 1] = 0.025 * np.cos(ph) * st.env, 0.025 * np.sin(ph) * st.env
    st.touch[:] = 1


def _scoop(sc: _Scene, a: Action, st: _Step) -> None:
    st.end = above(sc.home[a.obj], 0.12) - np.array([0.05, 0, 0])
    st.osc[:, 2] = -0.06 * np.abs(np.sin(2 * np.pi * 0.8 * st.tau * st.length / fmt.FPS)) * st.env
    st.touch[:] = 1


def _hold(sc: _Scene, a: Action, st: _Step) -> None:
    st.end = sc.cur[a.hand].copy()
    st.touch[:] = 1 if sc.held[a.hand] else 0


# verb -> motion primitive of the acting hand
VERB_MOTION: dict[str, Callable[[_Scene, Action, _Step], None]] = {
    "reach": _reach, "grasp": _grasp, "lift": _lift, "pour": _pour, "place": _place, "open": _twist,
    "close": _twist, "press": _press, "wipe": _wipe, "stir": _stir, "scoop": _scoop, "hold": _hold,
}


def _move_hands(sc: _Scene, a: Action, st: _Step) -> None:
    """Min-jerk paths to the targets; the other hand keeps holding, else drifts to rest."""
    s, e, h, o = a.start, a.end + 1, a.hand, 1 - a.hand
    cur, held = sc.cur, sc.held
    mj = _min_jerk(np.clip(st.tau / 0.8, 0, 1))[:, None]
    sc.wrist[h, s:e] = cur[h] + (st.end - cur[h]) * mj + st.osc
    sc.grip[h, s:e] = sc.cur_grip[h] + (st.g_end - sc.cur_grip[h]) * mj[:, 0]
    sc.roll[h, s:e] = st.rl
    sc.contact[h, s:e] = np.maximum(st.touch, 1.0 if held[h] and a.verb != "place" else 0.0)
    o_end = cur[o] if held[o] else REST[o]
    sc.wrist[o, s:e] = cur[o] + (o_end - cur[o]) * mj
    sc.grip[o, s:e] = sc.cur_grip[o]
    sc.contact[o, s:e] = 1.0 if held[o] else 0.0
    cur[o] = o_end


def _carry(sc: _Scene, a: Action, st: _Step) -> None:
    """Pick up / put down objects, move carried objects with their hand, pour liquid."""
    s, e, h, held = a.start, a.end + 1, a.hand, sc.held
    if a.verb == "grasp":
        held[h] = a.obj
    sc.cur[h], sc.cur_grip[h] = st.end, st.g_end
    for hh in (0, 1):
        if held[hh]:
            oi = OBJECT_NAMES.index(held[hh])
            sc.objects[s:e, oi] = sc.wrist[hh, s:e] + grip_offset(held[hh])
    if a.verb == "place" and held[h] == a.obj:
        held[h] = None
    if a.verb == "pour":
        src = held[h]
        mid = (st.tau > 0.35) & (st.tau < 0.75)
        if src:
            p = 0.5 * (sc.objects[s:e, OBJECT_NAMES.index(src)] + sc.home["cup"])
            sc.liquid[s:e][mid] = np.c_[p[mid], np.full(mid.sum(), 0.02)]


def simulate(actions: list[Action], n: int, rng: np.random.Generator, homes: dict | None = None) -> Motion:
    """Hand keyframes per action, min-jerk interpolation + action primitives, carried objects.

    ``homes`` (object -> world centre) moves objects away from their default homes.
    """
    sc = _Scene.empty(n, homes)
    for ai, a in enumerate(actions):
        s, e = a.start, a.end + 1
        sc.action_index[s:e] = ai
        tau = (np.arange(e - s) + 1) / (e - s)
        a.held = sc.held[a.hand] or ""
        st = _Step(tau, np.sin(np.pi * tau), sc.cur[a.hand].copy(), sc.cur_grip[a.hand], np.zeros((e - s, 3)),
                   np.zeros(e - s), np.zeros(e - s))
        VERB_MOTION[a.verb](sc, a, st)
        _move_hands(sc, a, st)
        _carry(sc, a, st)
    wrist = sc.wrist + smooth_noise(rng, (n, 2, 3), 3.0, 0.004).transpose(1, 0, 2)
    return Motion(wrist, np.clip(sc.grip, 0, 1), sc.roll, sc.contact, sc.objects, sc.liquid, sc.action_index)


# MANO joint layout: wrist, then thumb/index/middle/ring/pinky × 4 (tip last)
_FINGER_BASE = np.array([[0.030, 0.035, -0.015], [0.090, 0.025, 0.0], [0.095, 0.005, 0.0],
                         [0.090, -0.015, 0.0], [0.080, -0.032, 0.0]])


_SEG = np.array([[0.035, 0.030, 0.025], [0.040, 0.025, 0.020], [0.045, 0.028, 0.022],
                 [0.042, 0.026, 0.020], [0.033, 0.020, 0.018]])


def hand_joints(wrist: np.ndarray, grip: np.ndarray, roll: np.ndarray, side: int, scale: float = 1.0) -> np.ndarray:
    """21 MANO-ordered joints (N, 21, 3) in world from wrist position, grip closure and roll (``scale``: hand size)."""
    n = len(wrist)
    base = _FINGER_BASE.copy()
    seg = _SEG if scale == 1.0 else _SEG * scale
    if scale != 1.0:
        base = base * scale
    if side == 0:
        base[:, 1] *= -1
    local = np.zeros((n, 21, 3))
    curl = grip[:, None] * np.array([0.5, 1.2, 1.2, 1.2, 1.2])[None]  # per finger, rad per joint
    for fi in range(5):
        p = np.repeat(base[fi][None], n, 0)
        ang = np.zeros(n)
        local[:, 1 + 4 * fi] = p
        for j in range(3):
            ang = ang + curl[:, fi]
            d = np.stack([np.cos(ang), np.zeros(n), -np.sin(ang)], -1)
            p = p + seg[fi, j] * d
            local[:, 2 + 4 * fi + j] = p
    sh = SHOULDER[side]
    yaw = np.arctan2(wrist[:, 1] - sh[1], wrist[:, 0] - sh[0])
    R = rot_z(yaw) @ rot_y(np.full(n, 0.35)) @ rot_x(roll)
    return wrist[:, None, :] + np.einsum("nij,nkj->nki", R, local)


def body_keypoints(wrists: np.ndarray, hands: np.ndarray, head: np.ndarray, height: float = 0.0) -> np.ndarray:
    """SMPL-H 52 joints (N, 52, 3) in world: standing legs, spine leaning with the head, IK arms.

    ``height`` (metres) makes the subject taller; the legs stay on the floor, the rest moves up.
    """
    n = head.shape[0]
    nominal_head = np.array([-0.02, 0.0, FLOOR_Z + 1.60 + height])
    lean = head - nominal_head
    F = FLOOR_Z + height
    rest = {
        0: (0, 0, F + 0.95), 1: (0, 0.09, F + 0.90), 2: (0, -0.09, F + 0.90), 3: (0, 0, F + 1.05),
        4: (0.02, 0.10, F + 0.50), 5: (0.02, -0.10, F + 0.50), 6: (0, 0, F + 1.18), 7: (0, 0.11, F + 0.08),
        8: (0, -0.11, F + 0.08), 9: (0, 0, F + 1.30), 10: (0.12, 0.12, F + 0.02), 11: (0.12, -0.12, F + 0.02),
        12: (0, 0, F + 1.48), 13: (0, 0.07, F + 1.42), 14: (0, -0.07, F + 1.42), 15: (0, 0, F + 1.60),
        16: (-0.02, 0.18, F + 1.40), 17: (-0.02, -0.18, F + 1.40),
    }
    kp = np.zeros((n, 52, 3))
    follow = {0: 0.1, 3: 0.25, 6: 0.45, 9: 0.65, 12: 0.85, 13: 0.75, 14: 0.75, 15: 1.0, 16: 0.7, 17: 0.7}
    for j, p in rest.items():
        kp[:, j] = np.array(p) + follow.get(j, 0.0) * lean
    if height:
        kp[:, [7, 8, 10, 11], 2] -= height  # ankles and feet stay on the floor
    for side, (sj, ej, wj) in enumerate(((16, 18, 20), (17, 19, 21))):
        s, w = kp[:, sj], wrists[side]
        d = w - s
        dist = np.linalg.norm(d, axis=1, keepdims=True)
        half = np.clip(dist / 2, 1e-3, 0.27)
        out = np.sqrt(np.clip(0.275 ** 2 - half ** 2, 0, None))
        bend = np.array([0.0, 0.6 if side == 0 else -0.6, -1.0])
        bend = np.cross(d, np.cross(bend, d))  # component of the bend direction orthogonal to the arm
        bend /= np.linalg.norm(bend, axis=1, keepdims=True) + 1e-12
        kp[:, ej] = s + d / 2 + out * bend
        kp[:, wj] = w
    mano_to_smplh = [5, 6, 7, 9, 10, 11, 17, 18, 19, 13, 14, 15, 1, 2, 3]  # index, middle, pinky, ring, thumb
    kp[:, 22:37] = hands[0][:, mano_to_smplh]
    kp[:, 37:52] = hands[1][:, mano_to_smplh]
    return kp


def contact_scores(motion: Motion, n: int, rng: np.random.Generator) -> np.ndarray:
    """Contact scores (N, 21): feet on the floor, wrists in contact while touching objects, 0 elsewhere."""
    c = np.zeros((n, fmt.N_CONTACTS))
    c[:, list(fmt.FOOT_CONTACT_CHANNELS)] = 1.0
    c[:, fmt.HAND_CONTACT_CHANNELS[0]] = motion.hand_contact[0]
    c[:, fmt.HAND_CONTACT_CHANNELS[1]] = motion.hand_contact[1]
    # finger-joint channels do not exist among the 21 body channels; elbows lean on nothing
    return np.clip(c + rng.normal(0, 1e-4, c.shape) * (c > 0), 0, 1)
