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
# # Larger robot-task libraries: the wording budget and the library size
#
# The paper asks how reference wording shapes retrieval with one or two wordings per task and one
# library. Two questions follow. **The wording budget:** if each task is indexed with k of its
# wordings, how does accuracy grow with k, and does the order of the rankers change? **Library
# size:** as the gallery grows from a handful of tasks to all of them, how fast does accuracy fall,
# and does the best ranker stay best?
#
# The data are the instruction texts of five public libraries: RoboCasa (`data/robocasa`), RoboTwin 2.0
# with its object slots filled by object names and by a neutral placeholder (`data/robotwin`), every
# RLBench task file (`data/rlbench/full`), CALVIN (`data/calvin`) and LIBERO (`data/libero`, one
# instruction per file). Every gallery is drawn by the paper's protocol: seeded permutations per
# task, a task scored by the maximum over its indexed texts, ties to the first task in sorted order.
# Beside the paper's lexical rankers runs a static-embedding ranker (WordLlama's shipped token table,
# mean-pooled, no network, no torch), marked "not in paper".
#
# - **Inputs:** the corpora above. **Outputs:** the figures, the tables and `summary.json` in the output folder.

# %% tags=["parameters"]
seed: int = 413  # seed of every draw (paper: 413)
rankers: list = [  # ids in registry.RANKERS; must hold bm25 and char
    "bm25", "word", "char", "word_char", "lsa", "static",
]
n_trials: int = 40  # one-wording galleries per new library for Table 2
budget_trials: int = 3  # galleries per k in the wording budget (also seen/unseen, macro/micro)
ks: list = [1, 2, 4, 8, 16, 32]  # wordings indexed per task
budget_libraries: list = ["robotwin", "rlbench_full", "calvin"]  # libraries of the wording budget
min_budget_tasks: int = 8  # a k is studied where at least this many tasks have k + 1 texts
size_draws: int = 3  # galleries per library size n
size_steps: int = 6  # log-spaced library sizes
size_min: int = 8  # smallest library size
output_dir: str = ""  # result folder (empty: _build/results/09_libraries)

# %% tags=["remove-input"]
import time

import pandas as pd

from robotask import plots
from robotask.book import Page, show_figure, show_md
from robotask.io import write_json
from robotask.retrieval.presentation import glue_values, label
from robotask.retrieval.rankers import display
from robotask.retrieval.scaling import (NEW, TITLES, band_table, budget_figure, budget_readings,
                                        cost_figure, direction, disagree_where, leader,
                                        library_claims, plateau_k, read, run_all, share_phrase,
                                        size_figure, size_readings, slope_per_doubling, summary)
from robotask.words import count

plots.use_style()
page = Page("09_libraries")
out = page.output_dir(output_dir)
t0 = time.perf_counter()
res = run_all(
    seed=seed, rankers=rankers, n_trials=n_trials, budget_trials=budget_trials, ks=ks,
    budget_libraries=budget_libraries, min_budget_tasks=min_budget_tasks,
    size_draws=size_draws, size_steps=size_steps, size_min=size_min)
seconds = time.perf_counter() - t0
chapter_summary = summary(res)
_ = write_json(out / "summary.json", chapter_summary)
scored = [c.groupby("ranker")["n_queries"].sum() for c in
          [*res.budget.values(), *res.per_trial.values(), *res.second.values(), res.size]]
glue_values(n_scored=f"{int(sum(s.iloc[0] for s in scored)):,}", seconds=seconds,
            n_rankers=len(rankers), q_per_s=f"{res.cost['queries_per_second'].min():,.0f}")

# %% [markdown]
# **What this chapter costs, and why MiniLM is not in it.** The studies below score
# {glue:text}`n_scored` (gallery, query) pairs per ranker, for {glue:text}`n_rankers` rankers, in
# {glue:text}`seconds:.0f` s on this machine; the slowest of these rankers still scores
# {glue:text}`q_per_s` queries a second (the cost table at the end). MiniLM, the sentence embedding
# of chapter 06, has to run a transformer over every distinct text, and chapter 06 measures how much
# longer that takes than the lexical rankers on the paper's small corpus. Multiplied by this
# chapter's volume, it would exceed the book's time budget (all chapters together in ten minutes on
# two cores), so this chapter leaves MiniLM out. The static-embedding ranker stands in for the
# embedding family: its vectors come from a table lookup rather than a network.
#
# ## Table 2 on the new libraries
#
# Each new library gets the paper's one-wording galleries: the first shuffled wording of each task
# is indexed and all its other wordings are queries.

