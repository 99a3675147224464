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
# Every gallery is drawn by the paper's protocol: seeded permutations per task, a task scored by the
# maximum over its indexed texts, ties to the first task in sorted order. Beside the paper's lexical
# rankers runs a static-embedding ranker, *Static emb.* (WordLlama's shipped token table, each text
# the mean of its tokens' vectors, no network, no torch), marked "not in paper".
#
# - **Inputs:** the corpora of the table below. **Outputs:** the figures, the tables and
#   `summary.json` in the output folder.

# %% tags=["parameters"]
seed: int = 413  # seed of every draw (paper: 413)
rankers: list = ["bm25", "word", "char", "word_char", "lsa", "static"]  # must hold bm25 and char
n_trials: int = 80  # one-wording galleries per new library for Table 2 (paper: 80)
n_matched_trials: int = 30  # galleries, one against two wordings, for the claims (paper: 30)
budget_trials: int = 20  # galleries per k in the wording budget (also seen/unseen)
ks: list = [1, 2, 4, 8, 16, 32]  # wordings indexed per task
budget_libraries: list = ["robotwin", "rlbench_full", "calvin"]  # libraries of the wording budget
min_budget_tasks: int = 8  # a k is studied where at least this many tasks have k + 1 texts
size_draws: int = 20  # galleries per library size n
size_steps: int = 6  # log-spaced library sizes
size_min: int = 8  # smallest library size
output_dir: str = ""  # result folder (empty: _build/results/09_libraries)

# %% tags=["remove-input"]
import time

import pandas as pd

from robotask import plots
from robotask.book import Page, glue_values, show_figure, show_md
from robotask.io import write_csv, write_json
from robotask.retrieval import scaling as S
from robotask.retrieval.presentation import label
from robotask.retrieval.protocol import load_study_corpus
from robotask.retrieval.rankers import PAPER_SETTINGS, display
from robotask.words import VERDICT_COLUMNS, count, join, verdict_row

plots.use_style()
page = Page("09_libraries")
out = page.output_dir(output_dir)
t0 = time.perf_counter()
res = S.run_all(seed=seed, rankers=rankers, n_trials=n_trials, n_matched_trials=n_matched_trials,
                budget_trials=budget_trials, ks=ks, budget_libraries=budget_libraries,
                min_budget_tasks=min_budget_tasks, size_draws=size_draws, size_steps=size_steps,
                size_min=size_min)
seconds = time.perf_counter() - t0
_ = write_json(out / "summary.json", S.summary(res))

# %% tags=["remove-input"]
frames = {k: S.read(k) for k in S.PATHS}
libs = S.library_table(frames)
page.show_table(libs, caption="The instruction libraries of this chapter, as committed in `data/`.")
n_of, n06 = dict(zip(libs["Library"], libs["Tasks"])), len(set(load_study_corpus("").texts))
size = S.size_values(res.size, res.size_comparisons)  # glued in parts, before each paragraph
one_wording = S.one_wording_values(res.table2, res.wins, frames["robotwin"]["task"].nunique())
glue_values(seconds=seconds, n_rankers=len(rankers), n_distinct=f"{libs['Distinct texts'].sum():,}",
            minilm_factor=libs["Distinct texts"].sum() / n06, n_all=size["n_all"],
            n_gal=one_wording["n_gal"], **{f"tasks_{k}": n_of[S.TITLES[k]] for k in S.PATHS})

