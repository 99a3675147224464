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
# # Test the twelve tasks on episodes the heads have never seen
#
# The original suite says of itself that it "is not a generalization benchmark because the data is still one
# episode". This chapter asks the question that sentence leaves open: do the tasks still work on whole episodes
# that were never trained on, and which change between episodes (another subject, another scene) hurts which
# task? It answers on a synthetic collection with grouped cross-validation over episodes, under both protocols,
# and measures what the feature extraction costs on Dask.
#
# - **Inputs:** the parameters below; a synthetic collection is generated and cached, or `collection_dir` names
#   a folder (or manifest CSV) of real episodes.
# - **Outputs:** `folds.csv` (every setting × task × head), `fold_summary.csv`, `coverage.csv`,
#   `learning_curve.csv`, `timings.json` (wall clock) and `summary.json` in the output folder.

# %% tags=["parameters"]
n_episodes: int = 15  # episodes in the synthetic collection
frames: int = 220  # annotation frames per episode at 20 fps
resolution: int = 32  # video size in pixels
seed: int = 0  # collection seed; episode i depends on this seed and i only
collection_dir: str = ""  # folder or manifest CSV of real episodes; empty: synthetic
folds: int = 5  # grouped cross-validation folds over episodes
cv_protocols: list = ["original", "improved"]  # protocols of the cross-validation, side by side
mlp_protocols: list = ["improved"]  # protocols whose folds also train the MLP
shifts: list = ["subject", "scene"]  # manifest columns held out one value at a time
shift_protocol: str = "improved"  # protocol of the shift study and the learning curves
curve_draws: int = 3  # random draws of the training episodes per learning-curve point
timing_episodes: int = 6  # episodes the Dask timing extracts from a cold cache per worker count
worker_counts: list = [1, 2]  # Dask worker processes to time the extraction with
softmax_epochs: int = 60  # epochs of the linear heads
mlp_epochs: int = 20  # epochs of the MLP
processes: int = 2  # processes running the settings side by side (the book runs this chapter alone)
output_dir: str = ""  # where result files go; empty: _build/results/14_collections

# %%
from dataclasses import replace

import matplotlib.pyplot as plt
from myst_nb import glue

from robotask import paths, plots
from robotask.book import Page, show_figure, show_md, wait_until_alone
from robotask.episode.features import extract_collection
from robotask.episode.files import load_collection
from robotask.episode.models import MLPConfig
from robotask.episode.suite import SuiteConfig
from robotask.episode.tasks import TEST_FRACTION
from robotask.episode.unseen import (NOT_RUN_HEADERS, SCALING_HEADERS, answer_table,
                                     chronological_drop, chronological_settings,
                                     chronological_table, collection_facts, coverage_facts,
                                     coverage_table, curve_facts, curve_settings, curve_summary,
                                     curve_table, cv_settings, drop_facts, factor_table,
                                     feature_bytes, figure_learning_curves, fold_coverage,
                                     fold_summary, headline, load_window_sets, measure_scaling,
                                     mlp_facts, mlp_table, not_run_table, project_full_dataset,
                                     projection_facts, protocol_table, run_settings, runs_facts,
                                     scaling_facts, shift_display, shift_facts, shift_settings,
                                     shift_table, study_collection, transfer_facts, transfer_table)
from robotask.io import write_csv, write_json

plots.use_style()
page = Page("14_collections")
out = page.output_dir(output_dir)
mlp_cfg = replace(MLPConfig(), epochs=mlp_epochs)
cfg = SuiteConfig(softmax_epochs=softmax_epochs, mlp=mlp_cfg, save_models=False)
synthetic = not collection_dir
if synthetic:
    coll = study_collection(n_episodes, frames, resolution, seed)
else:
    coll = load_collection(paths.resolve(collection_dir))


def glue_all(values: dict) -> None:
    """Glue every value of a facts dict under its key."""
    for key, value in values.items():
        glue(key, value, display=False)