# %% tags=["remove-input"]
t2 = {k: v.set_index("ranker")["mean"] for k, v in res.table2.items()}
table = pd.DataFrame({TITLES[k]: v for k, v in t2.items()})
table.index = [display(r) for r in table.index]
page.show_table(table.reset_index(names="Ranker"), digits=1,
                  caption=("Mean top-1 accuracy (%) over one-wording galleries, "
                           "per ranker and library (primary scoring)."))
chance = 100 / read("robotwin")["task"].nunique()
obj, ph = float(t2["robotwin"]["char"]), float(t2["robotwin_placeholder"]["char"])
glue_values(n_gal=res.wins["robocasa"][1], w_robocasa=res.wins["robocasa"][0],
            w_robotwin=res.wins["robotwin"][0], w_placeholder=res.wins["robotwin_placeholder"][0],
            char_objects=obj, char_placeholder=ph, chance=chance,
            lost=100 * (obj - ph) / (obj - chance),
            object_share=share_phrase((obj - ph) / (obj - chance)))

# %% [markdown]
# The paired comparison counts the galleries in which Char TF-IDF beats BM25: on RoboCasa
# {glue:text}`w_robocasa` of {glue:text}`n_gal`, on RoboTwin with object names
# {glue:text}`w_robotwin`, and on RoboTwin with the placeholder {glue:text}`w_placeholder`. The
# paper found it in nearly every gallery of its corpus; the claims table below checks that and the
# paper's other claims on each library.
#
# **How much of RoboTwin's signal is object words?** RoboTwin's templates name their objects through
# slots (`{A}`, `{B}`), filled once with each object's name and once with the neutral placeholder
# "the object". Everything else, verbs, arms and structure, is identical between the two fills.
# Replacing the object names takes Char TF-IDF from {glue:text}`char_objects:.1f` % to
# {glue:text}`char_placeholder:.1f` %, against {glue:text}`chance:.1f` % by chance (one task in all
# of them): it loses {glue:text}`lost:.0f` % of its accuracy above chance, so
# {glue:text}`object_share` of RoboTwin's signal is object words. Chapter 08 measures the same kind
# of dependence on the paper's corpus by deleting object phrases from the queries.

# %% tags=["remove-input"]
claims, held = library_claims(res)
page.show_table(claims,
                  caption="The paper's claims, checked on each new library (paper's rankers only).")
counts = held.sum().astype(int)
if len(held) < 5:
    show_md("**Note.** This run leaves out Word TF-IDF (parameter `rankers`), so the claim "
                   "about it is not checked.")
glue_values(n_claims=len(held),
            **{f"held_{k}": f"{counts[TITLES[k]]} of {len(held)}" for k in NEW})

# %% [markdown]
# The claims are those chapter 09.1, *Transfer*, checks on RLBench and CALVIN, read the same way
# ("nearly all galleries" as at least the share given); the two about a second wording come from a
# matched study of k = 1 against k = 2 on the same queries, over {glue:text}`budget_trials`.
# Claims that hold, of {glue:text}`n_claims`: RoboCasa {glue:text}`held_robocasa`,
# RoboTwin with object names {glue:text}`held_robotwin`, with the placeholder
# {glue:text}`held_robotwin_placeholder`. The claim about Char TF-IDF and BM25 asks for more than a
# higher mean: it fails when the two rankers trade places from gallery to gallery, or tie often,
# even if Char TF-IDF is ahead on average.
#
# ## The wording budget
#
# **Method.** For each library, only the tasks with at least k_max + 1 texts take part, where k_max
# is the largest k for which at least {glue:text}`min_tasks` tasks qualify; in every gallery the
# queries are the texts from shuffled position k_max on, so every k scores the same held-out queries
# (matched, as chapter 03 matches one and two wordings). A task is scored by its best-matching
# indexed text, so each extra wording is one more chance to share words with a query. The band is
# the 5th–95th percentile over {glue:text}`budget_trials`, few because this part is the
# costliest.

