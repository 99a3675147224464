"""The episode wing's catalogue of bad input (see :mod:`robotask.catalogue`).

Each case copies a tiny synthetic episode (60 frames at 16 px, generated once per process; the
template and the longer case bodies are in :mod:`robotask.episode.specimens`), breaks one thing,
and makes the call a user would make: :func:`load_episode` for ``annotation.hdf5``
problems, :func:`load_window_set` (no feature cache) for videos. ``tests/test_episode_badinput.py``
asserts every outcome; the appendix chapter can show them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import h5py
import numpy as np

from ..catalogue import Case
from . import specimens
from .files import format as fmt
from .files.loader import load_episode
from .specimens import FRAMES, episode_copy, template
from .specimens import edit as _edit
from .specimens import features as _features
from .specimens import rewrite_video as _rewrite_video
from .specimens import windows as _windows


def _replace(f: h5py.File, key: str, value: np.ndarray) -> None:
    del f[key]
    f[key] = value


# ---------------------------------------------------------------- videos
def _truncated(tmp: Path) -> None:
    ep = episode_copy(tmp)
    p = ep / "fisheye_cam1.mp4"
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 3])
    _windows(ep)


def _corrupt(tmp: Path) -> None:
    ep = episode_copy(tmp)
    p = ep / "fisheye_cam1.mp4"
    data = bytearray(p.read_bytes())
    mid = len(data) // 2
    data[mid:mid + 400] = np.random.default_rng(0).integers(0, 256, 400, dtype=np.uint8).tobytes()
    p.write_bytes(bytes(data))
    _windows(ep)


def _zero_length(tmp: Path) -> None:
    ep = episode_copy(tmp)
    (ep / "fisheye_cam1.mp4").write_bytes(b"")
    _windows(ep)


def _no_video_stream(tmp: Path) -> None:
    import av

    ep = episode_copy(tmp)
    with av.open(str(ep / "fisheye_cam1.mp4"), "w") as out:  # an audio track and nothing else
        stream = out.add_stream("aac", rate=16000)
        stream.layout = "mono"
        for i in range(10):
            frame = av.AudioFrame.from_ndarray(np.zeros((1, 1024), np.float32), format="fltp", layout="mono")
            frame.sample_rate, frame.pts = 16000, i * 1024
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    _windows(ep)


def _missing(tmp: Path) -> None:
    ep = episode_copy(tmp)
    (ep / "stereo_right.mp4").unlink()
    _windows(ep)


def _fewer_frames(tmp: Path) -> None:
    ep = episode_copy(tmp)
    _rewrite_video(ep / "fisheye_cam2.mp4", 40)
    _windows(ep)


def _other_fps(tmp: Path) -> None:
    ep = episode_copy(tmp)
    _rewrite_video(ep / "fisheye_cam3.mp4", FRAMES, fps=30.0)
    _windows(ep)


def _no_audio(tmp: Path) -> None:
    ep = episode_copy(tmp)
    _rewrite_video(ep / "fisheye_cam0.mp4", FRAMES, audio=False)
    _windows(ep)


# ---------------------------------------------------------------- annotation.hdf5
def _annotation_truncated(tmp: Path) -> None:
    ep = episode_copy(tmp)
    p = ep / fmt.ANNOTATION
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    load_episode(ep)


def _missing_group(tmp: Path) -> None:
    load_episode(_edit(episode_copy(tmp), lambda f: f.__delitem__(fmt.CALIBRATION)))


def _missing_dataset(tmp: Path) -> None:
    load_episode(_edit(episode_copy(tmp), lambda f: f.__delitem__(fmt.SLAM_TRANS)))


def _wrong_shape(tmp: Path) -> None:
    load_episode(_edit(episode_copy(tmp), lambda f: _replace(f, fmt.LEFT_JOINTS, f[fmt.LEFT_JOINTS][()][:, :20])))


def _wrong_dtype(tmp: Path) -> None:
    load_episode(_edit(episode_copy(tmp), lambda f: _replace(f, fmt.SLAM_NAMES, np.arange(FRAMES))))


def _nan_poses(tmp: Path) -> None:
    def change(f: h5py.File) -> None:
        trans = f[fmt.SLAM_TRANS][()]
        trans[5:8] = np.nan
        trans[9, 0] = np.inf
        f[fmt.SLAM_TRANS][...] = trans
    _windows(_edit(episode_copy(tmp), change))


def _short_episode(tmp: Path) -> None:
    def change(f: h5py.File) -> None:
        frame_keys = []
        f.visititems(lambda k, v: frame_keys.append(k) if isinstance(v, h5py.Dataset) and v.shape[:1] == (FRAMES,)
                     else None)
        for key in frame_keys:
            _replace(f, key, f[key][()][:12])
    _windows(_edit(episode_copy(tmp), change))


def _zero_frames(tmp: Path) -> None:
    def change(f: h5py.File) -> None:
        for key in (fmt.SLAM_QUAT, fmt.SLAM_TRANS, fmt.SLAM_NAMES):
            _replace(f, key, f[key][()][:0])
    load_episode(_edit(episode_copy(tmp), change))


def _caption_bad_utf8(tmp: Path) -> None:
    def change(f: h5py.File) -> None:
        key = next(k for k in fmt.CAPTION_KEYS if k in f)
        raw = f[key][()]
        text = raw if isinstance(raw, bytes) else str(raw).encode()
        _replace(f, key, np.bytes_(text.replace(b'"Sub Task": "', b'"Sub Task": "\xff\xfe', 1)))
    load_episode(_edit(episode_copy(tmp), change))


def _contacts_length(tmp: Path) -> None:
    load_episode(_edit(episode_copy(tmp), lambda f: _replace(f, fmt.BODY_CONTACTS, f[fmt.BODY_CONTACTS][()][:-5])))


def _imu_length(tmp: Path) -> None:
    load_episode(_edit(episode_copy(tmp), lambda f: _replace(f, fmt.IMU_ACCEL, f[fmt.IMU_ACCEL][()][:-7])))


def _keyframes_length(tmp: Path) -> None:
    load_episode(_edit(episode_copy(tmp), lambda f: _replace(f, fmt.IMU_KEYFRAMES, f[fmt.IMU_KEYFRAMES][()][:-5])))


# ---------------------------------------------------------------- outputs
def _out_is_episode(tmp: Path) -> None:
    ep = episode_copy(tmp)
    _features(str(ep), "--out", str(ep))


def _out_inside_collection(tmp: Path) -> None:
    ep = episode_copy(tmp)
    _features("--collection", str(ep.parent), "--out", str(ep.parent / "features"), "--workers", "1")


# ---------------------------------------------------------------- collections
def _manifest(tmp: Path, rows: list[tuple[str, str]], extra_folder: bool = False) -> None:
    """Two episode folders and a manifest.csv of ``rows`` (episode_id, path); ``load_collection`` on it."""
    from .files.manifest import load_collection

    ep = episode_copy(tmp)
    shutil.copytree(ep, tmp / "episode_b")
    if extra_folder:
        shutil.copytree(ep, tmp / "added_later")
    text = "episode_id,path\n" + "".join(f"{i},{p}\n" for i, p in rows)
    (tmp / "manifest.csv").write_text(text, encoding="utf-8")
    load_collection(tmp)


def _suite(tmp: Path, *argv: str) -> int:
    """``robotask suite --episode EP --out OUT ARGV`` through its own parser and handler; OUT holds an earlier
    run's task folder (both cases are refused before the episode is read)."""
    from ..errors import Parser
    from .cli import register_cli

    sub = Parser(prog="robotask").add_subparsers(dest="command", required=True)
    register_cli(sub)
    (tmp / "out" / "timeline_action").mkdir(parents=True)
    args = sub.choices["suite"].parse_args(["--episode", str(tmp / "ep"), "--out", str(tmp / "out"), *argv])
    return args.func(args)