# %% [markdown]
# ## The libraries
#
# The table lists the instruction texts of five public libraries: RoboCasa
# {cite}`nasiriany2024robocasa` (`data/robocasa`), RoboTwin 2.0 {cite}`chen2025robotwin`
# (`data/robotwin`) with its object slots filled once by object names and once by a neutral
# placeholder, every RLBench task file {cite}`james2020rlbench` (`data/rlbench/full`, task level),
# CALVIN {cite}`mees2022calvin` (`data/calvin`) and LIBERO {cite}`liu2023libero` (`data/libero`,
# one instruction per task file). Each `data/<library>/README.md` gives the extraction command and
# its rules; the revision column is the commit each was read from.
#
# **The pooled library** of the size study joins RoboCasa ({glue:text}`tasks_robocasa` tasks),
# RoboTwin with object names ({glue:text}`tasks_robotwin`), RLBench-full
# ({glue:text}`tasks_rlbench_full`), CALVIN ({glue:text}`tasks_calvin`) and LIBERO
# ({glue:text}`tasks_libero`), with labels kept distinct per library (`<library>/<task>`): the
# {glue:text}`n_all` tasks of the largest gallery. The placeholder fill of RoboTwin is left out of
# the pool, as it repeats RoboTwin's tasks.
#
# **Why MiniLM is not in this chapter.** The studies below draw from {glue:text}`n_distinct`
# distinct texts (the table's column, summed) and take {glue:text}`seconds:.0f` s for
# {glue:text}`n_rankers` rankers, every text tokenised and embedded once. MiniLM, the sentence
# embedding of chapter 06, would also embed each distinct text once; chapter 06 measures what that
# costs: its {glue:text}`06_sentence_embeddings.ipynb::n_distinct:d` distinct descriptions
# take {glue:text}`06_sentence_embeddings.ipynb::t_load:.1f` s, loading the model included.
# This chapter has about {glue:text}`minilm_factor:.0f` times as many texts, so MiniLM would add
# roughly that many times chapter 06's embedding time to a book that must build in ten minutes on
# two cores. The static-embedding ranker stands in for the embedding family: its vectors come from a
# table lookup, not a network.
#
# ## Table 2 on the new libraries
#
# Each new library gets the paper's protocol: {glue:text}`n_gal` one-wording galleries, the first
# shuffled wording of each task indexed and all its other wordings queried, primary scoring.

# %% tags=["remove-input"]
means = pd.DataFrame({S.TITLES[k]: v.set_index("ranker")["mean"] for k, v in res.table2.items()})
page.show_table(means.rename(index=display).reset_index(names="Ranker"), digits=1,
                caption="Mean top-1 accuracy (%) over one-wording galleries (primary scoring).")
glue_values(matched_text=count(n_matched_trials, "matched gallery"),
            **{k: v for k, v in one_wording.items() if k != "n_gal"})

# %% [markdown]
# Char TF-IDF answers more queries than BM25 in {glue:text}`w_robocasa` of the
# {glue:text}`n_gal` galleries on RoboCasa, {glue:text}`w_robotwin` on RoboTwin with object names
# and {glue:text}`w_placeholder` with the placeholder. The paper found it in nearly every gallery of
# its corpus; the claims table below decides that and the paper's other claims on each library.
#
# **How much of RoboTwin's signal is object words?** RoboTwin's templates name their objects through
# slots (`{A}`, `{B}`), filled once with each object's name and once with the neutral placeholder
# "the object". Everything else, verbs, arms and structure, is identical between the two fills.
# Replacing the object names takes Char TF-IDF from {glue:text}`char_objects:.1f` % to
# {glue:text}`char_placeholder:.1f` %, against {glue:text}`chance:.1f` % by chance (one task in all
# of them): it loses {glue:text}`lost:.0f` % of its accuracy above chance, so
# {glue:text}`object_share` of RoboTwin's signal is object words. Chapter 08 measures the same kind
# of dependence on the paper's corpus by deleting object phrases from the queries.
#
# ## The paper's claims on each library
#
# A claim that compares means is decided by the 95 % interval of the paired difference of the two
# numbers (its unit is said below): it **holds** when the interval lies above zero, **does not
# hold** when it lies below, and is **not resolved** when it includes zero, however the means fall.
# "Nearly all galleries" holds when the exact 95 % interval of Char TF-IDF's share of won galleries
# lies above the share the claim names. The two claims about a second wording read a matched study
# of k = 1 against k = 2 on the same queries, over {glue:text}`matched_text`, the paper's number.
#
# **What the intervals resample.** As in chapters 02 to 09.1, every interval of a comparison of
# means on this page (the claims, the wording budget, the library size and macro − micro) resamples
# the galleries (or series of draws) and the queried descriptions within their task together, a
# two-way bootstrap of 2,000 replicates that recomputes the comparison on each: chapter 07 finds the
# descriptions the larger source of uncertainty on RLBench, so an interval over the galleries alone
# would be too narrow. Seen → unseen on RoboTwin resamples the two fixed template sets' templates
# and the galleries. "Nearly all galleries" is a claim about galleries, so its unit is the gallery.

# %% tags=["remove-input"]
claims, words, claim_rows = S.library_claims(res)
page.show_table(claims, caption="The paper's claims on each new library (paper's rankers only).")
glue_values(min_tasks=min_budget_tasks, budget_text=count(budget_trials, "gallery"),
            **S.library_claim_values(words, S.NEW))

