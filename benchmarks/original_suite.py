"""Time our suite against the original task suite on one synthetic episode, interleaved in one sitting.

    .venv/bin/python benchmarks/original_suite.py --original DIR --toolkit DIR --python PATH
        [--ffmpeg PATH] [--heads both|minimal] [--rounds 2] [--frames 5821] [--resolution 128] [--work DIR]

``--original`` is a checkout of github:ChaoYue0307/ropedia-xperience-10m-task-suite (its
``scripts/episode_task_suite.py``), ``--toolkit`` one of github:LV-Robotics-Lab/HOMIE-toolkit (the official
loader it imports, ``data_loader.py``), ``--python`` a Python with the original's dependencies (numpy, scipy,
h5py, opencv-python-headless, torch). Neither is part of this repository. The original reads the toolkit from
``<workspace>/HOMIE-toolkit`` and decodes audio with an ``ffmpeg`` found on ``PATH`` (without one it fills
the audio block with zeros and says nothing), so the script builds a workspace holding a symbolic link to
the toolkit and puts ``--ffmpeg`` (default: the one on ``PATH``) first on the original's ``PATH``.

The episode is ``ensure_episode(frames, 0, resolution, "repeating")``, the one the book uses, read in
place. Each round runs, in this order: the original with an empty ``--cache-dir`` (cold), ``robotask
suite`` with an empty ``ROBOTASK_CACHE`` (cold), the original again on its cache (warm), ``robotask suite``
again on its feature cache (warm). Both run every task with both heads as the original's published run
did (``--include-neural``; ours: ``--tasks all --heads minimal,mlp``, default epochs and ``--jobs``), or
with ``--heads minimal`` the minimal heads alone (the original without ``--include-neural``; ours
``--heads minimal``), whose results go to ``original_suite_minimal.json``.
Times are wall seconds of the whole process (imports included), with the CPU seconds of the process and
its children beside them. The results hold every round and the median over rounds of each time and of
each round's ratio (ours / original); targets from issue 34: ≤ 0.12 cold, ≤ 0.10 warm. Results go to
``_build/benchmarks/original_suite.json`` (several minutes a round: run by hand).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from robotask import io, paths
from robotask.episode.suite.jobs import default_jobs
from robotask.episode.synthesis import generate as synth

TARGETS = {"cold": 0.12, "warm": 0.10}  # ours / original, issue 34
ORIGINAL_HEADS = {"both": ["--include-neural"], "minimal": []}  # --heads: the original's flags
OUR_HEADS = {"both": "minimal,mlp", "minimal": "minimal"}  # and ours
CLI = "import sys; from robotask.cli import main; sys.exit(main(sys.argv[1:]))"


def timed(cmd: list[str], env: dict, log: Path) -> dict:
    """Run ``cmd`` to the end (output to ``log``); its wall seconds and the CPU seconds of its process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with log.open("w") as out:
        proc = subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{cmd[0]} … exited with {proc.returncode}; its output is in {log}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3)}


def task_errors(report: Path) -> int:
    """Tasks (either head) the original's ``summary_report.json`` records as failed."""
    summary = json.loads(report.read_text())
    heads = [summary.get("tasks", {}), summary.get("neural_tasks", {})]
    return sum("error" in metrics for head in heads for metrics in head.values())


def revision(folder: Path) -> str | None:
    """The git commit of a checkout, if it is one (None for a folder of plain files)."""
    if not (folder / ".git").exists():
        return None
    proc = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def one_round(k: int, episode: Path, args: argparse.Namespace, work: Path, env_original: dict) -> dict:
    """Original cold, ours cold, original warm, ours warm: wall and CPU seconds of each."""
    runs: dict[str, dict] = {}
    script = args.original / "scripts" / "episode_task_suite.py"
    original_cache, our_cache = work / f"original_cache{k}", work / f"robotask_cache{k}"
    env_ours = {**os.environ, "ROBOTASK_CACHE": str(our_cache), "ROBOTASK_PROGRESS": "0"}
    for state in ("cold", "warm"):
        out = work / f"original_{state}{k}"
        runs[f"original_{state}"] = timed(
            [str(args.python), str(script), "--workspace", str(work / "workspace"),
             "--annotation", str(episode / "annotation.hdf5"), "--output-dir", str(out),
             "--cache-dir", str(original_cache), *ORIGINAL_HEADS[args.heads]], env_original,
            work / f"{out.name}.log")
        runs[f"original_{state}"]["task_errors"] = task_errors(out / "summary_report.json")
        out = work / f"ours_{state}{k}"
        runs[f"ours_{state}"] = timed(
            [sys.executable, "-c", CLI, "suite", "--episode", str(episode), "--tasks", "all",
             "--heads", OUR_HEADS[args.heads], "--out", str(out)], env_ours, work / f"{out.name}.log")
        print(f"round {k + 1} {state}: original {runs[f'original_{state}']['wall_s']:.1f} s, "
              f"ours {runs[f'ours_{state}']['wall_s']:.1f} s", flush=True)
    for state in ("cold", "warm"):
        runs[f"{state}_ratio"] = runs[f"ours_{state}"]["wall_s"] / runs[f"original_{state}"]["wall_s"]
    return runs


