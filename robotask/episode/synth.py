"""Synthetic kitchen episode in the exact Xperience-10M on-disk format (spec §2.2–2.3).

A scripted coffee-making procedure (subtasks of actions from a shared verb vocabulary acting on
objects in a small 3-D scene) drives every modality consistently: hand motion primitives, a body
that supports the hands, hand and foot contacts, a head camera that looks at the active object,
the IMU of that trajectory, six rendered videos, depth with confidence, action-tied audio and the
caption JSON. ``ensure_episode`` caches episodes under ``paths.cache_dir()/episodes``.
Used by notebooks ``10_episode``, ``11_windows_features`` and ``12_task``; CLI ``robotask synth``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import h5py
import numpy as np
from scipy.interpolate import CubicSpline
from scipy.ndimage import gaussian_filter1d
from scipy.signal import butter, sosfilt

from .. import paths
from ..errors import RobotaskError
from . import format as fmt
from .media import VideoWriter

GENERATOR_VERSION = "3"
SCHEDULES = ("repeating", "sample-like")
GRAVITY = np.array([0.0, 0.0, -9.81])
FLOOR_Z = -1.65  # world z of the floor (the SLAM origin is near the head)
TABLE_Z = -0.75  # table top
TABLE_RECT = (0.30, 1.05, -0.80, 0.80)  # x0, x1, y0, y1
ROOM = ((-1.5, 1.6), (-1.7, 1.7), (FLOOR_Z, 0.9))  # axis-aligned room box

# ------------------------------------------------------------------ the scripted procedure
# name: (home x, home y, radius, RGB colour)
OBJECTS: dict[str, tuple[float, float, float, tuple[float, float, float]]] = {
    "kettle": (0.66, -0.32, 0.085, (0.72, 0.74, 0.80)),
    "cup": (0.55, 0.02, 0.045, (0.95, 0.93, 0.85)),
    "coffee jar": (0.74, 0.26, 0.055, (0.50, 0.30, 0.15)),
    "spoon": (0.48, 0.17, 0.022, (0.55, 0.55, 0.60)),
    "milk bottle": (0.80, -0.06, 0.050, (0.80, 0.88, 1.00)),
    "cloth": (0.46, -0.50, 0.050, (0.85, 0.20, 0.20)),
    "coffee machine": (0.90, 0.50, 0.120, (0.15, 0.15, 0.17)),
}
OBJECT_NAMES = tuple(OBJECTS)

# verb: (nominal seconds, present participle, contact while acting, audio kind)
VERBS: dict[str, tuple[float, str, bool, str]] = {
    "reach": (1.6, "reaching for", False, "none"),
    "grasp": (1.4, "grasping", True, "click_end"),
    "lift": (1.3, "lifting", True, "none"),
    "pour": (3.2, "pouring from", True, "pour"),
    "place": (1.6, "placing", True, "click_end"),
    "open": (2.4, "opening", True, "twist"),
    "close": (2.2, "closing", True, "twist_click"),
    "press": (1.4, "pressing", True, "press"),
    "wipe": (3.5, "wiping", True, "wipe"),
    "stir": (3.0, "stirring", True, "stir"),
    "scoop": (2.4, "scooping from", True, "scrape"),
    "hold": (2.6, "holding", True, "boil"),
}
VERB_NAMES = tuple(VERBS)
DESCRIPTIONS = {
    "reach": "reaching for the {obj}", "grasp": "grasping the {obj}", "lift": "lifting the {obj}",
    "pour": "pouring from the {tool} into the {obj}", "place": "placing the {obj} on the table",
    "open": "opening the {obj}", "close": "closing the {obj}", "press": "pressing the button of the {obj}",
    "wipe": "wiping the table with the {tool}", "stir": "stirring the {obj} with the {tool}",
    "scoop": "scooping coffee from the {obj} with the {tool}", "hold": "holding the {obj}",
}

# subtask: list of (verb, object, hand, label); "hand" 1 = right, 0 = left
SUBTASKS: dict[str, list[tuple[str, str, int, str]]] = {
    "Start coffee machine": [("reach", "coffee machine", 1, "Reach for coffee machine"),
                             ("press", "coffee machine", 1, "Press machine button")],
    "Prepare cup": [("reach", "cup", 0, "Reach for cup"), ("grasp", "cup", 0, "Grasp cup"),
                    ("place", "cup", 0, "Place cup on table")],
    "Boil water": [("reach", "kettle", 1, "Reach for kettle"), ("press", "kettle", 1, "Press kettle switch"),
                   ("hold", "kettle", 1, "Wait for water to boil")],
    "Open coffee jar": [("grasp", "coffee jar", 0, "Hold coffee jar"), ("open", "coffee jar", 1, "Open jar lid")],
    "Add coffee grounds": [("grasp", "spoon", 1, "Grasp spoon"), ("scoop", "coffee jar", 1, "Scoop coffee"),
                           ("pour", "cup", 1, "Tip coffee into cup"), ("place", "spoon", 1, "Place spoon on table")],
    "Close coffee jar": [("close", "coffee jar", 1, "Close jar lid"), ("place", "coffee jar", 0, "Place jar on table")],
    "Pour hot water": [("grasp", "kettle", 1, "Grasp kettle"), ("lift", "kettle", 1, "Lift kettle"),
                       ("pour", "cup", 1, "Pour water into cup"), ("place", "kettle", 1, "Place kettle on table")],
    "Add milk": [("grasp", "milk bottle", 1, "Grasp milk bottle"), ("open", "milk bottle", 0, "Open bottle cap"),
                 ("pour", "cup", 1, "Pour milk into cup"), ("close", "milk bottle", 0, "Close bottle cap"),
                 ("place", "milk bottle", 1, "Place bottle on table")],
    "Stir coffee": [("grasp", "spoon", 1, "Grasp spoon"), ("stir", "cup", 1, "Stir coffee"),
                    ("place", "spoon", 1, "Place spoon on table")],
    "Clean up": [("grasp", "cloth", 0, "Grasp cloth"), ("wipe", "cloth", 0, "Wipe table"),
                 ("place", "cloth", 0, "Place cloth on table")],
}
ROUND = ("Prepare cup", "Boil water", "Start coffee machine", "Open coffee jar", "Add coffee grounds",
         "Close coffee jar", "Pour hot water", "Add milk", "Stir coffee", "Clean up")
UNITS = (("Prepare cup",), ("Boil water",), ("Start coffee machine",),
         ("Open coffee jar", "Add coffee grounds", "Close coffee jar"), ("Pour hot water",), ("Add milk",),
         ("Stir coffee",), ("Clean up",))  # rounds keep a unit whole, so the jar is closed and put down
MAIN_TASK = "Make coffee"


@dataclass
class Action:
    """One scripted action over frames [start, end] (inclusive)."""

    start: int
    end: int
    verb: str
    obj: str
    hand: int  # 0 left, 1 right
    label: str
    subtask: str
    segment: int  # index of the subtask instance
    held: str = ""  # object in the acting hand when the action starts (set by ``simulate``)

    @property
    def description(self) -> str:
        """Caption-style sentence of the action (also the interaction text)."""
        side = "right" if self.hand else "left"
        tool = self.held or "hand"
        text = DESCRIPTIONS[self.verb].format(obj=self.obj, tool=tool)
        return f"The {side} hand is {text}."


def _target_actions(n_frames: int, schedule: str) -> int:
    """Number of actions so that durations scale with the episode (≥ 7, i.e. 3 subtasks, at 200 frames)."""
    per = 110 if schedule == "repeating" else 320
    return int(max(7, min(round(n_frames / per), n_frames // 25)))


def build_script(n_frames: int, rng: np.random.Generator, schedule: str = "repeating") -> list[Action]:
    """Subtask instances and their actions, with durations filling exactly ``n_frames`` frames.

    ``repeating`` runs the procedure (all 10 subtasks at full length, fewer in short episodes)
    once, then rounds of 60 % of its units (two neighbours swapped; see ``UNITS``), so action
    classes recur and the first 70 % holds every class; ``sample-like`` runs the procedure once and makes every
    action label unique (one run per label), like the real sample.
    """
    if schedule not in SCHEDULES:
        raise RobotaskError(f"schedule={schedule!r}; expected one of {SCHEDULES}")
    if n_frames < 40:
        raise RobotaskError(f"frames={n_frames}; a synthetic episode needs at least 40 frames")
    want = _target_actions(n_frames, schedule)
    unit_len = np.mean([sum(len(SUBTASKS[x]) for x in u) for u in UNITS])
    k = int(np.clip(round(want / unit_len / 1.7), 2, len(UNITS))) if schedule == "repeating" else len(UNITS)
    procedure = list(UNITS[:k])  # a short episode repeats a shorter procedure
    instances: list[str] = []
    count, rnd = 0, 0
    while count < want:
        order = list(procedure)
        if rnd and schedule == "repeating":  # later rounds: 60 % of the units, two neighbours swapped
            keep = np.sort(rng.choice(len(order), size=max(2, round(0.6 * len(order))), replace=False))
            order = [order[i] for i in keep]
            i = int(rng.integers(0, len(order) - 1))
            order[i], order[i + 1] = order[i + 1], order[i]
        for sub in (x for unit in order for x in unit):
            instances.append(sub)
            count += len(SUBTASKS[sub])
            if count >= want:
                break
        rnd += 1
    plan = [(seg, sub, step) for seg, sub in enumerate(instances) for step in SUBTASKS[sub]][:want]
    weights = np.array([VERBS[step[0]][0] for _, _, step in plan]) * rng.uniform(0.75, 1.25, len(plan))
    bounds = np.round(np.concatenate([[0], np.cumsum(weights)]) / weights.sum() * n_frames).astype(int)
    actions, seen = [], set()
    for j, (seg, sub, (verb, obj, hand, label)) in enumerate(plan):
        if schedule == "sample-like" and label in seen:
            label = f"{label} ({sub.lower()})"
        seen.add(label)
        actions.append(Action(int(bounds[j]), int(bounds[j + 1]) - 1, verb, obj, hand, label, sub, seg))
    return actions


# ------------------------------------------------------------------ geometry helpers
def _rot_z(a: np.ndarray) -> np.ndarray:
    """Rotations (…, 3, 3) about z by angles ``a`` (rad)."""
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([c, -s, z], -1), np.stack([s, c, z], -1), np.stack([z, z, o], -1)], -2)


def _rot_y(a: np.ndarray) -> np.ndarray:
    """Rotations (…, 3, 3) about y by angles ``a`` (rad)."""
    c, s, z, o = np.cos(a), np.sin(a), np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([c, z, s], -1), np.stack([z, o, z], -1), np.stack([-s, z, c], -1)], -2)


def _rot_x(a: np.ndarray) -> np.ndarray:
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


def _smooth_noise(rng: np.random.Generator, shape: tuple, sigma: float, scale: float) -> np.ndarray:
    """Gaussian-filtered white noise along axis 0, std ≈ ``scale``."""
    x = gaussian_filter1d(rng.normal(size=shape), sigma, axis=0)
    return x / (x.std() + 1e-12) * scale


# ------------------------------------------------------------------ hands, objects, body
REST = np.array([[0.30, 0.24, TABLE_Z + 0.10], [0.30, -0.24, TABLE_Z + 0.10]])  # left, right wrist
SHOULDER = np.array([[-0.02, 0.18, FLOOR_Z + 1.40], [-0.02, -0.18, FLOOR_Z + 1.40]])


def _home(obj: str) -> np.ndarray:
    """Resting centre of an object on the table (world)."""
    x, y, r, _ = OBJECTS[obj]
    return np.array([x, y, TABLE_Z + r])


def _grip_offset(obj: str) -> np.ndarray:
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


def simulate(actions: list[Action], n: int, rng: np.random.Generator) -> Motion:
    """Hand keyframes per action, min-jerk interpolation + action primitives, carried objects."""
    wrist = np.repeat(REST[:, None, :], n, 1).copy()
    grip = np.zeros((2, n))
    roll = np.zeros((2, n))
    contact = np.zeros((2, n))
    objects = np.repeat(np.stack([_home(o) for o in OBJECT_NAMES])[None], n, 0)
    liquid = np.zeros((n, 4))
    act_idx = np.zeros(n, dtype=np.int64)
    cur = REST.copy()
    cur_grip = np.zeros(2)
    held: list[str | None] = [None, None]
    home = {o: _home(o) for o in OBJECT_NAMES}
    for ai, a in enumerate(actions):
        s, e = a.start, a.end + 1
        act_idx[s:e] = ai
        L = e - s
        tau = (np.arange(L) + 1) / L
        env = np.sin(np.pi * tau)
        h = a.hand
        a.held = held[h] or ""
        tgt = home[a.obj] if a.obj in home else cur[h]
        end = cur[h].copy()
        g_end = cur_grip[h]
        osc = np.zeros((L, 3))
        rl = np.zeros(L)
        touch = np.zeros(L)
        if a.verb == "reach":
            end, g_end = tgt - _grip_offset(a.obj) - np.array([0.06, 0, -0.03]), 0.2
        elif a.verb == "grasp":
            end, g_end = tgt - _grip_offset(a.obj), 1.0
            touch[tau > 0.6] = 1
        elif a.verb == "lift":
            end = above(cur[h], 0.15)
            touch[:] = 1
        elif a.verb == "pour":
            end = home["cup"] - (_grip_offset(held[h]) if held[h] else 0) + np.array([0.0, -0.10 if h else 0.10, 0.20])
            rl = (1.3 if h else -1.3) * np.sin(np.pi * np.clip((tau - 0.15) / 0.7, 0, 1)) ** 2
            touch[:] = 1
        elif a.verb == "place":
            end, g_end = home[a.obj] - _grip_offset(a.obj), 0.0
            touch[tau < 0.9] = 1
        elif a.verb in ("open", "close"):
            end, g_end = above(home[a.obj], OBJECTS[a.obj][2] + 0.04), 0.8
            if held[1 - h] == a.obj:
                end = above(objects[s - 1 if s else 0, OBJECT_NAMES.index(a.obj)], OBJECTS[a.obj][2] + 0.04)
            rl = 0.7 * np.sin(2 * np.pi * 1.2 * tau * L / fmt.FPS) * env * (1 if a.verb == "open" else -1)
            touch[(tau > 0.2) & (tau < 0.9)] = 1
        elif a.verb == "press":
            end, g_end = above(home[a.obj], OBJECTS[a.obj][2] + 0.05), 0.5
            pulse = np.clip(np.sin(2 * np.pi * 2 * tau), 0, None) * (tau > 0.35)
            osc[:, 2] = -0.04 * pulse
            touch[pulse > 0.6] = 1
        elif a.verb == "wipe":
            end = np.array([0.55, -0.15, TABLE_Z + 0.04])
            osc[:, 1] = 0.14 * np.sin(2 * np.pi * 0.9 * tau * L / fmt.FPS) * env
            touch[:] = 1
        elif a.verb == "stir":
            end = above(home["cup"], 0.10) - np.array([0.06, 0, 0])
            ph = 2 * np.pi * 1.4 * tau * L / fmt.FPS
            osc[:, 0], osc[:, 1] = 0.025 * np.cos(ph) * env, 0.025 * np.sin(ph) * env
            touch[:] = 1
        elif a.verb == "scoop":
            end = above(home[a.obj], 0.12) - np.array([0.05, 0, 0])
            osc[:, 2] = -0.06 * np.abs(np.sin(2 * np.pi * 0.8 * tau * L / fmt.FPS)) * env
            touch[:] = 1
        elif a.verb == "hold":
            end = cur[h].copy()
            touch[:] = 1 if held[h] else 0
        mj = _min_jerk(np.clip(tau / 0.8, 0, 1))[:, None]
        wrist[h, s:e] = cur[h] + (end - cur[h]) * mj + osc
        grip[h, s:e] = cur_grip[h] + (g_end - cur_grip[h]) * mj[:, 0]
        roll[h, s:e] = rl
        contact[h, s:e] = np.maximum(touch, 1.0 if held[h] and a.verb != "place" else 0.0)
        # the other hand: keep holding, else drift to rest
        o = 1 - h
        o_end = cur[o] if held[o] else REST[o]
        wrist[o, s:e] = cur[o] + (o_end - cur[o]) * mj
        grip[o, s:e] = cur_grip[o]
        contact[o, s:e] = 1.0 if held[o] else 0.0
        cur[o] = o_end
        if a.verb == "grasp":
            held[h] = a.obj
        cur[h], cur_grip[h] = end, g_end
        for hh in (0, 1):
            if held[hh]:
                oi = OBJECT_NAMES.index(held[hh])
                objects[s:e, oi] = wrist[hh, s:e] + _grip_offset(held[hh])
        if a.verb == "place" and held[h] == a.obj:
            held[h] = None
        if a.verb == "pour":
            src = held[h]
            mid = (tau > 0.35) & (tau < 0.75)
            if src:
                p = 0.5 * (objects[s:e, OBJECT_NAMES.index(src)] + home["cup"])
                liquid[s:e][mid] = np.c_[p[mid], np.full(mid.sum(), 0.02)]
    wrist += _smooth_noise(rng, (n, 2, 3), 3.0, 0.004).transpose(1, 0, 2)
    return Motion(wrist, np.clip(grip, 0, 1), roll, contact, objects, liquid, act_idx)


# MANO joint layout: wrist, then thumb/index/middle/ring/pinky × 4 (tip last)
_FINGER_BASE = np.array([[0.030, 0.035, -0.015], [0.090, 0.025, 0.0], [0.095, 0.005, 0.0],
                         [0.090, -0.015, 0.0], [0.080, -0.032, 0.0]])
_SEG = np.array([[0.035, 0.030, 0.025], [0.040, 0.025, 0.020], [0.045, 0.028, 0.022],
                 [0.042, 0.026, 0.020], [0.033, 0.020, 0.018]])


def hand_joints(wrist: np.ndarray, grip: np.ndarray, roll: np.ndarray, side: int) -> np.ndarray:
    """21 MANO-ordered joints (N, 21, 3) in world from wrist position, grip closure and roll."""
    n = len(wrist)
    base = _FINGER_BASE.copy()
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
            p = p + _SEG[fi, j] * d
            local[:, 2 + 4 * fi + j] = p
    sh = SHOULDER[side]
    yaw = np.arctan2(wrist[:, 1] - sh[1], wrist[:, 0] - sh[0])
    R = _rot_z(yaw) @ _rot_y(np.full(n, 0.35)) @ _rot_x(roll)
    return wrist[:, None, :] + np.einsum("nij,nkj->nki", R, local)


def body_keypoints(wrists: np.ndarray, hands: np.ndarray, head: np.ndarray) -> np.ndarray:
    """SMPL-H 52 joints (N, 52, 3) in world: standing legs, spine leaning with the head, IK arms."""
    n = head.shape[0]
    nominal_head = np.array([-0.02, 0.0, FLOOR_Z + 1.60])
    lean = head - nominal_head
    F = FLOOR_Z
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


# ------------------------------------------------------------------ cameras
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
    R_bc = (_rot_y(np.array(np.deg2rad(yaw_deg))) @ _rot_x(np.array(np.deg2rad(-pitch_deg))))
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


# ------------------------------------------------------------------ renderer
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


def scene_spheres(motion: Motion, hands_world: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """World centres (N, S, 3), radii (S,) or per frame (N, S), and colours (S, 3) of every sphere."""
    n = motion.objects.shape[0]
    palm = [hands_world[h][:, [0, 5, 9, 13, 17]].mean(1) for h in (0, 1)]
    fingers = [hands_world[h][:, [7, 11, 15, 19]].mean(1) for h in (0, 1)]
    centres = np.concatenate([motion.objects, np.stack(palm + fingers, 1), motion.liquid[:, None, :3]], 1)
    radii = np.concatenate([np.repeat([[OBJECTS[o][2] for o in OBJECT_NAMES]], n, 0),
                            np.full((n, 2), 0.045), np.full((n, 2), 0.03), motion.liquid[:, 3:4]], 1)
    colours = np.concatenate([np.array([OBJECTS[o][3] for o in OBJECT_NAMES]), np.repeat(SKIN[None], 4, 0),
                              LIQUID_RGB[None]], 0)
    return centres, radii, colours


def render_chunk(cam: CameraModel, R_wc: np.ndarray, t_wc: np.ndarray, centres: np.ndarray, radii: np.ndarray,
                 colours: np.ndarray, tint: np.ndarray, rays: tuple[np.ndarray, np.ndarray], size: int,
                 with_depth: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """Render c frames of one camera: RGB uint8 (c, size, size, 3) and optionally depth (c, size, size).

    The room and table are ray-cast at ``rays`` resolution (upsampled to ``size``); spheres are
    painted at ``size``. Depth, when asked for, is the z of the hit point in the camera frame.
    """
    dirs, ok = rays
    bg_size = int(round(np.sqrt(dirs.shape[1])))
    c = len(R_wc)
    d = np.einsum("cij,jp->cip", R_wc.astype(np.float32), dirs.astype(np.float32))
    rgb, t = _background(t_wc.astype(np.float32), d, tint.astype(np.float32))
    rgb[:, ~ok] = 0.0
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


# ------------------------------------------------------------------ camera, IMU, point cloud
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


def camera_trajectory(motion: Motion, actions: list[Action], n: int, rng: np.random.Generator) -> Trajectory:
    """A head camera looking at the active hand/object; IMU = specific force + angular rate at 200 Hz."""
    frames = np.arange(n)
    hand = np.array([actions[i].hand for i in motion.action_index])
    obj = np.array([OBJECT_NAMES.index(actions[i].obj) for i in motion.action_index])
    focus = 0.5 * motion.wrist[hand, frames] + 0.5 * motion.objects[frames, obj]
    focus = gaussian_filter1d(focus, 10, axis=0, mode="nearest")
    cam_nom = np.array([0.06, 0.0, FLOOR_Z + 1.63])
    lean = 0.10 * (focus - cam_nom) * np.array([1.0, 1.0, 0.3])
    pos = cam_nom + lean + _smooth_noise(rng, (n, 3), 12.0, 0.006)
    focus = focus + _smooth_noise(rng, (n, 3), 6.0, 0.01)
    k = fmt.IMU_PER_FRAME
    m = n * k
    t_f, t_i = frames / fmt.FPS, np.arange(m) / fmt.IMU_RATE
    pos_i, focus_i = CubicSpline(t_f, pos)(t_i), CubicSpline(t_f, focus)(t_i)
    R_c2w_i = look_at(pos_i, focus_i)
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


def point_cloud(rng: np.random.Generator, n_points: int = 4200) -> np.ndarray:
    """A sparse SLAM-like map: table, floor, walls, object surfaces and a few outliers (world, metres)."""
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
    parts.append(np.stack([_home(OBJECT_NAMES[i]) for i in names]) +
                 dirs * np.array([OBJECTS[OBJECT_NAMES[i]][2] for i in names])[:, None])
    parts.append(rng.uniform(-4.0, 4.0, (n_points // 40, 3)))
    pts = np.concatenate(parts) + rng.normal(0, 0.01, (n_points, 3))
    return pts[rng.permutation(len(pts))]


# ------------------------------------------------------------------ audio
def _band_noise(rng: np.random.Generator, n: int, lo: float, hi: float, sr: int) -> np.ndarray:
    """Unit-std noise band-limited to [lo, hi] Hz."""
    if n <= 0:
        return np.zeros(0)
    sos = butter(4, [lo, min(hi, sr / 2 - 1)], btype="band", fs=sr, output="sos")
    x = sosfilt(sos, rng.normal(size=n + 512))[512:]
    return x / (x.std() + 1e-12)


def _click(sr: int, freq: float = 3000.0, ms: float = 25.0) -> np.ndarray:
    """A short damped sinusoid (contact click)."""
    t = np.arange(int(sr * ms / 1000)) / sr
    return np.sin(2 * np.pi * freq * t) * np.exp(-t / (ms / 5000))


def synth_audio(actions: list[Action], motion: Motion, n: int, rng: np.random.Generator,
                sr: int = fmt.AUDIO_RATE) -> np.ndarray:
    """Mono track of ``n / 20`` s: room tone, per-verb sounds, and a click at every hand-contact onset."""
    L = int(round(n / fmt.FPS * sr))
    t = np.arange(L) / sr
    x = 0.002 * rng.normal(size=L) + 0.0015 * np.sin(2 * np.pi * 100 * t)
    spf = sr / fmt.FPS
    for a in actions:
        s0, s1 = int(a.start * spf), min(L, int((a.end + 1) * spf))
        seg = s1 - s0
        if seg <= 0:
            continue
        tau = (np.arange(seg) + 0.5) / seg
        kind = VERBS[a.verb][3]
        if kind == "pour":
            env = np.clip(np.sin(np.pi * np.clip((tau - 0.3) / 0.5, 0, 1)), 0, None)
            x[s0:s1] += 0.05 * env * _band_noise(rng, seg, 700, 3500, sr)
        elif kind in ("twist", "twist_click"):
            rate = np.abs(np.gradient(np.interp(np.arange(seg) / spf + a.start, np.arange(n), motion.roll[a.hand])))
            x[s0:s1] += 0.03 * rate / (rate.max() + 1e-9) * _band_noise(rng, seg, 2000, 6000, sr)
        elif kind == "wipe":
            vy = np.abs(np.gradient(np.interp(np.arange(seg) / spf + a.start, np.arange(n), motion.wrist[a.hand, :, 1])))
            x[s0:s1] += 0.04 * vy / (vy.max() + 1e-9) * _band_noise(rng, seg, 1500, 7000, sr)
        elif kind == "scrape":
            x[s0:s1] += 0.025 * np.sin(np.pi * tau) * _band_noise(rng, seg, 250, 1200, sr)
        elif kind == "boil":
            x[s0:s1] += (0.01 + 0.04 * tau) * _band_noise(rng, seg, 60, 400, sr)
        elif kind == "stir":
            period = int(sr / 1.4)
            for c0 in range(s0 + period // 4, s1 - 400, period):
                clink = 0.08 * _click(sr, 5200.0, 30.0)
                x[c0:c0 + len(clink)] += clink[: L - c0]
    click = 0.25 * _click(sr)
    for h in (0, 1):
        onsets = np.flatnonzero(np.diff(motion.hand_contact[h]) > 0.5) + 1
        for f_ in onsets:
            c0 = int(f_ * spf)
            x[c0:c0 + len(click)] += click[: max(0, L - c0)]
    return np.clip(x, -1, 1).astype(np.float32)


# ------------------------------------------------------------------ captions
def visible_objects(traj: Trajectory, motion: Motion) -> np.ndarray:
    """(N, n_obj) bool: object centre within 1.3 m of the stereo-left camera and 20° of its optical axis."""
    pc = np.einsum("nji,nsj->nsi", traj.R_c2w, motion.objects - traj.t_c2w[:, None, :])
    dist = np.linalg.norm(pc, axis=-1)
    return (dist < 1.3) & (pc[..., 2] > np.cos(np.deg2rad(20)) * dist)


def caption_document(actions: list[Action], names: list[str], visible: np.ndarray, every: int = 40) -> dict:
    """The caption JSON (spec §1.5) with exact frame-name references."""
    segments = []
    for seg in sorted({a.segment for a in actions}):
        acts = [a for a in actions if a.segment == seg]
        s0, s1 = acts[0].start, acts[-1].end
        sampled = list(range(s0, s1 + 1, every))
        objects, inter = {}, {}
        for i in sampled:
            a = next(x for x in acts if x.start <= i <= x.end)
            objs = [OBJECT_NAMES[j] for j in np.flatnonzero(visible[i])]
            for extra in (a.obj, a.held):
                if extra and extra not in objs:
                    objs.append(extra)
            objects[names[i]] = objs
            inter[names[i]] = a.description
        segments.append({
            "segment_id": seg, "start_frame": names[s0], "end_frame": names[s1], "Sub Task": acts[0].subtask,
            "Current Action": [{"label": a.label, "description": a.description, "start_frame": names[a.start],
                                "end_frame": names[a.end]} for a in acts],
            "sampled_frames": {f"Image {k + 1}": names[i] for k, i in enumerate(sampled)},
            "objects": objects, "interaction": inter,
            "api_call_start": "", "api_call_end": "", "tokens_in": 0, "tokens_out": 0,
        })
    summary = "; ".join(dict.fromkeys(a.subtask for a in actions))
    return {"config": {"Main Task": MAIN_TASK, "segment_sec": 20, "sample_fps": 0.5, "total_tokens": 0},
            "segments": segments, "global_summary": f"Synthetic coffee making: {summary}."}


# ------------------------------------------------------------------ writing
VERB_TINT = {v: 1.0 + 0.08 * np.array([np.cos(2.1 * i), np.cos(2.1 * i + 2.1), np.cos(2.1 * i + 4.2)])
             for i, v in enumerate(VERB_NAMES)}


def _write_group(group: h5py.Group, values: dict) -> None:
    """Write nested dicts of arrays, floats and strings (strings as fixed-length bytes)."""
    for key, value in values.items():
        if isinstance(value, dict):
            _write_group(group.create_group(key), value)
        elif isinstance(value, str):
            group.create_dataset(key, data=np.bytes_(value.encode("utf-8")))
        else:
            group.create_dataset(key, data=np.asarray(value, dtype=np.float64))


def _write_annotation(f: h5py.File, *, names: list[str], ts: np.ndarray, traj: Trajectory, calib: dict,
                      cloud: np.ndarray, hands_cam: np.ndarray, body: np.ndarray, contacts: np.ndarray,
                      caption: dict, depth_hw: tuple[int, int], meta: dict) -> None:
    """All annotation datasets except the depth frames (created empty, filled while rendering)."""
    n = len(names)
    _write_group(f.create_group(fmt.CALIBRATION), calib)
    R_bw = np.transpose(traj.R_wb, (0, 2, 1))
    f.create_dataset(fmt.SLAM_QUAT, data=matrix_to_quat_wxyz(R_bw))
    f.create_dataset(fmt.SLAM_TRANS, data=-np.einsum("nij,nj->ni", R_bw, traj.p_b))
    f.create_dataset(fmt.SLAM_NAMES, data=np.array([s.encode() for s in names], dtype=f"S{max(map(len, names))}"))
    f.create_dataset(fmt.SLAM_CLOUD, data=cloud.astype(np.float32))
    h, w = depth_hw
    chunk = (min(16, n), h, w)
    f.create_dataset(fmt.DEPTH, shape=(n, h, w), dtype=np.float32, chunks=chunk)
    f.create_dataset(fmt.DEPTH_CONF, shape=(n, h, w), dtype=np.uint8, chunks=chunk)
    f.create_dataset(fmt.DEPTH_SCALE_KEY, data=np.float64(fmt.DEPTH_SCALE))
    f.create_dataset(fmt.DEPTH_MIN, data=np.float64(0.0))
    f.create_dataset(fmt.DEPTH_MAX, data=np.float64(4.0))
    f.create_dataset(fmt.LEFT_JOINTS, data=hands_cam[0].astype(np.float32))
    f.create_dataset(fmt.RIGHT_JOINTS, data=hands_cam[1].astype(np.float32))
    f.create_dataset(fmt.BODY_KEYPOINTS, data=body.astype(np.float32))
    f.create_dataset(fmt.BODY_CONTACTS, data=contacts.astype(np.float32))
    m = len(traj.accel)
    f.create_dataset(fmt.IMU_TS, data=ts[0] + np.arange(m, dtype=np.int64) * (fmt.FRAME_NS // fmt.IMU_PER_FRAME))
    f.create_dataset(fmt.IMU_ACCEL, data=traj.accel)
    f.create_dataset(fmt.IMU_GYRO, data=traj.gyro)
    f.create_dataset(fmt.IMU_KEYFRAMES, data=np.arange(n, dtype=np.int64) * fmt.IMU_PER_FRAME)
    f.create_dataset(fmt.VIDEO_TS, data=ts)
    f.create_dataset(fmt.VIDEO_FRAME_NUMBER, data=np.arange(n, dtype=np.int64))
    f.create_dataset(fmt.VIDEO_LENGTH, data=np.float64(n / fmt.FPS))
    g = f.create_group(fmt.METADATA)
    for key, value in meta.items():
        g.create_dataset(key, data=np.bytes_(value.encode()) if isinstance(value, str) else value)
    f.create_dataset("caption", data=json.dumps(caption), dtype=h5py.string_dtype("utf-8"))


def _contacts(motion: Motion, n: int, rng: np.random.Generator) -> np.ndarray:
    """Contact scores (N, 21): feet on the floor, wrists in contact while touching objects, 0 elsewhere."""
    c = np.zeros((n, fmt.N_CONTACTS))
    c[:, list(fmt.FOOT_CONTACT_CHANNELS)] = 1.0
    c[:, fmt.HAND_CONTACT_CHANNELS[0]] = motion.hand_contact[0]
    c[:, fmt.HAND_CONTACT_CHANNELS[1]] = motion.hand_contact[1]
    # finger-joint channels do not exist among the 21 body channels; elbows lean on nothing
    return np.clip(c + rng.normal(0, 1e-4, c.shape) * (c > 0), 0, 1)


def generate_episode(out: str | Path, frames: int = 5821, seed: int = 0, resolution: int = 128,
                     schedule: str = "repeating", chunk: int | None = None, progress: bool = False) -> Path:
    """Write a synthetic episode folder (``annotation.hdf5`` + six MP4s) and return its path.

    Parameters
    ----------
    out : folder to create (must not exist or be empty).
    frames : annotation frames N (20 fps).
    seed : seed of every random choice.
    resolution : video size (square, even); depth is stored at half of it (scale 0.5).
    schedule : ``"repeating"`` or ``"sample-like"`` (see ``build_script``).
    chunk : frames rendered per step (bounds memory); default 64 at 128 px, fewer at larger sizes.
    progress : show a tqdm bar.
    """
    if resolution < 16 or resolution % 4:
        raise RobotaskError(f"resolution={resolution}; expected a multiple of 4, at least 16")
    chunk = int(chunk or np.clip(64 * (128 / resolution) ** 2, 16, 64))
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise RobotaskError(f"{out}: output folder exists and is not empty")
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    n = int(frames)
    actions = build_script(n, rng, schedule)
    motion = simulate(actions, n, rng)
    traj = camera_trajectory(motion, actions, n, rng)
    hands_w = np.stack([hand_joints(motion.wrist[h], motion.grip[h], motion.roll[h], h) for h in (0, 1)])
    hands_c = np.einsum("nji,hnkj->hnki", traj.R_c2w, hands_w - traj.t_c2w[None, :, None, :])
    body = body_keypoints(motion.wrist, hands_w, traj.head)
    ts = fmt.T0_NS + np.arange(n, dtype=np.int64) * fmt.FRAME_NS
    names = [fmt.frame_name(t) for t in ts]
    calib, cams = calibration(resolution)
    caption = caption_document(actions, names, visible_objects(traj, motion))
    audio = synth_audio(actions, motion, n, rng)
    bg = resolution // 2  # depth is stored at half the stereo resolution
    meta = {"synthetic": f"robotask synthetic episode (generator {GENERATOR_VERSION}); not real data",
            "generator_version": GENERATOR_VERSION, "seed": np.int64(seed), "schedule": schedule,
            "ground_height": np.float64(FLOOR_Z), "fps": np.float64(fmt.FPS)}
    centres, radii, colours = scene_spheres(motion, hands_w)
    tints = np.stack([VERB_TINT[actions[i].verb] for i in motion.action_index])
    scene = (centres, radii, colours, tints)
    with h5py.File(out / fmt.ANNOTATION, "w") as f:
        _write_annotation(f, names=names, ts=ts, traj=traj, calib=calib, cloud=point_cloud(rng),
                          hands_cam=hands_c, body=body, contacts=_contacts(motion, n, rng), caption=caption,
                          depth_hw=(bg, bg), meta=meta)
        jobs = [(cam, out, traj, scene, audio if cam.name == fmt.AUDIO_STREAM else None,
                 f if cam.name == "stereo_left" else None, chunk, seed) for cam in cams]
        with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
            done = pool.map(_render_camera, jobs)
            if progress:
                from robotask.progress import tqdm
                done = tqdm(done, total=len(jobs), desc="synth videos", unit="camera")
            list(done)
    return out


def _render_camera(job: tuple) -> str:
    """Render one camera chunk by chunk into its MP4 (plus audio for cam0, depth for stereo-left)."""
    cam, out, traj, (centres, radii, colours, tints), audio, h5, chunk, seed = job
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
                                  with_depth=is_depth)
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


# ------------------------------------------------------------------ cache and CLI
def episode_key(frames: int, seed: int, resolution: int, schedule: str) -> str:
    """Cache folder name of a synthetic episode: readable prefix + hash of every argument and the version."""
    args = {"frames": int(frames), "seed": int(seed), "resolution": int(resolution), "schedule": schedule,
            "version": GENERATOR_VERSION}
    h = hashlib.sha256(json.dumps(args, sort_keys=True).encode()).hexdigest()[:10]
    return f"synth-{schedule}-n{frames}-s{seed}-r{resolution}-{h}"


def ensure_episode(frames: int = 5821, seed: int = 0, resolution: int = 128, schedule: str = "repeating",
                   progress: bool = False) -> Path:
    """Path of the cached synthetic episode for these arguments, generating it (atomically) if needed."""
    if schedule not in SCHEDULES:
        raise RobotaskError(f"schedule={schedule!r}; expected one of {SCHEDULES}")
    root = paths.cache_dir() / "episodes"
    final = root / episode_key(frames, seed, resolution, schedule)
    if (final / fmt.ANNOTATION).is_file():
        return final
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=root))
    try:
        generate_episode(tmp, frames=frames, seed=seed, resolution=resolution, schedule=schedule, progress=progress)
        try:
            os.replace(tmp, final)
        except OSError:
            if not (final / fmt.ANNOTATION).is_file():  # someone else's half-built folder: replace it
                shutil.rmtree(final, ignore_errors=True)
                os.replace(tmp, final)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def register_cli(subparsers) -> None:
    """Add ``robotask synth --out DIR [--frames] [--seed] [--resolution] [--schedule]``."""
    p = subparsers.add_parser("synth", help="write a synthetic episode in the Xperience-10M format")
    p.add_argument("--out", required=True, help="output folder (must not exist or be empty)")
    p.add_argument("--frames", type=int, default=5821, help="annotation frames at 20 fps")
    p.add_argument("--seed", type=int, default=0, help="random seed")
    p.add_argument("--resolution", type=int, default=128, help="video size in pixels (depth at half)")
    p.add_argument("--schedule", choices=SCHEDULES, default="repeating", help="action schedule")
    p.set_defaults(func=_cli)


def _cli(args) -> int:
    """Handler of ``robotask synth``."""
    out = generate_episode(args.out, frames=args.frames, seed=args.seed, resolution=args.resolution,
                           schedule=args.schedule, progress=True)
    print(f"wrote {out}")
    return 0