# %% [markdown]
# ## Why one episode cannot answer, and what the design does instead
#
# Every other chapter of Part III splits one episode in time: the first part trains, the last
# {glue:text}`test_pct:.0f` % tests. The test part then shares the subject, the scene, the camera and the
# lighting with the training part, and it even continues the same activity. A head can score well there by
# recognising *this* episode. The honest test
# is a whole episode the head has never seen.
#
# The design has four parts, each answering one question:
#
# 1. **Grouped cross-validation over episodes.** The episodes are split into folds; each fold is tested once,
#    with the heads trained on all other episodes, so no episode is ever on both sides. Every metric is the mean
#    ± sd over the folds, and `folds.csv` holds each fold's value. Both protocols run on the same folds: the
#    *original* protocol as published, and the *improved* one with the fixes of chapter 13, *Suite summary*
#    (for example the contact label on channels that vary, a purge gap, validation with early stopping).
# 2. **The chronological split of the same episodes**, pooled: the single-episode protocol, for the drop.
# 3. **Shifts.** Leave one subject out (and, separately, one scene), against random episode folds of the same
#    sizes. If holding out a subject is worse than holding out the same number of random episodes, it is the
#    new subject that hurts, not the smaller training set.
# 4. **Learning curves** over the number of training episodes, with several random draws of the training
#    episodes per point (draw *d* tests on fold *d*), so that each point has an interval.
#
# The minimal head runs everywhere. The MLP trains on the cross-validation folds of the protocols in
# `mlp_protocols` only, to keep the chapter within its share of the book's time budget; the chronological
# split, the shifts and the learning curves use the minimal head (and the baseline) alone.

# %% tags=["remove-input"]
glue("test_pct", 100 * TEST_FRACTION, display=False)

# %% [markdown]
# ## The collection
#
# Every synthetic episode is the default synthetic episode under a variation drawn from the collection seed and
# its index alone: a subject (hand size, height, speed), a scene (absent objects, moved objects), a subset of
# the procedure in a shuffled order, and a camera mount and lighting. All episodes share one label vocabulary
# and each uses a part of it. This run has {glue:text}`n_eps` episodes of {glue:text}`frames` frames at
# {glue:text}`res` px, from {glue:text}`n_subjects` subjects in {glue:text}`n_scenes` scenes;
# {glue:text}`n_problems` episodes of the collection were unusable. The size was chosen for the book's budget:
# enough episodes for {glue:text}`n_folds` folds of several test episodes each and a learning curve that
# doubles up to {glue:text}`largest` training episodes, short enough episodes that the whole chapter costs
# a few minutes (its run time is on chapter 99, *Reproducing*).
# The table below shows the first episodes' factors.

# %% tags=["remove-input"]
about = collection_facts(coll, frames, resolution)
glue_all(about)
glue("n_folds", folds, display=False)
if not synthetic:
    show_md("**Note.** This run reads real episodes (parameter `collection_dir`): the "
                   "sentences about the synthetic variation describe the synthetic collection.")
factors = [c for c in ["episode_id", "subject", "scene", "speed", "absent", "light"]
           if c in coll.episodes]
page.show_table(factor_table(coll.episodes, factors), digits=2,
                  caption="The first episodes of the collection and their variation factors.",
                  headers={"episode_id": "Episode", "absent": "Absent objects"})

# %% [markdown]
# ## Features on Dask
#
# One Dask task per episode builds its window features into the content-hash cache; the rest of the
# chapter reads them from there. How fast that goes with one and with two workers is measured at the end
# of the chapter, when nothing else runs.

# %%
features_dir = out / "features"
run = extract_collection(coll, features_dir, progress=False)
sets = load_window_sets(coll, features_dir)

# %% [markdown]
# ## Folds over episodes, under both protocols
#
# All settings of the design run in one call: the folds under each protocol, the chronological split, the
# held-out subjects and scenes with their random counterparts, and the learning-curve draws. Identical splits
# run once, and the settings run in {glue:text}`processes` processes side by side; each task fits on one
# BLAS thread, so the values do not depend on that number. The folds are those of
# `robotask suite --collection DIR --split group-kfold --folds N` with the same number of folds.