def summarise(rounds: list[dict]) -> dict:
    """Medians over rounds of each wall time and of each round's ratio, with the targets."""
    doc: dict = {}
    for state in ("cold", "warm"):
        for who in ("original", "ours"):
            doc[f"{who}_{state}_s"] = statistics.median(r[f"{who}_{state}"]["wall_s"] for r in rounds)
        doc[f"{state}_ratio"] = statistics.median(r[f"{state}_ratio"] for r in rounds)
        doc[f"{state}_ratio_target"] = TARGETS[state]
    return doc


def main() -> int:
    """Run the rounds, print them and write ``_build/benchmarks/original_suite.json``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--original", type=Path, required=True, help="checkout of the original task suite")
    ap.add_argument("--toolkit", type=Path, required=True, help="checkout of the HOMIE toolkit")
    ap.add_argument("--python", type=Path, required=True, help="Python with the original's dependencies")
    ap.add_argument("--ffmpeg", type=Path, default=shutil.which("ffmpeg"), help="ffmpeg for the original's audio")
    ap.add_argument("--heads", choices=sorted(ORIGINAL_HEADS), default="both",
                    help="both heads (default, as the original's published run) or the minimal heads alone")
    ap.add_argument("--rounds", type=int, default=2, help="interleaved rounds (the medians are reported)")
    ap.add_argument("--frames", type=int, default=5821)
    ap.add_argument("--resolution", type=int, default=128)
    ap.add_argument("--work", type=Path, default=None, help="folder for caches and outputs (default: a temp dir)")
    args = ap.parse_args()
    if args.rounds < 1:
        sys.exit("--rounds must be at least 1")
    if not (args.original / "scripts" / "episode_task_suite.py").is_file():
        sys.exit(f"--original {args.original}: no scripts/episode_task_suite.py there")
    if not (args.toolkit / "data_loader.py").is_file():
        sys.exit(f"--toolkit {args.toolkit}: no data_loader.py there")
    if args.ffmpeg is None or not args.ffmpeg.is_file():
        sys.exit("no ffmpeg: pass --ffmpeg PATH (without it the original's audio features are zeros)")
    if args.work is not None:
        try:
            args.work.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            sys.exit(f"--work {args.work}: cannot create this folder ({exc.strerror})")
    episode = synth.ensure_episode(args.frames, 0, args.resolution, "repeating")
    work = Path(tempfile.mkdtemp(prefix="robotask-original-", dir=args.work))
    (work / "workspace").mkdir()
    (work / "workspace" / "HOMIE-toolkit").symlink_to(args.toolkit.resolve())
    (work / "bin").mkdir()
    (work / "bin" / "ffmpeg").symlink_to(args.ffmpeg.resolve())
    env_original = {**os.environ, "PATH": f"{work / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    rounds = []
    try:
        for k in range(args.rounds):
            rounds.append(one_round(k, episode, args, work, env_original))
    finally:
        if rounds:
            doc = {"frames": args.frames, "resolution": args.resolution, "jobs": default_jobs(),
                   "cpus": os.cpu_count(), "n_rounds": len(rounds), "rounds": rounds, **summarise(rounds),
                   "setup": {"original_revision": revision(args.original),
                             "toolkit_revision": revision(args.toolkit),
                             "original_command": " ".join(["scripts/episode_task_suite.py",
                                                           *ORIGINAL_HEADS[args.heads]]),
                             "our_command": f"robotask suite --tasks all --heads {OUR_HEADS[args.heads]}"}}
            name = "original_suite.json" if args.heads == "both" else f"original_suite_{args.heads}.json"
            path = io.write_json(paths.BUILD / "benchmarks" / name, doc)
            print(f"saved {path.relative_to(paths.ROOT)}")
    doc = summarise(rounds)
    print(f"median ratio ours / original: cold {doc['cold_ratio']:.3f} (target ≤ {TARGETS['cold']}), "
          f"warm {doc['warm_ratio']:.3f} (target ≤ {TARGETS['warm']})")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