# %% tags=["remove-input"]
glue_values(min_tasks=min_budget_tasks, budget_trials=count(budget_trials, "gallery"))
missing = [k for k in ("robotwin", "rlbench_full", "calvin") if k not in res.budget]
if missing:
    show_md(f"**Note.** This run studied the wording budget without {', '.join(missing)} "
                   "(parameter `budget_libraries`): the readings below show a dash for them.")
glue_values(**budget_readings(res.budget, ("robotwin", "rlbench_full", "calvin")),
            order_robotwin=chapter_summary.get("budget_robotwin_order", "—"))
fig = budget_figure(res.budget, TITLES)
plots.save_figure(fig, out, "wording_budget")
show_figure(fig, "fig-wording-budget",
                   "Top-1 accuracy against the number of wordings indexed per task (log scale), "
                   "mean and 5th–95th percentile band over galleries, per ranker and library "
                   "(* not in the paper).",
                   "Line charts: accuracy against k for every ranker on every library.")

# %% [markdown]
# {numref}`fig-wording-budget` draws the curves; the table under it gives every point with its
# band, so the whole shape can be read, not only the two ends.

# %% tags=["remove-input"]
bands = pd.concat([band_table(c, "k").assign(Library=TITLES[k])
                   for k, c in res.budget.items()])
page.show_table(bands[["Library", *bands.columns[:-1]]].fillna("—"),
                  caption=("Top-1 accuracy (%) at each k: mean over galleries "
                           "(5th–95th percentile), per library and ranker."))
plateau = pd.DataFrame({TITLES[k]: plateau_k(c) for k, c in res.budget.items()})
plateau.index = [display(r) for r in plateau.index]
page.show_table(plateau.reset_index(names="Ranker"),
                  caption=("Smallest k at which each ranker reaches 90 % "
                           "of its best mean accuracy over the studied ks."))

# %% [markdown]
# **Reading the curves.** On RoboTwin, indexing more wordings {glue:text}`helps_robotwin`: Char
# TF-IDF changes by {glue:text}`gain_robotwin` points from k = 1 to k = {glue:text}`kmax_robotwin`
# (5th–95th percentile over galleries, paired: {glue:text}`gain_lo_robotwin` to
# {glue:text}`gain_hi_robotwin`). On RLBench-full it {glue:text}`helps_rlbench_full`
# ({glue:text}`gain_rlbench_full` points up to k = {glue:text}`kmax_rlbench_full`, band
# {glue:text}`gain_lo_rlbench_full` to {glue:text}`gain_hi_rlbench_full`), on CALVIN it
# {glue:text}`helps_calvin` ({glue:text}`gain_calvin` points up to k = {glue:text}`kmax_calvin`,
# band {glue:text}`gain_lo_calvin` to {glue:text}`gain_hi_calvin`).
#
# *Where the curves saturate.* The rankers first reach 90 % of their best accuracy at
# {glue:text}`plateau_robotwin` on RoboTwin, {glue:text}`plateau_rlbench_full` on RLBench-full and
# {glue:text}`plateau_calvin` on CALVIN (the table above, per ranker). Past that point a new
# wording adds less and less: it tends to repeat words the task's other wordings already brought.
#
# *Whether the order changes.* The leading ranker is {glue:text}`leaders_robotwin` on RoboTwin;
# {glue:text}`leaders_rlbench_full` on RLBench-full; {glue:text}`leaders_calvin` on CALVIN. With
# only {glue:text}`budget_trials` per point, read a change of leader against the bands in
# the table: where the bands of two rankers overlap, the change is one of means, not a settled
# ordering.
#
# ## Seen → unseen on RoboTwin
#
# RoboTwin lists *seen* templates (for training) and *unseen* ones, written to test generalisation.
# One seen template per task is indexed; the other seen templates and all unseen ones are queried.
# If the unseen templates were worded further from the seen ones, accuracy on them would drop.

# %% tags=["remove-input"]
su = res.seen_unseen.groupby(["ranker", "queries"])["accuracy"].mean().unstack("queries")
seen, unseen = float(su.loc["char", "seen"]), float(su.loc["char", "unseen"])
glue_values(su_seen=seen, su_unseen=unseen, su_reading=direction(
    unseen - seen, "higher than", "lower than", "about the same as"))