# %%
cv = cv_settings(coll.episodes, folds, cv_protocols, mlp_protocols)
usable_shifts = [s for s in shifts if s in coll.episodes.columns and coll.episodes[s].nunique() > 1]
curve_base = [s for s in cv if s.protocol == shift_protocol]
settings = (cv + chronological_settings(coll.episodes, cv_protocols)
            + shift_settings(coll.episodes, usable_shifts, shift_protocol, seed)
            + curve_settings(curve_base, curve_draws, seed))
results = run_settings(sets, settings, cfg, jobs=processes)
summary = fold_summary(results)
_ = write_csv(out / "folds.csv", results)
_ = write_csv(out / "fold_summary.csv", summary)
page.show_table(protocol_table(summary),
                  caption="Minimal head and trivial baseline on unseen episodes, mean ± sd over "
                          "the folds, under the original protocol (left) and the improved one "
                          "(right).",
                  long_reason="twelve tasks, each under two protocols")

# %% [markdown]
# The table above is the central result. A task *transfers* here when the minimal
# head beats the trivial baseline on every fold: under the improved protocol that holds for
# {glue:text}`n_transfer_imp` of the {glue:text}`n_ran_imp` tasks that ran ({glue:text}`transfer_imp`); under
# the original protocol for {glue:text}`n_transfer_orig` of {glue:text}`n_ran_orig`. The two protocols
# differ where the protocol changes the label or the test set, not the head: Contact State Prediction
# {glue:text}`contact_orig` under the original protocol and {glue:text}`contact_imp` under the improved
# one, whose contact label uses the channels that vary; the purge gap removes test windows that overlap
# training windows. The table shows how many folds each task won, so a mean that hides a split verdict shows.

# %% tags=["remove-input"]
glue("processes", processes, display=False)
glue_all(transfer_facts(summary))
glue_all(runs_facts(summary, "contact_prediction", "contact"))
if set(cv_protocols) != {"original", "improved"}:
    show_md("**Note.** This run did not use both protocols (parameter `cv_protocols`); "
                   "the counts of the missing protocol above are zero.")

# %% [markdown]
# ### The MLP, where it ran
#
# The MLP trained on the folds of the {glue:text}`mlp_where` protocol only.
# The table below sets it beside the minimal head on the same folds. It beats the
# baseline on every fold in {glue:text}`n_mlp_transfer` tasks, the minimal head in {glue:text}`n_min_transfer`;
# the tasks only the MLP wins on every fold: {glue:text}`mlp_only`. The two pair tasks (temporal order and
# synchronisation) ask whether two windows fit together; a linear head can only add up weighted features of
# the two windows, a hidden layer can combine them.

# %%
mlp_proto = mlp_protocols[0] if mlp_protocols else ""
page.show_table(mlp_table(summary, mlp_proto),
                  caption=f"Minimal head, MLP and baseline on unseen episodes, mean ± sd over "
                          f"the folds, {mlp_proto} protocol.")

# %% tags=["remove-input"]
glue_all(mlp_facts(summary, mlp_proto))

# %% [markdown]
# ## Unseen episodes against the chronological split
#
# The same tasks and heads, once on the folds and once with every episode split in time as in the other
# chapters (its last {glue:text}`test_pct:.0f` % tests) and the parts pooled. The drop in the table below is
# the chronological value minus the unseen
# mean, turned so that a positive drop always means *worse on unseen episodes* (for the hand forecast, whose
# error is better when lower, the sign is flipped). Under the {glue:text}`shift_protocol` protocol, worse on
# unseen episodes by more than the spread over folds ({glue:text}`n_drop_phrase` of {glue:text}`n_drop_of`):
# {glue:text}`drop_tasks`. For those, a chronological number in the other chapters is an upper bound, not an
# estimate of what a new episode would give. Better on unseen episodes by more than that spread
# ({glue:text}`n_gain_phrase`): {glue:text}`gain_tasks`. Where that happens, a likely reason is that the last part of an
# episode holds procedure steps its first part never showed, while the other episodes show them: the
# chronological split tests on labels and moments it barely trained on.

