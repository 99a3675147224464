"""Synthetic kitchen episode in the exact Xperience-10M on-disk format (spec §2.2–2.3).

A scripted coffee-making procedure (``script``: subtasks of actions from a shared verb vocabulary
acting on objects in a small 3-D scene) drives every modality consistently: hand motion primitives,
a body that supports the hands, hand and foot contacts (``motion``), a head camera that looks at the
active object and the IMU of that trajectory (``camera``), six rendered videos and depth with
confidence (``render``), action-tied audio (``audio``) and the caption JSON. ``ensure_episode``
caches episodes under ``paths.cache_dir()/episodes`` (``robotask.cache``).
Used by notebooks ``10_episode``, ``11_windows_features`` and ``12_task``; CLI ``robotask synth``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

import h5py
import numpy as np

from ... import paths
from ...cache import Cache, content_key
from ...errors import RobotaskError
from ...parameters import SEED, option
from ...progress import tqdm
from ..files import format as fmt
from ..files.media import VideoWriter
from ..parameters import RANGES
from .audio import synth_audio
from .camera import Trajectory, calibration, camera_trajectory, point_cloud, visible_objects
from .motion import body_keypoints, contact_scores, hand_joints, matrix_to_quat_wxyz, simulate
from .render import VERB_TINT, audio_packets, render_camera, scene_spheres
from .script import FLOOR_Z, SCHEDULES, Variation, build_script, caption_document

GENERATOR_VERSION = "3"
EPISODE_CACHE = Cache("episodes")


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


def _variation_parts(variation: Variation | None) -> tuple[Variation | None, Variation, dict | None]:
    """(the variation or None when it changes nothing, the variation to read factors from, object homes or None)."""
    var = variation if variation is not None and not variation.is_default else None
    return var, var or Variation(), var.homes() if var is not None else None


def generate_episode(out: str | Path, frames: int = 5821, seed: int = 0, resolution: int = 128,
                     schedule: str = "repeating", chunk: int | None = None, progress: bool = False,
                     variation: Variation | None = None, threads: int = 2) -> Path:
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
    variation : how the episode departs from the default (subject, scene, script, camera; see
        ``script.Variation``); None or the default Variation writes today's episode byte for byte.
    threads : cameras rendered at once (1 inside a process pool). With two or more, the cameras start
        while this thread makes the audio (and encodes it) and the annotation file (the depth camera
        keeps its depth until the file exists). The bytes are the same either way.
    """
    if resolution < 16 or resolution % 4:
        raise RobotaskError(f"resolution={resolution}; expected a multiple of 4, at least 16")
    chunk = int(chunk or np.clip(64 * (128 / resolution) ** 2, 16, 64))
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise RobotaskError(f"{out}: output folder exists and is not empty")
    out.mkdir(parents=True, exist_ok=True)
    var, v, homes = _variation_parts(variation)
    rng = np.random.default_rng(seed)
    n = int(frames)
    actions, motion, traj, hands_w, scene = _simulate(n, rng, schedule, var, v, homes)
    calib, cams = calibration(resolution)
    workers = max(1, min(threads, os.cpu_count() or 1))
    writer = VideoWriter(out / fmt.video_file(fmt.AUDIO_STREAM), resolution, resolution, fmt.FPS,
                         audio_rate=fmt.AUDIO_RATE)  # the audio camera's: its audio is encoded on this thread
    h5 = Future()
    jobs = [(cam, out, traj, scene, writer if cam.name == fmt.AUDIO_STREAM else None,
             h5 if cam.name == "stereo_left" else None, chunk, seed) for cam in sorted(cams, key=_work_first)]
    with _closed_on_error(writer), ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(render_camera, job) for job in jobs] if workers > 1 else []
        try:
            names = [fmt.frame_name(t) for t in fmt.T0_NS + np.arange(n, dtype=np.int64) * fmt.FRAME_NS]
            caption = caption_document(actions, names, visible_objects(traj, motion))
            samples = synth_audio(actions, motion, n, rng)
            with h5py.File(out / fmt.ANNOTATION, "w") as f:
                _write_annotation(f, **_annotation_parts(seed, schedule, var, n, rng, motion, traj, hands_w, v,
                                                         homes),
                                  names=names, calib=calib, caption=caption, depth_hw=(resolution // 2,) * 2)
                h5.set_result(f)
                audio = audio_packets(writer, samples, n, chunk)
                _finish(futures or [pool.submit(render_camera, job) for job in jobs], writer, audio, progress)
        finally:
            if not h5.done():  # stopped early: the depth camera waiting for the file stops too
                h5.set_exception(RobotaskError("episode generation stopped"))
    return out


def _simulate(n: int, rng: np.random.Generator, schedule: str, var: Variation | None, v: Variation,
              homes: dict | None) -> tuple:
    """Script, motion, head trajectory, world hand joints and the rendered scene (spheres, tints, light)."""
    actions = build_script(n, rng, schedule, var)
    motion = simulate(actions, n, rng, homes)
    traj = camera_trajectory(motion, actions, n, rng, v.height, v.mount)
    hands_w = np.stack([hand_joints(motion.wrist[h], motion.grip[h], motion.roll[h], h, v.hand_scale)
                        for h in (0, 1)])
    centres, radii, colours = scene_spheres(motion, hands_w, v.absent)
    tints = np.stack([VERB_TINT[actions[i].verb] for i in motion.action_index])
    scene = (centres, radii, colours, tints) if var is None else (centres, radii, colours, tints, v.light)
    return actions, motion, traj, hands_w, scene


def _finish(futures: list, writer: VideoWriter, audio: list[list], progress: bool) -> None:
    """Wait for the cameras; mux the audio camera's video packets with its audio and close its file."""
    done = (fut.result() for fut in futures)
    for result in tqdm(done, total=len(futures), desc="synth videos", unit="camera") if progress else done:
        if not isinstance(result, str):  # the audio camera's video packets, chunk by chunk
            with writer:
                writer.mux_chunks(result, audio)


@contextmanager
def _closed_on_error(writer: VideoWriter) -> Iterator[None]:
    """Close the writer's file if generation stops with an error (after the cameras have stopped)."""
    try:
        yield
    except BaseException:
        writer.container.close()
        raise


def _work_first(cam) -> int:
    """Sort key of the cameras, most work first: the depth camera, the other stereo camera, the audio camera."""
    return {"stereo_left": 0, "stereo_right": 1, fmt.AUDIO_STREAM: 2}.get(cam.name, 3)


def _annotation_parts(seed: int, schedule: str, var: Variation | None, n: int, rng: np.random.Generator,
                      motion, traj: Trajectory, hands_w: np.ndarray, v: Variation, homes: dict | None) -> dict:
    """The annotation arrays still to make after the audio, in the order they draw from ``rng``."""
    hands_c = np.einsum("nji,hnkj->hnki", traj.R_c2w, hands_w - traj.t_c2w[None, :, None, :])
    meta = {"synthetic": f"robotask synthetic episode (generator {GENERATOR_VERSION}); not real data",
            "generator_version": GENERATOR_VERSION, "seed": np.int64(seed), "schedule": schedule,
            "ground_height": np.float64(FLOOR_Z), "fps": np.float64(fmt.FPS)}
    meta.update({"variation": json.dumps(asdict(var), sort_keys=True)} if var is not None else {})
    return {"ts": fmt.T0_NS + np.arange(n, dtype=np.int64) * fmt.FRAME_NS, "traj": traj,
            "cloud": point_cloud(rng, homes=homes), "hands_cam": hands_c,
            "body": body_keypoints(motion.wrist, hands_w, traj.head, v.height),
            "contacts": contact_scores(motion, n, rng), "meta": meta}


def episode_key(frames: int, seed: int, resolution: int, schedule: str) -> str:
    """Cache entry name of a synthetic episode: readable prefix + hash of every argument and the version."""
    args = {"frames": int(frames), "seed": int(seed), "resolution": int(resolution), "schedule": schedule,
            "version": GENERATOR_VERSION}
    return f"synth-{schedule}-n{frames}-s{seed}-r{resolution}-{content_key(args, length=10)}"


def ensure_episode(frames: int = 5821, seed: int = 0, resolution: int = 128, schedule: str = "repeating",
                   progress: bool = False) -> Path:
    """Path of the cached synthetic episode for these arguments, generating it (atomically) if needed."""
    if schedule not in SCHEDULES:
        raise RobotaskError(f"schedule={schedule!r}; expected one of {SCHEDULES}")
    return EPISODE_CACHE.folder(
        episode_key(frames, seed, resolution, schedule),
        lambda tmp: generate_episode(tmp, frames=frames, seed=seed, resolution=resolution, schedule=schedule,
                                     progress=progress),
        marker=fmt.ANNOTATION)


def register_cli(subparsers) -> None:
    """Add ``robotask synth --out DIR [--frames] [--seed] [--resolution] [--schedule]``."""
    p = subparsers.add_parser("synth", help="write a synthetic episode in the Xperience-10M format")
    p.add_argument("--out", required=True, type=paths.from_caller, help="output folder (must not exist or be empty)")
    p.add_argument("--frames", type=option(RANGES["frames"]), default=5821,
                   help="annotation frames at 20 fps (default: %(default)s, the real sample's length)")
    p.add_argument("--seed", type=option(SEED), default=0, help="random seed (default: %(default)s)")
    p.add_argument("--resolution", type=option(RANGES["resolution"]), default=128,
                   help="video size in pixels, depth at half (default: %(default)s)")
    p.add_argument("--schedule", choices=SCHEDULES, default="repeating",
                   help="action schedule: repeating or sample-like (default: %(default)s)")
    p.set_defaults(func=_cli)


def _cli(args) -> int:
    """Handler of ``robotask synth``."""
    out = generate_episode(args.out, frames=args.frames, seed=args.seed, resolution=args.resolution,
                           schedule=args.schedule, progress=True)
    print(f"wrote {out}")
    return 0
