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
# # Compare the twelve episode tasks across heads, protocols and action schedules
#
# The task chapters look at one task at a time. This chapter runs the whole suite four times, on
# two synthetic episodes that differ only in how actions recur (the `repeating` schedule, where
# every action comes back, and the `sample-like` schedule, where each action occurs in one run as
# in the real sample) and under the original and the improved protocol. It sets the primary
# metric of the trivial baseline, the minimal head and the MLP side by side, next to the numbers
# the original suite published for the real sample (other data, marked as such), and explains
# why the original's label tasks score near zero there and what the fixes change.
#
# - **Inputs:** the synthetic episodes for `frames`, `seed`, `resolution` and each of
#   `schedules` (or one episode folder `episode_dir`).
# - **Outputs:** a suite output folder per schedule and protocol (`summary_report.json` and the
#   per-task metrics), `primary_metrics.csv`, the figure below and `summary.json`.

# %% tags=["parameters"]
episode_dir: str = ""  # one episode folder (e.g. the real sample); empty: the synthetic schedules below
frames: int = 5821  # frames of the synthetic episodes (5821 → 1161 windows, as the real sample)
seed: int = 0  # generator seed of the synthetic episodes
resolution: int = 128  # video resolution (pixels) of the synthetic episodes
schedules: list = ["repeating", "sample-like"]  # synthetic action schedules to compare
protocols: list = ["original", "improved"]  # evaluation protocols to compare
heads: list = ["minimal", "mlp"]  # any subset of robotask.episode.suite.HEADS
softmax_epochs: int = 400  # epochs of the linear heads (400 as published)
mlp_epochs: int = 80  # epochs of the MLP (80 as published)
output_dir: str = ""  # where result files go; empty: _build/results/13_suite_summary

# %%
import matplotlib.pyplot as plt
import pandas as pd

from robotask import plots
from robotask.book import report
from robotask.episode import figures_suite, suite, synth, windows, windowset
from robotask.episode.mlp import MLPConfig
from robotask.io import write_csv, write_json

out = report.output_dir(output_dir, "13_suite_summary")
cfg = suite.SuiteConfig(softmax_epochs, MLPConfig(epochs=mlp_epochs), save_models=False)
episodes = {"episode": episode_dir} if episode_dir else {
    s: synth.ensure_episode(frames, seed, resolution, s) for s in schedules}
reports, coverage = {}, []
for name, path in episodes.items():
    ws = windowset.load_window_set(path)
    for col in ("action_label", "subtask_label"):
        coverage.append({"schedule": name, "labels": col.split("_")[0], **windows.split_coverage(ws.windows, col)})
    for proto in protocols:
        reports[(name, proto)] = suite.run_suite(ws, "all", heads, proto, out / name / proto, cfg)
    del ws
long = figures_suite.summary_long(reports)
write_csv(out / "primary_metrics.csv", long)
report.show_md(f"Ran the twelve tasks on {len(episodes)} episode(s) × {len(protocols)} protocol(s) with "
               f"heads {', '.join(heads)}: {len(long)} primary-metric values.")

# %% [markdown]
# ## Why the label tasks of the original score near zero on the real sample
#
# A classifier can only predict classes it has seen. In the real sample every action occurs in
# exactly one contiguous run, so the chronological split puts actions in the test part that the
# train part never contains. The label-coverage ceiling, the share of test windows whose label
# occurs in training, bounds the accuracy of any classifier.

# %%
cov = pd.DataFrame(coverage)[["schedule", "labels", "n_test", "n_test_seen", "coverage", "n_classes_train",
                              "n_classes_test"]]
report.show_table(cov, digits=3)
real = suite.PUBLISHED_COVERAGE
rep_cov = cov.set_index(["schedule", "labels"])["coverage"]
lines = [f"- `{s}`: action coverage {100 * rep_cov[(s, 'action')]:.1f} %, subtask coverage "
         f"{100 * rep_cov[(s, 'subtask')]:.1f} %" for s in episodes]
report.show_md("Label coverage of the chronological test split:\n" + "\n".join(lines) +
               f"\n- real sample (published analysis, other data): action {100 * real['timeline_action']:.1f} %, "
               f"subtask {100 * real['timeline_subtask']:.1f} %")

# %% [markdown]
# ## Primary metrics
#
# One table per episode: the primary metric of each task for the baseline, the minimal head and
# the MLP under each protocol. The last two columns are the numbers the original suite published
# for the **real sample**: other data, shown for orientation only.

# %%
for name in episodes:
    report.show_md(f"**{name}**")
    report.show_table(figures_suite.summary_wide(long, name, suite.PUBLISHED_REAL_SAMPLE), digits=3)

# %%
fig = figures_suite.figure_summary(long, suite.PUBLISHED_REAL_SAMPLE)
plots.save_figure(fig, out, "primary_metrics")
plt.show()

# %% [markdown]
# ## What the schedule and the fixes change

# %%
report.show_md(figures_suite.schedule_and_fix_text(long, list(episodes), protocols))

# %% [markdown]
# ## What we found

# %%
report.show_md(figures_suite.suite_recap(long, list(episodes), protocols))
write_json(out / "summary.json", {"runs": [f"{s}/{p}" for s, p in reports],
                                  "coverage": cov.to_dict(orient="records"),
                                  "primary": long.to_dict(orient="records")})
assert len(long) == 12 * 3 * len(reports)
assert all((out / s / p / "summary_report.json").exists() for s, p in reports)