# %% [markdown]
# Claims that hold, of {glue:text}`n_claims`: RoboCasa {glue:text}`held_robocasa`
# ({glue:text}`open_robocasa` not resolved), RoboTwin with object names {glue:text}`held_robotwin`
# ({glue:text}`open_robotwin` not resolved), with the placeholder
# {glue:text}`held_robotwin_placeholder` ({glue:text}`open_robotwin_placeholder` not resolved).
# A claim that is not resolved is neither confirmed nor refuted: the rankers it compares differ by
# less than the noise of their difference over galleries and descriptions, so this run cannot
# order them. More galleries would narrow the interval; a gap that matters in practice would not
# need them. Read the evidence column for the size of each gap: a difference of a few tenths of a
# point between two rankers is not a reason to prefer one of them.
#
# ## The wording budget
#
# **Method.** For each library, only the tasks with at least k_max + 1 texts take part, where k_max
# is the largest k for which at least {glue:text}`min_tasks` tasks qualify; in every gallery the
# queries are the texts from shuffled position k_max on, so every k scores the same held-out queries
# (matched, as chapter 03 matches one and two wordings). A task is scored by its best-matching
# indexed text, so each extra wording is one more chance to share words with a query. The band is
# the 5th–95th percentile over {glue:text}`budget_text`; the words below come from 95 % intervals of
# paired differences that resample the galleries and the queried descriptions together (a two-way
# bootstrap, as chapter 07's, recomputing each difference on every replicate).

# %% tags=["remove-input"]
if len(rankers) < 6 or len(res.budget) < 3:
    show_md("**Note.** This run leaves out some rankers or libraries (parameters `rankers`, "
            "`budget_libraries`): the readings below read only the libraries and rankers it ran.")
fig = S.budget_figure(res.budget, S.TITLES)
plots.save_figure(fig, out, "wording_budget")
show_figure(fig, "fig-wording-budget",
            "Top-1 accuracy against the number of wordings indexed per task (log scale), mean and "
            "5th–95th percentile band over galleries, per ranker and library (* not in the paper).",
            "Line charts: accuracy against k for every ranker on every library.")

# %% [markdown]
# {numref}`fig-wording-budget` draws the curves; the tables under it give every point with its band
# and where each ranker reaches nine tenths of its best accuracy, so the whole shape can be read.

# %% tags=["remove-input"]
page.show_table(S.budget_bands(res.budget),
                caption="Top-1 accuracy (%) at each k: mean (5th–95th percentile) over galleries.")
page.show_table(S.plateau_table(res.budget),
                caption="Smallest k at which each ranker reaches 90 % of its best mean accuracy.")

# %% tags=["remove-input"]
names = {"robotwin": "RoboTwin", "rlbench_full": "RLBench-full", "calvin": "CALVIN"}
ran = [k for k in names if k in res.budget]  # the prose reads only the budgets this run made
b = S.budget_values(res.budget_comparisons, res.budget, tuple(ran))
tasks = {k: count(int(frames[k].groupby("task").size().ge(int(res.budget[k]["k"].max()) + 1).sum()),
                  "task") for k in ran}  # the tasks of each budget
others = " ".join(f"On {names[k]}: {b[f'helps_{k}']} ({b[f'gain_{k}']} points up to k = "
                  f"{b[f'kmax_{k}']}, interval {b[f'gain_lo_{k}']} to {b[f'gain_hi_{k}']})."
                  for k in ran if k != "robotwin")
glue_values(lsa_dims=PAPER_SETTINGS.lsa_dims, **{k: v for k, v in b.items() if "robotwin" in k},
            budget_tasks=join(f"{tasks[k]} of {names[k]}" for k in ran),
            budget_others=others or "No other library's budget ran in this build.",
            plateau_where=join(f"{b[f'plateau_{k}']} on {names[k]}" for k in ran),
            leaders_where="; ".join(f"on {names[k]} {b[f'leaders_{k}']}" for k in ran),
            order_where="; ".join(f"{'on' if i else 'On'} {names[k]}: {b[f'order_{k}']}"
                                  for i, k in enumerate(ran)),
            chance_where="; ".join(f"on {names[k]} {b[f'chance_{k}']}" for k in ran),
            answer_others="; ".join(f"on {names[k]}: {b[f'helps_{k}']} ({b[f'gain_{k}']} points to "
                                    f"k = {b[f'kmax_{k}']})" for k in ran if k != "robotwin")
            or "no other library ran")

