"""The suite over collections of growing size: peak memory and wall time, streamed and in memory.

    .venv/bin/python benchmarks/collection_scale.py [--sizes 8,32,128] [--workers 1,2] [--workers-up-to N]
        [--old-up-to 32] [--primal-up-to N] [--frames 600] [--resolution 32] [--work DIR]
    .venv/bin/python benchmarks/collection_scale.py --full-size N [--workers 2] [--work DIR]
    .venv/bin/python benchmarks/collection_scale.py --full-size N --cluster-workers 1,2 [--work DIR] [--result FILE]

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

``--full-size N --cluster-workers 1,2`` measures, in one sitting, the same N episodes on a cluster of real processes
started from the CLI (``dask scheduler`` on a free port of 127.0.0.1 and W × ``dask worker --nthreads 1``, torn down
after each count, with a check that none of their processes is left): per count, ``robotask features --collection
… --scheduler`` from an empty feature cache and ``robotask suite --collection … --scheduler``, their wall times and
the peak resident memory of each worker process (its kernel high-water mark, ``VmHWM``, sampled every 0.5 s). The
one-process point runs the same two commands (features on a LocalCluster of one worker process, the way a collection's
features always run; the suite in the process), and the decode-only floor of the same episodes is timed first: one
process decodes every frame of the six videos and the audio track with PyAV's defaults (as ``episode_features.py``'s
plain decode) and reads every array of each ``annotation.hdf5``, and nothing else. The LocalCluster counts of
``--workers`` run only when given.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
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


def collection(work: Path, size: int, frames: int, resolution: int, seed: int, env: dict,
               features: bool = True) -> Path:
    """The largest collection and (``features``) its features, both reused when present, the features extended
    when the folder holds those of fewer episodes; returns its folder."""
    coll = work / f"collection{size}"
    if not (coll / "manifest.csv").is_file():
        subprocess.run([sys.executable, "-m", "robotask.cli", "synth-collection", "--out", str(coll), "--episodes",
                        str(size), "--frames", str(frames), "--resolution", str(resolution), "--seed", str(seed),
                        "--workers", "2"], env=env, check=True, stdout=subprocess.DEVNULL)
    listed = work / "features" / "episodes.csv"
    # none, or a smaller collection's
    if features and (not listed.is_file() or len(listed.read_text().splitlines()) - 1 < size):
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
    """N full-size episodes in one process and on each ``--workers`` count (and, with ``--cluster-workers``, the
    decode-only floor and each CLI cluster), added to the saved result."""
    work = args.work / "full"
    cluster_counts = [int(w) for w in (args.cluster_workers or "").split(",") if w]
    # with clusters every run builds its own features from an empty cache: none are built beforehand
    coll = collection(work, args.full_size, FULL_FRAMES, FULL_RESOLUTION, args.seed, env, not cluster_counts)
    local = args.workers if args.workers is not None else ("" if cluster_counts else "1,2")
    full = {"episodes": args.full_size, "frames": FULL_FRAMES, "resolution": FULL_RESOLUTION, "points": []}
    if cluster_counts:
        full["decode_floor"] = decode_floor(coll / "manifest.csv")
        print({"decode_floor": full["decode_floor"]}, flush=True)
    for workers in [0, *(int(w) for w in local.split(",") if w)]:
        run = work / "runs" / f"w{workers}"
        timed = {}
        if cluster_counts:  # the features too, from an empty cache, as on the clusters
            shutil.rmtree(run, ignore_errors=True)
            timed["features_s"] = fresh_features(coll, run, {**env, "ROBOTASK_CACHE": str(run / "cache")},
                                                 ["--workers", str(max(workers, 1))])["wall_s"]
        cmd = suite_command(coll / "manifest.csv", run / "features" if cluster_counts else work / "features",
                            run / "suite", workers)
        full["points"].append({"path": "streamed", "episodes": args.full_size, "workers": workers, **timed,
                               **measure(cmd, env)})
        print(full["points"][-1], flush=True)
    if cluster_counts:
        full["cluster"] = [cluster_point(coll, work / "cluster" / f"w{n}", n, env) for n in cluster_counts]
    result = json.loads(args.result.read_text()) if args.result.is_file() else {}
    result["full_size"] = full
    print(f"wrote {io.write_json(args.result, result)}")


def fresh_features(coll: Path, run: Path, env: dict, where: list[str]) -> dict:
    """``robotask features --collection`` into ``run/features`` (``ROBOTASK_CACHE`` of ``env``: an empty folder),
    on ``where`` (``--workers N`` or ``--scheduler ADDR``): its wall time and peak memory."""
    run.mkdir(parents=True, exist_ok=True)
    return measure([sys.executable, "-m", "robotask.cli", "features", "--collection", str(coll / "manifest.csv"),
                    "--out", str(run / "features"), *where], env)


def cluster_point(coll: Path, run: Path, n: int, env: dict) -> dict:
    """Features then the suite of the collection on a CLI cluster of ``n`` workers started for them."""
    env = {**env, "ROBOTASK_CACHE": str(run / "cache")}  # the client's and every worker's: an empty cache
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    with CliCluster(run, n, env) as cluster:
        features = fresh_features(coll, run, env, ["--scheduler", cluster.address])
        suite = measure([*suite_command(coll / "manifest.csv", run / "features", run / "suite", 0),
                         "--scheduler", cluster.address], env)
        peaks = cluster.peaks_gb()
    point = {"episodes": len((coll / "manifest.csv").read_text().splitlines()) - 1, "workers": n,
             "features_s": features["wall_s"], "wall_s": suite["wall_s"], "client_peak_gb": suite["peak_gb"],
             "worker_peaks_gb": peaks, "peak_gb_per_worker": max(peaks)}
    print({"cluster": point}, flush=True)
    return point


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _high_water(proc: psutil.Process) -> int:
    """The peak resident memory of a live process in bytes (``VmHWM``; its current RSS where not readable)."""
    try:
        for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return proc.memory_info().rss


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


class CliCluster:
    """``dask scheduler`` and ``n`` × ``dask worker --nthreads 1`` from the venv's CLI, each in its own process
    group; the peak memory of each worker's processes is sampled while it runs, and leaving the ``with`` block
    ends them all and checks that none of their processes (a nanny's worker process too) is left."""

    def __init__(self, root: Path, n: int, env: dict) -> None:
        self.root, self.n, self.env = root, n, env
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.procs: list[subprocess.Popen] = []
        self.seen: dict[int, psutil.Process] = {}
        self.peaks: dict[int, int] = {}  # worker index: its processes' largest high-water mark so far
        self.done = threading.Event()

    def _start(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.root / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        dask = Path(sys.executable).parent / "dask"
        proc = subprocess.Popen([str(dask), *argv], stdout=log, stderr=log, env=self.env, start_new_session=True)
        self.procs.append(proc)
        return proc

    def __enter__(self) -> CliCluster:
        self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
                                  "--no-dashboard"])
        for i in range(self.n):
            self._start(f"worker{i}", ["worker", self.address, "--nthreads", "1", "--no-dashboard", "--name",
                                       f"w{i}", "--local-directory", str(self.root / "dask-scratch")])
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(self.n, timeout=120)
        self.sampler = threading.Thread(target=self._sample, daemon=True)
        self.sampler.start()
        return self

    def _tree(self, proc: subprocess.Popen) -> list[psutil.Process]:
        try:
            root = psutil.Process(proc.pid)
            tree = [root, *root.children(recursive=True)]
        except psutil.Error:
            return []
        self.seen.update({p.pid: p for p in tree})
        return tree

    def _sample(self) -> None:
        while True:
            self._tree(self.procs[0])
            for i, proc in enumerate(self.procs[1:]):
                tree = self._tree(proc)
                workers = tree[1:] or tree  # the nanny's worker process (the nanny itself with --no-nanny)
                for p in workers:
                    try:
                        self.peaks[i] = max(self.peaks.get(i, 0), _high_water(p))
                    except psutil.Error:
                        pass
            if self.done.wait(0.5):
                return

    def peaks_gb(self) -> list[float]:
        """Each worker's peak resident memory so far (GB)."""
        self.done.set()
        self.sampler.join()
        return [self.peaks.get(i, 0) / 1e9 for i in range(self.n)]

    def __exit__(self, *exc) -> None:
        self.done.set()
        for proc in self.procs:
            self._tree(proc)
        for proc in reversed(self.procs):  # the workers first, then the scheduler
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        time.sleep(1)
        left = [pid for pid, p in self.seen.items() if _alive(p)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        if left and exc[0] is None:
            raise SystemExit(f"the cluster left processes running: {left} (killed now)")


def _decode_episodes(paths_: list[str]) -> dict:
    """Decode every frame of each episode's six videos and its audio track with PyAV's defaults (no conversion,
    no copy) and read every array of its annotation file; the seconds of that work alone."""
    import av
    import h5py

    from robotask.episode.files import format as fmt

    def read_all(_name, node):
        if isinstance(node, h5py.Dataset):
            node[()]

    t0 = time.perf_counter()
    frames = samples = 0
    for episode in paths_:
        for stream in fmt.VIDEO_STREAMS:
            with av.open(str(Path(episode) / fmt.video_file(stream))) as container:
                frames += sum(1 for _ in container.decode(container.streams.video[0]))
        with av.open(str(Path(episode) / fmt.video_file(fmt.AUDIO_STREAM))) as container:
            samples += sum(f.samples for f in container.decode(container.streams.audio[0]))
        with h5py.File(Path(episode) / fmt.ANNOTATION, "r") as annotation:
            annotation.visititems(read_all)
    return {"seconds": time.perf_counter() - t0, "frames_decoded": frames, "audio_samples": samples}


def decode_floor(manifest: Path) -> dict:
    """The decode-only floor of a collection's episodes, timed in one spawned process (its imports excluded)."""
    from robotask.episode.files.manifest import load_collection

    episodes = [str(p) for p in load_collection(manifest).episodes["path"]]
    with mp.get_context("spawn").Pool(1) as pool:
        floor = pool.apply(_decode_episodes, (episodes,))
    return {"episodes": len(episodes), "processes": 1, **floor}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="8,32,128")
    ap.add_argument("--workers", default=None,
                    help="LocalCluster sizes besides the in-process run (default 1,2; with --cluster-workers: none)")
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
    ap.add_argument("--cluster-workers", default="",
                    help="with --full-size: also on a CLI cluster (dask scheduler + workers) of each of these "
                         "worker counts, e.g. 1,2, beside the decode-only floor")
    ap.add_argument("--result", type=Path, default=RESULT, help="the results file (a smoke run: elsewhere)")
    ap.add_argument("--work", type=Path, default=paths.BUILD / "collection_scale")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    env = {**os.environ, "ROBOTASK_PROGRESS": "0"}
    env.setdefault("ROBOTASK_CACHE", str(args.work / "cache"))
    if args.full_size:
        full_size_point(args, env)
        return
    if args.cluster_workers:
        raise SystemExit("--cluster-workers needs --full-size N")
    args.workers = "1,2" if args.workers is None else args.workers
    sizes = sorted(int(s) for s in args.sizes.split(","))
    kept = json.loads(args.result.read_text()) if args.result.is_file() else {}
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
    print(f"wrote {io.write_json(args.result, result)}")


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
