# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Reproducing this book
#
# This page records what produced the book you are reading: the commit, the parameters each chapter
# was executed with, the package versions, the instruction libraries and their upstream revisions,
# the machine, and how long each chapter took. Everything below is read from the build itself (the
# runner's log `run_log.json`, the installed packages, the shipped data); nothing is typed in.
#
# - **Inputs:** the run log written by `robotask run`, the installed packages, `data/*/corpus.csv`,
#   saved benchmark results.
# - **Outputs:** the tables below and `timings.json` (run times; not compared between runs).

# %% tags=["parameters"]
run_log: str = ""  # the runner log of this build (empty: the one robotask run writes for it)
benchmarks_dir: str = "_build/benchmarks"  # JSON saved by benchmarks/*.py, if any
run_retrieval_benchmark: bool = False  # time it again here (chapter 05 timed it in this build)
output_dir: str = ""  # result folder (empty: _build/results/99_reproducing)

# %% tags=["remove-input"]
from myst_nb import glue

from robotask import paths
from robotask.book import (Page, build_stamp, chapter_benchmark, library_revisions,
                           package_versions, parameter_table, plain_value, platform_summary,
                           read_benchmarks, read_run_log, run_table, run_time_values,
                           show_benchmark, show_full_size_cluster, show_md)
from robotask.episode.report import METRIC_LABELS
from robotask.episode.tasks import TASKS
from robotask.io import write_json

page = Page("99_reproducing")
out = page.output_dir(output_dir)
log = read_run_log(run_log or "_build/run_log.json")
runs = run_table(log)
runs = runs[runs["chapter"] != "99_reproducing"].reset_index(drop=True)  # an earlier run of it
for name, value in run_time_values(runs).items():
    glue(name, value, display=False)
sets = list(dict.fromkeys(runs["set"]))  # the parameter sets this build's chapters ran with
glue("parameter_sets", (" and ".join(sets) or "(none in the run log)")
     + (" (by chapter in the run-time table)" if len(sets) > 1 else ""), display=False)

# %% [markdown]
# ## Which build this is
#
# The commit of the repository the chapters were executed from, and when this page was executed
# (the book is built right after it). A build from a working tree with changes says so. Its chapters
# ran with the parameter set **{glue:text}`parameter_sets`**: `paper` is the study's scale, whose
# numbers the book reads; `smoke` runs each chapter in seconds to check the code, and its numbers are
# not the study's.

# %% tags=["remove-input"]
page.show_table(build_stamp(), headers={"item": "Record", "value": "Value"},
                caption="The commit this book was built from and the date of the build.")

# %% [markdown]
# ## How to reproduce it
#
# On a machine with Python 3.11 and access to the package registries, two commands rebuild
# everything from a fresh clone: `make book` creates `.venv` from the pinned `requirements.txt`,
# executes every chapter with the `paper` parameter set and builds the HTML; `make test` runs the
# unit tests, executes every chapter with the `smoke` parameter set, validates the executed notebooks
# with nbval, and compares the result files of two runs byte for byte. One chapter can be re-run with
# other parameters, for example `robotask run 02_five_rankers -p n_trials 200`; its executed copy
# replaces the one the book shows only when the run succeeds.
#
# **What must be the same on your machine.** Every random choice (gallery draws, bootstrap
# replicates, synthetic episodes, fold assignments, network initialisations) takes a seed from the
# chapter's parameters, so a rebuild with the same parameters and the same package versions gives
# the same numbers, table for table. Two things may differ: run times, which depend on the machine
# and on what else it is doing, and the last digits of results computed with another BLAS or another
# version of PyTorch, NumPy or scikit-learn than those listed below.

# %% [markdown]
# ## Chapter run times
#
# The {glue:text}`n_chapters` chapters of this build took **{glue:text}`total_s:.0f` s** of notebook
# execution in total; the slowest was {glue:text}`slowest` ({glue:text}`slowest_s:.1f` s). This page's
# own run is not included. Chapters run two at a time on the build machine beside chapter 14 (three while
# it waits), so the wall time of the whole build is shorter than this sum; chapter 14, which times parallel
# work, waits until it has the machine to itself and reports only its own time.
#
# Wall time depends on what ran beside a chapter. Its CPU time does not: the seconds of processor time
# of the chapter's kernel and of the processes it started (chapter 14's workers), **{glue:text}`total_cpu_s:.0f`
# s** for all chapters. That is what a chapter costs, whatever ran beside it.

# %% tags=["remove-input"]
page.show_table(runs, digits=1, headers={"set": "Parameter set", "seconds": "Run time (s)",
                                         "cpu_seconds": "CPU time (s)"},
                caption="Wall time and CPU time of each chapter in this build, "
                "with its parameter set.")

# %% [markdown]
# ## Parameters
#
# Values passed to each chapter by its parameter set, a parameter file or `-p`; every other
# parameter kept the default of its notebook's parameters cell (`notebooks/<chapter>.py`; the cell
# is not shown on the chapter's page). `robotask run --list <chapter>` prints every parameter with its
# type, default, allowed range and meaning.

# %% tags=["remove-input"]
params = parameter_table(log)
params["value"] = params["parameter"] + " = " + params["value"].map(plain_value)
per_chapter = params.groupby("chapter", sort=False)["value"].agg("; ".join).reset_index()
page.show_table(per_chapter, headers={"chapter": "Chapter", "value": "Values passed"},
                caption="Parameter values passed to each chapter (others kept their defaults).")