# %% [markdown]
# **Which tasks take part.** The budget runs on {glue:text}`budget_tasks`: those with more texts
# than the largest k studied there.
#
# **Reading the curves.** On RoboTwin, more wordings per task: {glue:text}`helps_robotwin`. Char
# TF-IDF changes by {glue:text}`gain_robotwin` points from k = 1 to k = {glue:text}`kmax_robotwin`
# (95 % interval of the paired gain {glue:text}`gain_lo_robotwin` to {glue:text}`gain_hi_robotwin`).
# {glue:text}`budget_others`
#
# *Where the curves saturate.* The rankers first reach 90 % of their best accuracy at
# {glue:text}`plateau_where`. Past that point a new wording adds less and less: it tends
# to repeat words the task's other wordings already brought.
#
# *Whether the order changes.* At each k the leader is named only where its lead over the
# runner-up is resolved (95 % interval of the paired difference above zero):
# {glue:text}`leaders_where`. Does the leader change with k? {glue:text}`order_where`. A change
# counts only between two resolved leaders; a k where the top two are inside each other's noise
# names no leader at all. These are several tests read together, one per k:
# {glue:text}`chance_where`.
#
# *Why Word TF-IDF and LSA-32 share a row.* Where a gallery holds at most
# {glue:text}`lsa_dims` texts (at k = 1 on a library with few eligible tasks, and at the library
# sizes below up to that number), LSA keeps every dimension of the gallery's word TF-IDF space, and a cosine
# in that space ranks the gallery exactly as word TF-IDF's cosine does (`tests/test_rankers.py`
# checks it): the two rankers give the same answer to every query, not merely similar accuracies.
#
# ## Seen → unseen on RoboTwin
#
# RoboTwin lists *seen* templates (for training) and *unseen* ones, written to test generalisation.
# One seen template per task is indexed; the other seen templates and all unseen ones are queried,
# in {glue:text}`budget_text`. If the unseen templates were worded further from the seen ones,
# accuracy on them would drop.

# %% tags=["remove-input"]
page.show_table(S.seen_unseen_table(res.seen_unseen), digits=1,
                caption="Mean top-1 accuracy (%) on RoboTwin, one seen template per task indexed.")
su = S.seen_unseen_values(res.seen_unseen, res.seen_unseen_queries, seed)
index = [verdict_row(chapter="09_libraries", claim="unseen against seen templates, Char TF-IDF",
                     a="unseen templates", b="seen templates", data=S.TITLES["robotwin"],
                     metric="top-1 accuracy", difference=su["su_difference"], low=su["su_low"],
                     high=su["su_high"], unit="gallery and template", n_units=su["su_templates"],
                     method=f"{su['su_method']} over {su['su_galleries']} galleries")]
index += [row for k, t in res.budget_comparisons.items()
          for row in S.curve_verdict_rows(t, data=f"{S.TITLES[k]}, wording budget", x_name="k")]
index += S.curve_verdict_rows(res.size_comparisons, data="pooled library", x_name="n")
glue_values(n_sizes=size["n_sizes"], n_min=size["n_min"], size_text=count(size_draws, "draw"),
            **{k: v for k, v in su.items() if k not in ("su_method", "su_low", "su_high",
                                                         "su_difference")})

# %% [markdown]
# Char TF-IDF scores {glue:text}`su_seen:.1f` % on seen queries and {glue:text}`su_unseen:.1f` % on
# unseen ones; unseen − seen, paired by gallery, is {glue:text}`su_diff` points (95 % interval
# {glue:text}`su_lo` to {glue:text}`su_hi`): unseen is {glue:text}`su_reading`. The seen and the
# unseen templates are two fixed sets written by RoboTwin's authors, so the interval resamples
# what a repeat would change: the {glue:text}`su_templates` queried templates within their task
# and set, and the {glue:text}`su_galleries` galleries, together (a two-way bootstrap). For a lexical
# ranker, "unseen" is a label, not a distance: what matters is how many words a template shares
# with the indexed one, and the split does not control that.
#
# ## Library size
#
# **Method.** Galleries of n candidate tasks are drawn from the pooled library for
# {glue:text}`n_sizes` log-spaced n from {glue:text}`n_min` to all {glue:text}`n_all`,
# {glue:text}`size_text` each; each draw indexes one wording per task and queries the others,
# LIBERO's one-wording tasks serving as distractors that are indexed but never queried. Draw d at
# every size makes one *series*; a slope per doubling of n is fitted on the mean accuracies, and the
# words come from a two-way bootstrap: each replicate resamples the series and the queried
# descriptions within their task, and the slope is refitted on the replicate's accuracies. A larger
# gallery adds wrong candidates for every query, so accuracy is expected to fall; the question is
# how fast, and for which ranker.

