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
# # Test whether the paper's ranking transfers to every RLBench task and to CALVIN
#
# The paper ranks its lexical rankers on the RLBench task files whose descriptions are fixed
# strings. Does its ranking hold on a larger or a different robot-task library? This chapter runs
# the same protocol (the same seed, random one-description galleries, primary scoring, paired
# comparisons, the matched two-description study) with the paper's rankers and MiniLM on the
# paper's corpus, on every RLBench task file at task level and at variation level (templates
# filled for every variation), and on the language annotations of CALVIN
# {cite}`mees2022calvin`, and checks each of the paper's claims on each library.
#
# - **Inputs:** `data/rlbench/corpus.csv`, `data/rlbench/full/corpus.csv` (every task file and
#   variation, `robotask extract --all-files`), `data/calvin/corpus.csv`.
# - **Outputs:** `per_trial.csv` (one row per library × trial × ranker × condition × scoring policy),
#   `errors.csv` (wrong predictions per library, ranker and kind of confusion), the figures below
#   and `summary.json`, in the output folder.

# %% tags=["parameters"]
seed: int = 413  # seed of the gallery draws (paper: 413)
n_trials: int = 80  # random one-description galleries per library (paper: 80)
n_matched_trials: int = 30  # matched trials per library (paper: 30)
rankers: list = [  # ids in registry.RANKERS; must hold bm25, word, char
    "bm25", "word", "char", "word_char", "lsa", "minilm",
]
libraries: list = [  # keys of robotask.retrieval.libraries.transfer.LIBRARIES
    "rlbench62", "rlbench_task", "rlbench_variation", "calvin",
]
n_examples: int = 2  # checked error examples per confusion and library
output_dir: str = ""  # result folder (empty: _build/results/09_transfer)

# %%
import pandas as pd

from robotask import plots
from robotask.book import Page, show_figure, show_md
from robotask.io import write_csv, write_json
from robotask.retrieval.libraries import (LIBRARIES, claims, error_shares, examples, gains,
                                          long_summary, matched, near_shares, overview, paired,
                                          run_transfer, sensitivity, table2, verify_examples)
from robotask.retrieval.presentation import (best_ranker, by_library, char_lead,
                                             figure_transfer_gains, figure_transfer_spread,
                                             glue_values, task_right_reading, where_all_hold,
                                             widest)
from robotask.retrieval.protocol import config_from_parameters
from robotask.words import count

plots.use_style()  # the book's figure style, for every figure of this chapter

page = Page("09_transfer")
out = page.output_dir(output_dir)
config = config_from_parameters(
    seed=seed, n_trials=n_trials, n_matched_trials=n_matched_trials, rankers=rankers
)
runs = run_transfer(libraries, config, n_examples, progress=True)
titles = {k: r.library.spec.title for k, r in runs.items()}
per_trial = pd.concat([r.per_trial.assign(library=k) for k, r in runs.items()], ignore_index=True)
errors = pd.concat([r.errors.assign(library=k) for k, r in runs.items()], ignore_index=True)
files = [write_csv(out / "per_trial.csv", per_trial), write_csv(out / "errors.csv", errors)]
library_overview = overview({k: r.library for k, r in runs.items()})
page.show_table(library_overview, digits=1,
                  caption="The task libraries: tasks, descriptions and queries per gallery.")

# %% tags=["remove-input"]
keys = list(LIBRARIES)  # every library the chapter can run; those left out read "—"
glue_values(seed=seed, n_trials=n_trials, n_matched=n_matched_trials, n_rankers=len(config.rankers))
if set(keys) - set(runs):
    show_md(f"**Note.** This run leaves out {', '.join(sorted(set(keys) - set(runs)))} "
                   "(parameter `libraries`): the readings below show a dash for them.")