# %%
drops = {p: chronological_drop(results, summary, p) for p in cv_protocols}
page.show_table(chronological_table(drops), long_reason="twelve tasks, two protocols",
                  caption="Minimal head: chronological split against unseen episodes (mean ± sd "
                          "over folds) and the drop (positive: worse on unseen episodes), per "
                          "protocol.")

# %% tags=["remove-input"]
d_main = drops.get(shift_protocol, next(iter(drops.values())))
drop_glue, lost = drop_facts(d_main)
glue_all(drop_glue)

# %% [markdown]
# ## Which shift hurts which task
#
# Each subject (then each scene) is held out in turn; the random folds hold out the same numbers of episodes
# drawn at random. The drop in the table below is the random folds' mean minus the
# held-out groups' mean, positive when the shift is worse, under the {glue:text}`shift_protocol` protocol with
# the minimal head. A new subject hurts {glue:text}`hurt_subject`; a new scene hurts {glue:text}`hurt_scene`
# (a drop larger than the sd over the random folds counts as hurting). With {glue:text}`n_subjects` subjects
# and {glue:text}`n_scenes` scenes, a held-out group is a large share of the collection, so these are coarse.

# %%
shift_results = shift_table(results)
_ = write_csv(out / "shifts.csv", shift_results)
if len(shift_results):
    page.show_table(shift_display(shift_results), long_reason="twelve tasks, two shifts",
                      caption=f"Minimal head with one subject or one scene held out, against "
                              f"random episode folds of the same sizes (mean ± sd), "
                              f"{shift_protocol} protocol; drop positive: the shift is worse.")

# %% tags=["remove-input"]
glue("shift_protocol", shift_protocol, display=False)
glue_all(shift_facts(shift_results))
missing = [s for s in ("subject", "scene") if s not in usable_shifts]
if missing:
    show_md(f"**Note.** This run does not hold out {' or '.join(missing)} (parameter "
                   "`shifts`, or the manifest lacks its column), so the sentence says no task.")

# %% [markdown]
# ## How many training episodes each task needs
#
# {numref}`fig-collection-learning-curves` shows each task's minimal head (line: the mean over
# {glue:text}`draws` draws; band: the lowest to the highest draw) and the baseline (dashed) as training
# episodes double. The table after it describes every curve by its whole shape, from
# the smallest to the largest training set, and says from how many episodes on the head stays ahead of the
# baseline at every larger size. Ahead from a single episode: {glue:text}`n_ahead_phrase`; never staying
# ahead within the {glue:text}`largest` episodes tried: {glue:text}`n_never_phrase`. A curve that
# improves and then worsens (or is uneven) is not noise-free: with {glue:text}`draws` draws per point, the
# bands show how far one draw of the training episodes moves the result. Still improving in the last
# doubling, so likely to gain from more episodes: {glue:text}`still_improving`.

# %%
curve = curve_summary(results)
_ = write_csv(out / "learning_curve.csv", curve)
fig = figure_learning_curves(curve)
show_figure(fig, "fig-collection-learning-curves",
                   "Minimal head (mean and range over the draws) and baseline (dashed) on unseen "
                   "episodes, per task, as training episodes double.",
                   "Twelve line plots, one per task, of the primary metric against the number of "
                   "training episodes on a log scale, each with a shaded band.")
plt.close(fig)
page.show_table(curve_table(curve),
                  caption=f"The learning curves of the minimal head in words and numbers, "
                          f"{shift_protocol} protocol: mean (lowest–highest draw).")

# %% tags=["remove-input"]
curve_glue, need = curve_facts(curve, curve_draws)
glue_all(curve_glue)

# %% [markdown]
# ## The label-coverage ceiling, per fold
#
# A classifier cannot name a label it never saw in training. The table below gives,
# per fold, the share of test windows whose action or subtask label occurs in the training episodes: the
# ceiling of the label tasks' accuracy on that fold. It lies between {glue:text}`cov_min:.1f` % and
# {glue:text}`cov_max:.1f` % for actions across the folds, {glue:text}`ceiling_phrase`.

