"""Saved benchmark results as the reproduction page (chapter 99) shows them: a heading, the measures
with their units, the worker-scaling table with its legend, the collection-size curve and table, and a
collection's suite table."""

from __future__ import annotations

import pandas as pd

from ..plots import PALETTE, styled
from ..words import count
from .report import human_header, show_figure, show_md, show_table

BENCHMARKS = {  # file stem of _build/benchmarks/*.json (or a live run): title, what it measures
    "retrieval_live": ("Retrieval study, timed in this build by chapter 05",
                       "the whole retrieval study with the fast path, and the first trials again with a plain "
                       "reference that refits every vectorizer and scores one query at a time"),
    "retrieval": ("Retrieval study against the plain reference (`benchmarks/retrieval.py`)",
                  "the fast path and the plain reference on the whole study"),
    "episode_suite": ("One synthetic episode, end to end (`benchmarks/episode_suite.py`)",
                      "decoding, the feature build and every task on one synthetic episode"),
    "episode_features": ("Per-frame features of one episode (`benchmarks/episode_features.py`)",
                         "the per-frame feature build of one synthetic episode, and the whole `robotask features "
                         "--no-cache` process beside a plain decode of the same six videos and audio, "
                         "interleaved in one sitting (medians over rounds)"),
    "collection": ("A synthetic collection on one and more workers (`benchmarks/collection.py`)",
                   "synthesis, feature extraction with each number of worker processes, and every task with "
                   "two heads, split by episode"),
    "collection_scale": ("The suite over growing collections (`benchmarks/collection_scale.py`)",
                         "`robotask suite --collection` with the minimal heads on the first episodes of one "
                         "synthetic collection (the sizes in its table), in one process and on Dask workers, "
                         "with the in-memory path of before beside it where it fits"),
    "original_suite": ("Our suite against the original (`benchmarks/original_suite.py`)",
                       "the twelve tasks with both heads on one synthetic episode, ours and the original task "
                       "suite's `scripts/episode_task_suite.py --include-neural`, interleaved in one sitting, "
                       "each from an empty cache (cold) and again on its cache (warm); medians over rounds"),
    "original_suite_minimal": ("Our suite against the original, minimal heads "
                               "(`benchmarks/original_suite.py --heads minimal`)",
                               "the twelve tasks with the minimal heads alone on one synthetic episode, ours and the "
                               "original's `scripts/episode_task_suite.py` without `--include-neural`, interleaved in "
                               "one sitting, cold and warm as above; medians over rounds"),
}
MEASURE_LABELS = {  # a measure as the reader reads it, with its unit
    "study_s": "Whole study: wall time (s)", "study_cpu_s": "Whole study: CPU time (s)",
    "fast_s": "Compared designs, fast path (s)", "reference_s": "Compared designs, plain reference (s)",
    "ratio": "Fast path speed-up over the reference (×)",
    "n_evaluations": "Compared gallery × ranker evaluations", "n_predictions": "Compared predictions",
    "reference_trials": "Trials of each design timed with the reference",
    "identical": "Identical predictions",
    "episodes": "Episodes", "frames": "Frames per episode", "resolution": "Resolution (px)",
    "cpus": "Processors of the machine", "synthesis_s": "Synthesis of the collection (s)",
    "decode_floor": "Decoding the videos alone (s)",
    "feature_build": "Per-frame feature build, no cache (s)",
    "feature_over_floor": "Feature build over decoding alone (×)",
    "floor_median_s": "Plain decode of the six videos and the audio, median (s)",
    "features_process_median_s": "Whole `robotask features --no-cache` process, median (s)",
    "features_process_over_floor": "Whole features process over the plain decode, ratio of medians (×)",
    "cpu_count": "Processors of the machine",
    "cold_run": "Suite, minimal heads, empty feature cache (s)",
    "cold_peak_rss_gb": "Suite, empty feature cache: peak memory of one process (GB)",
    "jobs": "Suite: task processes (--jobs)",
    "warm_run": "Suite, minimal heads, features cached (s)",
    "both_heads": "Every task, minimal head and MLP (s)",
    "minimal_heads": "Every task, minimal head (s)",
    "suite_s": "Suite on the collection, split by episode (s)",
    "n_rounds": "Interleaved rounds", "original_cold_s": "Original suite, empty cache (s)",
    "ours_cold_s": "Our suite, empty cache (s)", "cold_ratio": "Ours over the original, empty cache (×)",
    "cold_ratio_target": "Target for the empty cache (×)", "original_warm_s": "Original suite, cached (s)",
    "ours_warm_s": "Our suite, features cached (s)", "warm_ratio": "Ours over the original, cached (×)",
    "warm_ratio_target": "Target with the cache (×)",
}
SCALING_HEADERS = {
    "run": "Run", "workers": "Workers", "wall_s": "Wall time (s)", "frames_per_s": "Frames/s",
    "speedup": "Speed-up (×)", "peak_mb": "Peak memory per worker (MB)",
    "episode_s": "Seconds per episode",
}