# %% [markdown]
# Every library is run with the same settings: seed {glue:text}`seed`, {glue:text}`n_trials`
# one-description galleries, {glue:text}`n_matched_trials_text` and {glue:text}`n_rankers` rankers.
# The table above gives each library's size: a gallery indexes one text per label and queries all
# the others, so *Queries per gallery* is the number of texts minus the number of labels.
#
# ## The libraries
#
# *RLBench-62* is the paper's corpus (chapter 01). *RLBench-full* holds every description of all
# RLBench task files, every variation evaluated statically (templates such as `stack %d %s blocks`
# filled with each variation's values). At *task level* its label is the task file, and a text that
# several variations of a task share counts once; at *variation level* the label is
# `task:variation`, and a text that several variations share belongs to all of them, so the primary
# policy leaves it out of the score, as it leaves out "press the light switch" in RLBench-62. The
# one text RLBench lists twice within one task (`toilet_seat_down`) is kept as authored, as in the
# paper. *CALVIN* maps each of its tasks to a list of crowd-written instructions. LSA keeps the
# paper's 32 components everywhere; on galleries of more than 128 descriptions (the variation
# level) they come from the eigenvectors of the gallery's Gram matrix rather than a full SVD, the
# same subspace to rounding at a fifth of the cost (`lexical.lsa_basis`).
#
# These libraries differ in ways that matter for lexical retrieval. RLBench-62 holds only the task
# files whose descriptions are fixed strings, each with a handful of hand-written descriptions.
# RLBench-full adds every other task file and the template fills of its variations. At variation
# level labels can differ in a single value, so a text can have a near-twin under another label.
# CALVIN's instructions are a separate, crowd-written set. The last column of the table counts texts
# that differ from a text of another label by one swapped word (same length): these are the
# near-duplicates a lexical ranker cannot separate by overlap.
#
# ## Table 2 on each library
#
# Mean ± sample SD of top-1 accuracy over galleries, with the 5th–95th percentile band in brackets (%).

# %%
page.show_table(table2(runs),
                  caption=("Top-1 accuracy of each ranker on each library "
                           "(mean ± SD, percentile band, %)."))
summary = long_summary(runs)
fig = figure_transfer_spread(summary)
plots.save_figure(fig, out, "transfer_spread")
show_figure(
    fig, "fig-transfer-spread",
    "Mean top-1 accuracy (dots) and 5th–95th percentile band over galleries (lines) of each ranker "
    "on each library.",
    "Dot-and-line chart: for each library, every ranker's mean top-1 accuracy with its band "
    "over galleries.")

# %% tags=["remove-input"]
lexical = summary[summary["ranker"].isin(["bm25", "word", "char", "word_char", "lsa"])]
best = lexical.loc[lexical.groupby("library")["mean"].idxmax()].set_index("library")
glue_values(**by_library(
    "best", {k: best_ranker(r["ranker"], r["mean"]) for k, r in best.iterrows()}, keys))

# %% [markdown]
# {numref}`fig-transfer-spread` shows the means and bands side by side. The best of the paper's
# rankers on each library: RLBench-62, {glue:text}`best_rlbench62`; RLBench-full at task level,
# {glue:text}`best_rlbench_task`; at variation level, {glue:text}`best_rlbench_variation`; CALVIN,
# {glue:text}`best_calvin`. A ranking that held everywhere would name the same ranker on every
# library. The accuracies themselves can fall with the number of labels a query has to choose from
# and with how alike their texts are, so a lower mean on a larger library says nothing by itself
# about which ranker is better.
#
# ## Paired comparisons
#
# Within a gallery every ranker answers the same queries, so char TF-IDF is compared with BM25
# and with word TF-IDF gallery by gallery: the mean difference, and in how many galleries char
# answers more, the same number, or fewer queries correctly. This is the comparison behind the
# paper's headline, Char TF-IDF over BM25 in nearly every gallery.

# %%
paired_diffs = paired(runs)
page.show_table(paired_diffs, digits=1, caption="Paired ranker differences on each library (pp).")