# %%
coverage = fold_coverage(sets, [s for s in cv if s.protocol == cv_protocols[0]])
_ = write_csv(out / "coverage.csv", coverage)
page.show_table(coverage_table(coverage), digits=1,
                  caption="Share of unseen test windows whose label occurs in training, per fold.")

# %% tags=["remove-input"]
glue_all(coverage_facts(coverage))

# %% [markdown]
# ## Tasks that did not run
#
# A task whose label has a single class in the training episodes of a setting, or whose samples a setting
# cannot build, is not scored there; the table below names each with its reason and
# the number of settings affected ({glue:text}`n_not_run` rows).

# %%
not_run = not_run_table(results)
page.show_table(not_run, headers=NOT_RUN_HEADERS,
                  caption="Tasks that did not run in some settings, with the reason.")

# %% tags=["remove-input"]
glue("n_not_run", len(not_run), display=False)

# %% [markdown]
# ## Features on Dask, measured with nothing else running
#
# The chapter times the feature build on the first {glue:text}`t_eps` episodes from a cold cache, first with
# one worker process and then with two (the cluster's start is not counted). In the book this chapter starts
# beside the others and, before it times anything, waits until every other chapter has finished
# (`robotask.book.chapters.ALONE`, `scheduling.wait_until_alone`), so the two workers have the machine's cores
# to themselves; run on its own, it times at once.

# %%
wait_until_alone()
timing_set = coll.subset(coll.ids[:timing_episodes])
scaling = measure_scaling(timing_set, worker_counts)
page.show_table(scaling, digits=2, headers=SCALING_HEADERS,
                  caption="Feature extraction from a cold cache with each number of Dask workers "
                          "(wall clock; in the book nothing else runs meanwhile).")

# %% [markdown]
# The extraction ran {glue:text}`speedup_phrase` (the Dask table above): one worker spent
# {glue:text}`episode_s:.2f` s per episode, and the two workers reached {glue:text}`efficiency:.0f` % of the
# ideal doubling. What limits it on this machine: it has {glue:text}`cpus` cores, so two workers are the
# ceiling, and the driver and the scheduler share those cores with them; each Dask task is short (about
# {glue:text}`episode_s:.1f` s), so the per-task overhead and the last task running alone weigh; and the
# video decoding inside one worker already lets FFmpeg use its own threads (`thread_type = "AUTO"`), so a
# single worker does not leave the second core idle to begin with. A worker's resident memory peaked at
# {glue:text}`peak_mb:.0f` MiB: memory is not what limits the number of workers here.

# %% tags=["remove-input"]
timing = scaling_facts(scaling)
glue_all(timing)
if not timing["speedup"] > 0:
    show_md("**Note.** This run did not time both one and two workers (parameter "
                   "`worker_counts`), so the speed-up above is not measured.")

# %% [markdown]
# ## What the full dataset would cost: a projection
#
# **This is a projection, not a measurement.** It scales the measured cost of one worker per episode
# (the Dask table above) to the full release of {glue:text}`full_eps` episodes, assuming
# (1) every episode has {glue:text}`full_frames` frames, as the published sample does; (2) the cost grows
# linearly with frames; (3) the videos are decoded at this chapter's {glue:text}`res` px (full-resolution
# decoding costs much more, so this is a lower bound); (4) the two-worker efficiency measured here holds on
# every cluster size. Under these assumptions one episode costs {glue:text}`proj_episode_s:.0f` s on one
# worker, the dataset {glue:text}`proj_worker_h:,.0f` worker-hours: {glue:text}`proj_machine_h:,.0f` hours on
# this machine with two workers, {glue:text}`proj_cluster_h:.1f` hours on {glue:text}`proj_workers` workers.
#
# ## When the collection outgrows one machine: a plan
#
# - **Features** are already one Dask task per episode, written into a content-hash cache: start
#   `dask scheduler` on one machine, `dask worker tcp://HOST:8786` on the others, and pass
#   `--scheduler tcp://HOST:8786` to `robotask features --collection`; the collection and the cache folder
#   (`ROBOTASK_CACHE`) must be on storage every worker sees. A worker needed at most {glue:text}`peak_mb:.0f` MiB
#   here, so memory does not limit how many workers a node runs; cores do.
# - **Feature storage** grows with frames: an episode's stored window features took
#   {glue:text}`kb_per_episode:.0f` kB here, {glue:text}`proj_storage_gb:,.0f` GB for the full dataset at
#   this resolution, small next to the release itself ({glue:text}`release_tb:.0f` TB by the specification's
#   size per episode).
# - **Training** is where one machine stops. The heads fit on the merged training windows in memory:
#   {glue:text}`proj_windows:,.0f` windows of {glue:text}`dim` features are {glue:text}`proj_design_gb:,.0f` GB as
#   float32, and the dual ridge heads (caption grounding, cross-modal retrieval) build an n × n Gram matrix of
#   {glue:text}`proj_gram_gb:,.0f` GB. The plan: fit the softmax heads and the MLP by minibatches streamed from
#   the per-episode feature files (one fold's training episodes at a time, one fold per machine, since the folds
#   are independent), and replace the dual ridge by the primal solve, whose size is the feature dimension
#   squared, not the number of windows squared.

