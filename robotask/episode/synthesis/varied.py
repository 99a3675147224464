"""Synthetic episode collections: many episodes that differ in controlled, documented ways.

Every episode of a collection is the default synthetic episode (``synth.generate_episode``) under a
``script.Variation`` drawn from ``(seed, index)`` alone, so episode 7 is the same bytes whether it is
generated alone or within a collection of any size. What varies, and how:

- **subject** (one of ``N_SUBJECTS`` per collection seed): hand size ×0.85–1.15, body height
  −0.12…+0.12 m, movement speed ×0.8–1.25 (more, shorter actions);
- **scene** (one of ``N_SCENES``): up to two of the optional objects are absent, every object's home
  moves by up to ±6 cm;
- subject and scene are **crossed**, not drawn (:func:`subject_scene`): episode ``i`` has subject
  ``i mod 8`` and scene ``(subject + i div 8) mod 4``, so every run of 8 episodes has every subject once,
  every scene twice, and 32 episodes fill each subject × scene cell once (48: once or twice, every
  subject in every scene). No subject is tied to a scene, so holding out one never holds out the other;
- **script**: a random subset (at least four) of the procedure units whose objects are on the table,
  in a shuffled order; action durations are drawn as in every episode;
- **camera**: the head rig sits turned by up to ±4° yaw and ±6° pitch, and the lighting gain is
  0.75–1.2.

All episodes share one label vocabulary (``script.SUBTASKS``), each uses a subset of it.
``robotask synth-collection`` writes the episodes (in parallel processes) and ``manifest.csv`` with
the factors of every episode.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ... import paths
from ...errors import RobotaskError
from ...io import output_lock, write_csv
from ...parameters import PROCESSES, SEED, option
from ...progress import tqdm
from ..parameters import RANGES
from .generate import generate_episode
from .script import OBJECT_NAMES, SUBTASKS, UNITS, Variation

N_SUBJECTS = 8
N_SCENES = 4
OPTIONAL_OBJECTS = ("cloth", "milk bottle", "coffee machine", "kettle")  # may be absent from a scene
MIN_UNITS = 4
MANIFEST = "manifest.csv"


def _rng(seed: int, *path: int) -> np.random.Generator:
    """A generator keyed on the collection seed and a path of integers (independent streams)."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), *map(int, path)]))


def unit_objects(unit: tuple[str, ...]) -> set[str]:
    """Objects a procedure unit touches (every pour also aims at the cup)."""
    objs = {obj for sub in unit for _, obj, _, _ in SUBTASKS[sub]}
    return objs | ({"cup"} if any(v == "pour" for sub in unit for v, _, _, _ in SUBTASKS[sub]) else set())


def subject_factors(seed: int, subject: int) -> dict[str, float]:
    """Hand scale, height (m) and speed of a subject."""
    r = _rng(seed, 1, subject)
    return {"hand_scale": round(float(r.uniform(0.85, 1.15)), 3), "height": round(float(r.uniform(-0.12, 0.12)), 3),
            "speed": round(float(r.uniform(0.8, 1.25)), 3)}


def scene_factors(seed: int, scene: int) -> dict[str, Any]:
    """Absent objects and (x, y) home offsets of a scene (scene 0 keeps every object)."""
    r = _rng(seed, 2, scene)
    k = 0 if scene == 0 else int(r.integers(1, 3))
    absent = tuple(sorted(str(o) for o in r.choice(OPTIONAL_OBJECTS, size=k, replace=False)))
    offsets = tuple((name, round(float(dx), 3), round(float(dy), 3))
                    for name, (dx, dy) in zip(OBJECT_NAMES, r.uniform(-0.06, 0.06, (len(OBJECT_NAMES), 2))))
    return {"absent": absent, "offsets": offsets}


