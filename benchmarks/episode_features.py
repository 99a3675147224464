"""Time the episode data layer: synthetic generation, a decode-only pass, and the feature build.

Each measurement runs in a fresh (spawned) process, so its peak resident memory is its own:

    .venv/bin/python benchmarks/episode_features.py [--frames 5821] [--resolutions 128 512]

For every resolution it prints the generation wall and CPU time and peak RSS, a decode-only pass
over the six videos at 32×32 (the floor of any video feature extractor on this machine), and, when
``robotask.episode.features.windowset`` is available, the feature build time (no cache) and its ratio to the
decode-only pass. Then, interleaved in one sitting (floor, process, floor, process, … ``--rounds`` each), the
plain decode floor (PyAV decodes every frame of the six videos and the audio track, with PyAV's default
threading and no conversion) and the whole ``robotask features EPISODE --no-cache`` process (start,
imports, reading, writing); the ratio of their medians is the one to compare across runs, since the
machine's speed drifts between minutes. Results go to ``_build/benchmarks/episode_features.json``.
Targets (issue 5): generation and feature build each < 60 s at 128 px on 2 cores, peak RSS < 2 GB; (issue
34) the whole ``robotask features --no-cache`` process within 3× the plain decode floor.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
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


def _measured(fn, *args) -> dict:
    """Run ``fn(*args)`` here and return its result with wall, CPU and peak-RSS figures of this process."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    result = fn(*args) or {}
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {**result, "wall_s": time.perf_counter() - wall0, "cpu_s": time.process_time() - cpu0,
            "peak_rss_mb": usage.ru_maxrss / 1024}


def _generate(out: str, frames: int, resolution: int, schedule: str) -> dict:
    from robotask.episode.synthesis import generate as synth
    synth.generate_episode(out, frames=frames, resolution=resolution, schedule=schedule)
    size = sum(p.stat().st_size for p in Path(out).iterdir())
    return {"size_mb": size / 2 ** 20}


def _decode_only(episode: str, size: int = 32) -> dict:
    from robotask.episode.files import format as fmt
    from robotask.episode.files import media
    from robotask.episode.files.loader import load_episode
    ep = load_episode(episode)
    n = 0
    for stream in fmt.VIDEO_STREAMS:
        for _ in media.iter_video_frames(ep.path / fmt.video_file(stream), size, ep.n_frames):
            n += 1
    audio = media.read_audio(ep.audio_path)
    return {"frames_decoded": n, "audio_samples": 0 if audio is None else len(audio[0])}


def _decode_floor(episode: str) -> dict:
    """Decode every frame of the six videos and the audio track with PyAV's defaults: no conversion, no copy.

    ``decode_s`` times the decoding alone (the imports before it are not part of the floor).
    """
    import av

    from robotask.episode.files import format as fmt
    t0 = time.perf_counter()
    frames = samples = 0
    for stream in fmt.VIDEO_STREAMS:
        with av.open(str(Path(episode) / fmt.video_file(stream))) as container:
            for _ in container.decode(container.streams.video[0]):
                frames += 1
    with av.open(str(Path(episode) / fmt.video_file(fmt.AUDIO_STREAM))) as container:
        for frame in container.decode(container.streams.audio[0]):
            samples += frame.samples
    return {"frames_decoded": frames, "audio_samples": samples, "decode_s": time.perf_counter() - t0}


CLI = "import sys; from robotask.cli import main; sys.exit(main(sys.argv[1:]))"