su.index = [display(r) for r in su.index]
page.show_table(su.reset_index(names="Ranker"), digits=1,
                  caption=("Mean top-1 accuracy (%) on RoboTwin, one seen template "
                           "per task indexed."))

# %% [markdown]
# Char TF-IDF scores {glue:text}`su_seen:.1f` % on seen queries and {glue:text}`su_unseen:.1f` % on
# unseen ones: accuracy on the unseen templates is {glue:text}`su_reading` on the seen ones. For a
# lexical ranker, "unseen" is a label, not a distance: what matters is how many words a template
# shares with the indexed one, and the split does not control that.
#
# ## Library size
#
# **Method.** The libraries are pooled with labels kept distinct per library (`<library>/<task>`),
# LIBERO's one-wording tasks serving as distractors that are indexed but never queried. Galleries
# of n candidate tasks are drawn for {glue:text}`n_sizes` log-spaced n from {glue:text}`n_min` to
# all {glue:text}`n_all`, {glue:text}`size_draws` each; each draw indexes one wording per
# task and queries the others. A larger gallery adds wrong candidates for every query, so accuracy is
# expected to fall; the question is how fast, and for which ranker.

# %% tags=["remove-input"]
slopes = slope_per_doubling(res.size)
glue_values(**size_readings(res.size), size_draws=count(size_draws, "draw"))
fig = size_figure(res.size)
plots.save_figure(fig, out, "library_size")
show_figure(fig, "fig-library-size",
                   "Top-1 accuracy against the number of candidate tasks (log scale) in the "
                   "pooled library, mean and 5th–95th percentile band over draws, per ranker "
                   "(* not in the paper).",
                   "Line chart: accuracy against the number of candidate tasks, for every ranker.")
page.show_table(band_table(res.size, "n"),
                  caption=("Top-1 accuracy (%) at each library size n: mean over draws "
                           "(5th–95th percentile), per ranker."))
page.show_table(pd.DataFrame({"Ranker": [display(r) for r in slopes.index],
                                "Points per doubling": slopes.values}), digits=2,
                  caption=("Fitted change of accuracy (points) per doubling of the number "
                           "of candidate tasks."))

# %% [markdown]
# **Reading the curves.** As the gallery grows, accuracy {glue:text}`falls`: Char TF-IDF goes from
# {glue:text}`acc_small:.1f` % at n = {glue:text}`n_min` to {glue:text}`acc_large:.1f` % at
# n = {glue:text}`n_all`. Fitted over all draws, its accuracy changes by {glue:text}`slope_char`
# points per doubling of n; fitted on each series of draws alone, the change per doubling runs from
# {glue:text}`slope_lo` to {glue:text}`slope_hi` points. Over the smaller half of the sizes it is
# {glue:text}`slope_small` points per doubling and over the larger half {glue:text}`slope_large`:
# the fall is {glue:text}`size_shape`. Across rankers the change per doubling runs from
# {glue:text}`slope_min` points ({glue:text}`steepest`) to {glue:text}`slope_max` points
# ({glue:text}`flattest`).
#
# *Whether the best ranker changes.* The leader is {glue:text}`size_leaders`: the best ranker at
# the smallest size, {glue:text}`best_small`, {glue:text}`best_stays` best at all
# {glue:text}`n_all` tasks, where {glue:text}`best_large` leads. A ranker that falls more slowly can
# overtake one that starts higher, which is why the slope matters as much as the accuracy on a
# small benchmark.
#
# ## Macro and micro accuracy
#
# A library where a few tasks have many texts lets those tasks dominate query-weighted (micro)
# accuracy; the task-averaged (macro) accuracy weighs every task once. RLBench-full is the extreme
# case: its largest task has {glue:text}`rf_max` texts, its median task {glue:text}`rf_median`.
# The comparison covers every library of this chapter with at least two wordings per task, that is
# all but LIBERO (one wording per task, so nothing to query), over {glue:text}`budget_trials`
# (one-wording) each, the same small number as the wording budget: it needs every single
# prediction kept, not only the per-gallery means. RLBench-62, the paper's corpus, is left out: it
# has few descriptions per task, so the two averages can differ little there.