def subject_scene(index: int) -> tuple[int, int]:
    """The crossed design: subject ``index mod N_SUBJECTS``; scene shifted by one per run of subjects."""
    subject = index % N_SUBJECTS
    return subject, (subject + index // N_SUBJECTS) % N_SCENES


def episode_factors(seed: int, index: int) -> dict[str, Any]:
    """Every factor of episode ``index``: subject, scene, units, camera, and the generator seed."""
    if index < 0:
        raise RobotaskError(f"episode index {index}; expected ≥ 0")
    r = _rng(seed, 3, index)
    subject, scene = subject_scene(index)
    sc = scene_factors(seed, scene)
    usable = [i for i, u in enumerate(UNITS) if not unit_objects(u) & set(sc["absent"])]
    k = int(r.integers(min(MIN_UNITS, len(usable)), len(usable) + 1))
    units = tuple(int(i) for i in r.permutation(usable)[:k])
    camera = {"mount": (round(float(r.uniform(-4, 4)), 2), round(float(r.uniform(-6, 6)), 2)),
              "light": round(float(r.uniform(0.75, 1.2)), 3)}
    gen_seed = int(np.random.SeedSequence([int(seed), 4, int(index)]).generate_state(1)[0])
    return {"index": int(index), "subject": f"S{subject}", "scene": f"K{scene}", **subject_factors(seed, subject),
            **sc, "units": units, **camera, "episode_seed": gen_seed}


def variation_of(factors: dict[str, Any]) -> Variation:
    """The ``Variation`` of an episode's factors."""
    return Variation(hand_scale=factors["hand_scale"], height=factors["height"], speed=factors["speed"],
                     absent=tuple(factors["absent"]), offsets=tuple(map(tuple, factors["offsets"])),
                     units=tuple(factors["units"]), mount=tuple(factors["mount"]), light=factors["light"])


def episode_id(index: int) -> str:
    """Folder name and id of episode ``index``."""
    return f"ep{index:04d}"


def generate_collection_episode(out: str | Path, seed: int, index: int, frames: int, resolution: int,
                                threads: int = 2) -> Path:
    """Write episode ``index`` of the collection ``seed`` (deterministic in ``(seed, index)``)."""
    f = episode_factors(seed, index)
    return generate_episode(out, frames=frames, seed=f["episode_seed"], resolution=resolution,
                            variation=variation_of(f), threads=threads)


def manifest_row(factors: dict[str, Any], frames: int, resolution: int) -> dict[str, Any]:
    """One manifest row: id, relative path, and the factors as flat columns."""
    return {"episode_id": episode_id(factors["index"]), "path": episode_id(factors["index"]),
            "subject": factors["subject"], "scene": factors["scene"], "index": factors["index"],
            "hand_scale": factors["hand_scale"], "height": factors["height"], "speed": factors["speed"],
            "absent": "|".join(factors["absent"]), "subtasks": "|".join(s for i in factors["units"] for s in UNITS[i]),
            "mount_yaw": factors["mount"][0], "mount_pitch": factors["mount"][1], "light": factors["light"],
            "frames": int(frames), "resolution": int(resolution), "episode_seed": factors["episode_seed"]}


def _build_one(job: tuple) -> str:
    """Process-pool task: build one episode beside its final folder, then move it into place."""
    root, seed, index, frames, resolution, threads = job
    final = Path(root) / episode_id(index)
    if final.is_dir() and any(final.iterdir()):
        return final.name
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=root))
    try:
        generate_collection_episode(tmp, seed, index, frames, resolution, threads)
        os.replace(tmp, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final.name


def synth_collection(out: str | Path, episodes: int, frames: int = 600, resolution: int = 32, seed: int = 0,
                     workers: int | None = None, progress: bool = False) -> pd.DataFrame:
    """Write ``episodes`` episodes and ``manifest.csv`` under ``out``; return the manifest.

    Episodes are built in ``workers`` processes (default: the CPU count); a folder that already holds
    a complete episode is kept, so an interrupted run resumes.
    """
    if episodes < 1:
        raise RobotaskError(f"--episodes {episodes}; expected at least 1")
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    workers = max(1, min(int(workers or os.cpu_count() or 1), episodes))
    jobs = [(str(root), seed, i, frames, resolution, 1 if workers > 1 else 2) for i in range(episodes)]
    if workers == 1:
        done = map(_build_one, jobs)
        list(tqdm(done, total=episodes, desc="episodes", disable=not progress))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            list(tqdm(pool.map(_build_one, jobs), total=episodes, desc="episodes", disable=not progress))
    manifest = pd.DataFrame([manifest_row(episode_factors(seed, i), frames, resolution) for i in range(episodes)])
    write_csv(root / MANIFEST, manifest)
    return manifest


def register_cli(subparsers: Any) -> None:
    """Add ``robotask synth-collection --out DIR --episodes N [--frames] [--resolution] [--seed] [--workers]``."""
    p = subparsers.add_parser("synth-collection", help="write a collection of varied synthetic episodes")
    p.add_argument("--out", required=True, type=paths.from_caller,
                   help="collection folder (episodes ep0000 … and manifest.csv)")
    p.add_argument("--episodes", type=option(RANGES["n_episodes"]), required=True, help="number of episodes")
    p.add_argument("--frames", type=option(RANGES["frames"]), default=600,
                   help="annotation frames per episode at 20 fps (default: %(default)s)")
    p.add_argument("--resolution", type=option(RANGES["resolution"]), default=32,
                   help="video size in pixels, depth at half (default: %(default)s)")
    p.add_argument("--seed", type=option(SEED), default=0,
                   help="collection seed; episode i depends on (seed, i) only (default: %(default)s)")
    p.add_argument("--workers", type=option(PROCESSES), default=None, help="parallel processes (default: CPU count)")
    p.set_defaults(func=_cli)


def _cli(args: Any) -> int:
    """Handler of ``robotask synth-collection``."""
    with output_lock(args.out):  # two builds into one --out at once: the second is refused
        manifest = synth_collection(args.out, args.episodes, args.frames, args.resolution, args.seed,
                                    args.workers, progress=True)
    print(f"wrote {len(manifest)} episodes and {Path(args.out) / MANIFEST}")
    return 0