# %% tags=["remove-input"]
cb = paired_diffs[paired_diffs["Comparison"].str.startswith("Char TF-IDF − BM25")]
key_of = {t: k for k, t in titles.items()}
glue_values(**by_library(
    "cb", {key_of[r["Library"]]: char_lead(r) for r in cb.to_dict("records")}, keys))

# %% [markdown]
# Char TF-IDF against BM25, paired by gallery: on RLBench-62 {glue:text}`cb_rlbench62` galleries;
# on RLBench-full at task level {glue:text}`cb_rlbench_task`; at variation level
# {glue:text}`cb_rlbench_variation`; on CALVIN {glue:text}`cb_calvin`. The paper's claim is about the
# count of galleries, not only the mean: a ranker can be ahead on average while losing many
# galleries, when its wins are large and its losses small. Why might the lead differ away from the
# paper's corpus? Character n-grams reward shared word pieces (*open*, *opens*, *opening*), which
# helps where descriptions of one task are inflections of each other; on texts written
# independently by many people that advantage has less to work with, while on template fills the
# shared pieces are the template itself.
#
# ## Gallery sensitivity
#
# Width of the 5th–95th percentile band over galleries (percentage points): how far the score moves
# with the choice of indexed text alone.

# %%
bands = sensitivity(runs)
page.show_table(bands, digits=1,
                  caption="How much accuracy moves with the choice of indexed text, per library.")

# %% tags=["remove-input"]
b = bands.set_index("Ranker")
glue_values(**by_library(
    "band", {k: widest(b[titles[k]]) for k in runs}, keys))

# %% [markdown]
# The widest band on each library: RLBench-62 {glue:text}`band_rlbench62`; RLBench-full at task
# level {glue:text}`band_rlbench_task`; at variation level {glue:text}`band_rlbench_variation`;
# CALVIN {glue:text}`band_calvin`. A wide band means that which single description happens to be
# indexed decides much of the score, the paper's central point about reference wording; it is the
# reason every comparison in this chapter is paired by gallery.
#
# ## A second indexed description
#
# As in chapter 03: from the same draws, one and then two descriptions of each label are indexed and
# the queries are the descriptions from the third shuffled position on, identical in both conditions.
# Only labels with at least three texts take part. Cells: change in pp (one → two descriptions, %).

# %%
page.show_table(gains(runs),
                  caption=("Matched study on each library: change from one to two "
                           "descriptions (pp)."))
fig = figure_transfer_gains(matched(runs), titles)
plots.save_figure(fig, out, "transfer_gains")
show_figure(
    fig, "fig-transfer-gains",
    "Matched one- versus two-description galleries: change in top-1 accuracy (pp) when a second "
    "description of each label is indexed, on the same queries, per ranker and library.",
    "Horizontal grouped bars: for each ranker, one bar per library giving the change in accuracy "
    "from one to two indexed descriptions on identical queries; right of zero is a gain.")

# %% tags=["remove-input"]
glue_values(**by_library(
    "matched", {k: f"{r.matched_labels} of {len(r.library.corpus.tasks)}" for k, r in runs.items()},
    keys),
    n_matched_trials_text=count(n_matched_trials, "matched trial"))

# %% [markdown]
# {numref}`fig-transfer-gains` draws the gains. Labels with at least three texts, those of the
# matched study: RLBench-62 {glue:text}`matched_rlbench62`; RLBench-full at task level
# {glue:text}`matched_rlbench_task`; at variation level {glue:text}`matched_rlbench_variation`;
# CALVIN {glue:text}`matched_calvin`. A second description can only help a ranker that scores a
# label by its best-matching text (the maximum over its indexed texts, as here): the second text
# is one more chance to share words with the query. How much it helps depends on how different the
# two indexed texts are: two near-identical template fills add little, two independently written
# instructions add a second vocabulary. Each cell of the table reads "gain (accuracy with one →
# with two descriptions)", on the same queries, so the gain is not confounded with a change in
# what is asked.
#
# ## The paper's claims, library by library
#
# Each claim is checked on the paper's rankers (MiniLM is reported beside them, not part of the
# claims). "Nearly all galleries" is read as at least the share given in the claim.