# %% tags=["remove-input"]
bytes_ep = feature_bytes(features_dir, list(sets))
windows_ep = sum(len(ws.X) for ws in sets.values()) / len(sets)
dim = int(next(iter(sets.values())).X.shape[1])
proj = project_full_dataset(scaling, about["frames"], bytes_ep, windows_ep, dim)
timings = {"scaling": scaling.to_dict("records"), "projection": proj}
write_json(out / "timings.json", timings)  # wall clock: not compared between runs
glue_all(projection_facts(proj, bytes_ep, dim))

# %% [markdown]
# ## These are synthetic episodes
#
# Every number above comes from synthetic episodes: rendered scenes at low resolution, a scripted procedure,
# and subjects and scenes that differ along a few drawn factors. The chapter shows that the *method* works (the
# folds, the protocols, the shifts and the curves run end to end and give intervals), and how much each task
# leans on seeing the same episode in training. It does not show how the tasks transfer between real people,
# kitchens and cameras, whose variation is richer than {glue:text}`n_subjects` subjects and
# {glue:text}`n_scenes` scenes. To run the same chapter
# on real episodes, put them in one folder (or list them in a manifest CSV with `episode_id,path` and, for the
# shifts, `subject` and `scene` columns) and run
# `robotask run 14_collections -p collection_dir PATH`; the command line
# `robotask suite --collection PATH --split group-kfold --folds 5` gives the same folds without the book.
#
# ## The answer
#
# The table below answers per task under the {glue:text}`shift_protocol` protocol. Under the improved
# protocol, {glue:text}`n_transfer_imp` of the {glue:text}`n_ran_imp` tasks that ran transfer to unseen
# synthetic episodes (the minimal head beats the baseline on every fold): {glue:text}`transfer_imp`.
# Against the chronological split, worse by more than the spread over folds: {glue:text}`drop_tasks`;
# better by more than it: {glue:text}`gain_tasks`. A new subject hurts
# {glue:text}`hurt_subject`; a new scene hurts {glue:text}`hurt_scene`. The episodes each task needs before the
# head stays ahead of the baseline are in the last column; intervals are the sd over folds (unseen episodes)
# and the range over draws (learning curves).

# %%
page.show_table(answer_table(transfer_table(summary, shift_protocol), d_main,
                                    shift_results, curve),
                  caption=f"The unseen-episode answer per task, {shift_protocol} protocol, "
                          "minimal head.")

# %%
summary_facts = headline(summary, shift_protocol, lost, shift_results, usable_shifts, need,
                          len(sets), folds, synthetic)
write_json(out / "summary.json", summary_facts)
assert all(not set(s.split.train) & set(s.split.test) for s in settings if not s.chronological)
assert len({s.split.test for s in cv}) == folds * len(cv_protocols) or len(cv_protocols) > 1
assert run.ok and len(sets) == len(coll.ids)