_PRED = ("window_index,true_label,predicted_label\n813,steady,steady\n814,transition,steady\n"
         "815,steady,transition\n")
_BROKEN = {"columns": _PRED.replace("predicted_label", "guess"), "duplicate": _PRED + "813,steady,steady\n",
           "label": _PRED.replace("815,steady,transition", "815,steady,boundary"),
           "missing": _PRED.rsplit("815", 1)[0], "unparsable": "\x00\x01\n\"unclosed,\n"}


def _score(tmp: Path, broken: str) -> object:
    """``robotask score a=… b=…`` on two boundary-detection runs, run b's file broken as ``broken`` says."""
    from .published.scorecard import score_files

    files = []
    for run, text in (("a", _PRED), ("b", _BROKEN[broken])):
        (tmp / run / "transition_detection").mkdir(parents=True)
        (tmp / run / "transition_detection" / "predictions.csv").write_text(text)
        files.append((run, tmp / run / "transition_detection" / "predictions.csv"))
    return score_files(files, None, None, seed=0, n_boot=20)


V, A, OUT, C, P = "videos", "annotation.hdf5", "outputs", "collections", "prediction files"
CASES: list[Case] = [
    Case(V, "fisheye_cam1.mp4 cut to its first third", "warning",
         r"fisheye_cam1\.mp4: decoded \d+ of 60 frames \(\d+ %\).*stream (degraded|missing)", _truncated),
    Case(V, "fisheye_cam1.mp4 with 400 random bytes in the middle", "warning",
         r"fisheye_cam1\.mp4: decoded \d+ of 60 frames", _corrupt),
    Case(V, "fisheye_cam1.mp4 of zero bytes", "warning",
         r"fisheye_cam1\.mp4: decoded 0 of 60 frames \(0 %\).*not a readable media file", _zero_length),
    Case(V, "fisheye_cam1.mp4 holding an audio track and no video stream", "warning",
         r"fisheye_cam1\.mp4: no video stream; its \d+ features are zeros", _no_video_stream),
    Case(V, "stereo_right.mp4 missing", "warning", r"stereo_right\.mp4: video missing; its features are zeros",
         _missing),
    Case(V, "fisheye_cam2.mp4 with 40 of 60 frames", "warning",
         r"fisheye_cam2\.mp4: decoded 40 of 60 frames \(67 %\); the other 20 repeat .*stream degraded", _fewer_frames),
    Case(V, "fisheye_cam3.mp4 at 30 fps instead of 20", "warning",
         r"fisheye_cam3\.mp4: 30(\.0+)? fps, the annotation 20(\.0+)? fps", _other_fps),
    Case(V, "fisheye_cam0.mp4 without its audio track", "warning",
         r"fisheye_cam0\.mp4.*no audio stream.*audio features are zeros", _no_audio),
    Case(A, "annotation.hdf5 cut to half its bytes", "error", r"annotation\.hdf5: not a readable HDF5 file",
         _annotation_truncated),
    Case(A, "group calibration missing", "error", r"annotation\.hdf5: missing group 'calibration'", _missing_group),
    Case(A, "dataset slam/trans_xyz missing", "error", r"annotation\.hdf5: slam/trans_xyz missing", _missing_dataset),
    Case(A, "hand_mocap/left_joints_3d with 20 joints", "error",
         r"annotation\.hdf5: hand_mocap/left_joints_3d has shape \(60, 20, 3\); expected \(N, 21, 3\)", _wrong_shape),
    Case(A, "slam/frame_names stored as integers", "error",
         r"annotation\.hdf5: slam/frame_names holds numbers; expected byte strings", _wrong_dtype),
    Case(A, "not-a-number and infinite values in slam/trans_xyz", "warning",
         r"annotation\.hdf5: slam/trans_xyz has NaN or inf in 4 of 60 frames", _nan_poses),
    Case(A, "an episode cut to 12 frames (a window is 20)", "error",
         r"12 frames, fewer than one window of 20 frames", _short_episode),
    Case(A, "zero frames", "error", r"annotation\.hdf5: slam/frame_names is empty \(0 frames\)", _zero_frames),
    Case(A, "caption with invalid UTF-8", "error", r"annotation\.hdf5:caption: not valid UTF-8 \(byte 0xff",
         _caption_bad_utf8),
    Case(A, "full_body_mocap/contacts 5 frames short", "error",
         r"annotation\.hdf5: full_body_mocap/contacts has 55 frames but slam/frame_names has 60", _contacts_length),
    Case(A, "imu/accel_xyz 7 samples short", "error", r"annotation\.hdf5: imu/\* lengths disagree", _imu_length),
    Case(A, "imu/keyframe_indices 5 entries short", "warning",
         r"annotation\.hdf5: imu/keyframe_indices has 55 entries, 60 frames", _keyframes_length),
    Case(C, "manifest.csv listing the same episode_id twice", "error",
         r"manifest\.csv: episode_id values repeat \(a\)",
         lambda tmp: _manifest(tmp, [("a", "episode"), ("a", "episode_b")])),
    Case(C, "manifest.csv naming one folder for two episodes", "error",
         r"manifest\.csv: episodes a, b name the same folder",
         lambda tmp: _manifest(tmp, [("a", "episode"), ("b", "./episode")])),
    Case(C, "an episode folder added beside manifest.csv but not listed", "warning",
         r"manifest\.csv does not list 1 episode folder beside it \(added_later\); they are left out",
         lambda tmp: _manifest(tmp, [("a", "episode"), ("b", "episode_b")], extra_folder=True)),
    Case(C, "an episode_id that looks like a path (../elsewhere)", "error",
         r"manifest\.csv: episode_id '\.\./elsewhere' is not a plain name",
         lambda tmp: _manifest(tmp, [("../elsewhere", "episode"), ("b", "episode_b")])),
    Case(OUT, "features --out is the episode folder it reads", "error",
         r"--out \S+ is the episode folder .*never written into an input folder", _out_is_episode),
    Case(OUT, "features --collection DIR --out DIR/features", "error",
         r"--out \S+ lies inside the collection folder .*never written into an input folder", _out_inside_collection),
    Case(A, "not-a-number in imu/accel_xyz (3 samples)", "warning",
         r"imu/accel_xyz has NaN or inf in 3 of 600 samples \(first 5\); they are interpolated",
         lambda tmp: specimens.non_finite(tmp, fmt.IMU_ACCEL, slice(5, 8), np.nan)),
    Case(A, "an infinite value in imu/gyro_xyz", "warning",
         r"imu/gyro_xyz has NaN or inf in 1 of 600 samples \(first 9\); they are interpolated",
         lambda tmp: specimens.non_finite(tmp, fmt.IMU_GYRO, slice(9, 10), np.inf)),
    Case(A, "not-a-number in depth/depth (3 frames)", "warning",
         r"depth/depth has NaN or inf values \(first in frame 5\); they are read as 0, no depth",
         lambda tmp: specimens.non_finite(tmp, fmt.DEPTH, slice(5, 8), np.nan)),
    Case(A, "infinite values in hand_mocap/right_joints_3d (2 frames)", "warning",
         r"invalid mocap frames \(NaN, inf or all-zero\) \{'hand_mocap/right_joints_3d': 2\}",
         lambda tmp: specimens.non_finite(tmp, fmt.RIGHT_JOINTS, slice(10, 12), -np.inf)),
    Case(V, "all six videos with 30 of 60 frames", "warning",
         r"(?=.*fisheye_cam0\.mp4: decoded 30 of 60 frames \(50 %\))(?=.*stereo_right\.mp4: decoded 30 of 60)",
         lambda tmp: specimens.all_videos_short(tmp, 30)),
    Case(V, "fisheye_cam0.mp4 with a single frame", "warning",
         r"fisheye_cam0\.mp4: decoded 1 of 60 frames \(2 %\)", lambda tmp: specimens.first_video_short(tmp, 1)),
    Case("cache", "annotation.hdf5 of 65 MiB edited in place (same size, mtime put back)", "handled",
         r"MiB annotation edited in place: the features changed, equal to a build without the cache",
         specimens.edited_in_place),
    Case("cache", "a feature build killed with SIGKILL, then run again", "handled",
         r"no half-written cache entry; the rerun completed with the features of a clean build",
         specimens.killed_and_rerun),
    Case(C, "a symlink loop inside a collection folder", "handled",
         r"^loop: unusable \(a symlink loop \(<tmp>/col/loop leads back to itself\)\); 2 episodes used$",
         lambda tmp: specimens.odd_collection(tmp, "loop")),
    Case(C, "an episode folder whose name is not UTF-8 (ep\\xff)", "handled",
         r"^ep\\xff: unusable \(the folder name is not UTF-8 \(ep\\xff\); rename it\); 2 episodes used$",
         lambda tmp: specimens.odd_collection(tmp, "name")),
    Case(OUT, "two features builds into one --out at once", "error",
         r"--out <tmp>/out is in use by another run \(lock <tmp>/\.out\.lock\)",
         lambda tmp: specimens.two_builds_one_out(tmp, "features")),
    Case(OUT, "two synth-collection builds into one --out at once", "error",
         r"--out <tmp>/out is in use by another run \(lock <tmp>/\.out\.lock\)",
         lambda tmp: specimens.two_builds_one_out(tmp, "synth-collection")),
    Case(OUT, "suite --episode with --split group-kfold --folds 2 (splits of a collection)", "error",
         r"--split and --folds split the episodes of a --collection; with --episode DIR",
         lambda tmp: _suite(tmp, "--split", "group-kfold", "--folds", "2")),
    Case(OUT, "suite --episode rerun into an --out holding an earlier run's task folders", "error",
         r"--out <tmp>/out: output folder exists and is not empty", _suite),
    Case(P, "score: predictions.csv without its predicted_label column", "error",
         r"predictions\.csv: missing column\(s\) predicted_label", lambda tmp: _score(tmp, "columns")),
    Case(P, "score: one window id twice in predictions.csv", "error",
         r"predictions\.csv: window id '813' appears more than once", lambda tmp: _score(tmp, "duplicate")),
    Case(P, "score: a predicted label that is not among the true labels", "error",
         r"predicted label\(s\) 'boundary' not among the true labels", lambda tmp: _score(tmp, "label")),
    Case(P, "score: run b without a window run a scored", "error",
         r"run b lacks 1 window\(s\) the other run has \(e\.g\. '815'\)", lambda tmp: _score(tmp, "missing")),
    Case(P, "score: predictions.csv that is not a CSV file", "error",
         r"predictions\.csv: not a readable CSV file", lambda tmp: _score(tmp, "unparsable")),
]


