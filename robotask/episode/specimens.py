"""Specimens for the episode wing's bad-input catalogue (:mod:`robotask.episode.badinput`) and its tests: a
tiny synthetic episode (60 frames at 16 px, generated once per process), copies of it to break, and the
bodies of the longer cases (non-finite sensor values, short videos, the cache, kills, odd collection
folders, two builds into one ``--out``). A ``handled`` case returns a note of what it checked.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import h5py
import numpy as np

from ..cache import root_at
from ..errors import Parser
from .features.cli import register_cli as register_features
from .features.windowset import load_window_set
from .files import format as fmt
from .files.media import VideoWriter, iter_video_frames
from .synthesis.generate import generate_episode

FRAMES, RESOLUTION, SEED = 60, 16, 3
_TEMPLATES: dict[int, Path] = {}
_TMP: list[tempfile.TemporaryDirectory] = []


def template(frames: int = FRAMES) -> Path:
    """A tiny synthetic episode of ``frames`` frames, generated once per process."""
    if frames not in _TEMPLATES:
        tmp = tempfile.TemporaryDirectory(prefix="robotask-badinput-")
        _TMP.append(tmp)
        _TEMPLATES[frames] = generate_episode(Path(tmp.name) / "episode", frames=frames, resolution=RESOLUTION,
                                              seed=SEED)
    return _TEMPLATES[frames]


def episode_copy(tmp: Path, frames: int = FRAMES) -> Path:
    """A fresh copy of the template inside ``tmp``."""
    return Path(shutil.copytree(template(frames), tmp / "episode"))


def windows(ep: Path) -> None:
    load_window_set(ep, cache=False, workers=1)


def rewrite_video(path: Path, n: int, fps: float = fmt.FPS, audio: bool = False) -> None:
    """Re-encode ``path`` with its first ``n`` frames at ``fps`` (no audio unless ``audio``)."""
    frames = np.stack(list(iter_video_frames(path, RESOLUTION, n)))
    with VideoWriter(path, RESOLUTION, RESOLUTION, fps=fps, audio_rate=16000 if audio else None) as w:
        w.write_frames(frames)


def edit(ep: Path, change: Callable[[h5py.File], None]) -> Path:
    with h5py.File(ep / fmt.ANNOTATION, "a") as f:
        change(f)
    return ep


def features(*argv: str) -> int:
    """Run ``robotask features ARGV`` through its handler (RobotaskError propagates)."""
    parser = Parser(prog="robotask")
    register_features(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["features", *argv])
    return args.func(args)


# ---------------------------------------------------------------- non-finite values, short videos
def non_finite(tmp: Path, key: str, rows: slice, value: float) -> None:
    """``value`` (NaN or inf) written into ``rows`` of dataset ``key``; then the window features."""
    def change(f: h5py.File) -> None:
        data = f[key][()].astype(np.float64)
        data.reshape(len(data), -1)[rows] = value
        f[key][...] = data
    windows(edit(episode_copy(tmp), change))


def first_video_short(tmp: Path, n: int) -> None:
    ep = episode_copy(tmp)
    rewrite_video(ep / fmt.video_file(fmt.AUDIO_STREAM), n, audio=True)
    windows(ep)


def all_videos_short(tmp: Path, n: int) -> None:
    ep = episode_copy(tmp)
    for stream in fmt.VIDEO_STREAMS:
        rewrite_video(ep / fmt.video_file(stream), n, audio=stream == fmt.AUDIO_STREAM)
    windows(ep)


# ---------------------------------------------------------------- the cache, kills
def edited_in_place(tmp: Path) -> str:
    """An annotation.hdf5 over 64 MiB whose right hand moves 0.25 m in place (same size, mtime put back)
    between the blocks the old sampled key read: the cached features must follow the edit."""
    import os

    ep = episode_copy(tmp)
    ann = ep / fmt.ANNOTATION
    with h5py.File(ann, "a") as f:  # 65 MiB of extra data, the right hand in the middle of it
        f.create_dataset("padding_a", data=np.zeros(33 << 20, dtype=np.uint8))
        f.create_dataset(fmt.RIGHT_JOINTS + "_moved", data=f[fmt.RIGHT_JOINTS][()])
        del f[fmt.RIGHT_JOINTS]
        f.move(fmt.RIGHT_JOINTS + "_moved", fmt.RIGHT_JOINTS)
        f.create_dataset("padding_b", data=np.zeros(32 << 20, dtype=np.uint8))
    with root_at(tmp / "cache"):
        before = load_window_set(ep, workers=1).X
        st = ann.stat()
        with h5py.File(ann, "r+") as f:
            f[fmt.RIGHT_JOINTS][...] = f[fmt.RIGHT_JOINTS][()] + 0.25
        os.utime(ann, ns=(st.st_atime_ns, st.st_mtime_ns))
        after = load_window_set(ep, workers=1).X
    fresh = load_window_set(ep, cache=False, workers=1).X
    if ann.stat().st_size != st.st_size or np.array_equal(before, after) or not np.array_equal(after, fresh):
        raise AssertionError("the cache served the features of the old annotation")
    return (f"a {ann.stat().st_size / 2**20:.0f} MiB annotation edited in place: the features changed, equal "
            "to a build without the cache")


def killed_and_rerun(tmp: Path) -> str:
    """``robotask features`` killed with SIGKILL while it builds its cache entries, then run again."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import zipfile

    ep = episode_copy(tmp)
    env = {**os.environ, "ROBOTASK_CACHE": str(tmp / "cache"), "ROBOTASK_PROGRESS": "0"}
    argv = [sys.executable, "-m", "robotask.cli", "features", str(ep), "--out", str(tmp / "out")]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline and not any((tmp / "cache").rglob(".*.tmp")):
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    for entry in (tmp / "cache").rglob("*.npz"):  # every entry under a final name is whole
        if not entry.name.startswith(".") and zipfile.ZipFile(entry).testzip() is not None:
            raise AssertionError(f"{entry.name} is half-written")
    again = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    if again.returncode != 0:
        raise AssertionError(f"the rerun failed: {again.stderr[-300:]}")
    with np.load(tmp / "out" / "shared_windows.npz") as z:
        rerun = z[z.files[0]]
    if not np.array_equal(rerun, load_window_set(ep, cache=False, workers=1).X):
        raise AssertionError("the rerun's features differ from a clean build")
    return "no half-written cache entry; the rerun completed with the features of a clean build"