# %% tags=["remove-input"]
fig = S.size_figure(res.size)
plots.save_figure(fig, out, "library_size")
show_figure(fig, "fig-library-size",
            "Top-1 accuracy against the number of candidate tasks (log scale) in the pooled "
            "library, mean and 5th–95th percentile band over draws, per ranker (* not in the "
            "paper).",
            "Line chart: accuracy against the number of candidate tasks, for every ranker.")
page.show_table(S.band_table(res.size, "n"),
                caption="Top-1 accuracy (%) at each library size n: mean (5th–95th percentile).")
page.show_table(S.slope_table(res.size_comparisons), digits=2,
                caption="Change of accuracy (points) per doubling of the candidate tasks, "
                        "with its 95 % interval over draws and descriptions (two-way bootstrap).")

# %% tags=["remove-input"]
macro_micro = S.macro_micro_values(res.macro_micro, frames["rlbench_full"])
halves = size["slope_small"] != "—"  # a slope per half needs at least two sizes in each half
glue_values(rf_max=macro_micro.pop("rf_max"), rf_median=macro_micro.pop("rf_median"),
            **{k: v for k, v in size.items() if k not in (
                "n_all", "n_sizes", "n_min", "slope_small", "slope_large", "size_shape")},
            bend_sentence=(f"Over the smaller half of the sizes it is {size['slope_small']} points "
                           f"per doubling and over the larger half {size['slope_large']}; whether "
                           f"the curve bends, resampled the same way: {size['size_shape']}."
                           if halves else f"With {size['n_sizes']} sizes this run fits no slope "
                           "to either half of them, so it does not ask whether the curve bends."),
            bends=size["size_shape"] if halves else "not asked with so few sizes")

# %% [markdown]
# **Reading the curves.** Char TF-IDF's accuracy as the gallery grows: {glue:text}`falls`. It goes from
# {glue:text}`acc_small:.1f` % at n = {glue:text}`n_min` to {glue:text}`acc_large:.1f` % at
# n = {glue:text}`n_all`, {glue:text}`slope_char` points per doubling of n (95 % interval
# {glue:text}`slope_lo` to {glue:text}`slope_hi`). {glue:text}`bend_sentence`
# Across rankers the change per doubling runs
# from {glue:text}`slope_min` points ({glue:text}`steepest`) to {glue:text}`slope_max` points
# ({glue:text}`flattest`); their difference, resampled the same way, runs from {glue:text}`steep_lo` to
# {glue:text}`steep_hi` points, so that order is {glue:text}`steep_sure`.
#
# *Whether the best ranker changes.* Naming a leader only where its lead over the runner-up is
# resolved: {glue:text}`size_leaders` ({glue:text}`size_chance`). The leader at the smallest size:
# {glue:text}`best_small`; at all {glue:text}`n_all` tasks: {glue:text}`best_large`. Does the best
# ranker at a few tasks stay best at all of them? {glue:text}`best_stays`. A ranker that falls more slowly can overtake
# one that starts higher, which is why the slope matters as much as the accuracy on a small
# benchmark.
#
# ## Macro and micro accuracy
#
# A library where a few tasks have many texts lets those tasks dominate query-weighted (micro)
# accuracy; the task-averaged (macro) accuracy weighs every task once. RLBench-full is the extreme
# case: its largest task has {glue:text}`rf_max` texts, its median task {glue:text}`rf_median`. The
# comparison covers every library with at least two wordings per task (all but LIBERO) over the
# one-wording galleries: for the new libraries the {glue:text}`n_gal` of Table 2 themselves, so
# the micro column equals Table 2; for RLBench-full and CALVIN {glue:text}`budget_text`.