def benchmark_heading(name: str) -> str:
    """A benchmark's bold title and one sentence on what it measures (unknown names as they are)."""
    title, what = BENCHMARKS.get(name, (f"`{name}`", ""))
    return f"**{title}.**" + (f" Measures {what}." if what else "")


def _measure_value(value: object) -> str:
    """A measured scalar as text: 4 significant digits, integers whole, yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"
    return str(value)


def benchmark_measures(result: dict) -> pd.DataFrame:
    """The scalar measures of one benchmark result (nested tables are shown on their own):
    ``Measure`` (its label with the unit) and ``Value``, in the order of :data:`MEASURE_LABELS`."""
    scalars = {k: v for k, v in result.items() if v is not None and not isinstance(v, (dict, list))}
    order = [k for k in MEASURE_LABELS if k in scalars] + [k for k in scalars if k not in MEASURE_LABELS]
    return pd.DataFrame({"Measure": [MEASURE_LABELS.get(k, human_header(k)) for k in order],
                         "Value": [_measure_value(scalars[k]) for k in order]})


def scaling_table(result: dict) -> pd.DataFrame | None:
    """Feature extraction with each number of workers (``result["features"]``), and decoding the
    videos alone in one process (``result["decode_only"]``) as the last row; None if not measured."""
    if not result.get("features"):
        return None
    rows = [{"run": "feature extraction", **r} for r in result["features"]]
    floor = result.get("decode_only")
    if floor:
        rows.append({"run": "decoding the videos only (the floor)", "workers": 1,
                     "wall_s": floor["seconds"], "frames_per_s": floor["annotation_frames_per_s"]})
    columns = [c for c in SCALING_HEADERS if any(c in r for r in rows)]
    return pd.DataFrame(rows).reindex(columns=columns).rename(columns=SCALING_HEADERS)


def scaling_legend(result: dict) -> str:
    """What the columns of :func:`scaling_table` mean, with their units."""
    n_frames = int(result.get("episodes", 0)) * int(result.get("frames", 0))
    whole = f" ({n_frames} frames)" if n_frames else ""
    return (f"Wall time: seconds to extract the features of the whole collection{whole}, from an "
            "empty cache, without starting the worker processes. Frames/s: episode frames (with "
            "all their video streams) per second of wall time. Speed-up: the wall time of one "
            "worker divided by this row's. Peak memory per worker: the largest peak resident memory of "
            "any worker process, in MB. Seconds per episode: the mean time one worker spent on one "
            "episode. The last row decodes every video in the main process and does nothing else: "
            "no feature extractor that reads the videos can be faster than this floor.")


SCALE_HEADERS = {"path": "Path", "episodes": "Episodes", "workers": "Dask workers (0: in process)",
                 "wall_s": "Wall time (s)", "peak_gb": "Peak memory, whole process tree (GB)"}


def full_size_label(full: dict) -> str:
    """How the table and the figure name the full-size point (``result["full_size"]``)."""
    return f"full-size episodes ({full['frames']:,} frames, {full['resolution']} px)"


def scale_table(result: dict) -> pd.DataFrame | None:
    """The collection-size runs (``result["scale"]``), then the projection to the full dataset as a last row
    labelled a projection; None if not measured."""
    if not result.get("scale"):
        return None
    rows = [dict(r) for r in result["scale"]]
    full = result.get("full_size")
    if full:
        rows += [{**r, "path": f"streamed, {full_size_label(full)}"} for r in full["points"]]
    proj = result.get("projection")
    if proj:
        rows.append({"path": "streamed: projection, not measured", "episodes": proj["episodes"], "workers": 0,
                     "wall_s": proj["wall_s"], "peak_gb": proj["peak_gb"]})
    return pd.DataFrame(rows).reindex(columns=list(SCALE_HEADERS)).rename(columns=SCALE_HEADERS)


GROWTH_HEADERS = {"path": "Path", "workers": "Dask workers (0: in process)", "from": "From (episodes)",
                  "to": "To (episodes)", "time": "Wall time, ratio (×)", "memory": "Peak memory, ratio (×)"}


def growth_table(result: dict, factor: int = 4) -> pd.DataFrame | None:
    """Each measured size against the measured size ``factor`` times smaller, on the same path and workers:
    the ratios of wall time and of peak memory (linear growth in time reads ``factor``×); None if no
    path has two such sizes."""
    rows = []
    for point in result.get("scale") or []:
        base = next((p for p in result["scale"] if p["path"] == point["path"] and p["workers"] == point["workers"]
                     and p["episodes"] * factor == point["episodes"]), None)
        if base is not None:
            rows.append({"path": point["path"], "workers": point["workers"], "from": base["episodes"],
                         "to": point["episodes"], "time": point["wall_s"] / base["wall_s"],
                         "memory": point["peak_gb"] / base["peak_gb"]})
    if not rows:
        return None
    frame = pd.DataFrame(rows).sort_values(["path", "workers", "to"], kind="stable")
    return frame.reindex(columns=list(GROWTH_HEADERS)).rename(columns=GROWTH_HEADERS).reset_index(drop=True)


def growth_legend(factor: int = 4) -> str:
    """What :func:`growth_table` shows."""
    return (f"Growth of each run against the same path on {factor} times fewer episodes. Time that grows "
            f"linearly with the collection reads {factor}×; memory bounded by one episode reads about 1×. The "
            "path with the gradient heads in the primal runs, at every size, the algorithm the largest "
            "collections use (no Gram matrix of the training rows), so its growth is that of the algorithm "
            "alone; the streamed path switches out of the dual between these sizes.")


RELEASE_EPISODES = 12_103  # episodes of the full Xperience-10M release
MACHINES = (1, 2, 4, 8, 16, 32)  # the machine counts of the projection
THROUGHPUT_HEADERS = {"run": "Run", "workers": "Worker processes", "features_s": "Features (s)",
                      "suite_s": "Suite (s)", "total_s": "Wall time (s)", "per_hour": "Episodes per hour",
                      "peak_gb": "Peak memory (GB)", "client_gb": "Client's peak memory (GB)"}


def _per_hour(episodes: int, seconds: float) -> float:
    return episodes * 3600 / seconds if seconds > 0 else float("nan")


def full_size_throughput(result: dict) -> pd.DataFrame | None:
    """The full-size episodes (``result["full_size"]``) measured in one sitting on a cluster of separate processes:
    the decode-only floor, the one-process run and each CLI cluster, with the features and suite seconds, their sum,
    episodes per hour of that sum, and the peak memory (per worker process on a cluster, of the whole process tree in
    one process; on a cluster also that of the client's process tree, where the suite scores and solves the ridges);
    None when no cluster was measured."""
    full = result.get("full_size") or {}
    if not full.get("cluster"):
        return None
    rows = []
    floor = full.get("decode_floor")
    if floor:
        rows.append({"run": "decoding the videos and reading the annotation only (the floor)",
                     "workers": floor.get("processes", 1), "total_s": floor["seconds"],
                     "per_hour": _per_hour(floor["episodes"], floor["seconds"])})
    for point in full.get("points", []):
        if point["workers"] == 0 and "features_s" in point:
            total = point["features_s"] + point["wall_s"]
            rows.append({"run": "one process (its features on one worker process)", "workers": 1,
                         "features_s": point["features_s"], "suite_s": point["wall_s"], "total_s": total,
                         "per_hour": _per_hour(point["episodes"], total), "peak_gb": point["peak_gb"]})
    for point in sorted(full["cluster"], key=lambda p: p["workers"]):
        total = point["features_s"] + point["wall_s"]
        rows.append({"run": f"CLI cluster, {count(int(point['workers']), 'worker')}", "workers": point["workers"],
                     "features_s": point["features_s"], "suite_s": point["wall_s"], "total_s": total,
                     "per_hour": _per_hour(point["episodes"], total), "peak_gb": point["peak_gb_per_worker"],
                     "client_gb": point.get("client_peak_gb")})
    frame = pd.DataFrame(rows).reindex(columns=list(THROUGHPUT_HEADERS))
    return frame.rename(columns=THROUGHPUT_HEADERS)


def _machine_point(result: dict) -> dict | None:
    """The cluster point that stands for one machine: the one with the most workers (all on the measuring machine)."""
    cluster = (result.get("full_size") or {}).get("cluster") or []
    return max(cluster, key=lambda p: p["workers"]) if cluster else None


def release_projection(result: dict, machines: tuple[int, ...] = MACHINES) -> pd.DataFrame | None:
    """Hours for the full release's :data:`RELEASE_EPISODES` episodes on each number of machines, from the episodes
    per hour of the largest measured cluster as one machine, assuming linear scaling across machines (a projection,
    not a measurement); None when no cluster was measured."""
    point = _machine_point(result)
    if point is None:
        return None
    per_hour = _per_hour(point["episodes"], point["features_s"] + point["wall_s"])
    return pd.DataFrame({"Machines": list(machines),
                         "Episodes per hour (projection)": [m * per_hour for m in machines],
                         "Hours for 12,103 episodes (projection)": [RELEASE_EPISODES / (m * per_hour)
                                                                    for m in machines]})


def full_size_cluster_text(result: dict) -> str:
    """The sentences under the full-size cluster tables: the suite's share of the time, what stands for a
    machine and the projection's assumption; or that no cluster point was measured yet."""
    p = _machine_point(result)
    if p is None:
        return ("The saved results have no full size run on a cluster of separate processes yet, so this page "
                "shows neither its throughput nor the projection to the full release.")
    full, workers = result["full_size"], count(int(p["workers"]), "worker")
    return (f"Measured on {count(int(full['episodes']), 'synthetic episode')} of {full['frames']:,} frames at "
            f"{full['resolution']} px, one machine's scheduler and workers started from the command line. With "
            f"{workers} the suite took {100 * p['wall_s'] / (p['wall_s'] + p['features_s']):.0f} % of the time; "
            f"at this size its scoring and ridge solves run in the client, which more workers speed up little "
            f"(the table's features and suite columns). The projection takes the "
            f"{workers} of this machine as one machine and assumes that throughput grows linearly with the "
            f"number of machines, each running its own workers against one shared file system that keeps up; "
            f"that scaling was not measured, and while the client does most of the suite's work it is "
            f"optimistic for one suite run spread over every machine.")


def show_full_size_cluster(result: dict) -> None:
    """The full-size throughput table and the projection to the full release, with their sentence, or the one
    sentence saying that no cluster point was measured."""
    table = full_size_throughput(result)
    if table is not None:
        show_table(table, digits=1)
        show_table(release_projection(result), digits=1)
    show_md(full_size_cluster_text(result))


MEMORY_TICKS = (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)  # GB: the labelled values of the memory axis
LINESTYLES = {"streamed": "-", "in memory": ":"}  # any other path (the streamed path in the primal): dash-dot


@styled
def figure_collection_scale(result: dict):
    """Wall time and peak memory against collection size (log–log), one line per path and worker count,
    and the projection to the full dataset as a dashed line to an open marker; None if not measured."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter

    points = pd.DataFrame(result.get("scale") or [])
    if points.empty:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 3.6), layout="constrained")
    proj = result.get("projection")
    for i, ((path, workers), run) in enumerate(points.groupby(["path", "workers"], sort=True)):
        run = run.sort_values("episodes")
        label = f"{path}, " + ("in process" if workers == 0 else f"{count(int(workers), 'Dask worker')}")
        for ax, key in zip(axes, ("wall_s", "peak_gb")):
            ax.plot(run["episodes"], run[key], marker="o", color=PALETTE[i % len(PALETTE)],
                    linestyle=LINESTYLES.get(path, "-."), label=label)
            if proj and path == "streamed" and workers == 0:
                last = run.iloc[-1]
                ax.plot([last["episodes"], proj["episodes"]], [last[key], proj[key]], linestyle="--",
                        color=PALETTE[i % len(PALETTE)], label="projection (not measured)")
                ax.plot([proj["episodes"]], [proj[key]], marker="o", fillstyle="none",
                        color=PALETTE[i % len(PALETTE)])
    full = result.get("full_size")
    for point in (full or {}).get("points", []):
        label = f"{full_size_label(full)}, " + ("in process" if point["workers"] == 0
                                                 else count(int(point["workers"]), "Dask worker"))
        for ax, key in zip(axes, ("wall_s", "peak_gb")):
            ax.plot([point["episodes"]], [point[key]], marker="*", markersize=11, linestyle="none",
                    color="black" if point["workers"] == 0 else "dimgray", label=label)
    plain = FuncFormatter(lambda v, _: f"{v:,.10g}")
    ticks = sorted({*points["episodes"].astype(int), *([proj["episodes"]] if proj else [])})
    for ax, unit in zip(axes, ("Wall time (s)", "Peak memory (GB)")):
        ax.set(xscale="log", yscale="log", xlabel="Episodes in the collection", ylabel=unit)
        ax.set_xticks(ticks)  # the measured sizes and the projection's
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(plain)
            axis.set_minor_formatter(NullFormatter())
    low, high = axes[1].get_ylim()  # memory spans less than a decade or two: label 1-2-5 steps, not decades alone
    axes[1].set_yticks([v for v in MEMORY_TICKS if low <= v <= high])
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 3), fontsize=8)
    return fig


def primary_table(primary: dict, status: dict | None = None, names: dict | None = None,
                  metrics: dict | None = None) -> pd.DataFrame:
    """One row per task of a suite result: ``primary`` maps a task to its ``metric`` and the values
    of ``baseline``, ``minimal`` and ``mlp``; ``status`` a task to ``{"status": ...}``; ``names``
    and ``metrics`` give the reader's names of tasks and metric keys."""
    rows = []
    for task, p in primary.items():
        metric = p.get("metric", "")
        rows.append({"Task": (names or {}).get(task, task),
                     "Primary metric": (metrics or {}).get(metric, metric.replace("_", " ")),
                     "Baseline": p.get("baseline"), "Minimal head": p.get("minimal"),
                     "MLP": p.get("mlp"),
                     "Status": ((status or {}).get(task) or {}).get("status", "")})
    frame = pd.DataFrame(rows)
    return frame.drop(columns=[c for c in ("Primary metric", "Status") if not frame[c].any()])


def primary_legend(result: dict) -> str:
    """What the suite table of a collection benchmark shows (``suite_primary``, ``suite_s``)."""
    n = len(result.get("suite_primary") or {})
    took = f" ({result['suite_s']:.1f} s in all)" if result.get("suite_s") is not None else ""
    return (f"The suite on the collection{took}: the {count(n, 'task')}, trained on some episodes "
            "and tested on the others, with the primary metric of each task for the trivial baseline, the "
            "minimal head and the MLP; a dash marks a head that did not run. The direction of each "
            "metric is stated on the task's page.")


def no_measure_text(result: dict) -> str:
    """The sentence for a saved benchmark result with nothing to show in its own tables (a ``collection_scale``
    result that holds only its ``--full-size`` point, shown in the next section, has no curve)."""
    if result.get("full_size"):
        return ("Only its `--full-size` point was saved on this machine (*Full size on a cluster*, below): no "
                "collection sizes, so no curve. `python benchmarks/collection_scale.py` measures them.")
    return "This result holds no measure to show."


def show_benchmark(name: str, result: dict, task_names: dict | None = None,
                   metric_labels: dict | None = None) -> None:
    """One saved benchmark for a reader: its heading, its measures, the worker-scaling table with
    its legend, and the suite's primary metrics, where the result has them."""
    show_md(benchmark_heading(name))
    measures = benchmark_measures(result)
    if len(measures):
        show_table(measures)
    elif not any(result.get(k) for k in ("features", "scale", "suite_primary")):
        show_md(no_measure_text(result))
    scaling = scaling_table(result)
    if scaling is not None:
        show_table(scaling, digits=1)
        show_md(scaling_legend(result))
    scale = scale_table(result)
    if scale is not None:
        show_figure(figure_collection_scale(result), "fig-collection-scale",
                    "The suite over growing collections: wall time (left) and peak memory of the whole process "
                    "tree (right) against the number of episodes, all on log scales. Solid: the "
                    "streamed path, in one process or on Dask workers; dash-dot: the same path in one process with "
                    "every gradient head in the primal, where measured; dotted: the in-memory path of before, "
                    "where it fits; dashed to an open circle: the projection to the full dataset from the slope "
                    "of the two largest measured sizes, not a measurement; stars: episodes of the real sample's size, "
                    "with about ten times the windows of the curve's 600-frame episodes, where measured. The memory "
                    "includes the exact ridge's Gram matrix, held as its lower triangle (half of "
                    "min(training rows, features)² float64 numbers), which stops growing once the rows outnumber the "
                    "features; a slope measured before "
                    "or across that point overstates the memory beyond it.",
                    "Two line plots of wall time and peak memory against collection size, one line per path "
                    "and worker count, with a dashed projection to 12,103 episodes.")
        show_table(scale, digits=2)
        growth = growth_table(result)
        if growth is not None:
            show_table(growth, digits=2)
            show_md(growth_legend())
    if result.get("suite_primary"):
        show_table(primary_table(result["suite_primary"], result.get("suite_status"), task_names,
                                 metric_labels), digits=3)
        show_md(primary_legend(result))
