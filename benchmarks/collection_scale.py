"""The suite over collections of growing size: peak memory and wall time, streamed and in memory.

    .venv/bin/python benchmarks/collection_scale.py [--sizes 8,32,128] [--workers 1,2] [--workers-up-to N]
        [--old-up-to 32] [--primal-up-to N] [--frames 600] [--resolution 32] [--work DIR]
    .venv/bin/python benchmarks/collection_scale.py --full-size N [--workers 2] [--work DIR]

Synthesises one collection of the largest size (episode i depends on the seed and i only, so the smaller
collections are its first episodes, named by manifest files), builds its features once (``robotask
features --collection``, cached), then runs ``robotask suite --collection … --split episodes --protocol
improved --heads minimal`` on each size: in this process (``workers`` 0) and on a LocalCluster of each
``--workers`` count, each in a fresh process whose peak resident memory (the whole process tree, Dask workers
included, sampled every 0.2 s) and wall time are recorded; sizes above ``--workers-up-to`` run in this process
only. Sizes up to ``--old-up-to`` also run the
in-memory path of before (every WindowSet and every task's inputs held at once, ``unseen.held_out.
run_collection_suite``). Sizes up to ``--primal-up-to`` also run the streamed path in one process with every
gradient head in the primal (``models.streamed.DUAL_BYTES`` set to 0 in that process): the one algorithm the
largest collections use, at every size, so that its growth can be read apart from the switch out of the dual.
The projection to 12,103 episodes (the size of Xperience-10M) extends the slopes (time and memory) of the two
largest streamed sizes in one process: a projection, not a measurement.
Results go to ``_build/benchmarks/collection_scale.json`` (run by hand: over ten minutes); ``--keep`` adds this
run's points to the saved curve instead of replacing it (a larger size measured later, in the same work folder).

``--full-size N`` measures one point instead: N episodes of the real sample's size (5,821 frames, 128 px: ten times
the windows of a 600-frame episode), synthesised in ``WORK/full``, in one process and on each ``--workers`` count. It
is added to the saved result under ``full_size`` (the curve's points are kept), so the page shows both.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import psutil

from robotask import io, paths

FULL_SIZE = 12_103  # episodes of Xperience-10M
FULL_FRAMES, FULL_RESOLUTION = 5821, 128  # the real sample's episode: frames at 20 fps, video size in pixels
RESULT = paths.BUILD / "benchmarks" / "collection_scale.json"
OLD = """
import sys
from robotask.episode.files.manifest import load_collection
from robotask.episode.tasks.splits import episode_split
from robotask.episode.unseen.held_out import run_collection_suite
from robotask.episode.unseen.task_data import load_window_sets
coll = load_collection(sys.argv[1])
sets = load_window_sets(coll, sys.argv[2])
usable = coll.episodes[coll.episodes["episode_id"].isin(list(sets))]
run_collection_suite(sets, episode_split(usable, 0.3, None, 0), "all", "minimal", "improved", sys.argv[3],
                     progress=False)
"""


def measure(cmd: list[str], env: dict) -> dict:
    """Run ``cmd``; its wall time, CPU time and the peak of the summed resident memory of its process tree."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    root, peak = psutil.Process(proc.pid), 0
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.2)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:6])}… failed:\n{proc.stderr.read()[-2000:]}")
    return {"wall_s": wall, "peak_gb": peak / 1e9}


PRIMAL = "streamed, gradient heads in the primal"  # the path name of --primal-up-to's runs
IN_PRIMAL = """
import sys
from robotask.cli import main
from robotask.episode.models import streamed
streamed.DUAL_BYTES = 0  # no Gram matrix is small enough: every gradient head runs its epochs over the rows
sys.exit(main(sys.argv[1:]))
"""


def collection(work: Path, size: int, frames: int, resolution: int, seed: int, env: dict) -> Path:
    """The largest collection and its features (both reused when present, the features extended when the
    folder holds those of fewer episodes); returns its folder."""
    coll = work / f"collection{size}"
    if not (coll / "manifest.csv").is_file():
        subprocess.run([sys.executable, "-m", "robotask.cli", "synth-collection", "--out", str(coll), "--episodes",
                        str(size), "--frames", str(frames), "--resolution", str(resolution), "--seed", str(seed),
                        "--workers", "2"], env=env, check=True, stdout=subprocess.DEVNULL)
    listed = work / "features" / "episodes.csv"
    if not listed.is_file() or len(listed.read_text().splitlines()) - 1 < size:  # none, or a smaller collection's
        subprocess.run([sys.executable, "-m", "robotask.cli", "features", "--collection", str(coll), "--out",
                        str(work / "features"), "--workers", "2"], env=env, check=True,
                       stdout=subprocess.DEVNULL)  # the episodes built before come from the feature cache
    return coll


def suite_command(manifest: Path, features: Path, out: Path, workers: int, primal: bool = False) -> list[str]:
    """``robotask suite`` on a collection as this benchmark runs it (``workers`` 0: in this process; ``primal``:
    with every gradient head in the primal, through :data:`IN_PRIMAL`)."""
    launcher = ["-c", IN_PRIMAL] if primal else ["-m", "robotask.cli"]
    return [sys.executable, *launcher, "suite", "--collection", str(manifest), "--features", str(features),
            "--split", "episodes", "--protocol", "improved", "--heads", "minimal", "--out", str(out),
            *(["--workers", str(workers)] if workers else [])]