def features_process(episode: str, out: str) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, all its threads) of one whole ``robotask features EPISODE
    --no-cache --out OUT`` process."""
    env = {**os.environ, "ROBOTASK_PROGRESS": "0"}
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", CLI, "features", episode, "--no-cache", "--out", out], env=env,
                   check=True, stdout=subprocess.DEVNULL, cwd=paths.ROOT)  # this checkout's robotask
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def interleaved_ratio(episode: str, out: str, rounds: int = 3) -> dict:
    """The decode floor and the whole features process, alternated ``rounds`` times; the ratio of medians.

    The floor runs in a spawned process and times its decoding alone; the features process is timed
    from outside, start and imports included, wall and CPU (its CPU above its wall is the second core
    at work; CPU near wall on an idle machine means one core, on a busy one that the other was taken).
    """
    floors, process, cpu = [], [], []
    for _ in range(rounds):
        floors.append(run_in_child(_decode_floor, episode)["decode_s"])
        wall, used = features_process(episode, out)
        process.append(wall)
        cpu.append(used)
    floor, whole = statistics.median(floors), statistics.median(process)
    return {"rounds": rounds, "floor_s": floors, "features_process_s": process, "features_process_cpu_s": cpu,
            "floor_median_s": floor, "features_process_median_s": whole,
            "features_process_cpu_median_s": statistics.median(cpu), "features_process_over_floor": whole / floor}


def _features(episode: str, cache_root: str) -> dict:
    os.environ["ROBOTASK_CACHE"] = cache_root  # no per-frame cache reuse
    from robotask.episode.features import windowset
    ws = windowset.load_window_set(episode)
    return {"windows": int(ws.X.shape[0]), "dims": int(ws.X.shape[1])}


def run_in_child(fn, *args) -> dict:
    """Run one measurement in a spawned process and return its figures."""
    with mp.get_context("spawn").Pool(1) as pool:
        return pool.apply(_measured, (fn, *args))


def features_available() -> bool:
    """True when the window-set module (written by the features engineer) can be imported."""
    try:
        from robotask.episode.features import windowset
    except ImportError:
        return False
    return hasattr(windowset, "load_window_set")


def main() -> None:
    """Run the benchmark for each resolution and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=5821, help="frames of the synthetic episode")
    parser.add_argument("--resolutions", type=int, nargs="+", default=[128, 512], help="video sizes to time")
    parser.add_argument("--schedule", default="repeating", help="action schedule")
    parser.add_argument("--no-features", action="store_true", help="skip the feature build")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of floor and features process")
    args = parser.parse_args()
    results = {"frames": args.frames, "cpu_count": os.cpu_count(), "runs": []}
    for res in args.resolutions:
        work = Path(tempfile.mkdtemp(prefix="robotask-bench-"))
        try:
            ep = str(work / "episode")
            row = {"resolution": res, "generation": run_in_child(_generate, ep, args.frames, res, args.schedule)}
            g = row["generation"]
            print(f"[{res} px] generation {g['wall_s']:.1f} s wall, {g['cpu_s']:.1f} s CPU (main thread+workers "
                  f"of the process), peak RSS {g['peak_rss_mb']:.0f} MB, {g['size_mb']:.0f} MB on disk", flush=True)
            row["decode_only"] = d = run_in_child(_decode_only, ep)
            print(f"[{res} px] decode-only (6 videos at 32 px + audio) {d['wall_s']:.1f} s, "
                  f"peak RSS {d['peak_rss_mb']:.0f} MB", flush=True)
            if not args.no_features and features_available():
                row["features"] = f = run_in_child(_features, ep, str(work / "cache"))
                f["ratio_to_decode_only"] = f["wall_s"] / max(d["wall_s"], 1e-9)
                print(f"[{res} px] feature build {f['wall_s']:.1f} s ({f['ratio_to_decode_only']:.2f}× decode-only), "
                      f"peak RSS {f['peak_rss_mb']:.0f} MB, X {f['windows']}×{f['dims']}", flush=True)
                row["interleaved"] = i = interleaved_ratio(ep, str(work / "features"), args.rounds)
                print(f"[{res} px] interleaved × {i['rounds']}: plain decode floor (6 videos + audio) "
                      f"{', '.join(f'{t:.2f}' for t in i['floor_s'])} s, whole `robotask features --no-cache` "
                      f"{', '.join(f'{t:.2f}' for t in i['features_process_s'])} s (CPU "
                      f"{', '.join(f'{t:.2f}' for t in i['features_process_cpu_s'])} s); ratio of medians "
                      f"{i['features_process_over_floor']:.2f} (target ≤ 3)", flush=True)
                if res == args.resolutions[0]:
                    results.update({k: i[k] for k in ("floor_median_s", "features_process_median_s",
                                                      "features_process_over_floor")}, resolution=res)
            results["runs"].append(row)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    path = paths.BUILD / "benchmarks" / "episode_features.json"
    if path.is_file():  # keep earlier runs at other resolutions of the same episode length
        import json
        old = json.loads(path.read_text())
        if old.get("frames") == args.frames:
            done = {r["resolution"] for r in results["runs"]}
            results["runs"] = [r for r in old.get("runs", []) if r["resolution"] not in done] + results["runs"]
    io.write_json(path, results)
    print(f"saved {path.relative_to(paths.ROOT)}")


if __name__ == "__main__":
    main()


# ==================================================================================================
# Per-stage timing of the feature build (appended by the episode-features engineer; the code above
# is the data engineer's). Not wired into main(); call it without triggering main():
#   .venv/bin/python -c "import runpy; f = runpy.run_path('benchmarks/episode_features.py')
#   ['feature_stage_timings']; print(f('_build/cache/episodes/<episode>'))"
# ==================================================================================================

def feature_stage_timings(episode_dir: str, workers: int = 1) -> dict:
    """Seconds per stage of the window-set build (``robotask.episode.features.windowset``) on one episode, caches off.

    Stages: loading, motion blocks (hands, body, contacts, camera, IMU), depth, each video stream
    (decode + per-frame features; ``workers`` > 1 times the six streams together instead), audio,
    caption text, and the window statistics of the per-frame arrays.
    """
    import warnings

    from robotask.episode.features import perframe
    from robotask.episode.features import windows as W
    from robotask.episode.features.layout import FeatureOptions
    from robotask.episode.features.windowset import motion_blocks
    from robotask.episode.files.format import VIDEO_STREAMS
    from robotask.episode.files.loader import load_episode

    warnings.simplefilter("ignore")
    times: dict[str, float] = {}

    def timed(name, fn, *args, **kwargs):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        times[name] = round(time.perf_counter() - t0, 3)
        return out

    options = FeatureOptions()
    ep = timed("load_episode", load_episode, episode_dir)
    starts = W.window_starts(ep.n_frames, options.window, options.stride)
    timed("motion_blocks", motion_blocks, ep, starts, options)
    per_frame = {"depth": timed("depth", perframe.depth_features, ep, options, cache=False)[0]}
    if workers > 1:
        from concurrent.futures import ThreadPoolExecutor

        def all_videos():
            with ThreadPoolExecutor(workers) as pool:
                return list(pool.map(lambda v: perframe.video_features(ep, v, options, cache=False)[0], VIDEO_STREAMS))

        for v, arr in zip(VIDEO_STREAMS, timed(f"video_all_{workers}_threads", all_videos)):
            per_frame[v] = arr
    else:
        for v in VIDEO_STREAMS:
            per_frame[v] = timed(f"video_{v}", perframe.video_features, ep, v, options, cache=False)[0]
    per_frame["audio"] = timed("audio", perframe.audio_features, ep, options, cache=False)[0]
    per_frame["text"] = timed("text", perframe.text_features, ep, options)[0]
    timed("window_stats", lambda: [W.window_stats(a, starts, options.window) for a in per_frame.values()])
    times["total"] = round(sum(times.values()), 3)
    times["n_frames"] = int(ep.n_frames)
    times["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return times