# %% [markdown]
# ## Data
#
# The retrieval chapters read instruction libraries that this repository ships, each extracted from a
# public repository at a fixed revision, with the extraction's accounting, a NOTICE with its licence,
# and the command that re-extracts it in its `README.md` (`data/<library>/`). The episode chapters
# read synthetic episodes that the build generates from a seed, in the exact on-disk format of
# Xperience-10M; no episode is downloaded.

# %% tags=["remove-input"]
page.show_table(library_revisions(), caption="The instruction libraries this build read, with "
                "the upstream revision each was extracted from.")

# %% [markdown]
# ## Software and machine
#
# Every distribution the package, the chapters and the tests import, read from their source, with
# those the code loads without an import of its own (MiniLM's weights, WordLlama's files, dask under
# distributed, bm25s in a test) and the tools that build and check the book.

# %% tags=["remove-input"]
page.show_table(package_versions(), caption="Versions of every package the study uses.")
page.show_table(platform_summary(), caption="The machine and Python that ran the build.")

# %% [markdown]
# ## Performance
#
# Chapter 05 timed the retrieval study in this build, on this machine, against a plain reference implementation that
# refits every vectorizer per trial and scores one query at a time; both must give identical predictions (the table
# titled "timed in this build by chapter 05"). Other benchmark results appear when `benchmarks/*.py` saved them into
# `benchmarks_dir` on this machine (`make bench`; `benchmarks/README.md` says what each measures). Each benchmark has
# a table of its measures; the unit of each measure is in brackets after its name (s: seconds of wall time unless it
# says CPU; ×: a ratio). Times measured hours apart on one machine drift by a fifth, so the benchmarks compare times
# taken within one run, as ratios.
#
# Where `benchmarks/collection_scale.py` saved its collection sizes, the suite over growing collections is also
# drawn: wall time and peak memory
# against the number of episodes, each run of the streamed path and the in-memory path of before where it still fits,
# and the projection to the 12,103 episodes of Xperience-10M, drawn dashed because it extends the measured slope and
# was not measured. Stars mark a few episodes of the real sample's size (5,821 frames at 128 px, ten times the windows
# of the curve's 600-frame episodes), where `--full-size` measured them.
# Read the time curve with one switch in mind: a gradient head fits on its training rows' Gram matrix (the dual) while
# that matrix fits the memory budget `DUAL_BYTES` and the dual is predicted to be the quicker; beyond that each of its
# 400 epochs reads every training row from disk (the primal; both are decided in `robotask.episode.models.streamed`).
# Small collections therefore take less than their share of the time, and the slope between two sizes on the same side
# of the switch is the one to extend. Where the benchmark also ran the streamed path with every gradient head in the
# primal at every size (`--primal-up-to`, the dash-dot line), that line shows the growth of the one algorithm alone.
# The table after the curve sets each size against a quarter of it, on the same path: time that grows linearly with
# the collection reads 4× there.
#
# For memory a straight line is the crudest reading: the largest part that grows between these sizes is the exact
# ridge's Gram matrix, n × n while a task has fewer training rows than feature columns and d × d beyond. Only its
# lower triangle is held, in float64: at most 0.29 GB for the hand-trajectory forecast's 8,547 columns, reached near
# 75 training episodes of 600 frames. Past that size the peak should level off; the largest collections drawn show
# whether it does.

# %% tags=["remove-input"]
bench = read_benchmarks(benchmarks_dir)
if run_retrieval_benchmark:
    from robotask.retrieval.protocol import time_against_reference

    bench["retrieval_live"] = time_against_reference()
else:
    live = chapter_benchmark(paths.results_dir() / "05_reproduction_report" / "timings.json")
    bench.update({"retrieval_live": live} if live else {})
if not bench:
    show_md("No benchmark results were saved on this machine; run `make bench`.")
task_names = {t: spec.display_name for t, spec in TASKS.items()}
for name, result in bench.items():
    show_benchmark(name, result, task_names, METRIC_LABELS)

# %% [markdown]
# ### Full size on a cluster
#
# Users' collections hold episodes of the real sample's size. `benchmarks/collection_scale.py --full-size N
# --cluster-workers 1,2` runs `robotask features --collection` and `robotask suite --collection` on such episodes
# against a scheduler and one or two workers started from the `dask` command line, as on a real cluster, in the same
# sitting as the one-process run and as the floor: decoding the same episodes' videos and reading their annotation,
# with no features. The first table gives their episodes per hour (features and suite together), the peak memory
# of each worker process and that of the client, where the suite scores and solves its ridges. The second divides
# the 12,103 episodes of the full release by the episodes per hour of one machine times the number of machines: a
# projection, not a measurement.

# %% tags=["remove-input"]
show_full_size_cluster(bench.get("collection_scale") or {})

# %% tags=["remove-input"]
# the run log and wall-clock times: not compared between two runs
total = float(runs["seconds"].sum())
timings = {"chapters": len(runs), "total_seconds": total, "benchmarks": bench}
write_json(out / "timings.json", timings)
assert (runs["status"] == "ok").all(), "a chapter of this build failed"