# %%
claim_table, held = claims(runs)
page.show_table(claim_table, caption="The paper's claims, checked on each library.")

# %% tags=["remove-input"]
glue_values(n_claims=len(held), all_hold=where_all_hold(held), **by_library(
    "held", {k: f"{int(held[titles[k]].sum())} of {len(held)}" for k in runs}, keys))

# %% [markdown]
# Claims that hold, of the paper's {glue:text}`n_claims`: RLBench-62 {glue:text}`held_rlbench62`,
# RLBench-full at task level {glue:text}`held_rlbench_task`, at variation level
# {glue:text}`held_rlbench_variation`, CALVIN {glue:text}`held_calvin`. All of them hold on
# {glue:text}`all_hold`. A claim that holds on the paper's corpus and fails on the others is a
# property of that corpus, not of the rankers.
#
# ## Variation level: near-identical texts
#
# Variations of one task are described by the same template with one value changed (a colour, a
# number, a direction), so their texts differ in one word.

# %%
near = library_overview.set_index("Library")["One word from another label (%)"]
var = runs.get("rlbench_variation")
if var is None:
    show_md("**Note.** This run leaves out the variation level (parameter `libraries`): the "
                   "paragraph below shows dashes.")
    glue_values(**dict.fromkeys(["var_near", "var_excluded", "var_best", "var_task_right",
                                 "var_reading"], "—"))
else:
    trials = var.per_trial
    one = trials[(trials["condition"] == "one") & (trials["policy"] == "primary")]
    v = summary[summary["library"] == "rlbench_variation"].set_index("ranker")["mean"]
    right = var.task_right.get("char", float("nan"))
    glue_values(var_near=f"{near[titles['rlbench_variation']]:.1f}",
                var_excluded=f"{one.drop_duplicates('trial')['n_excluded'].mean():.0f}",
                var_best=best_ranker(v.idxmax(), v.max()),
                var_task_right="—" if pd.isna(right) else f"{right:.1f}",
                var_reading="—" if pd.isna(right) else task_right_reading(right))
glue_values(**by_library("near", {k: f"{near[titles[k]]:.1f}" for k in runs}, keys))

# %% [markdown]
# At variation level {glue:text}`var_near` % of the texts have a one-word neighbour under another
# label (RLBench-62: {glue:text}`near_rlbench62` %; task level: {glue:text}`near_rlbench_task` %;
# CALVIN: {glue:text}`near_calvin` %). On average {glue:text}`var_excluded` queries per gallery
# are left out because several variations share the text. The best ranker there is
# {glue:text}`var_best`. Of Char TF-IDF's wrong answers at variation level,
# {glue:text}`var_task_right` % name another variation of the right task file, whatever words
# differ: {glue:text}`var_reading`. (The error table below sorts the same wrong answers by the words
# that differ; its *same task, other words* row holds only the variations that differ by more than
# a colour, a number or a direction.)
#
# ## Where the rankers fail
#
# Each wrong answer (primary scoring, every gallery) is sorted by how the true and the predicted
# label differ: *opposite words* (open/close, on/off, left/right, put/take, ...), *colour only*,
# *number only*, *same task, other words* (another variation of the same task file that differs in
# other words), or *another task*. Shares are of all wrong answers of the ranker on that library.

# %%
shares = error_shares(runs)
page.show_table(shares, digits=1,
                  caption=("What kind of wrong answer each ranker gives, per library "
                           "(% of its errors)."))

# %% tags=["remove-input"]
one_word = near_shares(error_shares(runs, ("char",)))
glue_values(**by_library(
    "confused", {k: f"{one_word[t]:.1f}" for k, t in titles.items() if t in one_word.index}, keys))

