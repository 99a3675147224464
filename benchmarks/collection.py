"""Time a synthetic collection end to end: synthesis, features on Dask at 1 and 2 workers, the suite.

    .venv/bin/python benchmarks/collection.py [--episodes 16] [--frames 1200] [--resolution 128]

Measures the feature extraction of the whole collection from a cold cache with 1 and 2 LocalCluster
worker processes (wall time without the cluster start, speed-up, throughput in frames/s, peak resident
memory per worker), a decode-only pass over every video of the collection in the same run (the floor
of any video feature extractor), and the 12 tasks × 2 heads split by episode. Results go to
``_build/benchmarks/collection.json``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings
from pathlib import Path

from robotask import io, paths
from robotask.episode.features.distributed import extract_collection
from robotask.episode.files import format as fmt
from robotask.episode.files.manifest import load_collection
from robotask.episode.files.media import iter_video_frames
from robotask.episode.synthesis.varied import synth_collection
from robotask.episode.tasks.splits import episode_split
from robotask.episode.unseen.costs import measure_scaling
from robotask.episode.unseen.held_out import run_collection_suite
from robotask.episode.unseen.task_data import load_window_sets


def decode_floor(collection, frames: int) -> dict:
    """Decode every video of the collection at 32 px in this process: seconds and frames/s."""
    t0, n = time.perf_counter(), 0
    for folder in collection.episodes["path"]:
        for stream in fmt.VIDEO_STREAMS:
            for _ in iter_video_frames(Path(folder) / fmt.video_file(stream), 32, frames):
                n += 1
    wall = time.perf_counter() - t0
    return {"seconds": wall, "video_frames": n, "annotation_frames_per_s": n / len(fmt.VIDEO_STREAMS) / wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--episodes", type=int, default=16)
    ap.add_argument("--frames", type=int, default=1200)
    ap.add_argument("--resolution", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    os.environ.setdefault("ROBOTASK_PROGRESS", "0")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        synth_collection(Path(tmp) / "coll", args.episodes, args.frames, args.resolution, args.seed, workers=2)
        synth_s = time.perf_counter() - t0
        coll = load_collection(Path(tmp) / "coll")
        floor = decode_floor(coll, args.frames)
        scaling = measure_scaling(coll, [1, 2])
        results = {"episodes": args.episodes, "frames": args.frames, "resolution": args.resolution,
                   "cpus": os.cpu_count(), "synthesis_s": synth_s, "decode_only": floor,
                   "features": scaling.to_dict("records")}
        out = io.write_json(paths.BUILD / "benchmarks" / "collection.json", results)  # the suite part follows
        print(scaling.to_string(index=False), flush=True)
        os.environ["ROBOTASK_CACHE"] = str(Path(tmp) / "cache")
        extract_collection(coll, Path(tmp) / "features", progress=False)
        sets = load_window_sets(coll, Path(tmp) / "features")
        t0 = time.perf_counter()
        report = run_collection_suite(sets, episode_split(coll.episodes, 0.25, None, args.seed), progress=False)
        suite_s = time.perf_counter() - t0
    results.update(suite_s=suite_s, suite_primary=report["primary"], suite_status=report["status"])
    path = io.write_json(out, results)
    print(f"decode-only floor {floor['annotation_frames_per_s']:.0f} frames/s; suite {suite_s:.1f} s; wrote {path}")


if __name__ == "__main__":
    main()