def full_size_point(args: argparse.Namespace, env: dict) -> None:
    """N full-size episodes in one process and on each ``--workers`` count, added to the saved result."""
    work = args.work / "full"
    coll = collection(work, args.full_size, FULL_FRAMES, FULL_RESOLUTION, args.seed, env)
    points = []
    for workers in [0, *(int(w) for w in args.workers.split(",") if w)]:
        cmd = suite_command(coll / "manifest.csv", work / "features", work / "runs" / f"w{workers}", workers)
        points.append({"path": "streamed", "episodes": args.full_size, "workers": workers, **measure(cmd, env)})
        print(points[-1], flush=True)
    result = json.loads(RESULT.read_text()) if RESULT.is_file() else {}
    result["full_size"] = {"episodes": args.full_size, "frames": FULL_FRAMES, "resolution": FULL_RESOLUTION,
                           "points": points}
    print(f"wrote {io.write_json(RESULT, result)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="8,32,128")
    ap.add_argument("--workers", default="1,2", help="LocalCluster sizes besides the in-process run")
    ap.add_argument("--workers-up-to", type=int, default=None, help="largest size also run on the clusters (all)")
    ap.add_argument("--old-up-to", type=int, default=32, help="largest size also run in memory as before")
    ap.add_argument("--primal-up-to", type=int, default=0,
                    help="largest size also run with every gradient head in the primal (0: none)")
    ap.add_argument("--keep", action="store_true",
                    help="add these runs to the saved curve (replacing a saved run of the same path, size, workers)")
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--resolution", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--full-size", type=int, default=0,
                    help=f"measure N episodes of {FULL_FRAMES} frames at {FULL_RESOLUTION} px instead of the curve")
    ap.add_argument("--work", type=Path, default=paths.BUILD / "collection_scale")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    env = {**os.environ, "ROBOTASK_PROGRESS": "0"}
    env.setdefault("ROBOTASK_CACHE", str(args.work / "cache"))
    if args.full_size:
        full_size_point(args, env)
        return
    sizes = sorted(int(s) for s in args.sizes.split(","))
    kept = json.loads(RESULT.read_text()) if RESULT.is_file() else {}
    if args.keep and kept.get("scale") and (kept["frames"], kept["resolution"]) != (args.frames, args.resolution):
        raise SystemExit(f"--keep: the saved curve has {kept.get('frames')}-frame episodes at "
                         f"{kept.get('resolution')} px, these runs {args.frames} at {args.resolution}")
    coll = collection(args.work, sizes[-1], args.frames, args.resolution, args.seed, env)
    lines = (coll / "manifest.csv").read_text().splitlines()
    points = []
    for size in sizes:
        manifest = coll / f"first{size}.csv"
        manifest.write_text("\n".join(lines[:size + 1]) + "\n")
        clusters = args.workers_up_to is None or size <= args.workers_up_to
        runs = [("streamed", 0), *(("streamed", int(w)) for w in args.workers.split(",") if w and clusters)]
        runs += [("in memory", 0)] if size <= args.old_up_to else []
        runs += [(PRIMAL, 0)] if size <= args.primal_up_to else []
        for path, workers in runs:
            out = args.work / "runs" / f"{path.replace(' ', '-').replace(',', '')}{size}-w{workers}"
            if path == "in memory":
                cmd = [sys.executable, "-c", OLD, str(manifest), str(args.work / "features"), str(out)]
            else:
                cmd = suite_command(manifest, args.work / "features", out, workers, primal=path == PRIMAL)
            point = {"path": path, "episodes": size, "workers": workers, **measure(cmd, env)}
            print(point, flush=True)
            points.append(point)
    if args.keep and kept.get("scale"):
        redone = {(p["path"], p["episodes"], p["workers"]) for p in points}
        points = [p for p in kept["scale"] if (p["path"], p["episodes"], p["workers"]) not in redone] + points
        points.sort(key=lambda p: p["episodes"])
    result = {"episodes": max(p["episodes"] for p in points), "frames": args.frames, "resolution": args.resolution,
              "cpus": os.cpu_count(), "scale": points, "projection": projection(points)}
    if "full_size" in kept:
        result["full_size"] = kept["full_size"]
    print(f"wrote {io.write_json(RESULT, result)}")


def projection(points: list[dict]) -> dict | None:
    """Wall time and peak memory at :data:`FULL_SIZE` episodes from the slope between the two largest
    streamed sizes in one process (labelled a projection)."""
    mine = sorted((p for p in points if p["path"] == "streamed" and p["workers"] == 0), key=lambda p: p["episodes"])
    if len(mine) < 2:
        return None
    a, b = mine[-2], mine[-1]
    per = (b["wall_s"] - a["wall_s"]) / (b["episodes"] - a["episodes"])
    grow = (b["peak_gb"] - a["peak_gb"]) / (b["episodes"] - a["episodes"])
    return {"label": "projection from the measured slope, not a measurement", "episodes": FULL_SIZE,
            "from_sizes": [a["episodes"], b["episodes"]], "seconds_per_episode": per,
            "wall_s": b["wall_s"] + per * (FULL_SIZE - b["episodes"]),
            "peak_gb_per_episode": grow, "peak_gb": b["peak_gb"] + max(grow, 0.0) * (FULL_SIZE - b["episodes"])}


if __name__ == "__main__":
    main()