# ---------------------------------------------------------------- collection folders, one --out
def odd_collection(tmp: Path, oddity: str) -> str:
    """A collection folder of two episodes plus a symlink loop or a folder whose name is not UTF-8: that
    entry is an unusable episode with its reason, the others are used, and the tables can be written."""
    import os

    from ..io import write_csv
    from .files.manifest import load_collection

    root = tmp / "col"
    root.mkdir()
    for name in ("ep0", "ep1"):
        os.symlink(template(), root / name)
    if oddity == "loop":
        os.symlink("loop", root / "loop")
    else:
        os.symlink(template(), os.fsdecode(bytes(root) + b"/ep\xff"))
    collection = load_collection(root)
    write_csv(tmp / "failures.csv", collection.problems)  # what crashed before: a name that is not UTF-8
    (odd, reason), = zip(collection.problems["episode_id"], collection.problems["reason"])
    return f"{odd}: unusable ({reason}); {len(collection.ids)} episodes used"


def two_builds_one_out(tmp: Path, command: str) -> None:
    """A second build into an --out that a first build holds (its lock is taken here first)."""
    from ..io import output_lock

    out = tmp / "out"
    with output_lock(out):
        if command == "features":
            features(str(episode_copy(tmp)), "--out", str(out))
        else:
            from .synthesis.varied import register_cli

            parser = Parser(prog="robotask")
            register_cli(parser.add_subparsers(dest="command", required=True))
            args = parser.parse_args(["synth-collection", "--out", str(out), "--episodes", "1", "--frames", "60",
                                      "--resolution", "16", "--workers", "1"])
            args.func(args)