# %% tags=["remove-input"]
glue_values(**macro_micro)
index += claim_rows + S.macro_micro_rows(res.macro_micro)
_ = write_csv(out / "verdicts.csv", pd.DataFrame(index, columns=list(VERDICT_COLUMNS)))
page.show_table(S.macro_micro_table(res.macro_micro), digits=1,
                caption=("Micro and macro top-1 accuracy (%), their difference (macro − micro) and "
                         "its 95 % interval over galleries and descriptions (two-way bootstrap)."))

# %% [markdown]
# Macro − micro is resolved (its interval excludes zero) for some ranker on
# {glue:text}`mm_where` ({glue:text}`mm_chance`). The gap with the largest size in this run, {glue:text}`gap:.1f` points
# (95 % interval {glue:text}`gap_lo` to {glue:text}`gap_hi`), is on
# {glue:text}`gap_library` for {glue:text}`gap_ranker`; which gap is the largest is read from the
# point estimates and is not itself decided by an interval. A positive gap means the tasks with many
# texts are the harder ones and pull the query-weighted mean down; a negative gap means the
# opposite.
#
# ## Accuracy against cost
#
# Each ranker indexes one gallery of the whole pooled library and scores all its queries once, on one
# thread, from scratch (no shared index); the accuracy is its mean at the largest library size.

# %% tags=["remove-input"]
cost = res.cost.copy()
glue_values(fastest=label(S.leader(dict(zip(cost["ranker"], cost["queries_per_second"])))),
            fastest_qps=f"{float(format(cost['queries_per_second'].max(), '.3g')):,.0f}")
fig = S.cost_figure(cost)
plots.save_figure(fig, out, "timings")  # wall-clock: differs run to run, like timings.json
show_figure(fig, "fig-cost",
            "Accuracy at the largest library size against queries scored per second "
            "(log scale), one point per ranker (* not in the paper).",
            "Scatter plot: each ranker's accuracy against its speed.")
cost["ranker"] = cost["ranker"].map(display)
cost["index_seconds"] = [f"{v:.3g}" for v in cost["index_seconds"]]  # at most 3 significant digits
cost["queries_per_second"] = [f"{float(format(v, '.3g')):,.0f}" for v in cost["queries_per_second"]]
page.show_table(cost, digits=1, caption=("Time to index the pooled gallery (s), queries per second "
                                         "and accuracy (%) at the largest library size, one run."))

# %% [markdown]
# In this one timing {glue:text}`fastest` scored the most queries per second (about
# {glue:text}`fastest_qps`); it is a single wall-clock run with no interval, so it decides nothing,
# and the order of two rankers of similar speed can change from run to run; the order of magnitude
# between rankers is what the figure is for. Which ranker is the most accurate at the largest size
# is read by its interval above: {glue:text}`best_large`.
#
# ## The answers
#
# **How many wordings does a task need?** On RoboTwin, more wordings per task:
# {glue:text}`helps_robotwin` (Char TF-IDF {glue:text}`gain_robotwin` points from k = 1 to
# k = {glue:text}`kmax_robotwin`, 95 % interval {glue:text}`gain_lo_robotwin` to
# {glue:text}`gain_hi_robotwin`); {glue:text}`answer_others`. The rankers first reach nine tenths
# of their best accuracy at {glue:text}`plateau_where`: a task needs that many wordings for most of
# the gain. Does the leading ranker change with
# k on RoboTwin? {glue:text}`order_robotwin` ({glue:text}`leaders_robotwin`).
#
# **How does retrieval fall as the library grows?** Char TF-IDF's accuracy {glue:text}`falls` by
# {glue:text}`slope_char` points per doubling of the candidate tasks (95 % interval
# {glue:text}`slope_lo` to {glue:text}`slope_hi`), from {glue:text}`acc_small:.1f` % at
# {glue:text}`n_min` tasks to {glue:text}`acc_large:.1f` % at {glue:text}`n_all`; whether it bends:
# {glue:text}`bends`. The leader at the smallest size: {glue:text}`best_small`; at all tasks:
# {glue:text}`best_large`. Does the best ranker at a few tasks stay best at {glue:text}`n_all`?
# {glue:text}`best_stays`. Every one of these words comes from a 95 % interval over
# {glue:text}`size_text` per size; where it says "not resolved", the draws of this run cannot
# order the rankers, and the table of bands shows by how little they differ.
