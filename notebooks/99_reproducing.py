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
# This page records what produced the book you are reading: the parameters each chapter was
# executed with, the package versions, the machine, and how long each chapter took. Everything
# below is read from the build itself: the runner's log (`run_log.json`) and the installed
# packages. Nothing is typed in.
#
# - **Inputs:** the run log written by `robotask run`, the installed packages, saved benchmark
#   results.
# - **Outputs:** the tables below and `timings.json` (run times; not compared between runs).

# %% tags=["parameters"]
run_log: str = ""  # the runner log of this build (empty: the one robotask run writes for it)
benchmarks_dir: str = "_build/benchmarks"  # JSON saved by benchmarks/*.py, if any
run_retrieval_benchmark: bool = False  # time it again here (chapter 05 timed it in this build)
output_dir: str = ""  # result folder (empty: _build/results/99_reproducing)

# %%
from robotask import paths
from robotask.book import (
    Page,
    build_stamp,
    chapter_benchmark,
    package_versions,
    parameter_table,
    plain_value,
    platform_summary,
    read_benchmarks,
    read_run_log,
    run_table,
    run_times_sentence,
    show_benchmark,
    show_md,
)
from robotask.io import write_json

page = Page("99_reproducing")
out = page.output_dir(output_dir)
log = read_run_log(run_log or "_build/run_log.json")
runs = run_table(log)
runs = runs[runs["chapter"] != "99_reproducing"].reset_index(drop=True)  # an earlier run of it

# %% [markdown]
# ## Which build this is
#
# The commit of the repository the chapters were executed from, and when this page was executed
# (the book is built right after it).

# %%
page.show_table(build_stamp(), headers={"item": "Record", "value": "Value"},
                  caption="The commit this book was built from and the date of the build.")

# %% [markdown]
# ## How to reproduce it
#
# On a machine with Python 3.11 and access to the package registries, two commands rebuild
# everything from a fresh clone: `make book` creates `.venv` from the pinned `requirements.txt`,
# executes every chapter with the `paper` parameter set and builds the HTML; `make test` runs the
# unit tests, executes every chapter with the `smoke` parameter set, and validates the executed
# notebooks with nbval. One chapter can be re-run with other parameters, for example
# `robotask run 02_five_rankers -p n_trials 200`.

# %% [markdown]
# ## Chapter run times

# %%
page.show_table(runs, digits=1, headers={"set": "Parameter set", "seconds": "Run time (s)"},
                  caption="Wall time of each chapter in this build, with its parameter set.")
show_md(run_times_sentence(runs))

# %% [markdown]
# ## Parameters
#
# Values passed to each chapter by its parameter set, a parameter file or `-p`; every other
# parameter kept the default of its notebook's parameters cell (`notebooks/<chapter>.py`; the cell
# is not shown on the chapter's page).

# %%
params = parameter_table(log)
params["value"] = params["parameter"] + " = " + params["value"].map(plain_value)
per_chapter = params.groupby("chapter", sort=False)["value"].agg("; ".join).reset_index()
page.show_table(per_chapter, headers={"chapter": "Chapter", "value": "Values passed"},
                  caption="Parameter values passed to each chapter (others kept their defaults).")

# %% [markdown]
# ## Software and machine

# %%
versions = package_versions()
page.show_table(versions, caption="Versions of the key installed packages.")
page.show_table(platform_summary(),
                  caption="The machine and Python that ran the build.")

# %% [markdown]
# ## Performance
#
# Chapter 05 timed the retrieval study in this build, on this machine, against a plain reference
# implementation that refits every vectorizer per trial and scores one query at a time; both must
# give identical predictions (the table titled "timed in this build by chapter 05"). Other
# benchmark results appear when `benchmarks/*.py` saved them into `benchmarks_dir` on this
# machine. Each benchmark has a table of its measures; the unit of each
# measure is in brackets after its name (s: seconds of wall time unless it says CPU; ×: a ratio).

# %%
from robotask.episode.report import METRIC_LABELS
from robotask.episode.tasks import TASKS

bench = read_benchmarks(benchmarks_dir)
if run_retrieval_benchmark:
    from robotask.retrieval.protocol import time_against_reference

    bench["retrieval_live"] = time_against_reference()
else:
    timed = paths.results_dir() / "05_reproduction_report" / "timings.json"
    live = chapter_benchmark(timed)
    bench.update({"retrieval_live": live} if live else {})
if not bench:
    show_md("No benchmark results were saved on this machine; run `make bench`.")
task_names = {t: spec.display_name for t, spec in TASKS.items()}
for name, result in bench.items():
    show_benchmark(name, result, task_names, METRIC_LABELS)

# %%
# the run log and wall-clock times: not compared between two runs
timings = {"chapters": len(runs), "total_seconds": float(runs["seconds"].sum()),
           "benchmarks": bench}
write_json(out / "timings.json", timings)
assert (runs["status"] == "ok").all(), "a chapter of this build failed"
