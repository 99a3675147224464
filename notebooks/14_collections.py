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
# # Train on some episodes and test on unseen ones
#
# One chronological episode cannot tell whether a task generalises: its test part shares the
# subject, the scene and the camera with its training part. This chapter builds a synthetic
# collection whose episodes differ in subject, scene, script and camera, extracts its features on a
# Dask cluster, and asks which tasks still work on episodes the heads have never seen.
#
# - **Inputs:** the parameters below (the collection is generated and cached).
# - **Outputs:** `learning_curve.csv`, `split_comparison.csv`, `coverage.csv`, `scaling.json` and
#   `summary.json` in the output folder.

# %% tags=["parameters"]
n_episodes: int = 10  # episodes in the synthetic collection
frames: int = 600  # annotation frames per episode at 20 fps
resolution: int = 32  # video size in pixels
seed: int = 0  # collection seed; episode i depends on this seed and i only
test_fraction: float = 0.3  # share of episodes held out as unseen test episodes
worker_counts: list = [1, 2]  # Dask worker processes to time the feature extraction with
softmax_epochs: int = 60  # epochs of the linear heads
mlp_epochs: int = 20  # epochs of the MLP
output_dir: str = ""  # where result files go; empty: _build/results/14_collections

# %% tags=["show-input"]
from dataclasses import replace

import matplotlib.pyplot as plt

from robotask.book import prose, report
from robotask.episode import collection_study as cs
from robotask.episode.head_runs import SuiteConfig
from robotask.episode.mlp import MLPConfig
from robotask.episode.splits import doubling_sizes, episode_split
from robotask.io import write_csv, write_json

out = report.output_dir(output_dir, "14_collections")
cfg = SuiteConfig(softmax_epochs, replace(MLPConfig(), epochs=mlp_epochs), False)
coll = cs.study_collection(n_episodes, frames, resolution, seed)
report.show_table(coll.episodes[["episode_id", "subject", "scene", "speed", "absent", "light"]].head(3), digits=2,
                  headers={"episode_id": "Episode", "absent": "Absent objects"})

# %% [markdown]
# ## The collection
#
# Every episode is the default synthetic episode under a variation drawn from the collection seed
# and its index alone: a subject (hand size, height, speed), a scene (absent objects, moved
# objects), a subset of the procedure in a shuffled order, and a camera mount and lighting. All
# episodes share one label vocabulary and each uses a part of it.

# %%
report.show_md(
    f"The collection holds {prose.count(len(coll.ids), 'usable episode')} of {prose.count(frames, 'frame')} each, "
    f"from {prose.count(coll.episodes['subject'].nunique(), 'subject')} in "
    f"{prose.count(coll.episodes['scene'].nunique(), 'scene')}; "
    f"{prose.count(len(coll.problems), 'episode')} failed validation.")

# %% [markdown]
# ## Features on Dask, and what they cost
#
# One Dask task per episode builds its window features into the content-hash cache, first with one
# worker process, then with two, from a cold cache each time. The same call runs on a real cluster:
# start `dask scheduler` on one machine, `dask worker tcp://HOST:8786` on every other, and pass
# `--scheduler tcp://HOST:8786` to `robotask features --collection`; the collection and the cache
# folder (`ROBOTASK_CACHE`) must be on storage every worker sees.

# %%
scaling = cs.measure_scaling(coll, worker_counts)
proj = cs.project_full_dataset(scaling, frames)
features_dir = out / "features"
run = cs.extract_collection(coll, features_dir, progress=False)
sets = cs.sets_of(coll, features_dir)
write_json(out / "scaling.json", {"scaling": scaling.to_dict("records"), "projection": proj})
report.show_table(scaling, digits=2, headers={"wall_s": "Wall (s)", "frames_per_s": "Frames / s",
                                               "episode_s": "Seconds per episode", "peak_mb": "Peak MiB per worker"})

# %%
last = scaling.iloc[-1]
report.show_md(
    f"With {prose.count(int(last['workers']), 'worker')} the extraction ran {last['speedup']:.2f} times as fast "
    f"as with one (the cluster start is not counted); a worker peaked at {last['peak_mb']:.0f} MiB, since it holds "
    f"one episode's features and streams the videos. One task cost {scaling['episode_s'].iloc[0]:.1f} s, so an "
    f"episode of {prose.count(proj['full_frames'], 'frame')} costs about {proj['per_episode_s']:.0f} s, and the "
    f"{prose.count(proj['episodes'], 'episode')} of the full dataset about {proj['worker_hours']:.0f} worker-hours: "
    f"about {proj['cluster_hours']:.1f} hours on a cluster of {prose.count(proj['cluster_workers'], 'worker')}, "
    "since the episodes are independent tasks. (Timings vary from run to run; they are measurements, not results.)")

# %% [markdown]
# ## Learning curves over training episodes
#
# The test episodes are fixed; the training set grows 1, 2, 4, … episodes (nested). Each panel of
# {numref}`fig-collection-learning-curves` shows one task's primary metric for the minimal head and
# the trivial baseline.