# %% tags=["remove-input"]
mm = res.macro_micro.copy()
sizes = read("rlbench_full").groupby("task").size()
worst = mm.loc[mm["difference"].abs().idxmax()]
glue_values(gap=float(worst["difference"]), gap_library=TITLES[worst["library"]],
            gap_ranker=label(worst["ranker"]),
            mm_where=disagree_where(mm, TITLES), rf_max=int(sizes.max()),
            rf_median=f"{sizes.median():g}",
            mm_libraries=", ".join(TITLES[k] for k in dict.fromkeys(mm["library"])))
mm["library"] = mm["library"].map(TITLES)
mm["ranker"] = mm["ranker"].map(display)
page.show_table(mm[["library", "ranker", "micro", "macro", "difference"]], digits=1,
                  caption=("Micro (query-weighted) and macro (task-averaged) "
                           "top-1 accuracy (%), one-wording galleries."))

# %% [markdown]
# Libraries compared: {glue:text}`mm_libraries`. Macro and micro accuracy differ by more than one
# point for some ranker on {glue:text}`mm_where`. The largest gap, {glue:text}`gap:.1f` points
# (macro − micro), is on {glue:text}`gap_library` for {glue:text}`gap_ranker`. A positive gap means
# the tasks with many texts are the harder ones and pull the query-weighted mean down; a negative
# gap means the opposite.
#
# ## Accuracy against cost
#
# Each ranker indexes one gallery of the whole pooled library and scores all its queries once, on one
# thread; the accuracy is its mean at the largest library size.

# %% tags=["remove-input"]
cost = res.cost.copy()
speed = dict(zip(cost["ranker"], cost["queries_per_second"]))
glue_values(fastest=label(leader(speed)),
            most_accurate=label(leader(dict(zip(cost["ranker"], cost["accuracy"])))))
fig = cost_figure(cost)
plots.save_figure(fig, out, "timings")  # wall-clock: differs run to run, like timings.json
show_figure(fig, "fig-cost",
                   "Accuracy at the largest library size against queries scored per second "
                   "(log scale), one point per ranker (* not in the paper).",
                   "Scatter plot: each ranker's accuracy against its speed.")
cost["ranker"] = cost["ranker"].map(display)
page.show_table(cost, digits=3,
                  caption=("Time to index the pooled gallery, queries per second "
                           "and accuracy at the largest library size."))

# %% [markdown]
# The fastest ranker is {glue:text}`fastest`; the most accurate at the largest size is
# {glue:text}`most_accurate`. The timings are wall-clock seconds of one run, so they move from run
# to run; the order of magnitude between rankers is what the figure is for.
#
# ## The answers
#
# **How many wordings does a task need?** On RoboTwin, indexing more wordings per task
# {glue:text}`helps_robotwin`: Char TF-IDF changes by {glue:text}`gain_robotwin` points from k = 1
# to k = {glue:text}`kmax_robotwin` (band over galleries {glue:text}`gain_lo_robotwin` to
# {glue:text}`gain_hi_robotwin`). On RLBench-full indexing more wordings
# {glue:text}`helps_rlbench_full` ({glue:text}`gain_rlbench_full` points to
# k = {glue:text}`kmax_rlbench_full`), on CALVIN it {glue:text}`helps_calvin`
# ({glue:text}`gain_calvin` points to k = {glue:text}`kmax_calvin`).
# The rankers first reach nine tenths of their best accuracy over the studied ks at
# {glue:text}`plateau_robotwin` on RoboTwin, {glue:text}`plateau_rlbench_full` on RLBench-full and
# {glue:text}`plateau_calvin` on CALVIN: a task needs that many wordings for most of the gain.
# The leading ranker {glue:text}`order_robotwin` with k on RoboTwin ({glue:text}`leaders_robotwin`).
#
# **How does retrieval fall as the library grows?** Accuracy {glue:text}`falls`: for Char TF-IDF
# it changes by {glue:text}`slope_char` points per doubling of the candidate tasks (per series of
# draws {glue:text}`slope_lo` to {glue:text}`slope_hi`), from {glue:text}`acc_small:.1f` % at
# {glue:text}`n_min` tasks to {glue:text}`acc_large:.1f` % at {glue:text}`n_all`; the fall is
# {glue:text}`size_shape`. The best ranker is {glue:text}`best_small` at the smallest size and
# {glue:text}`best_large` at all tasks: the best ranker at a few tasks {glue:text}`best_stays` best
# at {glue:text}`n_all`.