# %% [markdown]
# Share of Char TF-IDF's wrong answers between labels that differ by opposite words, a colour, a
# number, or that are variations of one task (every row of the table but *another task*):
# RLBench-62 {glue:text}`confused_rlbench62` %, task level {glue:text}`confused_rlbench_task` %,
# variation level {glue:text}`confused_rlbench_variation` %, CALVIN {glue:text}`confused_calvin` %.
# Such errors are hard for any lexical weighting: the texts of the two labels share nearly every
# word, and only the one that differs can decide.
#
# ### Examples
#
# Wrong answers of char TF-IDF in the first gallery of each library, with the text indexed for the
# true label and the text indexed for the label it predicted. Each is re-scored against the whole
# first gallery to check that the ranker really gives that answer. Read each row as the ranker
# sees it: the query on the left, and the two indexed texts it had to choose between; the wrong one
# won because its character n-gram vector has the higher cosine with the query's.

# %%
verified = {k: verify_examples(r, config) for k, r in runs.items()}
for key, run in runs.items():
    show_md(f"**{titles[key]}**")
    page.show_table(examples(run),
                      caption="Example wrong answers on this library.")

# %% [markdown]
# ## What this chapter does not show
#
# - **Run-time descriptions.** RLBench-full's template fills are evaluated
#   statically from the task files (chapter 01 explains how); a variation that the simulator could
#   describe differently at run time is described here as its file writes it.
# - **Other metrics.** Every number is top-1 accuracy under primary scoring, as in the paper; a
#   library where the right task is often second would look better under a ranking metric such as
#   {term}`MRR`.
# - **Larger libraries and more wordings.** Each library is used as it is; how accuracy moves with
#   more wordings per task and with more tasks is the subject of the next chapter, 09,
#   *Libraries*.
#
# ## What we found
#
# - **Best ranker.** RLBench-62: {glue:text}`best_rlbench62`; RLBench-full, task level:
#   {glue:text}`best_rlbench_task`; variation level: {glue:text}`best_rlbench_variation`; CALVIN:
#   {glue:text}`best_calvin`.
# - **The headline comparison.** Char TF-IDF − BM25: RLBench-62 {glue:text}`cb_rlbench62`; task
#   level {glue:text}`cb_rlbench_task`; variation level {glue:text}`cb_rlbench_variation`; CALVIN
#   {glue:text}`cb_calvin` galleries.
# - **The paper's claims** hold in full on {glue:text}`all_hold`; the table below says which hold
#   where.
# - **Near confusions** (labels one word apart or of one task) make up {glue:text}`confused_rlbench62` %
#   of Char TF-IDF's wrong answers on RLBench-62 and {glue:text}`confused_rlbench_variation` % at
#   variation level.

# %%
page.show_table(held.replace({True: "holds", False: "does not hold"}).reset_index(names="Claim"),
                  caption="Which of the paper's claims hold on which library.")

# %%
write_json(out / "summary.json", {
    "seed": seed, "n_trials": n_trials, "n_matched_trials": n_matched_trials,
    "rankers": list(config.rankers),
    "libraries": library_overview.to_dict(orient="records"),
    "table2": summary.drop(columns="label").to_dict(orient="records"),
    "paired": paired_diffs.to_dict(orient="records"),
    "claims": {t: {c: bool(held.loc[c, t]) for c in held.index} for t in held.columns},
    "examples_verified": verified, "files": sorted(p.name for p in files),
})
primary = per_trial[(per_trial["condition"] == "one") & (per_trial["policy"] == "primary")]
assert len(primary) == n_trials * len(config.rankers) * len(runs)
assert primary["accuracy"].between(0, 100).all()
assert all(verified.values()), verified
for key, run in runs.items():
    c = run.library.corpus
    trials = run.per_trial
    one = trials[(trials["condition"] == "one") & (trials["policy"] == "primary")]
    assert (one["n_queries"] + one["n_excluded"] == len(c.texts) - len(c.tasks)).all(), key