# %%
split = episode_split(coll.episodes, test_fraction, None, seed)
sizes = doubling_sizes(len(split.train))
curve = cs.learning_curve(sets, split, sizes, cfg, seed)
write_csv(out / "learning_curve.csv", curve)

# %% mystnb={"figure": {"caption": "Primary metric of the minimal head (solid) and the baseline (dashed) on the fixed unseen test episodes, per task, as training episodes are added.", "name": "fig-collection-learning-curves"}, "image": {"alt": "Twelve small line plots, one per task, of the primary metric against the number of training episodes on a log scale."}}
fig = cs.figure_learning_curves(curve)
plt.show()

# %%
first, full = curve[curve["n_train"] == sizes[0]].set_index("task"), curve[curve["n_train"] == sizes[-1]].set_index("task")
gain = (full["minimal"] - first["minimal"]).where(full["higher_is_better"], first["minimal"] - full["minimal"])
better = [cs.TASKS[t].display_name for t in gain.dropna().index if gain[t] > 0]
report.show_md(
    f"From {prose.count(sizes[0], 'training episode')} to {prose.count(sizes[-1], 'training episode')}, the "
    f"minimal head improved on {prose.count(len(better), 'task')} of {prose.count(len(gain.dropna()), 'task')} "
    f"that ran: {prose.join(better) or 'none'}.")

# %% [markdown]
# ## Unseen episodes against the chronological split
#
# The same tasks and heads, once with whole test episodes held out and once with every episode split
# 70/30 in time (the single-episode protocol, applied to each episode and pooled).

# %%
comparison = cs.compare_splits(sets, split, cfg, "minimal,mlp")
write_csv(out / "split_comparison.csv", comparison)
report.show_table(comparison.drop(columns=["higher_is_better"]), digits=3,
                  headers={"unseen_baseline": "Unseen baseline", "chronological_baseline": "Chronological baseline"},
                  long_reason="twelve tasks times two heads, each under both splits")

# %%
m = comparison[comparison["head"] == "minimal"].dropna(subset=["unseen", "chronological"]).set_index("task")
sign = m["higher_is_better"].map({True: 1, False: -1})
beats = (m["unseen"] - m["unseen_baseline"]) * sign > 0
held = [cs.TASKS[t].display_name for t in m.index if beats[t]]
weak = [cs.TASKS[t].display_name for t in m.index if beats[t] and (m["chronological"][t] - m["chronological_baseline"][t]) * sign[t] <= 0]
report.show_md(
    f"On unseen episodes the minimal head beats the baseline on {prose.count(len(held), 'task')}: "
    f"{prose.join(held) or 'none'}. Tasks that beat it on unseen episodes but not under the chronological split "
    f"(they only looked weak because the later part of an episode holds what the earlier part lacks): "
    f"{prose.join(weak) or 'none'}.")

# %% [markdown]
# ## The label-coverage ceiling
#
# A classifier cannot name a label it never saw in training. {numref}`fig-collection-coverage` shows
# the share of test windows whose action or subtask label occurs in the training episodes.

# %%
coverage = cs.label_coverage(sets, split, sizes, seed)
write_csv(out / "coverage.csv", coverage)

# %% mystnb={"figure": {"caption": "Share of unseen test windows whose label occurs in the training episodes, as training episodes are added.", "name": "fig-collection-coverage"}, "image": {"alt": "Two rising lines, action and subtask labels, of label coverage in percent against training episodes."}}
fig = cs.figure_coverage(coverage)
plt.show()

# %%
cov = 100 * coverage.pivot(index="n_train", columns="label", values="coverage")
report.show_md(
    f"With {prose.count(sizes[0], 'training episode')} the action-label ceiling is {prose.pct(cov['action'].iloc[0])}; "
    f"with {prose.count(sizes[-1], 'training episode')} it is {prose.pct(cov['action'].iloc[-1])} "
    f"(subtasks: {prose.pct(cov['subtask'].iloc[0])} to {prose.pct(cov['subtask'].iloc[-1])}).")

# %% [markdown]
# ## What we found

# %%
report.show_md(
    f"Over {prose.count(len(sets), 'episode')}, {prose.count(len(held), 'task')} beat the baseline on unseen "
    f"episodes, and more training episodes raise the action-label ceiling from {prose.pct(cov['action'].iloc[0])} to "
    f"{prose.pct(cov['action'].iloc[-1])}. Feature extraction is one independent Dask task per episode, so it scales "
    "with workers; the full dataset is a matter of worker-hours, not of a different program.")

# %%
summary = {"episodes": len(sets), "train_episodes": list(split.train), "test_episodes": list(split.test),
           "sizes": sizes, "beats_baseline_unseen": held, "coverage": coverage.to_dict("records")}
write_json(out / "summary.json", summary)
assert not set(split.train) & set(split.test)
assert run.ok and len(sets) == len(coll.ids)
