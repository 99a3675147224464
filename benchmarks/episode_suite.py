"""Time the twelve episode tasks with both heads on the default episode, from cached features.

Usage: ``.venv/bin/python benchmarks/episode_suite.py [--protocol original|improved|both] [--frames 5821]``.
Prints seconds per task and the peak RSS; writes ``_build/benchmarks/episode_suite.json``.
Targets (issue 6, 2 cores): all twelve tasks with both heads < 3 min, peak RSS < 3 GB.
"""

from __future__ import annotations

import argparse
import resource
import time

from robotask import paths
from robotask.episode import synth, windowset
from robotask.episode.suite import SuiteConfig, primary_table, run_suite
from robotask.io import write_json


def main() -> None:
    """Run the benchmark and print the per-task timings."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--protocol", default="both", help="original, improved or both")
    ap.add_argument("--frames", type=int, default=5821)
    ap.add_argument("--resolution", type=int, default=128)
    ap.add_argument("--schedule", default="repeating")
    ap.add_argument("--heads", default="minimal,mlp")
    args = ap.parse_args()
    t0 = time.perf_counter()
    ws = windowset.load_window_set(synth.ensure_episode(args.frames, 0, args.resolution, args.schedule))
    load_s = time.perf_counter() - t0
    doc = {"frames": args.frames, "windows": len(ws.X), "feature_dim": ws.X.shape[1], "load_seconds": load_s,
           "heads": args.heads, "protocols": {}}
    protocols = ["original", "improved"] if args.protocol == "both" else [args.protocol]
    for proto in protocols:
        t0 = time.perf_counter()
        rep = run_suite(ws, "all", args.heads, proto, None, SuiteConfig(save_models=False), progress=False)
        total = time.perf_counter() - t0
        print(f"\n== protocol {proto}: {total:.1f} s for 12 tasks ({args.heads})")
        for t, s in rep["timings"].items():
            print(f"  {t:28s} {s:6.1f} s wall  {rep['cpu_seconds'][t]:6.1f} s CPU")
        print(primary_table(rep).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        doc["protocols"][proto] = {"seconds": total, "per_task": rep["timings"], "cpu_per_task": rep["cpu_seconds"],
                                   "primary": rep["primary"]}
    rss_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    doc["peak_rss_gb"] = rss_gb
    print(f"\nfeatures loaded in {load_s:.1f} s; peak RSS {rss_gb:.2f} GB")
    write_json(paths.BUILD / "benchmarks" / "episode_suite.json", doc)


if __name__ == "__main__":
    main()