# ---------------------------------------------------------------- a Dask cluster (--scheduler)
def _on_scheduler(tmp: Path, address: str) -> None:
    """``robotask features --collection`` of one episode, with a throw-away cache, on ``--scheduler address``
    (the faults of a running cluster, its workers killed or unable to see a path, are tested on real processes
    in ``tests/test_cluster_cli.py``)."""
    from ..cache import root_at

    shutil.copytree(episode_copy(tmp), tmp / "col" / "ep0")
    with root_at(tmp / "cache"):
        _features("--collection", str(tmp / "col"), "--out", str(tmp / "out"), "--scheduler", address)


CASES += [
    Case("cluster", "--scheduler tcp://127.0.0.1:1, where nothing listens", "error",
         r"--scheduler tcp://127\.0\.0\.1:1: no Dask scheduler answered within 10 s",
         lambda tmp: _on_scheduler(tmp, "tcp://127.0.0.1:1")),
    Case("cluster", "--scheduler host:8786:x, not an address", "error",
         r"--scheduler host:8786:x: not a Dask scheduler address .*expected e\.g\. tcp://host:8786",
         lambda tmp: _on_scheduler(tmp, "host:8786:x")),
]

__all__ = ["CASES", "episode_copy", "template"]  # the catalogue, and the template episode tests copy
